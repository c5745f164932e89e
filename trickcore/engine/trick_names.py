"""The names of a finished trick, as a player reads them: in `after_trick` (the trick just
won) and in each trick of `sum_tricks(x)` / `count_tricks(b)` (scoring and decisions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..language.exprs import (
    OPPONENTS_TRICK_KEY,
    OWN_TRICK_KEY,
    TRICK_CARDS_KEY,
    TRICK_COMBINATIONS_KEY,
    TRICK_TRUMP_KEY,
    WINNING_KEY,
)
from .records import TrickView


def trick_common(
    trick: TrickView, number: int, total: int, points: Sequence[int], combinations: Any = None
) -> dict[str, Any]:
    """The names of trick `number` (from 1) of a deal of `total` tricks that are the same
    for every player, with the cards' `points` under the trick's trump (`combinations`:
    the points of the combinations among cards under a trump, `trick_combinations`)."""
    cards = trick.cards
    winner = trick.winner
    won = 0
    for _, c in cards:
        won += points[c]
    return {
        "trick_number": number,
        "trick_points": won,
        "last_trick": number == total,
        TRICK_CARDS_KEY: [c for _, c in cards],
        WINNING_KEY: next((c for s, c in cards if s == winner), -1),
        TRICK_TRUMP_KEY: trick.trump,
        TRICK_COMBINATIONS_KEY: combinations,
    }


def trick_env(
    trick: TrickView,
    number: int,
    total: int,
    points: Sequence[int],
    seat: int,
    side_of: Sequence[int] | None = None,
    common: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The names of trick `number` (from 1) of a deal of `total` tricks for `seat`, with the
    cards' `points` under the trick's trump; with `side_of` (each seat's side) also
    `side_won` and the opponents' cards (scoring: the deal's sides are known). `common`:
    `trick_common` of the trick, when the caller has made it for every player."""
    cards = trick.cards
    winner = trick.winner
    env = (common if common is not None else trick_common(trick, number, total, points)).copy()
    env["won_trick"] = winner == seat
    env[OWN_TRICK_KEY] = [c for s, c in cards if s == seat]
    if side_of is not None:
        mine = side_of[seat]
        env["side_won"] = winner >= 0 and side_of[winner] == mine
        env[OPPONENTS_TRICK_KEY] = [c for s, c in cards if s >= 0 and side_of[s] != mine]
    return env


def tricks_envs(
    tricks: Sequence[TrickView],
    total: int,
    points_with: Any,
    seat: int,
    side_of: Sequence[int] | None = None,
    commons: Sequence[dict[str, Any]] | None = None,
    combinations: Any = None,
) -> list[dict[str, Any]]:
    """`trick_env` of every finished trick of a deal for `seat` (`points_with(trump)`: the
    cards' points under a trump; `commons`: `trick_common` of each, when the caller has
    made them for every player; `combinations` as `trick_common`'s)."""
    if commons is None:
        commons = tricks_common(tricks, total, points_with, combinations)
    return [trick_env(t, i + 1, total, (), seat, side_of, commons[i]) for i, t in enumerate(tricks)]


def tricks_common(
    tricks: Sequence[TrickView], total: int, points_with: Any, combinations: Any = None
) -> list[dict[str, Any]]:
    """`trick_common` of every finished trick of a deal."""
    return [
        trick_common(t, i + 1, total, points_with(t.trump), combinations)
        for i, t in enumerate(tricks)
    ]
