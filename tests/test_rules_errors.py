"""Broken rules files get a clear RulesError with file:line:column, never a traceback."""

from __future__ import annotations

import pytest

import trickcore
from trickcore.interfaces.cli import main


def compile_text(text: str, tmp_path=None):
    return trickcore.variant_from_text(text, "house", tmp_path)


def error_of(text: str, tmp_path=None) -> trickcore.RulesError:
    with pytest.raises(trickcore.RulesError) as info:
        compile_text(text, tmp_path)
    return info.value


def test_syntax_error_says_where_and_what_was_expected():
    err = error_of('extends "tysiacha"\nbidding {\n  step: 5 +\n}\n')
    assert err.location is not None and (err.location.line, err.location.column) == (3, 12)
    assert "expected" in err.message
    assert "step: 5 +" in str(err) and "^" in str(err)


def test_unknown_setting_names_the_known_ones():
    err = error_of('extends "tysiacha"\nbidding {\n  stepp: 5\n}\n')
    assert "unknown setting 'stepp'" in err.message and "step" in err.message
    assert err.location.line == 3


def test_unknown_rank_in_points():
    text = 'extends "tysiacha"\ndeck {\n  points: A 11, 10 10, K 4, Q 3, J 2, 9 0, Z 5\n}\n'
    err = error_of(text)
    assert "unknown rank 'Z'" in err.message and err.location.line == 3


def test_rank_without_points():
    err = error_of('extends "tysiacha"\ndeck {\n  points: A 11, 10 10, K 4, Q 3, J 2\n}\n')
    assert "rank 9 has no points" in err.message


def test_unknown_suit_in_meld_value():
    text = (
        'extends "tysiacha"\nmeld marriage {\n'
        "  value: spades 40, clubs 60, stars 80, hearts 100\n}\n"
    )
    assert "SUIT POINTS" in error_of(text).message


def test_deal_pattern_must_match_deck_and_players():
    err = error_of('extends "tysiacha"\ndeal {\n  pattern: 1 each 7 times, 2 talon\n}\n')
    assert "deals 23 cards" in err.message and "deck has 24" in err.message
    assert err.location.line == 3


def test_opening_bid_above_every_possible_cap():
    err = error_of('extends "tysiacha"\nbidding {\n  opening: at_least 400\n}\n')
    assert "above the bid cap for every hand" in err.message and err.location.line == 3


def test_unknown_name_and_type_errors_in_expressions():
    err = error_of('extends "tysiacha"\nscoring {\n  defender = card_pointz\n}\n')
    assert "unknown name 'card_pointz'" in err.message and "card_points" in err.message
    assert (err.location.line, err.location.column) == (3, 14)
    err = error_of('extends "tysiacha"\nscoring {\n  defender = card_points and made\n}\n')
    assert "must be a yes/no condition" in err.message
    err = error_of('extends "tysiacha"\nscoring {\n  defender = if made then 1 else no\n}\n')
    assert "'then' gives a number but 'else' gives a yes/no condition" in err.message
    err = error_of('extends "tysiacha"\nbidding {\n  cap = 120 + tricks_won\n}\n')
    assert "unknown name 'tricks_won' in a hand rule" in err.message


def test_circular_definitions():
    text = 'extends "tysiacha"\nscoring {\n  a = b + 1\n  b = a + 1\n  defender = a\n}\n'
    assert "in a circle" in error_of(text).message


def test_missing_and_cyclic_extends(tmp_path):
    err = error_of('extends "no-such-variant"\n')
    assert "no shipped variant or file" in err.message and err.location.line == 1
    (tmp_path / "a.rules").write_text('extends "./b.rules"\n')
    (tmp_path / "b.rules").write_text('extends "./a.rules"\n')
    with pytest.raises(trickcore.RulesError, match="`extends` is cyclic: a.rules -> b.rules"):
        trickcore.load_variant(tmp_path / "a.rules")


