"""The names of a finished trick, as a player reads them: in `after_trick` (the trick just
won) and in each trick of `sum_tricks(x)` / `count_tricks(b)` (scoring and decisions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..language.exprs import OPPONENTS_TRICK_KEY, OWN_TRICK_KEY, TRICK_CARDS_KEY, WINNING_KEY
from .records import TrickView


def trick_env(
    trick: TrickView,
    number: int,
    total: int,
    points: Sequence[int],
    seat: int,
    side_of: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The names of trick `number` (from 1) of a deal of `total` tricks for `seat`, with the
    cards' `points` under the trick's trump; with `side_of` (each seat's side) also
    `side_won` and the opponents' cards (scoring: the deal's sides are known)."""
    cards = trick.cards
    winner = trick.winner
    env: dict[str, Any] = {
        "trick_number": number,
        "trick_points": sum(points[c] for _, c in cards),
        "last_trick": number == total,
        "won_trick": winner == seat,
        TRICK_CARDS_KEY: [c for _, c in cards],
        OWN_TRICK_KEY: [c for s, c in cards if s == seat],
        WINNING_KEY: next((c for s, c in cards if s == winner), -1),
    }
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
) -> list[dict[str, Any]]:
    """`trick_env` of every finished trick of a deal for `seat` (`points_with(trump)`: the
    cards' points under a trump)."""
    return [
        trick_env(t, i + 1, total, points_with(t.trump), seat, side_of)
        for i, t in enumerate(tricks)
    ]
