"""Exact play of the last tricks (`trickcore.players.endgame`): the alpha-beta value of a
world's ending equals a full minimax over every line of play, the seat's side against the
others, in games with fixed sides, a declarer, no sides at all, and sides formed in play;
a solve past its node budget is given up; pimc uses it."""

from __future__ import annotations

import math
import random

import pytest

import trickcore
from trickcore.players import Turn, make_bot
from trickcore.players.endgame import EndgameSolver
from trickcore.players.values import deal_values


def _minimax(deal, seat: int) -> float:
    """Every line of play searched to its end, no pruning (the reference)."""
    if deal.is_over:
        return deal_values(deal)[seat]
    ours = deal.to_act == seat or deal.partners(seat, deal.to_act)
    results = []
    for action in deal.legal_actions():
        child = deal.clone()
        child.apply(action)
        results.append(_minimax(child, seat))
    return max(results) if ours else min(results)


def _endings(name: str, tricks: int, count: int):
    """Deals of heuristic bots stopped in trick play with at most `tricks` cards a hand."""
    variant = trickcore.load_variant(name)
    solver = EndgameSolver(tricks, nodes=10**6)
    found = 0
    for seed in range(50):
        order = list(range(variant.model.deck.size))
        random.Random(seed).shuffle(order)
        deal = variant.new_deal(order, dealer=0)
        bots = [make_bot("heuristic", seed=s) for s in range(deal.seats)]
        while not deal.is_over:
            if solver.applies(deal) and len(deal.legal_actions()) > 1:
                yield deal.clone()
                found += 1
                break
            seat = deal.to_act
            turn = Turn(variant, seat, deal.observation(seat), tuple(deal.legal_actions()))
            deal.apply(bots[seat].choose(turn))
        if found == count:
            return


@pytest.mark.parametrize(
    "name, tricks",
    [("bridge", 3), ("skat", 3), ("hearts", 2), ("tysiacha", 3), ("doppelkopf", 2)],
)
def test_alpha_beta_agrees_with_full_minimax(name, tricks):
    # Bridge: fixed sides (B1); Skat: the declarer against two defenders (K31); Hearts:
    # no sides, everyone against the seat; Tysiacha: the declarer and the other defender;
    # Doppelkopf: sides formed by the queens of clubs (DK10), announcements offered in play
    solver = EndgameSolver(tricks, nodes=10**6)
    positions = 0
    for deal in _endings(name, tricks, 4):
        for seat in range(deal.seats):
            before = deal.observation(seat)
            got = solver.value(deal, seat)
            assert got is not None and math.isclose(got, _minimax(deal.clone(), seat))
            assert deal.observation(seat) == before  # the world is not changed
        positions += 1
    assert positions == 4


def test_a_solve_past_its_node_budget_is_given_up():
    deal = next(_endings("bridge", 3, 1))
    solver = EndgameSolver(3, nodes=1)
    assert solver.value(deal, deal.to_act) is None
    assert solver.given_up == 1 and solver.solved == 0
    assert EndgameSolver(3).value(deal, deal.to_act) is not None


def test_pimc_plays_an_ending_as_its_worlds_solve_it():
    # with one world and the ending solved, the best action is the one whose solved value
    # is highest, and the values are exact (no playout noise): the same on every round
    variant = trickcore.load_variant("bridge")
    deal = next(_endings("bridge", 2, 1))
    seat = deal.to_act
    turn = Turn(variant, seat, deal.observation(seat), tuple(deal.legal_actions()))
    bot = make_bot("pimc:worlds=1,iterations=50,seconds=none,confidence=0,endgame=2", seed=3)
    values = bot.evaluate(turn)
    assert bot.endgame.solved == len(turn.legal) and bot.endgame.given_up == 0
    assert all(math.isfinite(v) for _, v in values)
    off = make_bot("pimc:worlds=1,iterations=50,seconds=none,confidence=0,endgame=0", seed=3)
    off.evaluate(turn)
    assert off.endgame.solved == 0


def test_bad_endgame_options_are_clear_errors():
    with pytest.raises(trickcore.TrickcoreError, match="endgame must be a whole number"):
        make_bot("pimc:endgame=-1")
