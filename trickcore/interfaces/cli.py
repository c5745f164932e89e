"""The `trickcore` command line: list, check, show, simulate, play, verify, replay.

Text from rules files and saved matches is never read as markup; piped output is plain text,
never wrapped or cut; `--json` on `list`, `check`, `show` and `verify` prints one JSON document.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import ENGINE, __version__, list_variants, load_variant
from ..checking import verify_defaults
from ..language.errors import RulesError, TrickcoreError
from . import commands
from .terminal import Output

MAX_MATCHES = 100_000
MAX_EXAMPLES = 100_000
MAX_SEED = 10**12 - 1
MAX_PLAYERS = 8


def _whole(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number from lo to hi, with a clear message otherwise."""

    def parse(text: str) -> int:
        value = text.strip()
        digits = value[1:] if value[:1] in "+-" else value
        if not digits.isascii() or not digits.isdigit() or len(digits) > 13:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number from {lo} to {hi}")
        number = int(value)
        if not lo <= number <= hi:
            raise argparse.ArgumentTypeError(f"{number} is not a whole number from {lo} to {hi}")
        return number

    parse.__name__ = "whole number"
    return parse


def require_extra(what: str, modules: tuple[str, ...], extra: str) -> None:
    """Refuse at once, before any work, when a module of an optional extra is missing:
    `what` needs `modules`, installed by `pip install 'trickcore[EXTRA]'`."""
    import importlib.util

    missing = []
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a parent package missing, or a blocked module
            found = False
        if not found:
            missing.append(name)
    if missing:
        raise TrickcoreError(
            f"{what} needs {' and '.join(missing)}, which "
            f"{'is' if len(missing) == 1 else 'are'} not installed: "
            f"pip install 'trickcore[{extra}]'"
        )


