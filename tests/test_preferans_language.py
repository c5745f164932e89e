"""The general constructs Preferans brought into the language, outside Preferans: what they
do in other rules, and the errors (file:line:column) for their misuse.

- `named_strain(S)` in `bidding.bid_if` and `contract.raise_if`;
- `contract { raise_if = ... }`: naming a higher contract of the bid ladder after the talon;
- `choice`: `offer_if`, `first_asked`, `own: yes` (options that are each player's own
  values), an option offered by several choices;
- `play`: `talon_leads: yes`, `skip_if` (no trick is played), `count_all` and the other
  aggregates (and `strain_is`) in `open_hand_if` / `stop_if` / `partner_plays_if`, and the
  other defender as the partner without `sides:`;
- scoring: the name `seat` and `seat_left(k, x)`; `mod(x, m)` with a worked-out m.
"""

from __future__ import annotations

import pytest

import trickcore
from trickcore.language.errors import RulesError


def compile_text(text: str):
    return trickcore.variant_from_text(text, "house")


def error_of(text: str) -> RulesError:
    with pytest.raises(RulesError) as info:
        compile_text(text)
    return info.value


def where(err: RulesError) -> tuple[int, int]:
    assert err.location is not None
    return err.location.line, err.location.column


def assert_error(text: str, at: tuple[int, int], fragment: str) -> None:
    """Compiling `text` fails at `at` (line, column) with a message that says `fragment`."""
    err = error_of(text)
    assert (where(err), fragment in err.message) == (at, True), err.message


def finish(m):
    n = m.deals_played
    while m.deals_played == n:
        m.apply(m.legal_actions()[0])


# ---------------------------------------------------------------- named_strain, raise_if
BRIDGE_RAISE = """extends "bridge"
bidding {
  bid_if = not (strain_is(notrump) and named_strain(notrump))
}
"""


def test_named_strain_in_bid_if_reads_the_players_own_bids():
    v = compile_text(BRIDGE_RAISE)
    m = v.new_match(seed=1)
    m.apply("bid 1 notrump")  # seat 0 (the dealer calls first)
    assert "bid 2 notrump" in [str(a) for a in m.legal_actions()]  # another player may
    m.apply("pass")
    m.apply("bid 2 clubs")
    m.apply("pass")
    legal = [str(a) for a in m.legal_actions()]  # seat 0 named notrump before: no more
    assert m.to_act == 0 and "bid 2 notrump" not in legal and "bid 2 diamonds" in legal


def test_named_strain_errors():
    assert_error(
        'extends "bridge"\nbidding {\n  bid_if = named_strain(misere)\n}\n', (3, 25), "strain"
    )
    assert_error(
        'extends "bridge"\nscoring {\n  x = if named_strain(hearts) then 1 else 0\n}\n',
        (3, 10),
        "named_strain() means nothing in scoring",
    )


def test_raise_if_names_a_higher_contract_after_the_talon():
    text = """extends "preferans"
contract {
  raise_if = level <= contract + 1 and not strain_is(misere)
}
"""
    v = compile_text(text)
    m = v.new_match(seed=2)
    for a in ("bid 6 hearts", "pass", "pass"):
        m.apply(a)
    m.apply(m.legal_actions()[0])
    m.apply(m.legal_actions()[0])
    named = [str(a) for a in m.legal_actions()]
    assert named[0] == "keep contract" and "bid 7 notrump" in named
    assert not any(t.startswith("bid 8") or t.startswith("bid 6 spades") for t in named)
    m.apply("bid 7 spades")
    assert m.current.contract == 7 and m.observation(0).trump == "spades"


def test_raise_if_errors():
    assert_error(
        'extends "tysiacha"\ncontract {\n  raise_if = level > 0\n}\n', (3, 3), "needs 'strains:'"
    )
    assert_error('extends "preferans"\ncontract {\n  raise_if = level\n}\n', (3, 14), "yes/no")
    assert_error(
        'extends "preferans"\ncontract {\n  raise_if = tricks_won > 0\n}\n', (3, 14), "tricks_won"
    )


# ---------------------------------------------------------------- choices
OWN = """extends "tysiacha"
choice ready {
  at: before tricks
  who: defenders
  first_asked: left_of_declarer
  own: yes
  offer_if = hand_size >= 8
  options: eager, calm
  calm_if = count_all(eager) > 0
}
scoring {
  defender = if eager then 7 else 3
}
"""


