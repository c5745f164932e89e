"""`trickcore compare A B`: what a rules change does to the game, measured on duplicate
deals with 95% confidence intervals, as tables and an HTML report with plots."""

from __future__ import annotations

import argparse
import math
from typing import Any

from ... import load_variant
from .. import cli
from ..terminal import Output
from .simulate import add_cluster_options

MAX_DEALS = 10_000_000
MAX_MATCHES = 1_000_000
PILOT = 3  # matches played to estimate the deals per match for --deals


def add_command(subparsers: Any) -> None:
    """Add `compare` to the `trickcore` command."""
    p = subparsers.add_parser(
        "compare",
        help="compare two variants on the same deals (duplicate), with 95%% intervals",
        description=(
            "Play the same deck orders under both variants with the same bots and report "
            "the differences B - A with 95% confidence intervals (bootstrap over matches)."
        ),
    )
    p.add_argument("a", metavar="A", help="a shipped variant name or a rules file")
    p.add_argument("b", metavar="B", help="a shipped variant name or a rules file")
    p.add_argument(
        "--bots",
        default="greedy",
        help="computer players: random, greedy, heuristic, pimc, ismcts (default: greedy)",
    )
    size = p.add_mutually_exclusive_group()
    size.add_argument(
        "--deals",
        type=cli._whole(1, MAX_DEALS),
        default=None,
        help="about this many deals per variant, in whole matches (default 1000)",
    )
    size.add_argument(
        "--matches",
        type=cli._whole(1, MAX_MATCHES),
        default=None,
        help="whole matches per variant (instead of --deals)",
    )
    p.add_argument(
        "--seed", type=cli._whole(0, cli.MAX_SEED), default=0, help="seed of the deck orders"
    )
    p.add_argument(
        "--players",
        type=cli._whole(1, cli.MAX_PLAYERS),
        default=None,
        help="players per match (default: each variant's usual number)",
    )
    p.add_argument(
        "--measure",
        action="append",
        default=[],
        metavar="NAME",
        help=(
            "also compare this quantity per deal: a deal-result field (contract, qualifier, "
            "declarer, gains, card_points, bouts, loser, draw), a field of the deal's final "
            "public view (tricks_won, trump, declarations, ...) or a value the "
            "match keeps (a name of its `keep`); repeatable"
        ),
    )
    p.add_argument("--html", default=None, metavar="FILE", help="write an HTML report here")
    add_cluster_options(p)
    p.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    """Compare two variants and print (and optionally write) the report."""
    from ...analysis.compare import compare
    from ...analysis.measures import check_measures
    from ...analysis.play import check_bots, play_match
    from ...analysis.runner import progress_bar

    # the extras it needs, before any match is played
    cli.require_extra("trickcore compare", ("numpy",), "plot")
    if args.html:
        cli.require_extra("trickcore compare --html", ("matplotlib",), "plot")
    a = load_variant(args.a)
    b = load_variant(args.b)
    bots = check_bots(args.bots)
    measures = check_measures(args.measure, [a, b])
    for v in (a, b):
        v.check_seats(args.players)
    out = Output()
    if args.matches is not None:
        matches = args.matches
    else:
        deals = args.deals or 1000
        pilot = [play_match(a, args.seed, i, bots, args.players) for i in range(PILOT)]
        per_match = max(sum(r.deals_played for r in pilot) / PILOT, 1.0)
        matches = max(1, min(MAX_MATCHES, math.ceil(deals / per_match)))
        out.print(
            f"{deals} deals: {matches} match{'es' if matches != 1 else ''} per variant "
            f"(about {per_match:.0f} deals per match)"
        )
    with progress_bar("comparing", out.console, enabled=out.tty) as tick:
        c = compare(
            a,
            b,
            matches,
            seed=args.seed,
            bots=bots,
            players=args.players,
            measures=measures,
            workers=args.workers,
            scheduler=args.scheduler,
            progress=tick,
        )
    if c.interrupted and c.matches == 0:
        out.print("interrupted before any match finished", "yellow")
        return 130
    print_comparison(c, out)
    if args.html:
        from ...analysis.report import write_html

        if c.matches:
            write_html(c, args.html)
            out.print(f"report written to {args.html}")
    return 130 if c.interrupted else 0


def print_comparison(c: Any, out: Output) -> None:
    """The comparison as tables in the terminal (plain columns in a pipe)."""
    from ...analysis.report import show, show_diff

    deals_a, deals_b = c.deals
    out.print(f"A: {c.a_title} ({c.a_name})   B: {c.b_title} ({c.b_name})", "bold")
    out.print(
        f"{c.matches} matches each ({deals_a} and {deals_b} deals), {c.bots} bots, seed {c.seed}, "
        + ("duplicate deals" if c.paired else "independent deals")
        + f", {c.seconds:.1f} s"
    )
    if c.interrupted:
        out.print(
            f"interrupted: {c.matches} of {c.requested} matches finished; the figures are theirs",
            "yellow",
        )
    for note in c.notes:
        out.print(f"note: {note}", "yellow")
    if not c.matches:
        return
    for section in c.sections:
        rows = []
        for r in c.section(section):
            diff, ci = show_diff(r)
            n = f"{r.n_a:.0f}" + (" *" if r.significant else "  ")
            rows.append((r.label, show(r, r.a), show(r, r.b), diff, ci, n))
        out.table(section, ["", "A", "B", "B - A", "95% CI", "n"], rows, right=(1, 2, 3, 4, 5))
    out.print("* the 95% interval of B - A excludes 0; n: deals (or matches) of A")
