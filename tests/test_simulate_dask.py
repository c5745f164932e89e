"""`trickcore simulate` and the chunk runner on Dask: the same results whatever runs them.

A chunk depends on its seed range alone, so 1 or 2 local workers, an existing cluster of
several worker processes (started here) and this process give identical figures; a worker
that dies is replaced and its chunk rerun; Ctrl-C keeps the chunks that finished."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import trickcore
from trickcore.analysis.runner import RunnerError, VariantRef, run_chunks, seed_chunks
from trickcore.analysis.simulation import simulate
from trickcore.interfaces.cli import main

pytest.importorskip("distributed")


def square_or_die(job: tuple[str, int]) -> int:
    """Kill the worker process running it the first time (marker file absent)."""
    marker, n = job
    if n == 3 and not os.path.exists(marker):
        Path(marker).write_text("died once")
        os._exit(1)
    return n * n


def interrupt_at_three(n: int) -> int:
    if n == 3:
        raise KeyboardInterrupt
    return n + 100


@pytest.fixture(scope="module")
def cluster():
    """A Dask cluster of three worker processes on localhost, as a user would have."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=3, threads_per_worker=1, processes=True, dashboard_address=None
    ) as c:
        yield c


def test_chunks_depend_only_on_the_count():
    assert seed_chunks(23, 10) == [range(0, 10), range(10, 20), range(20, 23)]
    assert seed_chunks(0) == []


def test_one_and_two_workers_give_identical_results():
    ref = VariantRef.of(trickcore.load_variant("sixty-six"))
    here, run_here = simulate(ref, 12, seed=5, bots="greedy", chunk_size=3)
    two, run_two = simulate(ref, 12, seed=5, bots="greedy", workers=2, chunk_size=3)
    one, _ = simulate(ref, 12, seed=5, bots="greedy", workers=1, chunk_size=3)
    assert here == two == one
    assert not run_here.interrupted and run_two.done == 4
    assert here.matches == 12 and here.deals == sum(here.deals_per_match) > 12
    other, _ = simulate(ref, 12, seed=6, bots="greedy", chunk_size=3)
    assert other != here  # the seed matters


def test_simulate_on_an_existing_cluster_prints_the_same(cluster, capsys):
    argv = ["simulate", "tysiacha", "--matches", "6", "--seed", "3", "--bots", "greedy"]
    assert main(argv) == 0
    alone = capsys.readouterr().out
    assert main([*argv, "--scheduler", cluster.scheduler_address]) == 0
    on_cluster = capsys.readouterr().out
    assert on_cluster == alone
    assert "6 matches of greedy play, seed 3" in alone and "Declarer success" in alone


def test_a_lost_worker_s_chunk_is_rerun(cluster, tmp_path):
    marker = str(tmp_path / "died")
    from distributed import Client

    with Client(cluster) as client:
        before = len(client.scheduler_info()["workers"])
    run = run_chunks(
        square_or_die, [(marker, n) for n in range(6)], scheduler=cluster.scheduler_address
    )
    assert Path(marker).read_text() == "died once"  # a worker did die on chunk 3
    assert run.results == (0, 1, 4, 9, 16, 25) and not run.interrupted
    assert before == 3


def test_an_interrupted_run_keeps_what_finished():
    seen = []
    run = run_chunks(interrupt_at_three, list(range(6)), progress=lambda d, t: seen.append(d))
    assert run.interrupted
    assert run.results == (100, 101, 102, None, None, None)
    assert run.finished == [100, 101, 102] and run.done == 3
    assert seen == [0, 1, 2, 3]


def test_cluster_options_are_checked(capsys):
    with pytest.raises(RunnerError, match="either --workers or --scheduler"):
        run_chunks(abs, [1], workers=2, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(SystemExit):
        main(["simulate", "tysiacha", "--workers", "0"])
    assert "is not a whole number from 1" in capsys.readouterr().err
    assert main(["simulate", "tysiacha", "--bots", "nobody"]) == 1
    assert "unknown bot" in capsys.readouterr().err


def test_the_size_of_chunks_does_not_change_the_totals():
    ref = VariantRef.of(trickcore.load_variant("euchre"))
    ones, _ = simulate(ref, 5, seed=2, chunk_size=1)
    threes, _ = simulate(ref, 5, seed=2, chunk_size=3)
    assert ones == threes and ones.matches == 5


def test_random_play_is_the_random_bot_s_play():
    """The random bot is driven without building observations, with the same choices."""
    from trickcore.analysis.play import bot_seed, match_seed, play_match
    from trickcore.players import make_bot, turn_of

    v = trickcore.load_variant("sixty-six")
    record = play_match(v, 9, 4, "random")
    m = v.new_match(seed=match_seed(9, 4))
    bots = [make_bot("random", bot_seed(9, 4, s)) for s in range(m.seats)]
    while not m.is_over:
        m.apply(bots[m.to_act].choose(turn_of(m)))
    assert record.scores == tuple(m.scores) and record.actions == len(m.history)
    assert [d.result for d in record.deals] == m.deal_results


def test_arena_chunks_give_the_records_of_one_run(cluster):
    """What `trickcore arena --workers/--scheduler` runs: the same records as one run."""
    from trickcore.analysis.arena import run_arena
    from trickcore.players.arena import play_duplicate

    v = trickcore.load_variant("sixty-six")
    bots = ["greedy", "random"]
    alone = play_duplicate(v, bots, 7, 5)
    here, _ = run_arena(v, bots, 7, 5, chunk_size=2)
    there, run = run_arena(v, bots, 7, 5, scheduler=cluster.scheduler_address)
    assert here == there == alone and len(alone) == 10 and run.done == 1


CTRL_C_SCRIPT = """
import faulthandler, os, signal, sys, time
faulthandler.register(signal.SIGUSR1)  # the test asks for the stacks if the run hangs
from pathlib import Path
from trickcore.analysis.runner import run_chunks

def chunk(n):
    Path(sys.argv[1], f"running-{os.getpid()}").touch()  # this worker runs chunks
    time.sleep(0.2)
    return n

if __name__ == "__main__":
    import multiprocessing
    run = run_chunks(chunk, list(range(5000)), workers=2)
    print("interrupted" if run.interrupted else "finished", run.done, flush=True)
    assert not multiprocessing.active_children()  # no worker left behind
"""


def _ctrl_c_as_in_a_terminal() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_reaches_only_this_process_not_the_local_workers(tmp_path):
    """Issue 27 (12d): Ctrl-C in a terminal is a SIGINT to every process of the foreground
    group, the local cluster's worker processes too; each used to print a traceback
    ("Process Dask Worker process (from Nanny): ..."). Now they never see it: the run
    stops with what finished and nothing else is printed. (Sent once both workers run a
    chunk; the timeouts only bound a broken run.)"""
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "run.py"
    script.write_text(CTRL_C_SCRIPT, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job
        # and Ctrl-C answered as a shell's job has it (a test process may hand on SIGINT
        # ignored or blocked: the run then waited for ever, twice in CI)
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    try:
        deadline = time.monotonic() + 300
        while len(list(tmp_path.glob("running-*"))) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the workers never ran a chunk"
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:  # where it hangs: every thread's stack
            proc.send_signal(signal.SIGUSR1)
            time.sleep(2)
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            raise AssertionError(f"the run did not end after Ctrl-C:\n{out}\n{err}") from None
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert out.startswith("interrupted ") and out.count("\n") == 1, (out, err)
    assert "Traceback" not in err and "Dask Worker" not in err, err
