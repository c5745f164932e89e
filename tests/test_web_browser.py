"""The web table end to end in headless Chromium (Debian's `chromium`, driven by playwright):
a whole deal of Tysiacha played by clicking, an illegal move refused, a broken rules file
uploaded and its error shown, and a second browser at the table not seeing the first one's
cards. The server runs in a thread on 127.0.0.1 with a free port."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")


def chromium_path() -> str | None:
    """Debian's Chromium (or another on PATH): the browser these tests drive."""
    try:
        from browsers import find_chromium
    except ImportError:  # run from elsewhere than the project folder
        find_chromium = None
    found = find_chromium() if find_chromium else None
    if found is None and Path("/usr/bin/chromium").exists():
        found = "/usr/bin/chromium"
    return found or shutil.which("chromium")


CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium installed (Debian: apt-get install chromium)"
)
SEED = 2  # the deals of every table the server starts: seat 0 wins the first auction
BROKEN = 'extends "tysiacha"\nbidding {\n  step: \n}\n'


@pytest.fixture(scope="module")
def server() -> Iterator[dict[str, Any]]:
    from trickcore.interfaces.web import create_app

    app = create_app(bot_delay=0, opponents="greedy", seed=SEED)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield {"url": f"http://127.0.0.1:{port}", "app": app}
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield b
        b.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 820})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    # console errors but the browser's note on a refused request (a 400 is an answer here)
    pg.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    requests: list[str] = []
    pg.on("request", lambda r: requests.append(r.url))
    yield pg
    context.close()
    assert not errors, errors  # no script errors, nothing refused by the page's policy
    elsewhere = [u for u in requests if not u.startswith(("http://127.0.0.1:", "data:"))]
    assert not elsewhere, elsewhere  # the page loads nothing from the network


def attached(pg, selector: str, timeout: float = 10_000) -> None:
    pg.wait_for_selector(selector, state="attached", timeout=timeout)


def start_table(pg, server, people: int = 1, variant: str = "tysiacha") -> str:
    """Open the start page, start a table of `variant`; the table's id."""
    pg.goto(server["url"] + "/")
    attached(pg, "#variant option")
    pg.select_option("#variant", variant)
    pg.select_option("#people", str(people))
    pg.click("#start")
    pg.wait_for_url("**/t/*")
    attached(pg, "body[data-version]")
    return pg.url.rsplit("/", 1)[-1]


def table_of(server, table_id: str):
    return server["app"].state.tables.get(table_id)


def hand_cards(pg) -> list[str]:
    return [c.get_attribute("data-card") for c in pg.locator("#hand .card").all()]


def click_once(pg) -> None:
    """Make one legal move by clicking: a button (bid, pass, ...) or a legal card, and wait
    for the page to show the new state."""
    version = pg.get_attribute("body", "data-version")
    buttons = pg.locator("#actions button.action")
    cards = pg.locator("#hand .card.legal, #felt .card.legal")
    # the move is on the server once its POST is answered (a newer page alone may be a
    # computer player's move or its "thinking" mark, polled before the click's answer)
    with pg.expect_response(lambda r: r.request.method == "POST") as answer:
        if cards.count():
            cards.first.click()
            choice = pg.locator(".chooser button.action")
            if choice.count():  # a card with two uses (play KH / marry KH): pick one
                choice.first.click()
        else:
            buttons.first.click()
    # the page shows the move's answer (or newer): a poll answered in between may show a
    # computer player's move from before the click, with the clicked card still in hand
    moved = answer.value.json()["version"]
    assert moved != int(version)
    pg.wait_for_function(f"Number(document.body.dataset.version) >= {moved}", timeout=10_000)


