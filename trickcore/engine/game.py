"""A compiled variant ready to play (`trickcore.Variant`): the tables of `tables.py` and the
factory of what is played with them: the phases of its deals, deals, matches, hidden
worlds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..language.errors import TrickcoreError
from ..language.limits import check_seat, shown
from ..language.model import VariantModel
from .arguments import MAX_SEED, check_deal_number, check_seed
from .bouts import BoutDeal
from .deal import Deal
from .dealing import make_deal
from .flow import Phase
from .match import Match
from .phases import PHASE_KINDS
from .phases.pair_auction import PairAuction
from .phases.turns import AskDecisions
from .shuffling import seeded_order
from .tables import GameTables

__all__ = ["MAX_SEED", "Game", "variant_of"]


class Game(GameTables):
    """A variant ready to play (the user-facing name is Variant).

    Make one with ``trickcore.load_variant(name_or_path)``; it makes deals and matches.
    """

    def __init__(self, model: VariantModel) -> None:
        super().__init__(model)
        self.asking = AskDecisions(self)  # decisions between phases, as a phase
        self.flow = [self._phase_of(kind) for kind in model.tricks.flow] if model.tricks else []

    def _phase_of(self, kind: str) -> Phase:
        """The phase that runs a kind of the flow (the auction in its style)."""
        tricks = self.model.tricks
        if kind == "auction" and tricks and tricks.bidding and tricks.bidding.style == "pairs":
            return PairAuction(self)
        return PHASE_KINDS[kind](self)

    def new_deal(
        self,
        deck_order: Sequence[str | int] | None = None,
        dealer: int = 0,
        players: int | None = None,
        seed: int | None = None,
        deal_number: int = 1,
    ) -> Deal | BoutDeal:
        """A single deal from a deck order (top card first, C2) or a seed, for tests/replays;
        `deal_number` is the deal's number in a match (for rules that read it)."""
        seats = self.check_seats(players)
        check_seat(dealer, seats, "the dealer")
        check_seed(seed)
        check_deal_number(deal_number)
        if deck_order is None:
            order = seeded_order(self.model.deck.size, seed)
        else:
            order = self.deck_from_texts(deck_order)
        context = self.match_context(seats, deal_number) if deal_number != 1 else None
        return self.make_deal(order, dealer, seats, context)

    def make_deal(
        self,
        order: list[int],
        dealer: int,
        seats: int,
        context: list[dict[str, Any]] | None = None,
    ) -> Deal | BoutDeal:
        """The deal state this variant's kind of game uses (trick-taking or bouts)."""
        return make_deal(self, order, dealer, seats, context)

    def new_match(
        self,
        seed: int | None = None,
        deck_orders: Sequence[Sequence[str | int]] | None = None,
        players: int | None = None,
        scores: Sequence[int] | None = None,
        kept: Sequence[dict[str, Any]] | None = None,
        dealer: int = 0,
        secret: bool = False,
        after: Match | None = None,
    ) -> Match:
        """A match from a seed (shuffles reproducibly) or from given deck orders (C2).

        Deck orders are used first, one per deal; later deals are shuffled from `seed`
        (0 when none is given). `scores`, `kept` and `dealer` start the match from a given
        scoreboard instead of zero (for study, tests and resuming a paper score sheet).
        With `secret`, deals are shuffled from the operating system's cryptographically
        strong source (`random.SystemRandom`: `os.urandom`) instead of a seed: nothing a player sees
        predicts a later deal (a table among strangers); the match records each deck order
        as it deals it, so that it saves and reloads like any other. `after`: a match of this
        variant just played; the kept values the rules carry (`match { carry: ... }`) start
        from where it left them (what a series of matches remembers; `kept` given too wins).
        """
        check_seed(seed)
        if after is not None:
            kept = self._carried_from(after, kept, players)
        if type(secret) is not bool:
            raise TrickcoreError(f"secret is yes or no (True or False), not {shown(secret)}")
        if deck_orders is not None and (
            isinstance(deck_orders, (str, bytes)) or not isinstance(deck_orders, Sequence)
        ):
            raise TrickcoreError("deck_orders is a list of deck orders, one per deal")
        return Match(
            self,
            seed=seed,
            deck_orders=deck_orders,
            players=players,
            scores=scores,
            kept=kept,
            dealer=dealer,
            secret=secret,
        )

    def _carried_from(
        self, after: object, kept: Sequence[dict[str, Any]] | None, players: int | None
    ) -> list[dict[str, Any]]:
        """The kept values a match made after `after` starts from: the carried ones as
        `after` left them, over `kept` (a caller's own start wins)."""
        if not isinstance(after, Match) or after.game.content_hash != self.content_hash:
            raise TrickcoreError(
                "after= takes a match of this variant (the one played before the new one)"
            )
        seats = self.check_seats(players)
        if after.seats != seats:
            raise TrickcoreError(f"after= takes a match of {seats} seats, not of {after.seats}")
        carried = after.kept
        out = [{name: carried[s][name] for name in self.model.match.carry} for s in range(seats)]
        for s, given in enumerate(kept or ()):
            if s < seats and isinstance(given, dict):
                out[s].update(given)
        return out

    def sample_worlds(
        self,
        observation: Any,
        n: int,
        rng: random.Random | int | None = None,
        deal_number: int | None = None,
    ) -> list[Deal | BoutDeal]:
        """`n` complete deals (to clone, play on and score) that agree with everything the
        observation's seat has seen: its cards, the cards played, shown or given, melds
        declared and every void the play obligations prove. Drawn uniformly among such deals
        (the method: `trickcore.engine.worlds`); `rng` is a random.Random or a seed;
        `deal_number` the deal's number in its match (by default the observation's)."""
        from .worlds import sample_worlds

        return sample_worlds(self, observation, n, rng, deal_number)


def variant_of(match: Match) -> Game:
    """The variant a match plays: the `Game` that made it (a match keeps it as its tables,
    which are all the match itself reads)."""
    game = match.game
    assert isinstance(game, Game)
    return game
