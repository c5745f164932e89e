"""Schafkopf (docs/rules/schafkopf.md SK1-SK60, `variants/schafkopf.rules`), played through
the public API.

The worked examples SK47-SK53 are played on their deals; the tariff (SK28-SK33, the
examples SK54-SK58) is restated here from the rules and compared with the engine's scores
over random deals, and two deals whose result the cards force are scored exactly. The
called ace's holder is the partner, and nobody else is told: the worlds a seat samples put
the partner wherever the ace may be.
"""

from __future__ import annotations

import collections
import random

import pytest
from conftest import refused_at, texts

import trickcore

SUITS = "EGHS"  # SK4: Eichel, Gras, Herz, Schellen, high to low
RANKS = ["A", "10", "K", "O", "U", "9", "8", "7"]
POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}  # SK3
SUIT_OF_GAME = {"eichel": "E", "gras": "G", "herz": "H", "schellen": "S"}


@pytest.fixture(scope="module")
def sk() -> trickcore.Variant:
    return trickcore.load_variant("schafkopf")


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def trump_order(game: str) -> list[str]:
    """SK5-SK7: the trumps of a game, highest first."""
    if game == "wenz":
        return [f"U{s}" for s in SUITS]
    trump = "H" if game.startswith("rufspiel") else SUIT_OF_GAME[game.split("_")[1]]
    return (
        [f"O{s}" for s in SUITS]
        + [f"U{s}" for s in SUITS]
        + [f"{r}{trump}" for r in ("A", "10", "K", "9", "8", "7")]
    )


def deal_on(sk: trickcore.Variant, hands: dict[int, list[str]], dealer: int = 0):
    return sk.new_deal(deck_order=sk.stack_deck(hands, dealer=dealer), dealer=dealer)


def declare(deal, joiners: list[int], game: str) -> None:
    """The round of joining (SK12) with only `joiners` saying `join`; the first of them
    declares `game` after the others (if any) pass in stage 2."""
    while deal.declarer < 0:
        seat = deal.to_act
        legal = texts(deal.legal_actions())
        if "join" in legal:
            deal.apply("join" if seat in joiners else "pass")
        else:
            deal.apply("hold" if "hold" in legal else "pass")
    deal.apply(game)


SK47_DECK = [r + s for s in SUITS for r in RANKS]


def test_sk47_the_deck_order_deals_two_rounds_of_four_from_forehand(sk):
    deal = sk.new_deal(deck_order=SK47_DECK, dealer=0)
    hands = {s: set(deal.observation(s).hand) for s in range(4)}
    assert hands[1] == {"AE", "10E", "KE", "OE", "AH", "10H", "KH", "OH"}
    assert hands[2] == {"UE", "9E", "8E", "7E", "UH", "9H", "8H", "7H"}
    assert hands[3] == {"AG", "10G", "KG", "OG", "AS", "10S", "KS", "OS"}
    assert hands[0] == {"UG", "9G", "8G", "7G", "US", "9S", "8S", "7S"}


@pytest.mark.parametrize(
    ("seat", "aces"),
    [
        (1, []),  # he holds EA and has no plain G or S card
        (2, ["rufspiel_eichel"]),  # E9 E8 E7, no EA: the Eichel-Sau (partner seat 1)
        (3, []),  # GA and SA his own, no plain Eichel card
        (0, ["rufspiel_gras", "rufspiel_schellen"]),  # his GU and SU are trumps
    ],
)
def test_sk48_which_aces_a_declarer_may_call(sk, seat, aces):
    deal = sk.new_deal(deck_order=SK47_DECK, dealer=0)
    for s in (1, 2, 3, 0):  # SK14: the only one who joins declares any game of class 1 up
        deal.apply("join" if s == seat else "pass")
    assert deal.to_act == seat
    offered = texts(deal.legal_actions())
    assert [o for o in offered if o.startswith("rufspiel")] == aces  # SK17
    assert "wenz" in offered and "solo_herz" in offered  # always possible


@pytest.mark.parametrize(
    ("hand", "aces"),
    [
        # his Schellen-Ober and -Unter are trumps: no plain Schellen card to call the Sau with
        (["US", "OS", "AE", "10E", "KE", "9E", "AG", "9G"], []),
        (["US", "8S", "AE", "10E", "KE", "9E", "AG", "9G"], ["rufspiel_schellen"]),
    ],
)
def test_sk17_an_ober_or_unter_of_the_suit_is_no_card_of_it_for_a_call(sk, hand, aces):
    deal = deal_on(sk, {1: hand})
    for s in (1, 2, 3, 0):
        deal.apply("join" if s == 1 else "pass")
    offered = texts(deal.legal_actions())
    assert [o for o in offered if o.startswith("rufspiel")] == aces  # SK17


