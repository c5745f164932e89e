"""Actions: immutable values with one canonical text form each."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs


@attrs.frozen(cache_hash=True, repr=False)
class Action:
    """A player's decision. `str(action)` is its canonical text, e.g. ``bid 105``.

    kind is one of: bid, pass, redeal, keep, give, raise, keep_contract, play, marry,
    hold, discard, announce (value: the meld, to: its suit), pass_card, look, decide (a
    `decision`: its text is its name), choose (an option of a `choice`: its text), and
    attack, throw, beat, take, done, swap, transfer (games of bouts). `cards` holds the
    cards of a bout action (for beat: the attack card, then its beater). Actions that differ
    only in text are kept apart by `value` (decisions and options carry their number).
    """

    kind: str
    text: str = attrs.field(eq=False)
    card: int = -1
    value: int = 0
    to: int = -1
    qualifier: str = ""
    cards: tuple[int, ...] = ()
    # its number in the variant's action space (`ActionTable.id_for`), stable for a variant
    id: int = attrs.field(default=-1, eq=False, repr=False)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        """Short and readable, as the README and the manual show actions: `Action('bid 100')`
        (the text names the action; `attrs.asdict(action)` gives every field)."""
        return f"Action({self.text!r})"


class ActionTable:
    """Every action a variant can produce, made once, looked up by text or by parts."""

    def __init__(
        self,
        card_texts: list[str],
        max_seats: int,
        quals: tuple[str, ...],
        decisions: tuple[str, ...] = (),
        announced: tuple[tuple[int, str, int, str], ...] = (),
        options: tuple[str, ...] = (),
        levelless: bool = False,
        doubles: bool = False,
        joins: bool = False,
        n_ranks: int = 1,
        bid_slot: Callable[[str, int], int] | None = None,
        faces: Sequence[int] = (),
        n_faces: int = 0,
    ) -> None:
        """`decisions`: the names of the variant's decisions; `announced`: (meld index, meld
        name, suit index, suit symbol) of every meld that is announced on its own;
        `options`: the options of its choices; `bid_slot(kind, value)`: the place of a bid
        or raise value among the values there can be (for action ids); `faces`: the face of
        each card, and `n_faces` how many faces there are (`Deck`; empty: each card is its
        own face). An action with a card is numbered by its face: the copies of a face make
        actions of one text and one number, told apart only by the card they carry."""
        self.by_text: dict[str, Action] = {}
        self._face: Sequence[int] = faces or range(len(card_texts))
        self._layout(
            n_faces or len(card_texts),
            n_ranks,
            max_seats,
            len(quals) + 1,
            decisions,
            options,
            len(announced),
            joins,
        )
        # the actions made so far by number (a list: the quickest way from number to action)
        self.by_number: list[Action | None] = [None] * self.size
        self._quals_index = {q: i for i, q in enumerate(("", *quals))}
        self._announce_ids = {(mi, si): i for i, (mi, _, si, _) in enumerate(announced)}
        self._bid_slot = bid_slot or (lambda kind, value: value)
        self.pass_ = self._add(Action("pass", "pass"))
        self.redeal = self._add(Action("redeal", "redeal"))
        self.keep = self._add(Action("keep", "keep"))
        self.keep_contract = self._add(Action("keep_contract", "keep contract"))
        self.play = [
            self._add(Action("play", f"play {t}", card=c)) for c, t in enumerate(card_texts)
        ]
        self.marry = [
            self._add(Action("marry", f"marry {t}", card=c)) for c, t in enumerate(card_texts)
        ]
        self.pass_card = [
            self._add(Action("pass_card", f"pass {t}", card=c)) for c, t in enumerate(card_texts)
        ]
        self.look = self._add(Action("look", "look"))
        self.discard = [
            self._add(Action("discard", f"discard {t}", card=c)) for c, t in enumerate(card_texts)
        ]
        self.hold = self._add(Action("hold", "hold"))
        self.double = Action("double", "double")
        self.redouble = Action("redouble", "redouble")
        if doubles:  # `bidding { double: yes }`
            self._add(self.double)
            self._add(self.redouble)
        self.join = Action("join", "join")  # `bidding { join: yes }`: the round of joining
        if joins:
            self._add(self.join)
        # equal actions are the same decision: each carries its number in `value`
        self.decide = {
            name: self._add(Action("decide", name, value=i)) for i, name in enumerate(decisions)
        }
        self.choose = {
            name: self._add(Action("choose", name, value=i)) for i, name in enumerate(options)
        }
        self.announce = {
            (mi, si): self._add(
                Action("announce", f"announce {name} {sym}".strip(), value=mi, to=si)
            )
            for mi, name, si, sym in announced
        }
        self.give = [
            [self._add(Action("give", f"give {t} to {s}", card=c, to=s)) for s in range(max_seats)]
            for c, t in enumerate(card_texts)
        ]
        self._card_texts = card_texts
        self.take = self._add(Action("take", "take"))
        self.done = self._add(Action("done", "done"))
        self._bout: dict[tuple[str, tuple[int, ...]], Action] = {}
        for c, t in enumerate(card_texts):
            for kind in ("attack", "throw", "swap", "transfer"):
                self._bout[(kind, (c,))] = self._add(Action(kind, f"{kind} {t}", cards=(c,)))
        self._bid: dict[tuple[int, str], Action] = {}
        self._raise: dict[int, Action] = {}
        self._quals = ("", *quals)
        self._levelless = levelless  # bids name a strain only: "bid clubs alone"

    def _layout(
        self,
        cards: int,
        ranks: int,
        seats: int,
        quals: int,
        decisions: tuple[str, ...],
        options: tuple[str, ...],
        announced: int,
        joins: bool = False,
    ) -> None:
        """The blocks of the action space, one after another: every action has its number
        (`join` last, and only where the auction has a round of joining)."""
        self._cards, self._ranks, self._seats, self._nq = cards, ranks, seats, quals
        self._suits = max(1, cards // max(ranks, 1))
        sizes = {
            **dict.fromkeys(SINGLE_KINDS, 1),
            **{kind: cards for kind in CARD_KINDS},
            "give": cards * seats,
            "beat": cards * cards,
            "decide": len(decisions),
            "choose": len(options),
            "announce": announced,
            "multi_attack": ranks << self._suits,
            "multi_throw": ranks << self._suits,
            "bid": BID_SLOTS * quals,
            "raise": BID_SLOTS,
            "join": 1 if joins else 0,
        }
        self._sizes = sizes
        self._offset: dict[str, int] = {}
        at = 0
        for kind, size in sizes.items():
            self._offset[kind] = at
            at += size
        self.size = at

    def block(self, kind: str) -> range:
        """The numbers of one kind of action (its block of the action space; `multi_attack`
        and `multi_throw` are the bout actions of several cards)."""
        start = self._offset[kind]
        return range(start, start + self._sizes[kind])

    def bid_qualifiers(self) -> int:
        """How many qualifiers a bid value may carry (the plain bid among them)."""
        return self._nq

    def id_for(self, a: Action) -> int:
        """The action's number in the variant's action space (the same every time)."""
        kind = a.kind
        off = self._offset
        if kind in SINGLE_KINDS or kind == "join":
            return off[kind]
        if kind in ("bid", "raise"):
            slot = self._bid_slot(kind, a.value)
            if not 0 <= slot < BID_SLOTS:
                return -1  # outside the numbered space (never legal: see check_count)
            if kind == "raise":
                return off[kind] + slot
            qi = self._quals_index.get(a.qualifier, 0)
            return off[kind] + slot * self._nq + qi
        face = self._face
        if kind == "give":
            return off[kind] + face[a.card] * self._seats + a.to
        if kind in ("decide", "choose"):
            return off[kind] + a.value
        if kind == "announce":
            return off[kind] + self._announce_ids[(a.value, a.to)]
        cards = a.cards
        if kind == "beat":
            return off[kind] + face[cards[0]] * self._cards + face[cards[1]]
        if len(cards) > 1:
            mask = 0
            for c in cards:
                mask |= 1 << (face[c] // self._ranks)
            return off[f"multi_{kind}"] + (face[cards[0]] % self._ranks << self._suits) + mask
        card = a.card if a.card >= 0 else cards[0]
        return off[kind] + face[card]

    def _add(self, action: Action) -> Action:
        object.__setattr__(action, "id", self.id_for(action))
        self.by_text.setdefault(action.text, action)  # a face's first copy
        if action.id >= 0 and self.by_number[action.id] is None:
            self.by_number[action.id] = action
        return action

    def bid(self, value: int, qualifier: str = "") -> Action:
        """The bid action for a value and qualifier."""
        key = (value, qualifier)
        a = self._bid.get(key)
        if a is None:
            text = _bid_text(value, qualifier, self._levelless)
            a = self._bid[key] = self._add(Action("bid", text, value=value, qualifier=qualifier))
        return a

    def raise_to(self, value: int) -> Action:
        """The raise action for a value."""
        a = self._raise.get(value)
        if a is None:
            a = self._raise[value] = self._add(Action("raise", f"raise {value}", value=value))
        return a

    def bout(self, kind: str, cards: tuple[int, ...]) -> Action:
        """A bout action (attack, throw, swap, transfer: cards; beat: attack card, beater)."""
        key = (kind, cards)
        a = self._bout.get(key)
        if a is None:
            names = [self._card_texts[c] for c in cards]
            text = (
                f"beat {names[0]} with {names[1]}"
                if kind == "beat"
                else f"{kind} {' '.join(names)}"
            )
            a = self._bout[key] = self._add(Action(kind, text, cards=cards))
        return a

    def parse(self, text: str) -> Action | None:
        """The action a text names (extra spaces and case of words ignored), or None.

        A bid or raise not made before is returned as a new Action that is not kept, so
        refused texts never grow the table.
        """
        if len(text) > MAX_ACTION_TEXT:
            return None
        norm = " ".join(text.split())
        a = self.by_text.get(norm)
        if a is not None:
            return a
        words = norm.split(" ")
        head = words[0].lower()
        if head == "bid" and self._levelless:
            return self._bid.get((0, " ".join(words[1:])))
        if head in ("bid", "raise") and len(words) >= 2 and is_number(words[1]):
            value = int(words[1])
            if head == "raise" and len(words) == 2:
                return self._raise.get(value) or Action("raise", f"raise {value}", value=value)
            qual = " ".join(words[2:])
            if head == "bid" and qual in self._quals:
                found = self._bid.get((value, qual))
                if found is None:
                    found = Action(
                        "bid", _bid_text(value, qual, False), value=value, qualifier=qual
                    )
                return found
            return None
        lowered = " ".join([head, *words[1:]])
        return self.by_text.get(lowered)


MAX_ACTION_TEXT = 200
SINGLE_KINDS = (
    "pass",
    "redeal",
    "keep",
    "keep_contract",
    "look",
    "hold",
    "take",
    "done",
    "double",
    "redouble",
)
CARD_KINDS = ("play", "marry", "pass_card", "discard", "attack", "throw", "swap", "transfer")
BID_SLOTS = 4096  # bid (and raise) values numbered per variant (see Game.bid_slot)


def _bid_text(value: int, qualifier: str, levelless: bool) -> str:
    if levelless:
        return f"bid {qualifier}"
    return f"bid {value}" + (f" {qualifier}" if qualifier else "")


def is_number(word: str) -> bool:
    """ASCII digits only, at most 9 of them (the range of every number in play)."""
    return 0 < len(word) <= 9 and word.isascii() and word.isdigit()
