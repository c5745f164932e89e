"""Hidden worlds consistent with what a seat knows: `Variant.sample_worlds`."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trickcore
from trickcore import TrickcoreError
from trickcore.engine.worlds import WorldSampler, WorldsError
from trickcore.players import Turn, make_bot

# one variant of every kind: trick games, a stock drawn from, talons given and laid away,
# passing, partnerships and dummy, sitting out alone, contract bids, games of bouts
KINDS = [
    "tysiacha",
    "sixty-six",
    "russisch-schnapsen",
    "skat",
    "hearts",
    "spades",
    "bridge",
    "euchre",
    "euchre-assist-alone",
    "oh-hell",
    "durak",
]


@pytest.fixture(scope="module")
def variants() -> dict[str, trickcore.Variant]:
    return {name: trickcore.load_variant(name) for name in KINDS}


def _played(variant: trickcore.Variant, seed: int, steps: int, players: int | None = None):
    """A match after `steps` random actions (the deal it is in)."""
    rng = random.Random(seed)
    match = variant.new_match(seed=seed, players=players)
    for _ in range(steps):
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    return match


def _replayed(variant: trickcore.Variant, world):
    """The world rebuilt from its deck order and its history: every action must be legal."""
    deal = variant.make_deal(list(world.deck_order), world.dealer, world.seats, world.context)
    for _, action in world.history:
        deal.apply(action.text)
    return deal


def _same_view(view, obs) -> bool:
    return attrs.evolve(view, scores=obs.scores, kept=obs.kept) == obs


# a bound for a hang only (2 s idle in the ci profile, 30 s in the thorough one): far beyond
# what a slow, busy machine takes
@pytest.mark.timeout(1800)
@settings(derandomize=True)  # the same examples every run: a slow draw never surprises CI
@given(
    name=st.sampled_from(KINDS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    seat=st.integers(0, 6),
)
def test_worlds_replay_to_the_same_view(variants, name, seed, steps, seat):
    variant = variants[name]
    match = _played(variant, seed, steps)
    if match.is_over:
        return
    seat %= match.seats
    obs = match.observation(seat)
    if variant.model.bouts is not None:
        # known limitation: in games of bouts (a trump swap, many players) the first
        # consistent deal is not always found: a clear error then, never a wrong world
        try:
            worlds = variant.sample_worlds(obs, 4, random.Random(seed))
        except TrickcoreError:
            return
    else:
        worlds = variant.sample_worlds(obs, 4, random.Random(seed))
    assert len(worlds) == 4
    rng = random.Random(seed)
    for world in worlds:
        assert _same_view(world.observation(seat), obs)
        replay = _replayed(variant, world)  # every action taken is legal there
        assert _same_view(replay.observation(seat), obs)
        for s in range(world.seats):  # the world is what its history makes it
            assert sorted(replay.hands[s]) == sorted(world.hands[s])
            assert replay.observation(s) == world.observation(s)
        future = world.clone()  # and it plays on to the end: scored, or thrown in
        while not future.is_over:
            future.apply(rng.choice(future.legal_actions()))
        assert future.gains is not None or future.redealt


WHIST_LEAD = """extends "whist"
name: "Whist, the holder of two aces leads"
play {
  first_leader = count_rank(A) >= 2
}
"""


def test_worlds_keep_a_first_leader_the_hands_choose():
    """A first leader chosen by a rule over the hands as dealt, with no step before the
    first lead: every world, rebuilt from its deck order, lets the same player lead and
    replays (worlds made by renaming unseen cards had passed the lead to another hand in
    about half of them)."""
    v = trickcore.variant_from_text(WHIST_LEAD, "whist-lead")
    count = 0
    for seed in range(3):
        match = _played(v, seed, 6)
        for seat in range(match.seats):
            for world in v.sample_worlds(match.observation(seat), 6, random.Random(seed)):
                assert _replayed(v, world).history == world.history
                count += 1
    assert count == 3 * 4 * 6


def test_worlds_differ_where_the_seat_cannot_see(variants):
    variant = variants["tysiacha"]
    match = _played(variant, 5, 14)
    obs = match.observation(1)
    worlds = variant.sample_worlds(obs, 50, 7)
    others = {tuple(sorted(w.hands[0])) for w in worlds}
    assert len(others) > 10
    assert all(tuple(w.hand_texts(1)) == obs.hand for w in worlds)


# ---------------------------------------------------------------- every world, uniformly
def _tysiacha_late(variant, seed: int, left: int):
    """A Tysiacha deal with `left` cards in each hand, seen by its declarer."""
    rng = random.Random(seed)
    deal = variant.new_deal(seed=seed)
    while not deal.is_over and (deal.phase != "play" or len(deal.hands[deal.declarer]) > left):
        deal.apply(rng.choice(deal.legal_actions()))
    if deal.is_over or deal.trick:
        return None
    return deal


def _consistent_splits(variant, deal, seat: int) -> set[tuple[tuple[str, ...], ...]]:
    """Brute force: every split of the unseen cards among the other hands, kept when the
    deal rebuilt with it replays the seat's log to the same view."""
    obs = deal.observation(seat)
    others = [s for s in range(deal.seats) if s != seat]
    gave = {to: list(cards) for to, cards in obs.given}
    gifts = {c for cs in gave.values() for c in cs}
    seen = set(obs.hand) | {c for t in obs.tricks for _, c in t[1]} | set(obs.talon_shown or ())
    unseen = sorted(c for c in variant.card_texts if c not in seen | gifts)
    played = {s: [c for t in obs.tricks for p, c in t[1] if p == s] for s in range(deal.seats)}
    out = set()
    first = obs.hand_sizes[others[0]] - len(
        [c for c in gave.get(others[0], ()) if c not in played[others[0]]]
    )
    for mine in itertools.combinations(unseen, first):
        split = {others[0]: list(mine), others[1]: [c for c in unseen if c not in mine]}
        hands = {s: split[s] + [c for c in played[s] if c not in gifts] for s in others}
        hands[seat] = [c for c in [*obs.hand, *played[seat], *gifts] if c not in obs.talon_shown]
        order = variant.stack_deck(hands, talon=list(obs.talon_shown), dealer=deal.dealer)
        world = variant.new_deal(order, dealer=deal.dealer)
        try:
            for _, text in obs.log:
                world.apply(text)
        except TrickcoreError:
            continue
        if world.observation(seat) == obs:
            out.add(tuple(tuple(world.hand_texts(s)) for s in others))
    return out


