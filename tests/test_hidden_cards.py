"""No interface shows a seat a card its observation does not hold (issue 27, item 0).

Each test plays deals with gives (Tysiacha T11: the declarer gives a card to each
defender), passes (Hearts H8-H9, private by H27: three cards to another player) and
laid-away cards (Skat K22, private by K46; Preferans R15), and checks every text shown to
a seat, at the moment it is shown, against the cards that seat has seen so far: its
observations, gathered as the deal goes on. A card that appears in what is shown but was
never in one of the seat's observations is a leak.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

import pytest

import trickcore
from trickcore.interfaces.terminal import Output, play_in_terminal
from trickcore.players import make_bot

GIVES_AND_PASSES = [
    ("tysiacha", 3),  # T11: two cards given unseen
    ("hearts", 4),  # H8-H9, H27: three cards passed unseen
    ("skat", 3),  # K22, K46: the skat laid away unseen
    ("preferans", 3),  # R15: two cards discarded unseen
]


class Knowledge:
    """The cards one seat has seen so far (every card text in its observations)."""

    def __init__(self, variant: Any) -> None:
        deck = variant.model.deck
        self.texts = {deck.card_text(c): deck.card_text(c) for c in range(deck.size)}
        self.texts.update({deck.card_glyph(c): deck.card_text(c) for c in range(deck.size)})
        alternatives = "|".join(re.escape(t) for t in sorted(self.texts, key=len, reverse=True))
        self.pattern = re.compile(rf"(?<![A-Za-z0-9])(?:{alternatives})(?![A-Za-z0-9])")
        self.seen: set[str] = set()

    def cards_in(self, text: str) -> set[str]:
        """The cards a text names (by card text or by glyph)."""
        return {self.texts[m.group(0)] for m in self.pattern.finditer(text)}

    def learn(self, *observations: Any) -> None:
        """Add everything in these observations."""
        for obs in observations:
            self.seen |= self.cards_in(repr(obs.to_dict()))

    def leaks(self, shown: str) -> set[str]:
        """The cards `shown` names that the seat has not seen."""
        return self.cards_in(shown) - self.seen


def strings_of(value: Any) -> Iterable[str]:
    """Every string in nested JSON data (keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings_of(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings_of(v)


class Recorder(Output):
    """An Output that checks each text against the person's (seat 0's) knowledge when it is
    printed."""

    def __init__(self, match: Any, knowledge: Knowledge) -> None:
        super().__init__(tty=False)
        self.match = match
        self.knowledge = knowledge
        self.first = match.current
        self.lines: list[str] = []
        self.leaked: list[tuple[str, set[str]]] = []

    def _check(self, text: str) -> None:
        now = self.match.current
        self.knowledge.learn(self.first.observation(0))
        if now is not self.first:
            self.knowledge.learn(now.observation(0))
        self.lines.append(text)
        leaked = self.knowledge.leaks(text)
        if leaked:
            self.leaked.append((text, leaked))

    def print(self, text: str, style: str | None = None) -> None:
        self._check(text)

    def panel(self, title: str, lines: Any) -> None:
        for line in lines:
            self._check(line if isinstance(line, str) else line[0])


@pytest.mark.parametrize("name, players", GIVES_AND_PASSES)
def test_the_terminal_shows_the_person_only_his_own_observation(name, players):
    v = trickcore.load_variant(name)
    hidden_moves = 0
    for seed in range(40):
        if seed >= 3 and hidden_moves:
            break
        m = v.new_match(seed=seed, players=players)
        knowledge = Knowledge(v)
        out = Recorder(m, knowledge)
        rng = random.Random(seed)

        def ask(prompt: str, m: Any = m, out: Recorder = out, rng: random.Random = rng) -> str:
            if m.current is not out.first:  # the first deal is over: stop
                raise EOFError
            return rng.choice(m.legal_actions()).text

        bots = {s: make_bot("random", seed=seed * 10 + s) for s in range(1, players)}
        play_in_terminal(m, bots, out, ask=ask)
        assert not out.leaked, out.leaked[:3]
        hidden_moves += sum(
            1 for line in out.lines if re.search(r"(give|pass|discard) a card", line)
        )
    assert hidden_moves > 0  # the deals did hide cards from the person


def test_the_terminal_shows_a_bots_give_as_the_person_saw_it():
    # T11: the declarer gives one card to each defender. The person (seat 0) passes; the
    # bot that takes the contract gives seat 0 a card he sees and the other defender one he
    # does not: "give a card to N", as his observation's log has it (was "give 9C to N")
    v = trickcore.load_variant("tysiacha")
    m = v.new_match(seed=0)
    out = Recorder(m, Knowledge(v))
    script = iter(["pass"])

    def ask(prompt: str) -> str:
        if m.current is not out.first:
            raise EOFError
        return next(script, None) or m.legal_actions()[0].text

    play_in_terminal(
        m, {1: make_bot("greedy", seed=1), 2: make_bot("random", seed=2)}, out, ask=ask
    )
    declarer = out.first.declarer
    other = 3 - declarer
    assert declarer in (1, 2)
    assert f"seat {declarer}: give a card to {other}" in out.lines
    to_me = [line for line in out.lines if line.startswith(f"seat {declarer}: give ")]
    assert any(re.fullmatch(rf"seat {declarer}: give \S+ to 0", line) for line in to_me)
    assert not out.leaked


def _play_web_deal(client: Any, app: Any, name: str, players: int, seed: int) -> int:
    """Play seat 0's moves at random until the first deal is over; check every view."""
    created = client.post(
        "/api/tables",
        json={"variant": name, "players": players, "opponents": "random"},
        headers={"Origin": "http://testserver"},
    ).json()
    token = created["token"]
    headers = {"x-trickcore-seat": token, "Origin": "http://testserver"}
    table = app.state.tables.get(created["table"])
    v = trickcore.load_variant(name)
    knowledge = Knowledge(v)
    first = table.match.current
    rng = random.Random(seed)
    hidden = 0
    for _ in range(400):
        view = client.get(f"/api/tables/{created['table']}", headers=headers).json()
        knowledge.learn(first.observation(0))
        if table.match.current is not first:
            knowledge.learn(table.match.current.observation(0))
        shown = " ".join(strings_of({k: v for k, v in view.items() if k != "deck"}))
        assert not knowledge.leaks(shown), knowledge.leaks(shown)
        hidden += len(re.findall(r"(give|pass|discard) a card", shown))
        if table.match.current is not first or view["is_over"]:
            return hidden
        if view["your_turn"]:
            action = rng.choice(view["legal"])["id"]
            reply = client.post(
                f"/api/tables/{created['table']}/move", json={"action": action}, headers=headers
            )
            assert reply.status_code == 200, reply.text
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("name, players", GIVES_AND_PASSES)
def test_the_web_table_shows_a_seat_only_its_own_observation(name, players):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from trickcore.interfaces.web.app import create_app

    hidden = 0
    for seed in range(40):
        if seed >= 2 and hidden:
            break
        app = create_app(bot_delay=0, seed=seed, bot_threads=0)
        with TestClient(app) as client:
            hidden += _play_web_deal(client, app, name, players, seed)
    assert hidden > 0


@pytest.mark.parametrize("name, players", GIVES_AND_PASSES)
def test_openspiel_strings_show_a_seat_only_its_own_observation(name, players):
    pytest.importorskip("pyspiel")
    from trickcore.openspiel import load_game

    v = trickcore.load_variant(name)
    hidden = 0
    for seed in range(40):
        if seed >= 2 and hidden:
            break
        game = load_game(name, players=players)
        state = game.new_initial_state()
        rng = random.Random(seed)
        order: list[int] = []
        match = None
        knowledge = [Knowledge(v) for _ in range(players)]
        while not state.is_terminal():
            if state.is_chance_node():
                card = rng.choice([a for a, _ in state.chance_outcomes()])
                order.append(card)
                state.apply_action(card)
                continue
            if match is None:  # dealt: the same deal in the library, step by step
                match = v.new_match(deck_orders=[order], players=players)
            for p in range(players):
                knowledge[p].learn(match.observation(p))
                for shown in (state.information_state_string(p), state.observation_string(p)):
                    assert not knowledge[p].leaks(shown), (p, knowledge[p].leaks(shown))
                    hidden += len(re.findall(r"(give|pass|discard) a card", shown))
            action = rng.choice(state.legal_actions())
            assert action in match.legal_ids()
            state.apply_action(action)
            match.apply_id(action)
    assert hidden > 0


@pytest.mark.parametrize("name, players", GIVES_AND_PASSES)
def test_pettingzoo_render_shows_only_the_seat_to_acts_observation(name, players):
    pytest.importorskip("pettingzoo")
    from trickcore.pettingzoo import raw_env

    v = trickcore.load_variant(name)
    env = raw_env(name, players=players, render_mode="ansi")
    env.reset(seed=5)
    knowledge = [Knowledge(v) for _ in range(players)]
    rng = random.Random(5)
    first = env.match.current
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        if termination or truncation or env.match.current is not first:
            break
        seat = env.possible_agents.index(agent)
        knowledge[seat].learn(env.match.observation(seat))
        shown = env.render()
        assert not knowledge[seat].leaks(shown), knowledge[seat].leaks(shown)
        env.step(rng.choice(env.match.legal_ids()))
