"""The record a deal keeps of each finished trick (compiled in the native build: a deal
makes one per trick, so making it must be cheap)."""

from __future__ import annotations


class TrickView:
    """A completed trick: who led, (seat, card) in play order, who won, trump in force.

    Never changed once made: copies of a deal share their records."""

    __slots__ = ("cards", "leader", "trump", "winner")

    def __init__(
        self, leader: int, cards: tuple[tuple[int, int], ...], winner: int, trump: int
    ) -> None:
        self.leader = leader
        self.cards = cards
        self.winner = winner
        self.trump = trump

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TrickView):
            return NotImplemented
        return (self.leader, self.cards, self.winner, self.trump) == (
            other.leader,
            other.cards,
            other.winner,
            other.trump,
        )

    def __hash__(self) -> int:
        return hash((self.leader, self.cards, self.winner, self.trump))

    def __repr__(self) -> str:
        return (
            f"TrickView(leader={self.leader}, cards={self.cards}, winner={self.winner}, "
            f"trump={self.trump})"
        )