def test_a_whole_deal_of_tysiacha_played_by_clicking(page, server):
    table_id = start_table(page, server)
    table = table_of(server, table_id)
    assert page.locator("#title").text_content() == "Tysiacha (1000)"
    assert len(hand_cards(page)) == 7
    # cards drawn as cards: rank and the deck's suit glyph, red suits in red
    for card in hand_cards(page):
        node = page.locator(f'#hand .card[data-card="{card}"]')
        glyph = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}[card[-1]]
        assert node.locator(".corner .g").first.text_content() == glyph
        assert node.locator(".corner .r").first.text_content() == card[:-1]
        assert ("red" in node.get_attribute("class").split()) == (card[-1] in "DH")
    # the rules are one click away
    page.click("#rules-button")
    attached(page, "#rules-dialog[open]")
    assert "Cards" in page.locator("#rules-body").text_content()
    page.click("#rules-close")
    clicks = 0
    while page.get_attribute("body", "data-deals") == "0":
        attached(page, "body[data-turn=yours]")
        assert sorted(hand_cards(page)) == sorted(table.match.observation(0).hand)
        click_once(page)
        clicks += 1
        assert clicks < 40
    assert table.match.deals_played == 1
    mine = [text for deal, seat, text in table.match.history if deal == 0 and seat == 0]
    # seat 0 bid, won the auction, gave two cards (each chosen from "give X to 1/2"),
    # kept the contract and played 8 cards, all by clicking
    assert mine[0].startswith("bid ") and mine.count("keep contract") == 1
    assert sum(t.startswith("give ") for t in mine) == 2
    assert sum(t.startswith(("play ", "marry ")) for t in mine) == 8
    result = table.match.deal_results[0]
    assert page.locator("#deal-over").is_visible()
    assert "Deal 1 is over" in page.locator("#deal-over").text_content()
    sheet = page.locator("#sheet").text_content()
    for score in result["scores"]:
        assert str(score) in sheet
    total = [c.text_content() for c in page.locator("#sheet tr.total td").all()]
    assert total == ["score"] + [str(s) for s in table.match.scores]
    page.click("#deal-over button")
    assert page.locator("#deal-over").count() == 0


def test_an_illegal_move_is_refused_and_nothing_changes(page, server):
    table_id = start_table(page, server)
    table = table_of(server, table_id)
    attached(page, "body[data-turn=yours]")
    assert table.match.observation(0).phase == "bid"
    history = list(table.match.history)
    version = page.get_attribute("body", "data-version")
    card = hand_cards(page)[0]
    page.locator(f'#hand .card[data-card="{card}"]').click()  # no card is played in bidding
    message = page.locator("#message")
    message.wait_for(state="visible")
    assert message.text_content() == f"'play {card}' is not legal now (seat 0 to act, bid)"
    assert table.match.history == history
    assert page.get_attribute("body", "data-version") == version
    assert card in hand_cards(page)
    # a legal move right after is taken
    click_once(page)
    assert len(table.match.history) > len(history)


def test_a_broken_rules_file_shows_its_error_with_file_line_and_column(page, server):
    before = len(server["app"].state.tables.tables)
    page.goto(server["url"] + "/")
    attached(page, "#variant option")
    page.set_input_files(
        "#rules-file",
        files=[{"name": "house.rules", "mimeType": "text/plain", "buffer": BROKEN.encode()}],
    )
    page.click("#start")
    box = page.locator("#upload-error")
    box.wait_for(state="visible")
    text = box.text_content()
    assert "the rules file has 1 error" in text
    assert page.locator("#upload-error .where").first.text_content() == "house.rules:3:9: "
    assert page.locator("#upload-error pre").first.text_content() == "  step: \n        ^"
    assert page.url.endswith("/")  # still on the start page; no table was made
    assert len(server["app"].state.tables.tables) == before


