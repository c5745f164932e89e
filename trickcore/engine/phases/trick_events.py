"""`after_trick`: rules run for every player of the deal after each finished trick."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.exprs import SIDE_KEY, TABLE_KEY
from ...language.limits import in_range
from ..trick_names import trick_env

if TYPE_CHECKING:
    from ...language.model import StepRule
    from ..deal import Deal
    from ..tables import GameTables


def run_after_trick(game: GameTables, deal: Deal, rules: tuple[StepRule, ...], sides: bool) -> None:
    """`after_trick`: each rule, for every player of the deal over the trick just
    finished, worked out for all before any value is set; then the sides are formed
    again (`side_if` may read what the rules set)."""
    view = deal.tricks[-1]
    number = len(deal.tricks)
    points = game.points_with(view.trump)
    active = deal.active
    envs = {}
    for i, s in enumerate(active):
        env = trick_env(view, number, deal.tricks_total, points, s)
        env.update(
            tricks_played=number,
            tricks_won=deal.tricks_won[s],
            declarer=s == deal.declarer,
            position=i,
        )
        env.update(deal.context[s])
        envs[s] = env
    table = list(envs.values())
    side_of = deal.side_of
    for s, env in envs.items():
        env[TABLE_KEY] = table
        env[SIDE_KEY] = [envs[t] for t in active if side_of[t] == side_of[s]]
    for step in rules:
        values = {}
        for s in active:
            env = envs[s]
            if step.condition is None or step.condition(env):
                values[s] = [(a.name, a.expr(env)) for a in step.assigns]
        for s, assigned in values.items():
            for _, value in assigned:
                in_range(value, f"after_trick rule '{step.name}'", step.loc)
            envs[s].update(assigned)
            deal.context[s].update(assigned)
    if sides:
        deal.form_sides()