def test_every_consistent_world_is_drawn_uniformly(variants):
    variant = variants["tysiacha"]
    voids_found = False
    for seed in range(200):
        deal = _tysiacha_late(variant, seed, 3)
        if deal is None:
            continue
        seat = deal.declarer
        obs = deal.observation(seat)
        others = [s for s in range(deal.seats) if s != seat]
        splits = _consistent_splits(variant, deal, seat)
        if not 3 <= len(splits) < 20:  # with void constraints at work (20: none)
            continue
        voids_found = True
        draws = 3000
        worlds = variant.sample_worlds(obs, draws, random.Random(seed))
        counts = Counter(tuple(tuple(w.hand_texts(s)) for s in others) for w in worlds)
        assert set(counts) == splits  # every consistent world, and only those
        expected = draws / len(splits)
        chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
        assert chi2 < 3 * len(splits) + 30  # loose: df = len - 1
        break
    assert voids_found


# ---------------------------------------------------------------- voids the rules prove
def _void_events(variant, obs):
    """(player, suit) for each trick the player did not follow (suits by card text)."""
    suit_of = {t: variant.suit_of[variant.card(t)] for t in variant.card_texts}
    out = []
    for _, cards, _ in obs.tricks:
        led = suit_of[cards[0][1]]
        out += [(p, led) for p, c in cards[1:] if suit_of[c] != led]
    return out


def test_tysiacha_player_who_did_not_follow_gets_no_card_of_that_suit(variants):
    variant = variants["tysiacha"]
    for seed in range(100):
        match = _played(variant, seed, 25)
        obs = match.observation(0)
        events = [(p, s) for p, s in _void_events(variant, obs) if p != 0]
        if match.current.phase == "play" and events:
            break
    else:
        pytest.fail("no deal with a void found")
    for world in variant.sample_worlds(obs, 200, seed):
        for p, suit in events:
            assert all(variant.suit_of[c] != suit for c in world.hands[p])


