"""Rules files are untrusted: `extends` reads only shipped variants and rules files inside the
folder of the file naming them, and no error shows the contents of any other file."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

import trickcore
from trickcore.language.loader import load_rules

SECRET = "root:x:0:0:SECRET-FIRST-LINE"


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    """A rules folder, and outside it a 'system' file and a .rules file with a secret line."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "passwd").write_text(SECRET + "\nmore\n")
    (tmp_path / "outside" / "secret.rules").write_text(SECRET + "\n")
    rules = tmp_path / "rules"
    rules.mkdir()
    return rules


def refused(path: Path) -> str:
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.load_variant(path)
    text = str(info.value)
    assert "SECRET" not in text
    return text


@pytest.mark.parametrize(
    "ref",
    [
        "../../../../../../../../{outside}/passwd",
        "../outside/secret.rules",
        "{outside}/secret.rules",
        "{outside}/passwd",
    ],
)
def test_extends_never_leaves_the_folder_nor_echoes_the_file(layout: Path, ref: str):
    outside = layout.parent / "outside"
    ref = ref.format(outside=str(outside).lstrip("/") if ref.startswith("..") else outside)
    house = layout / "house.rules"
    house.write_text(f'extends "{ref}"\n')
    text = refused(house)
    assert f'extends "{ref}"' in text and "house.rules:1:1" in text


def test_extends_through_a_symlink_out_of_the_folder_is_refused(layout: Path):
    (layout / "link.rules").symlink_to(layout.parent / "outside" / "secret.rules")
    house = layout / "house.rules"
    house.write_text('extends "./link.rules"\n')
    assert "may not lead out" in refused(house)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no zero device")
def test_extends_of_a_device_is_refused(layout: Path):
    house = layout / "house.rules"
    house.write_text('extends "/dev/zero"\n')
    refused(house)
    with pytest.raises(trickcore.RulesError, match="not a regular file"):
        trickcore.load_variant("/dev/zero")


def test_extends_of_a_file_over_the_size_limit_is_refused(layout: Path):
    (layout / "big.rules").write_text("# SECRET\n" * 30_000)
    house = layout / "house.rules"
    house.write_text('extends "./big.rules"\n')
    assert "larger than 200,000 characters" in refused(house)


def test_extends_paths_inside_the_folder_and_subfolders_work(layout: Path):
    """T1 (via Tysiacha): a house rule built from files in its folder keeps every setting."""
    (layout / "sub").mkdir()
    (layout / "sub" / "base.rules").write_text('extends "tysiacha"\nname: "Base"\n')
    (layout / "house.rules").write_text('extends "./sub/base.rules"\nname: "House"\n')
    rules = load_rules(layout / "house.rules")
    assert rules.files == ("tysiacha", "sub/base.rules", "house.rules")
    v = trickcore.load_variant(layout / "house.rules")
    assert v.title == "House" and v.model.players == (3,)


def test_a_search_path_given_explicitly_is_honoured(layout: Path, tmp_path: Path):
    common = tmp_path / "common"
    common.mkdir()
    (common / "base.rules").write_text('extends "tysiacha"\nname: "Common"\n')
    (layout / "house.rules").write_text('extends "./base.rules"\n')
    refused(layout / "house.rules")
    rules = load_rules(layout / "house.rules", search_path=[common])
    assert rules.files == ("tysiacha", "search1/base.rules", "house.rules")


def test_a_bare_name_is_always_the_shipped_variant(tmp_path: Path, monkeypatch):
    """A stray ./tysiacha.rules cannot shadow the shipped game; a path names the file."""
    monkeypatch.chdir(tmp_path)
    Path("tysiacha.rules").write_text('extends "durak"\nname: "Impostor"\n')
    assert trickcore.load_variant("tysiacha").title != "Impostor"
    assert trickcore.load_variant("tysiacha").model.tricks is not None  # T1: a trick game
    assert trickcore.load_variant("./tysiacha.rules").title == "Impostor"
    assert trickcore.load_variant(Path("tysiacha.rules")).title == "Impostor"
    house = tmp_path / "house.rules"
    house.write_text('extends "tysiacha"\n')
    assert trickcore.load_variant(house).model.tricks is not None


