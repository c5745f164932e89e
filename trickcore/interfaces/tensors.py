"""Fixed-size numeric encodings of what a seat knows, for learners (OpenSpiel, PettingZoo).

The layouts are generic over the variant: their sizes follow from the deck size D, the
number of seats S, the suits, qualifiers, melds and kept values of the rules file, never from
a game's name. Each layout is a list of named pieces (`Piece`: name and shape); the flat
tensor is the pieces one after another in that order (row-major). docs/howto/rl.md, section
"Tensor layouts", documents every piece.

numpy is an optional dependency (`pip install trickcore[openspiel]` or `[pettingzoo]`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "the tensors of trickcore's learning interfaces need numpy: "
        "pip install 'trickcore[openspiel]' or 'trickcore[pettingzoo]'"
    ) from exc

from ..engine.observation import BoutObservation, Observation

if TYPE_CHECKING:
    from ..engine.game import Game

# Every phase name the engine uses (a phase not listed sets no bit).
PHASES: tuple[str, ...] = (
    "redeal",
    "pass",
    "bid",
    "bids",
    "give",
    "raise",
    "pickup",
    "decide",
    "play",
    "attack",
    "defend",
    "throw",
    "over",
)
# Every kind of action (trickcore.Action.kind), in the order of the history's kind block.
KINDS: tuple[str, ...] = (
    "bid",
    "pass",
    "redeal",
    "keep",
    "give",
    "raise",
    "keep_contract",
    "play",
    "marry",
    "hold",
    "discard",
    "announce",
    "pass_card",
    "look",
    "decide",
    "choose",
    "double",
    "redouble",
    "attack",
    "throw",
    "beat",
    "take",
    "done",
    "swap",
    "transfer",
)
_KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
ROW_CACHE = 100_000  # history rows an encoder keeps, at most (the same entries recur)


@attrs.frozen
class Piece:
    """A named block of a flat tensor and its shape."""

    name: str
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        """The number of entries of the block."""
        n = 1
        for d in self.shape:
            n *= d
        return n


class Encoder:
    """The observation (and, with `history` > 0, information-state) encoding of a variant
    played by `seats` seats.

    `pieces` lists the blocks; `size` is the length of the flat tensor. `encode(obs, out)`
    fills `out` (a dict of numpy views, one per piece, zeroed first) from an observation;
    `encode_history(log, arrived, out)` fills the `history` and `arrived` blocks.
    """

    def __init__(self, game: Game, seats: int, history: int = 0) -> None:
        self.game = game
        self.seats = seats
        model = game.model
        deck = model.deck
        self.deck_size = D = deck.size
        self.suit_names = [s.name for s in deck.suits]
        self._suit_index = {n: i for i, n in enumerate(self.suit_names)}
        U = len(self.suit_names)
        S = seats
        self.bouts = model.bouts is not None
        self.qualifiers = tuple(game.qualifiers)
        self._qual_index = {q: i for i, q in enumerate(self.qualifiers)}
        Q = len(self.qualifiers)
        self.melds = [m.name for m in model.melds]
        self._meld_index = {n: i for i, n in enumerate(self.melds)}
        self.kept_names = sorted(name for name, _, _ in model.match.keep)
        K = len(self.kept_names)
        self.score_scale = float(model.match.target or 100)
        self.points_scale = float(deck.total_points or 1)
        self.history_length = history
        common = [
            Piece("seat", (S,)),
            Piece("to_act", (S,)),
            Piece("dealer", (S,)),
            Piece("phase", (len(PHASES),)),
            Piece("hand", (D,)),
        ]
        if self.bouts:
            own = [
                Piece("attacker", (S,)),
                Piece("defender", (S,)),
                Piece("attacks", (D,)),
                Piece("beaten", (D,)),
                Piece("beaters", (D,)),
                Piece("discarded", (D,)),
                Piece("trump", (U + 1,)),
                Piece("trump_card", (D,)),
                Piece("trump_card_in_stock", (1,)),
                Piece("active", (S,)),
                Piece("out", (S,)),
                Piece("hand_sizes", (S,)),
                Piece("stock_size", (1,)),
                Piece("taking", (1,)),
                Piece("bouts", (1,)),
                Piece("loser", (S + 1,)),
                Piece("draw", (1,)),
            ]
        else:
            own = [
                Piece("players_in_deal", (S,)),
                Piece("trick", (S, D)),
                Piece("trick_leader", (S + 1,)),
                Piece("played", (S, D)),
                Piece("won", (S, D)),
                Piece("talon_shown", (D,)),
                Piece("talon_taken", (D,)),
                Piece("received", (D,)),
                Piece("given", (S, D)),
                Piece("set_aside", (D,)),
                Piece("laid_away", (D,)),
                Piece("turnup", (D,)),
                Piece("open_hands", (S, D)),
                Piece("trump", (U + 1,)),
                Piece("declarer", (S + 1,)),
                Piece("contract", (1,)),
                Piece("qualifier", (Q,)),
                Piece("calls", (S, 5)),
                Piece("call_qualifier", (S, Q)),
                Piece("declarations", (S, max(1, len(self.melds)), U + 1)),
                Piece("tricks_won", (S,)),
                Piece("card_points", (S,)),
                Piece("hand_sizes", (S,)),
                Piece("talon_size", (1,)),
                Piece("stock_size", (1,)),
                Piece("stock_closed", (1,)),
                Piece("sitting_out", (S,)),
                Piece("playing_for", (S + 1,)),
                Piece("redealt", (1,)),
            ]
            if model.deal.stock_top_shown:  # the card face up on the stock, and all that were
                own += [Piece("stock_top", (D,)), Piece("stock_shown", (D,))]
        tail = [Piece("scores", (S,)), Piece("kept", (S, max(1, K)))]
        self.pieces: list[Piece] = common + own + tail
        self.entry_width = S + len(KINDS) + D + S + 1 + Q + 1
        if history > 0:
            self.pieces += [Piece("history", (history, self.entry_width)), Piece("arrived", (D,))]
        self.size = sum(p.size for p in self.pieces)
        self._card = {t: i for i, t in enumerate(game.card_texts)}
        self._rows: dict[tuple[int, str], Any] = {}  # history rows made, by log entry

    # ------------------------------------------------------------ helpers
    def views(self, flat: Any) -> dict[str, Any]:
        """Named, reshaped views of a flat tensor of length `size`, one per piece."""
        out: dict[str, Any] = {}
        at = 0
        for p in self.pieces:
            out[p.name] = flat[at : at + p.size].reshape(p.shape)
            at += p.size
        return out

    def new_tensor(self) -> Any:
        """A zeroed float32 tensor of the layout's size."""
        return np.zeros(self.size, np.float32)

    def _cards(self, row: Any, texts: Sequence[str] | None) -> None:
        if texts:
            card = self._card
            for t in texts:
                row[card[t]] = 1.0

    def _suit(self, row: Any, name: str | None) -> None:
        row[self._suit_index[name] if name in self._suit_index else len(self.suit_names)] = 1.0

    @staticmethod
    def _one(row: Any, index: int) -> None:
        """Set a seat bit; -1 (no seat) sets the block's last bit when it has one spare."""
        if 0 <= index < len(row):
            row[index] = 1.0
        elif index < 0 and len(row) > 0:
            row[-1] = 1.0

    def bounds(self) -> tuple[Any, Any]:
        """The least and greatest value of every entry of the flat tensor (float32 arrays of
        length `size`), from the layout: card planes, seat and phase bits and flags are 0/1;
        sizes and counts of cards are over the deck size D, so within 0..1; the number of
        calls a seat made (a tenth each) is bounded by the rules' bound on a deal's actions,
        the bouts by the rules' `max_bouts`. Scores, contracts, the values of calls, card
        points, kept values and the values in the history have no bound in the rules:
        every number in play stays within ±MAX_VALUE (999,999,999; the engine stops a match
        beyond it), so that, over its scale, is their bound."""
        from ..checking.invariants import deal_action_bound
        from ..language.limits import MAX_VALUE

        low = np.zeros(self.size, np.float32)
        high = np.ones(self.size, np.float32)
        lows, highs = self.views(low), self.views(high)
        big = float(MAX_VALUE)
        score = big / self.score_scale
        for name, at_most in (("scores", score), ("contract", score), ("kept", big)):
            if name in lows:
                lows[name][...] = -at_most
                highs[name][...] = at_most
        if "card_points" in lows:
            lows["card_points"][...] = -big / self.points_scale
            highs["card_points"][...] = big / self.points_scale
        if "calls" in lows:
            highs["calls"][:, 0] = 0.1 * deal_action_bound(self.game, self.seats)
            lows["calls"][:, 2] = -score
            highs["calls"][:, 2] = score
        if "bouts" in lows:
            model_bouts = self.game.model.bouts
            assert model_bouts is not None
            highs["bouts"][...] = max(1.0, model_bouts.max_bouts / self.deck_size)
        if "history" in lows:
            value_at = self.seats + len(KINDS) + self.deck_size + self.seats
            lows["history"][:, value_at] = -max(big, score)
            highs["history"][:, value_at] = max(big, score)
        return low, high

    # ------------------------------------------------------------ observation
    def encode(self, obs: Observation | BoutObservation, out: dict[str, Any]) -> None:
        """Fill the observation blocks of `out` from a seat's observation (seat -1: the
        public view, with an empty hand and no seat bit)."""
        S = self.seats
        if 0 <= obs.seat < S:
            out["seat"][obs.seat] = 1.0
        if 0 <= obs.to_act < S:
            out["to_act"][obs.to_act] = 1.0
        if 0 <= obs.dealer < S:
            out["dealer"][obs.dealer] = 1.0
        phase = _PHASE_INDEX.get(obs.phase)
        if phase is not None:
            out["phase"][phase] = 1.0
        self._cards(out["hand"], obs.hand)
        if isinstance(obs, BoutObservation):
            self._encode_bouts(obs, out)
        else:
            self._encode_tricks(obs, out)
        for s, score in enumerate(obs.scores[:S]):
            out["scores"][s] = score / self.score_scale
        kept = out["kept"]
        for s, values in enumerate(obs.kept[:S]):
            named = dict(values)
            for k, name in enumerate(self.kept_names):
                kept[s, k] = float(named.get(name, 0))

    def _encode_bouts(self, obs: BoutObservation, out: dict[str, Any]) -> None:
        S, D = self.seats, self.deck_size
        card = self._card
        self._one(out["attacker"], obs.attacker)
        self._one(out["defender"], obs.defender)
        for attack, beater in obs.table:
            out["attacks"][card[attack]] = 1.0
            if beater is not None:
                out["beaten"][card[attack]] = 1.0
                out["beaters"][card[beater]] = 1.0
        self._cards(out["discarded"], obs.discarded)
        self._suit(out["trump"], obs.trump)
        if obs.trump_card is not None:
            out["trump_card"][card[obs.trump_card]] = 1.0
        out["trump_card_in_stock"][0] = float(obs.trump_card_in_stock)
        for s in obs.active:
            out["active"][s] = 1.0
        for s in obs.out:
            out["out"][s] = 1.0
        for s, n in enumerate(obs.hand_sizes[:S]):
            out["hand_sizes"][s] = n / D
        out["stock_size"][0] = obs.stock_size / D
        out["taking"][0] = float(obs.taking)
        out["bouts"][0] = obs.bouts / D
        self._one(out["loser"], obs.loser if 0 <= obs.loser < S else -1)
        out["draw"][0] = float(obs.draw)

    def _encode_tricks(self, obs: Observation, out: dict[str, Any]) -> None:
        S, D = self.seats, self.deck_size
        card = self._card
        for s in obs.players_in_deal:
            out["players_in_deal"][s] = 1.0
        # a card led from the talon (seat -1, `play { talon_leads: yes }`) is shown in
        # `talon_shown`, not in a seat's row; a trick won by nobody is in nobody's `won`
        trick, shown = out["trick"], out["talon_shown"]
        for s, c in obs.trick:
            if s >= 0:
                trick[s, card[c]] = 1.0
            else:
                shown[card[c]] = 1.0
        leader = obs.trick[0][0] if obs.trick else -1
        out["trick_leader"][leader if leader >= 0 else S] = 1.0
        played, won = out["played"], out["won"]
        for _leader, trick_cards, winner in obs.tricks:
            for s, c in trick_cards:
                if s >= 0:
                    played[s, card[c]] = 1.0
                else:
                    shown[card[c]] = 1.0
                if winner >= 0:
                    won[winner, card[c]] = 1.0
        self._cards(shown, obs.talon_shown)
        self._cards(out["talon_taken"], obs.talon_taken)
        self._cards(out["received"], obs.received)
        for s, given in obs.given:
            self._cards(out["given"][s], given)
        self._cards(out["set_aside"], obs.set_aside)
        self._cards(out["laid_away"], obs.laid_away)
        if obs.turnup is not None:
            out["turnup"][card[obs.turnup]] = 1.0
        if "stock_top" in out:
            if obs.stock_top is not None:
                out["stock_top"][card[obs.stock_top]] = 1.0
            self._cards(out["stock_shown"], [c for _, c in obs.stock_shown])
        for s, shown in obs.open_hands:
            self._cards(out["open_hands"][s], shown)
        self._suit(out["trump"], obs.trump)
        self._one(out["declarer"], obs.declarer if 0 <= obs.declarer < S else -1)
        out["contract"][0] = obs.contract / self.score_scale
        q = self._qual_index.get(obs.qualifier)
        if q is not None:
            out["qualifier"][q] = 1.0
        calls, call_q = out["calls"], out["call_qualifier"]
        by_text = self.game.actions.by_text
        for s, text in obs.bids:
            if not 0 <= s < S:
                continue
            row = calls[s]
            row[0] += 0.1  # calls made, a tenth each
            action = by_text.get(text)
            kind = action.kind if action is not None else text.split(" ", 1)[0]
            row[1:] = 0.0
            call_q[s] = 0.0
            if kind == "pass":
                row[1] = 1.0
            elif kind == "double":
                row[3] = 1.0
            elif kind == "redouble":
                row[4] = 1.0
            elif action is not None:
                row[2] = action.value / self.score_scale
                qi = self._qual_index.get(action.qualifier)
                if qi is not None:
                    call_q[s, qi] = 1.0
        decl = out["declarations"]
        for s, meld, suit, _value in obs.declarations:
            mi = self._meld_index.get(meld)
            if mi is not None and 0 <= s < S:
                decl[s, mi, self._suit_index.get(suit, len(self.suit_names))] = 1.0
        for s, n in enumerate(obs.tricks_won[:S]):
            out["tricks_won"][s] = n / D
        if obs.card_points_taken is not None:
            for s, n in enumerate(obs.card_points_taken[:S]):
                out["card_points"][s] = n / self.points_scale
        for s, n in enumerate(obs.hand_sizes[:S]):
            out["hand_sizes"][s] = n / D
        out["talon_size"][0] = obs.talon_size / D
        out["stock_size"][0] = obs.stock_size / D
        out["stock_closed"][0] = float(obs.stock_closed)
        for s in obs.sitting_out:
            out["sitting_out"][s] = 1.0
        self._one(out["playing_for"], -1 if obs.playing_for is None else obs.playing_for)
        out["redealt"][0] = float(obs.redealt)

    # ------------------------------------------------------------ history
    def encode_history(
        self,
        log: Sequence[tuple[int, str]],
        arrived: dict[str, int],
        out: dict[str, Any],
    ) -> None:
        """Fill the `history` block with the last `history_length` entries of the deal's
        log as the seat saw it (oldest first, the rest zero), and `arrived` with the position
        in the log at which each card of the hand came into it, over the history length."""
        length = self.history_length
        hist = out["history"]
        rows = self._rows
        entries = log[-length:] if length > 0 else ()
        for i, entry in enumerate(entries):
            row = rows.get(entry)
            if row is None:
                row = self._history_row(entry)
                if len(rows) < ROW_CACHE:
                    rows[entry] = row
            hist[i] = row
        card = self._card
        scale = float(max(1, length))
        for text, at in arrived.items():
            number = card.get(text)
            if number is not None:
                out["arrived"][number] = (at + 1) / scale

    def _history_row(self, entry: tuple[int, str]) -> Any:
        """The history row of one log entry (seat, action text as the seat saw it)."""
        S, D = self.seats, self.deck_size
        row = np.zeros(self.entry_width, np.float32)
        seat, text = entry
        kinds_at = S
        cards_at = kinds_at + len(KINDS)
        to_at = cards_at + D
        value_at = to_at + S
        qual_at = value_at + 1
        hidden_at = qual_at + len(self.qualifiers)
        if 0 <= seat < S:
            row[seat] = 1.0
        action = self.game.actions.by_text.get(text)
        if action is None:  # hidden from this seat: "give a card to 2"
            row[hidden_at] = 1.0
            word = "pass_card" if text.startswith("pass a card") else text.split(" ", 1)[0]
            k = _KIND_INDEX.get(word)
            if k is not None:
                row[kinds_at + k] = 1.0
        else:
            row[kinds_at + _KIND_INDEX.get(action.kind, 0)] = 1.0
            if action.card >= 0:
                row[cards_at + action.card] = 1.0
            for c in action.cards:
                row[cards_at + c] = 1.0
            if 0 <= action.to < S and action.kind == "give":
                row[to_at + action.to] = 1.0
            if action.kind in ("bid", "raise"):
                row[value_at] = action.value / self.score_scale
            else:
                row[value_at] = float(action.value)
            qi = self._qual_index.get(action.qualifier)
            if qi is not None and action.kind == "bid":
                row[qual_at + qi] = 1.0
        row.flags.writeable = False
        return row