def test_sk49_the_auction_in_two_stages_and_a_schellen_solo(sk):
    deal = sk.new_deal(deck_order=SK47_DECK, dealer=0)
    assert texts(deal.legal_actions()) == ["join", "pass"]
    for a in ("join", "pass", "join", "join"):  # SK12: seats 1, 2, 3, 0
        deal.apply(a)
    # SK15: holder seat 1 with class 1; seat 3 challenges with a higher class
    assert (deal.to_act, texts(deal.legal_actions())) == (3, ["bid 2", "bid 3", "pass"])
    deal.apply("bid 2")  # Wenz
    assert (deal.to_act, texts(deal.legal_actions())) == (1, ["hold", "pass"])
    deal.apply("hold")
    assert (deal.to_act, texts(deal.legal_actions())) == (3, ["bid 3", "pass"])
    deal.apply("bid 3")  # Farbsolo
    deal.apply("pass")  # seat 1 drops out
    assert (deal.to_act, texts(deal.legal_actions())) == (0, ["pass"])  # nothing higher
    deal.apply("pass")
    assert deal.to_act == 3
    # SK16: at least his class: only a Farbsolo
    assert texts(deal.legal_actions()) == ["solo_eichel", "solo_gras", "solo_herz", "solo_schellen"]
    deal.apply("solo_schellen")
    deal.apply("play OE")  # SK21: forehand leads, a trump
    assert set(texts(deal.legal_actions())) == {"play UE", "play UH"}  # seat 2's trumps
    deal.apply("play UE")
    # his trumps are GO, SO, SA, S10, SK
    assert set(texts(deal.legal_actions())) == {
        "play OG",
        "play OS",
        "play AS",
        "play 10S",
        "play KS",
    }


# SK50: seat 2 holds OE and 9E; in a Rufspiel the Ober is a trump, in a Wenz an Eichel card
SK50 = {
    1: ["10E", "KE", "9G", "AH", "10H", "KH", "8S", "7S"],
    2: ["OE", "9E", "AG", "10G", "KG", "8G", "7G", "9S"],
    3: ["AE", "UE", "8E", "7E", "OG", "UG", "OH", "UH"],
    0: ["9H", "8H", "7H", "AS", "10S", "KS", "OS", "US"],
}


def test_sk50_the_eichel_ober_is_a_trump_in_a_rufspiel(sk):
    deal = deal_on(sk, SK50)
    declare(deal, [1], "rufspiel_gras")
    deal.apply("play 10E")
    assert texts(deal.legal_actions()) == ["play 9E"]
    deal = deal_on(sk, SK50)
    declare(deal, [1], "rufspiel_gras")
    deal.apply("play AH")  # trumps led: his only trump
    assert texts(deal.legal_actions()) == ["play OE"]


def test_sk50_the_eichel_ober_follows_eichel_in_a_wenz(sk):
    deal = deal_on(sk, SK50)
    declare(deal, [1], "wenz")
    deal.apply("play 10E")
    assert set(texts(deal.legal_actions())) == {"play OE", "play 9E"}


def test_sk51_the_searched_ace_must_be_played(sk):
    deal = deal_on(sk, SK50)  # seat 2 holds AG, 10G, KG, 8G, 7G: the partner
    declare(deal, [1], "rufspiel_gras")
    deal.apply("play 9G")  # SK24 (a): Gras led by another, before it was ever led
    assert texts(deal.legal_actions()) == ["play AG"]


# SK52: the partner (seat 2) wins the first trick with OE and is on lead before Gras is led
def sk52(plain_gras: list[str]) -> dict[int, list[str]]:
    others = ["AE", "10E", "KE", "9E", "8E"][: 7 - len(plain_gras)]
    seat2 = ["OE", *plain_gras, *others]
    rest = [c for c in SK47_DECK if c not in seat2 and c not in ("9G", "7H")]
    seat1 = ["9G", "7H", *[c for c in rest if c[0] in "AK9" and suit(c) == "S"]]
    rest = [c for c in rest if c not in seat1]
    return {
        1: seat1 + rest[: 8 - len(seat1)],
        2: seat2,
        3: rest[8 - len(seat1) : 16 - len(seat1)],
        0: rest[16 - len(seat1) :],
    }


