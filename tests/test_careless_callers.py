"""A library that its caller cannot corrupt (issue 27, items 8-10 and 12): returned values
are the caller's own, threads are refused rather than let corrupt a match, every match the
engine plays saves and reloads, and a save is judged by what it carries."""

from __future__ import annotations

import json
import random
import sys
import threading
from pathlib import Path

import pytest

import trickcore
from trickcore.engine import match as match_module
from trickcore.engine import saving
from trickcore.engine.saving import checksum, saved_text
from trickcore.language.loader import MAX_RULES_CHARS, sources_hash


def _state(m: trickcore.Match) -> tuple:
    return (
        [a.text for a in m.legal_actions()],
        m.legal_ids(),
        list(m.history),
        m.scores,
        m.winners,
        list(m.deal_results),
        m.kept,
        m.to_json()["actions"],
    )


# ------------------------------------------------------------------ item 8
def test_the_legal_actions_returned_are_the_callers_own():
    v = trickcore.load_variant("tysiacha")
    m = v.new_match(seed=3)
    other = v.new_match(seed=4)
    foreign = next(a for a in other.legal_actions())  # a bid of another match: fine
    card = v.action_of(v.actions.play[0].id)  # 'play AS': never legal in the bidding
    legal = m.legal_actions()
    before = _state(m)
    legal.append(card)
    with pytest.raises(trickcore.IllegalActionError, match="is not legal now"):
        m.apply(card)  # was taken: history said 'play AS', the save no longer loaded
    legal.clear()
    assert _state(m) == before  # the legal bids are still legal (was: all refused)
    shuffled = m.legal_actions()
    random.Random(1).shuffle(shuffled)
    assert m.legal_ids() == before[1]  # (was: reordered with the list)
    ids = m.legal_ids()
    ids.reverse()
    assert m.legal_ids() == before[1]
    m.apply(foreign.text)
    assert trickcore.match_from_json(m.to_json()).history == m.history
    # a deal's own lists too (Match.current is the full state, for tests and referees)
    deal = m.current
    deal.legal_actions().append(card)
    with pytest.raises(trickcore.IllegalActionError):
        deal.apply(card)


def test_every_value_a_match_hands_out_is_the_callers_to_change():
    v = trickcore.load_variant("preferans")  # kept values (the score sheet), results
    m = v.new_match(seed=2, players=3)
    rng = random.Random(2)
    while m.deals_played < 2:
        m.apply(rng.choice(m.legal_actions()))
    before = _state(m)
    saved = m.to_json()
    m.scores.append(5)
    m.scores[0] = 10**6
    m.winners.append(1)
    m.kept[0]["pool"] = 99
    m.kept_state(0)["pool"] = 99
    m.deal_results[0]["gains"].append(7)
    m.deal_results[0]["declarer"] = 2
    for r in m.deal_results:
        r.clear()
    m.start["dealer"] = 2
    m.deck_orders.append([1, 2, 3])
    with pytest.raises((TypeError, AttributeError)):
        m.history.append((0, 0, "pass"))  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        m.history[0] = (0, 0, "pass")  # type: ignore[index]
    m.history[:].clear()
    data = m.to_json()
    data["actions"].clear()
    data["rules"].clear()
    assert _state(m) == before
    assert m.to_json() == saved
    again = trickcore.match_from_json(saved)
    assert again.history == m.history and again.scores == m.scores
    with pytest.raises(AttributeError):  # observations are frozen
        m.observation(0).hand = ()  # type: ignore[misc]


# ------------------------------------------------------------------ item 9
def test_a_second_thread_is_refused_while_one_uses_the_match():
    v = trickcore.load_variant("tysiacha")
    m = v.new_match(seed=1)
    inside, leave = threading.Event(), threading.Event()

    class SlowHistory(list):  # the match's history: its first action waits inside the match
        def append(self, item):
            inside.set()
            assert leave.wait(30)
            super().append(item)

    m._history = SlowHistory(m._history)
    first = m.legal_actions()[0]
    worker = threading.Thread(target=m.apply, args=(first,))
    worker.start()
    assert inside.wait(30)
    before_history = len(m.current.history)
    for call in (
        m.legal_actions,
        m.legal_ids,
        lambda: m.apply("pass"),
        lambda: m.apply_id(m.current.legal_ids()[0]),
        lambda: m.observation(1),
        lambda: m.deal,
        m.clone,
        m.to_json,
    ):
        with pytest.raises(trickcore.ConcurrentUseError, match="in use by another thread"):
            call()
    assert len(m.current.history) == before_history  # nothing changed by the refused calls
    leave.set()
    worker.join(30)
    assert [text for _, _, text in m.history] == [first.text]
    m.apply(m.legal_actions()[0])  # usable again, from any thread


