"""The library API: determinism, saving, illegal actions, observations, command line."""

from __future__ import annotations

import copy
import json
import random

import attrs
import pytest

import trickcore
from trickcore.interfaces.cli import main


def random_match(v, seed, steps=None):
    m = v.new_match(seed=seed)
    rng = random.Random(seed)
    n = 0
    while not m.is_over and (steps is None or n < steps):
        m.apply(rng.choice(m.legal_actions()))
        n += 1
    return m


@pytest.mark.parametrize("name", ["tysiacha", "russisch-schnapsen-36-ohne"])
def test_same_seed_and_actions_give_the_same_match(name):
    v = trickcore.load_variant(name)
    a = random_match(v, 5, steps=400)
    b = random_match(v, 5, steps=400)
    assert a.history == b.history and a.scores == b.scores
    assert a.observation(0) == b.observation(0)


def test_save_and_load_replays_exactly(tmp_path):
    v = trickcore.load_variant("russisch-schnapsen")
    m = random_match(v, 3, steps=250)
    path = tmp_path / "m.json"
    trickcore.save_match(m, path)
    back = trickcore.load_match(path)
    assert back.history == m.history and back.scores == m.scores
    for seat in range(3):
        assert back.observation(seat) == m.observation(seat)
    assert json.loads(path.read_text())["variant_hash"] == v.content_hash


def test_saved_match_with_start_scores_and_deck_orders(tmp_path):
    v = trickcore.load_variant("tysiacha")
    order = [v.card_text(c) for c in range(24)]
    m = v.new_match(deck_orders=[order], scores=[0, 850, 0], kept=[{}, {"barrel_deals": 1}, {}])
    m.apply(m.legal_actions()[0])
    back = trickcore.match_from_json(json.loads(json.dumps(m.to_json())))
    assert back.scores == [0, 850, 0] and back.kept_state(1)["barrel_deals"] == 1
    assert back.current.hand_texts(1) == m.current.hand_texts(1)


def test_saved_match_of_another_variant_version_is_refused(tmp_path):
    v = trickcore.load_variant("tysiacha")
    data = random_match(v, 1, steps=20).to_json()
    other = trickcore.variant_from_text('extends "tysiacha"\nname: "Other"\n', "tysiacha")
    with pytest.raises(trickcore.SavedGameError, match="different version"):
        trickcore.match_from_json(data, other)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(format="x"), "not a trickcore saved match"),
        (lambda d: d.update(version=99), "format version"),
        (lambda d: d["actions"].append("play ZZ"), "cannot be replayed"),
        (lambda d: d.update(actions="bid 100"), "'actions'"),
        (lambda d: d.update(players=7), "cannot be set up"),
        (lambda d: d.update(version=1, variant="nope"), "names variant 'nope'"),
        (lambda d: d.update(start={"scores": ["a"]}), "'start.scores"),
    ],
)
def test_corrupt_saved_matches_are_refused_clearly(mutate, message):
    v = trickcore.load_variant("tysiacha")
    data = random_match(v, 1, steps=20).to_json()
    data = copy.deepcopy(data)
    mutate(data)
    if isinstance(data.get("actions"), list):
        data["action_count"] = len(data["actions"])
    data["checksum"] = trickcore.engine.saving.checksum(data)  # only the mutated field is wrong
    with pytest.raises(trickcore.SavedGameError, match=message):
        trickcore.match_from_json(data)