def test_remove_of_something_not_defined():
    err = error_of('extends "tysiacha"\nremove after_deal.nothing\n')
    assert "cannot remove 'after_deal.nothing'" in err.message and err.location.line == 2


def test_assigning_a_read_only_quantity():
    err = error_of('extends "tysiacha"\nafter_deal {\n  rule x: contract = 5\n}\n')
    assert "cannot assign 'contract'" in err.message


def test_not_a_text_file(tmp_path):
    path = tmp_path / "bin.rules"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(trickcore.RulesError, match="not a UTF-8 text file"):
        trickcore.load_variant(path)


def test_check_command_exit_codes(tmp_path, capsys):
    good = tmp_path / "good.rules"
    good.write_text('extends "tysiacha"\nname: "Mine"\n')
    assert main(["check", str(good)]) == 0
    bad = tmp_path / "bad.rules"
    bad.write_text('extends "tysiacha"\nbidding {\n  step: 5 +\n}\n')
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "bad.rules:3:12" in out


def test_house_rule_removing_a_rule_compiles_and_plays():
    v = compile_text('extends "tysiacha"\nremove after_deal.barrel_out\n')
    assert [r.name for r in v.model.match.after_deal][-1] == "barrel_climb"


# ---------------------------------------------------------------- every error, not the first
def test_compile_errors_lists_every_independent_mistake():
    from trickcore.language.compiler import compile_errors
    from trickcore.language.loader import load_rules_text

    text = (
        'extends "tysiacha"\n'
        "play {\n  follow: maybe\n}\n"
        "bidding {\n  step: 0\n}\n"
        "match {\n  keep: card_points 0\n}\n"
    )
    errors = compile_errors(load_rules_text(text, "house"))
    assert [e.location.line for e in errors] == [3, 6, 9]
    assert "yes or no" in errors[0].message and "at least 1" in errors[1].message
    assert compile_errors(load_rules_text('extends "tysiacha"\n', "house")) == []


def test_a_broken_scoring_does_not_report_after_deal_names_as_unknown():
    from trickcore.language.compiler import compile_errors
    from trickcore.language.loader import load_rules_text

    errors = compile_errors(
        load_rules_text('extends "tysiacha"\nscoring {\n  made = card_pointz\n}\n', "house")
    )
    assert len(errors) == 1 and "card_pointz" in errors[0].message


# ---------------------------------------------------------------- untrusted numbers and names
@pytest.mark.parametrize(
    "block",
    [
        'deck {\n  points: A 11, 10 10, K 4, Q 3, J 2, 9 "²"\n}',
        'match {\n  keep: on_barrel no, barrel_deals "٣"\n}',
        'meld marriage {\n  value: spades 40, clubs 60, diamonds 80, hearts "１００"\n}',
        'bidding {\n  opening: at_least "１００"\n}',
        'deal {\n  pattern: 1 each 7 times, "３" talon\n}',
    ],
)
def test_only_ascii_digits_are_numbers(block):
    err = error_of(f'extends "tysiacha"\n{block}\n')
    assert "whole number" in err.message and err.location.line == 3


def test_two_cards_with_the_same_text_are_refused():
    text = (
        'extends "tysiacha"\ndeck {\n  suits: b B, ab AB, c C, d D\n'
        "  ranks: A, AA, K, Q, J, 9\n  points: A 11, AA 10, K 4, Q 3, J 2, 9 0\n}\n"
    )
    err = error_of(text)
    assert "'AAB'" in err.message and err.location.line == 4


@pytest.mark.parametrize("name", ["card_points", "score", "gain", "made", "target", "yes"])
def test_a_kept_name_may_not_shadow_a_built_in(name):
    err = error_of(f'extends "tysiacha"\nmatch {{\n  keep: on_barrel no, {name} 7\n}}\n')
    assert f"'{name}'" in err.message and "kept name" in err.message and err.location.line == 3


