"""Where the grammar and the shipped variant files are, in a checkout or an installed wheel."""

from __future__ import annotations

import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent.parent  # the trickcore package
VARIANT_SUFFIX = ".rules"


def _data_dir(name: str) -> Path:
    installed = _HERE / "_data" / name
    if installed.is_dir():
        return installed
    return _HERE.parent / name


def grammar_path() -> Path:
    """The lark grammar of the rules language."""
    return _data_dir("grammar") / "trickcore.lark"


def variants_dir() -> Path:
    """The folder of shipped variant files."""
    return _data_dir("variants")


def shipped_variants() -> list[str]:
    """Names of the shipped variants, sorted (the folder is listed afresh on every call)."""
    try:
        names = os.listdir(variants_dir())
    except OSError:
        return []
    return sorted(n[: -len(VARIANT_SUFFIX)] for n in names if n.endswith(VARIANT_SUFFIX))


def shipped_path(name: str) -> Path | None:
    """The file of a shipped variant, or None when there is no such variant."""
    path = variants_dir() / (name + VARIANT_SUFFIX)
    return path if path.is_file() else None
