"""What a finished deal is worth to each seat, read from the rules: a seat's gain in the
direction the match ranks players (`rank_by = -score`: lower is better), or its `progress`
where scoring defines one (a match whose score comes only at its end, as a rubber's),
against the average of the other seats, since a match ranks players against each other. So a
defender whose own gain is 0 whatever he plays still values the declarer's loss, partners
value their side's result against the other side's, and in a game without a declarer every
point an opponent takes counts. In games of bouts: -1 for the
loser, and the loser's loss shared by the others."""

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
    """Each seat's value of a finished deal: its gain (in the ranking's direction) less the
    other seats' average gain (0 for all in a deal thrown in unplayed)."""
    if isinstance(deal, BoutDeal):
        own = [-1.0 if s == deal.loser else 0.0 for s in range(deal.seats)]
    else:
        worth = deal.worth()
        if worth is None:
            return [0.0] * deal.seats
        # `progress` is higher-is-better by definition; a deal score follows the ranking
        sign = 1 if deal.judged_by_progress else score_sign(deal.game)
        own = [float(sign * w) for w in worth]
    return relative(own)


def relative(own: list[float]) -> list[float]:
    """Each seat's value against the average of the others' (one seat: its own)."""
    n = len(own)
    if n < 2:
        return list(own)
    total = sum(own)
    return [v - (total - v) / (n - 1) for v in own]
