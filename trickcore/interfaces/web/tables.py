"""The tables of the web app: who sits where, the match, the computer players, and what each
seat is sent. No web framework here: the app (`app.py`) only moves JSON in and out.

The server holds every match. A browser is told only what its own seat may know
(`match.observation(seat)`, its legal actions when it is to act); a browser without a seat
sees the public view. A person holds a seat by a secret token given when the seat is taken.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from typing import Any

import attrs

from ...engine.actions import Action
from ...engine.bouts import BoutDeal
from ...engine.deal import Deal
from ...engine.game import Game
from ...engine.observation import BoutObservation, Observation
from ...language.errors import IllegalActionError, RulesError, TrickcoreError
from ...players import Bot, bot_names, make_bot, turn_of
from ..summary import rules_summary

MAX_TABLES = 200  # tables kept at once; the longest idle one goes first
MAX_RULES_BYTES = 1_000_000  # an uploaded rules file (the compiler also caps its characters)
IDLE_SECONDS = 6 * 3600
DEFAULT_OPPONENTS = "greedy"
RED_GLYPHS = set("♥♦♡♢")


class TableError(TrickcoreError):
    """A request the table refuses (not your turn, no free seat, an illegal move, ...)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def make_opponent(spec: str, seed: int) -> Bot:
    """A computer player for `spec` ("random", "greedy", "pimc:iterations=200", ...); an
    unknown spec is a TrickcoreError naming the known ones."""
    return make_bot(spec, seed)


def opponent_names() -> list[str]:
    """The computer players offered in the browser."""
    return bot_names()


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


class Table:
    """A match at one table: its seats, its computer players, and the views it sends."""

    def __init__(
        self,
        table_id: str,
        game: Game,
        players: int | None = None,
        people: int = 1,
        opponents: str = DEFAULT_OPPONENTS,
        seed: int | None = None,
        bot_delay: float = 0.8,
    ) -> None:
        self.id = table_id
        self.game = game
        self.seed = secrets.randbelow(10**9) if seed is None else seed
        self.match = game.new_match(seed=self.seed, players=players)
        self.opponents = opponents
        seats = self.match.seats
        if not 1 <= people <= seats:
            raise TableError(f"people at the table: 1 to {seats}")
        self.seats: list[SeatInfo] = [SeatInfo(person=True) for _ in range(people)]
        for seat in range(people, seats):
            bot = make_opponent(opponents, self.seed + seat)
            self.seats.append(SeatInfo(person=False, bot=bot, spec=opponents))
        self.lock = threading.RLock()
        self.version = 0
        self.bot_delay = bot_delay
        self.last_move = time.monotonic()
        self.last_seen = time.monotonic()
        self.last_deal: Deal | BoutDeal | None = None
        self.matches_played = 1
        self.stopped: str | None = None
        self.deck = deck_info(game)

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
                        bot=make_opponent(self.opponents, self.seed + seat),
                        spec=self.opponents,
                    )
            self.version += 1
            self.advance()

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
        except IllegalActionError as exc:
            raise TableError(str(exc).splitlines()[0]) from None
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

    def advance(self, now: float | None = None) -> int:
        """Let the computer players move while one is to act: all at once without a delay,
        else one move after `bot_delay` seconds (a deal's end waits three times as long).
        Returns the number of moves made."""
        moved = 0
        with self.lock:
            while not self.match.is_over and self.stopped is None:
                seat = self.match.to_act
                info = self.seats[seat]
                if info.person or info.bot is None:
                    break
                now = time.monotonic() if now is None else now
                wait = self.bot_delay
                if self.last_deal is not None and self._deal_just_ended():
                    wait *= 3
                if self.bot_delay > 0 and now - self.last_move < wait:
                    break
                try:
                    self._apply(info.bot.choose(turn_of(self.match)))
                except TrickcoreError as exc:  # rules that leave a seat stuck, a bad bot
                    self.stopped = f"seat {seat} cannot move: {exc}"
                    break
                moved += 1
                if self.bot_delay > 0:
                    break
        return moved

    def _deal_just_ended(self) -> bool:
        return len(self.match.current.history) == 0

    def new_match(self, token: str | None) -> None:
        """Start the next match at this table (a person at the table asks, once it is over)."""
        with self.lock:
            if self.seat_of(token) is None:
                raise TableError("you have no seat at this table", 403)
            if not self.match.is_over:
                raise TableError("the match is not over yet")
            self.seed += 1
            self.match = self.game.new_match(seed=self.seed, players=self.match.seats)
            self.last_deal = None
            self.stopped = None
            self.matches_played += 1
            self.version += 1
            self.last_move = time.monotonic()
            self.advance()

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
                "last_deal": last,
            }

    def rules(self) -> dict[str, Any]:
        """The rules summary of the table's variant (`trickcore show`)."""
        return variant_rules(self.game)


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


class Tables:
    """Every table of the server, by id; the longest idle ones are dropped past MAX_TABLES."""

    def __init__(self, bot_delay: float = 0.8) -> None:
        self.tables: dict[str, Table] = {}
        self.bot_delay = bot_delay
        self.lock = threading.Lock()

    def create(
        self,
        game: Game,
        players: int | None = None,
        people: int = 1,
        opponents: str = DEFAULT_OPPONENTS,
        seed: int | None = None,
    ) -> Table:
        """A new table (the seats for people left open: the creator takes one next)."""
        with self.lock:
            now = time.monotonic()
            for key in [k for k, t in self.tables.items() if now - t.last_seen > IDLE_SECONDS]:
                del self.tables[key]
            while len(self.tables) >= MAX_TABLES:
                oldest = min(self.tables.values(), key=lambda t: t.last_seen)
                del self.tables[oldest.id]
            table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
            table = Table(
                table_id, game, players, people, opponents, seed, bot_delay=self.bot_delay
            )
            self.tables[table_id] = table
            return table

    def get(self, table_id: str) -> Table:
        """The table of that id (a TableError 404 if there is none)."""
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no such table (it may have been closed)", 404)
        return table
