"""What the seat to act is asked to do now, in words ("bid or pass", "lay away 2 cards",
"play a card"), from the legal actions and the deal: for the web table's status line and the
terminal. Made from the kinds of actions the engine offers, never from a game's name."""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action
from .summary import cards

# what an action of each kind asks, in the order the phrases are joined
_PHRASES: dict[str, str] = {
    "bid": "bid",
    "raise": "raise your contract",
    "keep_contract": "keep your contract",
    "double": "double",
    "redouble": "redouble",
    "join": "join",
    "keep": "keep the cards",
    "redeal": "ask for a redeal",
    "look": "look at the cards",
    "hold": "hold",
    "announce": "announce a meld",
    "play": "play a card",
    "marry": "lead a meld's card to declare it",
    "pass_card": "choose a card to pass",
    "attack": "attack",
    "throw": "throw in a card",
    "beat": "beat a card",
    "transfer": "transfer the attack",
    "swap": "swap for the trump card",
    "take": "take the cards",
    "done": "say you are done",
    "pass": "pass",
}


def turn_prompt(match: Any) -> str:
    """What the seat to act is asked to do, e.g. "bid or pass", "give a card to each
    defender (2 to go)", "lay away 2 cards", "play a card"; "" when the match is over."""
    if match.is_over:
        return ""
    legal: list[Action] = match.legal_actions()
    deal = match.current
    order = [*_PHRASES, "discard", "give", "decide", "choose"]
    kinds = sorted(
        dict.fromkeys(a.kind for a in legal),
        key=lambda k: (k == "pass", order.index(k) if k in order else len(order)),
    )
    phrases: list[str] = []
    for kind in kinds:
        if kind == "discard":
            left = getattr(deal, "lay_away_left", 0) or 1
            phrases.append(f"lay away {cards(left)}" if left > 1 else "lay away a card")
        elif kind == "give":
            gives = getattr(deal, "gives_left", None) or {}
            left = sum(gives.values()) if isinstance(gives, dict) else 0
            phrases.append(
                "give a card to each defender" + (f" ({cards(left)} to give)" if left > 1 else "")
            )
        elif kind in ("decide", "choose"):
            names = [a.text for a in legal if a.kind == kind]
            phrases.append("choose " + " or ".join(f"'{n}'" for n in names))
        elif kind in _PHRASES:
            phrases.append(_PHRASES[kind])
    if not phrases:
        return "choose an action"
    if len(phrases) == 1:
        return phrases[0]
    return ", ".join(phrases[:-1]) + " or " + phrases[-1]
