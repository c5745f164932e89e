"""Benchmark: simulation throughput (deals per second) in this process and on a local Dask
cluster of 1 and 2 worker processes, with the same chunks (so the same results).

Run:  python benchmarks/scale.py [--variant tysiacha] [--bots greedy] [--matches 60]
                                 [--chunk 5] [--workers 1 2]

The times include starting and stopping the cluster (what `trickcore simulate --workers N`
costs); "compute" excludes it (from the first chunk submitted to the last result). The load
average is printed too: other work on the machine takes cores from the workers.
"""

from __future__ import annotations

import argparse
import os
import time

import trickcore
from trickcore.analysis.runner import VariantRef, run_chunks, seed_chunks
from trickcore.analysis.simulation import SimulateChunk, Summary, simulate_chunk, total


def run(ref: VariantRef, args: argparse.Namespace, workers: int | None) -> tuple[Summary, float]:
    """One simulation of the whole run; returns its total and wall time."""
    chunks = [
        SimulateChunk(ref, 0, r.start, r.stop, args.bots)
        for r in seed_chunks(args.matches, args.chunk)
    ]
    started = time.perf_counter()
    result = run_chunks(simulate_chunk, chunks, workers=workers)
    return total(result.finished), time.perf_counter() - started


def compute_only(ref: VariantRef, args: argparse.Namespace, workers: int) -> float:
    """The same run on a cluster already started: the time of the work alone."""
    from distributed import Client, LocalCluster

    chunks = [
        SimulateChunk(ref, 0, r.start, r.stop, args.bots)
        for r in seed_chunks(args.matches, args.chunk)
    ]
    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(lambda: ref.load() and None)  # compile the variant on every worker first
        started = time.perf_counter()
        futures = client.map(simulate_chunk, chunks, pure=False)
        client.gather(futures)
        return time.perf_counter() - started


def main() -> None:
    """Print deals per second for each way of running."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="tysiacha")
    p.add_argument("--bots", default="greedy")
    p.add_argument("--matches", type=int, default=60)
    p.add_argument("--chunk", type=int, default=5)
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = p.parse_args()
    ref = VariantRef.of(trickcore.load_variant(args.variant))
    print(
        f"{args.variant}, {args.bots} bots, {args.matches} matches in chunks of {args.chunk}; "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start"
    )
    base, seconds = run(ref, args, None)
    print(
        f"{'in this process':<22} {base.deals:>7} deals {seconds:7.1f} s "
        f"{base.deals / seconds:8.0f} deals/s"
    )
    for n in args.workers:
        summary, seconds = run(ref, args, n)
        assert summary == base, "results differ from the in-process run"
        work = compute_only(ref, args, n)
        print(
            f"{f'{n} worker' + ('s' if n > 1 else ''):<22} {summary.deals:>7} deals "
            f"{seconds:7.1f} s {summary.deals / seconds:8.0f} deals/s "
            f"(compute only: {summary.deals / work:.0f} deals/s)"
        )
    print(f"identical results in every run; load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