def test_sk52_running_away_with_four_cards_of_the_called_suit(sk):
    hands = sk52(["AG", "10G", "8G", "7G"])
    deal = deal_on(sk, hands)
    declare(deal, [1], "rufspiel_gras")
    deal.apply("play 7H")
    deal.apply("play OE")  # the highest trump: seat 2 wins
    for _ in range(2):
        deal.apply(deal.legal_actions()[0])
    assert deal.to_act == 2
    leads = texts(deal.legal_actions())
    assert "play 7G" in leads and "play AG" in leads  # SK24 (c): he may run away
    deal.apply("play 7G")
    for _ in range(3):
        deal.apply(deal.legal_actions()[0])
    # SK25: Gras has been led; the ace is free for the rest of the deal
    if deal.to_act == 2:
        assert "play 10G" in texts(deal.legal_actions())


def test_sk52_with_three_cards_of_the_called_suit_the_lead_must_be_the_ace(sk):
    hands = sk52(["AG", "10G", "8G"])
    deal = deal_on(sk, hands)
    declare(deal, [1], "rufspiel_gras")
    deal.apply("play 7H")
    deal.apply("play OE")
    for _ in range(2):
        deal.apply(deal.legal_actions()[0])
    leads = texts(deal.legal_actions())
    assert "play AG" in leads
    assert "play 10G" not in leads and "play 8G" not in leads


# SK53: the partner (seat 2) has no Eichel and no trump, and holds GA and G10; the other
# plain Gras cards are the declarer's
SK53 = {
    1: ["AE", "10E", "KE", "9G", "KG", "8G", "7G", "AH"],
    2: ["AG", "10G", "AS", "10S", "KS", "9S", "8S", "7S"],
    3: ["9E", "8E", "7E", "OE", "OG", "OH", "OS", "8H"],
    0: ["UE", "UG", "UH", "US", "10H", "KH", "9H", "7H"],
}


@pytest.mark.parametrize("seed", range(3))
def test_sk53_the_called_ace_is_not_discarded_before_the_last_trick(sk, seed):
    deal = deal_on(sk, SK53)
    declare(deal, [1], "rufspiel_gras")
    deal.apply("play AE")  # Eichel led
    assert "play AG" not in texts(deal.legal_actions())  # SK24 (b)
    assert "play 10G" in texts(deal.legal_actions())  # SK26: another Gras card may go
    deal.apply("play 10G")
    rng = random.Random(seed)
    plain_gras = {"play 9G", "play KG", "play 8G", "play 7G"}
    last = None
    while deal.phase != "over":
        legal = texts(deal.legal_actions())
        if deal.to_act == 2 and len(deal.hands[2]) == 1:
            last = legal
        choices = [a for a in legal if a not in plain_gras] or legal  # nobody leads Gras
        assert deal.trick or not set(choices) & plain_gras  # (so Gras is never led)
        deal.apply(rng.choice(choices))
    assert last == ["play AG"]  # in the 8th trick he plays it


def test_the_partner_is_whoever_holds_the_called_ace_and_nobody_is_told(sk):
    deal = sk.new_deal(deck_order=SK47_DECK, dealer=0)
    declare(deal, [2], "rufspiel_eichel")  # SK48: seat 1 holds the Eichel-Sau
    assert deal.side_of[1] == deal.side_of[2] != deal.side_of[3]
    deal.apply("play OH")
    rng = random.Random(1)
    while len(deal.tricks) < 2:
        legal = [a for a in texts(deal.legal_actions()) if a != "play AE"]
        deal.apply(rng.choice(legal or texts(deal.legal_actions())))
    ace = deal.game.card_texts.index("AE")
    assert ace in deal.hands[1]  # not shown yet
    seen = collections.Counter()
    for world in sk.sample_worlds(deal.observation(3), 30, rng=5):
        holder = next(s for s in range(4) if ace in world.start_hands[s])
        team = tuple(s for s in range(4) if world.side_of[s] == world.side_of[2])
        assert team == tuple(sorted((holder, 2)))  # SK19: the ace's holder is the partner
        seen[holder] += 1
    assert set(seen) == {0, 1}  # seat 3 cannot tell seat 1 from seat 0


