"""Reads a rules file and its `extends` parents and merges them into one settings tree.

Rules files are untrusted. An `extends` reference is either a bare name (`"base"`: the
shipped variant, never a file of that name) or a path (`"./house.rules"`, `"sub/x.rules"`)
that resolves relative to the folder of the file naming it and must stay inside that folder,
the folder of the top-level file, or a search path the caller passed; it must be a regular
`.rules` file of at most 200,000 characters. No error ever shows the contents of a file that
did not pass these checks.
"""

from __future__ import annotations

import hashlib
import heapq
import posixpath
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import attrs

from . import syntax as s
from .defines import DEFINE_BLOCK, expander
from .errors import Location, RulesError, RulesErrors
from .hints import did_you_mean
from .parser import MAX_FILE_CHARS, parse_text
from .resources import VARIANT_SUFFIX, shipped_path, shipped_variants, variants_dir

MAX_EXTENDS_DEPTH = 16
MAX_SOURCES = 256
MAX_RULES_CHARS = 4_000_000  # every rules file of a variant together (a saved match holds them)
_MAX_FILE_BYTES = MAX_FILE_CHARS * 4  # UTF-8: more bytes than this is surely too many chars


@attrs.define
class MergedBlock:
    """A block after merging: entries by key, in the order they were first written (a rule
    placed with `before`/`after` where it was placed).

    `removed` holds where an entry was removed; `changed_by` where an entry was last replaced,
    moved, extended or trimmed after it was first written (a block: re-created after a
    removal); `item_changed_by` where an item of a list setting, known by `(setting key, first
    word)`, was last added, dropped or changed after the list was first written.
    """

    kind: str
    name: str | None
    loc: Location | None
    entries: dict[str, Entry] = attrs.field(factory=dict)
    removed: dict[str, Location] = attrs.field(factory=dict)
    changed_by: dict[str, Location] = attrs.field(factory=dict)
    item_changed_by: dict[tuple[str, str], Location] = attrs.field(factory=dict)

    @property
    def label(self) -> str:
        """The block as written: `after_deal`, `meld NAME`, or `the variant` at the top."""
        if self.kind == "variant" and self.loc is None:
            return "the variant"
        return f"'{self.kind}'" if self.name is None else f"'{self.kind} {self.name}'"


Entry = s.ListSetting | s.ExprSetting | s.Step | MergedBlock