def test_own_options_are_the_choosers_values_asked_from_the_declarers_left():
    v = compile_text(OWN)
    m = v.new_match(seed=4)
    m.apply("bid 100")
    while m.current.phase == "bid":
        m.apply("pass")
    declarer = m.current.declarer
    while m.current.phase != "decide":
        m.apply(m.legal_actions()[0])
    first = m.to_act
    assert first == (declarer + 1) % 3
    assert [str(a) for a in m.legal_actions()] == ["eager"]  # calm only after an eager
    m.apply("eager")
    assert [str(a) for a in m.legal_actions()] == ["eager", "calm"]
    m.apply("calm")
    deal = m.current
    finish(m)
    gains = deal.gains
    assert gains[first] == 7 and gains[(declarer + 2) % 3] == 3  # his own value only


def test_choice_offer_if_skips_players():
    v = compile_text(OWN.replace("hand_size >= 8", "hand_size >= 99"))
    m = v.new_match(seed=4)
    m.apply("bid 100")
    while m.current.phase == "bid":
        m.apply("pass")
    while m.deals_played == 0:
        assert m.current.phase != "decide"
        m.apply(m.legal_actions()[0])


def test_choice_errors():
    assert_error(
        OWN.replace("  own: yes\n", "  own: yes\n  trump: eager spades\n"),
        (7, 3),
        "cannot set the deal's trump",
    )
    assert_error(
        OWN.replace("options: eager, calm", "options: eager, eager"), (8, 19), "named twice"
    )
    assert_error(
        OWN.replace("  own: yes\n", "  owner: yes\n"), (6, 3), "first_asked, offer_if, own"
    )
    assert_error(OWN.replace("hand_size >= 8", "hand_size"), (7, 14), "yes/no")
    assert_error(
        OWN.replace("first_asked: left_of_declarer", "first_asked: dealer"),
        (5, 16),
        "left_of_declarer",
    )


def test_an_option_may_be_offered_by_two_choices():
    text = (
        OWN
        + """choice again {
  at: before tricks
  who: declarer
  own: yes
  options: eager, sleepy
}
"""
    )
    v = compile_text(text)
    m = v.new_match(seed=4)
    m.apply("bid 100")
    while m.current.phase == "bid":
        m.apply("pass")
    asked = []
    while m.deals_played == 0:
        if m.current.phase == "decide":
            asked.append([str(a) for a in m.legal_actions()])
        m.apply(m.legal_actions()[0])
    assert asked[-1] == ["eager", "sleepy"]


# ---------------------------------------------------------------- play
def test_talon_leads_needs_a_talon():
    assert_error('extends "bridge"\nplay {\n  talon_leads: yes\n}\n', (3, 3), "needs a talon")


def test_talon_leads_in_a_tysiacha_all_pass():
    """A Tysiacha where nobody has to open and an all-pass is played with the talon's three
    cards leading the first three tricks (no declarer, no talon phase)."""
    text = """extends "tysiacha"
bidding {
  forced_opening: no
  all_pass: play_on
}
play {
  first_leader: forehand
  talon_leads: yes
}
"""
    v = compile_text(text)
    m = v.new_match(seed=5)
    for _ in range(3):
        m.apply("pass")
    deal = m.current
    rest = list(deal.talon)  # the first talon card leads the trick in play now
    assert len(rest) == 2 and deal.trick[0][0] == -1 and m.to_act == deal.active[0]
    finish(m)
    from_talon = [t for t in deal.tricks if t.leader == -1]
    assert len(from_talon) == 3 and [t.cards[0][1] for t in from_talon][1:] == rest
    assert len(deal.tricks) == 7 + 0 and all(len(t.cards) == 4 for t in from_talon)
    assert sum(deal.tricks_won) == 7 - sum(1 for t in from_talon if t.winner == -1)


def test_skip_if_ends_the_deal_before_the_first_trick():
    text = """extends "bridge"
play {
  skip_if = contract == 7
}
"""
    v = compile_text(text)
    m = v.new_match(seed=1)
    for a in ("bid 7 notrump", "pass", "pass", "pass"):
        m.apply(a)
    assert m.deals_played == 1 and m.deal_results[-1]["contract"] == 7


def test_aggregates_and_strains_in_open_hand_if():
    text = """extends "bridge"
play {
  open_hand_if = count_all(declarer) > 0 and strain_is(notrump) and not declarer_side
}
"""
    v = compile_text(text)
    m = v.new_match(seed=1)
    for a in ("bid 1 notrump", "pass", "pass", "pass"):
        m.apply(a)
    assert {s for s, _ in m.observation(0).open_hands} == {1, 3}
    assert_error(
        'extends "bridge"\nplay {\n  stop_if = seat_left(1, tricks_won) > 0\n}\n',
        (3, 13),
        "seat_left() means nothing in play",
    )


