"""The mutation-testing tool (`python -m mutation`): what it mutates and how it judges.

Mutation testing checks the tests of the shipped rules files (T1-T25, S1-S21, D1-D14): each
mutant changes one setting, number, operator or rule, and some test must fail on it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `pytest` run without `python -m` from the repository root
    sys.path.insert(0, str(ROOT))

import trickcore  # noqa: E402
from mutation.core import apply_mutant, load_equivalents  # noqa: E402
from mutation.engine import engine_mutants  # noqa: E402
from mutation.rules import rules_mutants, word_choices  # noqa: E402
from mutation.run import (  # noqa: E402
    KILLED,
    SURVIVED,
    Limit,
    baseline,
    baseline_from,
    engine_tests,
    first_to_judge,
    judge,
    run_tests,
)
from mutation.run import tests_for_variants as variant_test_files  # noqa: E402
from mutation.run import workspaces as mutation_workspaces  # noqa: E402

SMALL_RULES = """\
players: 3, 4
talon {
  show: yes
}
deal {
  next_dealer: left
}
after_deal {
  rule add: if not on_barrel and score >= 880 then score = score + gain
}
"""


def changes(mutants):
    return {(m.original, m.replacement) for m in mutants}


def test_rules_mutator_enumerates_every_one_step_change():
    """Numbers +1/-1/x2/0, list items dropped, flags, words, operators, `not`, rules deleted."""
    mutants = rules_mutants(SMALL_RULES, "small.rules")
    assert changes(mutants) == {
        ("3", "4"),
        ("3", "2"),
        ("3", "6"),
        ("3", "0"),
        ("4", "5"),
        ("4", "3"),
        ("4", "8"),
        ("4", "0"),
        ("3", "(dropped)"),
        ("4", "(dropped)"),
        ("yes", "no"),
        ("left", "same"),
        ("left", "loser"),
        ("rule add", "(deleted)"),
        ("not", "(removed)"),
        ("and", "or"),
        (">=", ">"),
        (">=", "<"),
        ("880", "881"),
        ("880", "879"),
        ("880", "1760"),
        ("880", "0"),
        ("+", "-"),
    }
    by_change = {(m.original, m.replacement): m for m in mutants}
    deleted = apply_mutant(SMALL_RULES, by_change[("rule add", "(deleted)")])
    assert "rule add" not in deleted and "after_deal {\n}" in deleted
    dropped = apply_mutant(SMALL_RULES, by_change[("4", "(dropped)")])
    assert dropped.startswith("players: 3\n")
    swapped = by_change[(">=", ">")]
    assert swapped.id == "small.rules:9:40: >= -> >"


def test_one_of_words_settings_come_from_the_compiler():
    """The alternatives of a word setting are those the compiler accepts (D4, T4, S3)."""
    choices = word_choices()
    assert set(choices["next_dealer"]) == {"left", "same", "loser"}
    assert set(choices["first_attacker"]) == {"left_of_dealer", "lowest_trump"}
    assert set(choices["sits_out"]) == {"dealer", "none"}


def test_every_shipped_rules_file_has_mutants_that_apply_cleanly():
    for name in trickcore.list_variants():
        rel = f"variants/{name}.rules"
        text = (ROOT / rel).read_text(encoding="utf-8")
        mutants = rules_mutants(text, rel)
        assert len({m.id for m in mutants}) == len(mutants), name
        for m in mutants:
            assert apply_mutant(text, m) != text


def test_engine_mutator_leaves_docstrings_alone():
    source = 'def f(a, b):\n    """Doc 1."""\n    return a >= b and not a\n'
    assert changes(engine_mutants(source, "f.py")) == {
        ("return a >= b and not a", "pass"),
        ("a >= b and not a", "None"),
        (">=", ">"),
        (">=", "<"),
        ("and", "or"),
        ("not", "(removed)"),
    }


def _stack_deck_mutant():
    """The mutant deleting `stack_deck`'s check of the dealer (card_texts.py)."""
    path = "trickcore/engine/card_texts.py"
    text = (ROOT / path).read_text(encoding="utf-8")
    (m,) = [
        m
        for m in engine_mutants(text, path)
        if m.original.startswith('check_seat(dealer, seats, "the dealer")')
        and m.replacement == "pass"
    ]
    return m


def test_an_engine_mutant_is_judged_first_by_the_tests_that_name_what_it_changes():
    """A mutant inside `stack_deck` (card_texts.py): the test files naming `stack_deck`, its
    class or the module run first, every other file after them, the options last."""
    m = _stack_deck_mutant()
    files = engine_tests()
    order = first_to_judge([*files, "--deselect=x"], m)
    assert sorted(order[:-1]) == sorted(files) and order[-1] == "--deselect=x"

    def near(f: str) -> bool:
        source = (ROOT / f).read_text(encoding="utf-8")
        return any(w in source for w in ("stack_deck", "card_texts", "CardTexts"))

    flags = [near(f) for f in order[:-1]]
    assert any(flags) and not all(flags)
    assert flags == sorted(flags, reverse=True)  # every near file before every other