@attrs.frozen
class MergedRules:
    """A variant's settings with every parent applied.

    `sources` are the `(path, text)` of every file in merge order; `files` are the same
    files' portable names, as saved matches store them: a shipped variant's bare name, a path
    relative to the top-level file's folder, or `searchK/` and a path relative to the K-th
    search-path folder it was found in. No two files of one variant share a name.
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

    def blame(self, name_path: str | Sequence[str]) -> Location | None:
        """Where the entry at `name_path` was last changed after it was first written, or
        None if it never was: the line of a later file that replaced, moved, extended,
        trimmed or removed it.

        `name_path` is dotted (`"scoring.made"`, `"meld NAME.value"`) or a sequence of
        keys (`("match", "keep")`); one more part after a list setting names an item by its
        first word (`"match.keep.on_bonus"`: who dropped, changed or added that item only).
        A path into a block that was removed or re-created blames that when nothing inside
        was changed since.
        """
        parts = name_path.split(".") if isinstance(name_path, str) else list(name_path)
        block = self.root
        found: Location | None = None
        while parts:
            head = parts.pop(0)
            key = head
            if parts and not _known(block, key) and _known(block, f"{head} {parts[0]}"):
                key = f"{head} {parts.pop(0)}"
            entry = block.entries.get(key)
            if entry is None:
                return block.removed.get(key) or block.changed_by.get(key) or found
            here = block.changed_by.get(key)
            if isinstance(entry, MergedBlock):
                found = here or found
                block = entry
                continue
            if not parts:
                return here or found
            if isinstance(entry, s.ListSetting) and len(parts) == 1:
                return block.item_changed_by.get((key, parts[0])) or found
            return found
        return found

    def because(self, error: RulesError, name_paths: Iterable[str | Sequence[str]]) -> RulesError:
        """`error` with "(because of FILE:LINE:COL, ...)" appended, naming every place in
        a file merged after the error's own that changed one of `name_paths` (see
        `blame`), in merge order; `error` itself when there is none.

        The compiler calls it on an error in an inherited entry with the names that entry
        reads, so that the message also points at the child line that broke it.
        """
        own = error.location.file if error.location is not None else None
        order = {path: i for i, (path, _) in enumerate(self.sources)}
        # only files merged after the error's own can have broken it: the lines of its
        # parents are what it was written against
        after = order.get(own, -1) if own is not None else -1
        culprits = {
            loc
            for loc in (self.blame(p) for p in name_paths)
            if loc is not None and loc.file != own and order.get(loc.file, len(order)) > after
        }
        if not culprits:
            return error
        ranked = sorted(culprits, key=lambda c: (order.get(c.file, -1), c.line, c.column))
        shown = ", ".join(str(c) for c in ranked)
        return RulesError(f"{error.message} (because of {shown})", error.location)


def _path_to(block: MergedBlock, key: str) -> str:
    """How `remove` names the entry `key` of `block` (the top block has no name)."""
    if block.kind == "variant" and block.loc is None:
        return key
    prefix = block.kind if block.name is None else f"{block.kind}.{block.name}"
    return f"{prefix}.{key}"


def _some(names: list[str], most: int = 12) -> str:
    """Names for a message, at most `most` of them."""
    if len(names) <= most:
        return ", ".join(names)
    return ", ".join(names[:most]) + f", ... ({len(names)} in all)"


def _known(block: MergedBlock, key: str) -> bool:
    return key in block.entries or key in block.removed


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
    assert not isinstance(stmt, (s.Remove, s.Extends, s.ListChange))
    return stmt.name


def _apply(
    block: MergedBlock, statements: tuple[s.Statement, ...], errors: list[RulesError]
) -> None:
    """Merge `statements` into `block`. A `remove` that removes nothing changes nothing, so
    the merge goes on: its error is added to `errors` (every other error is raised)."""
    placed: list[s.Step] = []
    for stmt in statements:
        if isinstance(stmt, s.Extends):
            continue
        if isinstance(stmt, s.Remove):
            try:
                _remove(block, stmt)
            except RulesError as exc:
                errors.append(exc)
            continue
        if isinstance(stmt, s.ListChange):
            _change_list(block, stmt)
            continue
        key = _entry_key(stmt)
        existing = block.entries.get(key)
        if isinstance(stmt, s.Block):
            if not isinstance(existing, MergedBlock):
                if existing is not None or key in block.removed:
                    block.changed_by[key] = stmt.loc
                existing = MergedBlock(stmt.kind, stmt.name, stmt.loc)
                block.entries[key] = existing
            _apply(existing, stmt.body, errors)
            continue
        if existing is not None or key in block.removed:
            block.changed_by[key] = stmt.loc
        if isinstance(stmt, s.ListSetting):
            _blame_items(block, key, existing, stmt)
        block.entries[key] = stmt
        if isinstance(stmt, s.Step) and stmt.placement is not None:
            placed.append(stmt)
    if placed:  # after the whole block body: a rule may be placed next to a later one
        _place_all(block, placed)


def _place_all(block: MergedBlock, placed: list[s.Step]) -> None:
    """Place rules in written order, except that a rule placed next to another rule placed
    in the same block body waits for that one; several rules placed after one rule follow
    it in written order. (Linear in the block's size, whatever the file holds.)"""
    order = _Order(block.entries)
    index = {st.name: i for i, st in enumerate(placed)}
    waiting: dict[str, list[int]] = {}  # a placed rule -> the placed rules placed next to it
    ready: list[int] = []
    for i, st in enumerate(placed):
        assert st.placement is not None
        other = st.placement.other
        if other in index and other != st.name:
            waiting.setdefault(other, []).append(i)
        else:
            ready.append(i)
    heapq.heapify(ready)
    anchors: dict[str, str] = {}  # rule -> the last rule placed after it so far
    done: set[int] = set()
    while ready:
        at = heapq.heappop(ready)
        _place(block, order, placed[at], anchors)
        done.add(at)
        for i in waiting.pop(placed[at].name, ()):
            heapq.heappush(ready, i)
    if len(done) < len(placed):
        stuck = [st for i, st in enumerate(placed) if i not in done]
        assert stuck[0].placement is not None
        circle = ", ".join(f"'{st.name}'" for st in stuck)
        raise RulesError(
            f"rules {circle} are placed before or after each other in a circle",
            stuck[0].placement.loc,
        )
    block.entries = {key: block.entries[key] for key in order.keys()}


class _Order:
    """The keys of a block as a linked list, so that moving one is cheap."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.next: dict[str | None, str | None] = {}
        self.prev: dict[str | None, str | None] = {}
        last: str | None = None  # None stands for both ends
        for key in keys:
            self.next[last], self.prev[key] = key, last
            last = key
        self.next[last], self.prev[None] = None, last

    def unlink(self, key: str) -> None:
        """Take `key` out of the order."""
        before, after = self.prev.pop(key), self.next.pop(key)
        self.next[before], self.prev[after] = after, before

    def insert_after(self, anchor: str | None, key: str) -> None:
        """Put `key` right after `anchor` (None: at the start)."""
        after = self.next[anchor]
        self.next[anchor], self.prev[key] = key, anchor
        self.next[key], self.prev[after] = after, key

    def keys(self) -> list[str]:
        """The keys in order."""
        out: list[str] = []
        key = self.next[None]
        while key is not None:
            out.append(key)
            key = self.next[key]
        return out


def _blame_items(block: MergedBlock, key: str, old: Entry | None, new: s.ListSetting) -> None:
    """Record the items a list written again adds, drops or changes (by first word)."""
    if not isinstance(old, s.ListSetting):
        return
    before = {it.parts[0]: it for it in old.items}
    after = {it.parts[0]: it for it in new.items}
    for word in (*before, *after):
        old_item, new_item = before.get(word), after.get(word)
        if old_item is None or new_item is None or old_item.parts != new_item.parts:
            where = new_item.loc if new_item is not None else new.loc
            block.item_changed_by[(key, word)] = where


def _place(block: MergedBlock, order: _Order, step: s.Step, anchors: dict[str, str]) -> None:
    """Move the rule `step` names to just before or after the rule its placement names."""
    assert step.placement is not None
    where, other = step.placement.where, step.placement.other
    if step.name not in block.entries:  # removed again later in the same block body
        return
    if other == step.name:
        raise RulesError(f"rule '{step.name}' cannot be placed {where} itself", step.placement.loc)
    target = block.entries.get(other)
    if not isinstance(target, s.Step):
        rules = [k for k, e in block.entries.items() if isinstance(e, s.Step) and k != step.name]
        if target is not None:
            why = f"'{other}' is not a rule"
        elif other in block.removed:
            why = f"rule '{other}' is removed at {block.removed[other]}"
        else:
            why = f"{block.label} has no rule '{other}'"
        known = f"; its rules: {_some(rules)}" if rules else "; it has no other rules"
        raise RulesError(
            f"cannot place rule '{step.name}' {where} '{other}': {why}{known}",
            step.placement.loc,
        )
    order.unlink(step.name)
    if where == "before":
        order.insert_after(order.prev[other], step.name)
        return
    anchor = anchors.get(other, other)
    if anchor not in order.next:  # moved out of the way since
        anchor = other
    order.insert_after(anchor, step.name)
    anchors[other] = step.name


def _change_list(block: MergedBlock, stmt: s.ListChange) -> None:
    """`name +: items` appends to the inherited list; `name -: items` drops, for each item
    written, the one inherited item that starts with its words."""
    key = stmt.name
    written = f"{key} {stmt.op}:"
    existing = block.entries.get(key)
    if existing is None:
        removed = block.removed.get(key)
        why = f"it is removed at {removed}" if removed else f"{block.label} inherits no '{key}:'"
        raise RulesError(
            f"'{written}' changes an inherited list, but {why}; write '{key}: ...' to set it",
            stmt.loc,
        )
    if not isinstance(existing, s.ListSetting):
        shape = "a block" if isinstance(existing, MergedBlock) else "not a list ('NAME: ...')"
        raise RulesError(
            f"'{written}' changes an inherited list, but '{key}' is {shape} "
            f"(written at {existing.loc})",
            stmt.loc,
        )
    items = list(existing.items)
    if stmt.op == "+":
        items.extend(stmt.items)
        for it in stmt.items:
            block.item_changed_by[(key, it.parts[0])] = it.loc
    else:
        items = _drop_items(block, stmt, items)
    block.changed_by[key] = stmt.loc
    block.entries[key] = s.ListSetting(key, tuple(items), stmt.loc)


class _Prefixes:
    """The items of a list by every prefix of their words (a trie): which items start with
    given words, in time linear in the words, however long the list."""

    def __init__(self) -> None:
        self.children: dict[str, _Prefixes] = {}
        self.items: set[int] = set()

    def add(self, words: tuple[str, ...], index: int) -> None:
        """Record item `index` under every prefix of `words`."""
        node = self
        for word in words:
            node = node.children.setdefault(word, _Prefixes())
            node.items.add(index)

    def discard(self, words: tuple[str, ...], index: int) -> None:
        """Forget item `index` (recorded with `words`)."""
        node = self
        for word in words:
            node = node.children[word]
            node.items.discard(index)

    def starting(self, words: tuple[str, ...]) -> set[int]:
        """The items whose words start with `words`."""
        node: _Prefixes | None = self
        for word in words:
            node = node.children.get(word) if node is not None else None
        return node.items if node is not None else set()


def _drop_items(block: MergedBlock, stmt: s.ListChange, items: list[s.Item]) -> list[s.Item]:
    """The items left when, for each item written, the one item starting with its words is
    dropped (of several equal items, the last)."""
    key, written = stmt.name, f"{stmt.name} -:"
    parts = [it.parts for it in items]
    index = _Prefixes()
    for i, words in enumerate(parts):
        index.add(words, i)
    dropped: set[int] = set()
    for it in stmt.items:
        words = it.parts
        hits = index.starting(words)
        if len({parts[i] for i in hits}) == 1:  # one item, or copies of one: drop the last
            hits = {max(hits)}
        if len(hits) != 1:
            left = [" ".join(p) for i, p in enumerate(parts) if i not in dropped]
            problem = (
                f"no item of '{key}' starts with '{' '.join(words)}'"
                if not hits
                else f"{len(hits)} items of '{key}' start with '{' '.join(words)}'; "
                "write more of the one to drop"
            )
            raise RulesError(f"'{written}': {problem} (its items: {_some(left)})", it.loc)
        (i,) = hits
        dropped.add(i)
        index.discard(parts[i], i)
        block.item_changed_by[(key, parts[i][0])] = it.loc
    left_items = [it for i, it in enumerate(items) if i not in dropped]
    if not left_items:
        raise RulesError(
            f"'{written}' drops every item of '{key}'; a list keeps at least one item "
            f"(to delete the setting write 'remove {_path_to(block, key)}')",
            stmt.loc,
        )
    return left_items


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
                f"cannot remove '{'.'.join(stmt.path)}': nothing named '{head}' is defined "
                f"here{did_you_mean(head, target.entries)}",
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


def is_regular_file(path: str | Path) -> bool:
    """Whether `path` is a regular file (after links); False, never an error, for a path the
    system cannot check (too long, a NUL byte, no permission)."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):
        return False


class UnreadableFile(Exception):
    """A file that cannot be read as bounded UTF-8 text; the message says why (never what
    the file holds)."""


def read_text_limited(path: Path, max_bytes: int) -> str:
    """The UTF-8 text of a regular file of at most `max_bytes` bytes, read with that bound
    (devices, FIFOs and folders are refused before anything is read)."""
    if not is_regular_file(path):
        raise UnreadableFile("not a regular file")
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except (OSError, ValueError) as exc:
        reason = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
        raise UnreadableFile(f"cannot be read ({reason})") from None
    if len(data) > max_bytes:
        raise UnreadableFile("too large")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableFile("not UTF-8 text") from None


def read_rules_file(path: Path, shown_as: str | None = None) -> str:
    """The text of a rules file: a regular file of at most 200,000 UTF-8 characters.

    Errors name the file (as `shown_as`, default its path), never its contents.
    """
    label = shown_as or str(path).replace("\x00", "\\0")
    too_large = f"{label}: rules file is larger than {MAX_FILE_CHARS:,} characters"
    try:
        text = read_text_limited(path, _MAX_FILE_BYTES)
    except UnreadableFile as exc:
        reason = str(exc)
        if reason == "too large":
            raise RulesError(too_large) from None
        if reason == "not UTF-8 text":
            raise RulesError(f"{label}: not a UTF-8 text file") from None
        raise RulesError(f"{label}: {reason}") from None
    if len(text) > MAX_FILE_CHARS:
        raise RulesError(too_large)
    return text


@attrs.frozen
class _Source:
    """One file taking part in a merge.

    `key` identifies it (cycles, diamonds), `path` is shown in messages, `file` is its
    portable name and `folder` the folder its own `extends` paths resolve in (None: none);
    `root` is the allowed folder its portable name is relative to (0: the top-level file's
    folder, k: the k-th folder of the search path).
    """

    key: str
    path: str
    file: str
    text: str
    folder: Path | None = None
    root: int = 0


def search_tag(k: int) -> str:
    """The prefix of the portable name of a file found in the k-th search-path folder."""
    return f"search{k}/"


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
        self.names: dict[str, str] = {}  # portable name -> the key of the file that has it

    def claim(self, source: _Source, loc: Location | None) -> _Source:
        """Give `source` its portable name, which no other file of the variant may have."""
        owner = self.names.setdefault(source.file, source.key)
        if owner != source.key:
            raise RulesError(
                f"two different rules files would be saved under the same name "
                f"'{source.file}' ({owner} and {source.key}); rename one of them",
                loc,
            )
        return source

    def _portable(self, real: Path, inside: list[int], prefer: int) -> tuple[str, int]:
        """The portable name of `real`, relative to the allowed folder `prefer` if it is inside
        it, else the top-level file's folder, else the first search-path folder holding it."""
        index = prefer if prefer in inside else (0 if 0 in inside else inside[0])
        if index == 0:
            assert self.top_dir is not None
            return real.relative_to(self.top_dir).as_posix(), 0
        rel = real.relative_to(self.search[index - 1]).as_posix()
        return f"{search_tag(index)}{rel}", index

    def shipped(self, name: str) -> _Source:
        path = _shipped(name)
        assert path is not None
        real = _resolved(path) or path
        return _Source(str(real), str(path), name, read_rules_file(path, name), real.parent)

    def __call__(self, ref: str, source: _Source, loc: Location) -> _Source:
        if not is_path_reference(ref):
            if _shipped(ref) is None:
                raise RulesError(
                    f'`extends "{ref}"`: no shipped variant or file of that name'
                    f"{did_you_mean(ref, shipped_variants())} (a bare name is a shipped "
                    f'variant; a file is named by its path, e.g. "./{ref}.rules")',
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
        # (base folder, the allowed folder a name found there is preferably relative to)
        bases = [(source.folder, source.root)] if source.folder is not None else []
        if not from_shipped:
            bases.extend((root, k) for k, root in enumerate(self.search, 1))
        for base, prefer in bases:
            candidate = base / ref
            real = _resolved(candidate)
            if real is None or not real.name.endswith(VARIANT_SUFFIX):
                continue
            if from_shipped:
                inside = [-1] if _inside(real, base) else []
            else:
                roots = [self.top_dir, *self.search]
                inside = [k for k, r in enumerate(roots) if r is not None and _inside(real, r)]
            if not inside or not is_regular_file(real):
                continue
            if from_shipped:
                portable, root = real.relative_to(base).as_posix(), -1
            else:
                portable, root = self._portable(real, inside, prefer)
            text = read_rules_file(real, f'{loc}: `extends "{ref}"`')
            found = _Source(str(real), str(candidate), portable, text, real.parent, root)
            return self.claim(found, loc)
        where = "the folder of the file naming it" + (" or the search path" if self.search else "")
        raise RulesError(
            f'`extends "{ref}"`: no {VARIANT_SUFFIX} file of that name inside {where} '
            "(a path may not lead out of it)",
            loc,
        )


_SEARCH_NAME = re.compile(r"search([1-9][0-9]{0,5})/")


class _EmbeddedResolver:
    """Resolves references against texts embedded in a saved match (never the file system),
    in the order the file system is searched: the folder of the file naming the reference,
    then each search-path folder (names tagged `search1/`, ...), then the top-level folder."""

    def __init__(self, sources: Sequence[tuple[str, str]]) -> None:
        self.by_file = dict(sources)
        tags = {int(m.group(1)) for m in map(_SEARCH_NAME.match, self.by_file) if m}
        self.tags = [search_tag(k) for k in sorted(tags)]

    def __call__(self, ref: str, source: _Source, loc: Location) -> _Source:
        if is_path_reference(ref):
            name = source.file
            tag = next((t for t in self.tags if name.startswith(t)), "")
            here = posixpath.dirname(name[len(tag) :])
            own = posixpath.normpath(posixpath.join(here, ref))
            if own.startswith("../"):  # out of a search folder: into the top-level folder
                own, tag = posixpath.normpath(posixpath.join(posixpath.dirname(name), ref)), ""
            candidates = [tag + own]
            plain = posixpath.normpath(ref)
            candidates += [t + plain for t in self.tags] + [plain]
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
    """Depth-first: every parent before its children, each file once (diamonds merge once).
    Errors are at the `extends` line that names a parent too many: a cycle, a chain deeper
    than MAX_EXTENDS_DEPTH files, more than MAX_SOURCES files in all."""
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
            if len(stack) >= MAX_EXTENDS_DEPTH:
                chain = " -> ".join(Path(p).name for p in (*stack, key))
                raise RulesError(
                    f"`extends` chain is deeper than {MAX_EXTENDS_DEPTH} files: {chain}",
                    stmt.loc,
                )
            if len(seen) >= MAX_SOURCES:
                raise RulesError(
                    f"the rules are built from more than {MAX_SOURCES} files", stmt.loc
                )
            total = len(parent_source.text) + sum(len(d.text) for d, _ in order)
            if total > MAX_RULES_CHARS:
                raise RulesError(
                    f"the rules files of this variant hold more than {MAX_RULES_CHARS:,} "
                    "characters in all (a saved match carries them)",
                    stmt.loc,
                )
            parent = parse_text(parent_source.text, parent_source.path)
            seen.add(key)
            _linearize(parent, parent_source, (*stack, key), seen, order, resolve)
            order.append((parent, parent_source.file))


def _merge(doc: s.Document, name: str, top: _Source, resolve: Resolver) -> MergedRules:
    order: list[tuple[s.Document, str]] = []
    _linearize(doc, top, (top.key,), set(), order, resolve)
    if len(doc.text) + sum(len(d.text) for d, _ in order) > MAX_RULES_CHARS:
        raise RulesError(
            f"the rules files of this variant hold more than {MAX_RULES_CHARS:,} characters "
            "in all (a saved match carries them)",
            Location(doc.path, 1, 1),
        )
    order.append((doc, top.file))
    root = MergedBlock("variant", None, None)
    errors: list[RulesError] = []  # of `remove` lines: each is independent of the others
    for d, _ in order:
        try:
            _apply(root, d.statements, errors)
        except RulesError as exc:
            raise RulesErrors([*errors, exc]) if errors else exc from None
    if errors:
        raise RulesErrors(errors) if len(errors) > 1 else errors[0]
    root = _with_defines(root)
    rules = MergedRules(
        name,
        doc.path,
        root,
        tuple((d.path, d.text) for d, _ in order),
        tuple(f for _, f in order),
    )
    return rules


def _with_defines(root: MergedBlock) -> MergedBlock:
    """The merged rules with the `define` block's names written into every expression that
    names them (`define { NAME = EXPR }`); the block itself stays for the compiler."""
    block = root.entries.get(DEFINE_BLOCK)
    if not isinstance(block, MergedBlock):
        return root
    expand = expander(block.entries)
    if expand is None:
        return root

    def walk(b: MergedBlock) -> MergedBlock:
        if b.kind == DEFINE_BLOCK:
            return b
        entries: dict[str, Entry] = {}
        for key, entry in b.entries.items():
            entries[key] = walk(entry) if isinstance(entry, MergedBlock) else expand.entry(entry)  # type: ignore[assignment]
        return attrs.evolve(b, entries=entries)

    return walk(root)


def merge_document(
    doc: s.Document, name: str, search_path: Sequence[str | Path] = ()
) -> MergedRules:
    """Apply the parents of a document read from the file `doc.path`, then the document."""
    path = Path(doc.path)
    real = _resolved(path) or path
    resolver = _FileResolver(path.parent, [Path(p) for p in search_path])
    file = name if real.parent == resolver.shipped_dir else path.name
    top = resolver.claim(_Source(str(real), doc.path, file, doc.text, real.parent), None)
    return _merge(doc, name, top, resolver)


def _variant_name(path: Path) -> str:
    return path.name[: -len(VARIANT_SUFFIX)] if path.name.endswith(VARIANT_SUFFIX) else path.stem


def load_rules(ref: str | Path, search_path: Sequence[str | Path] = ()) -> MergedRules:
    """Read a shipped variant by name, or a rules file by path, with all its parents.

    A bare name (`"base"`) is always the shipped variant; a file is named by a path
    (`"./base.rules"`) or a `Path`. `extends` paths resolve inside the file's folder or
    the folders in `search_path`.
    """
    if isinstance(ref, Path) or is_path_reference(ref):
        path = Path(ref)
        text = read_rules_file(path)
    else:
        found = _shipped(ref)
        if found is None:
            raise RulesError(
                f"no shipped variant or rules file named '{ref}'"
                f"{did_you_mean(ref, shipped_variants())} (a bare name is a shipped "
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
    top = resolver.claim(_Source(f"<text>:{name}", name, f"{name}{VARIANT_SUFFIX}", text), None)
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
