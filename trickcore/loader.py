"""Reads a rules file and its `extends` parents and merges them into one settings tree.

Rules files are untrusted. An `extends` reference is either a bare name (`"tysiacha"`: the
shipped variant, never a file of that name) or a path (`"./house.rules"`, `"sub/x.rules"`)
that resolves relative to the folder of the file naming it and must stay inside that folder,
the folder of the top-level file, or a search path the caller passed; it must be a regular
`.rules` file of at most 200,000 characters. No error ever shows the contents of a file that
did not pass these checks.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import attrs

from . import syntax as s
from .errors import Location, RulesError
from .parser import MAX_FILE_CHARS, parse_text
from .resources import VARIANT_SUFFIX, shipped_path, shipped_variants, variants_dir

MAX_EXTENDS_DEPTH = 16
MAX_SOURCES = 256
_MAX_FILE_BYTES = MAX_FILE_CHARS * 4  # UTF-8: more bytes than this is surely too many chars


@attrs.define
class MergedBlock:
    """A block after merging: entries by key, in the order they were first written."""

    kind: str
    name: str | None
    loc: Location | None
    entries: dict[str, Entry] = attrs.field(factory=dict)
    removed: dict[str, Location] = attrs.field(factory=dict)


Entry = s.ListSetting | s.ExprSetting | s.Step | MergedBlock


@attrs.frozen
class MergedRules:
    """A variant's settings with every parent applied.

    `sources` are the `(path, text)` of every file in merge order; `files` are the same
    files' portable names (a shipped variant's bare name, else a path relative to the
    top-level file's folder or the search path it was found in), as saved matches store them.
    """

    name: str
    path: str
    root: MergedBlock
    sources: tuple[tuple[str, str], ...]
    files: tuple[str, ...] = ()

    @property
    def content_hash(self) -> str:
        """A hash of every source text the variant was built from."""
        return sources_hash(text for _, text in self.sources)


def sources_hash(texts: Iterable[str]) -> str:
    """The content hash of rules built from these source texts, in merge order."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()[:16]


def _entry_key(stmt: s.Statement) -> str:
    if isinstance(stmt, s.Block):
        return stmt.key
    assert not isinstance(stmt, (s.Remove, s.Extends))
    return stmt.name


def _apply(block: MergedBlock, statements: tuple[s.Statement, ...]) -> None:
    for stmt in statements:
        if isinstance(stmt, s.Extends):
            continue
        if isinstance(stmt, s.Remove):
            _remove(block, stmt)
            continue
        key = _entry_key(stmt)
        if isinstance(stmt, s.Block):
            existing = block.entries.get(key)
            if not isinstance(existing, MergedBlock):
                existing = MergedBlock(stmt.kind, stmt.name, stmt.loc)
                block.entries[key] = existing
            _apply(existing, stmt.body)
        else:
            block.entries[key] = stmt


def _remove(block: MergedBlock, stmt: s.Remove) -> None:
    parts = list(stmt.path)
    target = block
    while parts:
        head = parts.pop(0)
        key = head
        if key not in target.entries and parts and f"{head} {parts[0]}" in target.entries:
            key = f"{head} {parts.pop(0)}"
        if key not in target.entries:
            raise RulesError(
                f"cannot remove '{'.'.join(stmt.path)}': nothing named '{head}' is defined here",
                stmt.loc,
            )
        if not parts:
            del target.entries[key]
            target.removed[key] = stmt.loc
            return
        nxt = target.entries[key]
        if not isinstance(nxt, MergedBlock):
            raise RulesError(
                f"cannot remove '{'.'.join(stmt.path)}': '{key}' is a setting", stmt.loc
            )
        target = nxt


def is_path_reference(ref: str) -> bool:
    """Whether a variant reference is a path (has a `/` or ends in `.rules`), not a name."""
    return "/" in ref or "\\" in ref or ref.endswith(VARIANT_SUFFIX)


