"""Mutants of a rules file: the mistakes a house-rule author makes, one at a time.

Every number (+1, -1, x2, 0), every yes/no flipped, every one-of-words setting swapped for
each alternative the compiler accepts, comparison / arithmetic / logical operators swapped,
`not` and unary minus removed, `round`/`floor`/`ceil` and `min`/`max` exchanged, a list item
dropped, an `after_deal` rule or a `remove` line deleted.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree

from .core import Mutant, make, unique

ROOT = Path(__file__).resolve().parent.parent

COMPARE_SWAPS = {
    ">=": (">", "<"),
    ">": (">=", "<="),
    "<=": ("<", ">"),
    "<": ("<=", ">="),
    "==": ("!=",),
    "!=": ("==",),
}
ARITH_SWAPS = {"+": ("-",), "-": ("+",), "*": ("+",)}
LOGIC_SWAPS = {"and": ("or",), "or": ("and",)}
FLAG_FLIPS = {"yes": "no", "no": "yes", "true": "false", "false": "true"}
FUNCTION_SWAPS = {
    "round": ("floor", "ceil"),
    "floor": ("round", "ceil"),
    "ceil": ("round", "floor"),
    "min": ("max",),
    "max": ("min",),
}
# Settings whose items start with a rank symbol (`10`, `9`): renaming a card is not a rule.
RANK_SYMBOL_SETTINGS = ("ranks", "points", "cards")
# One-word settings that BlockSettings.word does not read (their blocks parse them).
EXTRA_CHOICES: dict[str, tuple[str, ...]] = {
    "tie_break": ("declarer", "highest"),
}
# the compile steps of the blocks, one module per block kind
BLOCKS_DIR = ROOT / "trickcore" / "language" / "blocks"


@lru_cache(maxsize=1)
def word_choices() -> dict[str, tuple[str, ...]]:
    """Setting name -> the words it may be, read from the `b.word(...)` calls of the blocks'
    compile steps (a setting of two blocks takes the words of the first module by name)."""
    out: dict[str, tuple[str, ...]] = dict(EXTRA_CHOICES)
    for path in sorted(BLOCKS_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "word"
                and len(node.args) >= 2
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[1], ast.Tuple)
            ):
                words = tuple(
                    e.value
                    for e in node.args[1].elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                )
                out.setdefault(str(node.args[0].value), words)
    return out


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = (ROOT / "grammar" / "trickcore.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        keep_all_tokens=True,
    )


def _number_values(n: int) -> list[int]:
    values = [n + 1, n - 1, n * 2, 0]
    return [v for v in dict.fromkeys(values) if v != n and v >= 0]


def _tokens(node: Any) -> list[Token]:
    if isinstance(node, Token):
        return [node]
    if isinstance(node, Tree):
        return [t for c in node.children for t in _tokens(c)]
    return []


def _data(node: Any) -> str:
    return str(node.data) if isinstance(node, Tree) else ""


class _Collector:
    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self.out: list[Mutant] = []
        self.choices = word_choices()

    def replace(self, tok: Token, new: str, kind: str) -> None:
        assert tok.start_pos is not None and tok.end_pos is not None
        self.out.append(make(self.text, self.path, tok.start_pos, tok.end_pos, new, kind))

    def delete_lines(self, node: Tree, kind: str, what: str) -> None:
        toks = [t for t in _tokens(node) if t.type != "_NL"]
        start = self.text.rfind("\n", 0, toks[0].start_pos) + 1
        end_nl = self.text.find("\n", toks[-1].end_pos)
        end = len(self.text) if end_nl < 0 else end_nl + 1
        m = make(self.text, self.path, start, end, "", kind, "(deleted)")
        self.out.append(Mutant(m.path, m.line, m.col, kind, what, "(deleted)", start, end, ""))

    # --------------------------------------------------------------- walking
    def statements(self, children: list[Any], block: str) -> None:
        for st in children:
            kind = _data(st)
            if kind == "block":
                self.statements(st.children[2:], str(st.children[0]))
            elif kind == "list_setting":
                self.list_setting(st, block)
            elif kind == "expr_setting":
                self.expr(st.children[2])
            elif kind == "step":
                if block == "after_deal":
                    self.delete_lines(st, "rule deleted", f"rule {st.children[1]}")
                for c in st.children[3:]:
                    if _data(c) == "condition":
                        self.expr(c.children[1])
                    elif _data(c) == "assign":
                        self.expr(c.children[2])
            elif kind == "remove":
                dotted = "".join(str(t) for t in _tokens(st.children[1]))
                self.delete_lines(st, "remove deleted", f"remove {dotted}")

    def list_setting(self, st: Tree, block: str) -> None:
        name = str(st.children[0])
        items = [c for c in st.children[2].children if _data(c) == "item"]
        choices = self.choices.get(name)
        for item in items:
            toks = [t for t in _tokens(item) if t.type != "_NL"]
            if len(toks) == 1 and toks[0].type == "NAME" and choices and toks[0] in choices:
                for alt in choices:
                    if alt != toks[0]:
                        self.replace(toks[0], alt, "setting swapped")
                continue
            self.item(name, item, toks)
        if len(items) > 1:
            for i, item in enumerate(items):
                toks = [t for t in _tokens(item) if t.type != "_NL"]
                start, end = toks[0].start_pos, toks[-1].end_pos
                assert start is not None and end is not None
                if i + 1 < len(items):  # drop "item, " up to the next item
                    nxt = _tokens(items[i + 1])[0].start_pos
                    assert nxt is not None
                    end = nxt
                else:  # drop ", item" from the previous item's end
                    prev = [t for t in _tokens(items[i - 1]) if t.type != "_NL"][-1]
                    assert prev.end_pos is not None
                    start = prev.end_pos
                m = make(self.text, self.path, start, end, "", "item dropped")
                shown = " ".join(self.text[toks[0].start_pos : toks[-1].end_pos].split())
                self.out.append(
                    Mutant(m.path, m.line, m.col, m.kind, shown, "(dropped)", start, end, "")
                )

    def item(self, setting: str, item: Tree, toks: list[Token]) -> None:
        head = item.children[0]
        if setting not in RANK_SYMBOL_SETTINGS:  # a rank symbol such as 10 is a name
            self.expr(head)
        for word in item.children[1:]:
            for t in _tokens(word):
                if t.type == "NUMBER":
                    self.number(t)
                elif t.type == "NAME" and t in FLAG_FLIPS:
                    self.replace(t, FLAG_FLIPS[t], "flag flipped")
        # `ends: one_left | passes N`, `target: N | none`, `swap_rank: RANK | none`
        first = toks[0]
        if first in ("at_least", "exactly"):
            self.replace(first, "exactly" if first == "at_least" else "at_least", "setting swapped")
        if setting == "ends" and first == "one_left":
            self.replace(first, "passes 2", "setting swapped")
        elif setting == "ends" and first == "passes":
            assert first.start_pos is not None and toks[-1].end_pos is not None
            self.out.append(
                make(
                    self.text,
                    self.path,
                    first.start_pos,
                    toks[-1].end_pos,
                    "one_left",
                    "setting swapped",
                )
            )
        elif setting in ("target", "swap_rank") and len(toks) == 1:
            if first == "none":
                self.replace(first, "1000" if setting == "target" else "7", "setting swapped")
            else:
                self.replace(first, "none", "setting swapped")

    def number(self, tok: Token) -> None:
        for v in _number_values(int(tok)):
            self.replace(tok, str(v), "number changed")

    def expr(self, node: Any) -> None:
        if isinstance(node, Token):
            return
        if not isinstance(node, Tree):
            return
        kind = _data(node)
        children: list[Any] = list(node.children)
        if kind == "number":
            self.number(children[0])
        elif kind == "name" and children[0] in FLAG_FLIPS:
            self.replace(children[0], FLAG_FLIPS[children[0]], "flag flipped")
        elif kind == "call" and children[0] in FUNCTION_SWAPS:
            for alt in FUNCTION_SWAPS[children[0]]:
                self.replace(children[0], alt, "function swapped")
        for c in children:
            if isinstance(c, Token):
                if c.type == "COMPARE":
                    for alt in COMPARE_SWAPS[str(c)]:
                        self.replace(c, alt, "comparison swapped")
                elif kind in ("add", "sub", "mul") and str(c) in ARITH_SWAPS:
                    for alt in ARITH_SWAPS[str(c)]:
                        self.replace(c, alt, "arithmetic swapped")
                elif kind in ("and_op", "or_op") and str(c) in LOGIC_SWAPS:
                    for alt in LOGIC_SWAPS[str(c)]:
                        self.replace(c, alt, "logic swapped")
        if kind in ("not_op", "neg"):
            op, operand = children[0], _tokens(children[1])[0]
            assert op.start_pos is not None and operand.start_pos is not None
            m = make(self.text, self.path, op.start_pos, operand.start_pos, "", "operator removed")
            self.out.append(
                Mutant(m.path, m.line, m.col, m.kind, str(op), "(removed)", m.start, m.end, "")
            )
        for c in children:
            if isinstance(c, Tree):
                self.expr(c)


def rules_mutants(text: str, path: str) -> list[Mutant]:
    """Every mutant of a rules file's text (`path` is how ids name the file)."""
    tree = _parser().parse(text)
    collector = _Collector(text, path)
    collector.statements(tree.children, "")
    return unique(collector.out, text)
