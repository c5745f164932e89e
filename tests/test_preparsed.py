"""Shipped rules files read from their syntax trees made ahead of time (issue 12: a cold
`import trickcore` + first `load_variant` without lark): every tree is what lark parses, is
used only for exactly the text it was made from, and a damaged tree is parsed around."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import trickcore
from trickcore.language import parser, preparsed
from trickcore.language.resources import shipped_path, shipped_variants

NAMES = shipped_variants()


@pytest.mark.parametrize("name", NAMES)
def test_every_shipped_file_has_its_tree_and_it_is_what_lark_parses(name):
    path = shipped_path(name)
    assert path is not None
    text = path.read_text(encoding="utf-8")
    tree = preparsed.preparsed(text, str(path))
    assert tree is not None, f"no tree for {name}: run {preparsed.REGENERATE}"
    assert tree == parser.parse_with(parser._lark(), text, str(path)), (
        f"the tree of {name} is out of date: run {preparsed.REGENERATE}"
    )


def test_there_is_a_tree_for_each_shipped_file_and_no_other():
    trees = sorted(p.stem for p in preparsed.PARSED_DIR.glob("*.json"))
    assert trees == NAMES


def test_loading_a_shipped_variant_does_not_import_lark():
    """Only a text that is not a shipped file's needs lark."""
    code = (
        "import sys, trickcore\n"
        "trickcore.load_variant('skat-bock-rounds')\n"  # a file that extends another
        "print('lark' in sys.modules)\n"
        "trickcore.variant_from_text('extends \"tysiacha\"\\nmatch {\\n  target: 500\\n}\\n')\n"
        "print('lark' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "True"]


def test_an_edited_copy_of_a_shipped_file_is_parsed_not_read_from_the_tree(tmp_path):
    """A file named like a shipped one, with other text, gets its own rules (and its own
    errors, at their places)."""
    path = shipped_path("tysiacha")
    assert path is not None
    text = path.read_text(encoding="utf-8")
    assert preparsed.preparsed(text + "\n", str(path)) is None
    copy = tmp_path / "tysiacha.rules"
    copy.write_text(text.replace("target: 1000", "target: 700"), encoding="utf-8")
    assert "target: 1000" in text
    assert trickcore.load_variant(copy).model.match.target == 700
    copy.write_text(text + "\nmatch {\n  target: = 3\n}\n", encoding="utf-8")
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.load_variant(copy)
    where = info.value.location
    assert (where.file, where.line) == (str(copy), len(text.splitlines()) + 3)


@pytest.mark.parametrize(
    "damage",
    [
        "not json",
        '{"format": 1}',
        "[]",
        "BOTH",  # the right digests, a node of a class that is no syntax node
        "FIELDS",  # the right digests, a node with a field too many
    ],
)
def test_a_damaged_tree_is_parsed_around(damage, tmp_path, monkeypatch):
    path = shipped_path("sixty-six")
    assert path is not None
    text = path.read_text(encoding="utf-8")
    head = (preparsed.PARSED_DIR / "sixty-six.json").read_text(encoding="utf-8").split("\n")[0]
    assert json.loads(head)["text"] == preparsed.digest(text)
    if damage == "BOTH":
        damage = head + "\n" + json.dumps([{"Path": ["/etc/passwd"]}])
    elif damage == "FIELDS":
        damage = head + "\n" + json.dumps([{"Remove": [["x"], {"@": [1, 1]}, 5]}])
    (tmp_path / "sixty-six.json").write_text(damage, encoding="utf-8")
    monkeypatch.setattr(preparsed, "PARSED_DIR", tmp_path)
    assert preparsed.preparsed(text, str(path)) is None
    parser._DOCUMENTS.clear()
    try:
        doc = parser.parse_text(text, str(path))
    finally:
        parser._DOCUMENTS.clear()
    assert doc == parser.parse_with(parser._lark(), text, str(path))