def test_a_base_variant_is_judged_by_the_tests_of_the_variants_extending_it():
    """Russisch Schnapsen extends Tysiacha (S-rules "as in Tysiacha"): a Tysiacha mutant
    must also face the Schnapsen tests."""
    tests = variant_test_files()
    assert "tests/test_tysiacha.py" in tests["tysiacha"]
    assert "tests/test_schnapsen.py" in tests["tysiacha"]
    assert "tests/test_tysiacha.py" not in tests["russisch-schnapsen"]
    assert "tests/test_durak.py" in tests["durak"]
    assert not any("test_mutation_tool" in f for fs in tests.values() for f in fs)


def test_equivalent_mutants_each_have_a_reason():
    for ident, reason in load_equivalents().items():
        assert ident and reason, ident


def test_every_equivalent_mutant_still_names_a_mutant():
    """An entry names its mutant by line and column: an edit above it moves the mutant, and
    a stale entry would leave the moved mutant unexcused and excuse nothing."""
    by_file: dict[str, set[str]] = {}
    for ident in load_equivalents():
        path = ident.split(":")[0]
        if path not in by_file:
            text = (ROOT / path).read_text(encoding="utf-8")
            made = rules_mutants if path.endswith(".rules") else engine_mutants
            by_file[path] = {m.id for m in made(text, path)}
        assert ident in by_file[path], f"stale entry in mutation/equivalent.txt: {ident}"


TINY_TEST = """\
import trickcore

def test_t6_bids_go_up_in_fives():
    v = trickcore.load_variant("variants/tysiacha.rules")
    m = v.new_match(seed=1)
    bids = [str(a) for a in m.legal_actions() if str(a).startswith("bid")]
    assert bids[:2] == ["bid 100", "bid 105"]
"""


def test_a_broken_mutant_is_killed_and_an_unseen_one_survives(tmp_path):
    """T6 (step 5) changed to 6 fails the tiny test; T22's deal limit is not seen by it."""
    rel = "variants/tysiacha.rules"
    (tmp_path / "variants").mkdir()
    (tmp_path / "tests").mkdir()
    text = (ROOT / rel).read_text(encoding="utf-8")
    (tmp_path / rel).write_text(text, encoding="utf-8")
    (tmp_path / "tests" / "test_tiny.py").write_text(TINY_TEST, encoding="utf-8")
    mutants = rules_mutants(text, rel)
    bid_step_line = 1 + next(
        i for i, line in enumerate(text.splitlines()) if line.strip().startswith("step:")
    )
    step = next(
        m for m in mutants if (m.original, m.replacement, m.line) == ("5", "6", bid_step_line)
    )
    limit = next(m for m in mutants if m.original == "200" and m.replacement == "201")
    outcomes = judge(
        [step, limit],
        lambda m: ["tests/test_tiny.py"],
        lambda m, t: True,
        {},
        jobs=2,
        root=tmp_path,
    )
    assert [o.status for o in outcomes] == [KILLED, SURVIVED]
    assert (tmp_path / rel).read_text(encoding="utf-8") == text


# Work, not the clock: a loop is stopped by its CPU time, a hang by its idleness, and --quick
# finds a slow test by its CPU time; none of it depends on the machine's load.
WORK_TESTS = """\
import time

def test_quick():
    assert True

def test_slow():
    start = time.process_time()
    while time.process_time() - start < 2:
        pass

def test_loops():
    while True:
        pass

def test_hangs():
    time.sleep(600)

def test_fails():
    assert False

def test_moves_away_and_fails(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert False
"""


