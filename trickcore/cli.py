"""The `trickcore` command line: list, check, show, simulate, play, replay."""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from . import list_variants, load_variant
from .errors import RulesError, TrickcoreError


def _console() -> Any:
    try:
        from rich.console import Console
    except ImportError:  # pragma: no cover - depends on the installed extras
        sys.exit("the trickcore command line needs rich: pip install 'trickcore[cli]'")
    return Console(highlight=False)


def escape(text: str) -> str:
    """Text made safe to print through rich (no markup is read from it)."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def cmd_list(args: argparse.Namespace) -> int:
    """Print the shipped variants."""
    from rich.table import Table

    table = Table(title="Shipped variants")
    table.add_column("variant")
    table.add_column("name")
    table.add_column("players")
    for name in list_variants():
        v = load_variant(name)
        table.add_row(name, v.title, ", ".join(map(str, v.model.players)))
    _console().print(table)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Compile a rules file; report its errors with file:line:column."""
    console = _console()
    try:
        v = load_variant(args.file)
    except RulesError as exc:
        console.print(f"[red]error:[/red] {exc}", markup=True, soft_wrap=True)
        return 1
    console.print(
        f"ok: {v.title} ({v.name}, {len(v.model.sources)} file(s), hash {v.content_hash})"
    )
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print a readable summary of a variant's rules, generated from the compiled model."""
    from rich.panel import Panel

    from .summary import rules_summary

    v = load_variant(args.variant)
    console = _console()
    files = ", ".join(Path(s).name for s in v.model.sources)
    console.print(f"[bold]{v.title}[/bold]  ({v.name}; built from {files})")
    for title, lines in rules_summary(v.model):
        body = escape("\n".join(lines))
        console.print(Panel(body, title=title, title_align="left", expand=True))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play matches between random players and summarize them."""
    from rich.progress import Progress
    from rich.table import Table

    v = load_variant(args.variant)
    rng = random.Random(args.seed)
    deals = 0
    redeals = 0
    by_contract: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    deals_per_match = []
    wins: dict[int, int] = defaultdict(int)
    losers: dict[int, int] = defaultdict(int)
    bouts: list[int] = []
    with Progress(transient=True) as progress:
        task = progress.add_task(f"simulating {v.name}", total=args.matches)
        for i in range(args.matches):
            m = v.new_match(seed=args.seed * 1_000_003 + i, players=args.players)
            while not m.is_over:
                m.apply(rng.choice(m.legal_actions()))
            for r in m.deal_results:
                if r.get("redeal"):
                    redeals += 1
                    continue
                deals += 1
                if "loser" in r:
                    losers[r["loser"]] += 1
                    bouts.append(r["bouts"])
                    continue
                made = r["gains"][r["declarer"]] > 0
                by_contract[r["contract"]][0] += 1
                by_contract[r["contract"]][1] += made
            deals_per_match.append(len([r for r in m.deal_results if not r.get("redeal")]))
            for w in m.winners:
                wins[w] += 1
            progress.advance(task)
    console = _console()
    console.print(
        f"[bold]{v.title}[/bold]: {args.matches} match{'es' if args.matches != 1 else ''} "
        f"of random play, seed {args.seed}"
    )
    console.print(f"deals played: {deals} (and {redeals} thrown in for a redeal)")
    console.print(f"average deals per match: {deals / max(args.matches, 1):.1f}")
    console.print("wins by seat: " + ", ".join(f"{s}: {wins[s]}" for s in sorted(wins)))
    if v.model.bouts is not None:
        lost = ", ".join(f"{s}: {losers[s]}" for s in sorted(losers) if s >= 0)
        console.print(f"losers by seat: {lost}; draws: {losers.get(-1, 0)}")
        console.print(
            f"bouts per deal: average {sum(bouts) / max(len(bouts), 1):.1f}, "
            f"longest {max(bouts, default=0)}"
        )
        return 0
    table = Table(title="Declarer success by contract")
    table.add_column("contract", justify="right")
    table.add_column("deals", justify="right")
    table.add_column("made", justify="right")
    for contract in sorted(by_contract):
        n, made = by_contract[contract]
        table.add_row(str(contract), str(n), f"{100 * made / n:.0f}%")
    total = sum(n for n, _ in by_contract.values())
    made_all = sum(m for _, m in by_contract.values())
    table.add_row("all", str(total), f"{100 * made_all / max(total, 1):.0f}%")
    console.print(table)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play a match in the terminal at seat 0 against computer players."""
    from .bots import GreedyPlayer
    from .terminal import Player, play_in_terminal

    v = load_variant(args.variant)
    match = v.new_match(seed=args.seed, players=args.players)
    bots: dict[int, Player] = {
        s: GreedyPlayer(seed=(args.seed or 0) + s) for s in range(1, match.seats)
    }
    return play_in_terminal(match, bots, _console(), save_to=args.save)


