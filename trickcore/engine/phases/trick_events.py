"""`after_trick` and `after_card`: rules run for every player of the deal after each finished
trick, and after each card played to a trick."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.exprs import CARD_KEY, HAND_KEY, SIDE_KEY, TABLE_KEY, TRUMP_KEY
from ...language.limits import in_range
from ...language.vocabulary import TRICK_COMMON
from ..combinations import NO_COMBINATIONS, CombinationsWhenRead
from ..deal_roles import LaterList
from ..trick_names import trick_common, trick_env

if TYPE_CHECKING:
    from ...language.model import StepRule
    from ..deal import Deal
    from ..tables import GameTables


def run_after_trick(game: GameTables, deal: Deal, rules: tuple[StepRule, ...], sides: bool) -> None:
    """`after_trick`: each rule, for every player of the deal over the trick just
    finished, worked out for all before any value is set; then the sides are formed
    again (`side_if` may read what the rules set)."""
    if rules and all(r.common is not None for r in rules) and _held_by_nobody(deal, rules):
        if sides:
            deal.form_sides()
        return
    view = deal.tricks[-1]
    number = len(deal.tricks)
    points = deal.points_under(view.trump)
    active = deal.active
    combinations = bool(game.model.combinations)
    envs: dict[int, dict[str, Any]] = {}
    common = trick_common(view, number, deal.tricks_total, points, game.trick_combination_points)
    for i, s in enumerate(active):
        env = trick_env(view, number, deal.tricks_total, points, s, None, common)
        env.update(
            tricks_played=number,
            tricks_won=deal.tricks_won[s],
            declarer=s == deal.declarer,
            position=i,
        )
        env.update(deal.context[s])
        # the combinations of his hand as trick play began, worked out if a rule reads them
        if combinations:
            envs[s] = CombinationsWhenRead.over(env, deal, s, start=True)
        else:
            env.update(NO_COMBINATIONS)
            envs[s] = env
    _run_rules(deal, envs, rules, "after_trick")
    if sides:
        deal.form_sides()


def _held_by_nobody(deal: Deal, rules: tuple[StepRule, ...]) -> bool:
    """Whether, for every rule, the part its condition begins with that is the same for
    every player (`StepRule.common`) fails: then no rule holds for anybody (and none sets a
    value a later one reads). Worked out over the names those parts read alone, when each
    is a player's value or a name of `after_trick` that is not the trick's (made as
    `run_after_trick` makes them: his values over the others); else False."""
    envs: list[dict[str, Any]] = []
    names = {name for rule in rules for name in rule.common_reads}
    same: dict[str, Any] = {}  # the trick's names that are the same for every player
    if not names.isdisjoint(TRICK_COMMON):
        view = deal.tricks[-1]
        number = len(deal.tricks)
        points = deal.points_under(view.trump)
        same["trick_number"] = same["tricks_played"] = number
        same["trick_points"] = sum(points[c] for _, c in view.cards)
        same["last_trick"] = number == deal.tricks_total
    for i, s in enumerate(deal.active):
        context = deal.context[s]
        env: dict[str, Any] = {}
        for name in names:
            if name in context:
                env[name] = context[name]
            elif name == "tricks_played":
                env[name] = len(deal.tricks)
            elif name == "tricks_won":
                env[name] = deal.tricks_won[s]
            elif name == "declarer":
                env[name] = s == deal.declarer
            elif name == "position":
                env[name] = i
            elif name in same:
                env[name] = same[name]
            else:  # a name of the trick his own: worked out in full
                return False
        envs.append(env)
    over = {TABLE_KEY: envs, **same}
    return not any(rule.common(over) for rule in rules if rule.common is not None)


def run_after_card(
    game: GameTables,
    deal: Deal,
    rules: tuple[StepRule, ...],
    seat: int,
    card: int,
    own_only: bool,
    others_read: bool,
) -> bool:
    """`after_card`: after `seat` played `card` to the trick, each rule for every player of
    the deal (over that card, whether he played it, his hand now), worked out for all
    before any value is set. Whether any value changed. (`own_only`: every rule can hold
    for the player who played alone; `others_read`: some rule reads other players' names:
    worked out once from the rules by the phase.)"""
    eff = deal.relations()[0]
    card_is_trump = eff[card] == game.trump_suit_id
    in_trump_suit = game.suit_of[card] == deal.trump
    active = deal.active

    def env_of(s: int) -> dict[str, Any]:
        env: dict[str, Any] = {
            CARD_KEY: card,
            HAND_KEY: deal.hands[s],
            TRUMP_KEY: deal.trump,
            "played_it": s == seat,
            "card_is_trump": card_is_trump,
            "card_in_trump_suit": in_trump_suit,
            "cards_in_trick": len(deal.trick),
            "tricks_played": len(deal.tricks),
            "tricks_won": deal.tricks_won[s],
            "declarer": s == deal.declarer,
            "position": active.index(s),
        }
        env.update(deal.context[s])
        return env

    if not own_only:
        return _run_rules(deal, {s: env_of(s) for s in active}, rules, "after_card")
    # every rule can hold for the player who played alone: worked out for him, the others'
    # names made only when an aggregate reads them (their values do not change)
    own = env_of(seat)
    if others_read:
        side_of = deal.side_of
        own[TABLE_KEY] = LaterList(lambda: [own if t == seat else env_of(t) for t in active])
        own[SIDE_KEY] = LaterList(
            lambda: [own if t == seat else env_of(t) for t in active if side_of[t] == side_of[seat]]
        )
    changed = False
    for step in rules:
        if step.condition is None or step.condition(own):
            assigned = [(a.name, a.expr(own)) for a in step.assigns]
            changed = _set(deal, seat, own, step, assigned, "after_card") or changed
    return changed


def _run_rules(
    deal: Deal, envs: dict[int, dict[str, Any]], rules: tuple[StepRule, ...], block: str
) -> bool:
    """Each rule in order, for every player of `envs` (in seat order): all worked out
    first, then set (his values). Whether any value changed."""
    active = deal.active
    table = list(envs.values())
    side_of = deal.side_of
    for s, env in envs.items():
        env[TABLE_KEY] = table
        env[SIDE_KEY] = [envs[t] for t in active if t in envs and side_of[t] == side_of[s]]
    first = next(iter(envs.values()))
    changed = False
    for step in rules:
        if step.common is not None and not step.common(first):
            continue  # the part every player's condition begins with fails: for all
        values = {}
        for s, env in envs.items():
            if step.condition is None or step.condition(env):
                values[s] = [(a.name, a.expr(env)) for a in step.assigns]
        for s, assigned in values.items():
            changed = _set(deal, s, envs[s], step, assigned, block) or changed
    return changed


def _set(
    deal: Deal,
    seat: int,
    env: dict[str, Any],
    step: StepRule,
    assigned: list[tuple[str, Any]],
    block: str,
) -> bool:
    """Set the values a rule worked out for a player (in his names and his deal values),
    each checked in range; whether any of them changed."""
    context = deal.context[seat]
    changed = False
    for name, value in assigned:
        in_range(value, f"{block} rule '{step.name}'", step.loc)
        if context.get(name) != value:
            changed = True
    env.update(assigned)
    context.update(assigned)
    return changed
