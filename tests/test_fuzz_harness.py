"""The fuzz harness itself: cases are reproducible from a seed, and each outcome class
(ok, library error, non-library exception, timeout, out of memory) is told apart."""

from __future__ import annotations

from pathlib import Path

from fuzz import KINDS, Case, generate_cases, run_cases


def test_cases_are_the_same_for_the_same_seed_and_differ_for_another() -> None:
    """`--seed` fixes every case, so any finding can be reproduced."""
    a = [(c.ident, c.label, repr(sorted(c.data.items()))) for c in generate_cases(40, 7)]
    b = [(c.ident, c.label, repr(sorted(c.data.items()))) for c in generate_cases(40, 7)]
    c = [(c.ident, c.label, repr(sorted(c.data.items()))) for c in generate_cases(40, 8)]
    assert a == b
    assert a != c
    assert {ident.split("-")[0] for ident, _, _ in a} == set(KINDS)


def test_outcome_classes_are_told_apart(tmp_path: Path) -> None:
    """Each child's outcome is classified; failing ones are saved with their traceback."""
    kinds = ["ok", "library", "raise", "silent", "allocate", "crash"]
    cases = [Case("selftest", i, what, {"do": what}) for i, what in enumerate(kinds)]
    report = run_cases(cases, jobs=3, timeout=120, memory_mb=512, out_dir=tmp_path)
    slow = run_cases([Case("selftest", 9, "sleep", {"do": "sleep"})], timeout=1)
    report.findings += slow.findings
    by_case = {f["label"]: f for f in report.findings}
    assert report.counts[("selftest", "ok")] == 1
    assert report.counts[("selftest", "library")] == 1
    assert by_case["raise"]["class"] == "nonlibrary"
    assert by_case["raise"]["type"] == "KeyError"
    assert "_selftest" in by_case["raise"]["traceback"]
    assert by_case["silent"]["class"] == "nonlibrary"  # a library error needs a message
    assert by_case["sleep"]["class"] == "timeout"
    assert by_case["allocate"]["class"] == "oom"
    assert by_case["crash"]["class"] == "nonlibrary"
    assert "SIGABRT" in by_case["crash"]["message"]
    assert report.failed == 4 and slow.failed == 1
    assert (tmp_path / "nonlibrary-selftest-000002.txt").exists()


def test_a_real_library_error_and_a_real_acceptance(tmp_path: Path) -> None:
    """A broken rules file is a library error; a shipped file plays and passes show/check."""
    shipped = (Path(__file__).resolve().parents[1] / "variants" / "tysiacha.rules").read_bytes()
    cases = [
        Case("mutant", 0, "broken", {"rules": b"deck {\n", "base": "x"}),
        Case("mutant", 1, "shipped", {"rules": shipped, "base": "tysiacha"}),
    ]
    report = run_cases(cases, jobs=2, timeout=30, memory_mb=1024)
    assert report.counts[("mutant", "library")] == 1, report.findings
    assert report.counts[("mutant", "ok")] == 1, report.findings


def test_accepted_rules_that_verify_finds_inconsistent_fail_the_run(tmp_path: Path, monkeypatch):
    """Issue 27 (11): a file that compiles must play the same in the engine and in verify's
    reference checker for every player count it allows; where verify finds them disagreeing
    the case is a finding of its own class, saved, and the run fails. Here the engine draws
    nothing from the stock with 3 players (a wrong engine, as the verify tests make one)
    and the file allows 2 or 3 players: only the second count shows it."""
    from trickcore.engine.phases import tricks

    real_draw = tricks.draw_after_trick

    def no_draw_for_three(deal, winner):
        if len(deal.active) != 3:
            real_draw(deal, winner)

    monkeypatch.setattr(tricks, "draw_after_trick", no_draw_for_three)  # the children fork
    rules = b'extends "sixty-six"\nplayers: 2, 3\n'
    cases = [Case("mutant", 0, "two or three players", {"rules": rules, "base": "sixty-six"})]
    report = run_cases(cases, jobs=1, timeout=120, memory_mb=1024, out_dir=tmp_path)
    assert report.counts[("mutant", "inconsistent")] == 1, report.findings
    assert report.failed == 1
    (finding,) = report.findings
    assert finding["class"] == "inconsistent" and finding["where"] == "verify"
    assert "with 3 players" in finding["message"], finding["message"]
    assert (tmp_path / "inconsistent-mutant-000000.rules").read_bytes() == rules