def cmd_replay(args: argparse.Namespace) -> int:
    """Load a saved match (or a verify counterexample) and replay it, printing each action."""
    import json

    from .errors import StuckError
    from .saving import load_match

    console = _console()
    match = load_match(args.file)
    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    deal_no = -1
    for deal_index, seat, text in match.history:
        if deal_index != deal_no:
            deal_no = deal_index
            console.print(f"[bold]deal {deal_index + 1}[/bold]")
        console.print(f"  seat {seat}: {text}")
    console.print(
        f"scores: {match.scores}" + (f"; winners {match.winners}" if match.is_over else "")
    )
    if not match.is_over:
        try:
            legal = [a.text for a in match.legal_actions()]
            console.print(f"seat {match.to_act} to act; legal: {', '.join(legal[:20])}")
        except StuckError as exc:
            console.print(f"[red]{escape(str(exc))}[/red]")
    violation = data.get("violation") if isinstance(data, dict) else None
    if isinstance(violation, dict):
        console.print(
            f"[red]invariant broken here:[/red] {violation.get('invariant')}: "
            f"{escape(str(violation.get('message')))}"
        )
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a rules file for consistency: static checks, then invariants in random play."""
    import json

    from rich.progress import Progress

    try:
        from .verify import verify
    except ImportError:  # pragma: no cover - depends on the installed extras
        sys.exit("trickcore verify needs hypothesis: pip install 'trickcore[cli]'")
    console = _console()
    examples = args.examples or (2000 if args.thorough else 300)
    matches = 20 if args.thorough else 3
    with Progress(transient=True, console=console) as progress:
        task = progress.add_task("playing random runs", total=examples)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        report = verify(args.file, examples=examples, matches=matches, progress=tick)
    if report.static_errors:
        for err in report.static_errors:
            console.print(f"[red]error:[/red] {escape(str(err))}", soft_wrap=True)
        console.print(f"{args.file}: the rules do not compile; fix the errors above first")
        return 1
    v = report.violation
    if v is None:
        console.print(
            f"ok: {report.variant} keeps every invariant in {report.runs} random runs "
            f"and {report.matches} whole matches"
        )
        return 0
    from . import load_variant

    game = load_variant(args.file)
    out = Path(args.save or f"{Path(args.file).stem}.counterexample.json")
    out.write_text(json.dumps(v.saved_match(game), indent=1), encoding="utf-8")
    console.print(f"[red]invariant broken:[/red] {v.invariant}: {escape(v.message)}")
    console.print(
        f"counterexample (shrunk): seed {v.seed}, {v.players} players, {len(v.actions)} actions:"
    )
    console.print("  " + ", ".join(v.actions), soft_wrap=True)
    console.print(f"saved to {out}; replay it with: trickcore replay {out}")
    return 1


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `trickcore` command."""
    p = argparse.ArgumentParser(prog="trickcore", description="Card games written as rules files.")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the shipped variants").set_defaults(func=cmd_list)
    c = sub.add_parser("check", help="compile a rules file and report its errors")
    c.add_argument("file")
    c.set_defaults(func=cmd_check)
    s = sub.add_parser("show", help="print a readable summary of a variant's rules")
    s.add_argument("variant")
    s.set_defaults(func=cmd_show)
    sim = sub.add_parser("simulate", help="play matches between random players")
    sim.add_argument("variant")
    sim.add_argument("--matches", type=int, default=10)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", type=int, default=None)
    sim.set_defaults(func=cmd_simulate)
    pl = sub.add_parser("play", help="play a match at seat 0 against computer players")
    pl.add_argument("variant")
    pl.add_argument("--seed", type=int, default=None)
    pl.add_argument("--players", type=int, default=None)
    pl.add_argument("--save", default=None, help="save the match to this JSON file on exit")
    pl.set_defaults(func=cmd_play)
    ver = sub.add_parser("verify", help="check a rules file for consistency")
    ver.add_argument("file")
    ver.add_argument("--examples", type=int, default=None, help="random runs (default 300)")
    ver.add_argument("--thorough", action="store_true", help="2000 runs and 20 whole matches")
    ver.add_argument("--save", default=None, help="where to write a counterexample")
    ver.set_defaults(func=cmd_verify)
    r = sub.add_parser("replay", help="replay a saved match")
    r.add_argument("file")
    r.set_defaults(func=cmd_replay)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `trickcore` command."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except TrickcoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