def test_a_kept_name_twice_is_refused():
    err = error_of('extends "tysiacha"\nmatch {\n  keep: on_barrel no, on_barrel yes\n}\n')
    assert "kept twice" in err.message


def test_a_contract_cap_that_allows_too_many_raises_is_refused():
    err = error_of('extends "tysiacha"\ncontract {\n  cap = 999999999\n}\n')
    assert "contract cap" in err.message and err.location.line == 3


def test_too_many_qualifiers_are_refused():
    quals = ",\n    ".join(f"q{i}" for i in range(5000))  # a list goes on after a comma
    err = error_of(f'extends "tysiacha"\nbidding {{\n  qualifiers: {quals}\n}}\n')
    assert "at most 16 bid qualifiers" in err.message


@pytest.mark.parametrize("setting", ["deal_limit: 999999999", "redeal_limit: 999999999"])
def test_match_lengths_are_bounded(setting):
    err = error_of(f'extends "tysiacha"\nmatch {{\n  {setting}\n}}\n')
    assert "at most 100,000 deals" in err.message and err.location.line == 3


def test_max_bouts_is_bounded():
    err = error_of('extends "durak"\nbouts {\n  max_bouts: 999999\n}\n')
    assert "max_bouts" in err.message and err.location.line == 3


# ---------------------------------------------------------------- validation defects
def test_a_meld_may_not_name_a_rank_twice():
    err = error_of('extends "tysiacha"\nmeld marriage {\n  cards: K, K, Q\n}\n')
    assert "named twice" in err.message and (err.location.line, err.location.column) == (3, 13)


def test_a_rule_written_twice_in_one_block_is_refused():
    text = 'extends "tysiacha"\nafter_deal {\n  rule a: score = score\n  rule a: score = 0\n}\n'
    err = error_of(text)
    assert "rule 'a' is written twice" in err.message and err.location.line == 4


def test_a_setting_written_twice_in_one_block_is_refused():
    err = error_of('extends "tysiacha"\nbidding {\n  step: 5\n  step: 10\n}\n')
    assert "setting 'step' is written twice" in err.message and err.location.line == 4


def test_an_attack_limit_below_one_is_refused():
    err = error_of('extends "durak"\nbouts {\n  limit = 0\n}\n')
    assert "bout limit" in err.message and err.location.line == 3


def test_the_first_bout_limit_is_checked_for_every_player_count_with_its_stock():
    """D7's limit must allow an attack card at the first bout with every number of players
    the file allows, the stock holding the cards not dealt (Durak: 32 - 6 per player, 2
    with five players)."""
    fives = error_of('extends "durak"\nbouts {\n  limit = if players == 5 then 0 else 6\n}\n')
    assert "with 5 players" in fives.message and fives.location.line == 3
    short = error_of('extends "durak"\nbouts {\n  limit = if stock > 2 then 6 else 0\n}\n')
    assert "with 5 players" in short.message and "2 in the stock" in short.message
    # a stock of 2 or more at every table: the file is good
    v = trickcore.variant_from_text(
        'extends "durak"\nbouts {\n  limit = if stock >= 2 then 6 else 0\n}\n'
    )
    assert v.new_deal(seed=1, players=5).legal_actions()


def test_a_talon_the_gives_cannot_share_out_is_refused():
    err = error_of('extends "tysiacha"\ntalon {\n  give_each_defender: 2\n}\n')
    assert "hands would differ" in err.message and err.location.line == 3


# ---------------------------------------------------------------- the deal's flow of phases
@pytest.mark.parametrize(
    "flow, message",
    [
        ("auction, tricks", "needs the phase 'talon'"),
        ("redeal, auction, talon, tricks", "'redeal' has nothing to do without a 'redeal' block"),
        ("auction, talon, contract, tricks, bouts", "unknown phase 'bouts'"),
        ("tricks, auction, talon, contract", "phases run in this order"),
        ("auction, talon, tricks", "needs the phase 'contract'"),
        ("auction, auction, talon, contract, tricks", "named twice"),
        ("talon, contract, tricks", "needs the phase 'auction'"),
    ],
)
def test_a_flow_that_cannot_run_is_refused(flow, message):
    err = error_of(f'extends "tysiacha"\ndeal {{\n  flow: {flow}\n}}\n')
    assert message in err.message and err.location.line == 3