def test_load_match_from_a_broken_file(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    with pytest.raises(trickcore.SavedGameError, match="not valid JSON"):
        trickcore.load_match(path)


def test_illegal_and_malformed_actions_raise_and_change_nothing():
    v = trickcore.load_variant("tysiacha")
    m = random_match(v, 2, steps=40)
    before = (m.observation(0), m.observation(1), m.observation(2), list(m.history))
    for bad in ("play", "bid -5", "give AS to 9", "hello", "bid 100 ohne", "raise x", ""):
        with pytest.raises(trickcore.IllegalActionError) as info:
            m.apply(bad)
        assert info.value.legal == [a.text for a in m.legal_actions()]
    assert (m.observation(0), m.observation(1), m.observation(2), list(m.history)) == before


def test_observation_hides_other_hands_and_hidden_talon():
    v = trickcore.load_variant("russisch-schnapsen")
    d = v.new_deal(seed=4)
    while d.phase == "redeal":
        d.apply("keep")
    obs = d.observation(1)
    visible = set(obs.hand)
    for seat in (0, 2):
        assert not visible & set(d.hand_texts(seat))
    assert obs.talon_shown is None
    flat = json.dumps(obs.to_dict())
    for seat in (0, 2):
        for card in d.hand_texts(seat):
            assert f'"{card}"' not in flat


def test_action_objects_and_text_are_interchangeable():
    v = trickcore.load_variant("tysiacha")
    d = v.new_deal(seed=1)
    a = d.legal_actions()[0]
    assert str(a) == "bid 100" and a.kind == "bid" and a.value == 100
    d.apply("  bid   105 ")
    assert d.observation(0).bids[-1] == (1, "bid 105")


def test_a_text_takes_the_legal_action_of_that_text_and_nothing_else_changes():
    """A canonical text (or a str subclass, or any object equal to it) takes the legal action
    of that text, the very object `legal_actions` lists; other texts are parsed or refused
    with the same errors as before."""

    class Text(str):
        pass

    class SaysItIs:
        def __init__(self, text: str) -> None:
            self.text = text

        def __eq__(self, other: object) -> bool:
            return other == self.text

        __hash__ = None  # type: ignore[assignment]

    v = trickcore.load_variant("tysiacha")
    for given in (str, Text, SaysItIs):
        d = v.new_deal(seed=1)
        legal = d.legal_actions()
        d.apply(given(legal[1].text))
        assert d.history[-1][1] is legal[1]
    d = v.new_deal(seed=1)
    d.apply(" BID  100 ")  # parsed: not the canonical text
    assert d.history[-1][1].text == "bid 100"
    texts = [a.text for a in d.legal_actions()]
    for bad, message in (
        ("bid 101", "'bid 101' is not legal now"),
        ("hello there", "'hello there' is not an action"),
        ("", "'' is not an action"),
    ):
        with pytest.raises(trickcore.IllegalActionError, match=message) as info:
            d.apply(bad)
        assert info.value.legal == texts
    assert len(d.history) == 1


def test_cli_show_simulate_play_replay(tmp_path, capsys, monkeypatch):
    assert main(["list"]) == 0
    assert main(["show", "russisch-schnapsen-ohne"]) == 0
    out = capsys.readouterr().out
    assert "exactly 90" in out and "ohne" in out and "round(card_points, 10)" in out
    assert main(["simulate", "russisch-schnapsen", "--matches", "2", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "Declarer success" in out and "average deals per match" in out
    import io

    save = tmp_path / "p.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("?\nbid 999\nquit\n"))
    assert main(["play", "tysiacha", "--seed", "2", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "your hand" in out and "not legal" in out
    assert main(["replay", str(save)]) == 0
    assert "scores" in capsys.readouterr().out
    assert main(["show", "no-such-variant"]) == 1


@pytest.mark.parametrize("name", ["tysiacha", "durak"])
def test_match_deal_is_the_public_view(name):
    v = trickcore.load_variant(name)
    m = random_match(v, 6, steps=30)
    public = m.deal
    assert public.seat == -1 and public.hand == ()
    assert public.hand_sizes == m.observation(0).hand_sizes
    assert public.scores == tuple(m.scores)
    data = public.to_dict()
    shown = set(data.get("talon_shown") or ()) | {data.get("trump_card")}
    flat = json.dumps(data)
    for seat in range(m.seats):
        for card in m.current.hand_texts(seat):
            assert f'"{card}"' not in flat or card in shown


def test_cli_play_with_four_seated_and_durak(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "russisch-schnapsen", "--players", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "your hand" in out  # bots played the deal he sat out, then it was his turn
    monkeypatch.setattr("sys.stdin", io.StringIO("?\ndone\ntake\nquit\n"))
    assert main(["play", "durak", "--players", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "trump:" in out and "table:" in out
    assert main(["simulate", "durak", "--players", "4", "--matches", "2"]) == 0
    out = capsys.readouterr().out
    assert "losers by seat" in out and "bouts per deal" in out


def test_observation_log_hides_the_card_given_to_another_defender():
    v = trickcore.load_variant("russisch-schnapsen")
    hands = {1: "KH OH AE 9E AG 10G KG".split()}
    d = v.new_deal(v.stack_deck(hands, ["KE", "OE", "UE"]), dealer=0)
    for action in [
        "keep",
        "keep",
        "keep",
        "bid 90",
        "pass",
        "pass",
        "give UE to 2",
        "give KG to 0",
    ]:
        d.apply(action)
    assert d.observation(2).log[-2:] == ((1, "give UE to 2"), (1, "give a card to 0"))
    assert d.observation(0).log[-2:] == ((1, "give a card to 2"), (1, "give KG to 0"))
    assert d.observation(1).log[-2:] == ((1, "give UE to 2"), (1, "give KG to 0"))
    assert d.public_view().log[3:6] == ((1, "bid 90"), (2, "pass"), (0, "pass"))


@pytest.mark.parametrize("name", trickcore.list_variants())
def test_show_and_simulate_every_shipped_variant(name, capsys):
    assert main(["show", name]) == 0
    assert main(["simulate", name, "--matches", "1"]) == 0
    out = capsys.readouterr().out
    assert "Cards" in out and "1 match of random play" in out


@pytest.mark.parametrize("name", ["belote", "durak"])  # a game of tricks, a game of bouts
def test_an_observation_as_data_holds_every_field_and_is_the_caller_own(name):
    """`Observation.to_dict()` gives every field by name, with the values the observation
    holds; what a caller does to the dict changes neither the observation nor the match."""
    v = trickcore.load_variant(name)
    m = random_match(v, 3, steps=12)
    obs = m.observation(m.to_act)
    data = obs.to_dict()
    fields = [f for f in dir(obs) if not f.startswith("_") and not callable(getattr(obs, f))]
    assert sorted(data) == sorted(fields)
    assert data == attrs.asdict(obs)
    for value in data.values():  # immutable: the observation's own values, shared safely
        hash(value)
    assert json.loads(json.dumps(data)) == json.loads(json.dumps(attrs.asdict(obs)))
    data["hand"] = ()
    data.clear()
    assert obs.to_dict()["hand"] == obs.hand != ()
    assert m.observation(m.to_act) == obs