class HelpFormatter(argparse.HelpFormatter):
    """`--help` of every subcommand: its description as written, and each option's default
    after its help text (unless the help already names it, or there is none to name)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            action.option_strings
            and default not in (None, False, argparse.SUPPRESS, [])
            and "default" not in text
            and "(" + str(default) not in text
        ):
            text += " (default: %(default)s)"
        return text


def _emit_json(data: Any) -> None:
    print(json.dumps(data, indent=1, ensure_ascii=False))


def _error_dict(exc: TrickcoreError) -> dict[str, Any]:
    if isinstance(exc, RulesError):
        loc = exc.location
        return {
            "message": exc.message,
            "file": loc.file if loc else None,
            "line": loc.line if loc else None,
            "column": loc.column if loc else None,
            "source_line": loc.source_line if loc else None,
            "text": str(exc),
        }
    return {"message": str(exc), "text": str(exc)}


def _compile_all(ref: str) -> tuple[Any, list[RulesError]]:
    """The variant a rules file defines, or every error the front end finds in it."""
    from ..engine.game import Game
    from ..language.compiler import compile_with_errors
    from ..language.loader import load_rules

    try:
        model, errors = compile_with_errors(load_rules(ref))
    except RulesError as exc:
        return None, exc.errors  # the loader's: one, or several independent ones
    return (Game(model) if model is not None else None), errors


def cmd_list(args: argparse.Namespace) -> int:
    """Print the shipped variants."""
    rows = []
    for name in list_variants():
        v = load_variant(name)
        rows.append((name, v.title, list(v.model.players)))
    if args.json:
        _emit_json([{"variant": n, "name": t, "players": p} for n, t, p in rows])
        return 0
    Output().table(
        "Shipped variants",
        ["variant", "name", "players"],
        [(n, t, player_counts(p)) for n, t, p in rows],
    )
    return 0


def player_counts(counts: list[int]) -> str:
    """Numbers of players in order, a run of three or more as a range: '3–7', '2, 4'."""
    ordered = sorted(set(counts))
    parts: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{ordered[i]}–{ordered[j]}")
        else:
            parts.extend(str(n) for n in ordered[i : j + 1])
        i = j + 1
    return ", ".join(parts)


def cmd_check(args: argparse.Namespace) -> int:
    """Compile a rules file; report its errors with file:line:column."""
    v, errors = _compile_all(args.file)
    if errors:
        if args.json:
            _emit_json({"ok": False, "file": args.file, "errors": [_error_dict(e) for e in errors]})
            return 1
        out = Output()
        for err in errors:
            out.print(f"error: {err}", "red")
        return 1
    files = list(v.model.sources)
    if args.json:
        _emit_json(
            {
                "ok": True,
                "file": args.file,
                "variant": v.name,
                "name": v.title,
                "files": files,
                "hash": v.content_hash,
            }
        )
        return 0
    Output().print(f"ok: {v.title} ({v.name}, {len(files)} file(s), hash {v.content_hash})")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print a readable summary of a variant's rules, generated from the compiled model."""
    from .summary import rules_summary

    v = load_variant(args.variant)
    sections = rules_summary(v.model)
    files = [Path(s).name for s in v.model.sources]
    if args.json:
        _emit_json(
            {
                "variant": v.name,
                "name": v.title,
                "files": list(v.model.sources),
                "hash": v.content_hash,
                "sections": [{"title": t, "lines": lines} for t, lines in sections],
            }
        )
        return 0
    out = Output()
    out.print(f"{v.title}  ({v.name}; built from {', '.join(files)})", "bold")
    for title, lines in sections:
        out.panel(title, lines)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play a match in the terminal at seat 0 against computer players."""
    from ..engine.saving import check_save_path
    from ..players.protocol import Bot
    from ..players.registry import make_bot
    from .terminal import play_in_terminal

    if args.save:
        check_save_path(args.save)
    v = load_variant(args.variant)
    base = args.seed or 0
    make_bot(args.opponents)  # a bad spec is refused before the match starts
    hint = make_bot(args.hint, seed=base) if args.hint else None
    if hint is not None and not hasattr(hint, "evaluate"):
        raise TrickcoreError(f"--hint needs a search bot (pimc or ismcts), not {args.hint!r}")
    match = v.new_match(seed=args.seed, players=args.players)
    bots: dict[int, Bot] = {
        s: make_bot(args.opponents, seed=base + s) for s in range(1, match.seats)
    }
    return play_in_terminal(match, bots, Output(), save_to=args.save, hint=hint)


def cmd_replay(args: argparse.Namespace) -> int:
    """Load a saved match (or a verify counterexample) and replay it, printing each action."""
    from ..engine.replay import match_from_json
    from ..engine.saving import read_saved_json
    from ..language.errors import StuckError

    out = Output()
    data = read_saved_json(args.file)
    match = match_from_json(data)
    deal_no = -1
    for deal_index, seat, text in match.history:
        if deal_index != deal_no:
            deal_no = deal_index
            out.print(f"deal {deal_index + 1}", "bold")
        out.print(f"  seat {seat}: {text}")
    out.print(f"scores: {match.scores}" + (f"; winners {match.winners}" if match.is_over else ""))
    if not match.is_over:
        try:
            legal = [a.text for a in match.legal_actions()]
            out.print(f"seat {match.to_act} to act; legal: {', '.join(legal[:20])}")
        except StuckError as exc:
            out.print(str(exc), "red")
    violation = data.get("violation") if isinstance(data, dict) else None
    if isinstance(violation, dict):
        out.print(
            f"invariant broken here: {violation.get('invariant')}: {violation.get('message')}",
            "red",
        )
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a rules file for consistency: static checks, then invariants in random play."""
    import importlib.util

    # (looked for, not imported: verify imports it once its worker processes are starting)
    if importlib.util.find_spec("hypothesis") is None:
        print(
            "trickcore verify needs hypothesis, which is not installed: "
            "pip install 'trickcore[cli]'",
            file=sys.stderr,
        )
        return 2
    from rich.progress import Progress

    from ..checking.verify import default_jobs, verify
    from ..engine.saving import save_json

    out = Output()
    show_progress = out.tty and not args.json
    with Progress(transient=True, console=out.console, disable=not show_progress) as progress:
        task = progress.add_task("playing random runs", total=None)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        report = verify(
            args.file,
            examples=args.examples,
            progress=tick,
            thorough=args.thorough,
            jobs=args.jobs or default_jobs(),
        )
    if report.static_errors:
        if args.json:
            _emit_json(
                {
                    "ok": False,
                    "file": args.file,
                    "static_errors": [_error_dict(e) for e in report.static_errors],
                }
            )
            return 1
        for err in report.static_errors:
            out.print(f"error: {err}", "red")
        out.print(f"{args.file}: the rules do not compile; fix the errors above first")
        return 1
    v = report.violation
    if v is None:
        if args.json:
            _emit_json(
                {
                    "ok": True,
                    "file": args.file,
                    "variant": report.variant,
                    "runs": report.runs,
                    "matches": report.matches,
                }
            )
            return 0
        out.print(
            f"ok: {report.variant} keeps every invariant in {report.runs} random runs "
            f"and {report.matches} whole matches"
        )
        return 0
    game = load_variant(args.file)
    saved = Path(args.save or f"{Path(args.file).stem}.counterexample.json")
    save_json(v.saved_match(game), saved)
    if args.json:
        _emit_json(
            {
                "ok": False,
                "file": args.file,
                "variant": report.variant,
                "violation": {
                    "invariant": v.invariant,
                    "message": v.message,
                    "seed": v.seed,
                    "players": v.players,
                    "actions": list(v.actions),
                },
                "saved_to": str(saved),
            }
        )
        return 1
    out.print(f"invariant broken: {v.invariant}: {v.message}", "red")
    out.print(
        f"counterexample (shrunk): seed {v.seed}, {v.players} players, {len(v.actions)} actions:"
    )
    out.print("  " + ", ".join(v.actions))
    out.print(f"saved to {saved}; replay it with: trickcore replay {saved}")
    return 1


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `trickcore` command."""
    p = argparse.ArgumentParser(
        prog="trickcore",
        description="Card games written as rules files. `trickcore COMMAND --help` says more "
        "about each command.",
    )
    p.add_argument(  # which engine runs: the pure-Python one or the native build
        "--version", action="version", version=f"trickcore {__version__} (engine: {ENGINE})"
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    seed = _whole(0, MAX_SEED)
    players = _whole(1, MAX_PLAYERS)
    as_json = {"action": "store_true", "help": "print one JSON document (for scripts)"}
    variant_help = "a shipped variant name (see `trickcore list`) or a rules file"
    ls = sub.add_parser(
        "list",
        help="list the shipped variants",
        description="List the shipped variants: the name to type, the game's title and the "
        "numbers of players it is played by.",
    )
    ls.add_argument("--json", **as_json)  # type: ignore[arg-type]
    ls.set_defaults(func=cmd_list)
    c = sub.add_parser(
        "check",
        help="compile a rules file and report its errors",
        description="Compile a rules file (and the files it extends) and report every error "
        "with file:line:column, or 'ok' with the variant's name and hash.",
    )
    c.add_argument("file", help="a rules file")
    c.add_argument("--json", **as_json)  # type: ignore[arg-type]
    c.set_defaults(func=cmd_check)
    s = sub.add_parser(
        "show",
        help="print a readable summary of a variant's rules",
        description="Print the rules of a variant in plain words, generated from the compiled "
        "rules: the deck, the deal, the bidding, the play, the scoring and the match.",
    )
    s.add_argument("variant", help=variant_help)
    s.add_argument("--json", **as_json)  # type: ignore[arg-type]
    s.set_defaults(func=cmd_show)
    pl = sub.add_parser(
        "play",
        help="play a match at seat 0 against computer players",
        description="Play a match in the terminal: you sit at seat 0, computer players take "
        "the other seats. Type an action as the legal list shows it (a bare card such as 9S "
        "plays it), '?' for every legal action, 'quit' to stop. A move with only one legal "
        "choice is played for you.",
    )
    pl.add_argument("variant", help=variant_help)
    pl.add_argument(
        "--seed", type=seed, default=None, help="deal from this seed (default: a random one)"
    )
    pl.add_argument(
        "--players",
        type=players,
        default=None,
        help="players at the table (default: the variant's usual number)",
    )
    pl.add_argument(
        "--save", default=None, help="save the match to this JSON file after every action"
    )
    pl.add_argument(
        "--opponents",
        default="greedy",
        help="the computer players: random, greedy, heuristic, pimc, ismcts, with options "
        "(pimc:iterations=100)",
    )
    pl.add_argument(
        "--hint",
        nargs="?",
        const="pimc",
        default=None,
        metavar="BOT",
        help="show a search bot's advice with its value of each action (default bot: pimc)",
    )
    pl.set_defaults(func=cmd_play)
    ver = sub.add_parser(
        "verify",
        help="check a rules file for consistency",
        description="Check a rules file for consistency: static checks, then invariants "
        "(every card somewhere, scores that add up, no seat left without a legal action, ...) "
        "in random play; a broken invariant is shrunk to a short counterexample and saved.",
    )
    ver.add_argument("file", help="a rules file or a shipped variant name")
    ver.add_argument(
        "--examples",
        type=_whole(1, MAX_EXAMPLES),
        default=None,
        help=f"random runs (default {verify_defaults.RUNS})",
    )
    ver.add_argument(
        "--thorough",
        action="store_true",
        help=f"{verify_defaults.THOROUGH_RUNS} runs and {verify_defaults.THOROUGH_MATCHES} "
        "whole matches, every deal of a run checked in full",
    )
    ver.add_argument(
        "--jobs",
        type=_whole(1, 64),
        default=None,
        help="worker processes (default: the cores available, at most 8; 1: this process)",
    )
    ver.add_argument(
        "--save",
        default=None,
        help="where to write a counterexample (default: FILE's name with "
        ".counterexample.json, in the current folder)",
    )
    ver.add_argument("--json", **as_json)  # type: ignore[arg-type]
    ver.set_defaults(func=cmd_verify)
    r = sub.add_parser(
        "replay",
        help="replay a saved match",
        description="Load a saved match (`play --save`, `diff`, a `verify` counterexample) "
        "and print every action of it deal by deal, then the scores.",
    )
    r.add_argument("file", help="a saved match (JSON)")
    r.set_defaults(func=cmd_replay)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        # each module of `commands` adds one subcommand: `add_command(subparsers)`
        importlib.import_module(f"{commands.__name__}.{info.name}").add_command(sub)
    for parser in sub.choices.values():  # every subcommand's --help shows the defaults
        parser.formatter_class = HelpFormatter
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `trickcore` command."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except TrickcoreError as exc:
        if getattr(args, "json", False):
            _emit_json({"ok": False, "error": _error_dict(exc)})
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader of a pipe went away (e.g. `| head`)
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