def restated_scores(sk: trickcore.Variant, deal) -> list[int]:
    """SK28-SK33 restated over the played deal."""
    d = deal
    if d.declarer < 0:
        return [0, 0, 0, 0]  # SK20
    text = deal.game.card_texts
    (game,) = d.chosen
    ruf = game.startswith("rufspiel")
    party = {d.declarer}
    if ruf:
        ace = "A" + SUIT_OF_GAME[game.split("_")[1]]
        party.add(next(s for s in range(4) if text.index(ace) in d.start_hands[s]))
    points = tricks = 0
    for t in d.tricks:
        if t.winner in party:
            points += sum(POINTS[rank(text[c])] for _, c in t.cards)
            tricks += 1
    won = points >= 61  # SK28
    lost_points, lost_tricks = (120 - points, 8 - tricks) if won else (points, tricks)
    held = {text[c] for s in party for c in d.start_hands[s]}
    order = trump_order(game)
    run = next((i for i, c in enumerate(order) if (c in held) != (order[0] in held)), len(order))
    paid = run if run >= (2 if game == "wenz" else 3) else 0  # SK30, SK31
    v = (10 if ruf else 50) + 10 * (lost_points <= 30) + 10 * (lost_tricks == 0) + 10 * paid
    out = []
    for s in range(4):
        sign = 1 if (s in party) == won else -1
        out.append(sign * v * (3 if s == d.declarer and not ruf else 1))  # SK33
    assert sum(out) == 0  # SK34
    return out


def test_sk28_to_sk34_the_tariff_over_random_deals(sk):
    """Every game class, Schneider, Schwarz, Laufende with and without (SK54-SK58)."""
    rng = random.Random(11)
    kinds = collections.Counter()
    for seed in range(120):
        deal = sk.new_deal(seed=seed, dealer=seed % 4)
        while deal.phase != "over":
            legal = deal.legal_actions()
            if len(deal.tricks) == 0 and not deal.trick and deal.declarer < 0:
                joins = [a for a in legal if str(a) in ("join", "bid 2", "bid 3")]
                deal.apply(rng.choice(joins) if joins and rng.random() < 0.5 else legal[-1])
                continue
            deal.apply(rng.choice(legal))
        gains = list(deal.gains)
        assert gains == restated_scores(sk, deal)
        if deal.chosen:
            kinds[deal.chosen[0].split("_")[0]] += 1
    assert set(kinds) == {"rufspiel", "wenz", "solo"}


def test_a_farbsolo_with_the_eight_top_trumps_is_won_schwarz_with_8(sk):
    """SK32, SK33 (as SK57): V = 50 + 10 + 10 + 8 x 10 = 150; the declarer +450."""
    hands = {1: [f"O{s}" for s in SUITS] + [f"U{s}" for s in SUITS]}
    deal = deal_on(sk, hands)
    declare(deal, [1], "solo_eichel")
    rng = random.Random(0)
    while deal.phase != "over":
        deal.apply(rng.choice(deal.legal_actions()))
    assert list(deal.gains) == [-150, 450, -150, -150]


def test_a_rufspiel_lost_schwarz_without_8(sk):
    """SK56's tariff: the forehand opponent holds every Ober and Unter and wins every
    trick: V = 10 + 10 + 10 + 8 x 10 = 110 for each opponent, -110 for the player party."""
    hands = {
        1: [f"O{s}" for s in SUITS] + [f"U{s}" for s in SUITS],
        2: ["9E", "8E", "7E", "AH", "10H", "KH", "9H", "8H"],
        3: ["AE", "10E", "KE", "AG", "10G", "KG", "9G", "8G"],
    }
    deal = deal_on(sk, hands)
    declare(deal, [2], "rufspiel_eichel")  # the partner is seat 3
    rng = random.Random(0)
    while deal.phase != "over":
        deal.apply(rng.choice(deal.legal_actions()))
    assert list(deal.gains) == [110, 110, -110, -110]


def test_sk20_nobody_joins_the_deal_is_thrown_in_and_counts(sk):
    m = sk.new_match(seed=4)
    for _ in range(4):
        m.apply("pass")
    assert m.deals_played == 1 and m.scores == [0, 0, 0, 0]
    assert m.current.dealer == 1  # SK8: the next dealer deals