def test_a_declared_flow_plays_as_the_default_one():
    """Writing the flow out changes nothing: Tysiacha's default is its five phases minus the
    redeal offer (T5: no redeal block)."""
    declared = compile_text(
        'extends "tysiacha"\ndeal {\n  flow: auction, talon, contract, tricks\n}\n'
    )
    plain = trickcore.load_variant("tysiacha")
    a, b = declared.new_match(seed=11), plain.new_match(seed=11)
    while not a.is_over and len(a.history) < 400:
        assert [x.text for x in a.legal_actions()] == [x.text for x in b.legal_actions()]
        text = a.legal_actions()[len(a.history) % len(a.legal_actions())].text
        a.apply(text)
        b.apply(text)
    assert a.scores == b.scores and a.history == b.history


def test_multi_card_attacks_are_bounded_by_the_number_of_suits():
    suits = ", ".join(f"s{i} S{i}" for i in range(9))
    err = error_of(f'extends "durak"\ndeck {{\n  suits: {suits}\n}}\n')
    assert "attack: same_rank" in err.message and "at most 8 suits" in err.message


def test_a_very_long_line_is_refused_where_it_is():
    err = error_of('extends "tysiacha"\nscoring {\n  defender = ' + "1+" * 95000 + "1\n}\n")
    assert "longer than 2,000 characters" in err.message and err.location.line == 3


def test_card_symbols_are_short():
    err = error_of(
        'extends "durak"\ndeck {\n  ranks: A, ' + "x" * 1000 + ", Q, J, 10, 9, 8, 7\n}\n"
    )
    assert "at most 8 characters" in err.message and err.location.line == 3


@pytest.mark.parametrize(
    "pattern",
    ["1 each 6 times, 1 turnup, 1 turnup, rest stock", "1 each 6 times, 2 turnup, rest stock"],
)
def test_one_card_is_turned_up(pattern):
    err = error_of(f'extends "durak"\ndeal {{\n  pattern: {pattern}\n}}\n')
    assert "turn" in err.message and err.location.line == 3


def test_the_loser_deals_next_only_where_a_deal_has_a_loser():
    err = error_of('extends "tysiacha"\ndeal {\n  next_dealer: loser\n}\n')
    assert "game of bouts" in err.message and err.location.line == 3


