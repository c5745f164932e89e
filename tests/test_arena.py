"""`trickcore arena` and `trickcore.players.arena`: duplicate deals with the bots rotated
through the seats, mean scores with 95% intervals paired over deck orders, the plot, and
clear errors."""

from __future__ import annotations

import math
import statistics
import sys

import pytest

import trickcore
from trickcore.interfaces import cli
from trickcore.players.arena import DealRecord, play_duplicate, summarize


def test_arena_prints_means_with_intervals(capsys):
    code = cli.main(
        ["arena", "tysiacha", "--bots", "heuristic,greedy,greedy", "--deals", "6", "--seed", "2"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "6 deck orders x 3 rotations (18 deals), seed 2" in out
    lines = {line.split()[0]: line for line in out.splitlines() if line.split()}
    assert "heuristic" in lines and "greedy" in lines
    assert lines["greedy"].count("[") == 2  # its own interval and its margin's
    assert "95% CI" in out and "vs heuristic" in out


def test_arena_takes_bots_with_options_and_spaces(capsys):
    code = cli.main(
        [
            "arena",
            "tysiacha",
            "--bots",
            "pimc:worlds=2,iterations=3,seconds=none,greedy",  # no time cap: work decides
            "random",
            "--deals",
            "1",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "pimc:worlds=2,iterations=3,seconds=none" in out and "random" in out


def test_games_of_bouts_report_the_loss_rate(capsys):
    assert cli.main(["arena", "durak", "--bots", "heuristic,random,random", "--deals", "5"]) == 0
    out = capsys.readouterr().out
    assert "loss rate" in out
    rate = float(next(line for line in out.splitlines() if line.startswith("random")).split()[1])
    assert 0.0 <= rate <= 1.0


def test_the_arena_says_lower_is_better_where_the_match_ranks_by_the_lowest_score(capsys):
    # Hearts' rank_by = -score: a margin read as higher-is-better would mislead
    bots = "heuristic,random,random,random"
    assert cli.main(["arena", "hearts", "--bots", bots, "--deals", "1"]) == 0
    out = capsys.readouterr().out
    assert "mean score per deal (lower is better)" in out
    assert cli.main(["arena", "tysiacha", "--bots", "heuristic,greedy,greedy", "--deals", "1"]) == 0
    assert "lower is better" not in capsys.readouterr().out


def test_every_bot_holds_every_hand_of_a_deck_order():
    records = play_duplicate("tysiacha", ["heuristic", "greedy", "random"], 5, 3)
    assert len(records) == 9
    for seed in (5, 6, 7):
        mine = [r for r in records if r.seed == seed]
        assert sorted(r.rotation for r in mine) == [0, 1, 2]
        for seat in range(3):
            assert sorted(r.bots[seat] for r in mine) == [0, 1, 2]


def test_the_same_deck_order_is_played_in_every_rotation():
    """Three copies of one deterministic bot: each rotation is the same deal."""
    records = play_duplicate("russisch-schnapsen", ["heuristic"] * 3, 1, 4)
    for seed in range(1, 5):
        scores = {r.scores for r in records if r.seed == seed}
        assert len(scores) == 1


def test_chunks_give_the_same_records_as_one_run():
    specs = ["random", "heuristic", "greedy"]  # the random bot is seeded by deal
    whole = play_duplicate("tysiacha", specs, 10, 4)
    parts = play_duplicate("tysiacha", specs, 12, 2) + play_duplicate("tysiacha", specs, 10, 2)
    assert sorted(whole, key=lambda r: (r.seed, r.rotation)) == sorted(
        parts, key=lambda r: (r.seed, r.rotation)
    )


def test_intervals_are_paired_over_deck_orders():
    def rec(seed, rotation, bots, scores):
        return DealRecord(seed, rotation, bots, scores, (0.0, 0.0), (1, 1), (0.0, 0.0))

    # two bots, two seats: per deck order, each bot's mean over the two rotations
    records = [
        rec(0, 0, (0, 1), (10.0, 0.0)),
        rec(0, 1, (1, 0), (4.0, 6.0)),  # bot 0: (10+6)/2 = 8, bot 1: (0+4)/2 = 2
        rec(1, 0, (0, 1), (20.0, 2.0)),
        rec(1, 1, (1, 0), (0.0, 10.0)),  # bot 0: 15, bot 1: 1
        rec(2, 0, (0, 1), (0.0, 5.0)),
        rec(2, 1, (1, 0), (3.0, 4.0)),  # bot 0: 2, bot 1: 4
    ]
    first, second = summarize(records, ["a", "b"])
    assert first.mean == pytest.approx((8 + 15 + 2) / 3)
    half = 1.959964 * statistics.stdev([8, 15, 2]) / math.sqrt(3)
    assert (first.low, first.high) == pytest.approx((first.mean - half, first.mean + half))
    diffs = [2 - 8, 1 - 15, 4 - 2]
    assert second.margin == pytest.approx(statistics.fmean(diffs))
    half = 1.959964 * statistics.stdev(diffs) / math.sqrt(3)
    assert second.margin_low == pytest.approx(second.margin - half)
    assert second.deck_orders == 3


def test_plot_is_a_png(tmp_path, capsys):
    path = tmp_path / "arena.png"
    args = ["arena", "durak", "--bots", "heuristic", "greedy", "--deals", "3", "--plot", str(path)]
    assert cli.main(args) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"plot saved to {path}" in capsys.readouterr().out


def test_plot_without_matplotlib_names_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    args = [
        "arena",
        "durak",
        "--bots",
        "greedy,greedy",
        "--deals",
        "1",
        "--plot",
        str(tmp_path / "x.png"),
    ]
    assert cli.main(args) == 1
    assert "pip install 'trickcore[plot]'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "bots, message",
    [
        ("pimc,chess,greedy", "unknown bot 'chess'"),
        ("pimc:iterations=-3,greedy,greedy", "iterations must be a whole number of at least 1"),
        ("greedy,greedy", "2 bots given, but tysiacha is played by 3 players"),
    ],
)
def test_bad_bots_are_clear_errors(bots, message, capsys):
    assert cli.main(["arena", "tysiacha", "--bots", bots, "--deals", "2"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_plot_folder_is_checked_before_playing(tmp_path, capsys):
    path = tmp_path / "missing" / "a.png"
    assert cli.main(["arena", "durak", "--bots", "greedy,greedy", "--plot", str(path)]) == 1
    assert "no folder" in capsys.readouterr().err


def test_a_variant_object_or_a_rules_file_path(tmp_path):
    path = tmp_path / "house.rules"
    path.write_text('extends "tysiacha"\nname: "steps of ten"\nbidding {\n  step: 10\n}\n')
    by_path = play_duplicate(str(path), ["greedy", "random", "heuristic"], 3, 2)
    by_object = play_duplicate(
        trickcore.load_variant(path), ["greedy", "random", "heuristic"], 3, 2
    )
    assert by_path == by_object and len(by_path) == 6


def test_workers_print_the_same_figures_as_one_process(capsys):
    """`--workers 2`: the deck orders run in chunks on a local Dask cluster, and the report
    is the one this process gives (every deck order depends only on its seed)."""
    argv = ["arena", "tysiacha", "--bots", "heuristic,greedy,greedy", "--deals", "6"]
    assert cli.main([*argv, "--seed", "3"]) == 0
    here = capsys.readouterr().out
    assert cli.main([*argv, "--seed", "3", "--workers", "2"]) == 0
    there = capsys.readouterr().out
    assert figures(here) == figures(there)
    assert "6 deck orders x 3 rotations (18 deals)" in here


def figures(out: str) -> list[str]:
    """The report without its timings (the last two columns of a bot's row)."""
    rows = []
    for line in out.splitlines():
        words = line.split()
        rows.append(" ".join(words[:-2] if words[:1] in (["heuristic"], ["greedy"]) else words))
    return rows


def test_the_command_line_help_lists_arena():
    """`trickcore --help` and `trickcore arena --help` print (a `%` in a help text once broke
    them) and name the options."""
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    with pytest.raises(SystemExit) as done:
        cli.main(["arena", "--help"])
    assert done.value.code == 0
