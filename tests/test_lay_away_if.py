"""`lay_away_if = EXPR` in `talon` and `pickup`: which cards of his hand a player may lay
away, card by card; all of them when it allows none (docs: docs/language.md, "talon").
French Tarot's rule is tested in tests/test_french_tarot.py; here a Euchre house rule: the
dealer who picks up the turned-up card may not discard a trump (unless he holds nothing
else)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import found

import trickcore
import trickcore.engine.phases.pickup
from trickcore.interfaces.summary import rules_summary
from trickcore.language.errors import RulesError
from trickcore.testing import check_rules

NO_TRUMP_DISCARD = 'extends "euchre"\npickup {\n  lay_away_if = not card_is_trump\n}\n'


def house_rule(tmp_path: Path, text: str = NO_TRUMP_DISCARD) -> Path:
    path = tmp_path / "no-trump-discard.rules"
    path.write_text(text)
    return path


SUIT_OF = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
LEFT_BOWER = {"clubs": "JS", "spades": "JC", "hearts": "JD", "diamonds": "JH"}  # E6


def is_trump(card: str, trump: str) -> bool:
    """A trump of Euchre: the trump suit and the jack of the same colour (E6)."""
    return SUIT_OF[card[-1]] == trump or card == LEFT_BOWER[trump]


def test_the_dealer_never_discards_a_trump_while_he_holds_another_card(tmp_path: Path) -> None:
    variant = trickcore.load_variant(house_rule(tmp_path))
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        deal = variant.new_deal(seed=seed, dealer=seed % 4)
        while not deal.is_over:
            actions = deal.legal_actions()
            if actions[0].text.startswith("discard"):
                obs = deal.observation(deal.to_act)
                offered = {a.text.split()[1] for a in actions}
                plain = {c for c in obs.hand if not is_trump(c, obs.trump)}
                assert offered == (plain or set(obs.hand))
                checked += 1
            deal.apply(rng.choice(actions))
    assert checked >= 10


def test_the_house_rule_keeps_every_invariant(tmp_path: Path) -> None:
    check_rules(house_rule(tmp_path), examples=30, matches=0)


def test_an_engine_that_lets_anything_be_discarded_is_caught(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(
        trickcore.engine.phases.pickup,
        "cards_to_lay_away",
        lambda deal, seat, rule: sorted(deal.hands[seat]),
    )
    assert found(house_rule(tmp_path), examples=60) == "pickup"


def test_show_says_so(tmp_path: Path) -> None:
    sections = dict(rules_summary(trickcore.load_variant(house_rule(tmp_path)).model))
    assert "A card may be laid away only if: not card_is_trump" in " ".join(sections["Pickup"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'extends "tysiacha"\ntalon {\n  lay_away_if = card_rank(A)\n}\n',
            "the talon lays none away: add 'lay_away: N'",
        ),
        (
            'extends "euchre"\npickup {\n  lay_away_if = tricks_played > 0\n}\n',
            "unknown name 'tricks_played' in pickup.lay_away_if",
        ),
    ],
)
def test_errors_say_what_and_where(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(RulesError, match=r"no-trump-discard.rules:3:\d+: ") as err:
        trickcore.load_variant(house_rule(tmp_path, text))
    assert message in str(err.value)
