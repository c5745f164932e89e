"""Fast loading stays exact and safe (issue 12): the parser tables shipped in the package are
those of grammar/trickcore.lark and parse every file as a parser built afresh from the grammar
does, errors included; a warm load gives the same variant and notices any change to a file;
nothing is read from a pickle or kept in a temporary folder. (No timings here: see
benchmarks/load.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import lark
import pytest

import trickcore
from trickcore.language import parser, tables
from trickcore.language.loader import load_rules
from trickcore.language.resources import grammar_path, shipped_path

ROOT = Path(__file__).resolve().parent.parent
BROKEN = sorted((Path(__file__).parent / "broken").glob("*.rules"))
REGENERATE = "python -m trickcore.language.tables"


@pytest.fixture(scope="module")
def fresh() -> lark.Lark:
    """A parser built from the grammar the way loading built it before the tables shipped."""
    return lark.Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
    )


@pytest.fixture(scope="module")
def shipped() -> lark.Lark:
    """The parser loaded from the tables shipped in the package."""
    loaded = tables.shipped_parser()
    assert loaded is not None, f"the shipped tables do not fit the grammar; run {REGENERATE}"
    return loaded


def variant_files() -> list[Path]:
    files = [shipped_path(name) for name in trickcore.list_variants()]
    assert len(files) >= 10
    return [f for f in files if f is not None]


def outcome(p: lark.Lark, text: str, path: str) -> object:
    """The document parsed from `text`, or the error: its message, place and quoted line."""
    try:
        return parser.parse_with(p, text, path)
    except trickcore.RulesError as err:
        return ("error", str(err), err.location)


def trees_differ(a: lark.Tree, b: lark.Tree) -> str | None:
    """Where two lark trees differ, names, tokens and positions included (None: nowhere)."""
    if a != b:
        return f"{a} != {b}"
    fields = ("line", "column", "end_line", "end_column", "start_pos", "end_pos")
    for x, y in zip(a.iter_subtrees(), b.iter_subtrees(), strict=True):
        where = [getattr(x.meta, f, None) for f in fields]
        if where != [getattr(y.meta, f, None) for f in fields]:
            return f"{x.data} at {where} vs. {[getattr(y.meta, f, None) for f in fields]}"
        for s, t in zip(x.children, y.children, strict=True):
            if isinstance(s, lark.Token) and isinstance(t, lark.Token):
                if [s.type, *(getattr(s, f) for f in fields)] != [
                    t.type,
                    *(getattr(t, f) for f in fields),
                ]:
                    return f"token {s!r} at {s.line}:{s.column} vs. {t!r} at {t.line}:{t.column}"
    return None


def corruptions(text: str) -> list[str]:
    """Broken copies of a rules text: a stray character or word put in, a character taken
    out, the text cut short, at places spread over the text."""
    strays = ["}", "{", ":", "@", "= =", ",", "(", ")", '"', "\n}", " if", "+:", "$", "1 2"]
    cuts = [len(text) * k // 5 for k in range(1, 5)]
    out = []
    for k, at in enumerate(cuts):
        stray = strays[(k * 5 + len(text)) % len(strays)]
        out.append(text[:at] + stray + text[at:])
        out.append(text[:at] + text[at + 1 :])
        out.append(text[:at])
    out.append(text.replace("\n", " ", 1))
    return out


def test_shipped_tables_are_generated_from_the_grammar():
    """The tables module is what the generator writes for the grammar in use today."""
    shipped_source = tables.TABLES_MODULE.read_text(encoding="utf-8")
    assert tables.render_module(grammar_path().read_text(encoding="utf-8")) == shipped_source, (
        f"lark_tables.py is out of date with grammar/trickcore.lark: run {REGENERATE}"
    )


def test_generating_the_tables_does_not_depend_on_the_hash_seed():
    """Another interpreter, with another string hash, writes the very same file: the
    regenerate command never changes the file while the grammar stays the same."""
    code = (
        "import sys; from trickcore.language import tables; "
        "sys.stdout.write(tables.render_module())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
        timeout=120,
    ).stdout
    assert out == tables.TABLES_MODULE.read_text(encoding="utf-8")


def test_tables_of_another_grammar_or_lark_series_are_never_used(shipped, monkeypatch):
    """A grammar changed by a single character no longer matches the shipped tables, so its
    parser is built from it (stale tables are never used); nor are tables made by another
    lark series (major.minor) than the one installed."""
    grammar = grammar_path().read_text(encoding="utf-8")
    assert tables.shipped_parser(grammar + "\n// changed\n") is None
    digits = grammar.replace("NUMBER: /[0-9]+/", "NUMBER: /[0-8]+/")
    assert digits != grammar and tables.shipped_parser(digits) is None
    with pytest.raises(lark.exceptions.UnexpectedCharacters):
        tables.load_parser(digits).parse("a: 9\n")  # built from the changed grammar
    assert trees_differ(tables.load_parser().parse("a: 9\n"), shipped.parse("a: 9\n")) is None
    from trickcore.language import lark_tables

    assert tables.lark_series("1.3.1") == "1.3" and tables.lark_series("2.0") == "2.0"
    monkeypatch.setattr(lark_tables, "LARK_SERIES", "0.12")
    assert tables.shipped_parser() is None


def test_every_shipped_variant_parses_as_with_a_freshly_built_parser(fresh, shipped):
    """Each shipped variant gives the same lark tree (names, tokens, positions) and the same
    syntax tree with the shipped tables as with a parser built from the grammar."""
    for file in variant_files():
        text = file.read_text(encoding="utf-8")
        source = text if text.endswith("\n") else text + "\n"
        assert trees_differ(shipped.parse(source), fresh.parse(source)) is None, file.name
        doc = outcome(shipped, text, str(file))
        assert doc == outcome(fresh, text, str(file)), file.name
        assert parser.parse_text(text, str(file)) == doc, file.name


def test_syntax_errors_read_as_with_a_freshly_built_parser(fresh, shipped):
    """Broken copies of every shipped variant and of the files in tests/broken give the same
    outcome, each error word for word with its file:line:column and expected tokens,
    whichever parser reads them; and the corpus does reach every kind of syntax error."""
    seen: set[str] = set()
    mismatches = []
    files = variant_files() + BROKEN
    for file in files:
        text = file.read_text(encoding="utf-8")
        for broken in [text, *corruptions(text)]:
            mine, theirs = outcome(shipped, broken, str(file)), outcome(fresh, broken, str(file))
            if mine != theirs:
                mismatches.append((file.name, broken[-80:], mine, theirs))
            if isinstance(theirs, tuple):
                message = theirs[1]
                for kind in ("unexpected character", "unexpected end of file", "expected "):
                    if kind in message:
                        seen.add(kind)
                if "unexpected '" in message or "unexpected end of line" in message:
                    seen.add("unexpected token")
    assert mismatches == []
    assert seen == {
        "unexpected character",
        "unexpected end of file",
        "expected ",
        "unexpected token",
    }


def test_errors_are_the_same_on_every_load(tmp_path):
    """A broken file reports the same error (message, file:line:column) the second time it
    is loaded, and again when it is loaded with nothing kept: errors are never cached."""
    bad = tmp_path / "bad.rules"
    bad.write_text('extends "tysiacha"\nbidding {\n  step: 5 +\n}\n', encoding="utf-8")
    messages = []
    for _ in range(2):
        with pytest.raises(trickcore.RulesError) as info:
            trickcore.load_variant(bad)
        messages.append(str(info.value))
    parser._DOCUMENTS.clear()
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.load_variant(bad)
    messages.append(str(info.value))
    assert messages[0].startswith(f"{bad}:3:12: the expression breaks off")
    assert messages == [messages[0]] * 3


@pytest.mark.parametrize(
    "name", ["tysiacha", "skat-ramsch", "hearts-moon-choice", "russisch-schnapsen-36-ohne"]
)
def test_a_warm_load_gives_an_equal_variant(name):
    """Loading a variant again (its files kept from the first load) gives rules and a model
    equal to those of a load that parses every file of its `extends` chain afresh."""
    first = trickcore.load_variant(name)
    rules = load_rules(name)
    warm = trickcore.load_variant(name)
    assert warm.model == first.model
    assert load_rules(name) == rules
    parser._DOCUMENTS.clear()
    cold = trickcore.load_variant(name)
    assert cold.model == warm.model
    assert load_rules(name) == rules
    assert len(rules.sources) >= 1


def test_broken_files_load_the_same_warm_as_cold():
    """Each file of tests/broken loads (or fails) the same way with its files kept from an
    earlier load as when every file is parsed afresh."""
    for file in BROKEN:
        outcomes = []
        for keep in (False, True, True):
            if not keep:
                parser._DOCUMENTS.clear()
            try:
                outcomes.append(trickcore.load_variant(file).model)
            except trickcore.RulesError as err:
                outcomes.append(str(err))
        assert outcomes == [outcomes[0]] * 3, file.name


def _same_size_and_time(path: Path, text: str, stamp: os.stat_result) -> None:
    """Write `text` (as long as the old text) and put back the old modification time."""
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    now = path.stat()
    assert (now.st_size, now.st_mtime_ns) == (stamp.st_size, stamp.st_mtime_ns)


def test_an_edited_file_is_noticed_even_with_the_same_size_and_time(tmp_path):
    """Changing a rules file's text, even keeping its size and modification time, changes
    the next load: both for the file loaded and for a parent it extends."""
    hearts = shipped_path("hearts")
    assert hearts is not None
    base_text = hearts.read_text(encoding="utf-8")
    assert 'name: "Hearts"' in base_text
    base = tmp_path / "base.rules"
    base.write_text(base_text.replace('name: "Hearts"', 'name: "Alpha1"'), encoding="utf-8")
    house = tmp_path / "house.rules"
    house.write_text('extends "./base.rules"\n# no changes\n', encoding="utf-8")
    assert trickcore.load_variant(house).title == "Alpha1"

    stamp = base.stat()
    _same_size_and_time(base, base_text.replace('name: "Hearts"', 'name: "Alpha2"'), stamp)
    assert trickcore.load_variant(house).title == "Alpha2"  # the parent changed

    stamp = house.stat()
    _same_size_and_time(house, 'extends "./base.rules"\nname: "Beta"\n', stamp)
    assert trickcore.load_variant(house).title == "Beta"  # the file loaded changed
    assert trickcore.load_variant(base).title == "Alpha2"


def test_kept_documents_stay_within_their_bound():
    """The parsed files kept for warm loads hold at most the configured number of characters
    of rules text and path, dropping the least recently used first; a larger one is not
    kept, and a text is kept for the path it was parsed at only."""
    cache = parser._DocumentCache(max_chars=30)
    docs = [parser.parse_text(f"a{i}: {i}\n", f"f{i}") for i in range(6)]  # 6 + 2 chars each
    for doc in docs:
        cache.put(doc)
    assert [cache.get(d.text, d.path) is d for d in docs] == [False] * 3 + [True] * 3
    assert cache.get(docs[5].text, "f5") is docs[5]
    assert cache.get(docs[3].text, "f3") is docs[3]  # f4 is now the least recently used
    cache.put(parser.parse_text("b0: 0\n", "g0"))
    assert cache.get(docs[4].text, "f4") is None
    assert cache.get(docs[3].text, "f3") is docs[3] and cache.get(docs[5].text, "f5") is docs[5]
    big = parser.parse_text("c: " + "1, " * 10 + "1\n", "big")
    cache.put(big)
    assert cache.get(big.text, "big") is None
    assert cache.get(docs[3].text, "elsewhere") is None


# Run in a fresh interpreter: every file opened (audit hook), pickle made to fail, and lark's
# grammar compiler made to fail, then two variants loaded twice.
_WATCH = """
import json, pickle, sys
opened = []
def hook(event, args):
    if event == "open" and isinstance(args[0], str):
        mode = args[1] if isinstance(args[1], str) else ""
        flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
        opened.append((args[0], mode, flags))
