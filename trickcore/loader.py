"""Reads a rules file and its `extends` parents and merges them into one settings tree."""

from __future__ import annotations

import hashlib
from pathlib import Path

import attrs

from . import syntax as s
from .errors import Location, RulesError
from .parser import parse_text
from .resources import VARIANT_SUFFIX, shipped_path

MAX_EXTENDS_DEPTH = 16


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
    """A variant's settings with every parent applied; `sources` are the files in order."""

    name: str
    path: str
    root: MergedBlock
    sources: tuple[tuple[str, str], ...]

    @property
    def content_hash(self) -> str:
        """A hash of every source text the variant was built from."""
        digest = hashlib.sha256()
        for _, text in self.sources:
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


def resolve_reference(ref: str, base_dir: Path | None) -> Path | None:
    """Find the file an `extends` string or a user's variant argument names."""
    looks_like_path = "/" in ref or "\\" in ref or ref.endswith(VARIANT_SUFFIX)
    if looks_like_path:
        candidate = Path(ref)
        if not candidate.is_absolute() and base_dir is not None:
            candidate = base_dir / candidate
        return candidate if candidate.is_file() else None
    if base_dir is not None:
        local = base_dir / (ref + VARIANT_SUFFIX)
        if local.is_file():
            return local
    return shipped_path(ref)


def _read(path: Path) -> s.Document:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RulesError(f"{path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise RulesError(f"{path}: cannot read rules file ({exc.strerror})") from None
    return parse_text(text, str(path))


def _linearize(
    doc: s.Document, stack: tuple[str, ...], seen: dict[str, s.Document], order: list[s.Document]
) -> None:
    """Depth-first: every parent before its children, each file once (diamonds merge once)."""
    if len(stack) > MAX_EXTENDS_DEPTH:
        raise RulesError(
            f"`extends` chain is deeper than {MAX_EXTENDS_DEPTH} files: {' -> '.join(stack)}"
        )
    base_dir = Path(doc.path).parent if doc.path and not doc.path.startswith("<") else None
    for stmt in doc.statements:
        if not isinstance(stmt, s.Extends):
            continue
        for ref in stmt.parents:
            path = resolve_reference(ref, base_dir)
            if path is None:
                raise RulesError(
                    f'`extends "{ref}"`: no shipped variant or file of that name', stmt.loc
                )
            key = str(path.resolve())
            if key in stack:
                chain = " -> ".join(Path(p).name for p in (*stack, key))
                raise RulesError(f"`extends` is cyclic: {chain}", stmt.loc)
            if key in seen:
                continue
            parent = _read(path)
            seen[key] = parent
            _linearize(parent, (*stack, key), seen, order)
            order.append(parent)


def merge_document(doc: s.Document, name: str) -> MergedRules:
    """Apply a parsed document's parents and then the document itself."""
    order: list[s.Document] = []
    own_key = str(Path(doc.path).resolve()) if not doc.path.startswith("<") else doc.path
    _linearize(doc, (own_key,), {own_key: doc}, order)
    order.append(doc)
    root = MergedBlock("variant", None, None)
    for d in order:
        _apply(root, d.statements)
    return MergedRules(name, doc.path, root, tuple((d.path, d.text) for d in order))


def load_rules(ref: str | Path) -> MergedRules:
    """Read a shipped variant by name, or a rules file by path, with all its parents."""
    text_ref = str(ref)
    path = resolve_reference(text_ref, Path.cwd()) if not isinstance(ref, Path) else ref
    if path is None or not path.is_file():
        raise RulesError(f"no shipped variant or rules file named '{text_ref}'")
    doc = _read(path)
    name = path.name[: -len(VARIANT_SUFFIX)] if path.name.endswith(VARIANT_SUFFIX) else path.stem
    return merge_document(doc, name)


def load_rules_text(text: str, name: str = "<rules>", base_dir: Path | None = None) -> MergedRules:
    """Merge rules given as text (its `extends` resolve against base_dir or shipped names)."""
    path = str((base_dir or Path.cwd()) / f"{name}{VARIANT_SUFFIX}") if base_dir else name
    doc = parse_text(text, path)
    return merge_document(doc, name)
