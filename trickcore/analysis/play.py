"""Playing whole matches with computer players, deterministically, and recording each deal.

Seeds: match `i` of a run with seed `S` is dealt from seed `S * 1_000_003 + i`, and the bot
at seat `s` is seeded from the match seed and `s`; so a match depends only on (variant,
seed, index, bots), and the same index under two variants of one deck size sees the same
deck orders and the same bot seeds (duplicate deals).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..engine.actions import Action
from ..engine.game import Game
from ..engine.match import Match
from ..language.errors import RulesError
from ..players.bots import RandomPlayer
from ..players.protocol import turn_of
from ..players.registry import make_bot

MAX_SEED = 10**12


def match_seed(seed: int, index: int) -> int:
    """The seed of match `index` of a run with seed `seed`."""
    return (seed * 1_000_003 + index) % MAX_SEED


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the bot at `seat` in match `index` of a run with seed `seed`."""
    return (match_seed(seed, index) * 17 + seat + 1) % MAX_SEED


def check_bots(spec: str) -> str:
    """The bot spec, checked (a `TrickcoreError` names an unknown bot or option)."""
    spec = spec.strip()
    make_bot(spec, 0)
    return spec


def _chooser(bot: Any) -> Callable[[Match], Action]:
    """How to ask a bot for the action of the seat to act in a match: with its `Turn`; the
    random bot, which reads only the legal actions, without building the observation (the
    same choice, several times faster)."""
    if type(bot) is RandomPlayer:
        return lambda m: bot.rng.choice(m.legal_actions())  # type: ignore[no-any-return]
    return lambda m: bot.choose(turn_of(m))  # type: ignore[no-any-return]


@attrs.frozen
class DealRecord:
    """One finished deal of a match, as the measures read it."""

    result: dict[str, Any]  # the match's deal result (dealer, declarer, contract, gains, ...)
    actions: int  # actions taken in the deal
    kept: tuple[dict[str, Any], ...]  # each seat's kept values after the deal
    view: dict[str, Any] | None  # the deal's final public view (when asked for)


@attrs.frozen
class MatchRecord:
    """A whole match: its deals, final scores, winners and length."""

    seats: int
    deals: tuple[DealRecord, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    deals_played: int
    redeals: int
    stopped: bool


def play_match(
    game: Game,
    seed: int,
    index: int,
    bots: str,
    players: int | None = None,
    views: bool = False,
    deck_orders: Sequence[Sequence[int]] | None = None,
) -> MatchRecord:
    """Play match `index` of a run with `seed` between bots of one spec and record it.

    `views=True` also keeps each deal's final public view (for observation measures)."""
    m = game.new_match(seed=match_seed(seed, index), players=players, deck_orders=deck_orders)
    choose = [_chooser(make_bot(bots, bot_seed(seed, index, s))) for s in range(m.seats)]
    deals: list[DealRecord] = []
    actions = 0
    since = 0
    while not m.is_over:
        deal = m.current
        try:
            m.apply(choose[m.to_act](m))
        except RulesError:
            if m.stopped is None:
                raise
            # the rules stopped the match (a number out of range): it is over, as recorded
        actions += 1
        since += 1
        for k in range(len(m.deal_results) - len(deals)):
            # the first new result is the deal just played; any further ones were void
            view = deal.public_view().to_dict() if views and k == 0 else None
            kept = tuple(dict(x) for x in m.kept)
            deals.append(DealRecord(m.deal_results[len(deals)], since, kept, view))
            since = 0
    return MatchRecord(
        m.seats,
        tuple(deals),
        tuple(m.scores),
        tuple(m.winners),
        actions,
        m.deals_played,
        m.redeals,
        m.stopped is not None,
    )
