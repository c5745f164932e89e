"""`trickcore.batch.DealBatch`: many deals stepped by one call with numpy arrays (issue 30,
"A batch API for training")."""

from __future__ import annotations

import numpy as np
import pytest

import trickcore
from trickcore.batch import DealBatch
from trickcore.interfaces.tensors import Encoder


def random_actions(batch: DealBatch, rng: np.random.Generator) -> np.ndarray:
    masks = batch.masks
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def test_each_row_is_the_deal_of_its_seed_seen_by_its_seat_to_act():
    v = trickcore.load_variant("hearts")
    batch = DealBatch(v, 5, seed=40)
    encoder = Encoder(v, 4)
    for row in range(5):
        deal = v.new_deal(seed=40 + row, dealer=row % 4)
        seat = deal.to_act
        assert batch.to_act[row] == seat
        expected = encoder.new_tensor()
        encoder.encode(deal.observation(seat), encoder.views(expected))
        assert np.array_equal(batch.observations[row], expected)
        # the hand plane is the seat's own 13 cards (H5), no other seat's
        hand = encoder.views(batch.observations[row])["hand"]
        assert hand.sum() == 13
        assert sorted(np.flatnonzero(hand)) == sorted(
            encoder._card[c] for c in deal.hand_texts(seat)
        )
        legal = batch.legal_actions(row)
        assert batch.masks[row].sum() == len(legal) == len(deal.legal_ids())


def test_random_play_scores_every_finished_deal_and_deals_the_next():
    batch = DealBatch("hearts", 8, seed=0)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(70):  # 12 cards passed (H8) and 52 played: every row ends once
        result = batch.step(random_actions(batch, rng))
        assert result.rewards.shape == (8, 4) and result.rewards.dtype == np.float32
        for row in range(8):
            if result.done[row]:
                finished += 1
                total = result.rewards[row].sum()
                assert total in (26.0, 78.0)  # H20-H22: 26 points, or the moon's 3 x 26
                assert result.final[row] is not None and result.final[row].is_over
            else:
                assert not result.rewards[row].any() and result.final[row] is None
    assert finished >= 8
    assert batch.masks.sum(axis=1).min() >= 1  # every row shows a deal to play


def test_the_same_seed_plays_the_same_batch():
    def run() -> list[float]:
        batch = DealBatch("sixty-six", 4, seed=7)
        rng = np.random.default_rng(3)
        totals = []
        for _ in range(40):
            totals.append(float(batch.step(random_actions(batch, rng)).rewards.sum()))
        return totals

    assert run() == run()


def test_an_illegal_action_names_its_row_and_moves_no_deal():
    batch = DealBatch("tysiacha", 3, seed=0)
    before = batch.observations
    actions = [batch.legal_actions(r)[0] for r in range(3)]
    illegal = next(a for a in range(batch.num_actions) if batch.masks[1][a] == 0)
    actions[1] = illegal
    with pytest.raises(trickcore.IllegalActionError, match=r"row 1: action \d+ is not legal"):
        batch.step(actions)
    assert np.array_equal(batch.observations, before)
    with pytest.raises(trickcore.IllegalActionError, match="one action per deal"):
        batch.step(actions[:2])
    with pytest.raises(trickcore.IllegalActionError, match="whole numbers"):
        batch.step([0.5, 1.0, 2.0])
    batch.step([batch.legal_actions(r)[0] for r in range(3)])  # still playable


def test_compact_numbers_are_few_and_stable_numbers_are_the_engines():
    compact = DealBatch("bridge", 2, seed=0)
    stable = DealBatch("bridge", 2, seed=0, actions="stable")
    assert compact.num_actions <= 2 * 90  # OpenSpiel's bridge has 90 actions
    assert stable.num_actions == trickcore.load_variant("bridge").num_actions
    v = trickcore.load_variant("bridge")
    deal = v.new_deal(seed=0)
    assert stable.legal_actions(0) == sorted(deal.legal_ids())
    assert len(compact.legal_actions(0)) == len(stable.legal_actions(0))


def test_returned_arrays_are_the_callers():
    batch = DealBatch("euchre", 2, seed=0)
    obs, masks, seats = batch.observations, batch.masks, batch.to_act
    obs[:] = 9.0
    masks[:] = 1
    seats[:] = 3
    batch.legal_actions(0).append(10**6)
    assert batch.observations.max() <= 1.0
    assert batch.masks.sum() < masks.sum()
    assert 10**6 not in batch.legal_actions(0)


def test_bad_arguments_say_what_is_wrong():
    with pytest.raises(trickcore.TrickcoreError, match="1 deal or more"):
        DealBatch("hearts", 0)
    with pytest.raises(trickcore.TrickcoreError, match="'compact' or 'stable'"):
        DealBatch("hearts", 2, actions="small")


def test_games_of_bouts_step_too():
    batch = DealBatch("durak", 3, seed=0, players=3)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        result = batch.step(random_actions(batch, rng))
        for row in np.flatnonzero(result.done):
            ended += 1
            assert result.final[row] is not None
    assert ended >= 1
