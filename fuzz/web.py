"""`python -m fuzz web`: an attack run against a real `trickcore serve` on 127.0.0.1.

It starts the server as a child process (with a lowered limit of open files) and tries, as
a stranger would, what issue 27 found and what is near it: chosen seeds, computer players
beyond the ceilings, bodies that are not JSON, requests from another site's page, nested
JSON, a flood of tables from one client, downloads without a seat, idle connections past the
file limit, garbage requests. Each attack states what the server must answer; any other
answer, a 500, a traceback in the server's log, or a server that stops answering is a
failure. `--quick` is the short run CI makes (tests/test_web_strangers.py).
"""

from __future__ import annotations

import argparse
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable

import httpx

SEAT = "X-Trickcore-Seat"


class Attack:
    """The server and the tally of what it answered."""

    def __init__(self, url: str, rng: random.Random) -> None:
        self.url = url
        self.rng = rng
        self.tried = 0
        self.failures: list[str] = []
        self._address = 10

    def client(self) -> httpx.Client:
        """A client from an address of its own (127.0.0.N): per-client limits apart."""
        self._address += 1
        source = f"127.0.{self._address // 250}.{self._address % 250 + 1}"
        return httpx.Client(
            base_url=self.url, transport=httpx.HTTPTransport(local_address=source), timeout=30
        )

    def expect(self, what: str, response: httpx.Response, codes: set[int], text: str = "") -> None:
        """Count an attack; a failure unless the answer is one of `codes` (and holds
        `text`)."""
        self.tried += 1
        body = response.text
        if response.status_code not in codes or (text and text not in body):
            self.failures.append(f"{what}: {response.status_code} {body[:200]!r}")


def _seeds_and_bots(a: Attack) -> None:
    with a.client() as c:
        a.expect("a chosen seed", c.post("/api/tables", json={"seed": 123456}), {400})
        huge = "pimc:iterations=1000000000,seconds=1e9,worlds=1000000"
        for _ in range(5):
            a.expect(
                "bots past the ceilings", c.post("/api/tables", json={"opponents": huge}), {400}
            )
        a.expect("an unknown bot", c.post("/api/tables", json={"opponents": "alphazero"}), {400})


def _not_json(a: Attack) -> None:
    with a.client() as c:
        for kind in ("text/plain", "application/x-www-form-urlencoded", "", "application/xml"):
            headers = {"content-type": kind} if kind else {}
            r = c.post("/api/tables", content=b'{"variant": "tysiacha"}', headers=headers)
            a.expect(f"a body of {kind or 'no type'}", r, {415})


def _cross_site(a: Attack) -> None:
    evil = {"Origin": "http://evil.example"}
    with a.client() as c:
        a.expect("cross-site JSON", c.post("/api/tables", json={}, headers=evil), {403})
        files = {"rules": ("x.rules", b'extends "tysiacha"\n', "text/plain")}
        a.expect("cross-site form", c.post("/api/tables", files=files, headers=evil), {403})
        t = c.post("/api/tables", json={}).json()
        for path in ("move", "seat", "bots", "next"):
            r = c.post(
                f"/api/tables/{t['table']}/{path}",
                json={"action": "pass"},
                headers={**evil, SEAT: t["token"]},
            )
            a.expect(f"cross-site {path}", r, {403})
        rebinding = c.get("/api/config", headers={"Host": "evil.example"})
        a.expect("a foreign host name", rebinding, {400})


def _deep_json(a: Attack) -> None:
    with a.client() as c:
        t = c.post("/api/tables", json={}).json()
        for depth in (65, 2000, 7000):
            body = ("[" * depth + "]" * depth).encode()
            headers = {"content-type": "application/json"}
            a.expect(
                f"JSON {depth} deep",
                c.post("/api/tables", content=body, headers=headers),
                {400, 413},
            )
            move = b'{"action":' + body + b"}"
            r = c.post(
                f"/api/tables/{t['table']}/move",
                content=move,
                headers={**headers, SEAT: t["token"]},
            )
            a.expect(f"a move {depth} deep", r, {400, 413})


def _flood(a: Attack, count: int) -> None:
    with a.client() as friend:
        theirs = friend.post("/api/tables", json={}).json()
    with a.client() as c:
        codes = [c.post("/api/tables", json={}).status_code for _ in range(count)]
    a.tried += 1
    if codes.count(200) > 16 or set(codes) - {200, 429}:
        a.failures.append(f"a flood of tables from one client: {sorted(set(codes))}")
    with a.client() as friend:
        r = friend.get(f"/api/tables/{theirs['table']}", headers={SEAT: theirs["token"]})
        a.expect("another client's table after the flood", r, {200})


def _downloads(a: Attack) -> None:
    with a.client() as c:
        t = c.post("/api/tables", json={}).json()
        other = c.post("/api/tables", json={}).json()
        a.expect("a download without a seat", c.get(f"/api/tables/{t['table']}/saved"), {403})
        r = c.get(f"/api/tables/{t['table']}/saved", headers={SEAT: other["token"]})
        a.expect("a download with another table's seat", r, {403})
        r = c.get(f"/api/tables/{t['table']}/saved", headers={SEAT: t["token"]})
        a.expect("a running match's download (sealed)", r, {200}, '"sealed"')
        sealed = r.json()
        for field in ("seed", "deck_orders"):
            a.tried += 1
            if sealed.get(field) is not None:
                a.failures.append(f"a running match's download shows its {field}")
        sealed["actions"] = [*sealed["actions"], "pass"]
        a.expect("a changed download resumed", c.post("/api/resume", json=sealed), {400})


