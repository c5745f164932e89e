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
        nargs="+",
        default=None,
        metavar="SPEC",
        help=(
            "the computer players a table may have, the first the default; their options "
            "are ceilings no client may exceed, e.g. greedy 'pimc:iterations=200' "
            "(default: greedy random heuristic pimc ismcts, at their defaults)"
        ),
    )
    p.add_argument("--players", type=_count, default=None, help="players at a new table")
    p.add_argument(
        "--seed",
        type=_seed,
        default=None,
        help=(
            "deal the first match of every table from this seed, for tests and demonstrations "
            "(anyone who knows it knows every hand); without it every deal comes from a "
            "secret source"
        ),
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.8,
        help="seconds a computer player waits before it moves (0.8)",
    )
    p.add_argument(
        "--bot-threads",
        type=_threads,
        default=1,
        help="threads that make the computer players' moves (1)",
    )
    p.add_argument(
        "--key-file",
        default=None,
        help=(
            "a file keeping the key that seals running matches downloaded by their seats "
            "(made if missing), so that they can be resumed after a restart"
        ),
    )
    p.add_argument(
        "--connections",
        type=_connections,
        default=DEFAULT_CONNECTIONS,
        help=f"connections at once, in all ({DEFAULT_CONNECTIONS})",
    )
    p.add_argument(
        "--per-client",
        type=_connections,
        default=DEFAULT_PER_CLIENT,
        help=f"connections at once from one address ({DEFAULT_PER_CLIENT})",
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=DEFAULT_IDLE_TIMEOUT,
        help=(
            "seconds a connection may stay open without sending a request "
            f"({DEFAULT_IDLE_TIMEOUT:g})"
        ),
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
_threads = _whole(1, 64, "a number of threads")
_connections = _whole(1, 100_000, "a number of connections")
DEFAULT_CONNECTIONS = 256  # (as web.guard has them; kept here so --help needs no uvicorn)
DEFAULT_PER_CLIENT = 32
DEFAULT_IDLE_TIMEOUT = 10.0
LOOPBACK = ("127.0.0.1", "localhost", "::1")
EXPOSED = (
    "trickcore: serving on {host}: plain HTTP with no authentication. Anyone who can reach "
    "this address can start tables and watch any table whose link he has; a seat's token "
    "travels unencrypted. Serve on a network you trust, or behind a proxy with TLS."
)


def free_port(host: str) -> int:
    """A port that is free on `host` now."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def allowed_hosts(host: str) -> list[str] | None:
    """The host names a server bound to `host` answers to (None: any, when it listens on
    every address); a page of another name is refused (DNS rebinding)."""
    if host in ("0.0.0.0", "::", ""):
        return None
    if host in LOOPBACK or host.startswith("127."):
        return ["127.0.0.1", "localhost", "::1", host]
    return [host]


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
    if not 0.5 <= args.idle_timeout <= 3600:
        print("error: --idle-timeout is a number of seconds from 0.5 to 3600", file=sys.stderr)
        return 2
    import uvicorn

    from ..web.app import create_app
    from ..web.guard import quiet_storms, uvicorn_options
    from ..web.opponents import OpponentMenu
    from ..web.sealing import Sealer

    OpponentMenu.parse(args.opponents)  # an unknown computer player: an error now, not later
    if args.variant is not None and args.players is not None:
        from ... import load_variant
        from ...language.errors import TrickcoreError

        allowed = load_variant(args.variant).model.players
        if args.players not in allowed:
            raise TrickcoreError(
                f"{args.variant} is played by {', '.join(map(str, allowed))} players, "
                f"not {args.players}"
            )
    sealer = Sealer.from_file(args.key_file) if args.key_file else Sealer()
    app = create_app(
        variant=args.variant,
        opponents=args.opponents,
        players=args.players,
        seed=args.seed,
        bot_delay=args.bot_delay,
        bot_threads=args.bot_threads,
        allowed_hosts=allowed_hosts(args.host),
        sealer=sealer,
    )
    port = args.port or free_port(args.host)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"trickcore: the table is at http://{shown}:{port}/  (Ctrl-C stops it)", flush=True)
    if not (args.host in LOOPBACK or args.host.startswith("127.")):
        print(EXPOSED.format(host=args.host), file=sys.stderr, flush=True)
    if args.seed is not None:
        print(
            "trickcore: --seed deals every table's first match from a known seed: for tests "
            "and demonstrations, not for play among strangers",
            file=sys.stderr,
            flush=True,
        )
    quiet_storms()
    options = uvicorn_options(args.connections, args.per_client, args.idle_timeout)
    uvicorn.run(app, host=args.host, port=port, log_level="warning", **options)
    return 0
