"""Hints that turn an error into advice: "did you mean" for a misspelt name, and what to
write instead for the mistakes newcomers make most in a rules file (see docs/language.md, "Common
mistakes and what the message says")."""

from __future__ import annotations

import re
from collections.abc import Iterable

# The suit symbols players know, each with the letter the shipped decks give its suit.
SUIT_GLYPHS = {
    "♠": "S",
    "♤": "S",
    "♣": "C",
    "♧": "C",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
}

# What to write instead of a character the language does not have.
CHARACTER_HINTS = {
    "&": "write 'and' ('a and b'), not '&&'",
    "|": "write 'or' ('a or b'), not '||'",
    "!": "write 'not' ('not a') or '!=' for 'is not equal'",
    "/": "write 'div(a, b)' to divide (whole numbers, rounded down), not 'a / b'",
    "%": "write 'mod(a, b)' for the remainder, not 'a % b'",
    "'": 'a string is written in double quotes: "My house rule"',
    ";": "write one setting per line (no ';'); a block on one line holds one setting",
    "[": "a list is written without brackets: 'ranks: A, K, Q'",
    "]": "a list is written without brackets: 'ranks: A, K, Q'",
}

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"


def close_to(word: str, choices: Iterable[str], most: int = 1) -> list[str]:
    """The names among `choices` closest to a misspelt `word` (none if none is close)."""
    import difflib  # here: only a broken file needs it

    pool = sorted(set(choices))
    found = difflib.get_close_matches(word, pool, n=most, cutoff=0.75)
    if not found:
        lowered = {c.lower(): c for c in pool}
        found = [lowered[m] for m in difflib.get_close_matches(word.lower(), lowered, most, 0.6)]
    return found


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """ " (did you mean 'x'?)" for the choice closest to `word`, or "" if none is close."""
    found = close_to(word, choices)
    return f" (did you mean '{found[0]}'?)" if found else ""


def card_hint(text: str | None, cards: Iterable[str]) -> str:
    """What to write instead of `text` where a card was expected: its capitals (`qs`), the
    ten as 10 (`TS`), or the close card of `cards`; "" when nothing fits."""
    if text is None:
        return " (rank + suit letter, e.g. QS; not a number alone)"
    names = set(cards)
    if text.upper() in names:
        return f"; cards are written in capitals: {text.upper()}"
    if text[:1] in "Tt" and f"10{text[1:].upper()}" in names:
        return f"; the ten is written 10: {'10' + text[1:].upper()}"
    found = close_to(text, names)
    if found:
        return f" (did you mean '{found[0]}'?)"
    return "; a card is its rank and its suit's letter together, e.g. QS for the queen of spades"


def glyph_card(before: str, glyph: str) -> str:
    """The card a newcomer meant by a rank followed by a suit symbol (`Q♠` -> `QS`), from
    the text just before the symbol; "" when no rank precedes it."""
    rank = re.search(r"(10|[2-9]|[A-Za-z])$", before)
    letter = SUIT_GLYPHS.get(glyph, "")
    return f"{rank.group(1).upper()}{letter}" if rank and letter else ""


def glyph_hint(line: str, column: int, glyph: str) -> str:
    """What to write instead of a suit symbol at `column` (1-based) of `line`."""
    before = line[: column - 1]
    card = glyph_card(before, glyph)
    rank = re.search(r"(10|[2-9]|[A-Za-z])$", before)
    write = f"write {card}, not {rank.group(1)}{glyph}; " if card and rank else ""
    return (
        f"{write}cards are written rank + suit letter, e.g. QS, 10H (the suit's letter is "
        "the one the deck's 'suits:' gives it, such as 'spades S \"♠\"')"
    )


def missing_rule_keyword(line: str) -> str | None:
    """The advice for `NAME: [if ... then] NAME = ...` (a rule without the word `rule`), or
    None when `line` does not look like one."""
    m = re.match(rf"\s*({_NAME})\s*:\s*(.*)$", line)
    if m is None or m.group(1) in ("rule", "name", "extends"):
        return None
    rest = m.group(2)
    if re.match(rf"(if\b.*\bthen\s+)?{_NAME}\s*=(?!=)", rest) is None:
        return None
    return (
        f"a rule starts with the word 'rule': write 'rule {m.group(1)}: {rest.strip()}' "
        "(in an after_deal, after_trick or after_card block)"
    )


def equals_hint(line: str, column: int) -> str | None:
    """The advice for an unexpected '=' at `column` where '==' was meant (a comparison in a
    setting's expression or in a rule's condition), or None."""
    before = line[: column - 1]
    setting = re.match(rf"\s*{_NAME}\s*=(?!=)", before)
    condition = re.match(rf"\s*rule\s+{_NAME}.*:\s*if\b", before) and " then " not in before
    if setting or condition:
        return "to compare, write '==' (a single '=' only gives a setting or a name its value)"
    return None


def block_not_closed(lines: list[str]) -> str:
    """Which block a text ending too soon left open: advice naming its line, or ""."""
    open_at: list[tuple[int, str]] = []
    for number, line in enumerate(lines, 1):
        code = re.sub(r'"[^"\n]*"', '""', line.split("#", 1)[0])
        for ch in code:
            if ch == "{":
                open_at.append((number, line.strip()))
            elif ch == "}" and open_at:
                open_at.pop()
    if not open_at:
        return ""
    number, text = open_at[-1]
    return f"the block opened on line {number} ('{text}') needs a closing '}}'"


def brace_on_next_line(lines: list[str], line: int) -> str:
    """Advice when a block's name stands alone on `line` and its '{' opens the next line."""
    following = next((t.strip() for t in lines[line:] if t.strip()), "")
    name = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    if following.startswith("{") and re.fullmatch(rf"{_NAME}( {_NAME})?", name):
        return f"a block's '{{' goes on the line of its name: write '{name} {{'"
    return ""


def extends_hint(line: str) -> str:
    """Advice for a malformed `extends` line (the parent is a quoted name or path)."""
    m = re.match(r"\s*extends\s*:?\s*\"?([^\"\s,]*)", line)
    if m is None or not line.lstrip().startswith("extends"):
        return ""
    name = m.group(1) or "NAME"
    return f'the parent is written in double quotes: extends "{name}"'
