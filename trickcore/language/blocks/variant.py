"""The top-level settings of a variant: its name, the player counts, the sides."""

from __future__ import annotations

from ..errors import RulesError
from ..settings import BlockSettings, int_item, word_int

VARIANT_SETTINGS = frozenset({"name", "players", "sides"})

MAX_PLAYERS = 8


def compile_players(top: BlockSettings) -> tuple[int, ...]:
    """`players: 4, 3`: the player counts the variant is played by, the default first."""
    items = top.items("players", required=True)
    assert items is not None
    counts = tuple(int_item(it, "a player count", 2) for it in items)
    for it, c in zip(items, counts, strict=True):
        if c > MAX_PLAYERS:
            raise RulesError(f"at most {MAX_PLAYERS} players are supported", it.loc)
    return tuple(dict.fromkeys(counts))  # the first listed is the default


def compile_sides(top: BlockSettings, players: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Partnerships (`sides: 0 2, 1 3`): they cover every seat once for each player count."""
    items = top.items("sides")
    if items is None:
        return ()
    sides: list[tuple[int, ...]] = []
    for it in items:
        seats = [*it.parts]
        side = tuple(word_int(w, it.loc, "a seat") for w in seats)
        sides.append(side)
    flat = [seat for side in sides for seat in side]
    for seated in players:
        if sorted(flat) != list(range(seated)):
            raise RulesError(
                f"the sides must name each seat 0..{seated - 1} exactly once "
                f"(for {seated} players)",
                top.raw("sides").loc,
            )
    return tuple(sides)