def test_threads_sharing_a_match_never_corrupt_it():
    # four threads playing one match at once (was: 5 of 5 trials corrupted, bare
    # ValueError, IndexError and NotImplementedError from inside): each call either works
    # or is refused with ConcurrentUseError / IllegalActionError (a stale choice), and the
    # match replays exactly from its save afterwards. The threads start together (a
    # barrier); a busy machine may still run them one after the other, so trials are made
    # until they collide (at most 10: each trial's match is checked whether or not)
    v = trickcore.load_variant("tysiacha")
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    collided = False
    try:
        for trial in range(10):
            m = v.new_match(seed=5 + trial)
            unexpected: list[BaseException] = []
            refused = [0]
            start = threading.Barrier(4)

            def play(seed: int, m=m, unexpected=unexpected, refused=refused, start=start) -> None:
                rng = random.Random(seed)
                start.wait()
                for _ in range(600):
                    try:
                        legal = m.legal_actions()
                        if not legal:
                            return
                        m.apply(rng.choice(legal))
                    except (trickcore.ConcurrentUseError, trickcore.IllegalActionError):
                        refused[0] += 1
                    except BaseException as exc:  # noqa: BLE001 - anything else is a failure
                        unexpected.append(exc)
                        return

            threads = [threading.Thread(target=play, args=(s,)) for s in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            assert not unexpected, unexpected[:3]
            again = trickcore.match_from_json(json.loads(json.dumps(m.to_json())))
            assert again.history == m.history and again.scores == m.scores
            assert [a.text for a in again.legal_actions()] == [a.text for a in m.legal_actions()]
            if refused[0] > 0:  # the threads did collide
                collided = True
                break
    finally:
        sys.setswitchinterval(old)
    assert collided


# ------------------------------------------------------------------ item 10
LONG_DURAK = 'extends "durak"\nmatch {\n  deal_limit: 100000\n}\n'


def test_a_match_ends_at_the_most_a_save_holds_and_saves_and_reloads(tmp_path, monkeypatch):
    # the limits made small (the engine and the loader read the same constants): a match
    # that would go on past them ends there, ranked as it stands, and its save loads back
    monkeypatch.setattr(match_module, "MAX_SAVED_CHARS", 3000 * saving.ACTION_CHARGE)
    monkeypatch.setattr(saving, "MAX_ACTIONS", 3000)
    path = tmp_path / "long-durak.rules"
    path.write_text(LONG_DURAK)
    v = trickcore.load_variant(str(path))
    m = v.new_match(seed=1, players=3)
    rng = random.Random(1)
    for _ in range(3100):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_actions()))
    assert m.is_over and 2000 < m.actions_taken <= 3000  # (was: played on, past that)
    assert "the most a match may have" in (m.stopped or "")
    top = max(m.standing(s) for s in range(3))
    assert m.winners == [s for s in range(3) if m.standing(s) == top]
    trickcore.save_match(m, tmp_path / "long.json")
    back = trickcore.load_match(tmp_path / "long.json")
    assert back.history == m.history and back.is_over and back.stopped == m.stopped
    assert back.winners == m.winners and back.scores == m.scores


def test_the_largest_match_the_engine_allows_fits_in_a_save():
    # at the real limits: MAX_ACTIONS actions whose texts fill MAX_SAVED_CHARS, and rules
    # texts of MAX_RULES_CHARS characters of the widest kind in JSON, written as save_match
    # writes them, stay within MAX_SAVE_BYTES, which read_saved_json accepts
    per_action = saving.MAX_SAVED_CHARS // saving.MAX_ACTIONS - saving.ACTION_OVERHEAD
    actions = ["x" * per_action] * saving.MAX_ACTIONS
    assert saving.saved_chars(actions, []) <= saving.MAX_SAVED_CHARS
    data = {
        "format": saving.FORMAT,
        "actions": actions,
        "rules": [{"file": "a.rules", "text": "\x01" * MAX_RULES_CHARS}],
    }
    assert len(saved_text(data).encode("utf-8")) <= saving.MAX_SAVE_BYTES


