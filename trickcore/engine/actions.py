"""Actions: immutable values with one canonical text form each."""

from __future__ import annotations

import attrs


@attrs.frozen(cache_hash=True)
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

    def __str__(self) -> str:
        return self.text


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
    ) -> None:
        """`decisions`: the names of the variant's decisions; `announced`: (meld index, meld
        name, suit index, suit symbol) of every meld that is announced on its own;
        `options`: the options of its choices."""
        self.by_text: dict[str, Action] = {}
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

    def _add(self, action: Action) -> Action:
        self.by_text[action.text] = action
        return action

    def bid(self, value: int, qualifier: str = "") -> Action:
        """The bid action for a value and qualifier."""
        key = (value, qualifier)
        a = self._bid.get(key)
        if a is None:
            text = f"bid {value}" + (f" {qualifier}" if qualifier else "")
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
        if head in ("bid", "raise") and len(words) >= 2 and is_number(words[1]):
            value = int(words[1])
            if head == "raise" and len(words) == 2:
                return self._raise.get(value) or Action("raise", f"raise {value}", value=value)
            qual = words[2] if len(words) == 3 else ""
            if head == "bid" and len(words) <= 3 and qual in self._quals:
                found = self._bid.get((value, qual))
                if found is None:
                    text = f"bid {value}" + (f" {qual}" if qual else "")
                    found = Action("bid", text, value=value, qualifier=qual)
                return found
            return None
        lowered = " ".join([head, *words[1:]])
        return self.by_text.get(lowered)


MAX_ACTION_TEXT = 200


def is_number(word: str) -> bool:
    """ASCII digits only, at most 9 of them (the range of every number in play)."""
    return 0 < len(word) <= 9 and word.isascii() and word.isdigit()
