"""Mutants of the engine's Python, found on its syntax tree and applied as text changes.

Comparisons swapped (`>=` -> `>`, `<`; `==` <-> `!=`; `in` <-> `not in`; `is` <-> `is not`),
`+` <-> `-` (and `*` -> `+`, `//` -> `*`, `%` -> `//`), `and` <-> `or`, `not` and unary minus
removed, whole numbers +1 / -1, `True` <-> `False`, `return X` -> `return None`, and a
statement replaced by `pass`. Docstrings, annotations and f-strings are left alone.
"""

from __future__ import annotations

import ast
import re

from .core import Mutant, make, unique

ENGINE_MODULES = (
    "trickcore/engine/actions.py",
    "trickcore/engine/bouts.py",
    "trickcore/language/blocks/__init__.py",
    "trickcore/language/blocks/after_trick.py",
    "trickcore/language/blocks/bidding.py",
    "trickcore/language/blocks/bids.py",
    "trickcore/language/blocks/bouts.py",
    "trickcore/language/blocks/combinations.py",
    "trickcore/language/blocks/context.py",
    "trickcore/language/blocks/contract.py",
    "trickcore/language/blocks/deal.py",
    "trickcore/language/blocks/decisions.py",
    "trickcore/language/blocks/deck.py",
    "trickcore/language/blocks/define.py",
    "trickcore/language/blocks/draw_up.py",
    "trickcore/language/blocks/flow.py",
    "trickcore/language/blocks/match.py",
    "trickcore/language/blocks/melds.py",
    "trickcore/language/blocks/passing.py",
    "trickcore/language/blocks/pickup.py",
    "trickcore/language/blocks/play.py",
    "trickcore/language/blocks/read_ahead.py",
    "trickcore/language/blocks/redeal.py",
    "trickcore/language/blocks/scoring.py",
    "trickcore/language/blocks/steps.py",
    "trickcore/language/blocks/talon.py",
    "trickcore/language/blocks/variant.py",
    "trickcore/language/blocks/words.py",
    "trickcore/language/compiler.py",
    "trickcore/engine/deal.py",
    "trickcore/engine/deal_core.py",
    "trickcore/engine/deal_roles.py",
    "trickcore/engine/deal_scoring.py",
    "trickcore/engine/tables.py",
    "trickcore/engine/card_texts.py",
    "trickcore/engine/card_relations.py",
    "trickcore/engine/deal_layout.py",
    "trickcore/language/exprs.py",
    "trickcore/engine/game.py",
    "trickcore/language/hands.py",
    "trickcore/language/loader.py",
    "trickcore/engine/match.py",
    "trickcore/engine/observation.py",
    "trickcore/language/parser.py",
    "trickcore/engine/saving.py",
    "trickcore/language/settings.py",
    "trickcore/engine/state.py",
    "trickcore/language/vocabulary.py",
)

_CMP_TEXT = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}
_CMP_SWAPS = {
    ">=": (">", "<"),
    ">": (">=", "<="),
    "<=": ("<", ">"),
    "<": ("<=", ">="),
    "==": ("!=",),
    "!=": ("==",),
    "in": ("not in",),
    "not in": ("in",),
    "is": ("is not",),
    "is not": ("is",),
}
_BIN_TEXT = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}
_BIN_SWAPS = {"+": "-", "-": "+", "*": "+", "//": "*", "%": "//"}
_OP_PATTERN = {
    "==": r"==",
    "!=": r"!=",
    "<": r"<(?![<=])",
    "<=": r"<=",
    ">": r">(?![>=])",
    ">=": r">=",
    "in": r"(?<![\w.])in\b",
    "not in": r"\bnot\s+in\b",
    "is": r"\bis\b(?!\s+not\b)",
    "is not": r"\bis\s+not\b",
    "+": r"\+(?!=)",
    "-": r"-(?!=)",
    "*": r"(?<!\*)\*(?![*=])",
    "//": r"//(?!=)",
    "%": r"%(?!=)",
    "and": r"\band\b",
    "or": r"\bor\b",
}
_DELETABLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Raise, ast.Return)


