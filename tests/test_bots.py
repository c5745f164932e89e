"""Computer players: every bot plays whole matches of several variants (a house rule
written here included), only legal actions, the same choices from the same seed and
iteration budget; the search bots find an obvious best card and give values for hints;
bots by name and their errors."""

from __future__ import annotations

import io
import math
import random
import time

import pytest

import trickcore
from trickcore.interfaces import cli
from trickcore.players import Bot, Turn, bot_names, make_bot, turn_of
from trickcore.players.heuristic import HeuristicPlayer, estimate_tricks
from trickcore.players.ismcts import widening_order

SMALL = {
    "random": "random",
    "greedy": "greedy",
    "heuristic": "heuristic",
    # no time cap: the budgets in worlds and iterations decide (the same choices on any
    # machine, idle or busy)
    "pimc": "pimc:worlds=2,iterations=4,seconds=none",
    "ismcts": "ismcts:worlds=2,iterations=6,seconds=none",
}

# a house rule written for the test: Tysiacha with bids in steps of 10, two deals a match
HOUSE = """extends "tysiacha"
name: "Tysiacha, two deals, steps of ten"
bidding {
  step: 10
}
match {
  deal_limit: 2
}
"""


def short(base: str) -> trickcore.Variant:
    """A shipped variant cut to two deals a match (a house rule that extends it)."""
    return trickcore.variant_from_text(
        f'extends "{base}"\nname: "{base}, two deals"\nmatch {{\n  deal_limit: 2\n}}\n'
    )


VARIANTS = {
    "house": lambda: trickcore.variant_from_text(HOUSE),
    "schnapsen": lambda: short("russisch-schnapsen"),
    "durak": lambda: short("durak"),
    "hearts": lambda: short("hearts"),
}


def play_match(variant: trickcore.Variant, spec: str, seed: int, players=None, deals=None):
    """A whole match (or its first `deals` deals) with the bot of `spec` at seat 0 and
    heuristic bots elsewhere; every action checked legal; the actions taken."""
    m = variant.new_match(seed=seed, players=players)
    bots: list[Bot] = [
        make_bot(spec if s == 0 else "heuristic", seed=seed + s) for s in range(m.seats)
    ]
    taken = []
    while not m.is_over and (deals is None or m.deals_dealt <= deals):
        turn = turn_of(m)
        action = bots[m.to_act].choose(turn)
        assert action in turn.legal, (action, turn.legal)
        m.apply(action)
        taken.append(action.text)
    return m, taken


CHEAP = ["random", "greedy", "heuristic"]
SEARCH = ["pimc", "ismcts"]


@pytest.mark.parametrize(
    "kind, variant",
    [(k, v) for k in CHEAP for v in VARIANTS]
    + [(k, v) for k in SEARCH for v in ("house", "schnapsen")],
)
def test_every_bot_plays_whole_matches_with_legal_actions(kind, variant):
    v = VARIANTS[variant]()
    players = 3 if variant == "durak" else None
    m, taken = play_match(v, SMALL[kind], seed=5, players=players)
    assert m.is_over and m.deals_played + m.redeals >= 2 and m.winners
    assert len(taken) == len(m.history)


@pytest.mark.parametrize("kind", list(SMALL))
def test_same_seed_and_budget_give_the_same_choices(kind):
    v = VARIANTS["schnapsen"]()
    spec = SMALL[kind]
    _, first = play_match(v, spec, seed=11, deals=1)
    _, again = play_match(v, spec, seed=11, deals=1)
    assert first == again
    if kind == "random":
        _, other = play_match(v, spec, seed=12, deals=1)
        assert other != first


def test_heuristic_beats_random_on_the_same_deals():
    """Duplicate deals: the heuristic bot in a seat does better than a random bot there."""
    v = trickcore.load_variant("tysiacha")
    diff = 0
    for seed in range(30):
        for cls_seat in range(3):
            scores = []
            for spec in ("heuristic", "random"):
                d = v.new_deal(seed=seed)
                bots = [make_bot(spec if s == cls_seat else "random", seed=s) for s in range(3)]
                while not d.is_over:
                    s = d.to_act
                    turn = Turn(v, s, d.observation(s), tuple(d.legal_actions()))
                    d.apply(bots[s].choose(turn))
                scores.append((d.gains or [0, 0, 0])[cls_seat])
            diff += scores[0] - scores[1]
    assert diff / 90 > 20


