"""The invariants checked at every step of a checked deal: the cards, the hands, exactly the
legal actions the rules allow, what each seat sees, illegal actions refused."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ...engine.actions import Action
from ...engine.bouts import BoutDeal
from ...engine.deal import Deal
from ...engine.game import Game
from ...engine.match import Match
from ...language.errors import IllegalActionError
from ..reference.trick_replay import TrickReplay
from ..reference.views import observed
from .bouts import BoutChecks
from .information import InformationChecks
from .violations import Found, invariant_of


class StepChecks:
    """A deal's state and its legal actions at one step, compared with the restatement."""

    def __init__(self, game: Game, information: InformationChecks, bouts: BoutChecks) -> None:
        self.game = game
        self._information = information  # the observations of the step, made once
        self._bouts = bouts
        self._action_texts = list(game.actions.by_text)
        self._viewed = ""  # the stage whose views were last checked for every player

    def start_deal(self) -> None:
        """A new deal: no player's view checked in it yet."""
        self._viewed = ""

    def check_cards(self, deal: Deal | BoutDeal) -> None:
        """Every card is in exactly one place (the cards left out by `rest out` included)."""
        if isinstance(deal, BoutDeal):
            places = [*(c for h in deal.hands for c in h), *deal.stock, *deal.discarded]
            places += [c for pair in deal.table for c in pair if c >= 0]
        else:
            places = [*(c for h in deal.hands for c in h), *deal.talon, *deal.stock]
            places += [deal.turnup] if deal.turnup >= 0 else []
            places += deal.laid_away
            places += deal.out
            places += deal.exchanged  # laid away in an exchange not finished yet
            places += [c for cards in deal.set_aside.values() for c in cards]
            places += [c for _, c in deal.trick]
            places += [c for t in deal.tricks for _, c in t.cards]
        counts = Counter(places)
        size = self.game.model.deck.size
        if len(places) != size or len(counts) != size:
            twice = [self.game.card_text(c) for c, n in counts.items() if n > 1]
            missing = [self.game.card_text(c) for c in range(size) if c not in counts]
            raise Found(
                "cards",
                "a card is not in exactly one place"
                + (f" (twice: {', '.join(twice)})" if twice else "")
                + (f" (nowhere: {', '.join(missing)})" if missing else ""),
            )

    def check_hands(self, deal: Deal | BoutDeal, replay: TrickReplay | None) -> None:
        """Each hand holds the cards the deck order and the actions so far put there."""
        if replay is None or not isinstance(deal, Deal):
            return
        text = self._texts
        for seat in range(deal.seats):
            if sorted(deal.hands[seat]) != sorted(replay.hands[seat]):
                raise Found(
                    "cards",
                    f"seat {seat} holds {text(deal.hands[seat])} but the deal and the actions "
                    f"so far give it {text(replay.hands[seat])}",
                )
        if sorted(deal.talon) != sorted(replay.talon):
            raise Found(
                "cards", f"the talon is {text(deal.talon)}, the rules leave {text(replay.talon)}"
            )
        if deal.stock != replay.stock or deal.turnup != replay.turnup:
            ct = self.game.card_text
            raise Found(
                "cards",
                f"the stock is {', '.join(map(ct, deal.stock)) or 'empty'} (turn-up "
                f"{ct(deal.turnup) if deal.turnup >= 0 else 'none'}), the deal and the "
                f"actions so far leave {', '.join(map(ct, replay.stock)) or 'empty'} (turn-up "
                f"{ct(replay.turnup) if replay.turnup >= 0 else 'none'})",
            )
        if sorted(getattr(deal, "out", [])) != sorted(replay.out):
            raise Found(
                "cards",
                f"{text(getattr(deal, 'out', []))} take no part in the deal, the pattern "
                f"leaves out {text(replay.out)}",
            )
        laid_away = [*replay.laid_away, *replay.pickup_away]
        if sorted(deal.laid_away) != sorted(laid_away):
            raise Found(
                "cards",
                f"{text(deal.laid_away)} are laid away, the actions laid away {text(laid_away)}",
            )
        for seat in replay.active:
            aside = deal.set_aside.get(seat, [])
            if aside != replay.set_aside.get(seat, []):
                raise Found(
                    "cards",
                    f"seat {seat} has set aside {text(aside)} but it chose "
                    f"{text(replay.set_aside.get(seat, []))}",
                )

    def _texts(self, cards: Iterable[int]) -> str:
        return ", ".join(self.game.card_text(c) for c in sorted(cards)) or "nothing"

    def check_moves(
        self, deal: Deal | BoutDeal, replay: TrickReplay | None, legal: Sequence[Action]
    ) -> None:
        """The phase, the seat to act and exactly the legal actions the rules give (and, as
        each phase begins, every player's view)."""
        if isinstance(deal, BoutDeal):
            self._bouts.check_moves(deal, legal)
            return
        assert replay is not None
        stage, phase, seat = replay.stage, deal.phase, deal.to_act
        if phase != stage:
            raise Found("phases", f"the deal is in phase '{phase}', the rules give '{stage}'")
        if seat != replay.to_act:
            raise Found(
                "turn", f"seat {seat} is to act ({phase}), but it is seat {replay.to_act}'s turn"
            )
        right = replay.legal()
        offered = {a.text: a.kind for a in legal}
        if right is None or offered.keys() == right.keys():  # (not restated: see legal())
            if stage != self._viewed:  # every player's view as a phase begins
                self._viewed = stage
                self.check_views(deal, replay, replay.active)
            return
        extra = sorted(set(offered) - set(right))
        missing = sorted(set(right) - set(offered))
        kinds = {offered[x] for x in extra} | {right[x] for x in missing}
        words = []
        if extra:
            words.append(f"is offered {', '.join(extra)}, which the rules do not allow")
        if missing:
            words.append(f"is not offered {', '.join(missing)}, which the rules allow")
        raise Found(invariant_of(stage, kinds), f"seat {seat} ({phase}) " + " and ".join(words))

    def check_views(self, deal: Deal, replay: TrickReplay, seats: Iterable[int]) -> None:
        """What these seats see of their own cards and of what lies open
        (`TrickReplay.view`): every player's view as each phase begins, and at the steps
        whose other worlds are compared the views compared."""
        for seat in seats:
            got = observed(self._information.observation(deal, seat))
            want = replay.view(seat)
            for field, value in want.items():
                if got[field] == value:
                    continue
                hidden = field == "hand" and not replay.sees_own_hand(seat)
                shown = got[field]
                if field == "log":  # the first entry that differs
                    k = next(
                        (i for i, (a, b) in enumerate(zip(shown, value, strict=False)) if a != b),
                        min(len(shown), len(value)),
                    )
                    shown, value = shown[k : k + 1], value[k : k + 1]
                raise Found(
                    "hidden hand" if hidden else "view",
                    f"seat {seat} sees {field} {shown!r}, but "
                    + (
                        "it has not looked at its cards (it may bid blind)"
                        if hidden
                        else f"the rules give {value!r}"
                    ),
                )

    def check_illegal_refused(self, match: Match, legal: Sequence[Any]) -> None:
        """Illegal and malformed actions are refused and change nothing: the history and
        whose turn it is after each, the public view and the acting seat's observation after
        them all (the hands are compared with the restatement at the next step)."""
        legal_texts = {a.text for a in legal}
        texts = self._action_texts
        picked = [t for t in texts[:: max(len(texts) // 5, 1)] if t not in legal_texts]
        picked += ["", "play", "bid", "nonsense 12", "give to"]
        history = list(match.history)
        current, to_act = match.current, match.to_act
        views = [match.deal, match.observation(to_act)]
        for text in picked:
            try:
                match.apply(text)
            except IllegalActionError:
                pass
            else:
                raise Found("illegal refused", f"the illegal action '{text}' was accepted")
            if match.history != history or match.current is not current or match.to_act != to_act:
                raise Found("illegal refused", f"the refused action '{text}' changed the state")
        if [match.deal, match.observation(to_act)] != views:
            raise Found(
                "illegal refused",
                f"refusing the actions {', '.join(repr(t) for t in picked)} changed what a "
                "seat sees",
            )
