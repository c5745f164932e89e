"""What a card symbol or a name of the rules may be written as."""

from __future__ import annotations


def is_word(text: str) -> bool:
    """Letters (any script), ASCII digits and underscores: a symbol that prints as one word."""
    return bool(text) and all(ch.isalpha() or ch in "0123456789_" for ch in text)


def is_name(text: str) -> bool:
    """A name expressions can read: ASCII letters, digits and _, not starting with a digit."""
    return bool(text) and text.isascii() and text.isidentifier()
