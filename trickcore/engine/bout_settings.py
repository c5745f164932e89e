"""What a bout deal reads of its rules at every step (a game of bouts), made once per game."""

from __future__ import annotations

from ..language.model import BoutRules


class BoutSettings:
    """What a bout deal reads of its rules at every step, copied once per game from the
    model into a class of its own (a compiled engine reads these attributes directly), with
    each card's rank."""

    __slots__ = (
        "after_defence",
        "after_take",
        "any_time",
        "attack_same_rank",
        "defender_refills_last",
        "max_bouts",
        "rank_of",
        "refill_to",
        "skip_unable",
        "swap_rank",
        "throw_after_take",
        "throw_in_by",
        "transfer",
    )

    def __init__(self, rules: BoutRules, rank_of: list[int]) -> None:
        self.attack_same_rank = rules.attack_same_rank
        self.any_time = rules.throw_in == "any_time"  # D6: throw-ins before all are beaten
        self.throw_in_by = rules.throw_in_by
        self.skip_unable = rules.skip_unable
        self.throw_after_take = rules.throw_after_take
        self.refill_to = rules.refill_to
        self.defender_refills_last = rules.refill_order == "defender_last"
        self.after_defence = rules.after_defence
        self.after_take = rules.after_take
        self.swap_rank = -1 if rules.swap_rank is None else rules.swap_rank
        self.transfer = rules.transfer
        self.max_bouts = rules.max_bouts
        self.rank_of = rank_of
