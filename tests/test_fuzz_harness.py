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
