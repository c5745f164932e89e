"""Saved matches: format version 2 reloads anywhere, every field is checked strictly, and
every failure is a SavedGameError in plain words."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest

import trickcore
from trickcore.engine.match import save_match
from trickcore.engine.replay import load_match
from trickcore.engine.saving import check_save_path, checksum


def played(v: trickcore.Variant, steps: int = 40, seed: int = 3) -> trickcore.Match:
    m = v.new_match(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_actions()))
    return m


def refused(data: dict, match: str) -> str:
    with pytest.raises(trickcore.SavedGameError, match=match) as info:
        trickcore.match_from_json(data)
    return str(info.value)


@pytest.fixture(scope="module")
def saved() -> dict:
    return played(trickcore.load_variant("tysiacha")).to_json()


def test_version_2_holds_rules_texts_count_and_checksum(saved: dict):
    assert saved["version"] == 2 and saved["action_count"] == len(saved["actions"]) == 40
    assert [r["file"] for r in saved["rules"]] == ["tysiacha"]
    assert saved["rules"][0]["text"] == (Path("variants") / "tysiacha.rules").read_text()
    assert saved["checksum"] == checksum(saved)


def test_a_match_of_a_house_rule_reloads_from_another_folder(tmp_path: Path, monkeypatch):
    """T1..T25 replay: the rules texts travel with the save, the files may be gone."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "house.rules").write_text('extends "tysiacha"\nname: "House"\n')
    m = played(trickcore.load_variant(rules / "house.rules"), steps=60)
    save_match(m, tmp_path / "m.json")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.move(tmp_path / "m.json", elsewhere / "m.json")
    shutil.rmtree(rules)
    monkeypatch.chdir(elsewhere)
    back = load_match("m.json")
    assert back.game.title == "House" and back.history == m.history
    assert back.observation(1) == m.observation(1)


def test_a_save_cut_at_an_action_boundary_is_refused(saved: dict):
    data = dict(saved, actions=saved["actions"][:-5])
    refused(data, "holds 35 actions but says it has 40")
    data["action_count"] = 35
    refused(data, "checksum does not match")


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("version", 1.0, "format version 1.0"),
        ("version", True, "format version True"),
        ("players", True, "'players' must be a whole number, not yes/no"),
        ("seed", 10**20, "'seed' must be between"),
        ("seed", "7", "'seed' must be a whole number, not a text"),
        ("actions", "bid 100", "'actions' must be a list"),
        ("rules", [], "'rules' must hold"),
    ],
)
def test_fields_of_the_wrong_type_are_refused(saved: dict, field, value, message):
    data = dict(saved, **{field: value})
    data["checksum"] = checksum(data)
    refused(data, message)


def test_boolean_scores_are_not_whole_numbers(saved: dict):
    data = json.loads(json.dumps(saved))
    data["start"]["scores"] = [True, False, True]
    data["checksum"] = checksum(data)
    refused(data, "'start.scores entry' must be a whole number, not yes/no")


def test_embedded_rules_that_do_not_match_the_hash_are_refused(saved: dict):
    data = json.loads(json.dumps(saved))
    data["variant"] = "not-shipped"
    data["rules"][0]["text"] += "\n# edited\n"
    data["checksum"] = checksum(data)
    refused(data, "do not match its 'variant_hash'")


def test_huge_numbers_deep_nesting_and_devices_are_saved_game_errors(tmp_path: Path):
    big = tmp_path / "big.json"
    big.write_text('{"format": "trickcore-match", "seed": ' + "9" * 5000 + "}")
    with pytest.raises(trickcore.SavedGameError, match="more than 12 digits"):
        load_match(big)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(trickcore.SavedGameError, match="nested too deeply"):
        load_match(deep)
    with pytest.raises(trickcore.SavedGameError, match="not a regular file"):
        load_match(tmp_path)
    if os.path.exists("/dev/zero"):
        with pytest.raises(trickcore.SavedGameError, match="not a regular file"):
            load_match("/dev/zero")


def test_version_1_variant_path_is_never_followed_outside_rules_files(tmp_path: Path):
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:SECRET\n")
    (tmp_path / "evil.rules").write_text("root:x:0:0:SECRET\n")
    for target in (secret, tmp_path / "evil.rules", Path("/dev/zero")):
        data = {
            "format": "trickcore-match",
            "version": 1,
            "variant": "house",
            "variant_hash": "0" * 16,
            "variant_path": str(target),
            "actions": [],
        }
        text = refused(data, "names variant 'house'")
        assert "SECRET" not in text and str(target) not in text


def _v1(data: dict, variant_path: Path) -> dict:
    old = {k: v for k, v in data.items() if k not in ("rules", "action_count", "checksum")}
    return dict(old, version=1, variant_path=str(variant_path))