def test_a_local_file_named_like_a_variant_needs_a_path(tmp_path: Path):
    (tmp_path / "mine.rules").write_text('extends "tysiacha"\n')
    (tmp_path / "house.rules").write_text('extends "mine"\n')
    with pytest.raises(trickcore.RulesError, match=r'"\./mine\.rules"'):
        trickcore.load_variant(tmp_path / "house.rules")
    (tmp_path / "house.rules").write_text('extends "./mine.rules"\n')
    assert trickcore.load_variant(tmp_path / "house.rules").name == "house"


def test_text_rules_resolve_paths_only_in_base_dir(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("mine.rules").write_text('extends "tysiacha"\nname: "Mine"\n')
    with pytest.raises(trickcore.RulesError):
        trickcore.variant_from_text('extends "./mine.rules"\n', "house")
    v = trickcore.variant_from_text('extends "./mine.rules"\n', "house", base_dir=tmp_path)
    assert v.title == "Mine"


def test_an_extends_path_too_long_for_the_system_is_a_rules_error(layout: Path):
    house = layout / "house.rules"
    house.write_text(f'extends "{"a" * 300}.rules"\n')
    assert "house.rules:1:1" in refused(house)
    with pytest.raises(trickcore.RulesError, match="not a regular file"):
        trickcore.load_variant(layout / f"{'b' * 300}.rules")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def two_libs(tmp_path: Path) -> tuple[Path, Path]:
    """top/lib/a.rules and a search folder's lib/a.rules: two files, one relative path."""
    top, search = tmp_path / "top", tmp_path / "search"
    _write(top / "lib" / "a.rules", 'extends "tysiacha"\nname: "A1"\nbidding {\n  step: 5\n}\n')
    _write(search / "lib" / "a.rules", 'extends "tysiacha"\nmatch {\n  deal_limit: 7\n}\n')
    _write(top / "x" / "y.rules", 'extends "lib/a.rules"\nname: "Y"\n')
    _write(top / "main.rules", 'extends "lib/a.rules", "x/y.rules"\nname: "Main"\n')
    return top, search


def test_saved_rules_have_one_name_per_file_and_reload_without_the_folders(
    two_libs: tuple[Path, Path], tmp_path: Path, monkeypatch
):
    """T22 (deal_limit) from the search folder's file survives a save moved away from both
    folders: every source keeps its own name and its own parents."""
    top, search = two_libs
    v = trickcore.load_variant(top / "main.rules", search_path=[search])
    files = v.model.source_files
    assert files == ("tysiacha", "lib/a.rules", "search1/lib/a.rules", "x/y.rules", "main.rules")
    assert v.model.match.deal_limit == 7 and v.title == "Main"
    m = v.new_match(seed=1)
    rng = random.Random(1)
    for _ in range(30):
        m.apply(rng.choice(m.legal_actions()))
    trickcore.save_match(m, tmp_path / "m.json")
    shutil.rmtree(top)
    shutil.rmtree(search)
    monkeypatch.chdir(tmp_path)
    back = trickcore.load_match("m.json")
    assert back.game.content_hash == v.content_hash
    assert back.game.model.source_files == files and back.history == m.history
    assert back.game.model.match.deal_limit == 7


def test_a_search_folder_inside_the_top_folder_reloads(tmp_path: Path):
    """The same reference from files in different allowed folders resolves alike on reload."""
    top = tmp_path / "top"
    _write(top / "common" / "lib" / "a.rules", 'extends "tysiacha"\nname: "Common"\n')
    _write(top / "x" / "y.rules", 'extends "lib/a.rules"\n')
    _write(top / "main.rules", 'extends "x/y.rules"\n')
    v = trickcore.load_variant(top / "main.rules", search_path=[top / "common"])
    assert v.model.source_files[1] == "search1/lib/a.rules"
    m = v.new_match(seed=2)
    shutil.rmtree(top)
    back = trickcore.match_from_json(m.to_json())
    assert back.game.title == "Common" and back.game.content_hash == v.content_hash


def test_two_files_that_would_share_a_saved_name_are_refused(two_libs: tuple[Path, Path]):
    top, search = two_libs
    (top / "lib").rename(top / "search1")
    _write(top / "search1" / "lib" / "a.rules", 'extends "tysiacha"\n')
    (top / "main.rules").write_text('extends "search1/lib/a.rules", "x/y.rules"\n')
    with pytest.raises(
        trickcore.RulesError, match="saved under the same name 'search1/lib/a.rules'"
    ):
        trickcore.load_variant(top / "main.rules", search_path=[search])
