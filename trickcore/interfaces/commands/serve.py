"""`trickcore serve [VARIANT]`: a table in the browser, on this machine."""

from __future__ import annotations

import argparse
import socket
import sys


def add_command(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `serve` to the `trickcore` command."""
    p = subparsers.add_parser(
        "serve",
        help="play in the browser: a local web table (people and computer players)",
        description=(
            "Start a local web app: open the address it prints, pick a game (VARIANT is "
            "preselected) or upload a rules file, and play against computer players or "
            "share the table's link with friends."
        ),
    )
    p.add_argument("variant", nargs="?", default=None, help="a shipped name or a rules file")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (8000; 0 picks a free one)")
    p.add_argument(
        "--opponents",
        default="greedy",
        help="the computer players, e.g. random, greedy, pimc:iterations=200 (greedy)",
    )
    p.add_argument("--players", type=_count, default=None, help="players at a new table")
    p.add_argument(
        "--seed",
        type=_seed,
        default=None,
        help="seed of the deals at every new table (random if not given)",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        help="seconds a computer player waits before it moves (0.8)",
    )
    p.set_defaults(func=run)


def _whole(lo: int, hi: int, what: str) -> object:
    def parse(text: str) -> int:
        if not text.isascii() or not text.isdigit() or len(text) > 13 or not lo <= int(text) <= hi:
            raise argparse.ArgumentTypeError(f"'{text}' is not {what} from {lo} to {hi}")
        return int(text)

    parse.__name__ = what
    return parse


_port = _whole(0, 65535, "a port")
_count = _whole(1, 8, "a number of players")
_seed = _whole(0, 10**12 - 1, "a seed")


def free_port(host: str) -> int:
    """A port that is free on `host` now."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def run(args: argparse.Namespace) -> int:
    """Build the app and serve it with uvicorn until Ctrl-C."""
    from ..web import EXTRA_HINT, missing_web_packages

    missing = missing_web_packages()
    if missing:
        print(f"trickcore serve: {EXTRA_HINT} ({', '.join(missing)} missing)", file=sys.stderr)
        return 2
    if not 0.0 <= args.bot_delay <= 10.0:
        print("error: --bot-delay is a number of seconds from 0 to 10", file=sys.stderr)
        return 2
    import uvicorn

    from ..web.app import create_app
    from ..web.tables import make_opponent

    make_opponent(args.opponents, 0)  # an unknown computer player: an error now, not later
    if args.variant is not None and args.players is not None:
        from ... import load_variant
        from ...language.errors import TrickcoreError

        allowed = load_variant(args.variant).model.players
        if args.players not in allowed:
            raise TrickcoreError(
                f"{args.variant} is played by {', '.join(map(str, allowed))} players, "
                f"not {args.players}"
            )
    app = create_app(
        variant=args.variant,
        opponents=args.opponents,
        players=args.players,
        seed=args.seed,
        bot_delay=args.bot_delay,
    )
    port = args.port or free_port(args.host)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"trickcore: the table is at http://{shown}:{port}/  (Ctrl-C stops it)", flush=True)
    uvicorn.run(app, host=args.host, port=port, log_level="warning")
    return 0