def test_schnapsen_did_not_overtrump_means_no_higher_trump(variants):
    variant = variants["russisch-schnapsen"]
    ranks = variant.model.deck.ranks  # high to low
    rank_of = {t: variant.rank_of[variant.card(t)] for t in variant.card_texts}
    suit_of = {t: variant.suit_of[variant.card(t)] for t in variant.card_texts}
    for seed in range(300):
        match = _played(variant, seed, 30)
        obs = match.observation(0)
        if obs.trump is None or match.current.phase != "play":
            continue
        trump = [s.name for s in variant.model.deck.suits].index(obs.trump)
        events = []
        for _, cards, _ in obs.tricks:
            best = None
            for p, c in cards:
                if suit_of[c] == trump:
                    if best is not None and rank_of[c] > best and p != 0:
                        events.append((p, best))  # a lower trump under a higher one
                    best = rank_of[c] if best is None else min(best, rank_of[c])
        if events:
            break
    else:
        pytest.fail("no deal where a trump went under a higher one")
    assert len(ranks) > 1
    for world in variant.sample_worlds(obs, 200, seed):
        for p, best in events:
            higher = [c for c in world.hands[p] if suit_of[variant.card_texts[c]] == trump]
            assert all(variant.rank_of[c] > best for c in higher)


# ---------------------------------------------------------------- bad input
def test_public_view_is_refused(variants):
    variant = variants["tysiacha"]
    match = _played(variant, 1, 10)
    with pytest.raises(TrickcoreError, match="public view"):
        variant.sample_worlds(match.current.public_view(), 3, 1)


def test_observation_of_another_variant_is_refused(variants):
    durak = _played(variants["durak"], 1, 6)
    with pytest.raises(TrickcoreError, match="tysiacha"):
        variants["tysiacha"].sample_worlds(durak.observation(0), 3, 1)
    hearts = _played(variants["hearts"], 1, 20)
    with pytest.raises(TrickcoreError):
        variants["tysiacha"].sample_worlds(hearts.observation(0), 3, 1)
    with pytest.raises(TrickcoreError):
        variants["tysiacha"].sample_worlds("not an observation", 3, 1)  # type: ignore[arg-type]
    with pytest.raises(TrickcoreError, match="whole number"):
        variants["tysiacha"].sample_worlds(_played(variants["tysiacha"], 1, 3).observation(0), -1)


# ---------------------------------------------------------------- games of bouts
def _durak_turns(variant, players: int, seed: int, every: int):
    """Every `every`-th turn of a Durak deal played by heuristic bots (trump swaps
    included): (steps, match)."""
    from trickcore.players import make_bot, turn_of

    match = variant.new_match(seed=seed, players=players)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(players)]
    k = 0
    while match.deals_dealt == 1 and not match.is_over:
        if k % every == 0:
            yield k, match
        match.apply(bots[match.to_act].choose(turn_of(match)))
        k += 1


def test_durak_view_keeps_the_turned_card_and_when_cards_came(variants):
    variant = variants["durak"]
    for _, match in _durak_turns(variant, 3, 0, 1):
        if any(text.startswith("swap") for _, text in match.observation(0).log):
            break
    else:
        pytest.fail("no swap in this deal")
    deal = match.current
    start = variant.new_deal(list(deal.deck_order), dealer=deal.dealer, players=3)
    for seat in range(3):
        obs = match.observation(seat)
        assert obs.turned_up == start.observation(seat).trump_card != obs.trump_card
        assert obs.trump_card.startswith("7")  # the swap's card lies there now
        dealt = sorted(c for step, c in obs.drawn if step == 0)
        assert dealt == sorted(start.observation(seat).hand)


@pytest.mark.timeout(600)  # a bound for a hang only (3 s idle): far beyond a busy machine's
@pytest.mark.parametrize("players, seed, last", [(3, 1, 49), (4, 1, 49), (5, 1, 28)])
def test_durak_worlds_after_a_swap_and_with_many_players(variants, players, seed, last):
    """Turns through a deal with a trump swap, 3 to 5 players: worlds are found and give
    back the seat's view, and the swap's cards lie where the view says."""
    variant = variants["durak"]
    swaps = 0
    for k, match in _durak_turns(variant, players, seed, 7):
        if k > last:
            break
        seat = match.to_act
        obs = match.observation(seat)
        swaps += any(text.startswith("swap") for _, text in obs.log)
        worlds = variant.sample_worlds(obs, 3, random.Random(k))
        assert len(worlds) == 3
        for world in worlds:
            assert _same_view(world.observation(seat), obs)
            replay = _replayed(variant, world)
            assert _same_view(replay.observation(seat), obs)
            start = variant.make_deal(list(world.deck_order), world.dealer, world.seats)
            assert start.observation(seat).trump_card == obs.turned_up
    assert swaps  # the turns after the swap were asked too


