"""What the rules let each seat see of a replayed trick deal, and the same fields of an
Observation, to compare."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...language import syntax as s
from ...language.syntax import calls_in, names_in
from .deal_state import OVER, DealState
from .expressions import CARD_CALLS

# what makes `open_hand_if` a rule of each card: the card's names and functions
CARD_NAMES = {"card_in_trump_suit", "card_in_combination"}


def reads_cards(rule: s.Expr) -> bool:
    """Whether an `open_hand_if` reads a card's names: worked out card by card, it lays
    some cards of a hand face up (else the whole hand or none)."""
    return bool(set(names_in(rule)) & CARD_NAMES or {c.func for c in calls_in(rule)} & CARD_CALLS)


class ReplayViews(DealState):
    """What each seat may see: its own cards, what lies open, the log as it saw it."""

    def _show_open_hands(self) -> None:
        """The cards lying open (`open_hand_if`) are seen by everybody."""
        if self.watch and self.ref.open_hand_if is not None:
            for cards in self.open_cards().values():
                for seen in self.seen:
                    seen.update(cards)

    def open_cards(self) -> dict[int, list[int]]:
        """The cards lying face up now, by player (`open_hand_if`): his whole hand where it
        holds for him; where it reads a card's names (`card_rank(R)`, `card_in_trump_suit`,
        `card_in_combination`: one of his combinations as trick play began), the cards of
        his hand for which it holds, and nothing of a player with none."""
        rule = self.ref.open_hand_if
        if rule is None:
            return {}
        # every player's names made once, each given the others' for the aggregates (as
        # open_env does for one player; the table's entries are shared)
        envs = {x: self.open_env(x, others=False) for x in self.active}
        if self.ref.eval.reads_table(rule):
            for x, env in envs.items():
                self._with_table(env, x, envs.__getitem__)
        ev, q = self.ref.eval, self.qualifier
        names = set(names_in(rule))
        if not reads_cards(rule):
            return {x: sorted(self.hands[x]) for x in self.active if ev(rule, envs[x], qualifier=q)}
        # the part it begins with that names no card: when it fails for him, no card shows
        about_him = _about_the_player(rule)
        out: dict[int, list[int]] = {}
        for x in self.active:
            if about_him is not None and not ev(about_him, envs[x], qualifier=q):
                continue
            in_combination: frozenset[int] = frozenset()
            if "card_in_combination" in names and self.start_hands:
                in_combination = self.ref.combination_cards(self.start_hands.get(x, []), self.trump)
            env = envs[x]
            shown = []
            for c in sorted(self.hands[x]):
                env["card_in_trump_suit"] = ev.suit(c) == self.trump
                env["card_in_combination"] = c in in_combination
                if ev(rule, env, qualifier=q, card=c):
                    shown.append(c)
            if shown:
                out[x] = shown
        return out

    def sees_own_hand(self, seat: int) -> bool:
        """False while a player who may bid blind has neither looked nor bid."""
        return self.looked[seat]

    def view(self, seat: int) -> dict[str, Any]:
        """What the rules let `seat` see of its own cards and of what lies open: its hand
        (nothing while it may bid blind and has not decided), the cards it set aside,
        received and passed; the talon shown (`show`, or left untaken once the deal is
        over); the turn-up (while it lies and the stock is open; once picked up, until
        play starts), the stock's size and state, the meld announced and not yet led,
        every player's deal values, the cards laid away (by the declarer or after a pickup:
        his own; everybody's at the end when they count for someone), the hands lying
        open, the passing offset, who sits out, for whom the player to act plays, the
        contract as said, the declarer; card lists sorted."""
        ref = self.ref
        ct = ref.card_text

        def texts(cards: Iterable[int]) -> list[str]:
            return sorted(ct[c] for c in cards)

        received = list(self.received.get(seat, ()))
        received += [c for _, taker, cards in self.passed if taker == seat for c in cards]
        received += [c for _, to, cards in self.passed_back if to == seat for c in cards]
        given = []
        if seat == self.declarer:
            given = [(s, texts(v)) for s, v in self.received.items() if v]
        for moved in (self.passed, self.passed_back):
            given += [(taker, texts(cards)) for giver, taker, cards in moved if giver == seat]
        announced = None
        if self.announced is not None:
            mi, suit = self.announced
            name = ref.suit_names[suit] if suit >= 0 else ""
            announced = (self.to_act, ref.melds[mi].name, name)
        over = self.stage == OVER
        turnup = None
        if self.turnup >= 0 and not self.stock_closed:  # it lies face up
            turnup = ct[self.turnup]
        elif self.picked >= 0 and self.stage not in ("play", OVER):  # taken: until play
            turnup = ct[self.picked]
        public = self._discards_public()
        laid_away = list(self.laid_away) if seat == self.declarer or public else []
        if seat == self.taker or public:  # E28: what he laid away after a pickup, he alone
            laid_away += self.pickup_away
        laid_away += [c for c in self.laid_shown if c not in laid_away]  # shown to all
        contract_text = None
        if self.declarer >= 0 and ref.bidding is not None:
            words = [] if ref.levelless else [str(self.contract)]
            words += [w for w in (self.strain, self.qualifier) if w]
            if self.doubled:
                words.append("doubled" if self.doubled == 1 else "redoubled")
            contract_text = " ".join(words)
        shown = self.talon_shown
        if shown is None and over and self.talon:  # K33: the untaken talon, at the end
            shown = self.talon
        return {
            "hand": texts(self.hands[seat]) if self.looked[seat] else [],
            "talon_shown": None if shown is None else texts(shown),
            "set_aside": texts(self.set_aside.get(seat, ())),
            "received": texts(received),
            "given": sorted(given),
            "turnup": turnup,
            "turned_up": None if self.turned_up < 0 else ct[self.turned_up],
            "stock_size": self.stock_left(),
            "stock_closed": self.stock_closed,
            "stock_top": ct[self.stock[0]]
            if ref.stock_top_shown and self.stock and not self.stock_closed
            else None,
            "stock_shown": tuple((k, ct[c]) for k, c in self.stock_shown),
            "announced": announced,
            "deal_keep": tuple(
                (s, name, self.context[s][name]) for s in self.active for name, _ in ref.deal_keep
            ),
            "laid_away": texts(laid_away),
            "open_hands": [(s, texts(cs)) for s, cs in self.open_cards().items() if s != seat],
            "pass_to": self.pass_to,
            "passes": tuple(
                (g, t, len(cs), back)
                for back, moved in ((False, self.passed), (True, self.passed_back))
                for g, t, cs in moved
            ),
            "sitting_out": tuple(s for s in self.active if s not in self.playing),
            "playing_for": self.turn if self.stage == "play" and self.turn != self.to_act else None,
            "contract_text": contract_text,
            "declarer": self.declarer,
            "log": [
                (actor, self._seen_as(actor, kind, text, to, seat))
                for actor, kind, text, to in self.log
            ],
        }

    def _seen_as(self, actor: int, kind: str, text: str, to: int, seat: int) -> str:
        """An action as `seat` saw it: a card given, passed or laid away by another is
        hidden (a given card is seen by its taker; laid-away cards that count for someone
        show at the end)."""
        if kind == "give" and seat not in (actor, to):
            return f"give a card to {to}"
        if kind == "pass_card" and seat != actor:
            return "pass a card"
        if kind in ("discard", "lay_away") and seat != actor and not self._discards_public():
            shown = {self.ref.card_text[c] for c in self.laid_shown}
            if text.split()[-1] not in shown:
                return "discard a card"
        return text

    def _discards_public(self) -> bool:
        """Cards laid away are seen by who laid them away; by all once the deal is over
        only when they count for someone (`talon.counts_for_if`), else never by the
        others."""
        return self.stage == OVER and self.ref.counts_for_if is not None


def observed(obs: Any) -> dict[str, Any]:
    """The fields of an Observation that `TrickReplay.view` restates, card lists sorted."""
    return {
        "hand": sorted(obs.hand),
        "talon_shown": None if obs.talon_shown is None else sorted(obs.talon_shown),
        "set_aside": sorted(obs.set_aside),
        "received": sorted(obs.received),
        "given": sorted((to, sorted(cards)) for to, cards in obs.given),
        "turnup": obs.turnup,
        "turned_up": obs.turned_up,
        "stock_size": obs.stock_size,
        "stock_closed": obs.stock_closed,
        "stock_top": obs.stock_top,
        "stock_shown": obs.stock_shown,
        "announced": obs.announced,
        "deal_keep": obs.deal_keep,
        "laid_away": sorted(obs.laid_away),
        "open_hands": [(s, sorted(cards)) for s, cards in obs.open_hands],
        "pass_to": obs.pass_to,
        "passes": obs.passes,
        "sitting_out": tuple(obs.sitting_out),
        "playing_for": obs.playing_for,
        "contract_text": obs.contract_text,
        "declarer": obs.declarer,
        "log": list(obs.log),
    }


def _about_the_player(rule: Any) -> Any:
    """Of `A and B and ...`, the largest part it begins with that names no card (None if
    that is all of it, or nothing)."""
    node = rule
    while node is not None:
        if not reads_cards(node):
            return node if node is not rule else None
        node = node.left if isinstance(node, s.Binary) and node.op == "and" else None
    return None
