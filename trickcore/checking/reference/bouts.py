"""The moves of a game of bouts, restated (D5-D8, D12)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from .expressions import OTHER, TRUMP
from .variant import Reference


def first_attacker(
    ref: Reference,
    order: Sequence[int],
    hands: Sequence[Sequence[int]],
    trump: int,
    dealer: int,
    values: Sequence[Mapping[str, object]],
) -> int:
    """D4: the player left of the dealer (`order[0]`), or the first in `order` for whom
    `first_attacker = EXPR` holds over his hand as dealt and his match values; with
    `lowest_trump`, the holder of the lowest trump dealt (none dealt: left of the dealer)."""
    ev = ref.eval
    trumps = [
        (ev.rank(c), s) for s in order for c in hands[s] if trump >= 0 and ev.suit(c) == trump
    ]
    lowest = max(trumps)[1] if trumps else -1
    if ref.first_attacker == "lowest_trump":
        return lowest if lowest >= 0 else order[0]
    rule = ref.attacker_rule
    if rule is None:
        return order[0]
    for seat in order:
        env = {
            **values[seat],
            "lowest_trump": seat == lowest,
            "hand_size": len(hands[seat]),
            "dealer": seat == dealer,
            "players": len(order),
            TRUMP: trump,
        }
        if ev(rule, env, hand=list(hands[seat])):
            return seat
    return order[0]


def bout_limit(ref: Reference, env: Mapping[str, int]) -> int:
    """D7: the most attack cards of a bout, from the variant's `limit` (at least 1)."""
    if ref.bout_limit is None:
        return 1
    return max(int(ref.eval(ref.bout_limit, env)), 1)


def beats(ref: Reference, attack: int, card: int, trump: int) -> bool:
    """D8: a higher card of the same suit, or any trump on a card that is not trump; or as
    `bouts { beats = EXPR }` says of the two (`beats_usually`: D8's answer)."""
    ev = ref.eval
    if ev.suit(card) == ev.suit(attack):
        usual = ev.rank(card) < ev.rank(attack)
    else:
        usual = ev.suit(card) == trump and ev.suit(attack) != trump
    if ref.bout_beats is None or card == attack:
        return usual
    n = ev.n_ranks
    env = {
        OTHER: attack,
        "card_is_trump": ev.suit(card) == trump,
        "card_power": n - ev.rank(card),
        "other_trump": ev.suit(attack) == trump,
        "other_power": n - ev.rank(attack),
        "same_card": ev.face(card) == ev.face(attack),
        "same_suit": ev.suit(card) == ev.suit(attack),
        "beats_usually": usual,
    }
    return bool(ev(ref.bout_beats, env, card=card))


def bout_moves(
    ref: Reference,
    phase: str,
    hand: Sequence[int],
    table: Sequence[Sequence[int]],
    trump: int,
    limit: int,
    swap_card: int | None,
    transfer_room: int | None,
) -> set[tuple[str, tuple[int, ...]]]:
    """Every legal action in a bout state, as (kind, cards) (D5-D8, D12).

    `swap_card` is the card the seat may swap for the turned-up trump (D12) or None;
    `transfer_room` is the hand size of the player a transfer would pass the attack to, or
    None when transfers are not allowed.
    """
    ev = ref.eval
    bouts = ref.model.bouts
    assert bouts is not None
    out: set[tuple[str, tuple[int, ...]]] = set()
    on_table = {ev.rank(c) for pair in table for c in pair if c >= 0}
    if phase == "attack":
        by_rank: dict[int, list[int]] = {}
        for c in sorted(hand):
            by_rank.setdefault(ev.rank(c), []).append(c)
        most = limit if bouts.attack_same_rank else 1
        for cards in by_rank.values():
            for k in range(1, min(len(cards), most) + 1):
                out.update(("attack", combo) for combo in combinations(cards, k))
    elif phase == "defend":
        for pair in table:
            if pair[1] < 0:
                out.update(("beat", (pair[0], c)) for c in hand if beats(ref, pair[0], c, trump))
        ranks = {ev.rank(pair[0]) for pair in table}
        if (
            transfer_room is not None
            and all(pair[1] < 0 for pair in table)
            and len(ranks) == 1
            and transfer_room >= len(table) + 1
        ):
            out.update(("transfer", (c,)) for c in hand if ev.rank(c) in ranks)
        out.add(("take", ()))
    elif phase == "throw":
        if len(table) < limit:
            out.update(("throw", (c,)) for c in hand if ev.rank(c) in on_table)
        out.add(("done", ()))
    if swap_card is not None:
        out.add(("swap", (swap_card,)))
    return out
