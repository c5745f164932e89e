"""The command line: user text is never markup, pipes get plain uncut lines, --json serves
scripts, numbers are checked, and `play --save` never loses the match."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import trickcore
from trickcore.interfaces.cli import main

EVIL = 'extends "tysiacha"\nname: "Evil [/x] name [link=https://example.org]click[/link]"\n'
EVIL_TITLE = "Evil [/x] name [link=https://example.org]click[/link]"


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    path = tmp_path / "evil.rules"
    path.write_text(EVIL)
    return path


@pytest.mark.parametrize("tty", [False, True])
def test_rich_markup_in_a_rules_file_is_printed_literally(evil, capsys, monkeypatch, tty):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: tty)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["check", str(evil)]) == 0
    assert main(["show", str(evil)]) == 0
    assert main(["simulate", str(evil), "--matches", "1"]) == 0
    assert main(["play", str(evil), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    if not tty:
        assert out.count(EVIL_TITLE) >= 4
    else:
        assert "[/x]" in out and "[link=https://example.org]click[/link]" in out


def test_a_broken_file_with_markup_is_reported_literally(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text('extends "tysiacha"\nbidding {\n  step: [bold]5\n}\n')
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "bad.rules:3:9" in out and "step: [bold]5" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["verify", "tysiacha", "--examples", "-5"],
        ["simulate", "tysiacha", "--matches", "-1"],
        ["simulate", "tysiacha", "--matches", "9" * 5000],
        ["play", "tysiacha", "--players", "0"],
    ],
)
def test_numeric_arguments_are_checked(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "is not a whole number from" in err and "Traceback" not in err


def test_verify_without_hypothesis_names_the_extra(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "hypothesis", None)
    assert main(["verify", "tysiacha", "--examples", "5"]) == 2
    assert "pip install 'trickcore[cli]'" in capsys.readouterr().err


def test_show_durak_says_the_loser_deals_next(capsys):
    """D14: the durak deals the next deal."""
    assert main(["show", "durak"]) == 0
    out = capsys.readouterr().out
    assert "The loser of a deal deals the next one" in out
    assert "same dealer deals again" not in out


def test_json_documents_for_scripts(tmp_path, capsys):
    assert main(["list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [v["variant"] for v in listed] == trickcore.list_variants()
    assert {"variant": "durak", "name": "Durak", "players": [2, 3, 4, 5]} in listed
    assert main(["show", "durak", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["variant"] == "durak" and shown["sections"][0]["title"] == "Cards"
    bad = tmp_path / "bad.rules"
    bad.write_text('extends "tysiacha"\nbidding {\n  step: 5 +\n}\n')
    assert main(["check", str(bad), "--json"]) == 1
    checked = json.loads(capsys.readouterr().out)
    assert checked["ok"] is False and checked["errors"][0]["line"] == 3
    assert main(["check", "russisch-schnapsen-ohne", "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["ok"] is True and checked["variant"] == "russisch-schnapsen-ohne"
    broken = Path(__file__).parent / "broken" / "no-legal-bid.rules"
    cx = tmp_path / "cx.json"
    assert main(["verify", str(broken), "--examples", "30", "--save", str(cx), "--json"]) == 1
    verified = json.loads(capsys.readouterr().out)
    assert verified["ok"] is False and verified["saved_to"] == str(cx)
    assert verified["violation"]["actions"] == json.loads(cx.read_text())["actions"]
    assert main(["replay", str(cx)]) == 0  # a complete version 2 save
    assert "invariant broken here" in capsys.readouterr().out
    assert main(["show", "no-such-variant", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["ok"] is False


def test_piped_output_is_never_cut_or_wrapped(tmp_path):
    env = dict(os.environ, COLUMNS="40")

    def piped(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "trickcore.interfaces.cli", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )

    done = piped("list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for name in trickcore.list_variants():
        assert any(line.split()[0] == name for line in lines[2:])
    assert max(len(line) for line in lines) > 40
    assert "…" not in done.stdout
    bad = tmp_path / "a-rather-long-file-name-for-a-house-rule.rules"
    long_line = "  step: 5 + 5 + 5 + 5 + 5 + 5 + 5 + 5 + 5 + 5 + 5 + 5 + 5 + 5 +"
    bad.write_text(f'extends "tysiacha"\nbidding {{\n{long_line}\n}}\n')
    done = piped("check", str(bad))
    assert done.returncode == 1
    assert f"{bad}:3:64: the expression breaks off" in done.stdout and long_line in done.stdout


def test_play_save_into_a_missing_folder_fails_at_the_start(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("bid 100\n"))
    assert main(["play", "tysiacha", "--save", str(tmp_path / "nope" / "m.json")]) == 1
    captured = capsys.readouterr()
    assert "does not exist" in captured.err and "your move" not in captured.out


def test_play_saves_after_every_action_and_on_interrupt(tmp_path, capsys, monkeypatch):
    save = tmp_path / "m.json"
    typed = iter(["?", "bid ²", "bid " + "9" * 5000, "pass"])

    def ask(prompt: str) -> str:
        try:
            return next(typed)
        except StopIteration:
            data = json.loads(save.read_text())
            assert data["action_count"] == len(data["actions"]) >= 3  # saved as it went
            raise KeyboardInterrupt from None

    monkeypatch.setattr(
        "trickcore.interfaces.terminal.Output.ask", lambda self, prompt: ask(prompt)
    )
    assert main(["play", "tysiacha", "--seed", "4", "--save", str(save)]) == 130
    out = capsys.readouterr().out
    assert "is not an action" in out and f"match saved to {save}" in out
    back = trickcore.load_match(save)
    assert (0, "pass") in [(seat, text) for _, seat, text in back.history]


def test_play_shows_the_score_sheet_and_a_trick_led_from_the_talon(capsys):
    # Preferans R32 (the sheet), R31 (an all-pass: the talon's cards lead tricks 1 and 2)
    from trickcore.interfaces.terminal import Output, render

    v = trickcore.load_variant("preferans")
    deck = [r + s for s in "SCDH" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]  # R52
    m = v.new_match(deck_orders=[deck], players=3)
    for a in ["pass", "pass", "pass", "play 8S", "play 10S", "play QS"]:
        m.apply(a)
    render(m, Output(tty=False))
    out = capsys.readouterr().out
    assert "score sheet:" in out and "seat 0 (you): allpass_run 0, mountain 0, pool 0" in out
    assert "last trick: talon:K♠, 1:8♠, 2:10♠, 0:Q♠ -> seat 0" in out
    assert "table: talon:A♠" in out


def test_version_names_the_engine_that_runs(capsys):
    """`trickcore --version` says whether the pure-Python engine or the native build runs."""
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.strip() == f"trickcore {trickcore.__version__} (engine: {trickcore.ENGINE})"
    assert trickcore.ENGINE in ("python", "native")


def test_simulate_names_each_contract_by_level_and_strain(capsys) -> None:
    """Euchre's bids have no level ("hearts alone"): the table of declarer success names
    them by strain and qualifier, not as a contract 0 (a newcomer's report)."""
    assert main(["simulate", "euchre", "--matches", "2"]) == 0
    table = capsys.readouterr().out.split("Declarer success by contract", 1)[1]
    rows = [line.split() for line in table.splitlines()[2:] if line.strip()]
    names = {" ".join(row[:-2]) for row in rows}
    assert "0" not in names and "all" in names
    assert names - {"all"} <= {
        f"{suit}{alone}"
        for suit in ("clubs", "diamonds", "hearts", "spades")
        for alone in ("", " alone")
    }