def test_side_if_cannot_be_written_beside_fixed_sides_or_a_partner_duty():
    base = 'extends "schafkopf"\n'
    refused_at(base + "sides: 0 2, 1 3\n", None, "'side_if' forms the sides")
    refused_at(
        base + "play {\n  trump_when_void = not partner_winning\n}\n",
        3,
        "'partner_winning' would tell a player who his partner is",
    )
    refused_at(
        'extends "skat"\nbidding {\n  style: calls\n  join: yes\n}\n',
        4,
        "'join' is a round of the auction in pairs",
    )


def sk47_declared(name: str, game: str, plays: tuple[str, ...] = ()):
    """SK47's deal in variant `name`: forehand (seat 1) alone joins and declares `game`;
    then these cards are played."""
    deal = trickcore.load_variant(name).new_deal(deck_order=SK47_DECK, dealer=0)
    declare(deal, [1], game)
    for card in plays:
        deal.apply(f"play {card}")
    return deal


def test_sk62_the_geier_has_only_the_ober_as_trumps():
    deal = sk47_declared("schafkopf-geier", "geier", ("OE",))
    assert len(deal.legal_actions()) == 8  # a trump led; seat 2 holds no Ober: any card
    solo = sk47_declared("schafkopf", "solo_herz", ("OE",))  # his Unter and hearts: trumps
    assert set(texts(solo.legal_actions())) == {
        "play UE",
        "play UH",
        "play 9H",
        "play 8H",
        "play 7H",
    }


def test_sk63_the_farbwenz_has_the_unter_and_a_suit_as_trumps():
    deal = sk47_declared("schafkopf-farbwenz", "farbwenz_herz", ("OE",))
    # the Ober is an Eichel card: seat 2 follows with a plain Eichel (his UE is a trump)
    assert set(texts(deal.legal_actions())) == {"play 9E", "play 8E", "play 7E"}


def test_sk64_the_bettel_is_lost_at_the_declarers_first_trick():
    # nobody beats the ace: the declarer wins the first trick
    deal = sk47_declared("schafkopf-bettel", "bettel", ("AE", "9E", "AG", "UG"))
    assert deal.phase == "over" and len(deal.tricks) == 1
    assert list(deal.gains) == [50, -150, 50, 50]  # V = 50 flat


def test_sk64_in_the_bettel_the_ten_ranks_below_the_unter():
    deal = sk47_declared("schafkopf-bettel", "bettel", ("10E", "UE", "AG", "UG"))
    assert deal.tricks[0].winner == 2  # UE beats 10E: the declarer took no trick
    assert deal.phase != "over"


def test_sk64_in_the_bettel_the_ace_ranks_above_the_king_ober_and_unter():
    bettel = trickcore.load_variant("schafkopf-bettel")
    hands = {1: ["UE"], 2: ["KE"], 3: ["OE"], 0: ["AE"]}
    deal = deal_on(bettel, hands)
    declare(deal, [1], "bettel")
    for card in ("UE", "KE", "OE", "AE"):
        deal.apply(f"play {card}")
    assert deal.tricks[0].winner == 0  # A above K above O above U: no trumps, no Ober order


def test_sk61_a_tout_is_lost_at_the_opponents_first_trick():
    deal = sk47_declared("schafkopf-tout", "solo_herz_tout", ("10E", "9E", "OG", "UG"))
    assert deal.tricks[0].winner == 3 and deal.phase == "over"  # play stops
    assert list(deal.gains) == [140, -420, 140, 140]  # V = 2 x (50 + 10 + 10), no Laufende


def test_sk61_a_tout_won_with_the_eight_top_trumps():
    tout = trickcore.load_variant("schafkopf-tout")
    deal = deal_on(tout, {1: [f"O{s}" for s in SUITS] + [f"U{s}" for s in SUITS]})
    declare(deal, [1], "solo_gras_tout")
    rng = random.Random(2)
    while deal.phase != "over":
        deal.apply(rng.choice(deal.legal_actions()))
    assert list(deal.gains) == [-300, 900, -300, -300]  # V = 2 x (70 + 8 x 10)