@pytest.mark.parametrize(
    "text, line, message",
    [
        # a flow without an auction but with a talon: nobody would take it
        ('extends "tysiacha"\ndeal {\n  flow: tricks\n}\n', 3, "needs the phase 'auction'"),
        ('extends "hearts"\ndeal {\n  flow: tricks\n}\n', 3, "needs the phase 'pass'"),
        ('extends "spades"\ndeal {\n  flow: pass, bids, tricks\n}\n', 3, "'pass' has nothing"),
        ('extends "hearts"\nplay {\n  first_leader: holder 1C\n}\n', 3, "'1C' is not a card"),
        ('extends "hearts"\nplay {\n  first_leader: declarer\n}\n', 3, "needs an auction"),
        ('extends "hearts"\nplay {\n  trump: stars\n}\n', 3, "'trump' is one of: none"),
        ('extends "hearts"\ndeck {\n  points: A 1\n}\n', 3, "either by rank"),
        ('extends "hearts"\ndeck {\n  card_points = card_is(ZZ)\n}\n', 3, "expected a card"),
        ('extends "hearts"\nscoring {\n  declarer = 1\n}\n', 3, "one rule scores every player"),
        # a decision has one effect: it closes the stock or ends the deal, not both
        (
            'extends "sixty-six"\ndecision close {\n  effect: close_stock, end_deal\n}\n',
            3,
            "a decision has one effect",
        ),
        ('extends "tysiacha"\nscoring {\n  player = 1\n}\n', 3, "with an auction"),
        ('extends "hearts"\npass_cards {\n  count: 14\n}\n', 3, "cannot pass 14 cards"),
        ('extends "hearts"\npass_cards {\n  to = score\n}\n', 3, "unknown name 'score'"),
        ('extends "spades"\nbids {\n  blind: 0, 0\n}\n', 3, "listed twice"),
        ('extends "spades"\nremove bids.blind\n', 26, "(because of house:2:1)"),
        ('extends "spades"\nsides: 0 1, 1 3\n', 2, "exactly once"),
        ('extends "spades"\nscoring {\n  x = sum_side(made)\n}\n', 3, "is not a number"),
        ('extends "tysiacha"\nplay {\n  lead_if = taken_suit(hearts) > 0\n}\n', 3, "nothing"),
        ('extends "spades"\nmatch {\n  tie_break: play_off\n}\n', 3, "play_on"),
        ('extends "spades"\nmatch {\n  end_if = gain > 0\n}\n', 3, "unknown name 'gain'"),
        ('extends "hearts"\nplay {\n  play_if = mod(tricks_played, 0) == 0\n}\n', 3, "positive"),
        ('extends "skat"\nbidding {\n  cap = 0\n}\n', 26, "(because of house:3:3)"),
        ('extends "hearts"\nplay {\n  lead_if = sum_all(tricks_won) > 0\n}\n', 3, "nothing"),
        ('extends "hearts"\nplay {\n  lead_if = taken_suit(hearts) > 0\n}\n', 3, "means nothing"),
        ('extends "hearts"\nplay {\n  lead_if = (hand_size > 0) < yes\n}\n', 3, "needs numbers"),
        ('extends "skat"\nbidding {\n  step: 10\n}\n', 3, "means nothing with 'style: pairs'"),
        ('extends "skat"\nbidding {\n  values: 20, 18\n}\n', 3, "lowest first"),
        ('extends "skat"\ntalon {\n  lay_away: 1\n}\n', 3, "hands would differ"),
        ('extends "skat"\nchoice game {\n  trump: grand stars\n}\n', 3, "OPTION SUIT"),
        ('extends "skat"\ndecision hand {\n  effect: skip auction\n}\n', 3, "needs a decision"),
    ],
)
def test_new_constructs_are_checked_where_they_are_written(text, line, message):
    """Every check of the constructs that games without an auction need (pass_cards, bids,
    sides, card_points, first_leader holder, scoring `player`, end_if) points at its line."""
    err = error_of(text)
    assert message in err.message, err.message
    assert err.location is not None and err.location.line == line


def test_embedded_rules_of_too_many_files_are_refused():
    """A saved match carries its rules texts; more files than an `extends` chain may have are
    refused before any is parsed."""
    from trickcore.language.loader import MAX_SOURCES, load_rules_embedded

    sources = [(f"f{i}.rules", 'name: "x"\n') for i in range(MAX_SOURCES + 1)]
    with pytest.raises(trickcore.RulesError, match=f"more than {MAX_SOURCES} files"):
        load_rules_embedded(sources, "x")


