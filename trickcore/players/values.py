"""What a finished deal is worth to each seat, read from the rules: the deal's gains in
the direction the match ranks players (`rank_by = -score`: lower is better), and in games
of bouts -1 for the loser and 0 for everyone else."""

from __future__ import annotations

from ..engine.bouts import BoutDeal
from ..engine.state import DealState
from ..engine.tables import GameTables

_SIGNS: dict[int, tuple[GameTables, int]] = {}


def score_sign(game: GameTables) -> int:
    """+1 when a higher score ranks a player higher (the usual case), -1 when lower does."""
    found = _SIGNS.get(id(game))
    if found is not None and found[0] is game:
        return found[1]
    sign = 1
    rank_by = game.model.match.rank_by
    if rank_by is not None:
        kept = {name: init for name, _, init in game.model.match.keep}
        try:
            up = int(rank_by({**kept, "score": 1})) - int(rank_by({**kept, "score": 0}))
        except Exception:  # a ranking that reads more than the score: assume higher is better
            up = 1
        sign = -1 if up < 0 else 1
    _SIGNS[id(game)] = (game, sign)
    return sign


def deal_values(deal: DealState) -> list[float]:
    """Each seat's value of a finished deal (0 for a deal thrown in unplayed)."""
    if isinstance(deal, BoutDeal):
        return [-1.0 if s == deal.loser else 0.0 for s in range(deal.seats)]
    gains = deal.gains
    if gains is None:
        return [0.0] * deal.seats
    sign = score_sign(deal.game)
    return [float(sign * g) for g in gains]
