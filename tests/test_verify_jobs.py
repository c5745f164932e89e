"""`trickcore verify` on worker processes: the same runs and the same counterexample as in
one process, its defaults shared by the command line and the library, and its progress."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import trickcore
from trickcore.checking.verify import (
    MATCHES,
    RUNS,
    THOROUGH_MATCHES,
    THOROUGH_RUNS,
    search_violation,
    verify,
)
from trickcore.interfaces.cli import main

BROKEN = Path(__file__).parent / "broken"


def test_workers_report_the_counterexample_one_process_reports():
    """The runs are searched in chunks whatever the number of processes: with the same runs
    (derandomized) two workers shrink to the same counterexample as one process."""
    rules = BROKEN / "no-legal-bid.rules"
    alone = verify(rules, examples=60, matches=1, derandomize=True, jobs=1)
    spread = verify(rules, examples=60, matches=1, derandomize=True, jobs=2)
    assert alone.violation is not None and alone.violation.invariant == "stuck"
    assert spread.violation == alone.violation


def test_workers_play_every_run_and_match_and_report_progress():
    """A consistent variant on two workers: every run and match played, the progress
    counted up to the runs asked for."""
    seen: list[tuple[int, int]] = []
    report = verify(
        "sixty-six", examples=60, matches=2, jobs=2, progress=lambda d, t: seen.append((d, t))
    )
    assert report.ok and report.runs == 60 and report.matches == 2
    assert seen and seen[-1] == (60, 60)
    assert all(t == 60 for _, t in seen) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_defaults_are_those_of_the_command_line(capsys, monkeypatch):
    """`verify()` without counts plays what `trickcore verify` plays: 200 runs and 3 whole
    matches (2,000 and 20 when thorough)."""
    assert (RUNS, MATCHES, THOROUGH_RUNS, THOROUGH_MATCHES) == (200, 3, 2000, 20)
    report = verify("sixty-six", jobs=2)
    assert report.ok and (report.runs, report.matches) == (200, 3)
    # the command line leaves the counts to the library (its run is the one just made)
    asked: list[dict[str, object]] = []

    def recorded(ref, **kwargs):
        asked.append(kwargs)
        return report

    monkeypatch.setattr("trickcore.checking.verify.verify", recorded)
    assert main(["verify", "sixty-six", "--jobs", "2"]) == 0
    assert asked and asked[0].get("examples") is None and "matches" not in asked[0]
    assert "200 random runs and 3 whole matches" in capsys.readouterr().out
    monkeypatch.undo()
    assert main(["verify", "sixty-six", "--examples", "40", "--jobs", "1"]) == 0
    assert "40 random runs and 3 whole matches" in capsys.readouterr().out


@pytest.mark.parametrize("jobs", ["0", "65", "two"])
def test_jobs_outside_its_range_is_a_clear_error(jobs, capsys):
    with pytest.raises(SystemExit):
        main(["verify", "sixty-six", "--jobs", jobs])
    assert "is not a whole number from 1 to 64" in capsys.readouterr().err


def test_ctrl_c_stops_the_workers_and_says_only_that():
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) while verify runs on
    worker processes: exit status 130, "interrupted", no traceback or message from a worker,
    and no worker left running."""
    command = [sys.executable, "-m", "trickcore", "verify", "preferans", "--jobs", "2"]
    run = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # not after a fixed time (a busy machine takes longer to start the workers) but once
    # both workers are up and ignore Ctrl-C: verify is then handing them its tasks
    assert _wait_for(lambda: len(_workers_ignoring_sigint(run.pid)) >= 2), "no workers started"
    os.killpg(run.pid, signal.SIGINT)
    out, err = run.communicate(timeout=600)  # a bound for a hang, never reached otherwise
    assert run.returncode == 130
    assert out == "" and err == "interrupted\n"
    if not _wait_for(lambda: not _group_alive(run.pid)):
        pytest.fail("a worker process outlived the interrupted verify")


def _wait_for(condition, limit: float = 600.0) -> bool:
    """Poll until `condition()` holds: True, or False after `limit` seconds (a bound for a
    hang, far beyond what the slowest machine takes)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def _group_alive(pgid: int) -> bool:
    """Whether a process of the group is still alive."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def _workers_ignoring_sigint(pgid: int) -> list[int]:
    """The worker processes (multiprocessing's spawned children) of the process group that
    ignore SIGINT (Linux /proc; elsewhere, after a few seconds, any one counts twice)."""
    proc = Path("/proc")
    if not proc.is_dir():  # pragma: no cover - not Linux
        time.sleep(5)
        return [pgid, pgid]
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == pgid:
            continue
        try:
            stat = (entry / "stat").read_text()
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        if int(stat.rpartition(")")[2].split()[2]) != pgid or b"spawn_main" not in cmdline:
            continue
        ignored = next(line for line in status.splitlines() if line.startswith("SigIgn:"))
        if int(ignored.split()[1], 16) & (1 << (signal.SIGINT - 1)):
            found.append(int(entry.name))
    return found


def test_the_seeds_of_the_last_of_many_chunks_are_seeds_a_match_accepts():
    """100,000 runs make 4,000 chunks: the seeds seed·4000 + 3999 must stay within the 12
    digits a match accepts, or a consistent file would fail with an engine error."""
    game = trickcore.load_variant("sixty-six")
    found, runs = search_violation(game, 20, chunk=3999, chunks=4000, derandomize=True)
    assert found is None and runs == 20
