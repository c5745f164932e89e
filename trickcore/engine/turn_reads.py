"""What a set of decisions reads, sorted out once per game (the decision environment
builds only what they need)."""

from __future__ import annotations

from ..language.exprs import AGGREGATE_FUNCS, TRICKS_AGGREGATES
from ..language.vocabulary import TURN_STATE

# the names turn_env works out itself; any other name read comes from the player's values
TURN_NAMES = frozenset(TURN_STATE)
# the names of the hand's combinations (worked out when read: `CombinationsWhenRead`)
COMBINATION_NAMES = frozenset({"combination_points", "best_combination"})


class TurnReads:
    """What a set of decisions reads, sorted out once (see `turn_env`): which names of the
    turn it reads (the combinations' apart), whether it needs the won cards, the other
    players (aggregates), and which names of the player's values."""

    __slots__ = ("combinations", "taken", "table", "tricks", "turn", "values")

    def __init__(self, reads: frozenset[str]) -> None:
        self.turn = tuple(n for n in TURN_STATE if n in reads and n not in COMBINATION_NAMES)
        self.combinations = not reads.isdisjoint(COMBINATION_NAMES)
        self.taken = "taken_suit" in reads or "taken_card" in reads
        self.tricks = not reads.isdisjoint(TRICKS_AGGREGATES)
        self.table = not reads.isdisjoint(AGGREGATE_FUNCS)
        self.values = tuple(sorted(reads - TURN_NAMES))