def test_a_start_from_an_earlier_world_of_the_deal_gives_consistent_worlds(variants):
    """A search bot starts the next decision's sampler from its last world: the worlds
    are still consistent with the new view (and a start that is no deck order is ignored)."""
    variant = variants["durak"]
    turns = {k: match.clone() for k, match in _durak_turns(variant, 3, 1, 7) if k in (14, 21)}
    early, late = turns[14], turns[21]
    seat = late.to_act
    before = variant.sample_worlds(early.observation(seat), 1, 3)[0]
    obs = late.observation(seat)
    for start in (list(before.deck_order), [0, 0, 1]):
        sampler = WorldSampler(variant, obs, random.Random(5), start=start)
        for world in sampler.sample(3):
            assert _same_view(world.observation(seat), obs)
            assert _same_view(_replayed(variant, world).observation(seat), obs)


def test_a_deadline_stops_the_search_with_a_clear_error(variants):
    variant = variants["durak"]
    match = _played(variant, 2, 20, players=3)
    obs = match.observation(match.to_act)
    with pytest.raises(WorldsError, match="in the time allowed"):
        WorldSampler(variant, obs, random.Random(1), deadline=time.perf_counter() - 1)
    variant = variants["tysiacha"]  # past the deadline, one draw is still tried
    obs = _played(variant, 5, 14).observation(1)
    late = WorldSampler(variant, obs, random.Random(1)).sample(5, time.perf_counter() - 1)
    assert len(late) == 1 and _same_view(late[0].observation(1), obs)


def test_a_dealer_who_lays_away_the_card_he_picked_up_still_has_worlds(variants):
    # Euchre E12, E27, E28: the dealer takes the turned-up card and may lay it away;
    # the card turned up stays public (`Observation.turned_up`) after it is taken, so the
    # sampler knows where it was dealt
    variant = variants["euchre"]
    match = _played(variant, 511, 24)
    obs = match.observation(1)
    assert [t for _, t in obs.log] == ["bid spades", "discard KS"] and obs.laid_away == ("KS",)
    assert obs.turnup is None and obs.turned_up == "KS"
    assert match.observation(0).turned_up == "KS"  # public, not only the dealer's
    worlds = variant.sample_worlds(obs, 6, random.Random(3))
    for world in worlds:
        assert _same_view(world.observation(1), obs)
        assert world.turned_up == variant.card("KS")


# Observations from deals played by bots (the heuristic bot at seat 0, random ones at the
# others) or by random players where the sampler found no world, though the deal itself is
# one (a card the seat saw in the talon went on unseen: given or discarded), or found one
# only after seconds of repairs (a bid that needs two cards held at once); the last field
# is the seat whose view is sampled.
FOUND_NO_WORLD = [
    pytest.param(
        "tysiacha",
        31,
        # T11: the talon shown (QS QD AS) is taken, QS given unseen to seat 1, who plays it
        "bid 105,bid 115,pass,bid 120,bid 135,pass,give QS to 1,give KH to 0,keep contract,"
        "play KC,play 9C,play 10C,play KS,play JS,play 9S,play JC,play JD,play QC,play AD,"
        "play 9D,play QD,play 10D,play AH,play QH,play 10H,play QS,play JH",
        0,
        id="tysiacha-talon-card-given-unseen",
    ),
    pytest.param(
        "tysiacha",
        0,
        # T12, T9: raising to 160 needs a marriage held; seat 0 holds KH, KC and QS, so seat 1's
        # can only be KD and QD, two cards at once
        "bid 120,pass,pass,give JH to 2,give QS to 0,raise 160,play JS,play AS",
        0,
        id="tysiacha-raise-needs-two-cards",
    ),
    pytest.param(
        "preferans",
        1,
        # R14, R15: 9S of the shown talon was discarded unseen (seat 2 shows no spade at step 31)
        "bid 6 notrump,bid 7 clubs,pass,pass,discard 9S,discard KC,bid 9 diamonds,whist,"
        "whist,play KD,play JD,play QD,play QS,play 10S,play KS,play AC,play 7D,play 8C,"
        "play QH,play JH,play 7H,play 10D,play 9D,play 8S,play 8D,play 9H,play 8H,play AH,"
        "play KH,play 10H,play AS,play QC,play JS,play 7S,play JC",
        0,
        id="preferans-talon-card-discarded-unseen",
    ),
    pytest.param(
        "tysiacha",
        0,
        # T9, T11, T12, seen by seat 0: bid 160 and raise 195 need a marriage of seat 1's;
        # seat 0 holds KH and played KC, seat 2 plays KS: only KD (unseen) with QD makes
        # the raise, and the card given unseen to seat 2 is a card of the shown talon
        # (10S 10D AD), not one seat 1 plays later (first worlds kept giving QS away)
        "bid 160,pass,pass,give AD to 2,give JH to 0,raise 195,play QD,play JD,play 9D,"
        "play JS,play AS,play 9S,play QC,play KC,play 10C,play AH,play QH,play 9H,play QS,"
        "play KS",
        0,
        id="tysiacha-needed-card-not-the-one-given-unseen",
    ),
    pytest.param(
        "tysiacha",
        132,
        # T11, T14, seen by seat 2: seat 1 plays KH on the lead of KC, so the card seat 0
        # gave it unseen was no club (first worlds kept giving it AC or QC)
        "bid 115,bid 120,bid 155,pass,pass,give 10S to 2,give 10D to 1,keep contract,"
        "play JS,play AS,play QS,play QD,play AD,play JD,play 9S,play 9H,play KS,play 9D,"
        "play 9C,play KD,play AH,play JH,play QH,play KC,play KH",
        2,
        id="tysiacha-card-given-unseen-breaks-a-void",
    ),
]