sys.addaudithook(hook)
def refuse(*args, **kwargs):
    raise AssertionError("pickle used")
for name in ("load", "loads", "dump", "dumps", "Unpickler", "Pickler"):
    setattr(pickle, name, refuse)
import lark
def no_build(self, *args, **kwargs):
    raise AssertionError("the parser was built from the grammar")
lark.Lark.__init__ = no_build
import trickcore
for name in ("hearts", "skat-ramsch", "hearts", "skat-ramsch"):
    trickcore.load_variant(name)
print(json.dumps(opened))
"""


def test_loading_reads_no_pickle_builds_no_parser_and_writes_nothing():
    """Importing trickcore and loading variants (cold, then warm) never unpickles, never
    builds the parser from the grammar (the shipped tables are used), opens no file for
    writing and nothing inside the temporary folder."""
    run = subprocess.run(
        [sys.executable, "-B", "-c", _WATCH],
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"},
    )
    assert run.returncode == 0, run.stderr
    opened = json.loads(run.stdout)
    assert any(path.endswith("skat-ramsch.rules") for path, _, _ in opened)
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    written = [
        path
        for path, mode, flags in opened
        if any(c in mode for c in "wax+") or (flags & write_flags)
    ]
    assert written == []
    # the checkout (a mutation-testing copy lives in the temporary folder) and Python's own
    # files are not caches
    own = [ROOT, Path(trickcore.__file__).parent, Path(lark.__file__).parent]
    own += [Path(p) for p in (sys.prefix, sys.base_prefix, *sysconfig.get_paths().values())]
    roots = [os.path.realpath(p) + os.sep for p in own]
    temp = os.path.realpath(tempfile.gettempdir()) + os.sep
    in_temp = [
        path
        for path in (os.path.realpath(p) for p, _, _ in opened)
        if path.startswith(temp) and not any(path.startswith(r) for r in roots)
    ]
    assert in_temp == []
    assert not any(".lark_cache" in path for path, _, _ in opened)  # lark's own cache files


def test_the_last_64_compiled_models_are_kept_and_no_more():
    """A warm load of the same texts gives the model compiled before, for the last 64
    different texts compiled (compile_rules' promise); the 65th text back is compiled anew."""
    from trickcore.language.compiler import forget_compiled

    forget_compiled()
    texts = [f'extends "tysiacha"\nmatch {{\n  target: {1000 + k}\n}}\n' for k in range(65)]
    first = [trickcore.variant_from_text(t).model for t in texts]
    assert trickcore.variant_from_text(texts[1]).model is first[1]  # 64 back: still kept
    assert trickcore.variant_from_text(texts[0]).model is not first[0]  # 65 back: gone
    assert trickcore.variant_from_text(texts[0]).model == first[0]
    # a model loaded again counts as the newest: the least recently used one goes first
    again = trickcore.variant_from_text(texts[2]).model
    trickcore.variant_from_text(texts[0] + "\n")
    assert trickcore.variant_from_text(texts[2]).model is again
    assert trickcore.variant_from_text(texts[3]).model is not first[3]
    forget_compiled()
