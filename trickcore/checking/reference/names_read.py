"""What a set of a decision's expressions reads (`NamesRead`), so that the restatement
works out only those names (`ReplayScoring.names_read`)."""

from __future__ import annotations

from collections.abc import Iterable

from ...language import syntax as s
from ...language.syntax import names_in, nodes_in
from .expressions import AGGREGATES, OVER_TRICKS, calls_in

TAKEN_FUNCTIONS = frozenset({"taken_suit", "taken_card"})
COMBINATION_NAMES = frozenset({"combination_points", "best_combination"})
CONTRACT_NAMES = frozenset(
    {"contract", "doubled", "redoubled", "bid_round", "declarer_side", "side", "dealer"}
)
# the functions whose value follows from their arguments alone (no hand, trick, card, bid)
PLAIN_FUNCTIONS = frozenset({"min", "max", "abs", "pick", "round", "floor", "ceil", "mod", "div"})


class NamesRead:
    """What a set of a decision's expressions reads, sorted out once
    (`ReplayScoring.names_read`): the names, and whether the hand's combinations, the won
    cards, the contract, the finished tricks and the other players' names (aggregates).
    `lean` is False when they read a name
    worked out over the others (`meld_points`): then the whole environment is made."""

    def __init__(self, exprs: Iterable[s.Expr]) -> None:
        names: set[str] = set()
        calls: set[str] = set()
        exprs_seen = list(exprs)
        for e in exprs_seen:
            names.update(names_in(e))
            calls.update(calls_in(e))
        self.names = frozenset(names)
        self.combinations = not names.isdisjoint(COMBINATION_NAMES) or "nth_combination" in calls
        self.contract = not names.isdisjoint(CONTRACT_NAMES)
        self.taken = not calls.isdisjoint(TAKEN_FUNCTIONS)
        self.tricks = not calls.isdisjoint(OVER_TRICKS)
        self.table = not calls.isdisjoint(AGGREGATES)  # the other players' names too
        self.lean = "meld_points" not in names
        # `plain`: they read names alone, of the player and (aggregates) of the others: their
        # value follows from `key`'s names, of him and of the players of the deal (not the
        # hand's combinations: worked out from his hand when read, they are in no key)
        self.plain = (
            self.lean and not self.combinations and calls <= PLAIN_FUNCTIONS | set(AGGREGATES)
        )
        self.key = tuple(sorted(names))
        self.aggregated = tuple(
            sorted(
                {
                    n
                    for e in exprs_seen
                    for node in nodes_in(e)
                    if isinstance(node, s.Call) and node.func in AGGREGATES
                    for n in names_in(node)
                }
            )
        )
        # where each of them stands in `key` (they are names read: all of them are in it)
        self.aggregated_at = tuple(self.key.index(n) for n in self.aggregated)
