"""What a set of decisions reads, sorted out once per game (the decision environment
builds only what they need)."""

from __future__ import annotations

from ..language.exprs import AGGREGATE_FUNCS, TRICKS_AGGREGATES
from ..language.vocabulary import TURN_STATE

# the names turn_env works out itself; any other name read comes from the player's values
TURN_NAMES = frozenset(TURN_STATE)
# the names of the hand's combinations (worked out when read: `CombinationsWhenRead`)
COMBINATION_NAMES = frozenset({"combination_points", "best_combination", "nth_combination"})
# the names of a turn worked out from the hand alone
HAND_NAMES = COMBINATION_NAMES | {"hand_size"}
RARE_TURN_NAMES = frozenset(
    {"out_left", "contract", "tricks_total", "side", "position", "dealer", "turnup_suit"}
)


class TurnReads:
    """What a set of decisions reads, sorted out once (see `turn_env`): which names of the
    turn it reads (one flag each; the combinations' together), whether it needs the won
    cards, the finished tricks, the other players (aggregates; `aggregated`: the names they
    read of everybody), and which names of the player's values."""

    __slots__ = (
        "any_turn",
        "card_points",
        "combinations",
        "contract",
        "dealer",
        "declarer",
        "hand_aggregated",
        "hand_size",
        "meld_points",
        "out_left",
        "position",
        "rare_turn",
        "side",
        "stock_closed",
        "stock_left",
        "table",
        "taken",
        "tricks",
        "tricks_played",
        "tricks_total",
        "tricks_won",
        "turnup",
        "turnup_suit",
        "values",
    )

    def __init__(self, reads: frozenset[str], aggregated: frozenset[str] = frozenset()) -> None:
        self.tricks_won = "tricks_won" in reads
        self.tricks_played = "tricks_played" in reads
        self.card_points = "card_points" in reads
        self.meld_points = "meld_points" in reads
        self.stock_left = "stock_left" in reads
        self.stock_closed = "stock_closed" in reads
        self.out_left = "out_left" in reads
        self.declarer = "declarer" in reads
        self.contract = "contract" in reads
        self.hand_size = "hand_size" in reads
        self.tricks_total = "tricks_total" in reads
        self.side = "side" in reads
        self.position = "position" in reads
        self.dealer = "dealer" in reads
        self.turnup_suit = "turnup_suit" in reads
        self.turnup = "turnup_rank" in reads  # the function's card
        self.any_turn = not reads.isdisjoint(TURN_NAMES - COMBINATION_NAMES)
        # the names few decisions read, behind one flag (turn_env checks it, then each)
        self.rare_turn = not reads.isdisjoint(RARE_TURN_NAMES)
        self.combinations = not reads.isdisjoint(COMBINATION_NAMES)
        self.taken = "taken_suit" in reads or "taken_card" in reads
        self.tricks = not reads.isdisjoint(TRICKS_AGGREGATES)
        self.table = not reads.isdisjoint(AGGREGATE_FUNCS)
        # an aggregate reads a name a card played changes (of the hand it leaves)
        self.hand_aggregated = not aggregated.isdisjoint(HAND_NAMES)
        # the other names read: the player's values among them
        self.values = tuple(sorted(reads - TURN_NAMES))
