"""The checker restates the constructs of Oh Hell, Euchre and Bridge itself (spec 4): a deal
whose size follows the deal number, packets round the table, the rest of the deck out, a
missing turn-up; calls naming strains, `levels: none`, `bid_if`, `pass_if`, `rounds`,
`ends: first_bid`, `ends: passes N`, doubles, `declarer: first_to_name`, `first_caller`;
the pickup of the turned-up card; `trump: bid`, `sit_out_if`, `partner_plays_if`,
`cards_played`; the names of the contract (`doubled`, `side`, `dealer`, `bid_round`, ...)
and `div`, `pick`, `strain_is`; and what each seat may see of them. Small rules files
written here keep every invariant, and an engine broken in each of these places is caught,
each by the invariant it breaks. Rule numbers are those of docs/rules/oh-hell.md (O),
euchre.md (E) and bridge.md (B)."""

from __future__ import annotations

from pathlib import Path

import attrs

import trickcore
import trickcore.language.exprs
from trickcore.checking.verify import verify
from trickcore.engine.deal import Deal
from trickcore.engine.game import Game
from trickcore.engine.phases.auction import Auction
from trickcore.engine.phases.tricks import TrickPlay

# O3-O9 on a 12-card deck: the hand size rises with the deal number to div(12, players)
# and falls back; one card at a time; the next card turned for trump (none left with 4
# players at size 3: no trump, O7, O21), none either at the largest size (O42); the rest
# out; the dealer's hook (O9).
MINI_HELL = """
name: "Mini Oh Hell"
players: 3, 4, 5
deck {
  suits: clubs C, diamonds D, hearts H
  ranks: A, K, Q, J
}
deal {
  size = min(deal_number, 2 * div(deck_size, players) - deal_number)
  pattern: 1 each size times, 1 turnup, rest out
  flow: bids, tricks
}
bids {
  min: 0
  max = hand_size
  bid_if = not dealer or level + bids_total != hand_size
}
play {
  trump: turnup
  trump_if = size < div(deck_size, players)
  follow: yes
  first_leader: forehand
}
scoring {
  player = if tricks_won == tricks_bid then 10 + tricks_bid else 0
}
match {
  target: none
  end_if = deal_number >= 2 * div(12, players) - 1
  deal_limit: 7
}
after_deal {
  rule add: score = score + gain
}
"""

# E7-E18 on a 16-card deck: packets round the table, the up-card, the rest out; two rounds
# of calls (the up-card's suit first, then any other), the first call ends the auction;
# the dealer picks up after a first-round order-up and lays one card away; a lone maker's
# partner sits out; the called suit is trump, the jack of clubs above it (a bower).
MINI_EUCHRE = """
name: "Mini Euchre"
players: 4
sides: 0 2, 1 3
deck {
  suits: clubs C, diamonds D, hearts H, spades S
  ranks: A, K, Q, J
}
deal {
  pattern: 2 1 2 1 round, 1 2 1 2 round, 1 turnup, rest out
  flow: auction, pickup, tricks
}
bidding {
  strains: clubs, diamonds, hearts, spades
  levels: none
  qualifiers: alone
  pass: stays_in
  rounds: 2
  ends: first_bid
  bid_if = if call_round == 1 then bid_suit == turnup_suit else bid_suit != turnup_suit
  all_pass: redeal
}
pickup {
  who: dealer
  take_if = bid_round == 1
  lay_away: 1
}
play {
  trump: bid
  follow: yes
  first_leader: forehand
  sit_out_if = declarer_side and not declarer and bid_is(alone)
  trump_power = if card_in_trump_suit then 10 - rank_index else if card_is(JC) then 11 else 0
}
scoring {
  won = if declarer_side then tricks_won else 0
  made = sum_all(won)
  score_made = if made == 3 then (if bid_is(alone) then 4 else 2) else if made == 2 then 1 else 0
  declarer = score_made
  defender = if declarer_side then score_made else if made < 2 then 2 else 0
}
match {
  target: 10
  deal_limit: 200
}
after_deal {
  rule add: score = score + gain
}
"""

