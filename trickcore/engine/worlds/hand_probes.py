"""Questions about one past step, asked of the engine itself: which hand acts, which cards
its action needs, and whether the action stays legal (and the deal goes on the same way)
had a hand held other cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.errors import StuckError, TrickcoreError
from ..actions import Action
from ..bouts import BoutDeal
from ..deal import Deal
from .places import deal_values

if TYPE_CHECKING:
    from ..tables import GameTables


def acting_hand(deal: Deal | BoutDeal) -> int:
    """The hand the next action is played from (in trick play, the player whose turn it is;
    in a round of offers before a card, the player offered them)."""
    if isinstance(deal, Deal) and deal.phase == "play" and deal.window_seat >= 0:
        return deal.window_seat
    if isinstance(deal, Deal) and deal.phase == "play" and deal.turn >= 0:
        return deal.turn
    return deal.to_act


def needed_cards(game: GameTables, deal: Deal | BoutDeal, action: Action) -> list[int]:
    """The cards an action takes from the acting hand (or that must be held for it)."""
    if action.card >= 0:
        if action.kind == "marry":
            melds = game.meld_of_card.get(action.card, [])
            return list(melds[0][3]) if melds else [action.card]
        return [action.card]
    if action.kind == "announce":
        for mi, suit, cards in game.announced_melds:
            if mi == action.value and suit == action.to:
                return list(cards)
    if isinstance(deal, BoutDeal):
        on_table = {c for pair in deal.table for c in pair}
        return [c for c in action.cards if c not in on_table]
    return list(action.cards)


def legal_with(deal: Deal | BoutDeal, h: int, hand: list[int], action: Action) -> bool:
    """Would `action` be legal now if hand h held these cards?"""
    saved = deal.hands[h]
    deal.hands[h] = hand
    deal._legal = None
    deal._ids = None
    try:
        return action in deal._compute_legal()
    except (StuckError, TrickcoreError):
        return False
    finally:
        deal.hands[h] = saved
        deal._legal = None
        deal._ids = None


def fits_with(
    state: Deal | BoutDeal,
    q: int,
    hand: list[int],
    action: Action,
    expect: tuple[Any, ...],
    failed_at: list[int] | None = None,
) -> bool:
    """Had hand q held these cards, would the action have been legal, and would the
    deal have gone on the same way (the same phase and player to act)?"""
    return fits_with_hands(state, {q: hand}, action, expect, failed_at)


def fits_with_hands(
    state: Deal | BoutDeal,
    hands: dict[int, list[int]],
    action: Action,
    expect: tuple[Any, ...],
    failed_at: list[int] | None = None,
) -> bool:
    """`fits_with` with several hands changed; a phase of None in `expect` is not compared.
    `failed_at` receives the index in `expect`'s following actions of the one found not
    legal, when that is why the answer is no."""
    st = state.clone()
    for q, hand in hands.items():
        st.hands[q] = list(hand)
    st._legal = None
    st._ids = None
    try:
        legal = st._compute_legal()
        for a in legal:
            if a == action:
                break
        else:
            return False
        st._legal = legal
        st.apply(a)
    except TrickcoreError:
        return False
    phase, to_act = expect[0], expect[1]
    follow = expect[2] if len(expect) > 2 else ()
    values = expect[3] if len(expect) > 3 else None
    refs = expect[4] if len(expect) > 4 else None
    if st.to_act != to_act or (phase is not None and st.phase != phase):
        return False
    if values is not None and deal_values(st) != values:
        return False  # the rules worked out another value from this hand (said aloud)
    # the actions that follow must stay legal too, up to the changed hand's next one
    # seen (applying one may work out what a later one reads: a bid's cap). In trick play
    # (`refs`: the states the log had before each of them) the changed hand's own next
    # action is left to the probe of its own step when nothing but the hand differs from
    # the state there (no value a rule worked out from the hand on the way, no hidden
    # step): that probe asks the same question, once instead of at every step before it.
    try:
        for index, (actor, after, hidden) in enumerate(follow):
            if refs is not None:
                if hidden:
                    refs = None
                elif actor in hands and _same_situation(st, refs[index]):
                    break
            legal = st._compute_legal()
            if after not in legal:
                if failed_at is not None:
                    failed_at.append(index)
                return False
            st._legal = legal
            st.apply(after)
            if actor in hands and not hidden:
                break
    except TrickcoreError:
        return False
    return True


def _same_situation(state: object, ref: object) -> bool:
    """Whether a probed state is, but for the hands, the state the log had there: in trick
    play, with the same values the rules keep for every player."""
    return (
        ref is not None
        and getattr(state, "phase", None) == getattr(ref, "phase", None) == "play"
        and getattr(state, "to_act", None) == getattr(ref, "to_act", None)
        and getattr(state, "context", None) == getattr(ref, "context", None)
    )
