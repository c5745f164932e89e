"""The tables of the web app: who sits where, the match, the computer players, and what each
seat is sent. No web framework here: the app (`app.py`) only moves JSON in and out.

The server holds every match. A browser is told only what its own seat may know
(`match.observation(seat)`, its legal actions when it is to act); a browser without a seat
sees the public view. A person holds a seat by a secret token given when the seat is taken.

Deals come from a secret source: every match is dealt by `random.SystemRandom`
(`os.urandom`, more than 128 bits of state from the operating system), which no client can
choose or read; only the server's operator may fix the first match of each table by a seed
(`serve --seed`, for tests and demonstrations). A seat may download the match at any time:
sealed while it runs (see `sealing`), whole once it is over. A table in play is never
dropped to make room; a table nobody has looked at for hours is closed and its match kept
for its seats.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
import time
import zlib
from collections import OrderedDict, deque
from typing import Any

import attrs

from ...engine.actions import Action
from ...engine.bouts import BoutDeal
from ...engine.deal import Deal
from ...engine.game import Game, variant_of
from ...engine.match import Match
from ...engine.observation import BoutObservation, Observation
from ...engine.replay import match_from_json
from ...language.errors import RulesError, TrickcoreError
from ...players import Bot, make_bot, turn_of
from ..prompts import turn_prompt
from ..summary import rules_summary
from .bot_runner import BotRunner
from .opponents import OpponentMenu
from .sealing import Sealer, TableSeats

MAX_TABLES = 200  # tables kept at once
MAX_TABLES_PER_CLIENT = 16  # open tables one client (address) may have made
NEW_TABLES_PER_CLIENT = 30  # tables one client may make within NEW_TABLES_WINDOW seconds
NEW_TABLES_WINDOW = 600.0
MAX_RULES_BYTES = 1_000_000  # an uploaded rules file (the compiler also caps its characters)
IDLE_SECONDS = 6 * 3600  # a table nobody looked at for this long is closed (match kept)
ABANDONED_SECONDS = 30 * 60  # when the server is full: a table idle this long may be closed
KEPT_SECONDS = 7 * 24 * 3600  # how long a closed table's match is kept for its seats
MAX_KEPT = 2000  # closed tables' matches kept at once (the oldest go first)
DEFAULT_OPPONENTS = "greedy"
RED_GLYPHS = set("♥♦♡♢")


class TableError(TrickcoreError):
    """A request the table refuses (not your turn, no free seat, an illegal move, ...)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def make_opponent(spec: str, seed: int | None) -> Bot:
    """A computer player for `spec` ("random", "greedy", "pimc:iterations=200", ...); an
    unknown spec is a TrickcoreError naming the known ones."""
    return make_bot(spec, seed)


@attrs.define
class SeatInfo:
    """One seat: a person's (with the token that holds it, None while open) or a bot's."""

    person: bool
    token: str | None = None
    bot: Bot | None = None
    spec: str = ""