# B7-B19 on a 16-card deck: the dealer calls first; levels 1-3 in five strains (a house
# rule: after two bids a player may only bid notrump); double and redouble; three passes
# after a call end it, four passes at first pass it out (scored as
# it is); the first of the side to name the strain declares, the player after him leads;
# dummy's cards are played by the declarer and lie open from the first card on; the score
# reads the contract's names.
MINI_BRIDGE = """
name: "Mini Bridge"
players: 4
sides: 0 2, 1 3
deck {
  suits: clubs C, diamonds D, hearts H, spades S
  ranks: A, K, Q, J
}
deal {
  pattern: 1 each 4 times
  flow: auction, tricks
}
bidding {
  values: 1, 2, 3
  strains: clubs, diamonds, hearts, spades, notrump
  pass: stays_in
  ends: passes 3
  double: yes
  declarer: first_to_name
  first_caller: dealer
  bid_if = bids_made < 2 or strain_is(notrump)
  all_pass: played
}
play {
  trump: bid
  follow: yes
  first_leader: left_of_declarer
  partner_plays_if = declarer_side and not declarer
  open_hand_if = declarer_side and not declarer and cards_played > 0
}
scoring {
  vulnerable = pick(mod(deal_number - 1, 4) + side, 0, 1, 0, 1, 1) == 1
  taken = if declarer_side then sum_side(tricks_won) else tricks_total - sum_side(tricks_won)
  factor = if redoubled then 4 else if doubled then 2 else 1
  made = taken >= contract + 1
  base = factor * (if strain_is(notrump) then 3 else 2) * contract
  value = base + (if vulnerable then 5 else 0) + div(bid_round, 2) + (if dealer then 1 else 0)
  board = if contract == 0 then 0 else if made == declarer_side then value else 0
  declarer = board
  defender = board
}
match {
  target: none
  deal_limit: 4
}
after_deal {
  rule add: score = score + gain
}
"""

# A small auction in turns on the Bridge pattern, changed below one setting at a time.
CALLS = """
name: "Calls"
players: 4
sides: 0 2, 1 3
deck {
  suits: clubs C, diamonds D, hearts H, spades S
  ranks: A, K, Q, J
}
deal {
  pattern: 1 each 4 times
  flow: auction, tricks
}
bidding {
  values: 1, 2, 3
  strains: clubs, hearts, notrump
  pass: stays_in
  ends: passes 3
  all_pass: played
}
play {
  trump: bid
  follow: yes
}
scoring {
  declarer = tricks_won
  defender = tricks_won
}
match {
  target: none
  deal_limit: 3
}
after_deal {
  rule add: score = score + gain
}
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    """A rules file NAME.rules in the test's folder."""
    path = tmp_path / f"{name}.rules"
    path.write_text(text)
    return path