def test_the_other_defender_plays_without_sides():
    """Tysiacha with the defender on the declarer's right playing for the other one."""
    text = """extends "tysiacha"
play {
  partner_plays_if = not declarer and tricks_played < 2
}
"""
    v = compile_text(text)
    m = v.new_match(seed=3)
    m.apply("bid 100")
    while m.current.phase == "bid":
        m.apply("pass")
    while m.current.phase != "play":
        m.apply(m.legal_actions()[0])
    deal = m.current
    d = deal.declarer
    defenders = [s for s in deal.active if s != d]
    m.apply(m.legal_actions()[0])  # the declarer leads
    assert deal.turn == defenders[0] and m.to_act == defenders[1]
    assert m.observation(m.to_act).playing_for == defenders[0]


# ---------------------------------------------------------------- scoring: seat, seat_left
SEATED = """extends "hearts"
scoring {
  left_points = seat_left(1, card_points)
  player = 100 * seat + left_points - card_points + mod(seat + 1, players) * 0
}
"""


def test_seat_and_seat_left_in_scoring():
    v = compile_text(SEATED)
    m = v.new_match(seed=1)
    deal = m.current
    finish(m)
    points = deal.card_points
    n = len(points)
    assert deal.gains == [100 * s + points[(s + 1) % n] - points[s] for s in range(n)]


def test_seat_left_errors():
    assert_error(
        SEATED.replace("seat_left(1, card_points)", "seat_left(1, 2 + card_points)"),
        (3, 30),
        "takes the name of a quantity",
    )
    assert_error(
        SEATED.replace("seat_left(1, card_points)", "seat_left(card_points)"),
        (3, 17),
        "wrong number of arguments",
    )
    assert_error(
        SEATED.replace("seat_left(1, card_points)", "seat_left(yes, card_points)"),
        (3, 27),
        "number",
    )


def test_mod_with_a_worked_out_divisor():
    v = compile_text('extends "hearts"\nscoring {\n  player = mod(card_points, players)\n}\n')
    m = v.new_match(seed=2)
    deal = m.current
    finish(m)
    assert deal.gains == [p % 4 for p in deal.card_points]
    assert_error(
        'extends "hearts"\nscoring {\n  player = mod(card_points, -1)\n}\n', (3, 29), "positive"
    )


# ---------------------------------------------------------------- the checker restates them
def test_verify_is_clean_and_catches_a_talon_card_that_wins(monkeypatch, tmp_path):
    """The checker's own restatement of `talon_leads`: an engine in which the talon card
    itself competes for its trick (a trick it heads goes to nobody) is caught (on
    Preferans where nearly every deal is an all-pass: a bid needs four aces)."""
    from conftest import found, house_rule

    from trickcore.engine.phases.trick_winner import TrickWinners

    path = house_rule(
        tmp_path,
        "all-pass",
        'extends "preferans"\nbidding {\n  bid_if = count_rank(A) == 4\n}\n',
    )
    assert found(path) is None

    def wrong(self, deal):
        winner = self.trick(deal)  # the talon card (seat -1) competes
        return winner

    monkeypatch.setattr(TrickWinners, "talon_trick", wrong)
    assert found(path) is not None


def test_a_talon_trick_nobody_follows_is_nobodys():
    """Tysiacha dealt with a talon of six: all six spades lie in it, nobody can follow, and
    every trick (all led from the talon) belongs to nobody."""
    text = """extends "tysiacha"
deal {
  pattern: 1 each 6 times, 6 talon
}
talon {
  give_each_defender: 0
  lay_away: 6
}
bidding {
  forced_opening: no
  all_pass: play_on
}
play {
  first_leader: forehand
  talon_leads: yes
}
"""
    v = compile_text(text)
    others = [r + s for s in "CDH" for r in ("A", "10", "K", "Q", "J", "9")]
    spades = [r + "S" for r in ("A", "10", "K", "Q", "J", "9")]
    m = v.new_match(deck_orders=[others + spades])
    for _ in range(3):
        m.apply("pass")
    deal = m.current
    finish(m)
    assert len(deal.tricks) == 6 and all(t.winner == -1 for t in deal.tricks)
    assert deal.tricks_won == [0, 0, 0]
    assert [v.model.deck.card_text(t.cards[0][1]) for t in deal.tricks] == spades


def test_verify_catches_an_own_option_made_public(monkeypatch):
    """An engine that makes an `own: yes` option true for everybody is caught."""
    from conftest import found

    import trickcore.engine.phases.turns as turns

    def public(deal, option, trump):
        deal.chosen = (*deal.chosen, option)
        for seat in range(deal.seats):
            deal.context[seat][option] = True

    real = turns.answer_decision

    def wrong(game, deal, action):
        if action.kind == "choose":
            public(deal, action.text, -1)
        real(game, deal, action)

    monkeypatch.setattr(turns, "answer_decision", wrong)
    assert found("preferans", examples=60) is not None
