"""Typed access to the settings of one merged block, with located errors."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from . import syntax as s
from .errors import Location, RulesError, RulesErrors, UnknownSettingError
from .exprs import BOOL_WORDS, CompiledExpr, Scope, compile_expr
from .hints import did_you_mean
from .loader import MergedBlock


class BlockSettings:
    """Typed access to one merged block's settings, with located errors."""

    def __init__(self, block: MergedBlock | None, label: str, fallback: Location | None) -> None:
        self.block = block
        self.label = label
        self.loc = block.loc if block is not None and block.loc is not None else fallback

    def raw(self, name: str) -> Any:
        """The entry of that name (a setting, rule or block), or None."""
        if self.block is None:
            return None
        return self.block.entries.get(name)

    def missing(self, name: str, message: str) -> RulesError:
        """An error for a required setting that is not there (or was removed)."""
        removed = self.block.removed.get(name) if self.block is not None else None
        if removed is not None:
            return RulesError(f"{message} (it is removed here)", removed)
        return RulesError(message, self.loc)

    def items(self, name: str, required: bool = False) -> tuple[s.Item, ...] | None:
        """The items of a list setting `name: ...` (required: an error when missing)."""
        entry = self.raw(name)
        if entry is None:
            if required:
                raise self.missing(name, f"{self.label} needs a setting '{name}:'")
            return None
        if not isinstance(entry, s.ListSetting):
            value = f"{name}: {s.expr_text(entry.expr)}" if isinstance(entry, s.ExprSetting) else ""
            write = f": write '{value}'" if value else ""
            raise RulesError(
                f"'{name}' is written '{name}: ...' (a list), not with '='{write}", entry.loc
            )
        return entry.items

    def word(self, name: str, choices: tuple[str, ...], default: str) -> str:
        """A setting that is one word among `choices`."""
        items = self.items(name)
        if items is None:
            return default
        if len(items) != 1 or items[0].words or items[0].parts[0] not in choices:
            raise RulesError(f"'{name}' must be one of: {', '.join(choices)}", items[0].loc)
        return items[0].parts[0]

    def flag(self, name: str, default: bool) -> bool:
        """A yes/no setting."""
        items = self.items(name)
        if items is None:
            return default
        text = items[0].parts[0] if len(items) == 1 and not items[0].words else ""
        if text not in BOOL_WORDS:
            raise RulesError(f"'{name}' must be yes or no", items[0].loc)
        return BOOL_WORDS[text]

    def integer(self, name: str, default: int | None, minimum: int = 0) -> int | None:
        """A whole-number setting (`none` gives None)."""
        items = self.items(name)
        if items is None:
            return default
        if len(items) == 1 and not items[0].words and items[0].parts[0] == "none":
            return None
        return (
            int_item(items[0], f"'{name}'", minimum)
            if len(items) == 1
            else fail(f"'{name}' takes one number", items[1].loc)
        )

    def expr(self, name: str, scope: Scope, want: str, default: CompiledExpr | None = None) -> Any:
        """An expression setting `name = ...`, checked in `scope` to be of type `want`."""
        entry = self.raw(name)
        if entry is None:
            if default is None:
                raise self.missing(name, f"{self.label} needs a setting '{name} = ...'")
            return default
        if isinstance(entry, s.ListSetting):
            if len(entry.items) == 1 and not entry.items[0].words:
                return compile_expr(entry.items[0].head, scope, want)
            raise RulesError(f"'{name}' is an expression: write '{name} = ...'", entry.loc)
        if not isinstance(entry, s.ExprSetting):
            raise RulesError(f"'{name}' must be a setting", entry.loc)
        return compile_expr(entry.expr, scope, want)

    def check_known(self, known: Collection[str]) -> None:
        """Refuse settings this block does not know, naming the ones it does."""
        if self.block is None:
            return
        errors: list[RulesError] = [
            UnknownSettingError(
                f"unknown setting '{key}' in {self.label}{did_you_mean(key, known)}; "
                f"settings: {', '.join(sorted(known))}",
                entry.loc,
            )
            for key, entry in self.block.entries.items()
            if key not in known
        ]
        if errors:
            raise errors[0] if len(errors) == 1 else RulesErrors(errors)


def fail(message: str, loc: Location | None) -> Any:
    """Raise a RulesError (usable inside an expression)."""
    raise RulesError(message, loc)


def int_item(item: s.Item, what: str, minimum: int = 0) -> int:
    """An item that is one whole number of at least `minimum`."""
    head = item.head
    value: int | None = None
    if isinstance(head, s.Number):
        value = head.value
    elif isinstance(head, s.Unary) and head.op == "-" and isinstance(head.operand, s.Number):
        value = -head.operand.value
    if value is None or item.words:
        raise RulesError(f"{what} must be a whole number", item.loc)
    if value < minimum:
        raise RulesError(f"{what} must be at least {minimum}", item.loc)
    return value


def word_int(word: str, loc: Location, what: str) -> int:
    """A word that is a whole number of at most 9 digits."""
    digits = word[1:] if word.startswith("-") else word
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        raise RulesError(f"{what} must be a whole number of at most 9 digits, not '{word}'", loc)
    return int(word)
