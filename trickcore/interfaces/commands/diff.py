"""`trickcore diff A B`: the shortest deal and actions on which two variants disagree, as a
saved match of each, side by side; or "no difference found in N deals"."""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from ... import load_variant
from .. import cli
from ..terminal import Output

MAX_DEALS = 100_000


def add_command(subparsers: Any) -> None:
    """Add `diff` to the `trickcore` command."""
    p = subparsers.add_parser(
        "diff",
        help="find the shortest deal on which two variants disagree",
        description=(
            "Search (with shrinking) for the shortest deal and action sequence on which two "
            "variants disagree: the seat to act, the legal actions, a trick "
            "winner, a deal result, the scores or kept values. Prints it as a saved match "
            "of each variant, side by side, and saves both for `trickcore replay`."
        ),
    )
    p.add_argument("a", metavar="A", help="a shipped variant name or a rules file")
    p.add_argument("b", metavar="B", help="a shipped variant name or a rules file")
    p.add_argument(
        "--deals",
        type=cli._whole(1, MAX_DEALS),
        default=300,
        help="tries, each of 1 to 12 deals (default 300)",
    )
    p.add_argument("--seed", type=cli._whole(0, cli.MAX_SEED), default=0, help="seed of the search")
    p.add_argument(
        "--save",
        default=None,
        metavar="PREFIX",
        help="save the two matches as PREFIX-a.json and PREFIX-b.json (default: diff-a.json "
        "and diff-b.json in a new temporary folder, named in the output)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document (for scripts)")
    p.set_defaults(func=cmd_diff)


def cmd_diff(args: argparse.Namespace) -> int:
    """Search for a difference between two variants and show it."""
    from ...analysis.differ import card_texts, find_difference
    from ...engine.match import save_match
    from ...engine.saving import check_save_path

    a = load_variant(args.a)
    b = load_variant(args.b)
    prefix = args.save
    if prefix is not None:
        for path in (Path(f"{prefix}-a.json"), Path(f"{prefix}-b.json")):
            check_save_path(str(path))
    result = find_difference(a, b, deals=args.deals, seed=args.seed)
    d = result.difference
    out = Output()
    if d is None:
        if args.json:
            print(json.dumps({"difference": None, "deals": result.deals, "tries": result.tries}))
        else:
            out.print(
                f"no difference found in {result.deals} deals "
                f"({result.tries} tries from drawn starts)"
            )
        return 0
    if prefix is None:  # never into the current folder unasked: a folder of its own
        prefix = str(Path(tempfile.mkdtemp(prefix="trickcore-diff-")) / "diff")
    paths = (Path(f"{prefix}-a.json"), Path(f"{prefix}-b.json"))
    save_match(d.match_a, str(paths[0]))
    save_match(d.match_b, str(paths[1]))
    if args.json:
        doc = {
            "difference": {"what": d.what, "a": d.a_says, "b": d.b_says},
            "actions": list(d.actions),
            "a": d.match_a.to_json(),
            "b": d.match_b.to_json(),
            "saved": [str(p) for p in paths],
        }
        print(json.dumps(doc, ensure_ascii=False))
        return 1
    start = d.start
    board = (
        "a fresh match"
        if start.scores is None
        else "scores "
        + ", ".join(map(str, start.scores))
        + (
            "; kept " + " / ".join(", ".join(f"{n}={v}" for n, v in seat) for seat in start.kept)
            if start.kept
            else ""
        )
    )
    out.print(f"difference: {d.what}, after {len(d.actions)} actions", "bold")
    rows = [
        ("variant", f"{a.title} ({a.name})", f"{b.title} ({b.name})"),
        (d.what, d.a_says, d.b_says),
        ("saved match", str(paths[0]), str(paths[1])),
    ]
    out.table("Where the variants disagree", ["", "A", "B"], rows)
    if start.players:
        seats = f"{start.players} players, dealer seat {start.dealer}"
    else:  # no number of players in common: each variant at its smallest
        seats = f"A with {min(a.model.players)} players, B with {min(b.model.players)}"
    out.print(f"start (both): {board}; {seats}")
    for i, order in enumerate(start.deck_orders):
        cards_a, cards_b = card_texts(a, start, order), card_texts(b, start, order)
        if cards_a == cards_b:
            out.print(f"deck order {i + 1}, top card first: " + " ".join(cards_a))
        elif start.cards is None:
            out.print(
                f"deck order {i + 1}, top card first (A's cards; B deals the same positions): "
                + " ".join(cards_a)
            )
        else:  # decks of different cards: each deals its own cards in one drawn order
            out.print(f"deck order {i + 1} of A, top card first: " + " ".join(cards_a))
            out.print(f"deck order {i + 1} of B, top card first: " + " ".join(cards_b))
    if start.deals_to_play > len(start.deck_orders):
        out.print(
            f"then {start.deals_to_play - len(start.deck_orders)} more deals, shuffled from "
            f"seed {start.seed} (both)"
        )
    out.print("actions (both), seat: action: " + (", ".join(d.actions) or "(none)"))
    out.print("the two saved matches (rules texts shortened here):")
    for line in side_by_side(_shown(d.match_a), _shown(d.match_b)):
        out.print(line)
    out.print(f"replay either with: trickcore replay {paths[0]}")
    return 1


def _shown(match: Any) -> list[str]:
    data = match.to_json()
    data["rules"] = [f"{e['file']} ({len(e['text'])} characters)" for e in data["rules"]]
    data["deck_orders"] = [" ".join(map(str, o)) for o in data.get("deck_orders") or []]
    return json.dumps(data, indent=1, ensure_ascii=False).splitlines()


def side_by_side(left: list[str], right: list[str]) -> list[str]:
    """Two texts in two columns (lines never cut)."""
    width = max((len(x) for x in left), default=0)
    blank = [""] * abs(len(left) - len(right))
    left, right = left + blank * (len(left) < len(right)), right + blank * (len(right) < len(left))
    return [f"{x.ljust(width)} | {y}".rstrip() for x, y in zip(left, right, strict=True)]