def _calls(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """The CALLS file with one setting changed."""
    assert old in CALLS
    return _write(tmp_path, name, CALLS.replace(old, new))


def _verdict(path: Path | str, examples: int = 30, matches: int = 0) -> str | None:
    """The invariant verify reports (None: none), never a refusal to check."""
    report = verify(path, examples=examples, matches=matches)
    assert not report.static_errors, report.static_errors
    if report.violation is None:
        return None
    assert report.violation.invariant != "not restated", report.violation.message
    return report.violation.invariant


def _message(path: Path | str, examples: int = 30, matches: int = 0) -> str:
    """What verify reports, in words (for a failing assertion)."""
    report = verify(path, examples=examples, matches=matches)
    return "" if report.violation is None else report.violation.message


# ---------------------------------------------------------------- the restatement is clean
def test_sized_deals_and_a_missing_turn_up_keep_every_invariant(tmp_path):
    """O3, O4, O6, O7, O9, O21: whole matches with 3, 4, 5 players deal 1, 2, ... cards as
    `size` says, turn the next card for trump or, with 4 players at size 3, none (a deal
    without trump), play the largest size without trump (O42, `trump_if`), leave the rest
    out (seen by nobody), and keep the dealer's hook."""
    path = _write(tmp_path, "mini-hell", MINI_HELL)
    assert _verdict(path, examples=30, matches=3) is None, _message(path, 30, 3)


def test_euchre_calls_pickup_and_a_lone_maker_keep_every_invariant(tmp_path):
    """E7, E8, E10-E18, E27, E28: packets round the table, calls naming a suit (only the
    up-card's in round 1, any other in round 2), the first call ending the auction, two
    rounds of passes throwing the deal in, the dealer's pickup and discard (seen by him
    alone), a lone maker's partner sitting out (his hand seen by nobody, tricks of three,
    the next player leading in his place), the called suit as trump."""
    path = _write(tmp_path, "mini-euchre", MINI_EUCHRE)
    assert _verdict(path, examples=60, matches=1) is None, _message(path, 60, 1)


def test_bridge_calls_doubles_and_dummy_keep_every_invariant(tmp_path):
    """B7-B19, B24-B31 in small: the dealer calls first, bids rank by level then strain,
    double and redouble only against an opponent's last call, three passes end it, four
    pass it out; the declarer is the first of his side to name the strain, the player on
    his left leads; he plays dummy's cards (`playing_for`), which lie open once the first
    card is played; `bid_if` reads `bids_made`; the score reads `doubled`, `redoubled`,
    `side`, `dealer`, `bid_round`, `strain_is`, `pick` and `div`."""
    path = _write(tmp_path, "mini-bridge", MINI_BRIDGE)
    assert _verdict(path, examples=60, matches=2) is None, _message(path, 60, 2)


def test_stick_the_dealer_pass_if_keeps_every_invariant(tmp_path):
    """E44 (stick the dealer): `pass_if` takes pass away from the dealer in the second
    round, so that he must name a suit; the checker offers exactly the calls left."""
    _write(tmp_path, "mini-euchre", MINI_EUCHRE)
    path = _write(
        tmp_path,
        "mini-euchre-stick",
        'extends "./mini-euchre.rules"\n'
        "bidding {\n  pass_if = not (dealer and call_round == 2)\n}\n",
    )
    assert _verdict(path, examples=40) is None, _message(path, 40)


def test_the_declarer_taking_the_turn_up_keeps_every_invariant(tmp_path):
    """A pickup by the declarer (`who: declarer`) whenever he bid in round 2, not only the
    dealer, laying a card away: his hand, the card laid away and what the others see of it
    follow the actions."""
    _write(tmp_path, "mini-euchre", MINI_EUCHRE)
    path = _write(
        tmp_path,
        "mini-euchre-declarer-picks",
        'extends "./mini-euchre.rules"\npickup {\n  who: declarer\n  take_if = bid_round == 2\n}\n',
    )
    assert _verdict(path, examples=60) is None, _message(path, 60)


# ---------------------------------------------------------------- the spec, where it is exact
def test_rounds_bound_the_calls_even_after_a_bid(tmp_path):
    """spec 4 `rounds: N`: each player calls at most N times. With one round, a bid made
    and three calls after it, the fourth call ends the auction (the last bidder declares)
    even though three passes have not followed the bid."""
    path = _calls(tmp_path, "one-round", "  ends: passes 3\n", "  ends: passes 3\n  rounds: 1\n")
    assert _verdict(path) is None, _message(path)


def test_nobody_bidding_ends_once_every_player_passed(tmp_path):
    """B14 and spec 4 `ends: passes N`: while nobody has bid, the auction ends (all passed)
    once every player passed once, even when N is more than the players. Here no bid is
    allowed in the first round, so every auction starts with four passes and ends there."""
    path = _calls(
        tmp_path,
        "five-passes",
        "  ends: passes 3\n",
        "  ends: passes 5\n  bid_if = call_round > 1\n",
    )
    assert _verdict(path) is None, _message(path)


def test_a_first_leader_who_sits_out_leaves_the_lead_to_the_next_player(tmp_path):
    """E17 and spec 4 `sit_out_if`: the first leader, if he sits out, is the next player
    (in deal order from him) who does not. Here the declarer leads and sits out: the
    player after him leads, not the first player of the deal."""
    path = _calls(
        tmp_path,
        "declarer-out",
        "  trump: bid\n",
        "  trump: bid\n  first_leader: declarer\n  sit_out_if = declarer\n",
    )
    assert _verdict(path) is None, _message(path)


def test_nobody_plays_for_another_outside_trick_play(tmp_path):
    """spec 4 `Observation.playing_for`: the seat whose hand the player to act plays from,
    None when his own. A decision asked of every player at the end of the deal is his
    own: nobody plays for the last trick's winner then."""
    boast = "decision boast {\n  at: end\n  offer_if = yes\n  rule said: boasted = yes\n}\n"
    path = _calls(tmp_path, "boast", "scoring {\n", boast + "scoring {\n")
    path.write_text(path.read_text().replace("  flow:", "  keep: boasted no\n  flow:"))
    assert _verdict(path) is None, _message(path)


# ---------------------------------------------------------------- a broken engine is caught
def test_a_wrong_deal_size_is_caught(monkeypatch, tmp_path):
    """O4: deal k has k cards each (from deal 1 on); an engine that deals one card more in
    every deal is caught by the hands the checker deals itself."""
    path = _write(tmp_path, "mini-hell", MINI_HELL)
    original = Game.deal_size

    def one_more(self, context, players):
        return original(self, context, players) + 1

    monkeypatch.setattr(Game, "deal_size", one_more)
    assert _verdict(path) == "cards"


def test_a_wrong_div_is_caught(monkeypatch, tmp_path):
    """O3: the largest hand is the whole number part of the deck size over the players
    (`div`, evaluated by the checker); an engine whose div rounds up deals the wrong hand
    sizes (with 5 players the largest hand is 2, not 3) or plays the wrong deals without
    trump (O42)."""
    path = _write(tmp_path, "mini-hell", MINI_HELL)
    funcs = trickcore.language.exprs._NUMERIC_FUNCS
    lo, hi, _, help_text = funcs["div"]
    monkeypatch.setitem(funcs, "div", (lo, hi, lambda x, m: -(-x // m), help_text))
    assert _verdict(path, examples=10, matches=3) in ("cards", "trump", "match end", "error")


def test_cards_left_out_leaking_is_caught(monkeypatch, tmp_path):
    """O7, O19, E28: the cards left out (`rest out`) are seen by nobody; an observation that
    gives one away is caught by the information check."""
    path = _write(tmp_path, "mini-hell", MINI_HELL)
    original = Deal._observe

    def leaky(self, seat):
        obs = original(self, seat)
        return attrs.evolve(obs, contract=obs.contract + min(self.out, default=0))

    monkeypatch.setattr(Deal, "_observe", leaky)
    assert _verdict(path) == "no leak"


def test_bid_if_ignored_is_caught(monkeypatch, tmp_path):
    """E10, E14: in round 1 only the up-card's suit may be called, in round 2 any other
    (`bid_if`, evaluated by the checker); an engine offering every suit is caught."""
    path = _write(tmp_path, "mini-euchre", MINI_EUCHRE)
    monkeypatch.setattr(Auction, "legal", lambda self, deal: self._calls(deal))
    assert _verdict(path) == "auction"


def test_doubling_a_partner_is_caught(monkeypatch, tmp_path):
    """B11, B40: a double is legal only against an opponent's bid; an engine that also lets
    a player double his partner's bid is caught."""
    path = _write(tmp_path, "mini-bridge", MINI_BRIDGE)
    original = Auction._doubles

    def any_side(self, deal, seat):
        found = original(self, deal, seat)
        last = [a for _, a in deal.bids if a.kind != "pass"]
        if not found and last and last[-1].kind == "bid" and deal.doubled == 0:
            return [self.game.actions.double]
        return found

    monkeypatch.setattr(Auction, "_doubles", any_side)
    assert _verdict(path, examples=40) == "auction"


def test_last_bidder_declaring_instead_of_the_first_to_name_is_caught(monkeypatch, tmp_path):
    """B16, B55: the declarer is the player of the last bidder's side who first bid the
    contract's strain; an engine that makes the last bidder declarer is caught (the player
    after the declarer leads, so the turn goes to the wrong seat)."""
    path = _write(tmp_path, "mini-bridge", MINI_BRIDGE)

    def last_bidder(self, deal):
        deal.declarer = deal.high_bidder
        deal.contract = deal.high[0]
        deal.qualifier = self.game.qualifiers[deal.high[1]]
        deal.next_phase()

    monkeypatch.setattr(Auction, "_declare", last_bidder)
    assert _verdict(path, examples=60) in ("turn", "phases")


def test_a_lone_makers_partner_playing_is_caught(monkeypatch, tmp_path):
    """E16, E18: a lone maker's partner sits out and is offered nothing; an engine where he
    plays anyway is caught (he is shown as playing, and the turn comes to him)."""
    path = _write(tmp_path, "mini-euchre", MINI_EUCHRE)
    start = TrickPlay.start

    def nobody_out(self, deal):
        self.sit_out_if = None
        return start(self, deal)

    monkeypatch.setattr(TrickPlay, "start", nobody_out)
    assert _verdict(path, examples=60) in ("turn", "phases", "view")


def test_dummy_choosing_his_own_cards_is_caught(monkeypatch, tmp_path):
    """B19, B56: dummy makes no decision; his cards are offered to the declarer. An engine
    that asks dummy himself is caught by the seat to act."""
    path = _write(tmp_path, "mini-bridge", MINI_BRIDGE)
    monkeypatch.setattr(Game, "partner_of", lambda self, seat, seats: seat)
    assert _verdict(path) == "turn"


def test_dummy_shown_before_the_opening_lead_is_caught(monkeypatch, tmp_path):
    """B18, B36: dummy's hand lies open once the opening lead is played (`cards_played >
    0`), not before; an engine that counts one card too many shows it before the lead."""
    path = _write(tmp_path, "mini-bridge", MINI_BRIDGE)
    original = Deal.open_env

    def early(self, seat):
        env = original(self, seat)
        env["cards_played"] = env["cards_played"] + 1
        return env

    monkeypatch.setattr(Deal, "open_env", early)
    assert _verdict(path) == "view"


def test_the_called_suit_not_made_trump_is_caught(monkeypatch, tmp_path):
    """B22, E11: the contract's strain is trump (`trump: bid`); an engine that plays every
    contract without trump is caught by the trump recorded with the tricks."""
    path = _write(tmp_path, "mini-bridge", MINI_BRIDGE)
    monkeypatch.setattr(Game, "strain_suit", lambda self, call: -1)
    assert _verdict(path) == "trump"


def test_a_wrong_pick_is_caught(monkeypatch, tmp_path):
    """B5: vulnerability by board from a table (`pick(i, ...)`, evaluated by the checker);
    an engine whose pick is off by one scores the wrong boards."""
    path = _write(tmp_path, "mini-bridge", MINI_BRIDGE)
    funcs = trickcore.language.exprs._NUMERIC_FUNCS
    lo, hi, _, help_text = funcs["pick"]

    def shifted(i, *values):
        return values[min(max(i + 1, 0), len(values) - 1)]

    monkeypatch.setitem(funcs, "pick", (lo, hi, shifted, help_text))
    assert _verdict(path, examples=60) == "deal score"


def test_a_contract_said_without_its_double_is_caught(monkeypatch, tmp_path):
    """B15: the contract is the last bid, doubled or redoubled; an engine whose
    `contract_text` leaves the double out is caught by the view."""
    path = _write(tmp_path, "mini-bridge", MINI_BRIDGE)
    original = Deal.contract_text

    def undoubled(self):
        text = original(self)
        return text if text is None else text.replace(" redoubled", "").replace(" doubled", "")

    monkeypatch.setattr(Deal, "contract_text", undoubled)
    assert _verdict(path, examples=60) == "view"


def test_the_up_card_forgotten_after_the_pickup_is_caught(monkeypatch, tmp_path):
    """E27: the up-card is seen by all and stays known after it is picked up (until play
    starts, spec 4); an engine whose observation shows no turn-up during the auction is
    caught."""
    path = _write(tmp_path, "mini-euchre", MINI_EUCHRE)
    original = Deal._observe

    def hidden(self, seat):
        return attrs.evolve(original(self, seat), turnup=None)

    monkeypatch.setattr(Deal, "_observe", hidden)
    assert _verdict(path) == "view"


def test_the_sitting_out_list_shown_wrong_is_caught(monkeypatch, tmp_path):
    """E16: who sits out is public (Observation.sitting_out); an engine that shows nobody
    sitting out while a lone maker's partner does is caught."""
    path = _write(tmp_path, "mini-euchre", MINI_EUCHRE)
    original = Deal._observe

    def nobody(self, seat):
        return attrs.evolve(original(self, seat), sitting_out=())

    monkeypatch.setattr(Deal, "_observe", nobody)
    assert _verdict(path, examples=60) == "view"


# ---------------------------------------------------------------- the shipped games
def test_oh_hell_euchre_and_bridge_keep_every_invariant():
    """O1-O36, E1-E43, B1-B56 as the shipped files write them: random deals and a whole
    match of each keep every invariant the checker restates (none refused as "not
    restated")."""
    for variant in ("oh-hell", "euchre", "bridge"):
        trickcore.load_variant(variant)  # it compiles
        report = verify(variant, examples=20, matches=1)
        assert report.ok, (variant, report.static_errors, report.violation)
