"""What one seat knows of its deal, read from its observation: which cards it saw where
(fixed in a place, its own, played by others, unseen), the hidden steps of its log, the
cards it remembers drawing, and who it knows held a card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.errors import TrickcoreError
from ..actions import Action
from ..observation import BoutObservation, Observation
from .errors import WorldsError
from .places import talon_led, turned_card

if TYPE_CHECKING:
    from ..tables import GameTables

# how the log shows an action the seat did not see the card of
HIDDEN_FORMS = ("give a card to ", "pass a card", "discard a card")


class SeatKnowledge:
    """The cards of one observation sorted by what its seat saw of them; `fixed` may be
    widened by the sampler (a turned-up card taken as dealt where it lies now)."""

    def __init__(self, game: GameTables, observation: Observation | BoutObservation) -> None:
        self.game = game
        self.obs = observation
        self._check_input()
        self.seat = observation.seat
        self.seats = len(observation.hand_sizes)
        self.log = observation.log
        self._collect_cards()

    def _check_input(self) -> None:
        obs, game = self.obs, self.game
        bouts = game.model.bouts is not None
        kind = BoutObservation if bouts else Observation
        if not isinstance(obs, (Observation, BoutObservation)):
            raise TrickcoreError(f"sample_worlds takes a seat's observation, not {type(obs)}")
        if not isinstance(obs, kind):
            raise WorldsError(
                f"this observation is from a game of {'tricks' if bouts else 'bouts'}, "
                f"not of {game.name}"
            )
        if obs.seat < 0:
            raise WorldsError(
                "the public view (seat -1) has no seat to sample worlds for; "
                "pass observation(seat) of one player"
            )
        seats = len(obs.hand_sizes)
        if seats not in game.model.players or obs.seat >= seats:
            raise WorldsError(f"this observation has {seats} seats; {game.name} has not")

    def card(self, text: str) -> int:
        """The card of a card text (a WorldsError when the variant has no such card); with
        copies (`deck { copies: N }`), the first copy: see `copy_of`."""
        c = self.game._card_by_text.get(text, -1)
        if c < 0:
            raise WorldsError(f"'{text}' is not a card of {self.game.name}")
        return c

    def copy_of(self, text: str) -> int:
        """The next copy of a card text not yet given to a sighting. The copies of a card
        go to its sightings in the order the cards left the hands: the plays of the log
        first, in order, then the cards still held. The engine plays the lowest copy a
        player holds, so this labelling agrees with every world (copies are the same card
        to the players: any labelling that does is as good as another)."""
        c = self.card(text)
        if not self._copies:
            return c
        copies = self.game.model.deck.cards_of_face[self.game.model.deck.faces[c]]
        k = self._taken.get(c, 0)
        if k >= len(copies):
            raise WorldsError(f"'{text}' is seen more often than the deck holds it")
        self._taken[c] = k + 1
        return copies[k]

    def _collect_cards(self) -> None:
        """Which cards the seat saw where: fixed (seen in a place: a shown talon, a turned
        card, an open hand), its own (held, played, given or received: they go where its
        hand went), seen played by others, or unseen."""
        obs, seat = self.obs, self.seat
        self._copies = self.game.copies
        self._taken: dict[int, int] = {}  # first copy -> copies given to sightings so far
        fixed: set[int] = set()
        texts: list[str] = []
        own_texts: list[str] = [*obs.hand]
        if isinstance(obs, Observation):
            texts += [*(obs.talon_shown or ()), *obs.talon_taken, *talon_led(obs)]
            # a card another player laid away in view of all (`lay_away_shown_if`) is seen
            # played by him (the log's `discard CARD`), not lying where it was dealt
            laid_openly = {
                t.removeprefix("discard ")
                for s, t in self.log
                if s != seat and t.startswith("discard ") and not t.startswith(HIDDEN_FORMS)
            }
            # the cards he set aside to pass are his passes of the log, seen once (with
            # copies, a second sighting would take a second copy)
            aside = list(obs.set_aside)
            for s, t in self.log:
                card = t.removeprefix("pass ")
                if s == seat and card != t and card in aside:
                    aside.remove(card)
            texts += [*(t for t in obs.laid_away if t not in laid_openly), *aside]
            own_texts += [*obs.received, *(c for _, cs in obs.given for c in cs)]
        # a turned-up card shown now may have come there later (exchanged): tried first as
        # dealt there, else it is fixed where the reference world has it (see
        # `ModelBuilder.build`)
        shown = [turned_card(obs)]
        # every card played in the log: card -> (step, player), the first time
        self.played_at: dict[int, tuple[int, int]] = {}
        self.hidden_steps: set[int] = set()
        self.own_actions: set[int] = set()
        self.step_card: dict[int, int] = {}  # with copies: the copy a step's action moved
        own: set[int] = set()
        parse = self.game.actions.parse
        copy_of = self.copy_of
        # with copies, a card the seat passed is the same copy when it is seen again: played
        # or shown by the player it went to, or held or played by the seat once passed back
        back_texts = self._passed_back_texts()  # worked out once: for both uses below
        returned = back_texts if self._copies else {}
        takers = [t for g, t, n, _ in getattr(obs, "passes", ()) if g == seat for _ in range(n)]
        moved: dict[tuple[int, str], list[int]] = {}  # (holder, text) -> copies
        own_passes = 0
        for k, (s, text) in enumerate(self.log):
            if text.startswith(HIDDEN_FORMS):
                self.hidden_steps.add(k)
                continue
            a = parse(text)
            if a is None:
                raise WorldsError(f"'{text}' (step {k + 1} of the log) is no action of this game")
            cards = [a.card] if a.card >= 0 else list(a.cards)
            if self._copies and a.card >= 0:  # each play of a card is one of its copies
                face = self.game.card_texts[a.card]
                again = moved.get((s, face))
                cards = [again.pop() if again else copy_of(face)]
                if s == seat and a.kind == "pass_card" and own_passes < len(takers):
                    holder = takers[own_passes]
                    own_passes += 1
                    if returned.get(face, 0) > 0:  # it may be the one passed back
                        returned[face] -= 1
                        holder = seat
                    moved.setdefault((holder, face), []).append(cards[0])
                self.step_card[k] = cards[0]
            for c in cards:
                self.played_at.setdefault(c, (k, s))
                if s == seat:
                    own.add(c)
                    self.own_actions.add(c)
        self.shown_now = {self.card(t) for t in shown if t is not None}
        fixed.update(copy_of(t) for t in texts)
        # the cards seen face up on the stock (`stock_top: shown`), by their place in the
        # stock as dealt: fixed there
        self.stock_shown: list[tuple[int, int]] = []
        if isinstance(obs, Observation):
            self.stock_shown = [(k, copy_of(t)) for k, t in obs.stock_shown]
            fixed.update(c for _, c in self.stock_shown)
        # the cards lying face up in other hands (`open_hand_if`), by player, as copies
        self.open_cards: dict[int, list[int]] = {}
        if isinstance(obs, Observation):
            for s, cs in obs.open_hands:
                self.open_cards[s] = [
                    moved[(s, t)].pop() if moved.get((s, t)) else copy_of(t) for t in cs
                ]
                fixed.update(self.open_cards[s])
        # the cards held now, as the copies left after the plays
        self.hand_cards = [
            moved[(seat, t)].pop() if moved.get((seat, t)) else copy_of(t) for t in obs.hand
        ]
        own.update(self.hand_cards)
        if not self._copies:  # with copies, each is held now or left by a step of the log
            own.update(copy_of(t) for t in own_texts[len(obs.hand) :])
        self.fixed = fixed
        self.own = own - fixed
        # the cards it passed and was passed back: its own from the deal
        self.passed_back_own = self._passed_back_own(back_texts)
        # a card first played by another player (one the seat played first is its own)
        self.seen_played = {
            c: k for c, (k, _) in self.played_at.items() if c not in fixed and c not in own
        }
        size = self.game.model.deck.size
        self.unseen = {
            c for c in range(size) if c not in fixed and c not in own and c not in self.played_at
        }
        # games of bouts: when each card the seat was dealt or drew came to it
        self.draws: dict[int, set[int]] = {}
        if isinstance(obs, BoutObservation):
            for k, t in obs.drawn:
                self.draws.setdefault(k, set()).add(self.card(t))

    def _passed_back_texts(self) -> dict[str, int]:
        """The card texts passed back to the seat (`pass_cards { back: yes }`), with how
        many of each."""
        obs = self.obs
        if not isinstance(obs, Observation) or not obs.passes:
            return {}
        came_back = [back for _, t, n, back in obs.passes if t == self.seat for _ in range(n)]
        first = len(obs.received) - len(came_back)
        out: dict[str, int] = {}
        for text, back in zip(obs.received[first:], came_back, strict=True):
            if back:
                out[text] = out.get(text, 0) + 1
        return out

    @property
    def passes_back(self) -> bool:
        """Whether the observation shows cards passed back (`pass_cards { back: yes }`)."""
        return any(back for *_, back in getattr(self.obs, "passes", ()))

    def _passed_back_own(self, back: dict[str, int]) -> set[str]:
        """The card texts the seat passed and was passed back (its own from the deal), of
        those passed back to it (`back`, from `_passed_back_texts`)."""
        obs = self.obs
        if not back or not isinstance(obs, Observation):
            return set()
        return set(back) & {t for _, cs in obs.given for t in cs}

    def dealt_own(self) -> set[int]:
        """The seat's own cards (held now, or played or given by it) but those it received,
        took from a talon or found turned up, or played from another hand (a dummy's, an
        open hand's): the cards it was likely dealt."""
        obs = self.obs
        own = set(self.hand_cards)
        own.update(self.own_actions)
        if isinstance(obs, Observation):
            came_back = self.passed_back_own
            got = (*(t for t in obs.received if t not in came_back), *obs.talon_taken)
            own -= {self.card(t) for t in got}
            own -= {c for _, c in self.stock_shown}  # drawn from the stock face up
            if obs.turned_up is not None:  # dealt face up, not to him (he may have taken it)
                own.discard(self.card(obs.turned_up))
            plays = [p for _, cs, _ in obs.tricks for p in cs] + list(obs.trick)
            mine = {t for p, t in plays if p == self.seat}
            own -= {self.card(t) for p, t in plays if p not in (-1, self.seat) and t not in mine}
        return own

    def action_at(self, k: int) -> Action | None:
        """The action of step k of the log (None if the text is none), with copies the one
        that moves the copy this labelling gave that step (`copy_of`)."""
        action = self.game.actions.parse(self.log[k][1])
        card = self.step_card.get(k, -1)
        if action is None or card < 0 or card == action.card:
            return action
        return with_card(self.game, action, card)

    def known_givers(self, obs: Observation, active: list[int]) -> list[tuple[int, int]]:
        """(card, player) for the cards the seat knows another player had: those it received
        from him (a card given openly, or passed to it: the passing goes a known number of
        seats on), then those it saw him play, in the order of the log."""
        out: list[tuple[int, int]] = []
        # the cards passed to the seat come last in `received`, in the order of `passes`
        passed_from = [g for g, t, n, _ in obs.passes if t == self.seat for _ in range(n)]
        first_passed = len(obs.received) - len(passed_from)
        came_back = self.passed_back_own
        for k, t in enumerate(obs.received):
            c = self.card(t)
            if c in self.fixed or t in came_back:  # seen lying somewhere (a talon shown):
                continue  # dealt there; or its own, passed and passed back
            shown = self.played_at.get(c)
            if shown is not None and shown[1] != self.seat:
                out.append((c, shown[1]))
            elif k >= first_passed and self.seat in active:  # passed to it by that player
                out.append((c, passed_from[k - first_passed]))
        seen = sorted((k, c) for c, k in self.seen_played.items())
        return out + [(c, self.log[k][0]) for k, c in seen]

    def played_after(self, card: int, k: int) -> int:
        """Who the log first shows playing (or giving) the card, when that is after step k;
        -1 otherwise."""
        seen = self.played_at.get(card)
        return seen[1] if seen is not None and seen[0] > k else -1

    def actor(self, k: int) -> int:
        """Who acts at step k of the log (after its last step: who is to act now)."""
        return self.log[k][0] if k < len(self.log) else self.obs.to_act


def with_card(game: GameTables, action: Action, card: int) -> Action | None:
    """The action of the same kind with another card (None when there is none): with
    copies of cards, the one that moves that very copy."""
    actions = game.actions
    by_kind = {
        "play": actions.play,
        "marry": actions.marry,
        "discard": actions.discard,
        "pass_card": actions.pass_card,
    }
    if action.kind == "give":
        return actions.give[card][action.to]
    if action.kind in by_kind:
        return by_kind[action.kind][card]
    old = game.card_texts[action.card]
    words = [game.card_texts[card] if w == old else w for w in action.text.split(" ")]
    return actions.parse(" ".join(words))