def test_sk35_kontra_and_re_are_offered_without_telling_who_the_partner_is():
    deal = trickcore.load_variant("schafkopf-kontra-re").new_deal(deck_order=SK47_DECK, dealer=0)
    declare(deal, [2], "rufspiel_eichel")  # the partner is seat 1 (SK48)
    assert (deal.to_act, texts(deal.legal_actions())) == (1, ["no_kontra"])  # asked all the same
    deal.apply("no_kontra")
    assert (deal.to_act, texts(deal.legal_actions())) == (3, ["kontra", "no_kontra"])
    deal.apply("kontra")  # the first Kontra ends the offers: seat 0 is not asked
    assert (deal.to_act, texts(deal.legal_actions())) == (1, ["re", "no_re"])
    deal.apply("no_re")
    assert (deal.to_act, texts(deal.legal_actions())) == (2, ["re", "no_re"])  # the declarer
    deal.apply("no_re")
    assert (deal.to_act, texts(deal.legal_actions())) == (0, ["no_re"])  # an opponent: only no
    deal.apply("no_re")
    assert deal.phase == "play"


@pytest.mark.parametrize(("answers", "factor"), [((), 1), (("kontra",), 2), (("kontra", "re"), 4)])
def test_sk37_sk59_kontra_doubles_the_value_and_re_doubles_it_again(answers, factor):
    """The same deal and play with and without the doublings (SK59: a plain Rufspiel worth
    10 is worth 40 with Kontra and Re)."""
    for seed in range(6):
        base = trickcore.load_variant("schafkopf").new_deal(seed=seed)
        doubled = trickcore.load_variant("schafkopf-kontra-re").new_deal(seed=seed)
        rng = random.Random(seed)
        while base.phase != "over":
            legal = texts(base.legal_actions())
            while doubled.to_act >= 0 and set(texts(doubled.legal_actions())) - set(legal):
                offered = texts(doubled.legal_actions())  # a Kontra or Re offer
                said = [a for a in answers if a in offered]
                doubled.apply(said[0] if said else offered[-1])
            action = rng.choice(legal if base.declarer >= 0 or "join" not in legal else ["join"])
            base.apply(action)
            doubled.apply(action)
        said = tuple(a for _, a in doubled.observation(0).log if a in ("kontra", "re"))
        assert said == answers  # everyone joined: there is always a game to double
        assert list(doubled.gains) == [factor * g for g in base.gains]
        assert any(base.gains)


def ramsch_scores(points: list[int], tricks: list[int]) -> list[int]:
    """SK40-SK42 restated: the most card points loses (ties: more tricks; still tied, all);
    each loser pays 10 to each other player, doubled for each Jungfrau; a Durchmarsch is
    paid 50 by each other player."""
    if 8 in tricks:
        return [150 if t == 8 else -50 for t in tricks]
    top = max(points)
    most_tricks = max(t for p, t in zip(points, tricks) if p == top)
    losers = [p == top and t == most_tricks for p, t in zip(points, tricks)]
    factor = 2 ** tricks.count(0)
    n = sum(losers)
    return [-10 * (4 - n) * factor if lost else 10 * n * factor for lost in losers]


def test_sk60_the_ramsch_worked_example():
    # seat 1 48, seat 2 40, seat 3 32, seat 0 nothing and no trick (by seat 0, 1, 2, 3)
    assert ramsch_scores([0, 48, 40, 32], [0, 3, 3, 2]) == [20, -60, 20, 20]
    # seats 1 and 2 on 44: seat 1, with more tricks, loses
    assert ramsch_scores([0, 44, 44, 32], [0, 3, 2, 3])[1:3] == [-60, 20]