def deck_info(game: Game) -> dict[str, Any]:
    """The variant's deck for drawing cards: suits (symbol, glyph, colour) and every card's
    rank and suit, by its text."""
    deck = game.model.deck
    suits = []
    for i, s in enumerate(deck.suits):
        colour = "red" if s.glyph in RED_GLYPHS else "black"
        if s.glyph not in RED_GLYPHS and s.glyph not in set("♠♣♤♧"):
            colour = ("black", "red", "green", "blue")[i % 4]
        suits.append({"name": s.name, "symbol": s.symbol, "glyph": s.glyph, "colour": colour})
    cards = {
        deck.card_text(c): [deck.ranks[c % len(deck.ranks)].symbol, c // len(deck.ranks), c]
        for c in range(deck.size)
    }
    return {"suits": suits, "cards": cards}


def _legal_entry(game: Game, action: Action) -> dict[str, Any]:
    """A legal action for the browser: its number, text, kind, and the one card it is made
    with (clicked on the card), if any."""
    card: int | None = None
    if action.card >= 0 and action.kind != "announce":
        card = action.card
    elif action.kind == "beat" and len(action.cards) == 2:
        card = action.cards[1]
    elif len(action.cards) == 1:
        card = action.cards[0]
    return {
        "id": action.id,
        "text": action.text,
        "kind": action.kind,
        "card": game.card_text(card) if card is not None else None,
    }


def describe_result(result: dict[str, Any], number: int) -> dict[str, Any]:
    """One line of the score sheet for a finished deal."""
    if result.get("redeal"):
        label = f"thrown in (redeal by seat {result.get('by')})"
    elif "loser" in result:
        label = "a draw" if result.get("draw") else f"seat {result['loser']} is left with cards"
        label += f" after {result.get('bouts', 0)} bouts"
    elif result.get("declarer", -1) >= 0:
        gains = result.get("gains") or []
        declarer = result["declarer"]
        said = " ".join(str(x) for x in (result.get("contract"), result.get("qualifier")) if x)
        made = declarer < len(gains) and gains[declarer] > 0
        label = f"seat {declarer} plays {said}: " + ("made" if made else "not made")
    else:
        label = ""
    return {
        "number": number,
        "label": label,
        "gains": list(result.get("gains") or []),
        "scores": list(result.get("scores") or []),
        "card_points": list(result.get("card_points") or []),
    }


def _token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Table:
    """A match at one table: its seats, its computer players, and the views it sends.

    With a `runner` the computer players move on its worker threads (a request never waits
    for them); without one they move when `advance()` is called (the library's and the tests'
    way: all at once with no delay).
    """

    def __init__(
        self,
        table_id: str,
        game: Game,
        players: int | None = None,
        people: int = 1,
        opponents: str = DEFAULT_OPPONENTS,
        seed: int | None = None,
        bot_delay: float = 0.8,
        runner: BotRunner | None = None,
        creator: str = "",
        match: Match | None = None,
        bots: tuple[str | None, ...] | None = None,
    ) -> None:
        self.id = table_id
        self.game = game
        if match is None:
            match = (
                game.new_match(secret=True, players=players)
                if seed is None
                else game.new_match(seed=seed, players=players)
            )
        self.match = match
        self.opponents = opponents
        self.creator = creator
        self.runner = runner
        seats = self.match.seats
        if bots is None:
            if not 1 <= people <= seats:
                raise TableError(f"people at the table: 1 to {seats}")
            bots = tuple(None if s < people else opponents for s in range(seats))
        self.seats: list[SeatInfo] = [
            SeatInfo(person=True)
            if spec is None
            else SeatInfo(person=False, bot=make_opponent(spec, self._bot_seed(seed, s)), spec=spec)
            for s, spec in enumerate(bots)
        ]
        self.lock = threading.RLock()
        self.version = 0
        self.bot_delay = bot_delay
        self.last_move = time.monotonic()
        self.last_seen = time.monotonic()
        self.last_deal: Deal | BoutDeal | None = None
        self.matches_played = 1
        self.stopped: str | None = None
        self.deck = deck_info(game)

    @staticmethod
    def _bot_seed(seed: int | None, seat: int) -> int:
        """A computer player's seed: from the operator's seed when one is set (reproducible
        tables for tests), else fresh."""
        return seed + seat if seed is not None else secrets.randbits(32)

    # ------------------------------------------------------------ seats
    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, or None (a spectator)."""
        if not token:
            return None
        for seat, info in enumerate(self.seats):
            if info.token is not None and secrets.compare_digest(info.token, token):
                return seat
        return None

    def take_seat(self, seat: int | None = None) -> tuple[int, str]:
        """Take an open seat (the first one when `seat` is None): (seat, its token)."""
        with self.lock:
            open_seats = [s for s, i in enumerate(self.seats) if i.person and i.token is None]
            if seat is None:
                if not open_seats:
                    raise TableError("every seat at this table is taken", 409)
                seat = open_seats[0]
            if seat not in open_seats:
                raise TableError(f"seat {seat} is not free", 409)
            token = secrets.token_urlsafe(18)
            self.seats[seat].token = token
            self.version += 1
            return seat, token

    def fill_with_bots(self) -> None:
        """Give every open seat to a computer player."""
        with self.lock:
            for seat, info in enumerate(self.seats):
                if info.person and info.token is None:
                    self.seats[seat] = SeatInfo(
                        person=False,
                        bot=make_opponent(self.opponents, self._bot_seed(None, seat)),
                        spec=self.opponents,
                    )
            self.version += 1
            self.advance()

    def has_people(self) -> bool:
        """Whether a person holds a seat."""
        return any(i.person and i.token for i in self.seats)

    # ------------------------------------------------------------ play
    def move(self, token: str | None, action: str | int) -> None:
        """The person holding `token` takes `action` (its text or number); anything
        illegal is refused with a TableError and changes nothing."""
        with self.lock:
            seat = self.seat_of(token)
            if seat is None:
                raise TableError("you have no seat at this table", 403)
            if self.match.is_over:
                raise TableError("the match is over")
            if self.match.to_act != seat:
                raise TableError(f"it is not your turn: seat {self.match.to_act} is to act", 409)
            if isinstance(action, int) and not isinstance(action, bool):
                chosen = next((a for a in self.match.legal_actions() if a.id == action), None)
                if chosen is None:
                    raise TableError(f"action number {action} is not legal now")
            elif isinstance(action, str) and len(action) <= 200:
                chosen = next(
                    (a for a in self.match.legal_actions() if a.text == action.strip()), None
                )
                if chosen is None:
                    chosen = self._parse(action)
            else:
                raise TableError("an action is its text or its number")
            self._apply(chosen)
            self.advance()

    def _parse(self, text: str) -> Action:
        """The legal action a text names in another spelling, or a TableError with the
        engine's reason (tried on a copy of the match: the table changes only when legal)."""
        probe = self.match.clone()
        try:
            probe.apply(text)
        except TrickcoreError as exc:
            raise TableError(str(exc).splitlines()[0]) from None
        taken = probe.history[-1][2]
        for a in self.match.legal_actions():
            if a.text == taken:
                return a
        raise TableError(f"'{text}' is not legal now")  # pragma: no cover

    def _apply(self, action: Action) -> None:
        deal = self.match.current
        try:
            self.match.apply(action)
        except RulesError as exc:  # the rules file broke carrying it out: the match stops
            self.stopped = str(exc)
        if self.match.current is not deal or deal.is_over:
            self.last_deal = deal
        self.version += 1
        self.last_move = time.monotonic()

    def _bot_to_act(self) -> SeatInfo | None:
        if self.match.is_over or self.stopped is not None:
            return None
        info = self.seats[self.match.to_act]
        return None if info.person or info.bot is None else info

    def _due(self) -> float | None:
        """When the computer player to act should move (None: a person is to act)."""
        if self._bot_to_act() is None:
            return None
        wait = self.bot_delay
        if self.last_deal is not None and self._deal_just_ended():
            wait *= 3
        return self.last_move + wait if self.bot_delay > 0 else self.last_move

    def advance(self, now: float | None = None) -> int:
        """Let the computer players move while one is to act: all at once without a delay,
        else one move after `bot_delay` seconds (a deal's end waits three times as long).
        Returns the number of moves made. With a runner, the runner is asked to move them
        (on its own threads) and 0 is returned."""
        if self.runner is not None:
            self.runner.wake(self)
            return 0
        moved = 0
        with self.lock:
            while True:
                due = self._due()
                if due is None:
                    break
                now = time.monotonic() if now is None else now
                if self.bot_delay > 0 and now < due:
                    break
                if not self._bot_move():
                    break
                moved += 1
                if self.bot_delay > 0:
                    break
        return moved

    def _bot_move(self) -> bool:
        info = self._bot_to_act()
        assert info is not None and info.bot is not None
        seat = self.match.to_act
        try:
            self._apply(info.bot.choose(turn_of(self.match)))
        except TrickcoreError as exc:  # rules that leave a seat stuck, a bad bot
            self.stopped = f"seat {seat} cannot move: {exc}"
            return False
        return True

    def bot_due(self) -> float | None:
        """When this table's computer player should move (for the runner)."""
        with self.lock:
            return self._due()

    def bot_step(self) -> None:
        """One computer player's move, its decision made outside the table's lock (the
        table goes on answering meanwhile; a decision for a table that moved on is
        dropped)."""
        with self.lock:
            due = self._due()
            if due is None or due > time.monotonic():
                return
            seat = self.match.to_act
            info = self.seats[seat]
            assert info.bot is not None
            version = self.version
            try:
                turn = turn_of(self.match)
            except TrickcoreError as exc:
                self.stopped = f"seat {seat} cannot move: {exc}"
                return
        try:
            action = info.bot.choose(turn)
        except TrickcoreError as exc:
            with self.lock:
                if self.version == version:
                    self.stopped = f"seat {seat} cannot move: {exc}"
            return
        with self.lock:
            if self.version == version:
                self._apply(action)

    def _deal_just_ended(self) -> bool:
        return len(self.match.current.history) == 0

    def new_match(self, token: str | None) -> None:
        """Start the next match at this table (a person at the table asks, once it is over):
        dealt from the secret source, whatever dealt the last one."""
        with self.lock:
            if self.seat_of(token) is None:
                raise TableError("you have no seat at this table", 403)
            if not self.match.is_over:
                raise TableError("the match is not over yet")
            self.match = self.game.new_match(
                secret=True, players=self.match.seats, after=self.match
            )
            self.last_deal = None
            self.stopped = None
            self.matches_played += 1
            self.version += 1
            self.last_move = time.monotonic()
            self.advance()

    # ------------------------------------------------------------ saving
    def seat_specs(self) -> tuple[str | None, ...]:
        """Each seat: None for a person's, else its computer player's spec."""
        return tuple(None if i.person else i.spec for i in self.seats)

    def saved(self, seat: int, sealer: Sealer) -> dict[str, Any]:
        """The match as a seat may download it: whole once it is over, sealed while it runs
        (how it was dealt hidden; see `sealing`)."""
        with self.lock:
            data = self.match.to_json()
            if self.match.is_over:
                return data
            return sealer.seal(data, TableSeats(self.seat_specs(), seat))

    # ------------------------------------------------------------ views
    def view(self, token: str | None) -> dict[str, Any]:
        """Everything the browser of `token`'s seat is shown (the public view without one)."""
        with self.lock:
            self.last_seen = time.monotonic()
            self.advance()
            seat = self.seat_of(token)
            m = self.match
            obs: Observation | BoutObservation
            if seat is None:
                obs = m.deal
            else:
                obs = m.observation(seat)
            your_turn = seat is not None and not m.is_over and m.to_act == seat
            legal: list[dict[str, Any]] = []
            if your_turn:
                try:
                    legal = [_legal_entry(self.game, a) for a in m.legal_actions()]
                except TrickcoreError as exc:  # a rules file that leaves a seat stuck
                    self.stopped = str(exc)
            model = self.game.model
            side_of = model.side_of(m.seats)
            seats = []
            for s, info in enumerate(self.seats):
                if s == seat:
                    kind = "you"
                elif info.person:
                    kind = "person" if info.token else "open"
                else:
                    kind = "computer"
                seats.append(
                    {
                        "seat": s,
                        "kind": kind,
                        "bot": info.spec if not info.person else None,
                        "partner": seat is not None
                        and s != seat
                        and bool(model.sides)
                        and side_of[s] == side_of[seat],
                        "standing": m.standing(s),
                    }
                )
            last = None
            if self.last_deal is not None and m.deal_results:
                last_obs = (
                    self.last_deal.observation(seat)
                    if seat is not None
                    else self.last_deal.public_view()
                )
                last = {
                    "number": len(m.deal_results),
                    "result": describe_result(m.deal_results[-1], len(m.deal_results)),
                    "obs": _plain(last_obs.to_dict()),
                }
            return {
                "table": self.id,
                "version": self.version,
                "variant": {"name": self.game.name, "title": self.game.title},
                "bouts": model.bouts is not None,
                "deck": self.deck,
                "seat": seat,
                "seats": seats,
                "to_act": m.to_act,
                "your_turn": your_turn,
                "thinking": self._bot_to_act() is not None,
                "waiting_for": (
                    "open"
                    if not m.is_over
                    and self.seats[m.to_act].person
                    and not self.seats[m.to_act].token
                    else None
                ),
                "is_over": m.is_over,
                "winners": list(m.winners) if m.is_over else [],
                "stopped": self.stopped or (m.stopped if m.is_over else None),
                "deal_number": m.deals_dealt,
                "matches_played": self.matches_played,
                "scores": list(m.scores),
                "target": model.match.target,
                "results": [describe_result(r, i + 1) for i, r in enumerate(m.deal_results)],
                "obs": _plain(obs.to_dict()),
                "legal": legal,
                # what the seat is asked to do ("bid or pass", "lay away 2 cards", ...)
                "prompt": turn_prompt(m) if your_turn and legal else None,
                # the talon's face-up cards while they lie on the table (not once taken)
                "talon_on_felt": talon_on_felt(obs),
                "last_deal": last,
            }

    def rules(self) -> dict[str, Any]:
        """The rules summary of the table's variant (`trickcore show`)."""
        return variant_rules(self.game)


def talon_on_felt(obs: Observation | BoutObservation) -> list[str]:
    """The talon's cards shown face up on the felt: while the talon still holds them (once
    the declarer has taken them they are in his hand, and shown there only)."""
    shown = getattr(obs, "talon_shown", None)
    if not shown or getattr(obs, "talon_size", 0) <= 0:
        return []
    return list(shown)


def variant_rules(game: Game) -> dict[str, Any]:
    """A variant's rules summary as JSON: title, name, files, sections of lines."""
    return {
        "name": game.name,
        "title": game.title,
        "files": [re.split(r"[\\/]", s)[-1] for s in game.model.sources],
        "sections": [{"title": t, "lines": lines} for t, lines in rules_summary(game.model)],
    }


def _plain(value: Any) -> Any:
    """Tuples as lists, all the way down (what JSON makes of them anyway)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@attrs.frozen
class ClosedTable:
    """A table closed for idleness: its match (compressed) and its seats' token digests."""

    data: bytes
    over: bool
    seats: TableSeats
    tokens: tuple[str | None, ...]
    closed: float

    def saved(self, token: str, sealer: Sealer) -> dict[str, Any] | None:
        """The match for the seat holding `token` (None if no seat does)."""
        digest = _token_digest(token)
        seat = next((s for s, t in enumerate(self.tokens) if t == digest), None)
        if seat is None:
            return None
        data = json.loads(zlib.decompress(self.data))
        if self.over:
            return data  # type: ignore[no-any-return]
        return sealer.seal(data, attrs.evolve(self.seats, seat=seat))


class Tables:
    """Every table of the server, by id, with the limits that keep strangers from crowding
    out each other: per client (by address) at most MAX_TABLES_PER_CLIENT open tables and
    NEW_TABLES_PER_CLIENT new ones in NEW_TABLES_WINDOW seconds; at most MAX_TABLES in all.
    To make room a finished or abandoned table may be closed, never one in play; a closed
    table's match is kept (KEPT_SECONDS, MAX_KEPT) for its seats to download."""

    def __init__(
        self,
        bot_delay: float = 0.8,
        menu: OpponentMenu | None = None,
        seed: int | None = None,
        runner: BotRunner | None = None,
        sealer: Sealer | None = None,
    ) -> None:
        self.tables: dict[str, Table] = {}
        self.closed: OrderedDict[str, ClosedTable] = OrderedDict()
        self.bot_delay = bot_delay
        self.menu = menu or OpponentMenu.parse(None)
        self.seed = seed  # the operator's seed of every table's first match (None: secret)
        self.runner = runner
        self.sealer = sealer or Sealer()
        self.lock = threading.Lock()
        self._made: dict[str, deque[float]] = {}

    def _admit(self, client: str, now: float) -> None:
        """Refuse a client over its limits (429), or the server when full (503)."""
        mine = sum(1 for t in self.tables.values() if t.creator == client)
        if mine >= MAX_TABLES_PER_CLIENT:
            raise TableError(
                f"you have {mine} open tables, the most one client may have here; finish or "
                "leave one (a table nobody looks at closes after a while)",
                429,
            )
        made = self._made.setdefault(client, deque())
        while made and now - made[0] > NEW_TABLES_WINDOW:
            made.popleft()
        if len(made) >= NEW_TABLES_PER_CLIENT:
            raise TableError(
                f"you started {len(made)} tables in the last {NEW_TABLES_WINDOW / 60:.0f} "
                "minutes, the most allowed; try again later",
                429,
            )
        if len(self.tables) >= MAX_TABLES:
            raise TableError(
                f"the server has {MAX_TABLES} tables, as many as it keeps, and none of them "
                "is finished or abandoned; try again later",
                503,
            )

    def _sweep(self, now: float) -> None:
        """Close idle tables; when full, finished ones and then abandoned ones too."""
        for key in [k for k, t in self.tables.items() if now - t.last_seen > IDLE_SECONDS]:
            self._close(key, now)
        if len(self.tables) >= MAX_TABLES:
            for over_first in (True, False):
                candidates = sorted(
                    (
                        t
                        for t in self.tables.values()
                        if t.match.is_over == over_first
                        and (over_first or now - t.last_seen > ABANDONED_SECONDS)
                    ),
                    key=lambda t: t.last_seen,
                )
                for t in candidates:
                    if len(self.tables) < MAX_TABLES:
                        return
                    self._close(t.id, now)
        for key in [k for k, c in self.closed.items() if now - c.closed > KEPT_SECONDS]:
            del self.closed[key]
        for client in [c for c, d in self._made.items() if not d or now - d[-1] > 3600]:
            del self._made[client]

    def _close(self, table_id: str, now: float) -> None:
        """Close a table, keeping its match for its seats."""
        table = self.tables.pop(table_id)
        with table.lock:
            data = table.match.to_json()
            self.closed[table_id] = ClosedTable(
                data=zlib.compress(json.dumps(data).encode()),
                over=table.match.is_over,
                seats=TableSeats(table.seat_specs(), -1),
                tokens=tuple(_token_digest(i.token) if i.token else None for i in table.seats),
                closed=now,
            )
        while len(self.closed) > MAX_KEPT:
            self.closed.popitem(last=False)

    def create(
        self,
        game: Game,
        players: int | None = None,
        people: int = 1,
        opponents: str | None = None,
        client: str = "",
    ) -> Table:
        """A new table (the seats for people left open: the creator takes one next); its
        computer players must be on the menu, within its ceilings."""
        spec = self.menu.allow(opponents)
        with self.lock:
            now = self._admitted(client)
            table = Table(
                self._new_id(),
                game,
                players,
                people,
                spec,
                self.seed,
                bot_delay=self.bot_delay,
                runner=self.runner,
                creator=client,
            )
            self._opened(table, client, now)
            return table

    def _admitted(self, client: str) -> float:
        """Sweep the closed tables out and admit one more table of this client (a
        TableError if it may not have one); the time now. Called under the lock."""
        now = time.monotonic()
        self._sweep(now)
        self._admit(client, now)
        return now

    def _opened(self, table: Table, client: str, now: float) -> None:
        """Count a new table for its client and open it. Called under the lock."""
        self._made.setdefault(client, deque()).append(now)
        self.tables[table.id] = table

    def resume(self, data: Any, client: str = "") -> tuple[Table, int]:
        """A table again from a seat's sealed download of its running match: the same seats
        (people's open, the computer players as they were), the downloading seat kept for
        the uploader. Returns the table and that seat."""
        if not isinstance(data, dict):
            raise TableError("resume: a match downloaded from a table (a JSON object)")
        full, seats = self.sealer.open(data)
        match = match_from_json(full)
        if match.is_over:
            raise TableError("resume: that match is over; it can be loaded with trickcore replay")
        if len(seats.bots) != match.seats or not 0 <= seats.seat < match.seats:
            raise TableError("resume: the seats saved do not fit the match")
        specs = tuple(None if b is None else self.menu.allow(b) for b in seats.bots)
        with self.lock:
            now = self._admitted(client)
            table = Table(
                self._new_id(),
                variant_of(match),
                opponents=self.menu.default,
                bot_delay=self.bot_delay,
                runner=self.runner,
                creator=client,
                match=match,
                bots=specs,
            )
            if table.seats[seats.seat].bot is not None:
                raise TableError("resume: that download was made by a computer player's seat")
            self._opened(table, client, now)
        return table, seats.seat

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
            if table_id not in self.tables and table_id not in self.closed:
                return table_id

    def get(self, table_id: str) -> Table:
        """The table of that id (a TableError 410 if it was closed, 404 if there is none)."""
        table = self.tables.get(table_id)
        if table is None:
            if table_id in self.closed:
                raise TableError(
                    "this table was closed after a long time without play; a seat may "
                    "download its match (and resume it on the start page)",
                    410,
                )
            raise TableError("no such table (it may have been closed)", 404)
        return table

    def saved(self, table_id: str, token: str | None) -> dict[str, Any]:
        """The match of a table (open or closed) for the seat holding `token`."""
        if not token:
            raise TableError("only a seat at the table may download its match", 403)
        table = self.tables.get(table_id)
        if table is not None:
            seat = table.seat_of(token)
            if seat is None:
                raise TableError("only a seat at the table may download its match", 403)
            return table.saved(seat, self.sealer)
        closed = self.closed.get(table_id)
        if closed is None:
            raise TableError("no such table (it may have been closed)", 404)
        data = closed.saved(token, self.sealer)
        if data is None:
            raise TableError("only a seat at the table may download its match", 403)
        return data
