"""trickcore.pettingzoo: every shipped variant as a PettingZoo AEC environment (issue 14,
item 2)."""

from __future__ import annotations

import re
import subprocess
import sys
import types
import warnings
from pathlib import Path

import pytest

import trickcore

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
tpz = pytest.importorskip("trickcore.pettingzoo")
from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    render_test,
    seed_test,
    state_test,
)
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_random(env, seed: int) -> tuple[dict[str, float], dict, int]:
    """Random legal actions until every agent is done: cumulative rewards, last info, steps."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    info: dict = {}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    return totals, info, steps


@pytest.mark.parametrize("name", trickcore.list_variants())
def test_api_test_for_every_variant(name):
    with warnings.catch_warnings():
        # api_test's advice for dict observations with action masks (as in PettingZoo's
        # own classic environments)
        warnings.simplefilter("ignore", UserWarning)
        api_test(tpz.env(name), num_cycles=5, verbose_progress=False)


def test_random_agents_play_a_whole_match_and_rewards_add_up_to_the_scores():
    env = tpz.env("sixty-six")
    totals, info, steps = run_random(env, seed=3)
    match = env.unwrapped.match
    assert match.is_over and steps == len(match.history)
    assert totals == {f"player_{s}": float(match.scores[s]) for s in range(2)}
    assert info["winners"] == [f"player_{s}" for s in match.winners]
    assert env.agents == []


def test_a_single_deal_and_bout_games():
    env = tpz.env("durak", players=4, match=False)
    totals, _, _ = run_random(env, seed=5)
    match = env.unwrapped.match
    assert match.deals_played == 1
    assert totals == {
        f"player_{s}": float(match.standing(s)) for s in range(4)
    }  # durak ranks by -durak_count: the loser gets -1
    assert sorted(totals.values()) == [-1.0, 0.0, 0.0, 0.0]
    # the last observation shows the deal that ended, not the next one the match dealt
    raw = env.unwrapped
    views = raw.encoder.views(raw.observe("player_0")["observation"])
    assert views["phase"][tpz.PHASES.index("over")] == 1.0


def test_observation_and_mask_follow_the_match():
    env = tpz.env("tysiacha", seed=9)
    env.reset()
    raw = env.unwrapped
    match = raw.match
    seat = match.to_act
    agent = env.agent_selection
    assert agent == f"player_{seat}"
    obs = env.observe(agent)
    assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(match.legal_ids())
    assert obs["observation"].shape == raw.observation_space(agent)["observation"].shape
    assert obs["observation"].dtype == np.float32
    views = raw.encoder.views(obs["observation"])
    hand = [raw.variant.card(t) for t in match.observation(seat).hand]
    assert sorted(np.flatnonzero(views["hand"]).tolist()) == sorted(hand)
    other = env.observe(f"player_{(seat + 1) % 3}")
    assert not other["action_mask"].any()
    assert raw.action_space(agent).n == raw.variant.num_actions


def test_reset_with_a_seed_repeats_the_match():
    env = tpz.env("spades")
    env.reset(seed=4)
    first = env.observe(env.agent_selection)["observation"].copy()
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    env.reset(seed=4)
    again = env.observe(env.agent_selection)["observation"]
    assert (first == again).all()
    env.reset(seed=5)
    assert not (env.observe(env.agent_selection)["observation"] == first).all()


def test_render_ansi_and_bad_arguments():
    env = tpz.env("tysiacha", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Tysiacha" in text and "to act: player_1" in text and "legal: bid 100" in text
    with pytest.raises(trickcore.TrickcoreError, match="render_mode"):
        tpz.env("tysiacha", render_mode="rgb_array")
    with pytest.raises(trickcore.TrickcoreError, match="max_cycles"):
        tpz.env("tysiacha", max_cycles=0)
    with pytest.raises(trickcore.TrickcoreError):
        tpz.env("tysiacha", players=5)
    env.reset(seed=1)
    with pytest.raises(trickcore.IllegalActionError):
        env.step(raw_illegal(env))


def raw_illegal(env) -> int:
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


def test_missing_pettingzoo_names_the_extra():
    code = "import sys; sys.modules['pettingzoo'] = None; import trickcore.pettingzoo"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode != 0
    assert "pip install 'trickcore[pettingzoo]'" in out.stderr


def test_example_random_agents_play_a_match(tmp_path):
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "pettingzoo_random.py"), "sixty-six", "2"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "winners: player_" in done.stdout and "cumulative reward" in done.stdout


def test_a_rules_file_that_stops_the_match_ends_the_episode(tmp_path):
    path = tmp_path / "overflow.rules"
    path.write_text(
        'extends "tysiacha"\nname: "Overflow"\n'
        "after_deal {\n  rule boom: score = score - 500000000\n}\n"
    )
    env = tpz.env(path)
    totals, info, _ = run_random(env, seed=3)
    assert "the match stops here" in info["stopped"] and info["winners"] == []
    assert env.agents == []


# ---------------------------------------------------------------- issue 30
@pytest.mark.parametrize("name", ["tysiacha", "durak", "hearts", "skat"])
def test_pettingzoo_seed_parallel_render_and_state_tests(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        seed_test(lambda **kw: tpz.env(name, **kw), num_cycles=30)
        parallel_api_test(turn_based_aec_to_parallel(tpz.env(name)), num_cycles=30)
        render_test(lambda render_mode=None: tpz.env(name, render_mode=render_mode))
        state_test(tpz.env(name), tpz.parallel_env(name), num_cycles=5)


def test_pettingzoo_max_cycles_test():
    """A cycle is a turn for every seat: Whist's first tricks give each seat one turn."""
    module = types.SimpleNamespace(
        env=lambda **kw: tpz.env("whist", **kw),
        parallel_env=lambda **kw: tpz.parallel_env("whist", **kw),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        max_cycles_test(module)
    env = tpz.env("tysiacha", max_cycles=2)
    _, _, steps = run_random(env, seed=1)
    assert steps == 6 and all(env.unwrapped.truncations.values()) and env.agents == []


def test_names_carry_a_version():
    assert tpz.env("russisch-schnapsen").metadata["name"] == "trickcore_russisch_schnapsen_v0"
    assert tpz.env_name(trickcore.load_variant("tysiacha")) == "trickcore_tysiacha_v0"


@pytest.mark.parametrize("name", trickcore.list_variants())
def test_observations_and_states_stay_within_finite_bounds(name):
    env = tpz.env(name, match=False)
    raw = env.unwrapped
    space = raw.observation_space("player_0")["observation"]
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert (space.low <= space.high).all() and (space.high - space.low).min() > 0
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        assert raw.observation_space(agent).contains(obs), agent
        assert raw.state_space.contains(raw.state())
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_state_holds_every_hand_and_the_public_view():
    env = tpz.env("tysiacha")
    env.reset(seed=2)
    raw = env.unwrapped
    state = raw.state()
    hands = state[raw.encoder.size :].reshape(3, 24)
    for seat in range(3):
        cards = sorted(raw.variant.card(t) for t in raw.match.observation(seat).hand)
        assert np.flatnonzero(hands[seat]).tolist() == cards
    public = raw.encoder.views(state[: raw.encoder.size])
    assert not public["hand"].any() and not public["seat"].any()


def card_words(text: str, cards: set[str]) -> set[str]:
    return set(re.findall(r"[0-9A-Za-z]+", text)) & cards


@pytest.mark.parametrize("name", ["tysiacha", "hearts", "durak", "sixty-six"])
def test_render_shows_an_agent_only_its_own_observation(name, capsys):
    env = tpz.env(name, render_mode="human")
    env.reset(seed=3)
    raw = env.unwrapped
    cards = set(raw.variant.card_texts)
    rng = np.random.default_rng(3)
    for _ in range(8):
        match = raw.match
        views = [match.observation(s) for s in range(raw.seats)]
        for seat, agent in enumerate(raw.possible_agents):
            shown = card_words(raw.render_text(agent), cards)
            assert set(views[seat].hand) <= shown
            # every card it shows is in the agent's observation: never another seat's
            # hidden cards
            assert shown <= card_words(str(views[seat]), cards)
            for other in range(raw.seats):
                hidden = set(views[other].hand) - card_words(str(views[seat]), cards)
                assert not hidden & shown
        assert env.render() is None  # human: printed
        printed = capsys.readouterr().out
        assert printed.strip() == raw.render_text().strip()
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