def test_sk39_to_sk42_the_ramsch_is_played_when_all_pass():
    ramsch = trickcore.load_variant("schafkopf-ramsch")
    deal = ramsch.new_deal(deck_order=SK47_DECK, dealer=0)
    for _ in range(4):
        deal.apply("pass")
    deal.apply("play 10H")  # SK39: hearts are trumps after the Ober and Unter
    assert set(texts(deal.legal_actions())) == {
        "play UE",
        "play UH",
        "play 9H",
        "play 8H",
        "play 7H",
    }
    for seed in range(40):
        deal = ramsch.new_deal(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        for _ in range(4):
            deal.apply("pass")
        while deal.phase != "over":
            deal.apply(rng.choice(deal.legal_actions()))
        text = deal.game.card_texts
        points = [0] * 4
        for t in deal.tricks:
            points[t.winner] += sum(POINTS[rank(text[c])] for _, c in t.cards)
        assert list(deal.gains) == ramsch_scores(points, list(deal.tricks_won))


def knock_round(deal, knockers: tuple[int, ...]) -> None:
    """SK36: between the two rounds of the deal each player, from forehand, knocks or not."""
    while deal.phase == "decide":
        deal.apply("knock" if deal.to_act in knockers else "no_knock")


def test_sk36_knocks_come_between_the_two_rounds_of_the_deal():
    klopfen = trickcore.load_variant("schafkopf-klopfen")
    deal = klopfen.new_deal(deck_order=SK47_DECK, dealer=0)
    asked = []
    for _ in range(4):  # each from forehand, holding the first round only (positions 1-16)
        asked.append(deal.to_act)
        assert len(deal.observation(deal.to_act).hand) == 4
        assert texts(deal.legal_actions()) == ["knock", "no_knock"]
        deal.apply("knock" if deal.to_act == 2 else "no_knock")
    assert asked == [1, 2, 3, 0]
    assert ("2", "knock") in [(str(s), t) for s, t in deal.observation(0).log]  # public
    # SK9: the second round completes the same hands as the plain deal
    plain = trickcore.load_variant("schafkopf").new_deal(deck_order=SK47_DECK, dealer=0)
    assert all(
        sorted(deal.observation(s).hand) == sorted(plain.observation(s).hand) for s in range(4)
    )


@pytest.mark.parametrize("knockers", [(), (3,), (1, 0)])
def test_sk36_sk37_each_knock_doubles_the_payments(knockers):
    """The same deal and play with and without knocking: each knock doubles the deal."""
    for seed in range(5):
        base = trickcore.load_variant("schafkopf").new_deal(seed=seed)
        knocked = trickcore.load_variant("schafkopf-klopfen").new_deal(seed=seed)
        knock_round(knocked, knockers)
        rng = random.Random(seed)
        while base.phase != "over":
            legal = texts(base.legal_actions())
            action = rng.choice(legal if base.declarer >= 0 or "join" not in legal else ["join"])
            base.apply(action)
            knocked.apply(action)
        assert list(knocked.gains) == [2 ** len(knockers) * g for g in base.gains]
        assert any(base.gains)


def test_sk37_sk38_sk43_the_options_together():
    """SK37: knocks, Kontra and Re multiply; SK38: no Kontra or Re in a Ramsch; SK43: a
    Ramsch counts as a deal and knocks double its payments."""
    options = trickcore.load_variant("schafkopf-options")
    ramsch = trickcore.load_variant("schafkopf-ramsch")
    for seed in range(8):
        deal = options.new_deal(seed=seed)
        alone = ramsch.new_deal(seed=seed)
        knock_round(deal, (1,))
        rng = random.Random(seed)
        for _ in range(4):
            deal.apply("pass")
            alone.apply("pass")
        assert deal.phase == "play"  # SK38: nobody is offered Kontra
        while alone.phase != "over":
            action = rng.choice(texts(alone.legal_actions()))
            alone.apply(action)
            deal.apply(action)
        assert list(deal.gains) == [2 * g for g in alone.gains]  # SK43
    deal = options.new_deal(deck_order=SK47_DECK, dealer=0)
    plain = trickcore.load_variant("schafkopf").new_deal(deck_order=SK47_DECK, dealer=0)
    knock_round(deal, (3, 0))
    declare(deal, [2], "rufspiel_eichel")
    declare(plain, [2], "rufspiel_eichel")
    deal.apply("no_kontra")
    deal.apply("kontra")  # seat 3
    deal.apply("re")  # seat 1, the partner
    rng = random.Random(1)
    while plain.phase != "over":
        action = rng.choice(texts(plain.legal_actions()))
        plain.apply(action)
        deal.apply(action)
    assert list(deal.gains) == [2 ** (2 + 1 + 1) * g for g in plain.gains]  # SK37: x16


def test_sk65_when_all_pass_the_holder_of_the_eichel_ober_must_play():
    muss = trickcore.load_variant("schafkopf-muss")
    deal = muss.new_deal(deck_order=SK47_DECK, dealer=0)
    for _ in range(4):
        deal.apply("pass")
    assert deal.to_act == 1  # he holds the EO (SK47)
    offered = texts(deal.legal_actions())
    assert "wenz" in offered and "solo_herz" in offered  # any game he is allowed
    assert not [o for o in offered if o.startswith("rufspiel")]  # he can call no ace (SK48)
    deal.apply("solo_herz")
    assert deal.declarer == 1
    rng = random.Random(65)
    while deal.phase != "over":
        deal.apply(rng.choice(deal.legal_actions()))
    assert any(deal.gains) and sum(deal.gains) == 0  # scored normally, not thrown in
    # an auction with a declarer goes as in the base game
    auctioned = muss.new_deal(deck_order=SK47_DECK, dealer=0)
    declare(auctioned, [2], "rufspiel_eichel")
    assert auctioned.declarer == 2 and auctioned.phase == "play"


def _random_deals(variant: trickcore.Variant, seeds: range, rng: random.Random):
    """Deals played at random (a join half the time), as the tariff test plays them."""
    for seed in seeds:
        deal = variant.new_deal(seed=seed, dealer=seed % 4)
        while deal.phase != "over":
            legal = deal.legal_actions()
            if len(deal.tricks) == 0 and not deal.trick and deal.declarer < 0:
                joins = [a for a in legal if str(a) in ("join", "bid 2", "bid 3")]
                deal.apply(rng.choice(joins) if joins and rng.random() < 0.5 else legal[-1])
                continue
            deal.apply(rng.choice(legal))
        yield deal


def _party_points(deal) -> int:
    """The card points of the declarer's party (the declarer, and the called ace's holder)."""
    text = deal.game.card_texts
    (game,) = deal.chosen
    party = {deal.declarer}
    if game.startswith("rufspiel"):
        ace = "A" + SUIT_OF_GAME[game.split("_")[1]]
        party.add(next(s for s in range(4) if text.index(ace) in deal.start_hands[s]))
    return sum(POINTS[rank(text[c])] for t in deal.tricks if t.winner in party for _, c in t.cards)


def test_sk28_a_party_with_60_points_has_lost(sk):
    # SK28: 61 of the 120 points win; 60-60 is lost by the player party (a deal found among random
    # ones, scored as the tariff says)
    rng = random.Random(5)
    for deal in _random_deals(sk, range(3000), rng):
        if deal.declarer >= 0 and _party_points(deal) == 60:
            assert list(deal.gains) == restated_scores(sk, deal)
            assert deal.gains[deal.declarer] < 0
            return
    pytest.fail("no deal with a party of exactly 60 points among 3,000")


def test_sk62_geier_leaves_three_laufende_of_the_other_games_counted():
    # SK62: the Geier counts Laufende from 2, as the Wenz; a Rufspiel or a Farbsolo still
    # from 3 (SK30): a deal of the house rule whose party holds exactly 3 scores them
    geier = trickcore.load_variant("schafkopf-geier")
    rng = random.Random(8)
    for deal in _random_deals(geier, range(3000), rng):
        if deal.declarer < 0 or deal.chosen[0].split("_")[0] not in ("rufspiel", "solo"):
            continue
        text = deal.game.card_texts
        (game,) = deal.chosen
        party = {deal.declarer}
        if game.startswith("rufspiel"):
            ace = "A" + SUIT_OF_GAME[game.split("_")[1]]
            party.add(next(s for s in range(4) if text.index(ace) in deal.start_hands[s]))
        held = {text[c] for s in party for c in deal.start_hands[s]}
        order = trump_order(game)
        run = next(
            (i for i, c in enumerate(order) if (c in held) != (order[0] in held)), len(order)
        )
        if run == 3:
            assert list(deal.gains) == restated_scores(geier, deal)
            return
    pytest.fail("no Rufspiel or Farbsolo with exactly 3 Laufende among 3,000 deals")


def test_sk52_ober_and_unter_of_the_called_suit_are_no_cards_of_it_for_running_away(sk):
    """SK24 (c): the ace's holder runs away only with four cards of the called suit; its
    Ober and Unter are trumps, not cards of it (SK5): A, 10, K of Schellen with the Schellen
    Ober and Unter are three, so the ace is the only Schellen he may lead."""
    seat2 = ["OE", "AS", "10S", "KS", "OS", "US", "AE", "10E"]
    seat1 = ["9S", "7H", "AG", "10G", "KG", "9G", "8G", "7G"]
    rest = [c for c in SK47_DECK if c not in seat2 + seat1]
    hands = {1: seat1, 2: seat2, 3: rest[:8], 0: rest[8:]}
    deal = deal_on(sk, hands)
    declare(deal, [1], "rufspiel_schellen")
    deal.apply("play 7H")
    deal.apply("play OE")  # the highest trump: seat 2 wins the trick and leads
    for _ in range(2):
        deal.apply(deal.legal_actions()[0])
    assert deal.to_act == 2
    leads = texts(deal.legal_actions())
    assert "play AS" in leads and "play 10S" not in leads and "play KS" not in leads