@pytest.mark.parametrize(
    "text, line, message",
    [
        (
            'extends "euchre"\ndeal {\n  pattern: 3 2 3 round, 1 turnup, rest out\n}\n',
            3,
            "each of 4",
        ),
        ('extends "euchre"\ndeal {\n  pattern: 5 each, rest out, 1 turnup\n}\n', 3, "comes last"),
        ('extends "oh-hell"\ndeal {\n  size = score\n}\n', 3, "unknown name 'score'"),
        ('extends "oh-hell"\nremove deal.size\n', 0, "needs 'size = EXPR'"),
        ('extends "euchre"\nbidding {\n  strains: clubs, clubs\n}\n', 3, "listed twice"),
        ('extends "euchre"\nbidding {\n  levels: none\n  values: 1, 2\n}\n', 3, "exclude"),
        ('extends "bridge"\nbidding {\n  opening: at_least 1\n}\n', 3, "means nothing"),
        ('extends "bridge"\nbidding {\n  bid_if = tricks_won > 0\n}\n', 3, "unknown name"),
        ('extends "euchre"\nbidding {\n  ends: first_bid\n  rounds: 0\n}\n', 4, "at least"),
        ('extends "euchre"\npickup {\n  who: partner\n}\n', 3, "dealer, declarer"),
        ('extends "hearts"\nplay {\n  trump: bid\n}\n', 3, "needs bids that name a strain"),
        ('extends "hearts"\nplay {\n  first_leader: left_of_declarer\n}\n', 3, "needs an auction"),
        ('extends "hearts"\nplay {\n  sit_out_if = card_points > 0\n}\n', 3, "unknown name"),
        ('extends "hearts"\nplay {\n  trump_if = tricks_won > 0\n}\n', 3, "unknown name"),
    ],
)
def test_spec4_constructs_are_checked_where_they_are_written(text, line, message):
    """Deal rounds, size and `rest out`, contract bids with strains, the pickup and the
    roles in play are checked at the line that writes them (line 0: anywhere)."""
    err = error_of(text)
    assert message in err.message, err.message
    assert err.location is not None
    if line:
        assert err.location.line == line, str(err)


def test_a_broken_flow_blames_only_the_flow():
    """A `redeal` block the inherited flow lacks is one error, at the flow: the blocks of
    phases the flow never had are not blamed for it (no errors about pass_cards, bids or a
    pickup)."""
    text = 'extends "bridge"\nredeal {\n  forced_if = no\n  same_dealer: yes\n}\n'
    errors = trickcore.language.compiler.compile_errors(
        trickcore.language.loader.load_rules_text(text, "house", None, ())
    )
    assert len(errors) == 1, [str(e) for e in errors]
    assert "the flow needs the phase 'redeal'" in errors[0].message


def test_an_auction_that_could_go_round_for_ever_is_refused():
    # Euchre E10, E14 bound the calls to two rounds; without `rounds` an auction whose
    # passes keep players in and which ends only at a bid could never end
    err = error_of('extends "euchre"\nremove bidding.rounds\n')
    assert "'rounds: N'" in err.message and "first_bid" in err.message
    assert err.location is not None and err.location.file.endswith("euchre.rules")
    assert (err.location.line, err.location.column) == (34, 3)  # the `ends` setting


def test_bout_deal_pattern_larger_than_the_deck_is_refused():
    """D1, D2: a game of bouts deals its hands from the deck; a pattern giving more cards
    than the deck holds is an error at the pattern, naming the counts."""
    err = error_of('extends "durak"\ndeal {\n  pattern: 1 each 11 times, 1 turnup, rest stock\n}\n')
    assert (err.location.line, err.location.column) == (3, 3)
    assert "gives 11 cards to each of 3 players, 33 in all, but the deck has 32" in err.message


def test_talon_split_that_cannot_go_round_evenly_is_refused():
    """S20's `split_if` (one talon card to each hand in turn) on Skat's 2-card skat among 3
    hands: an error at the rule, not a deal with hands of different sizes."""
    err = error_of('extends "skat"\ntalon {\n  split_if = yes\n}\n')
    assert (err.location.line, err.location.column) == (3, 3)
    assert "a 2-card talon cannot be split one card each among 3 hands" in err.message


def test_bout_deal_pattern_without_a_turned_up_trump_is_refused():
    """D2: a game of bouts turns up its trump card; a pattern with no `1 turnup` says so."""
    err = error_of('extends "durak"\ndeal {\n  pattern: 1 each 6 times, rest stock\n}\n')
    assert "turns up a trump card: add '1 turnup' to the deal pattern" in err.message
    assert (err.location.file, err.location.line) == ("house", 3)
