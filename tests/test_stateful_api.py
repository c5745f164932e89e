"""The public match API as a hypothesis rule-based state machine, for one variant of every
shipped game: actions applied as text, as `Action` objects and as integer ids agree; a clone
is independent of its original; a match saved mid-way loads back to the same state; an
illegal action is refused and changes nothing; each seat sees its own hand only.

hypothesis drives the rules in any order and shrinks a failing sequence to the shortest."""

from __future__ import annotations

import json

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import trickcore
from trickcore import IllegalActionError, Match

# one variant of every shipped game: the files that extend no other, and Russisch
# Schnapsen (which extends Tysiacha) with its 36 cards and ohne bids
GAMES = [n for n in trickcore.list_variants() if len(trickcore.load_rules(n).files) == 1]
GAMES.append("russisch-schnapsen-36-ohne")


def views(m: Match) -> list[object]:
    """Everything a seat or the public can see, and what is legal: equal states agree here."""
    seats = range(len(m.scores))
    return [
        m.is_over,
        m.to_act,
        tuple(m.scores),
        [h[2] for h in m.history],
        [a.text for a in m.legal_actions()] if not m.is_over else [],
        *(m.observation(s) for s in seats),
    ]


def machine_for(name: str) -> type[RuleBasedStateMachine]:
    """A state machine over matches of the shipped variant `name`."""
    game = trickcore.load_variant(name)

    class MatchMachine(RuleBasedStateMachine):
        """A match and a twin fed the same actions in another form."""

        match: Match
        twin: Match

        @initialize(
            seed=st.integers(0, 2**20),
            players=st.sampled_from(sorted(game.model.players)),
            dealer=st.integers(0, 7),
        )
        def start(self, seed: int, players: int, dealer: int) -> None:
            self.match = game.new_match(seed=seed, players=players, dealer=dealer % players)
            self.twin = game.new_match(seed=seed, players=players, dealer=dealer % players)
            self.seen: set[str] = set()

        def _legal(self) -> list[str]:
            legal = [a.text for a in self.match.legal_actions()]
            self.seen.update(legal)
            return legal

        @precondition(lambda self: not self.match.is_over)
        @rule(choice=st.integers(0, 10**6), form=st.sampled_from(["text", "action", "id"]))
        def play(self, choice: int, form: str) -> None:
            """Apply one legal action to both: to the match in one form, the twin as text."""
            actions = self.match.legal_actions()
            ids = self.match.legal_ids()
            self._legal()
            k = choice % len(actions)
            assert game.action_text(ids[k]) == actions[k].text  # the ids list the same
            if form == "id":
                self.match.apply_id(ids[k])
            elif form == "action":
                self.match.apply(actions[k])
            else:
                self.match.apply(actions[k].text)
            self.twin.apply(actions[k].text)

        @precondition(lambda self: not self.match.is_over)
        @rule(choice=st.integers(0, 10**6), steps=st.integers(1, 120))
        def clone_is_independent(self, choice: int, steps: int) -> None:
            """A clone plays on alone (up to the end of its deal and beyond): the original
            does not move; a clone and a match given the same action agree."""
            before = views(self.match)
            copy = self.match.clone()
            assert views(copy) == before
            legal = self._legal()
            action = legal[choice % len(legal)]
            copy.apply(action)
            assert views(self.match) == before
            self.twin.apply(action)
            self.match.apply(action)
            assert views(copy) == views(self.match)
            after = views(self.match)
            for k in range(steps):
                if copy.is_over:
                    break
                options = copy.legal_actions()
                copy.apply(options[(choice + k) % len(options)])
            assert views(self.match) == after

        @rule()
        def save_and_load(self) -> None:
            """A match saved as JSON text loads back to the same state, and plays on."""
            data = json.loads(json.dumps(self.match.to_json()))
            loaded = trickcore.match_from_json(data)
            assert views(loaded) == views(self.match)
            self.match = loaded

        @precondition(lambda self: not self.match.is_over)
        @rule(choice=st.integers(0, 10**6), junk=st.sampled_from(["", "play", "bid -5", "ZZ"]))
        def illegal_is_refused(self, choice: int, junk: str) -> None:
            """An action legal elsewhere but not now, or junk, is refused; nothing changes."""
            legal = set(self._legal())
            others = sorted(self.seen - legal)
            text = others[choice % len(others)] if others and choice % 2 else junk
            before = views(self.match)
            with pytest.raises(IllegalActionError):
                self.match.apply(text)
            assert views(self.match) == before

        @rule(choice=st.integers(0, 10**6))
        def careless_caller(self, choice: int) -> None:
            """Everything a match hands out, changed by its caller (issue 27, item 8):
            lists cleared, reordered and grown, records and kept values rewritten. The
            match does not change."""
            m = self.match
            before = views(m)
            saved = m.to_json()
            legal, ids = m.legal_actions(), m.legal_ids()
            stranger = trickcore.Action("play", "play ZZ", card=choice % 200)
            legal.append(stranger)
            legal.reverse()
            ids.append(10**9)
            ids.sort(reverse=True)
            m.scores.append(choice)
            m.winners.append(choice)
            for kept in m.kept:
                kept.clear()
            for record in m.deal_results:
                record["gains"] = [choice]
                record.clear()
            m.start.clear()
            m.deck_orders.clear()
            saved_again = m.to_json()
            saved_again["actions"].append("pass")
            assert views(m) == before
            assert m.to_json() == saved
            if not m.is_over:
                with pytest.raises(IllegalActionError):
                    m.apply(stranger)
                assert views(m) == before

        @invariant()
        def twin_agrees(self) -> None:
            """The same actions in another form give the same state."""
            if hasattr(self, "twin"):
                assert views(self.twin) == views(self.match)

        @invariant()
        def each_seat_sees_only_its_hand(self) -> None:
            """A seat's observation holds its own hand; the public view holds none; the
            player to act has something to do until the match is over."""
            if not hasattr(self, "match"):
                return
            m = self.match
            public = m.deal
            assert public.hand == ()
            for s in range(len(m.scores)):
                seen = m.observation(s)
                assert len(seen.hand) == seen.hand_sizes[s] == public.hand_sizes[s]
            if not m.is_over:
                assert m.legal_actions() and 0 <= m.to_act < len(m.scores)

    MatchMachine.__name__ = f"MatchMachine_{name.replace('-', '_')}"
    return MatchMachine


@pytest.mark.parametrize("name", GAMES)
def test_the_match_api_holds_under_any_sequence_of_calls(name: str) -> None:
    run_state_machine_as_test(
        machine_for(name),
        settings=settings(settings(), stateful_step_count=40, max_examples=8),
    )