# ------------------------------------------------------------------ item 12 (saves, seeds)
def _resigned(data: dict) -> dict:
    data["checksum"] = checksum(data)
    return data


def test_a_save_with_edited_rules_under_a_shipped_name_is_not_the_shipped_variant():
    v = trickcore.load_variant("tysiacha")
    m = v.new_match(seed=1)
    m.apply(m.legal_actions()[0])
    data = m.to_json()
    (entry,) = data["rules"]
    assert "target: 1000" in entry["text"]
    entry["text"] = entry["text"].replace("target: 1000", "target: 5000")
    data["variant_hash"] = sources_hash([entry["text"]])
    back = trickcore.match_from_json(_resigned(data))
    assert back.game.model.match.target == 5000  # the rules it carries
    assert back.game.name == "tysiacha-as-saved"  # (was: 'tysiacha', the shipped title)
    assert "not the shipped file" in back.game.title
    assert back.history == m.history


def test_a_save_whose_texts_do_not_give_its_hash_is_refused():
    v = trickcore.load_variant("tysiacha")
    data = v.new_match(seed=1).to_json()
    durak = trickcore.load_variant("durak").new_match(seed=1, players=3).to_json()
    data["rules"] = durak["rules"]  # another variant's texts, the real hash kept
    with pytest.raises(trickcore.SavedGameError, match="do not match its 'variant_hash'"):
        trickcore.match_from_json(_resigned(data))  # (was: loaded, its texts ignored)


@pytest.mark.parametrize("seed", [-1, -(10**11)])
def test_a_negative_seed_is_refused(seed):
    v = trickcore.load_variant("tysiacha")
    with pytest.raises(trickcore.TrickcoreError, match="a seed is a whole number from 0"):
        v.new_match(seed=seed)  # (was: seed -1 dealt as seed 1)
    data = v.new_match(seed=1).to_json()
    data["seed"] = seed
    with pytest.raises(trickcore.SavedGameError, match="'seed' must be between 0"):
        trickcore.match_from_json(_resigned(data))


def test_a_secret_match_records_its_deals_and_saves_and_reloads(tmp_path):
    v = trickcore.load_variant("hearts")
    m = v.new_match(secret=True)
    assert m.seed is None and m.secret
    rng = random.Random(3)
    while m.deals_played < 2:
        m.apply(rng.choice(m.legal_actions()))
    assert len(m.deck_orders) == m.deals_dealt == 3
    trickcore.save_match(m, tmp_path / "m.json")
    data = json.loads(Path(tmp_path / "m.json").read_text())
    assert data["seed"] is None and data["secret"] is True and len(data["deck_orders"]) == 3
    back = trickcore.load_match(tmp_path / "m.json")
    assert back.history == m.history and back.observation(0) == m.observation(0)
    assert back.secret  # and it deals on from the secret source
    with pytest.raises(trickcore.TrickcoreError, match="has no seed"):
        v.new_match(seed=3, secret=True)


def test_a_variant_of_more_rules_text_than_a_save_carries_is_refused(tmp_path):
    # the rules texts travel in every saved match: a variant is at most MAX_RULES_CHARS
    # characters of rules files in all, so that its saves stay within MAX_SAVE_BYTES
    filler = "# " + "x" * 98 + "\n"
    parents = []
    for i in range(22):
        part = tmp_path / f"part{i}.rules"
        part.write_text('extends "tysiacha"\n' + filler * 1900)
        parents.append(f'"./part{i}.rules"')
    top = tmp_path / "top.rules"
    top.write_text("extends " + ", ".join(parents) + "\n")
    with pytest.raises(trickcore.RulesError, match="hold more than 4,000,000 characters") as err:
        trickcore.load_variant(str(top))
    assert err.value.location is not None and err.value.location.file.endswith("top.rules")


def test_the_card_tables_a_variant_hands_out_are_not_its_own_to_change():
    """How the cards compare and what they are worth, as a bot reads them: handed out as
    tuples, so a caller cannot change what the engine plays by."""
    v = trickcore.load_variant("belote")  # points by the trump, jacks and nines above
    eff, power = v.relations(2)
    points = v.points_with(2)
    trumps = v.trump_order(2, "", ())
    for table in (eff, power, points, trumps):
        with pytest.raises(TypeError):
            table[0] = 99  # type: ignore[index]
    assert v.relations(2) == (eff, power) and v.points_with(2) == points
