"""`trickcore simulate VARIANT`: matches between computer players, summed up; in this
process, on a local Dask cluster (`--workers N`) or an existing one (`--scheduler ADDRESS`).
"""

from __future__ import annotations

import argparse
from typing import Any

from ... import load_variant
from .. import cli
from ..terminal import Output

MAX_WORKERS = 256


def add_command(subparsers: Any) -> None:
    """Add `simulate` to the `trickcore` command."""
    sim = subparsers.add_parser(
        "simulate",
        help="play matches between computer players (random by default) and sum them up",
        description=(
            "Play whole matches between computer players of one kind and print the deals "
            "played, the wins by seat, how many matches ended at the deal limit rather than "
            "by the rules, and how often declarers make their contracts. Random players "
            "(the default) test the rules; --bots heuristic plays like a person would."
        ),
    )
    sim.add_argument("variant", help="a shipped variant name or a rules file")
    sim.add_argument(
        "--matches", type=cli._whole(1, cli.MAX_MATCHES), default=10, help="matches to play"
    )
    sim.add_argument(
        "--seed", type=cli._whole(0, cli.MAX_SEED), default=0, help="seed of the matches"
    )
    sim.add_argument(
        "--players",
        type=cli._whole(1, cli.MAX_PLAYERS),
        default=None,
        help="players per match (default: the variant's usual number)",
    )
    sim.add_argument(
        "--bots",
        default="random",
        help="computer players: random, greedy, heuristic, pimc, ismcts, with options "
        "(pimc:iterations=100)",
    )
    add_cluster_options(sim)
    sim.set_defaults(func=cmd_simulate)


def add_cluster_options(parser: argparse.ArgumentParser) -> None:
    """`--workers N` and `--scheduler ADDRESS` (shared by the commands that run chunks)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=cli._whole(1, MAX_WORKERS),
        default=None,
        help="run on a local Dask cluster of N worker processes (started and stopped here)",
    )
    where.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run on an existing Dask cluster (e.g. tcp://10.0.0.5:8786)",
    )


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play matches between computer players and summarize them."""
    from ...analysis.play import check_bots
    from ...analysis.runner import VariantRef, progress_bar
    from ...analysis.simulation import simulate

    v = load_variant(args.variant)
    bots = check_bots(args.bots)
    out = Output()
    with progress_bar("simulating", out.console, enabled=out.tty) as tick:
        summary, run = simulate(
            VariantRef.of(v),
            args.matches,
            seed=args.seed,
            bots=bots,
            players=args.players,
            workers=args.workers,
            scheduler=args.scheduler,
            progress=tick,
        )
    if run.interrupted and summary.matches == 0:
        out.print("interrupted before any match finished", "yellow")
        return 130
    if run.interrupted:
        out.print(
            f"interrupted: {summary.matches} of {args.matches} matches finished; "
            "the figures below are theirs",
            "yellow",
        )
    matches = summary.matches
    out.print(
        f"{v.title}: {matches} match{'es' if matches != 1 else ''} "
        f"of {bots} play, seed {args.seed}",
        "bold",
    )
    out.print(f"deals played: {summary.deals} (and {summary.redeals} thrown in for a redeal)")
    out.print(f"average deals per match: {summary.deals / max(matches, 1):.1f}")
    limit = v.model.match.deal_limit
    out.print(
        f"matches that hit the limit of {limit} deals: {summary.at_limit} of {matches}"
        + (
            " (they ended there, not by the rules: try stronger --bots, e.g. heuristic)"
            if summary.at_limit and bots == "random"
            else ""
        ),
        "yellow" if summary.at_limit else None,
    )
    if summary.stopped:
        out.print(
            f"matches stopped by the engine (a number out of range, or too many actions): "
            f"{summary.stopped}",
            "yellow",
        )
    out.print("wins by seat: " + ", ".join(f"{s}: {n}" for s, n in summary.wins))
    if v.model.bouts is not None:
        losers = dict(summary.losers)
        lost = ", ".join(f"{s}: {n}" for s, n in summary.losers if s >= 0)
        out.print(f"losers by seat: {lost}; draws: {losers.get(-1, 0)}")
        bouts = summary.bouts
        out.print(
            f"bouts per deal: average {sum(bouts) / max(len(bouts), 1):.1f}, "
            f"longest {max(bouts, default=0)}"
        )
        return 130 if run.interrupted else 0
    if not summary.by_contract:
        out.print("declarer success: no deal had a declarer")
        return 130 if run.interrupted else 0
    rows = [
        (_contract_text(level, strain), str(n), f"{100 * made / n:.0f}%")
        for (level, strain), n, made in summary.by_contract
    ]
    total = sum(n for _, n, _ in summary.by_contract)
    made_all = sum(made for _, _, made in summary.by_contract)
    rows.append(("all", str(total), f"{100 * made_all / max(total, 1):.0f}%"))
    out.table("Declarer success by contract", ["contract", "deals", "made"], rows, right=(0, 1, 2))
    return 130 if run.interrupted else 0


def _contract_text(level: int, strain: str) -> str:
    """A contract as the table shows it: "4 hearts", "120", "hearts alone" (a bid without a
    level)."""
    return " ".join(part for part in (str(level) if level else "", strain) if part) or "0"
