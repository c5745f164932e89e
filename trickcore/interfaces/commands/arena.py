"""`trickcore arena VARIANT --bots pimc,greedy,greedy --deals N --seed S [--plot FILE]
[--workers N | --scheduler ADDRESS]`: duplicate deals between computer players (see
`trickcore.players.arena`), run in chunks by `trickcore.analysis.arena`."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from ... import load_variant
from ...analysis.arena import plot_arena, run_arena
from ...analysis.runner import progress_bar
from ...language.errors import TrickcoreError
from ...players.arena import check_lineup, summarize
from ...players.values import score_sign
from .. import cli
from ..terminal import Output
from .simulate import add_cluster_options

MAX_DEALS = 1_000_000


def add_command(subparsers: Any) -> None:
    """Add `arena` to the `trickcore` command."""
    p = subparsers.add_parser(
        "arena",
        help="duplicate deals between computer players: mean score per deal with 95%% intervals",
        description=(
            "Play the same deck orders with the bots rotated through the seats (duplicate "
            "deals) and print each bot's mean score per deal (or loss rate) with its 95% "
            "interval, and its margin over the first bot with the 95% interval of that "
            "paired difference."
        ),
    )
    p.add_argument("variant", help="a shipped variant name or a rules file")
    p.add_argument(
        "--bots",
        required=True,
        help="one bot per seat, separated by commas or spaces: random, greedy, heuristic, "
        "pimc, ismcts, with options after a colon (pimc:worlds=8,iterations=50,greedy,greedy)",
        nargs="+",
    )
    p.add_argument(
        "--deals",
        type=cli._whole(1, MAX_DEALS),
        default=100,
        help="deck orders, each played once per rotation of the bots",
    )
    p.add_argument(
        "--seed", type=cli._whole(0, cli.MAX_SEED), default=0, help="seed of the deck orders"
    )
    p.add_argument(
        "--plot",
        default=None,
        metavar="FILE",
        help="save a PNG chart here: the means and the paired margins, with 95%% intervals "
        "(needs trickcore[plot])",
    )
    add_cluster_options(p)
    p.set_defaults(func=cmd_arena)


def split_bots(words: list[str]) -> list[str]:
    """The bot specs of `--bots`: words separated by spaces, or by commas where a comma
    does not belong to options (`pimc:worlds=8,iterations=50,greedy,greedy`)."""
    specs: list[str] = []
    for word in words:
        for part in word.split(","):
            part = part.strip()
            if not part:
                continue
            if "=" in part and ":" not in part and specs and ":" in specs[-1]:
                specs[-1] += "," + part  # another option of the bot before
            else:
                specs.append(part)
    return specs


def cmd_arena(args: argparse.Namespace) -> int:
    """Play duplicate deals and print each bot's mean score per deal (or loss rate)."""
    v = load_variant(args.variant)
    specs = split_bots(args.bots)
    seats = check_lineup(v, specs)
    if args.plot is not None:  # before any deal is played
        cli.require_extra("trickcore arena --plot", ("matplotlib",), "plot")
        folder = Path(args.plot).expanduser().resolve().parent
        if not folder.is_dir():
            raise TrickcoreError(f"cannot save the plot: no folder {folder}")
    out = Output()
    bouts = v.model.bouts is not None
    with progress_bar("duplicate deals", out.console, enabled=out.tty) as tick:
        # deck orders in chunks: in this process, on local workers or on a cluster; the
        # records are the same whatever runs them
        records, run = run_arena(
            v,
            specs,
            args.seed,
            args.deals,
            workers=args.workers,
            scheduler=args.scheduler,
            progress=tick,
        )
    if not records:
        out.print("interrupted before any deck order was played", "yellow")
        return 130
    done = len(records) // seats
    if run.interrupted:
        out.print(
            f"interrupted: {done} of {args.deals} deck orders played; the figures are theirs",
            "yellow",
        )
    results = summarize(records, specs)
    unit = "loss rate (share of deals lost)" if bouts else "mean score per deal"
    if not bouts and v.model.tricks is not None and v.model.tricks.scoring.progress:
        unit = "mean progress per deal (scoring's 'progress', not the deal score)"
    elif not bouts and score_sign(v) < 0:  # the match ranks by the lowest score
        unit += " (lower is better)"
    out.print(
        f"{v.title}: {done} deck orders x {seats} rotations "
        f"({len(records)} deals), seed {args.seed}; bots by seat: {', '.join(specs)}",
        "bold",
    )
    first = results[0].label

    def num(x: float) -> str:
        return "-" if math.isnan(x) else f"{x:.3f}" if bouts else f"{x:.1f}"

    rows = [
        [
            r.label,
            num(r.mean),
            f"[{num(r.low)}, {num(r.high)}]",
            "" if i == 0 else f"{r.margin:+.3f}" if bouts else f"{r.margin:+.1f}",
            "" if i == 0 else f"[{num(r.margin_low)}, {num(r.margin_high)}]",
            f"{r.mean_seconds * 1000:.2f}",
            f"{r.max_seconds * 1000:.1f}",
        ]
        for i, r in enumerate(results)
    ]
    out.table(
        f"{unit}, 95% intervals over deck orders",
        [
            "bot",
            "loss rate" if bouts else "mean",
            "95% CI",
            f"vs {first}",
            "95% CI",
            "ms/decision",
            "max ms",
        ],
        rows,
        right=(1, 3, 5, 6),
    )
    if args.plot is not None:
        plot_arena(results, args.plot, f"{v.title}: {done} duplicate deck orders", unit)
        out.print(f"plot saved to {args.plot}")
    return 130 if run.interrupted else 0