def _shipped(ref: str) -> Path | None:
    return shipped_path(ref) if ref in shipped_variants() else None


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def read_rules_file(path: Path, shown_as: str | None = None) -> str:
    """The text of a rules file: a regular file of at most 200,000 UTF-8 characters.

    Errors name the file (as `shown_as`, default its path), never its contents.
    """
    label = shown_as or str(path)
    try:
        regular = path.is_file()
    except (OSError, ValueError):
        regular = False
    if not regular:
        raise RulesError(f"{label}: not a regular file")
    try:
        with path.open("rb") as handle:
            data = handle.read(_MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RulesError(f"{label}: cannot read rules file ({exc.strerror})") from None
    if len(data) > _MAX_FILE_BYTES:
        raise RulesError(f"{label}: rules file is larger than {MAX_FILE_CHARS:,} characters")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError(f"{label}: not a UTF-8 text file") from None
    if len(text) > MAX_FILE_CHARS:
        raise RulesError(f"{label}: rules file is larger than {MAX_FILE_CHARS:,} characters")
    return text


@attrs.frozen
class _Source:
    """One file taking part in a merge.

    `key` identifies it (cycles, diamonds), `path` is shown in messages, `file` is its
    portable name and `folder` the folder its own `extends` paths resolve in (None: none).
    """

    key: str
    path: str
    file: str
    text: str
    folder: Path | None = None


# Resolves `ref`, named by `source` at `loc`, to the source it names.
Resolver = Callable[[str, _Source, Location], _Source]


def _resolved(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return None


class _FileResolver:
    """Resolves references on the file system, inside the allowed folders only."""

    def __init__(self, top_dir: Path | None, search_path: Sequence[Path]) -> None:
        self.top_dir = _resolved(top_dir) if top_dir is not None else None
        self.search = [r for r in (_resolved(p) for p in search_path) if r is not None]
        self.shipped_dir = _resolved(variants_dir())

    def shipped(self, name: str) -> _Source:
        path = _shipped(name)
        assert path is not None
        real = _resolved(path) or path
        return _Source(str(real), str(path), name, read_rules_file(path, name), real.parent)

    def __call__(self, ref: str, source: _Source, loc: Location) -> _Source:
        if not is_path_reference(ref):
            if _shipped(ref) is None:
                raise RulesError(
                    f'`extends "{ref}"`: no shipped variant or file of that name (a bare name '
                    f'is a shipped variant; a file is named by its path, e.g. "./{ref}.rules")',
                    loc,
                )
            return self.shipped(ref)
        if "\x00" in ref or "\\" in ref or not ref.endswith(VARIANT_SUFFIX):
            raise RulesError(
                f'`extends "{ref}"`: a path in `extends` names a {VARIANT_SUFFIX} file, '
                "with '/' between folders",
                loc,
            )
        from_shipped = source.folder is not None and source.folder == self.shipped_dir
        bases = [source.folder] if source.folder is not None else []
        roots = list(bases)
        if not from_shipped:
            bases.extend(self.search)
            roots.extend(r for r in (self.top_dir, *self.search) if r is not None)
        for base in bases:
            candidate = base / ref
            real = _resolved(candidate)
            if real is None or not real.name.endswith(VARIANT_SUFFIX):
                continue
            inside = [root for root in roots if _inside(real, root)]
            if not inside or not real.is_file():
                continue
            root = self.top_dir if self.top_dir in inside else inside[0]
            portable = real.relative_to(root).as_posix() if root is not None else real.name
            text = read_rules_file(real, f'{loc}: `extends "{ref}"`')
            return _Source(str(real), str(candidate), portable, text, real.parent)
        where = "the folder of the file naming it" + (" or the search path" if self.search else "")
        raise RulesError(
            f'`extends "{ref}"`: no {VARIANT_SUFFIX} file of that name inside {where} '
            "(a path may not lead out of it)",
            loc,
        )


class _EmbeddedResolver:
    """Resolves references against texts embedded in a saved match (never the file system)."""

    def __init__(self, sources: Sequence[tuple[str, str]]) -> None:
        self.by_file = dict(sources)

    def __call__(self, ref: str, source: _Source, loc: Location) -> _Source:
        if is_path_reference(ref):
            candidates = [
                posixpath.normpath(posixpath.join(posixpath.dirname(source.file), ref)),
                posixpath.normpath(ref),
            ]
        else:
            candidates = [ref]
        for name in candidates:
            if name in self.by_file:
                return _Source(f"embedded:{name}", name, name, self.by_file[name])
        raise RulesError(f'`extends "{ref}"`: not among the rules saved with the match', loc)


def _linearize(
    doc: s.Document,
    source: _Source,
    stack: tuple[str, ...],
    seen: set[str],
    order: list[tuple[s.Document, str]],
    resolve: Resolver,
) -> None:
    """Depth-first: every parent before its children, each file once (diamonds merge once)."""
    if len(stack) > MAX_EXTENDS_DEPTH:
        raise RulesError(
            f"`extends` chain is deeper than {MAX_EXTENDS_DEPTH} files: "
            + " -> ".join(Path(p).name for p in stack)
        )
    for stmt in doc.statements:
        if not isinstance(stmt, s.Extends):
            continue
        for ref in stmt.parents:
            parent_source = resolve(ref, source, stmt.loc)
            key = parent_source.key
            if key in stack:
                chain = " -> ".join(Path(p).name for p in (*stack, key))
                raise RulesError(f"`extends` is cyclic: {chain}", stmt.loc)
            if key in seen:
                continue
            if len(seen) >= MAX_SOURCES:
                raise RulesError(f"the rules are built from more than {MAX_SOURCES} files")
            parent = parse_text(parent_source.text, parent_source.path)
            seen.add(key)
            _linearize(parent, parent_source, (*stack, key), seen, order, resolve)
            order.append((parent, parent_source.file))


def _merge(doc: s.Document, name: str, top: _Source, resolve: Resolver) -> MergedRules:
    order: list[tuple[s.Document, str]] = []
    _linearize(doc, top, (top.key,), set(), order, resolve)
    order.append((doc, top.file))
    root = MergedBlock("variant", None, None)
    for d, _ in order:
        _apply(root, d.statements)
    rules = MergedRules(
        name,
        doc.path,
        root,
        tuple((d.path, d.text) for d, _ in order),
        tuple(f for _, f in order),
    )
    return rules


def merge_document(
    doc: s.Document, name: str, search_path: Sequence[str | Path] = ()
) -> MergedRules:
    """Apply the parents of a document read from the file `doc.path`, then the document."""
    path = Path(doc.path)
    real = _resolved(path) or path
    resolver = _FileResolver(path.parent, [Path(p) for p in search_path])
    file = name if real.parent == resolver.shipped_dir else path.name
    top = _Source(str(real), doc.path, file, doc.text, real.parent)
    return _merge(doc, name, top, resolver)


def _variant_name(path: Path) -> str:
    return path.name[: -len(VARIANT_SUFFIX)] if path.name.endswith(VARIANT_SUFFIX) else path.stem


def load_rules(ref: str | Path, search_path: Sequence[str | Path] = ()) -> MergedRules:
    """Read a shipped variant by name, or a rules file by path, with all its parents.

    A bare name (`"tysiacha"`) is always the shipped variant; a file is named by a path
    (`"./tysiacha.rules"`) or a `Path`. `extends` paths resolve inside the file's folder or
    the folders in `search_path`.
    """
    if isinstance(ref, Path) or is_path_reference(ref):
        path = Path(ref)
        text = read_rules_file(path)
    else:
        found = _shipped(ref)
        if found is None:
            raise RulesError(
                f"no shipped variant or rules file named '{ref}' (a bare name is a shipped "
                f"variant; a file is named by its path, e.g. ./{ref}{VARIANT_SUFFIX})"
            )
        path = found
        text = read_rules_file(path, ref)
    doc = parse_text(text, str(path))
    return merge_document(doc, _variant_name(path), search_path)


def load_rules_text(
    text: str,
    name: str = "<rules>",
    base_dir: Path | None = None,
    search_path: Sequence[str | Path] = (),
) -> MergedRules:
    """Merge rules given as text: `extends` paths resolve inside base_dir (or search_path)."""
    if base_dir is not None:
        doc = parse_text(text, str(base_dir / f"{name}{VARIANT_SUFFIX}"))
        return merge_document(doc, name, search_path)
    doc = parse_text(text, name)
    resolver = _FileResolver(None, [Path(p) for p in search_path])
    top = _Source(f"<text>:{name}", name, f"{name}{VARIANT_SUFFIX}", text, None)
    return _merge(doc, name, top, resolver)


def load_rules_embedded(sources: Sequence[tuple[str, str]], name: str) -> MergedRules:
    """Merge rules from `(portable name, text)` pairs in merge order, the last one on top.

    `extends` resolves only against these texts (as a saved match stores them).
    """
    if not sources:
        raise RulesError("no rules texts given")
    if len(sources) > MAX_SOURCES:
        raise RulesError(f"the rules are built from more than {MAX_SOURCES} files")
    file, text = sources[-1]
    doc = parse_text(text, file)
    top = _Source(f"embedded:{file}", file, file, text)
    return _merge(doc, name, top, _EmbeddedResolver(sources))
