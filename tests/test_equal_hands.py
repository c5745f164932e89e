"""Every player holds as many cards as the others all through trick play, for every player
count a file allows (issue 27, item 11): a deal pattern, a stock drawn after each trick, a
pickup or an exchange with the cards left out that would leave hands of different sizes is
refused as the file is compiled, where it is written, not found by `trickcore verify` (the
engine ends such a deal with cards unplayed)."""

from __future__ import annotations

from pathlib import Path

import pytest

import trickcore
from trickcore.interfaces.cli import main

VARIANTS = Path(trickcore.__file__).resolve().parents[1] / "variants"


def house(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.rules"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path) -> trickcore.RulesError:
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.load_variant(path)
    return info.value


def test_a_stock_three_players_cannot_draw_evenly_is_refused(tmp_path, capsys):
    """Sixty-six with 20 cards (X45) seats 2; with 3 players its 3 + 2 cards each leave a
    stock of 4 and the turned-up card, which 3 players cannot draw one card each after every
    trick. The error is at `draw: yes` and names the lines that made the stock that size."""
    path = house(tmp_path, 'extends "sixty-six-twenty-card"\nplayers: 3\n')
    err = error_of(path)
    assert err.location is not None
    assert (Path(err.location.file), err.location.line) == (VARIANTS / "sixty-six.rules", 34)
    assert err.location.source_line.strip().startswith("draw: yes")
    assert "multiple of 3" in err.message and "holds 5 cards" in err.message
    assert f"{path}:2:1" in err.message  # the line that set the player count
    assert "sixty-six-twenty-card.rules:13:3" in err.message  # the pattern

    assert main(["check", str(path)]) == 1
    assert "'draw: yes'" in capsys.readouterr().out


def test_every_player_count_a_file_allows_is_checked(tmp_path):
    """`players: 2, 3`: 3 is checked too (not only the default); 24 cards leave 6 for the
    stock with 3 players, which they draw evenly."""
    path = house(tmp_path, 'extends "sixty-six-twenty-card"\nplayers: 2, 3\n')
    assert "multiple of 3" in error_of(path).message
    fine = house(tmp_path, 'extends "sixty-six"\nplayers: 2, 3\n')
    assert trickcore.load_variant(fine).model.players == (2, 3)


def test_a_stock_a_pickup_may_take_the_turned_up_card_from_is_refused(tmp_path):
    """A pickup takes the turned-up card, which is otherwise drawn last: the stock has one
    card fewer after it, and 3 players cannot draw both 6 and 5 cards evenly."""
    path = house(
        tmp_path,
        'extends "sixty-six"\nplayers: 3\ndeal {\n  flow: pickup, tricks\n}\n'
        "pickup {\n  who: dealer\n  lay_away: 1\n}\n",
    )
    err = error_of(path)
    assert "and 5 once the pickup has taken the turned-up card" in err.message


@pytest.mark.parametrize(("lay_away", "what"), [("0", "1 card more"), ("2", "1 card fewer")])
def test_a_pickup_that_does_not_lay_away_the_card_taken_is_refused(tmp_path, lay_away, what):
    """Euchre's dealer takes the up-card and discards one (E12); laying away 0 or 2 would
    leave him a card more or fewer than the others for the whole play."""
    path = house(tmp_path, f'extends "euchre"\npickup {{\n  lay_away: {lay_away}\n}}\n')
    err = error_of(path)
    assert (Path(err.location.file), err.location.line, err.location.column) == (path, 3, 3)
    assert what in err.message and "'lay_away: 1'" in err.message


def test_a_pickup_without_lay_away_is_refused_at_its_block(tmp_path):
    """`lay_away` defaults to 0: a pickup block without it is refused at the block."""
    path = house(tmp_path, 'extends "euchre"\nremove pickup.lay_away\n')
    err = error_of(path)
    assert Path(err.location.file) == VARIANTS / "euchre.rules"
    assert err.location.source_line.startswith("pickup {")
    assert "1 card more" in err.message


def test_an_exchange_with_more_cards_than_are_left_out_is_refused(tmp_path):
    """E49's farmer's hand swaps 3 cards for the 3 kitty cards; asking 4 of a kitty of 3
    would leave the exchanger a card short."""
    path = house(
        tmp_path,
        'extends "euchre-farmers-hand"\ndecision exchange {\n  effect: exchange_out 4\n}\n',
    )
    err = error_of(path)
    assert (Path(err.location.file), err.location.line) == (path, 3)
    assert "with 4 players the deal leaves out 3" in err.message


def test_a_fixed_pattern_with_rest_out_must_fit_the_deck(tmp_path):
    """With `rest out` the pattern need not deal the whole deck, but it cannot deal more:
    refused at the pattern, not as the first deal is dealt."""
    path = house(tmp_path, 'extends "euchre"\ndeal {\n  pattern: 7 each, 1 turnup, rest out\n}\n')
    err = error_of(path)
    assert (Path(err.location.file), err.location.line) == (path, 3)
    assert "7 cards to each of 4 hands, more than the 24 cards" in err.message