def observation_text(obs: Observation | BoutObservation, with_log: bool = False) -> str:
    """A compact, deterministic text of an observation: `field=value` for every field that
    is set (the log only when asked)."""
    parts = []
    for field in attrs.fields(type(obs)):
        name = field.name
        if name == "log" and not with_log:
            continue
        value = getattr(obs, name)
        if value is None or value is False or value == ():
            continue
        if isinstance(value, tuple) and value and isinstance(value[0], str):
            value = " ".join(value)
        parts.append(f"{name}={value}")
    return "; ".join(parts)


def private_snapshot(obs: Observation | BoutObservation) -> tuple[Any, ...]:
    """The parts of a seat's view that only it sees and that later views may not keep:
    its hand and the cards shown or passed to it (for the information state's recall)."""
    if isinstance(obs, BoutObservation):
        return (("hand", obs.hand),)
    return (
        ("hand", obs.hand),
        ("talon", obs.talon_shown),
        ("received", obs.received),
        ("set_aside", obs.set_aside),
        ("laid_away", obs.laid_away),
        ("turnup", obs.turnup),
    )


def snapshot_text(snap: tuple[Any, ...]) -> str:
    """A private snapshot as text: `hand KS JS; received 9H`."""
    parts = []
    for name, value in snap:
        if value:
            parts.append(f"{name} {value if isinstance(value, str) else ' '.join(value)}")
    return "; ".join(parts)