class _Finder:
    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self.out: list[Mutant] = []
        lines = text.splitlines(keepends=True)
        self.line_start = [0]
        for ln in lines:
            self.line_start.append(self.line_start[-1] + len(ln))
        self.lines = lines

    def pos(self, lineno: int, col: int) -> int:
        """Character offset of (1-based line, UTF-8 byte column)."""
        line = self.lines[lineno - 1]
        return self.line_start[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8"))

    def start(self, node: ast.AST) -> int:
        return self.pos(node.lineno, node.col_offset)  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> int:
        return self.pos(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def add(self, start: int, end: int, new: str, kind: str, shown: str | None = None) -> None:
        self.out.append(make(self.text, self.path, start, end, new, kind, shown))

    def op_between(self, left: ast.AST, right: ast.AST, op: str, new: str, kind: str) -> None:
        a, b = self.end(left), self.start(right)
        found = re.search(_OP_PATTERN[op], self.text[a:b])
        if found:
            self.add(a + found.start(), a + found.end(), new, kind)

    # ------------------------------------------------------------------ walk
    def body(self, stmts: list[ast.stmt]) -> None:
        for i, st in enumerate(stmts):
            if i == 0 and isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
                continue  # a docstring
            self.stmt(st)

    def stmt(self, st: ast.stmt) -> None:
        if isinstance(st, ast.If) and "TYPE_CHECKING" in ast.unparse(st.test):
            return
        if isinstance(st, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in st.targets
        ):
            return
        if isinstance(st, _DELETABLE) and not (isinstance(st, ast.AnnAssign) and st.value is None):
            first = ast.get_source_segment(self.text, st) or ""
            shown = first.splitlines()[0][:60] if first else type(st).__name__
            self.add(self.start(st), self.end(st), "pass", "statement deleted", "pass")
            m = self.out.pop()
            self.out.append(
                type(m)(m.path, m.line, m.col, m.kind, shown, "pass", m.start, m.end, "pass")
            )
        if isinstance(st, ast.Return) and st.value is not None:
            if not isinstance(st.value, ast.Constant):
                self.add(self.start(st.value), self.end(st.value), "None", "return constant")
        for field, value in ast.iter_fields(st):
            if field in ("annotation", "returns", "decorator_list", "type_params"):
                continue
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                self.body(value)
            elif isinstance(value, list):
                for v in value:
                    if isinstance(v, ast.ExceptHandler):
                        self.body(v.body)
                    elif isinstance(v, ast.AST):
                        self.expr(v)
            elif isinstance(value, ast.AST):
                self.expr(value)

    def expr(self, node: ast.AST) -> None:
        if isinstance(node, ast.JoinedStr):
            return
        if isinstance(node, (ast.arguments, ast.arg)):
            for d in getattr(node, "defaults", []) + getattr(node, "kw_defaults", []):
                if d is not None:
                    self.expr(d)
            return
        if isinstance(node, (ast.Lambda,)):
            self.expr(node.body)
            return
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for i, op in enumerate(node.ops):
                text = _CMP_TEXT.get(type(op))
                if text is None:
                    continue
                for alt in _CMP_SWAPS[text]:
                    self.op_between(operands[i], operands[i + 1], text, alt, "comparison swapped")
        elif isinstance(node, ast.BinOp):
            text = _BIN_TEXT.get(type(node.op))
            if text is not None:
                self.op_between(node.left, node.right, text, _BIN_SWAPS[text], "arithmetic swapped")
        elif isinstance(node, ast.BoolOp):
            text = "and" if isinstance(node.op, ast.And) else "or"
            alt = "or" if text == "and" else "and"
            self.op_between(node.values[0], node.values[1], text, alt, "logic swapped")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
            s = self.start(node)
            self.add(s, self.start(node.operand), "", "operator removed", "(removed)")
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                self.add(self.start(node), self.end(node), str(not node.value), "flag flipped")
            elif isinstance(node.value, int):
                for v in (node.value + 1, node.value - 1):
                    if v >= 0:
                        self.add(self.start(node), self.end(node), str(v), "number changed")
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr) or isinstance(child, ast.comprehension):
                self.expr(child)
            elif isinstance(child, (ast.arguments, ast.keyword)):
                self.expr(child)


def engine_mutants(text: str, path: str) -> list[Mutant]:
    """Every mutant of one Python module's source (`path` is how ids name the file)."""
    finder = _Finder(text, path)
    finder.body(ast.parse(text).body)
    return unique(finder.out, text)
