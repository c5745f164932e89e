"""Settings read from the merged syntax tree of a rules text, and that tree itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...language import syntax as s
from ...language.loader import MergedBlock, MergedRules, load_rules, load_rules_embedded
from ...language.model import VariantModel
from .errors import ReferenceError
from .expressions import BOOL_WORDS


def expr_of(entry: Any) -> s.Expr | None:
    """The expression of a setting written `name = e` (or `name: e`, as the compiler allows)."""
    if isinstance(entry, s.ExprSetting):
        return entry.expr
    if isinstance(entry, s.ListSetting) and len(entry.items) == 1:
        return entry.items[0].head
    return None


def block_of(root: MergedBlock, key: str) -> MergedBlock | None:
    """The block `key` of the rules (`play`, `meld marriage`), or None."""
    entry = root.entries.get(key)
    return entry if isinstance(entry, MergedBlock) else None


def setting_of(root: MergedBlock, block: str, name: str) -> s.Expr | None:
    """The expression of a block's setting (`name = e` or `name: e`), or None."""
    b = block_of(root, block)
    return expr_of(b.entries.get(name)) if b is not None else None


def rule_of(root: MergedBlock, block: str, name: str) -> s.Expr | None:
    """A setting written as an expression (`name = e`) only."""
    b = block_of(root, block)
    entry = b.entries.get(name) if b is not None else None
    return entry.expr if isinstance(entry, s.ExprSetting) else None


def items_of(block: MergedBlock | None, name: str) -> list[tuple[str, ...]]:
    """The items of a list setting of a block as words."""
    entry = block.entries.get(name) if block is not None else None
    if isinstance(entry, s.ListSetting):
        return [it.parts for it in entry.items]
    return []


def words_of(root: MergedBlock, block: str, name: str) -> list[tuple[str, ...]]:
    """The items of a list setting as words (`block` "" for a top-level setting)."""
    return items_of(block_of(root, block) if block else root, name)


def word_of(block: MergedBlock | None, name: str, default: str) -> str:
    """The first word of a list setting (`levels: none`), or `default`."""
    items = items_of(block, name)
    return items[0][0] if items else default


def flag_of(block: MergedBlock | None, name: str, default: bool) -> bool:
    """A yes/no list setting (`after_announce: yes`)."""
    items = items_of(block, name)
    return BOOL_WORDS[items[0][0]] if items else default


def value_word(word: str) -> bool | int:
    """A kept initial value: yes/no or a whole number."""
    return BOOL_WORDS[word] if word in BOOL_WORDS else int(word)


def load_reference_rules(model: VariantModel) -> MergedRules:
    """The merged syntax tree of the rules the model was compiled from (its own texts)."""
    files, texts = model.source_files, model.source_texts
    if texts and len(files) == len(texts):
        return load_rules_embedded(list(zip(files, texts, strict=True)), model.name)
    if model.sources and Path(model.sources[-1]).is_file():
        return load_rules(Path(model.sources[-1]))
    raise ReferenceError(f"the rules text of {model.name} is not at hand")