@pytest.mark.parametrize(("name", "seed", "actions", "seat"), FOUND_NO_WORLD)
def test_worlds_of_cards_that_went_on_unseen(variants, name, seed, actions, seat):
    variant = variants.get(name) or trickcore.load_variant(name)
    deal = variant.new_deal(seed=seed, players=3)
    for text in actions.split(","):
        deal.apply(text)
    obs = deal.observation(seat)
    for draw in range(3):
        worlds = variant.sample_worlds(obs, 4, random.Random(draw))
        assert len(worlds) == 4
        for world in worlds:
            assert _same_view(world.observation(seat), obs)
            assert _same_view(_replayed(variant, world).observation(seat), obs)


# Random deals along which the sampler, asked every 5th action as a search bot would ask,
# found no world for one of the views (Tysiacha: a card given unseen that a later bid,
# raise, play or void rules out; Skat: a hand game whose skat holds the two cards both
# defenders showed void in, seen by the declarer)
ALONG_RANDOM_DEALS = [
    *(("tysiacha", seed) for seed in (0, 36, 132, 147, 152, 176, 186, 377, 407, 555, 571, 681)),
    ("skat", 110),
    ("skat", 776),
]


@pytest.mark.parametrize(("name", "seed"), ALONG_RANDOM_DEALS)
def test_worlds_along_random_deals(variants, name, seed):
    variant = variants[name]
    deal = variant.new_deal(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not deal.is_over:
        legal = deal.legal_actions()
        if steps and steps % 5 == 0 and len(legal) > 1:
            seat = deal.to_act
            obs = deal.observation(seat)
            worlds = variant.sample_worlds(obs, 4, random.Random(seed * 1000 + steps))
            assert len(worlds) == 4
            for world in worlds:
                assert _same_view(world.observation(seat), obs)
                assert _same_view(_replayed(variant, world).observation(seat), obs)
        deal.apply(rng.choice(legal))
        steps += 1


def test_preferans_all_pass_talon_cards_that_lead_are_seen_where_they_lay():
    # Preferans R13(a), R30, R31: when everybody passes, the talon's two cards are turned up
    # one by one to lead the first two tricks (led by nobody): the worlds keep them there
    variant = trickcore.load_variant("preferans")
    seen = 0
    for seed in range(4):
        match = variant.new_match(seed=seed)
        while match.observation(match.to_act).phase != "play":
            match.apply("pass")
        assert match.observation(match.to_act).trick[0][0] == -1  # the talon's card leads
        for step in range(8):  # the first trick, into the second
            seat = match.to_act
            obs = match.observation(seat)
            for world in variant.sample_worlds(obs, 3, random.Random(seed * 10 + step)):
                assert _same_view(world.observation(seat), obs)
                assert _same_view(_replayed(variant, world).observation(seat), obs)
                seen += 1
            match.apply(match.legal_actions()[0])
    assert seen == 4 * 8 * 3


@pytest.mark.parametrize(
    "name", ["doppelkopf", "belote", "tests/house_rules/hearts-broken-by.rules", "schafkopf"]
)
def test_worlds_in_trick_play_replay_to_the_same_view_where_rules_read_hands(name):
    # Doppelkopf DK10: sides by the queens of clubs, announcements offered at every card;
    # Belote BL25, BL30: belote and the combinations said aloud (deal values read from the
    # hand); a Hearts house rule whose after_card rules read the hand of the player who
    # played: every world replays, step by step, to the view it was drawn for
    variant = trickcore.load_variant(name)
    checked = 0
    for seed in range(2):
        match = variant.new_match(seed=seed)
        bots = [make_bot("heuristic", seed=s) for s in range(match.seats)]
        steps = 0
        while not match.is_over and steps < 60:
            seat = match.to_act
            obs = match.observation(seat)
            legal = match.legal_actions()
            if obs.phase == "play" and len(legal) > 1 and steps % 4 == 0:
                for world in variant.sample_worlds(obs, 3, random.Random(steps)):
                    assert _same_view(world.observation(seat), obs)
                    assert _same_view(_replayed(variant, world).observation(seat), obs)
                    checked += 1
            turn = Turn(variant, seat, obs, tuple(legal))
            match.apply(bots[seat].choose(turn))
            steps += 1
    assert checked >= 12


# (name, seed, random actions, seat): positions where renaming unseen cards gave worlds that
# do not replay: a player passed over between phases (Euchre's farmer's hand, E49, not
# offered him) would have been asked; a taker's discards a rule over his hand refuses
# (French Tarot's trump laid away while he held other cards)
ASKED_BY_HIDDEN_HANDS = [
    ("euchre-farmers-hand", 0, 4, 1),
    ("euchre-farmers-hand", 0, 8, 2),
    ("examples/french-tarot.rules", 4, 26, 2),
    ("examples/french-tarot.rules", 9, 14, 3),
]


@pytest.mark.parametrize(("name", "seed", "steps", "seat"), ASKED_BY_HIDDEN_HANDS)
def test_worlds_where_a_hidden_hand_decides_who_is_asked_replay(name, seed, steps, seat):
    variant = trickcore.load_variant(name)
    match = _played(variant, seed, steps)
    obs = match.observation(seat)
    worlds = variant.sample_worlds(obs, 12, random.Random(seat))
    assert len(worlds) == 12
    for world in worlds:
        assert _same_view(_replayed(variant, world).observation(seat), obs)


def test_worlds_where_a_choice_named_the_trump_after_the_card_turned_up():
    """Wizard (`examples/wizard.rules`): a Wizard turned up lets the dealer name the trump
    suit; the trump shown then tells nothing of the card turned up, which stays the Wizard
    in every world (no world was found before: the search took the named suit for the
    turned card's)."""
    variant = trickcore.load_variant("examples/wizard.rules")
    order = variant.stack_deck({}, turnup="JZ", dealer=0, deal_number=1)
    match = variant.new_match(deck_orders=[order])
    match.apply("diamonds_named")
    for seat in range(match.seats):
        obs = match.observation(seat)
        for world in variant.sample_worlds(obs, 3, random.Random(seat)):
            assert world.observation(seat).turned_up == "JZ"
            assert _same_view(_replayed(variant, world).observation(seat), obs)


def test_worlds_while_a_player_sets_cards_aside_to_pass_with_copies():
    """Pinochle with passing (`examples/pinochle-passing.rules`, a double deck): the cards the
    seat has set aside to pass are his passes of the log, seen once; counted twice, one of his
    two ♦Q was a third copy and no world was drawn."""
    variant = trickcore.load_variant("examples/pinochle-passing.rules")
    match = variant.new_match(seed=3)
    rng = random.Random(3)
    for _ in range(rng.randrange(4, 30)):  # to seat 3 passing, three cards set aside
        match.apply(rng.choice(match.legal_actions()))
    obs = match.observation(3)
    assert obs.phase == "pass" and "QD" in obs.hand and "QD" in obs.set_aside
    for world in variant.sample_worlds(obs, 3, random.Random(3)):
        assert _same_view(_replayed(variant, world).observation(3), obs)