def _work_root(tmp_path: Path) -> Path:
    """A tree with the tests above and this tool (its pytest plugin runs there)."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_work.py").write_text(WORK_TESTS, encoding="utf-8")
    shutil.copytree(ROOT / "mutation", tmp_path / "mutation")
    return tmp_path


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="no /proc here")


@needs_proc
def test_a_looping_run_is_stopped_by_its_cpu_time_and_a_hanging_one_by_idleness(tmp_path):
    root = _work_root(tmp_path)
    loops = run_tests(root, ["tests/test_work.py::test_loops"], Limit(cpu=3.0))
    assert loops.code is None and loops.stopped == "more than 3 s of CPU time"
    assert loops.cpu is not None and loops.cpu >= 2.5
    hangs = run_tests(root, ["tests/test_work.py::test_hangs"], Limit(cpu=60.0, idle=3.0))
    assert hangs.code is None and hangs.stopped == "no CPU time used for 3 s"
    quick = run_tests(root, ["tests/test_work.py::test_quick"], Limit(cpu=60.0, idle=60.0))
    assert quick.code == 0 and not quick.stopped


def test_quick_leaves_out_the_tests_that_take_too_much_cpu_time(tmp_path, capsys):
    """By CPU time (the slow test's 2 s), not by the clock: the same on a busy machine."""
    root = _work_root(tmp_path)
    tests = ["tests/test_work.py::test_quick", "tests/test_work.py::test_slow"]
    with mutation_workspaces(1, root) as pool:
        base = baseline(pool, tests, slow=1.0)
    assert base.args == ["--deselect=tests/test_work.py::test_slow"]
    assert base.cpu > 0  # what the mutants' limits derive from: the tests kept, start-up
    out = capsys.readouterr().out
    assert "--quick leaves out 1 tests taking more than 1 s" in out
    assert "unmutated tests: 2 of 2 done in " in out


def test_the_timings_of_a_test_run_stand_for_the_unmutated_run(tmp_path):
    """`pytest -p mutation.timing --timings-to PATH`, then `mutation ci --timings PATH`: the
    tests are not run twice; a failed test judges nothing, --quick leaves out the slow one."""
    root = _work_root(tmp_path)
    path = root / "build" / "timings.jsonl"
    ids = [f"tests/test_work.py::{name}" for name in ("test_quick", "test_slow", "test_fails")]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "mutation.timing", "--timings-to", path, *ids],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr  # test_fails
    quick = baseline_from(str(path), ["tests/test_work.py"], slow=1.0)
    every = baseline_from(str(path), ["tests/test_work.py"])
    assert quick is not None and every is not None
    assert quick.args == [
        "--deselect=tests/test_work.py::test_fails",
        "--deselect=tests/test_work.py::test_slow",
    ]
    assert every.args == ["--deselect=tests/test_work.py::test_fails"]
    assert every.cpu - quick.cpu >= 1.9  # test_slow's 2 s of CPU time, kept or left out
    # a file that does not cover a test file, or holds no finished run, stands for nothing
    assert baseline_from(str(path), ["tests/test_work.py", "tests/test_other.py"]) is None
    path.write_text(path.read_text().splitlines()[0] + "\n")
    assert baseline_from(str(path), ["tests/test_work.py"]) is None
    assert baseline_from(str(root / "missing.jsonl"), ["tests/test_work.py"]) is None


def test_a_failing_test_that_changed_the_working_directory_is_still_recorded(tmp_path):
    """--timings-to with a relative path: a test that moves to another folder and fails is
    written down as failed in the file named, not lost (nor the run broken)."""
    root = _work_root(tmp_path)
    test = "tests/test_work.py::test_moves_away_and_fails"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "mutation.timing",
            "--timings-to",
            "build/t.jsonl",
            test,
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1, run.stdout + run.stderr  # the test failed; no internal error
    lines = (root / "build" / "t.jsonl").read_text(encoding="utf-8").splitlines()
    assert {"failed": test} in [json.loads(line) for line in lines]


def test_ci_judges_an_engine_mutant_only_by_the_tests_that_name_what_it_changes():
    """`focused` (CI's engine sample): only the files naming `stack_deck`, its class or the
    module (by its package), then the options."""
    m = _stack_deck_mutant()
    files = engine_tests()
    order = first_to_judge([*files, "--deselect=x"], m, focused=True)
    assert order[-1] == "--deselect=x" and 0 < len(order) - 1 < len(files)
    for f in order[:-1]:
        source = (ROOT / f).read_text(encoding="utf-8")
        assert any(w in source for w in ("stack_deck", "card_texts", "CardTexts"))


def test_a_mutant_no_test_file_names_gets_no_test_file_when_focused(tmp_path):
    """Focused (CI), a mutant no test file names gets none (the command leaves it unjudged
    and says so, rather than run the whole suite); unfocused, it gets every file."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "obscure.py").write_text("def helper_fn():\n    return 1\n")
    (tmp_path / "tests").mkdir()
    for name in ("test_a.py", "test_b.py"):
        (tmp_path / "tests" / name).write_text("def test_x():\n    assert 1\n")
    m = engine_mutants((tmp_path / "pkg" / "obscure.py").read_text(), "pkg/obscure.py")[0]
    files = ["tests/test_a.py", "tests/test_b.py"]
    assert first_to_judge([*files, "-q"], m, tmp_path, focused=True) == ["-q"]
    assert first_to_judge([*files, "-q"], m, tmp_path) == [*files, "-q"]
