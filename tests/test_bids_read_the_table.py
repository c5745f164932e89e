"""`bids.bid_if` reads what each player has bid so far (`tricks_bid`, `has_bid`) through the
aggregates over the table and the player's side (issue 28: the deal's history readable
where rules need it). Suicide Spades (examples/suicide-spades.rules): one partner bids nil,
the other at least 4; the rest is Spades (P1-P25)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import found, house_rule

import trickcore
from trickcore.engine.phases import bids
from trickcore.language.exprs import SIDE_KEY

SUICIDE = Path(__file__).resolve().parent.parent / "examples" / "suicide-spades.rules"
NIL_OR_FOUR = ["bid 0", *(f"bid {n}" for n in range(4, 14))]


@pytest.fixture(scope="module")
def suicide() -> trickcore.Variant:
    return trickcore.load_variant(SUICIDE)


def offered(deal) -> list[str]:
    return [a.text for a in deal.legal_actions()]


def test_the_first_partner_chooses_and_the_second_takes_the_other_part(suicide) -> None:
    deal = suicide.new_deal(seed=1, dealer=0)
    assert offered(deal) == NIL_OR_FOUR  # seat 1: his partner (3) has not bid
    deal.apply("bid 5")
    assert offered(deal) == NIL_OR_FOUR  # seat 2: neither has his partner (0)
    deal.apply("bid 0")
    assert offered(deal) == ["bid 0"]  # seat 3: his partner bid 5
    deal.apply("bid 0")
    assert offered(deal) == [f"bid {n}" for n in range(4, 14)]  # seat 0: his partner bid nil


def test_the_table_aggregates_read_every_bid_so_far(tmp_path: Path) -> None:
    """Oh Hell with a house rule: nobody bids more than the highest bid so far plus one, and
    the last to bid may not bid what the first bid."""
    path = house_rule(
        tmp_path,
        "climb",
        'extends "oh-hell"\nbids {\n'
        "  bid_if = level <= max_all(tricks_bid) + 1 and\n"
        "    (count_all(has_bid) < players - 1 or level != max_all(tricks_bid))\n}\n",
    )
    variant = trickcore.load_variant(path)
    deal = variant.new_deal(seed=3, dealer=0, players=4, deal_number=4)
    assert offered(deal) == ["bid 0", "bid 1"]
    deal.apply("bid 1")
    assert offered(deal) == ["bid 0", "bid 1", "bid 2"]
    deal.apply("bid 2")
    deal.apply("bid 0")
    assert offered(deal) == ["bid 0", "bid 1", "bid 3"]  # not 2, the highest
    assert found(path, examples=6) is None


def test_the_file_keeps_every_invariant() -> None:
    assert found(SUICIDE, examples=8) is None


def test_an_engine_that_shows_a_player_only_his_own_bid_is_caught(monkeypatch) -> None:
    """The side's names without the partner's: the checker, restating them, finds the bids
    offered differ."""
    real = bids.Bids._table

    def alone(self, deal, seat, env, shared):
        envs = real(self, deal, seat, env, shared)
        env[SIDE_KEY] = [env]
        return envs

    monkeypatch.setattr(bids.Bids, "_table", alone)
    assert found(SUICIDE, examples=8) is not None
