"""The rules' expressions are compiled to generated Python; that Python holds nothing of a
rules file's text: only operators, a few keywords, whole numbers, `env` and names the
compiler made up (the brief: no eval/exec of anything from a rules file)."""

from __future__ import annotations

import io
import keyword
import re
import tokenize
from typing import Any

import attrs
import pytest

import trickcore
from trickcore.language.exprs import CompiledExpr

ALLOWED_WORDS = {"def", "make", "f", "env", "return", "and", "or", "not", "if", "else"}
ALLOWED_WORDS |= {"True", "False"}
ALLOWED_OPS = {"(", ")", "[", "]", ",", ":", "+", "-", "*", "<", "<=", ">", ">=", "==", "!="}


def compiled_exprs(model: Any) -> list[CompiledExpr]:
    """Every compiled expression anywhere in a variant's model."""
    out: list[CompiledExpr] = []
    seen: set[int] = set()
    stack = [model]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, CompiledExpr):
            out.append(node)
        elif attrs.has(type(node)):
            stack.extend(getattr(node, f.name) for f in attrs.fields(type(node)))
        elif isinstance(node, (list, tuple, set, frozenset)):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
    return out


def foreign_tokens(source: str) -> list[str]:
    """The tokens of generated source that the compiler does not write itself."""
    bad = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME:
            if tok.string not in ALLOWED_WORDS and not re.fullmatch(r"K\d+", tok.string):
                bad.append(tok.string)
        elif tok.type == tokenize.NUMBER:
            if not re.fullmatch(r"\d+", tok.string):
                bad.append(tok.string)
        elif tok.type == tokenize.OP:
            if tok.string not in ALLOWED_OPS:
                bad.append(tok.string)
        elif tok.type not in (
            tokenize.NEWLINE,
            tokenize.NL,
            tokenize.INDENT,
            tokenize.DEDENT,
            tokenize.ENDMARKER,
        ):
            bad.append(tok.string)  # strings, comments, anything else
    return bad


@pytest.mark.parametrize("name", trickcore.list_variants())
def test_every_shipped_variants_generated_code_is_only_compiler_made(name: str) -> None:
    """Every expression of every shipped variant: its generated source holds only
    compiler-made tokens, and none of the file's names or texts."""
    v = trickcore.load_variant(name)
    exprs = compiled_exprs(v.model)
    assert exprs, f"{name} has no compiled expressions?"
    for e in exprs:
        assert e.source, e.text
        assert foreign_tokens(e.source) == [], (e.text, e.source)


HOSTILE = """
extends "tysiacha"
match {
  keep: on_barrel no, barrel_deals 0, __import__ 0, eval 0, exec 0, open 0, system 0
}
after_deal {
  rule sneak: __import__ = __import__ + 1, eval = eval + __import__ * 2
  rule more: open = if eval > 2 and not (exec == 1) then open + 1 else open - 1
}
"""


def test_names_that_mean_something_in_python_stay_plain_names() -> None:
    """A rules file whose names are Python builtins: they never reach the generated source,
    and they work as ordinary kept values."""
    v = trickcore.variant_from_text(HOSTILE, "hostile.rules")
    for e in compiled_exprs(v.model):
        assert foreign_tokens(e.source) == []
        for word in ("__import__", "eval", "exec", "open", "system"):
            assert word not in e.source
    m = v.new_match(seed=3)
    for _ in range(3):  # three deals: the kept values follow their rules
        n = len(m.deal_results)
        while len(m.deal_results) == n and not m.is_over:
            m.apply(m.legal_actions()[0])
    kept = m.kept_state(0)
    assert kept["__import__"] == 3
    # one rule's assignments all read the values before it: eval grows by 2 * 0, 2 * 1, 2 * 2
    assert kept["eval"] == 0 + 2 + 4
    assert kept["open"] == -1 - 1 + 1  # the next rule reads them: eval > 2 after deal 3 only


def test_deep_expressions_compile_and_compute_right() -> None:
    """An expression nested 90 deep (near the limit of 100) is split into functions of its
    own and still computes the right value."""
    depth = 90
    expr = "1" + " + 1" * depth  # + groups to the left: a tree 90 deep
    text = f"""
extends "tysiacha"
match {{
  keep: on_barrel no, barrel_deals 0, deep 0
}}
after_deal {{
  rule r: deep = {expr}
}}
"""
    v = trickcore.variant_from_text(text, "deep.rules")
    m = v.new_match(seed=1)
    while not m.deal_results:
        m.apply(m.legal_actions()[0])
    assert m.kept_state(0)["deep"] == depth + 1
    for e in compiled_exprs(v.model):
        assert foreign_tokens(e.source) == []


def test_keywords_are_not_rules_names() -> None:
    """Python keywords cannot be names of a rules file either (the grammar's words), so the
    generated code's keywords never collide with a rule's name."""
    for word in ("and", "or", "not", "if", "else"):
        assert keyword.iskeyword(word)
    bad = 'extends "tysiacha"\nmatch { keep: return 0 }\n'
    with pytest.raises(trickcore.RulesError):
        trickcore.variant_from_text(bad, "kw.rules")