def test_version_1_variant_path_is_read_only_in_the_working_folder_or_search_path(
    tmp_path: Path, monkeypatch
):
    """T1..T25 replay of an old save whose rules file lies outside the working folder: only
    a folder the caller names (or the working folder) may supply it."""
    rules = tmp_path / "rules"
    rules.mkdir()
    house = rules / "house.rules"
    house.write_text('extends "tysiacha"\nname: "House"\n')
    m = played(trickcore.load_variant(house), steps=30)
    data = _v1(m.to_json(), house)
    work = tmp_path / "work"  # the rules folder is not below the working folder
    work.mkdir()
    monkeypatch.chdir(work)
    refused(data, "names variant 'house', not a shipped variant, and no readable rules file")
    back = trickcore.match_from_json(data, search_path=[rules])
    assert back.history == m.history and back.game.title == "House"
    monkeypatch.chdir(rules)
    assert trickcore.match_from_json(data).history == m.history


def test_a_hash_mismatch_does_not_show_the_local_files_hash(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    house = tmp_path / "house.rules"
    house.write_text('extends "tysiacha"\nname: "House"\n')
    data = _v1(played(trickcore.load_variant(house), steps=10).to_json(), house)
    house.write_text('extends "tysiacha"\nname: "Changed"\n')
    local = trickcore.load_variant(house).content_hash
    text = refused(data, "different version of variant 'house'")
    assert data["variant_hash"] in text and local not in text


def test_version_1_saves_of_shipped_variants_still_load(saved: dict):
    data = {k: v for k, v in saved.items() if k not in ("rules", "action_count", "checksum")}
    data["version"] = 1
    back = trickcore.match_from_json(data)
    assert [t for _, _, t in back.history] == saved["actions"]


def test_saving_is_atomic_and_leaves_no_temporary_file(tmp_path: Path):
    m = played(trickcore.load_variant("durak"), steps=10)
    target = tmp_path / "m.json"
    save_match(m, target)
    save_match(m, target)
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask  # not the temporary file's 0600
    with pytest.raises(trickcore.SavedGameError, match="cannot save"):
        save_match(m, tmp_path / "no-such-folder" / "m.json")


# ------------------------------------------------------------------ stopped matches
OVERFLOW = """extends "tysiacha"
name: "Overflow"
after_deal {
  rule boom: score = score - 500000000
}
"""


def stopped_match(tmp_path: Path) -> trickcore.Match:
    """A match whose after_deal rule leaves the range of numbers in play: the rules stop it."""
    path = tmp_path / "overflow.rules"
    path.write_text(OVERFLOW)
    m = trickcore.load_variant(path).new_match(seed=3)
    rng = random.Random(3)
    with pytest.raises(trickcore.RulesError, match="the match stops here"):
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
    assert m.is_over and m.stopped is not None
    return m


def resealed(data: dict, **changes) -> dict:
    data = dict(json.loads(json.dumps(data)), **changes)
    data["checksum"] = checksum(data)
    return data


def test_a_match_the_rules_stopped_reloads_stopped(tmp_path: Path):
    """A stopped match saves with its reason and reloads stopped on its last action."""
    m = stopped_match(tmp_path)
    save_match(m, tmp_path / "m.json")
    data = json.loads((tmp_path / "m.json").read_text())
    assert data["stopped"] == m.stopped
    back = load_match(tmp_path / "m.json")
    assert back.is_over and back.stopped == m.stopped
    assert back.history == m.history and back.scores == m.scores
    assert back.legal_actions() == []


def test_a_stopped_match_needs_the_save_to_say_so_with_the_same_reason(tmp_path: Path):
    data = stopped_match(tmp_path).to_json()
    last = len(data["actions"])
    refused(resealed(data, stopped=None), f"action {last} .* cannot be replayed")
    refused(resealed(data, stopped="another reason"), f"action {last} .* cannot be replayed")
    assert "stopped" in data
    del data["stopped"]  # a save written before `stopped` existed keeps the old refusal
    data["checksum"] = checksum(data)
    refused(data, f"action {last} .* cannot be replayed")


def test_a_save_that_says_stopped_must_stop_on_its_last_action(tmp_path: Path):
    data = stopped_match(tmp_path).to_json()
    cut = data["actions"][:-1]
    refused(resealed(data, actions=cut, action_count=len(cut)), "its replay does not stop")
    stopped = data["stopped"]
    refused(resealed(data, stopped=stopped[:10]), "cannot be replayed")
    refused(resealed(data, stopped=5), "'stopped' must be a text, not a whole number")
    with pytest.raises(trickcore.SavedGameError, match="checksum does not match"):
        trickcore.match_from_json(dict(data, stopped=None))


# ------------------------------------------------------------------ bad paths
LONG = "a" * 300


@pytest.mark.parametrize("name", [LONG + ".json", "bad\x00name.json"], ids=["long", "nul"])
def test_unusable_save_paths_are_saved_game_errors(tmp_path: Path, name: str):
    """A file name too long for the system, or holding a NUL byte, is refused in words."""
    m = played(trickcore.load_variant("durak"), steps=5)
    target = tmp_path / name
    with pytest.raises(trickcore.SavedGameError, match="cannot save to"):
        check_save_path(target)
    with pytest.raises(trickcore.SavedGameError, match="cannot save"):
        save_match(m, target)
    with pytest.raises(trickcore.SavedGameError, match="not a regular file"):
        load_match(target)
    assert list(tmp_path.iterdir()) == []
