"""What a mutant is, how it is applied to a text, and the list of known equivalent mutants."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

EQUIVALENT_FILE = Path(__file__).resolve().parent / "equivalent.txt"


@dataclass(frozen=True)
class Mutant:
    """One small change to one file: replace text[start:end] by `replacement`.

    `path` is relative to the repository root (with `/`), `line` and `col` are 1-based and
    point at the original text, `original` and `replacement` are what a reader sees.
    """

    path: str
    line: int
    col: int
    kind: str
    original: str
    replacement: str
    start: int
    end: int
    new_text: str

    @property
    def id(self) -> str:
        """A stable identifier: file, line, column and the change (used in equivalent.txt)."""
        return f"{self.path}:{self.line}:{self.col}: {self.original} -> {self.replacement}"


def apply_mutant(text: str, mutant: Mutant) -> str:
    """The text with the mutant's change made."""
    return text[: mutant.start] + mutant.new_text + text[mutant.end :]


def line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def make(
    text: str, path: str, start: int, end: int, new_text: str, kind: str, shown: str | None = None
) -> Mutant:
    """A mutant replacing text[start:end]; `shown` is the replacement as the id tells it."""
    line, col = line_col(text, start)
    original = " ".join(text[start:end].split())
    return Mutant(
        path,
        line,
        col,
        kind,
        original,
        shown if shown is not None else (" ".join(new_text.split()) or "(nothing)"),
        start,
        end,
        new_text,
    )


def unique(mutants: list[Mutant], text: str) -> list[Mutant]:
    """Drop mutants that leave the text unchanged or repeat an earlier mutant's result."""
    seen: set[str] = {text}
    out = []
    for m in mutants:
        result = apply_mutant(text, m)
        if result in seen:
            continue
        seen.add(result)
        out.append(m)
    return out


def load_equivalents(path: Path = EQUIVALENT_FILE) -> dict[str, str]:
    """Known equivalent mutants: id -> reason, from lines `ID | reason` (`#` comments)."""
    out: dict[str, str] = {}
    if not path.is_file():
        return out
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        ident, sep, reason = line.rpartition(" | ")
        if not sep:
            raise ValueError(f"{path}: '{line}' is not 'ID | reason'")
        out[ident.strip()] = reason.strip()
    return out
