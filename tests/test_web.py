"""The web table's HTTP API (`trickcore serve`), through Starlette's TestClient: pages and
package data, a seat's view and nothing more, illegal moves refused without a change,
broken or hostile uploads, the computer players, and every shipped variant."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from conftest import sweep

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette's notice about a future httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import trickcore  # noqa: E402
from trickcore.interfaces.cli import main as cli_main  # noqa: E402
from trickcore.interfaces.summary import rules_summary  # noqa: E402
from trickcore.interfaces.web import create_app  # noqa: E402
from trickcore.interfaces.web.tables import MAX_RULES_BYTES, Table  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parent.parent
SEAT = "X-Trickcore-Seat"
BROKEN = 'extends "tysiacha"\nbidding {\n  step: \n}\n'


@pytest.fixture()
def client() -> TestClient:
    # the computer players move within the requests (bot_threads=0): a view is up to date
    return TestClient(create_app(bot_delay=0, bot_threads=0))


def new_table(client: TestClient, seed: int | None = None, **fields) -> dict:
    """A table; `seed` is the operator's (`serve --seed`): no client may choose one."""
    client.app.state.tables.seed = seed
    r = client.post("/api/tables", json=fields)
    assert r.status_code == 200, r.text
    return r.json()


def view(client: TestClient, table: str, token: str | None = None) -> dict:
    r = client.get(f"/api/tables/{table}", headers={SEAT: token} if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def move(client: TestClient, table: str, token: str | None, action):
    return client.post(
        f"/api/tables/{table}/move", headers={SEAT: token} if token else {}, json={"action": action}
    )


def table_of(client: TestClient, table_id: str) -> Table:
    return client.app.state.tables.get(table_id)


def test_pages_come_from_the_package_and_load_nothing_from_elsewhere(client):
    page = client.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    csp = page.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert client.get("/t/abc").text == page.text  # a table's link is the same page
    for name in ("table.js", "table.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.text) > 1000
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", r.text), name
    assert not re.search(r"(src|href)=\"(https?:)?//", page.text)
    assert client.get("/static/app.py").status_code == 404
    assert client.get("/static/..%2Fapp.py").status_code == 404


def test_config_lists_every_shipped_variant_and_the_computer_players(client):
    cfg = client.get("/api/config").json()
    assert [v["name"] for v in cfg["variants"]] == trickcore.list_variants()
    tysiacha = next(v for v in cfg["variants"] if v["name"] == "tysiacha")
    assert tysiacha == {"name": "tysiacha", "title": "Tysiacha (1000)", "players": [3]}
    assert {"random", "greedy", "pimc"} <= set(cfg["opponent_names"])
    assert cfg["variant"] == trickcore.list_variants()[0] and cfg["opponents"] == "greedy"
    named = TestClient(create_app("durak", bot_delay=0, bot_threads=0)).get("/api/config").json()
    assert named["variant"] == "durak"


def test_a_seat_sees_its_own_observation_and_its_legal_actions(client):
    t = new_table(client, variant="tysiacha", seed=3)
    assert t["seat"] == 0 and t["url"] == f"/t/{t['table']}"
    match = table_of(client, t["table"]).match
    v = view(client, t["table"], t["token"])
    assert v["seat"] == 0 and v["seats"][0]["kind"] == "you"
    assert [s["kind"] for s in v["seats"][1:]] == ["computer", "computer"]
    assert v["obs"] == json.loads(json.dumps(match.observation(0).to_dict()))
    assert len(v["obs"]["hand"]) == 7
    assert v["your_turn"] == (match.to_act == 0)
    if v["your_turn"]:
        assert [a["text"] for a in v["legal"]] == [a.text for a in match.legal_actions()]
        assert [a["id"] for a in v["legal"]] == match.legal_ids()
    # the deck to draw: every card's rank and suit, suits with the variant's glyphs
    assert v["deck"]["cards"]["10H"][0] == "10"
    assert [s["glyph"] for s in v["deck"]["suits"]] == ["♠", "♣", "♦", "♥"]
    assert [s["colour"] for s in v["deck"]["suits"]] == ["black", "black", "red", "red"]


def test_people_at_one_table_see_only_their_own_cards(client):
    t = new_table(client, variant="tysiacha", seed=11, people=2)
    other = client.post(f"/api/tables/{t['table']}/seat", json={})
    assert other.status_code == 200
    second = other.json()
    assert second["seat"] == 1 and second["token"] != t["token"]
    taken = client.post(f"/api/tables/{t['table']}/seat", json={"seat": 1})
    assert taken.status_code == 409  # nobody else gets that seat
    match = table_of(client, t["table"]).match
    hands = {s: set(match.observation(s).hand) for s in range(3)}
    mine = view(client, t["table"], t["token"])
    theirs = view(client, t["table"], second["token"])
    watcher = view(client, t["table"])
    assert set(mine["obs"]["hand"]) == hands[0] and set(theirs["obs"]["hand"]) == hands[1]
    assert mine["seats"][1]["kind"] == "person" and theirs["seats"][0]["kind"] == "person"
    assert watcher["seat"] is None and watcher["obs"]["hand"] == [] and watcher["legal"] == []

    def shown(v: dict) -> set[str]:
        text = json.dumps([v["obs"], v["legal"], v["last_deal"]])
        return {c for c in re.findall(r'"(?:\w+ )?([0-9AKQJ]{1,2}[SCDH])"', text)}

    assert not shown(mine) & (hands[1] | hands[2])
    assert not shown(theirs) & (hands[0] | hands[2])
    assert not shown(watcher) & (hands[0] | hands[1] | hands[2])
    # a seat not to act is given no legal actions (they would tell the acting seat's cards)
    acting = match.to_act
    for v, seat in ((mine, 0), (theirs, 1)):
        assert bool(v["legal"]) == (seat == acting)


def test_an_illegal_move_is_refused_with_a_reason_and_changes_nothing(client):
    t = new_table(client, variant="tysiacha", seed=3)
    table = table_of(client, t["table"])
    before = view(client, t["table"], t["token"])
    assert before["your_turn"], "seed 3 gives seat 0 a bid at once"
    history = list(table.match.history)
    card = before["obs"]["hand"][0]
    r = move(client, t["table"], t["token"], f"play {card}")
    assert r.status_code == 400
    assert r.json()["error"] == f"'play {card}' is not legal now (seat 0 to act, bid)"
    for bad in ("bid 5", "bid", "", "x" * 300, 10**9):
        assert move(client, t["table"], t["token"], bad).status_code == 400
    assert move(client, t["table"], t["token"], True).status_code == 400
    assert move(client, t["table"], None, "pass").status_code == 403  # no seat
    assert move(client, t["table"], "forged-token", "pass").status_code == 403
    assert table.match.history == history
    after = view(client, t["table"], t["token"])
    assert after["version"] == before["version"] and after["obs"] == before["obs"]
    # the same action by its number, or its text, is taken
    legal = after["legal"][0]
    done = move(client, t["table"], t["token"], legal["id"])
    assert done.status_code == 200
    assert table.match.history[len(history)] == (0, 0, legal["text"])


def test_a_move_out_of_turn_is_refused(client):
    t = new_table(client, variant="tysiacha", seed=11, people=2)
    second = client.post(f"/api/tables/{t['table']}/seat", json={}).json()
    table = table_of(client, t["table"])
    waiting = next(x for x in (t, second) if x["seat"] != table.match.to_act)
    acting = next(x for x in (t, second) if x["seat"] == table.match.to_act)
    text = table.match.legal_actions()[0].text
    r = move(client, t["table"], waiting["token"], text)
    assert r.status_code == 409 and "not your turn" in r.json()["error"]
    assert move(client, t["table"], acting["token"], text).status_code == 200


def test_a_broken_rules_file_is_refused_with_file_line_and_column(client):
    r = client.post("/api/tables", json={"rules": BROKEN, "filename": "house.rules"})
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "the rules file has 1 error"
    (err,) = body["errors"]
    assert err["where"] == "house.rules:3:9" and (err["line"], err["column"]) == (3, 9)
    assert err["source_line"] == "  step: "
    assert "unexpected" in err["message"]
    # a compile error past parsing: every error is listed with its place
    r = client.post(
        "/api/tables",
        json={"rules": 'extends "tysiacha"\nbidding { step: 0 }\n', "filename": "../../x"},
    )
    assert r.status_code == 400
    assert all(e["where"].startswith("x.rules:2:") for e in r.json()["errors"])
    # as a multipart form (curl -F rules=@house.rules) the same
    r = client.post("/api/tables", files={"rules": ("house.rules", BROKEN.encode(), "text/plain")})
    assert r.status_code == 400 and r.json()["errors"][0]["where"] == "house.rules:3:9"


def test_uploads_are_untrusted(client):
    tables_before = len(client.app.state.tables.tables)
    big = "#" * (MAX_RULES_BYTES + 10)
    assert client.post("/api/tables", json={"rules": big}).status_code == 413
    r = client.post(
        "/api/tables",
        content=b"x" * (MAX_RULES_BYTES + 20_000),
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 413
    as_json = {"content-type": "application/json"}
    assert client.post("/api/tables", content=b"{not json", headers=as_json).status_code == 400
    assert client.post("/api/tables", content=b"\xff\xfe", headers=as_json).status_code == 400
    assert client.post("/api/tables", content=b"{not json").status_code == 415  # no JSON said
    # a path in `extends` is never read from the server's disk
    r = client.post("/api/tables", json={"rules": 'extends "../../../etc/passwd.rules"\n'})
    assert r.status_code == 400 and r.json()["errors"][0]["where"].startswith("uploaded.rules:1:")
    r = client.post("/api/tables", json={"variant": "../variants/tysiacha"})
    assert r.status_code == 404
    assert client.post("/api/tables", json={"variant": "tysiacha", "players": 4}).status_code == 400
    assert client.post("/api/tables", json={"variant": "tysiacha", "people": 0}).status_code == 400
    assert client.post("/api/tables", json={"opponents": "nonsense"}).status_code == 400
    assert len(client.app.state.tables.tables) == tables_before


def test_a_good_upload_starts_a_table_of_the_house_rule(client):
    text = (ROOT / "examples" / "quick-barrel.rules").read_text(encoding="utf-8")
    r = client.post(
        "/api/tables", files={"rules": ("quick-barrel.rules", text.encode(), "text/plain")}
    )
    assert r.status_code == 200, r.text
    t = r.json()
    v = view(client, t["table"], t["token"])
    assert v["variant"]["title"] == "Tysiacha, quick barrel"
    rules = client.get(f"/api/tables/{t['table']}/rules").json()
    assert rules["files"] == ["tysiacha.rules", "quick-barrel.rules"]


def test_the_rules_summary_is_trickcore_show(client):
    shown = client.get("/api/variants/durak/rules").json()
    model = trickcore.load_variant("durak").model
    assert shown["sections"] == [{"title": t, "lines": lines} for t, lines in rules_summary(model)]
    assert client.get("/api/variants/nope/rules").status_code == 404


def test_a_whole_deal_through_the_api_with_the_computer_players(client):
    t = new_table(client, variant="tysiacha", seed=5, opponents="greedy")
    table = table_of(client, t["table"])
    for _ in range(60):
        v = view(client, t["table"], t["token"])
        if v["results"]:
            break
        assert v["your_turn"], "the computer players move at once without a delay"
        assert move(client, t["table"], t["token"], v["legal"][0]["id"]).status_code == 200
    (result,) = v["results"]
    assert result["scores"] == table.match.deal_results[0]["scores"] == v["scores"]
    assert v["last_deal"]["number"] == 1
    assert v["last_deal"]["result"]["label"] == result["label"]
    assert len(v["last_deal"]["obs"]["tricks"]) == 8  # the finished deal as seat 0 saw it
    assert v["deal_number"] == 2 and v["obs"]["dealer"] == 1


def test_computer_players_wait_their_delay_one_move_at_a_time():
    game = trickcore.load_variant("tysiacha")
    table = Table("t", game, people=1, opponents="random", seed=1, bot_delay=0.5)
    table.take_seat(0)
    start = table.last_move
    while table.match.to_act == 0:
        table.move(table.seats[0].token, table.match.legal_actions()[-1].text)
    moved_at = table.last_move
    assert table.advance(now=moved_at + 0.1) == 0  # too early
    assert table.advance(now=moved_at + 0.6) == 1  # one move, then wait again
    assert table.last_move >= start


def test_open_seats_wait_for_people_or_are_given_to_computers(client):
    t = new_table(client, variant="hearts", seed=2, people=4, opponents="random")
    table = table_of(client, t["table"])
    v = view(client, t["table"], t["token"])
    assert [s["kind"] for s in v["seats"]] == ["you", "open", "open", "open"]
    if table.match.to_act != 0:
        assert v["waiting_for"] == "open"
    r = client.post(f"/api/tables/{t['table']}/bots", headers={SEAT: t["token"]})
    assert r.status_code == 200
    assert [s["kind"] for s in r.json()["seats"]] == ["you", "computer", "computer", "computer"]
    assert client.post(f"/api/tables/{t['table']}/seat", json={}).status_code == 409
    assert client.post(f"/api/tables/{t['table']}/bots").status_code == 403  # no seat


@pytest.mark.parametrize("name", trickcore.list_variants())
def test_every_shipped_variant_plays_at_a_table(client, name):
    game = trickcore.load_variant(name)
    t = new_table(client, variant=name, seed=7, opponents="random")
    table = table_of(client, t["table"])
    for _ in range(sweep(name, 25, 8)):
        v = view(client, t["table"], t["token"])
        assert v["obs"]["hand"] is not None and v["variant"]["name"] == game.name
        if v["is_over"]:
            break
        if not v["your_turn"]:
            pytest.fail(f"{name}: the computer players left seat {v['to_act']} to act")
        texts = [a.text for a in table.match.legal_actions()]
        assert [a["text"] for a in v["legal"]] == texts
        for a in v["legal"]:  # a card to click: a card of this seat's hand or open hand
            if a["card"] is not None:
                held = set(v["obs"]["hand"]) | {
                    c for _, cards in v["obs"].get("open_hands", []) for c in cards
                }
                assert a["card"] in held, (name, a)
        assert move(client, t["table"], t["token"], v["legal"][-1]["id"]).status_code == 200


def test_a_match_over_can_be_saved_and_a_new_one_started(client):
    t = new_table(client, variant="sixty-six-match-target-10", seed=1, opponents="greedy")
    table = table_of(client, t["table"])
    assert client.get(f"/api/tables/{t['table']}/saved").status_code == 403  # no seat
    running = client.get(f"/api/tables/{t['table']}/saved", headers={SEAT: t["token"]})
    assert running.status_code == 200 and running.json()["sealed"]  # how it was dealt: hidden
    for _ in range(400):
        v = view(client, t["table"], t["token"])
        if v["is_over"]:
            break
        move(client, t["table"], t["token"], v["legal"][0]["id"])
    assert v["is_over"] and v["winners"] == table.match.winners
    saved = client.get(f"/api/tables/{t['table']}/saved", headers={SEAT: t["token"]})
    assert saved.status_code == 200 and "sealed" not in saved.json()
    again = trickcore.match_from_json(saved.json())
    assert again.scores == table.match.scores and again.is_over
    r = client.post(f"/api/tables/{t['table']}/next", headers={SEAT: t["token"]})
    assert r.status_code == 200 and not r.json()["is_over"] and r.json()["matches_played"] == 2
    assert move(client, "nope", t["token"], "pass").status_code == 404


def test_serve_command_checks_its_arguments_before_starting(capsys):
    assert cli_main(["serve", "no-such-variant", "--port", "0"]) == 1
    assert "no-such-variant" in capsys.readouterr().err
    assert cli_main(["serve", "tysiacha", "--opponents", "nonsense", "--port", "0"]) == 1
    assert "unknown bot" in capsys.readouterr().err
    assert cli_main(["serve", "tysiacha", "--players", "4", "--port", "0"]) == 1
    assert "played by 3 players, not 4" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli_main(["serve", "--port", "70000"])


def test_trickcore_serve_starts_a_server_that_serves_the_table(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "trickcore", "serve", "tysiacha", "--port", "0", "--bot-delay", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, (line, proc.stderr.read() if proc.poll() is not None else "")
        url = found.group(0)
        for _ in range(100):  # uvicorn binds just after the address is printed
            try:
                page = httpx.get(url, timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        assert page.status_code == 200 and "table.js" in page.text
        cfg = httpx.get(url + "api/config", timeout=5).json()
        assert cfg["variant"] == "tysiacha"
        made = httpx.post(url + "api/tables", json={}, timeout=10).json()
        state = httpx.get(
            url + f"api/tables/{made['table']}", headers={SEAT: made["token"]}, timeout=5
        ).json()
        assert state["variant"]["name"] == "tysiacha" and len(state["obs"]["hand"]) == 7
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_a_rules_file_preselects_it():
    app = create_app(str(ROOT / "examples" / "quick-barrel.rules"), bot_delay=0, bot_threads=0)
    client = TestClient(app)
    cfg = client.get("/api/config").json()
    assert cfg["variant"] == "quick-barrel"
    assert {"name": "quick-barrel", "title": "Tysiacha, quick barrel", "players": [3]} in cfg[
        "variants"
    ]
    t = new_table(client)
    assert view(client, t["table"], t["token"])["variant"]["title"] == "Tysiacha, quick barrel"