def _moves(a: Attack) -> None:
    with a.client() as c:
        t = c.post("/api/tables", json={"people": 2}).json()
        bad: tuple[object, ...] = (None, True, 1.5, [], {}, "x" * 5000, 10**30, -1, "pass pass")
        for action in bad:
            r = c.post(
                f"/api/tables/{t['table']}/move",
                json={"action": action},
                headers={SEAT: t["token"]},
            )
            a.expect(f"a move {str(action)[:20]!r}", r, {400, 403, 409, 413})
        r = c.post(f"/api/tables/{t['table']}/move", json={"action": "pass"}, headers={SEAT: "x"})
        a.expect("a forged seat", r, {403})


def _garbage(a: Attack, count: int) -> None:
    rng = a.rng
    paths = ["/api/tables", "/api/resume", "/api/tables/x/move", "/api/tables/x", "/static/x"]
    with a.client() as c:
        for _ in range(count):
            body = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 3000)))
            kind = rng.choice(["application/json", "multipart/form-data; boundary=x", "text/plain"])
            r = c.post(rng.choice(paths), content=body, headers={"content-type": kind})
            a.expect("garbage", r, {400, 403, 404, 405, 410, 413, 415})


def open_idle(port: int, count: int) -> list[socket.socket]:
    """Up to `count` connections to the server on 127.0.0.1:port that send nothing (those
    the server refuses at once are left out)."""
    idle: list[socket.socket] = []
    for _ in range(count):
        s = socket.socket()
        s.settimeout(10)
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            continue
        idle.append(s)
    return idle


def closed_by_server(idle: list[socket.socket]) -> int:
    """How many of these connections the server has closed (a read gives b"" or a reset;
    one left open times out after the socket's 10 s)."""
    closed = 0
    for s in idle:
        try:
            closed += s.recv(1) == b""
        except OSError:
            closed += 1
    return closed


def _idle(a: Attack, count: int) -> None:
    idle = open_idle(int(a.url.rsplit(":", 1)[1].strip("/")), count)
    try:
        with a.client() as c:
            a.expect("another client during an idle flood", c.get("/api/config"), {200})
        closed = closed_by_server(idle)
        a.tried += 1
        if closed != len(idle):
            a.failures.append(f"idle connections left open: {len(idle) - closed}")
    finally:
        for s in idle:
            s.close()


def start_server(*args: str, files: int | None = None) -> tuple[subprocess.Popen[str], str]:
    """`trickcore serve tysiacha` on a free port of 127.0.0.1 with these options (and a file
    limit of `files`, if given), answering: the process and its address (ending in "/"), or
    an empty address when it did not start (the process then killed)."""

    def lower_limit() -> None:
        import resource

        assert files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    proc = subprocess.Popen(
        [sys.executable, "-m", "trickcore", "serve", "tysiacha", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lower_limit if files else None,
    )
    line = proc.stdout.readline() if proc.stdout else ""
    found = re.search(r"http://127\.0\.0\.1:\d+/", line)
    if not found:
        proc.kill()
        return proc, ""
    url = found.group(0)
    for _ in range(400):
        try:
            httpx.get(url + "api/config", timeout=5)
            break
        except httpx.TransportError:
            time.sleep(0.05)
    return proc, url


def run(quick: bool, seed: int) -> int:
    """Start a server, attack it, print the tally; 0 when nothing failed."""
    options = ("--bot-delay", "0", "--per-client", "40", "--connections", "300")
    proc, url = start_server(*options, "--idle-timeout", "1.5", files=512)
    if not url:
        print(f"the server did not start: {proc.communicate()[1][-500:]!r}")
        return 1
    url = url.rstrip("/")
    attack = Attack(url, random.Random(seed))
    steps: list[tuple[str, Callable[[], None]]] = [
        ("seeds and computer players", lambda: _seeds_and_bots(attack)),
        ("bodies that are not JSON", lambda: _not_json(attack)),
        ("cross-site requests", lambda: _cross_site(attack)),
        ("nested JSON", lambda: _deep_json(attack)),
        ("a flood of tables", lambda: _flood(attack, 30 if quick else 200)),
        ("downloads", lambda: _downloads(attack)),
        ("bad moves", lambda: _moves(attack)),
        ("garbage", lambda: _garbage(attack, 30 if quick else 1000)),
        ("idle connections", lambda: _idle(attack, 200 if quick else 1100)),
    ]
    start = time.monotonic()
    try:
        for name, step in steps:
            print(f"- {name} ({time.monotonic() - start:.0f} s)", flush=True)
            try:
                step()
            except (httpx.HTTPError, OSError, ValueError) as exc:
                attack.failures.append(f"{name}: the server did not answer ({exc!r})")
        with attack.client() as c:
            attack.expect("the server still answers", c.get("/api/config"), {200})
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
            attack.failures.append("the server did not stop within 30 s of SIGTERM")
    if "Traceback" in err or len(err) > 50_000:
        attack.failures.append(f"the server's log: {len(err):,} characters, {err[-500:]!r}")
    for failure in attack.failures:
        print(f"FAILED {failure}")
    print(f"{attack.tried} attacks, {len(attack.failures)} failures")
    return 1 if attack.failures else 0


def main(argv: list[str] | None = None) -> int:
    """The command line of the attack run."""
    p = argparse.ArgumentParser(prog="python -m fuzz web", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="the short run (CI)")
    p.add_argument("--seed", type=int, default=0, help="seed of the garbage (0)")
    args = p.parse_args(argv)
    return run(args.quick, args.seed)
