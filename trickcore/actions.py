"""Actions: immutable values with one canonical text form each."""

from __future__ import annotations

import attrs


@attrs.frozen(cache_hash=True)
class Action:
    """A player's decision. `str(action)` is its canonical text, e.g. ``bid 105``.

    kind is one of: bid, pass, redeal, keep, give, raise, keep_contract, play, marry.
    """

    kind: str
    text: str = attrs.field(eq=False)
    card: int = -1
    value: int = 0
    to: int = -1
    qualifier: str = ""

    def __str__(self) -> str:
        return self.text


class ActionTable:
    """Every action a variant can produce, made once, looked up by text or by parts."""

    def __init__(
        self, card_texts: list[str], max_seats: int, bid_values: range, quals: tuple[str, ...]
    ):
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
        self.give = [
            [self._add(Action("give", f"give {t} to {s}", card=c, to=s)) for s in range(max_seats)]
            for c, t in enumerate(card_texts)
        ]
        self._bid: dict[tuple[int, str], Action] = {}
        self._raise: dict[int, Action] = {}
        self._bid_values = bid_values
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

    def parse(self, text: str) -> Action | None:
        """The action a text names (extra spaces and case of words ignored), or None."""
        norm = " ".join(text.split())
        a = self.by_text.get(norm)
        if a is not None:
            return a
        words = norm.split(" ")
        if not words:
            return None
        head = words[0].lower()
        if head in ("bid", "raise") and len(words) >= 2 and words[1].isdigit():
            value = int(words[1])
            if head == "raise" and len(words) == 2:
                return self.raise_to(value)
            qual = words[2] if len(words) == 3 else ""
            if head == "bid" and len(words) <= 3 and qual in self._quals:
                return self.bid(value, qual)
            return None
        lowered = " ".join([head, *words[1:]])
        return self.by_text.get(lowered)