def test_a_second_browser_at_the_table_does_not_see_the_first_ones_cards(browser, page, server):
    table_id = start_table(page, server, people=2)
    table = table_of(server, table_id)
    mine = hand_cards(page)
    assert sorted(mine) == sorted(table.match.observation(0).hand)
    other = browser.new_context(viewport={"width": 1280, "height": 820})
    try:
        friend = other.new_page()
        friend.goto(f"{server['url']}/t/{table_id}")
        attached(friend, "body[data-version]")
        assert friend.locator("#hand .card").count() == 0  # watching, no seat yet
        friend.click("text=Sit at seat 1")
        attached(friend, "#hand .card")
        theirs = [c.get_attribute("data-card") for c in friend.locator("#hand .card").all()]
        assert sorted(theirs) == sorted(table.match.observation(1).hand)
        assert not set(theirs) & set(mine)
        shown = {c.get_attribute("data-card") for c in friend.locator("[data-card]").all()}
        assert not shown & set(mine)  # nothing of seat 0's hand anywhere on the page
        shown_first = {c.get_attribute("data-card") for c in page.locator("[data-card]").all()}
        assert not shown_first & set(theirs)
        assert "Seat 0 · player" in friend.locator("#felt").text_content()
    finally:
        other.close()


@pytest.mark.parametrize(
    "variant", ["durak", "bridge", "hearts", "skat", "euchre", "sixty-six", "russisch-schnapsen"]
)
def test_other_games_are_played_by_clicking(page, server, variant):
    """Games of bouts, partnerships with a dummy, passing, a stock: ten moves by clicking."""
    table = table_of(server, start_table(page, server, variant=variant))
    assert page.locator("#title").text_content() == table.game.title
    for _ in range(10):
        # (the computer players move on the server's own threads: once it is seat 0's turn
        # again, the page shows what the server holds)
        attached(page, "body[data-turn=yours], body[data-turn=over]")
        if page.get_attribute("body", "data-turn") == "over":
            break
        assert sorted(hand_cards(page)) == sorted(table.match.observation(0).hand)
        before = len(table.match.history)
        click_once(page)
        assert len(table.match.history) > before


def test_a_running_match_is_downloaded_sealed_and_resumed(page, server, tmp_path):
    # issue 27, item 5: a seat downloads its table's match at any time; while it runs the
    # file hides how it was dealt, and the start page resumes it with the same cards
    import json

    table = table_of(server, start_table(page, server))
    attached(page, "body[data-turn=yours]")
    click_once(page)
    attached(page, "body[data-turn=yours], body[data-turn=over]")
    hand = sorted(table.match.observation(0).hand)
    with page.expect_download() as info:
        page.click("#save-button")
    path = tmp_path / "match.json"
    info.value.save_as(path)
    data = json.loads(path.read_text())
    assert data["sealed"] and data["seed"] is None and data["deck_orders"] is None
    assert data["actions"] == [text for _, _, text in table.match.history]
    page.goto(server["url"] + "/")
    attached(page, "#variant option")
    page.set_input_files("#resume-file", str(path))
    page.wait_for_url("**/t/*")
    attached(page, "body[data-turn=yours], body[data-turn=over]")
    resumed = table_of(server, page.url.rsplit("/", 1)[-1])
    assert resumed is not table and resumed.match.history == table.match.history
    assert sorted(hand_cards(page)) == hand


def test_an_answer_older_than_the_page_is_not_shown(page, server):
    # a poll sent before a move can be answered after the move's answer: the page keeps the
    # newer state (it showed a played card back in hand before, until the next poll)
    start_table(page, server)
    attached(page, "body[data-turn=yours]")
    click_once(page)
    attached(page, "body[data-turn=yours], body[data-turn=over]")
    now = int(page.get_attribute("body", "data-version"))
    shown = sorted(hand_cards(page))
    page.evaluate(
        "() => accept({...state, version: state.version - 1,"
        " obs: {...state.obs, hand: [...state.obs.hand, 'XX']}})"
    )
    assert int(page.get_attribute("body", "data-version")) == now
    assert sorted(hand_cards(page)) == shown
    page.evaluate("() => accept({...state, version: state.version + 1})")
    assert int(page.get_attribute("body", "data-version")) == now + 1