def test_heuristic_reads_the_rules_not_the_game():
    """Tricks estimated from the rank order and trump of the rules file; hearts ducks."""
    v = trickcore.load_variant("tysiacha")
    cards = [v.card(c) for c in ("AS", "10S", "KS", "AH", "9D", "9C", "JC")]
    assert estimate_tricks(v, cards, -1) >= 4
    assert estimate_tricks(v, cards, 3) > estimate_tricks(v, [v.card("9D")], 3)
    hearts = trickcore.load_variant("hearts")
    d = hearts_queen_position(hearts)
    turn = Turn(hearts, 1, d.observation(1), tuple(d.legal_actions()))
    assert HeuristicPlayer(1).choose(turn).text == "play 3S"


def hearts_queen_position(hearts: trickcore.Variant):
    """Hearts, deal 4 (no passing): seat 1 is last to a spade trick holding the QS; it
    holds KS (takes the trick and its 13 points) and 3S (lets the QS win)."""
    deck = hearts.stack_deck(
        {
            1: [
                "2C",
                "KS",
                "3S",
                *(f"{r}D" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J")),
            ],
            2: ["AC", "10S"],
            3: ["3C", "QS"],
            0: ["4C", "2S"],
        },
        deal_number=4,
    )
    d = hearts.new_deal(deck, dealer=0, deal_number=4)
    for text in ("play 2C", "play AC", "play 3C", "play 4C", "play 10S", "play QS", "play 2S"):
        d.apply(text)
    assert d.to_act == 1 and {a.text for a in d.legal_actions()} == {"play KS", "play 3S"}
    return d


@pytest.mark.parametrize(
    "spec",
    ["pimc:worlds=8,iterations=32,seconds=none", "ismcts:worlds=8,iterations=120,seconds=none"],
)
def test_search_finds_the_card_that_avoids_the_queen(spec):
    hearts = trickcore.load_variant("hearts")
    d = hearts_queen_position(hearts)
    turn = Turn(hearts, 1, d.observation(1), tuple(d.legal_actions()))
    bot = make_bot(spec, seed=3)
    assert bot.choose(turn).text == "play 3S"
    values = dict((a.text, x) for a, x in bot.evaluate(turn))
    assert values["play 3S"] - values["play KS"] >= 8  # the queen's 13 points, about


@pytest.mark.parametrize(
    "spec",
    ["pimc:worlds=3,iterations=12,seconds=none", "ismcts:worlds=3,iterations=20,seconds=none"],
)
def test_hint_values_one_per_legal_action(spec):
    v = trickcore.load_variant("tysiacha")
    m = v.new_match(seed=4)
    bot = make_bot(spec, seed=1)
    turn = turn_of(m)
    values = bot.evaluate(turn)
    assert [a for a, _ in values] == list(turn.legal)
    assert all(math.isfinite(x) for _, x in values)
    assert any(x != values[0][1] for _, x in values)


def test_search_bots_in_games_of_bouts_value_losing_as_minus_one():
    # the durak loses 1, which the other two share: a seat's value lies in [-1, 1/2]
    v = trickcore.load_variant("durak")
    m = v.new_match(seed=2, players=3)
    turn = turn_of(m)
    spec = f"pimc:worlds=2,iterations={2 * len(turn.legal)},seconds=none"
    values = make_bot(spec, seed=1).evaluate(turn)
    assert all(-1.0 <= x <= 0.5 for _, x in values)
    assert any(x != values[0][1] for _, x in values)


@pytest.mark.parametrize(
    "spec",
    ["pimc:worlds=8,iterations=64,seconds=none", "ismcts:worlds=8,iterations=200,seconds=none"],
)
def test_a_defender_values_what_the_declarer_loses(spec):
    # Skat K31, K43: a defender's own gain is 0 whatever he plays; the search still values
    # the declarer's loss. Deck order 909, seat 0 defends: the declarer leads the AS and
    # seat 0 holds 10S and 9S: the 10 would hand the declarer 10 points, the 9 none.
    v = trickcore.load_variant("skat")
    order = list(range(v.model.deck.size))
    random.Random(909).shuffle(order)
    deal = v.new_deal(order, dealer=0)
    bots = [make_bot("heuristic", seed=909 * 16 + s) for s in range(deal.seats)]
    while True:
        seat = deal.to_act
        turn = Turn(v, seat, deal.observation(seat), tuple(deal.legal_actions()))
        if seat == 0 and [a.text for a in turn.legal] == ["play 10S", "play 9S"]:
            break
        deal.apply(bots[seat].choose(turn))
    assert turn.observation.declarer == 1 and turn.observation.trick[0] == (1, "AS")
    values = dict((a.text, x) for a, x in make_bot(spec, seed=1).evaluate(turn))
    assert values["play 9S"] > values["play 10S"] + 5


def test_make_bot_names_and_options():
    assert bot_names() == ["random", "greedy", "heuristic", "pimc", "ismcts"]
    bot = make_bot("pimc:worlds=5,iterations=40,seconds=0.5,rollout=random", seed=1)
    assert (bot.worlds, bot.iterations, bot.seconds, bot.rollout) == (5, 40, 0.5, "random")
    assert isinstance(bot, Bot)
    assert make_bot("pimc:seconds=none").seconds is make_bot("ismcts:seconds=None").seconds is None


@pytest.mark.parametrize(
    "spec, message",
    [
        ("alphazero", "unknown bot 'alphazero'"),
        ("pimc:depth=3", "bot pimc has no option 'depth'"),
        ("pimc:iterations=many", "option iterations must be a whole number"),
        ("pimc:iterations", "is not name=value"),
        ("ismcts:iterations=0", "iterations must be a whole number of at least 1"),
        ("pimc:rollout=smart", "unknown rollout 'smart'"),
        ("pimc:confidence=-1", "confidence must be a number of at least 0"),
        ("ismcts:confidence=1", "bot ismcts has no option 'confidence'"),
        ("greedy:worlds=3", "bot greedy has no option 'worlds'"),
        ("", "a bot is named by a text"),
    ],
)
def test_bad_specs_are_clear_errors(spec, message):
    with pytest.raises(trickcore.TrickcoreError, match=message):
        make_bot(spec)


def test_play_with_opponents_and_hint(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code = cli.main(
        [
            "play",
            "tysiacha",
            "--seed",
            "3",
            "--opponents",
            "heuristic",
            "--hint",
            "pimc:worlds=2,iterations=8,seconds=none",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    hint = next(line for line in out.splitlines() if line.startswith("hint: "))
    assert "bid" in hint or "pass" in hint
    assert hint.count("+") + hint.count("-") >= 2  # a value for each action shown


def test_play_refuses_a_bad_opponent_spec(capsys):
    assert cli.main(["play", "tysiacha", "--opponents", "pimc:speed=9"]) == 1
    assert "bot pimc has no option 'speed'" in capsys.readouterr().err
    assert cli.main(["play", "tysiacha", "--hint", "greedy"]) == 1
    assert "--hint needs a search bot" in capsys.readouterr().err


def _durak_turn(players: int, seed: int, steps: int) -> Turn:
    """A Durak turn after `steps` actions of heuristic bots (seeded)."""
    v = trickcore.load_variant("durak")
    m = v.new_match(seed=seed, players=players)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(players)]
    for _ in range(steps):
        m.apply(bots[m.to_act].choose(turn_of(m)))
    return turn_of(m)


@pytest.mark.parametrize("spec", ["pimc:seconds=0.05", "ismcts:seconds=0.05"])
def test_a_tiny_time_cap_bounds_the_whole_decision(spec):
    """The cap covers sampling too: on a late Durak turn after a trump swap (the first
    world takes seconds of work to find there) and on a Tysiacha bid, a legal action comes
    back after well under a second of work. The work is this thread's CPU time, which other
    work on the machine does not stretch (the cap is on the clock: on a busy machine the bot
    gets less CPU time before it, never more), and the bound is twenty times the cap: this
    is no test of speed, whatever the choice made in the time."""
    durak = _durak_turn(3, 0, 63)
    assert any(text.startswith("swap") for _, text in durak.observation.log)
    tysiacha = turn_of(trickcore.load_variant("tysiacha").new_match(seed=4))
    for turn in (durak, tysiacha):
        bot = make_bot(spec, seed=1)
        start = time.thread_time()
        action = bot.choose(turn)
        assert time.thread_time() - start < 1.0
        assert action in turn.legal


def test_default_decisions_are_capped_at_under_a_second():
    assert make_bot("pimc").seconds == make_bot("ismcts").seconds == 0.8


class _Clock:
    """A clock for the search bots' budget that moves only as the test says: `step`
    seconds each time it is read (no figure depends on the machine's speed)."""

    def __init__(self, step: float) -> None:
        self.now = 1e9  # far after any real reading: sampling's own deadline never binds
        self.step = step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_capped_counts_the_decisions_the_time_cap_stopped_not_the_work_budget(monkeypatch, kind):
    """#29: the budget is work first, the cap a safety net, and a bot says which stopped
    it. With a clock that passes a second at every reading, a cap of half a second stops
    the search before its work; with a clock that stands still, the work budget does."""
    from trickcore.players import search

    turn = turn_of(trickcore.load_variant("tysiacha").new_match(seed=4))
    for step, capped in ((1.0, 1), (0.0, 0)):
        monkeypatch.setattr(search, "time", _Clock(step))
        bot = make_bot(f"{kind}:worlds=2,iterations=6,seconds=0.5", seed=1)
        assert bot.choose(turn) in turn.legal
        assert bot.capped == capped


def test_confidence_keeps_the_heuristic_choice_unless_surely_better():
    v = trickcore.load_variant("russisch-schnapsen")
    m = v.new_match(seed=4)
    bots = [make_bot("heuristic", seed=s) for s in range(m.seats)]
    for _ in range(4):  # to a bid where the search and the heuristic bot disagree
        m.apply(bots[m.to_act].choose(turn_of(m)))
    turn = turn_of(m)
    heuristic = HeuristicPlayer(5).choose(turn)
    spec = "pimc:worlds=4,iterations=40,seconds=none,confidence="
    best = make_bot(spec + "0", seed=5).choose(turn)  # the best average
    assert best != heuristic
    assert make_bot(spec + "1000", seed=5).choose(turn) == heuristic
    assert make_bot("pimc", seed=5).confidence == 1.0


@pytest.mark.parametrize("name", ["russisch-schnapsen", "hearts", "skat"])
def test_worlds_carried_to_the_next_decision_agree_with_its_view(name):
    """A search bot plays its worlds on along the actions since its last decision and keeps
    those that still agree with what it sees: every world it searches is consistent."""
    from trickcore.players.search import WorldMemory, sample_worlds

    variant = trickcore.load_variant(name)
    rng = random.Random(3)
    carried = 0
    for seed in range(3):
        order = list(range(variant.model.deck.size))
        random.Random(seed).shuffle(order)
        deal = variant.new_deal(order, dealer=0)
        memory = WorldMemory()
        others = make_bot("heuristic", seed=seed)
        while not deal.is_over:
            seat = deal.to_act
            turn = Turn(variant, seat, deal.observation(seat), tuple(deal.legal_actions()))
            if seat == 0 and len(turn.legal) > 1:
                before = memory.carried
                for world in sample_worlds(turn, 6, rng, memory=memory):
                    assert world.observation(seat) == turn.observation
                    assert {a.id for a in world.legal_actions()} == {a.id for a in turn.legal}
                carried += memory.carried - before
            deal.apply(others.choose(turn))
    assert carried > 0  # some worlds went on to a later decision


@pytest.mark.parametrize("name", ["doppelkopf", "hearts"])
def test_worlds_of_an_earlier_view_are_repaired_into_worlds_of_this_one(name):
    """`repaired_worlds`: the worlds of a seat's last decision, the log played on since
    (most are dropped: a card played that they put in another hand), are repaired by card
    swaps into worlds that agree with the new view; a search's memory does so when too few
    are carried on, before asking the sampler."""
    from trickcore.engine.worlds import repaired_worlds
    from trickcore.players.search import WorldMemory, sample_worlds

    variant = trickcore.load_variant(name)
    rng = random.Random(5)
    order = list(range(variant.model.deck.size))
    random.Random(2).shuffle(order)
    deal = variant.new_deal(order, dealer=0)
    others = make_bot("heuristic", seed=2)
    memory = WorldMemory()
    last: list = []
    repaired = 0
    while not deal.is_over:
        seat = deal.to_act
        turn = Turn(variant, seat, deal.observation(seat), tuple(deal.legal_actions()))
        if seat == 1 and len(turn.legal) > 1:
            for world in repaired_worlds(variant, turn.observation, last, rng):
                repaired += 1
                assert world.observation(seat) == turn.observation
                assert {a.id for a in world.legal_actions()} == {a.id for a in turn.legal}
            last = sample_worlds(turn, 4, rng, memory=memory)
            for world in last:
                assert world.observation(seat) == turn.observation
        deal.apply(others.choose(turn))
    assert repaired > 10
    assert memory.repaired > 0  # the memory repaired worlds too


def test_heuristic_playouts_end_the_same_every_time():
    """PIMC plays a world out once per action with the heuristic bot's playouts, as the
    heuristic bot draws nothing at random; with random playouts it goes round the worlds
    again while its budget lasts."""
    from trickcore.players.search import Rollout, sample_worlds

    variant = trickcore.load_variant("hearts")
    turn = turn_of(variant.new_match(seed=4))
    worlds = sample_worlds(turn, 3, random.Random(1))
    assert not Rollout("heuristic", random.Random(0)).varies
    assert Rollout("random", random.Random(0)).varies
    for world in worlds:
        values = {
            tuple(Rollout("heuristic", random.Random(s)).run(world.clone())) for s in range(3)
        }
        assert len(values) == 1
    spec = "pimc:worlds=3,iterations=400,seconds=none"
    playouts, done, _ = make_bot(spec, seed=1)._search(turn, 0)
    assert done <= 3 and all(len(p) <= 3 for p in playouts)
    playouts, done, _ = make_bot(spec + ",rollout=random", seed=1)._search(turn, 0)
    assert done > 3


def test_pimc_stops_once_the_best_action_is_settled():
    """The search stops early when, over at least SETTLE_AFTER worlds, the best action beats
    every other by SETTLE_Z standard errors (or ties it in every world)."""
    from trickcore.players.pimc import SETTLE_AFTER, _settled

    n = SETTLE_AFTER
    clear = [{k: 1.0 + (k % 2) / 10 for k in range(n)}, {k: 0.0 for k in range(n)}]
    assert _settled(clear, n)
    assert not _settled(clear, n - 1)
    close = [{k: float(k % 2) for k in range(n)}, {k: float((k + 1) % 2) for k in range(n)}]
    assert not _settled(close, n)
    tied = [{k: float(k) for k in range(n)}, {k: float(k) for k in range(n)}]
    assert _settled(tied, n)
    assert not _settled([clear[0], {k: 0.0 for k in range(n - 1)}], n)  # one weighed


def test_ismcts_widens_progressively_over_a_long_ladder_of_bids():
    # Preferans R8: the first bid of a deal may be any of the ladder's contracts: with
    # widening, the search weighs the heuristic bot's choice first and lets in the next
    # nearest action each time its iterations pass a square; without, every bid at once
    v = trickcore.load_variant("preferans")
    turn = turn_of(v.new_match(seed=1))
    assert len(turn.legal) > 20
    spec = "ismcts:worlds=4,iterations=49,seconds=none"
    narrow = make_bot(spec, seed=2)
    weighed = [a for a, x in narrow.evaluate(turn) if math.isfinite(x)]
    assert 2 < len(weighed) <= 2 + 7
    assert HeuristicPlayer(2).choose(turn) in weighed
    wide = [a for a, x in make_bot(spec + ",widening=0", seed=2).evaluate(turn) if math.isfinite(x)]
    assert len(wide) > len(weighed)


def test_ismcts_weighs_a_pass_and_the_bids_next_to_the_heuristic_bots_bid():
    # Bridge B14: the heuristic bot opens 1 spades; a widening search lets in the pass (an
    # action of another kind) at once, then the bids nearest to 1 spades: not only the
    # lowest bids of the ladder, and not the pass last of 36 calls
    v = trickcore.load_variant("bridge")
    m = v.new_match(seed=0)
    heuristic = HeuristicPlayer(1)
    turn = turn_of(m)
    while len(turn.legal) <= 8 or heuristic.choose(turn).kind == "pass":
        m.apply(heuristic.choose(turn))
        turn = turn_of(m)
    first = heuristic.choose(turn)
    assert first.text == "bid 1 spades" and turn.legal[-1].text == "pass"
    bot = make_bot("ismcts:worlds=4,iterations=49,seconds=none", seed=2)
    bot.fallback = HeuristicPlayer(1)  # the same rules of thumb as above
    weighed = {a.text for a, x in bot.evaluate(turn) if math.isfinite(x)}
    assert {"bid 1 spades", "pass", "bid 1 hearts", "bid 1 notrump"} <= weighed
    at = turn.legal.index(first)
    bids = [a for a in turn.legal if a.text in weighed and a.kind == "bid"]
    assert max(abs(turn.legal.index(a) - at) for a in bids) <= len(bids)


def test_pimc_weighs_what_it_reached_when_a_decision_is_wider_than_its_budget():
    # Preferans R8: the first call may be any of 26 bids or a pass; with 5 playouts the
    # search reaches 5 actions in its first world, the heuristic bot's choice first, and
    # chooses among those (before, it left the whole decision to the heuristic bot)
    v = trickcore.load_variant("preferans")
    turn = turn_of(v.new_match(seed=1))
    assert len(turn.legal) == 27
    bot = make_bot("pimc:worlds=2,iterations=5,seconds=none,confidence=0", seed=4)
    values = [x for _, x in bot.evaluate(turn)]
    assert sum(1 for x in values if math.isfinite(x)) == 5
    choice = make_bot("pimc:worlds=2,iterations=5,seconds=none,confidence=0", seed=4)
    action = choice.choose(turn)
    assert choice.fallbacks == 0 and action in turn.legal
    assert make_bot("pimc:worlds=2,iterations=1,seconds=none", seed=4).choose(turn) == (
        HeuristicPlayer(4).choose(turn)
    )


def test_pimc_drops_an_action_surely_beaten_but_not_one_that_differs_alike_in_a_few_worlds():
    from trickcore.players.pimc import PRUNE_AFTER, _beaten

    n = PRUNE_AFTER
    best = {k: 4.0 * k for k in range(n)}  # its value spreads from world to world
    hopeless = {k: 4.0 * k - 100.0 + k % 3 for k in range(n)}
    alike = {k: 4.0 * k - 1.0 for k in range(n)}  # one less in every world so far
    assert _beaten([best, hopeless, alike], n, [0, 1, 2]) == {1}
    assert _beaten([best, hopeless], n - 1, [0, 1]) == {1}  # whatever `done` the caller asks
    assert _beaten([best, {k: 0.0 for k in range(n - 1)}], n, [0, 1]) == set()  # one weighed


def test_pimc_spends_a_wide_decision_on_more_worlds_for_the_actions_in_question(monkeypatch):
    # Spades P5, P6: the first bid may be any of 0 to 13 tricks; the steps budget runs out
    # before every bid is played out in every world, unless the hopeless bids are dropped
    import trickcore.players.pimc as pimc

    turn = turn_of(trickcore.load_variant("spades").new_match(seed=3))
    assert len(turn.legal) == 14
    spec = "pimc:seconds=none"
    playouts, done, dropped = make_bot(spec, seed=5)._search(turn, 0)
    assert len(dropped) >= 6 and done == 24  # every world sampled
    assert all(len(playouts[i]) < done for i in dropped)
    bot = make_bot(spec, seed=5)
    assert bot.choose(turn) in turn.legal and bot.fallbacks == 0
    monkeypatch.setattr(pimc, "PRUNE_AFTER", 10**6)
    _, fewer, none = make_bot(spec, seed=5)._search(turn, 0)
    assert not none and fewer < done


def test_ismcts_widens_other_players_wide_decisions_in_its_tree_too():
    # Russisch Schnapsen S4: the auction's bids 90 to 300 in steps of 10; in the tree, the
    # next players' answers to a bid are let in progressively as well (the heuristic bot's
    # answer and those near it first), never all thirty at once after a few visits
    v = trickcore.load_variant("russisch-schnapsen")
    m = v.new_match(seed=2)
    turn = turn_of(m)
    while len(turn.legal) <= 8:
        m.apply(HeuristicPlayer(1).choose(turn))
        turn = turn_of(m)
    assert len(turn.legal) > 8
    bot = make_bot("ismcts:worlds=4,iterations=200,seconds=none", seed=3)
    root = bot._search(turn)
    deeper = [n for child in root.children.values() for n in child.children.values()]
    assert deeper
    for child in root.children.values():
        if child.order is not None:  # another player's wide decision below this action
            assert len(child.children) <= 2 + math.isqrt(child.visits)
    assert any(c.order is not None for c in root.children.values())


def test_ismcts_weighs_a_choice_of_cards_down_its_tree_whole_and_lets_cards_in_as_listed():
    # Spades P5-P8: after the bids, the first lead from 13 cards. At the root the search
    # lets in the heuristic bot's card, then the others as the rules list them (not those
    # next to it: that is for a ladder of bids); down the tree, the other players' choices
    # of a card are weighed whole, never widened (widened, the search lost to itself)
    v = trickcore.load_variant("spades")
    m = v.new_match(seed=4)
    heuristic = HeuristicPlayer(1)
    turn = turn_of(m)
    while turn.legal[0].card < 0:  # the bids
        m.apply(heuristic.choose(turn))
        turn = turn_of(m)
    assert len(turn.legal) == 9  # 13 cards, the spades not led before they are broken
    first = heuristic.choose(turn)
    bot = make_bot("ismcts:worlds=4,iterations=49,seconds=none", seed=2)
    bot.fallback = HeuristicPlayer(1)
    order = [first, *(a for a in turn.legal if a != first)]
    weighed = {a for a, x in bot.evaluate(turn) if math.isfinite(x)}
    assert weighed == set(order[: 2 + math.isqrt(48)])
    legal = list(turn.legal)  # whichever card it would play: the others as listed after it
    assert widening_order(legal, legal[5]) == [legal[5], *legal[:5], *legal[6:]]
    root = make_bot("ismcts:worlds=4,iterations=300,seconds=none", seed=2)._search(turn)
    nodes, wide = [root], 0
    while nodes:
        node = nodes.pop()
        assert node.order is None  # no card decision below was widened
        wide += len(node.children) > 2 + math.isqrt(max(node.visits, 1))
        nodes.extend(node.children.values())
    assert wide > 0  # some decision below holds more cards than widening would let in


def test_ismcts_lets_the_cards_of_a_bout_in_as_listed_too():
    # Durak D5: the first attack may be any card of the hand; cards of a bout are cards
    # (not a ladder of calls): after the heuristic bot's card, the others as listed
    m = trickcore.load_variant("durak").new_match(seed=1)
    legal = list(m.legal_actions())
    assert len(legal) >= 4 and all(a.kind == "attack" and a.cards for a in legal)
    assert widening_order(legal, legal[3]) == [legal[3], *legal[:3], *legal[4:]]
