"""Computer players by name: `make_bot("pimc:worlds=20,iterations=200", seed=1)`.

A spec is a bot's name, optionally followed by `:` and options `name=value` separated by
commas. Names: random, greedy, heuristic, pimc, ismcts. Options (search bots): `worlds`,
`iterations`, `steps` (whole numbers), `seconds` (a number, or `none`: no time cap, the
budget is work alone and the choice the same on any machine), `rollout` (heuristic or
random); for pimc also `confidence` (a number), `endgame` and `endgame_nodes` (whole
numbers), for ismcts `exploration` (a number) and `widening` (a
whole number).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..language.errors import TrickcoreError
from .bots import GreedyPlayer, RandomPlayer
from .heuristic import HeuristicPlayer
from .ismcts import ISMCTSPlayer
from .pimc import PIMCPlayer
from .protocol import Bot

_INT, _FLOAT, _WORD = "a whole number", "a number", "a word"
_SECONDS = "a number of seconds or none"
# each bot: its class and the options it takes, with their kinds
BOTS: dict[str, tuple[Callable[..., Any], dict[str, str]]] = {
    "random": (RandomPlayer, {}),
    "greedy": (GreedyPlayer, {}),
    "heuristic": (HeuristicPlayer, {}),
    "pimc": (
        PIMCPlayer,
        {
            "worlds": _INT,
            "iterations": _INT,
            "steps": _INT,
            "seconds": _SECONDS,
            "rollout": _WORD,
            "confidence": _FLOAT,
            "endgame": _INT,
            "endgame_nodes": _INT,
        },
    ),
    "ismcts": (
        ISMCTSPlayer,
        {
            "worlds": _INT,
            "iterations": _INT,
            "steps": _INT,
            "seconds": _SECONDS,
            "exploration": _FLOAT,
            "rollout": _WORD,
            "widening": _INT,
        },
    ),
}
MAX_SPEC = 200


def bot_names() -> list[str]:
    """The names `make_bot` knows."""
    return list(BOTS)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A spec's bot name and options (checked), or a TrickcoreError saying what is wrong."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > MAX_SPEC:
        raise TrickcoreError(
            f"a bot is named by a text such as 'pimc' or 'pimc:iterations=200' "
            f"(known bots: {', '.join(BOTS)})"
        )
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name not in BOTS:
        raise TrickcoreError(f"unknown bot {name!r} in {spec!r}; known bots: {', '.join(BOTS)}")
    kinds = BOTS[name][1]
    options: dict[str, Any] = {}
    for part in rest.split(",") if rest.strip() else []:
        key, eq, value = (x.strip() for x in part.partition("="))
        if not eq or not key or not value:
            raise TrickcoreError(f"bot option {part.strip()!r} in {spec!r} is not name=value")
        if key not in kinds:
            known = ", ".join(kinds) or "none"
            raise TrickcoreError(f"bot {name} has no option {key!r} (its options: {known})")
        options[key] = _convert(name, key, value, kinds[key])
    return name, options


def _convert(bot: str, key: str, value: str, kind: str) -> Any:
    try:
        if kind == _INT:
            return int(value)
        if kind == _SECONDS and value.lower() == "none":
            return None
        if kind in (_FLOAT, _SECONDS):
            number = float(value)
            if number != number or number in (float("inf"), float("-inf")):
                raise ValueError(value)
            return number
    except ValueError:
        raise TrickcoreError(f"bot {bot}: option {key} must be {kind}, not {value!r}") from None
    return value


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A computer player from its spec ("random", "greedy", "heuristic", "pimc", "ismcts",
    with options such as "pimc:worlds=20,iterations=200,seconds=0.5") and a seed."""
    if seed is not None and (type(seed) is not int):
        raise TrickcoreError(f"a bot's seed is a whole number, not {seed!r}")
    name, options = parse_spec(spec)
    factory = BOTS[name][0]
    bot: Bot = factory(seed=seed, **options)
    return bot


def bot_options(name: str) -> dict[str, tuple[str, Any]]:
    """The options a bot takes: option -> (its kind, its default value)."""
    import inspect

    factory, kinds = BOTS[name]
    params = inspect.signature(factory).parameters
    return {key: (kind, params[key].default) for key, kind in kinds.items()}
