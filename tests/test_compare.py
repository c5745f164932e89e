"""`trickcore compare`: duplicate deals, 95% intervals, the named measures, the tables and
the HTML report (rendered in headless Chromium, offline)."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pytest

import trickcore
from trickcore.analysis.compare import compare
from trickcore.analysis.measures import DECLARER, LENGTH, POINTS, SCORES, known_measures
from trickcore.analysis.report import render_html
from trickcore.interfaces.cli import main

pytest.importorskip("numpy")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parent.parent
QUICK_BARREL = str(ROOT / "examples" / "quick-barrel.rules")
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def tysiacha():
    return trickcore.load_variant("tysiacha")


@pytest.fixture(scope="module")
def quick(tysiacha):
    """Tysiacha against its quick-barrel house rule, 6 matches of greedy bots each."""
    b = trickcore.load_variant(QUICK_BARREL)
    return compare(tysiacha, b, 6, seed=2, bots="greedy", measures=["barrel_deals", "trump"])


def row(c, section, label):
    (found,) = [r for r in c.rows if r.section == section and r.label == label]
    return found


def test_a_variant_against_itself_differs_in_nothing(tysiacha):
    """Duplicate deals: the same seeds and bots under identical rules give identical
    matches, so every difference and its whole interval is exactly 0."""
    c = compare(tysiacha, tysiacha, 3, seed=1, bots="random")
    assert c.paired and c.matches == 3 and c.notes == ()
    assert len(c.rows) > 10
    for r in c.rows:
        assert r.a == r.b or (math.isnan(r.a) and math.isnan(r.b))
        assert r.diff == 0 or math.isnan(r.diff)
        assert (r.low, r.high) == (0, 0) or math.isnan(r.low)


def test_quick_barrel_figures(quick):
    c = quick
    assert c.paired and c.matches == 6 and c.bots == "greedy"
    assert c.a_name == "tysiacha" and c.b_name == "quick-barrel"
    # a player leaves the barrel after two deals instead of three: fewer barrel deals
    for label in ("1st after dealer", "2nd after dealer", "dealer"):
        barrel = row(c, "Measure: barrel_deals", label)
        assert barrel.b < barrel.a
        assert barrel.low <= barrel.diff <= barrel.high
    # the rule only acts after a deal: a deal is played the same, so its length barely moves
    per_deal = row(c, LENGTH, "actions per deal")
    assert abs(per_deal.diff) < 1 and per_deal.low <= 0.5
    assert row(c, LENGTH, "deals per match").n_a == 6
    made = row(c, DECLARER, "all levels")
    assert 0 < made.a < 1 and made.n_a == sum(c.deals_per_match[0])
    points = [r for r in c.rows if r.section == POINTS]
    assert [r.label for r in points] == ["1st after dealer", "2nd after dealer", "dealer"]
    # the figures agree with the raw values they come from
    mean = sum(c.final_scores[0]) / len(c.final_scores[0])
    assert row(c, SCORES, "mean final score").a == pytest.approx(mean)
    shares = [r.a for r in c.rows if r.section == "Measure: trump"]
    assert sum(shares) == pytest.approx(1) and len(shares) == 4


def test_decks_of_different_sizes_are_played_independently():
    a, b = trickcore.load_variant("durak"), trickcore.load_variant("durak-36")
    c = compare(a, b, 2, seed=0, bots="random")
    assert not c.paired and "differ in size (32 and 36 cards)" in c.notes[0]
    assert any(r.section == "Deals lost by seat position" for r in c.rows)


def test_the_command_prints_tables_and_writes_the_report(tmp_path, capsys):
    html = tmp_path / "report.html"
    argv = ["compare", "tysiacha", QUICK_BARREL, "--matches", "2", "--seed", "4"]
    assert main([*argv, "--measure", "on_barrel", "--html", str(html)]) == 0
    out = capsys.readouterr().out
    assert "A: Tysiacha (1000) (tysiacha)   B: Tysiacha, quick barrel (quick-barrel)" in out
    for title in (DECLARER, POINTS, LENGTH, SCORES, "Measure: on_barrel (share of deals)"):
        assert title in out
    assert "95% CI" in out and f"report written to {html}" in out
    text = html.read_text()
    assert text.count("<svg") >= 4
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text)
    namespaces = re.sub(r'xmlns(:\w+)?="http://www\.w3\.org/[^"]*"', "", text)
    assert "http" not in namespaces  # no address at all but the SVG namespaces
    assert "<script" not in text and "Tysiacha, quick barrel" in text


def test_deals_are_turned_into_whole_matches(capsys):
    assert main(["compare", "sixty-six", "sixty-six-twenty-card", "--deals", "40"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("40 deals: ") and "matches per variant" in out
    assert "note: the decks differ in size (24 and 20 cards)" in out


def test_bad_requests_are_clear_errors(capsys, tmp_path):
    assert main(["compare", "tysiacha", QUICK_BARREL, "--measure", "nonsense"]) == 1
    err = capsys.readouterr().err
    assert "unknown measure 'nonsense'" in err and "on_barrel" in err and "contract" in err
    assert main(["compare", "tysiacha", "no-such-variant"]) == 1
    assert "error:" in capsys.readouterr().err
    missing = tmp_path / "nowhere" / "r.html"
    assert main(["compare", "tysiacha", "tysiacha", "--matches", "1", "--html", str(missing)]) == 1
    assert "cannot write the report" in capsys.readouterr().err
    assert "on_barrel" in known_measures([trickcore.load_variant("tysiacha")])


def test_text_from_rules_files_is_escaped_in_the_report(tmp_path, tysiacha):
    evil = tmp_path / "evil.rules"
    evil.write_text('extends "tysiacha"\nname: "<script>alert(1)</script> $x^2$"\n')
    c = compare(tysiacha, trickcore.load_variant(str(evil)), 1, bots="random")
    text = render_html(c)
    assert "<script>" not in text and "&lt;script&gt;" in text


@pytest.mark.skipif(not shutil.which(CHROMIUM), reason="Debian's /usr/bin/chromium is missing")
def test_the_report_renders_offline_in_chromium(quick, tmp_path):
    playwright = pytest.importorskip("playwright.sync_api")
    page_file = tmp_path / "report.html"
    page_file.write_text(render_html(quick), encoding="utf-8")
    shot = tmp_path / "shot.png"
    requests: list[str] = []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.on("request", lambda r: requests.append(r.url))
        page.goto(page_file.as_uri())
        plots = page.locator("svg.plot").count()
        heights = page.evaluate(
            "[...document.querySelectorAll('svg.plot')].map(s => s.getBoundingClientRect().height)"
        )
        headline = page.locator("h1").inner_text()
        page.screenshot(path=str(shot), full_page=True)
        browser.close()
    assert requests == [page_file.as_uri()]  # nothing fetched but the file itself
    assert plots >= 5 and min(heights) > 100
    assert headline == "Tysiacha (1000) vs Tysiacha, quick barrel"
    from matplotlib.image import imread

    pixels = imread(str(shot))
    assert pixels.shape[0] > 1500 and pixels.std() > 0.05  # not a blank page


def test_a_match_the_rules_stop_is_counted_not_a_crash(tmp_path, tysiacha):
    """A rule that drives scores out of range stops the match (docs/getting-started.md), and
    compare counts it."""
    runaway = tmp_path / "runaway.rules"
    runaway.write_text(
        'extends "tysiacha"\nname: "Tysiacha, runaway"\n'
        "after_deal {\n  rule add: score = score - 300000000\n}\n"
    )
    c = compare(tysiacha, trickcore.load_variant(str(runaway)), 2, bots="random")
    assert row(c, SCORES, "matches stopped by a rule").b == 1.0
    assert row(c, LENGTH, "deals per match").b == 3.0  # the fourth deal leaves the range


@pytest.mark.parametrize("command", ["compare", "diff", "simulate"])
def test_help_of_the_commands(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "--workers" in out or command == "diff"
    assert "%%" not in out


def test_a_seat_only_one_variant_has_shows_no_difference(capsys):
    # Tysiacha is played by 3 (T1), Bridge by 4 (B1): seat 3 has no figure under A
    assert main(["compare", "tysiacha", "bridge", "--deals", "8", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    (line,) = [x for x in out.splitlines() if x.startswith("matches won by seat 3")]
    assert "nan" not in out and line.split()[-5:] == ["-", "0.0%", "-", "-", "0"]


def test_a_name_kept_during_the_deal_is_a_measure():
    """`--measure NAME` for a `deal { keep }` name: its value at the end of each deal, as
    the table saw it, seat by seat (here: who broke hearts, after_card)."""
    hearts = trickcore.load_variant("hearts")
    broke = trickcore.load_variant(str(ROOT / "tests" / "house_rules" / "hearts-broken-by.rules"))
    assert "broke" in known_measures([hearts, broke])
    c = compare(hearts, broke, 3, seed=0, bots="greedy", measures=["broke"])
    shares = [r for r in c.rows if r.section == "Measure: broke (share of deals)"]
    assert len(shares) == 4  # one row per seat position
    assert all(math.isnan(r.a) for r in shares)  # Hearts keeps no such name
    # hearts are broken in nearly every deal, by exactly one player
    assert 0.9 <= sum(r.b for r in shares) <= 1.0
