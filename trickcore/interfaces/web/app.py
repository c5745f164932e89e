"""The web app of `trickcore serve`: a Starlette application over `tables.Tables`.

Pages: `/` (start a table: a shipped variant, an uploaded rules file, or a downloaded match
to resume) and `/t/{id}` (a table; its link is what players share). The browser polls
`GET /api/tables/{id}` (a JSON view of its own seat) and posts moves; everything it loads
comes from this server (the Content-Security-Policy allows nothing else).

Requests are treated as coming from strangers: a request that changes something must not
come from another site's page (its `Origin`, when sent, is this server's) and carries JSON
(`application/json`; an upload may be a multipart form); bodies are bounded and parsed with
a depth limit; a client's tables are limited (`tables.Tables`); computer players are the
operator's menu, within its ceilings, moved off the request path. Error messages name a
rules file by its own name, never by the server's folders.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ... import list_variants, load_variant
from ...engine.game import Game
from ...language.compiler import compile_with_errors
from ...language.errors import RulesError, TrickcoreError
from ...language.loader import load_rules_text
from .bot_runner import BotRunner
from .opponents import OpponentMenu
from .sealing import Sealer
from .tables import (
    MAX_RULES_BYTES,
    Table,
    TableError,
    Tables,
    variant_rules,
)

MAX_BODY = 16_000  # a request other than an upload
MAX_RESUME_BYTES = 32 * 1024 * 1024  # a downloaded match to resume
MAX_JSON_DEPTH = 64
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "table.js": "text/javascript; charset=utf-8",
    "table.css": "text/css; charset=utf-8",
}
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
SEAT_HEADER = "x-trickcore-seat"
NO_SEED = (
    "a served table deals from a secret source that no client chooses: 'seed' is not "
    "accepted here (seeds are for the library and the command line, e.g. trickcore play "
    "--seed)"
)


class BadRequest(TrickcoreError):
    """A request the server cannot read (too large, not JSON, a wrong field)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _static(name: str) -> bytes:
    """A file of the app's static folder (package data: works from an installed wheel)."""
    return resources.files(__package__).joinpath("static", name).read_bytes()


@functools.cache
def _shipped(name: str) -> Game:
    """A shipped variant, compiled once per process."""
    return load_variant(name)


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(
        data, status_code=status, headers={"Cache-Control": "no-store", **(headers or {})}
    )


def _error(exc: Exception) -> JSONResponse:
    status = getattr(exc, "status", 400)
    if isinstance(exc, RulesError):
        exc = _portable(exc)
        return _json({"error": str(exc), "errors": [_rules_error(exc)]}, status)
    return _json({"error": str(exc)}, status)


def _portable(exc: RulesError) -> RulesError:
    """The error with its file named by its own name only (a shipped file by its shipped
    name): the server's folders are nobody's business."""
    loc = exc.location
    if loc is None:
        return exc
    name = re.split(r"[\\/]", loc.file)[-1]
    return RulesError(exc.message, attrs.evolve(loc, file=name))


def _rules_error(exc: RulesError) -> dict[str, Any]:
    exc = _portable(exc)
    loc = exc.location
    where = f"{loc.file}:{loc.line}:{loc.column}" if loc else None
    return {
        "message": exc.message,
        "where": where,
        "line": loc.line if loc else None,
        "column": loc.column if loc else None,
        "source_line": loc.source_line if loc else None,
        "text": str(exc),
    }


def _depth_ok(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether JSON text nests brackets at most `limit` deep (strings skipped)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def parse_json(raw: bytes) -> Any:
    """A request body's JSON (UTF-8, nested at most MAX_JSON_DEPTH deep), or BadRequest."""
    text = _decode(raw)
    if not _depth_ok(text):
        raise BadRequest(f"the request body nests more than {MAX_JSON_DEPTH} deep")
    try:
        return json.loads(text)
    except RecursionError:  # (the depth check comes first; this is a second guard)
        raise BadRequest(f"the request body nests more than {MAX_JSON_DEPTH} deep") from None
    except ValueError:
        raise BadRequest("the request body is not JSON") from None


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) past `limit` bytes without reading further."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise BadRequest(f"the request is larger than {limit:,} bytes", 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(f"the request is larger than {limit:,} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def _fields(
    request: Request, limit: int = MAX_BODY, multipart: bool = False
) -> dict[str, Any]:
    """The fields of a JSON body (`application/json`), or of a multipart form where
    `multipart` allows one (an uploaded file as its text). An empty body is no fields; any
    other kind of body is refused (415): a page of another site can send those."""
    data = await _body(request, limit)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if multipart and kind == "multipart/form-data":
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}

        form = await Request(request.scope, receive).form(max_files=1, max_fields=20)
        out: dict[str, Any] = {}
        for key, value in form.multi_items():
            if isinstance(value, str):
                out[key] = value
            else:
                raw = await value.read()
                out[key] = _decode(raw)
                out.setdefault("filename", value.filename or "")
        return out
    if not data.strip():
        return {}
    if kind != "application/json":
        allowed = "application/json" + (" or multipart/form-data" if multipart else "")
        raise BadRequest(f"the request body must be {allowed}, not {kind or 'unnamed'}", 415)
    value = parse_json(data)
    if not isinstance(value, dict):
        raise BadRequest("the request body is not a JSON object")
    return value


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text") from None


def _whole(fields: dict[str, Any], name: str, lo: int, hi: int) -> int | None:
    value = fields.get(name)
    if value is None or value == "":
        return None
    if isinstance(value, str) and re.fullmatch(r"\d{1,12}", value.strip()):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise BadRequest(f"{name}: a whole number from {lo} to {hi}")
    return value


def _text(fields: dict[str, Any], name: str, limit: int = 100) -> str | None:
    value = fields.get(name)
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise BadRequest(f"{name}: a text of at most {limit} characters")
    return value


def compile_upload(text: str, filename: str) -> Game:
    """Compile an uploaded rules file; a RulesError lists where each error is."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", filename.rsplit("/", 1)[-1].rsplit("\\", 1)[-1])
    name = (name or "uploaded.rules")[:80]
    if not name.endswith(".rules"):
        name += ".rules"
    model, errors = compile_with_errors(load_rules_text(text, name))
    if errors:
        raise UploadErrors(errors)
    assert model is not None
    return Game(model)


class UploadErrors(TrickcoreError):
    """Every error of an uploaded rules file."""

    def __init__(self, errors: list[RulesError]) -> None:
        errors = [_portable(e) for e in errors]
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = errors
        self.status = 400


def _client(request: Request) -> str:
    """Who asks: the client's address (what the per-client limits count)."""
    return request.client.host if request.client else "?"


def _same_origin(request: Request) -> None:
    """Refuse (403) a request that changes something when a browser says it comes from a
    page of another site (its Origin header names another host than the one asked)."""
    origin = request.headers.get("origin")
    if origin is None:
        return  # not sent by a browser's cross-site request (curl, scripts, same-site GET)
    host = request.headers.get("host", "")
    if origin == "null" or re.sub(r"^[a-z]+://", "", origin.lower()) != host.lower():
        raise BadRequest("a request from another site's page is refused", 403)


def create_app(
    variant: str | None = None,
    opponents: str | Sequence[str] | None = None,
    players: int | None = None,
    seed: int | None = None,
    bot_delay: float = 0.8,
    bot_threads: int = 1,
    allowed_hosts: Sequence[str] | None = None,
    sealer: Sealer | None = None,
) -> Starlette:
    """The web app. `variant` is preselected on the start page (the first shipped variant by
    name when none is given); `opponents` the computer players a client may choose, the
    first the default (specs such as "greedy" or "pimc:iterations=200"; their options are
    ceilings; default: every bot at its default settings); `seed`, the operator's, deals
    every table's first match (tests and demonstrations; later matches, and every match
    without it, come from the secret source); `bot_delay` the seconds a computer player
    waits before it moves (0: at once); `bot_threads` the threads that move computer players
    (0: they move within the requests, all at once: for tests); `allowed_hosts` the names
    this server answers to (None: any); `sealer` seals running matches for their seats'
    downloads (a key of its own when None)."""
    menu = OpponentMenu.parse(opponents)
    runner = BotRunner(bot_threads) if bot_threads > 0 else None
    tables = Tables(bot_delay=bot_delay, menu=menu, seed=seed, runner=runner, sealer=sealer)
    names = list_variants()
    default_variant = variant if variant is not None else names[0]
    extra: dict[str, Game] = {}
    if variant is not None and variant not in names:
        game = load_variant(variant)  # a rules file given to `trickcore serve`
        default_variant = game.name
        extra[game.name] = game

    def game_of(name: str) -> Game:
        if name in extra:
            return extra[name]
        if name in names:
            return _shipped(name)
        raise BadRequest(f"no shipped variant '{name}' (trickcore list shows them)", 404)

    def seat_token(request: Request) -> str | None:
        return request.headers.get(SEAT_HEADER) or None

    async def page(request: Request) -> Response:
        return Response(_static("index.html"), media_type=STATIC["index.html"], headers=HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found", status_code=404)
        return Response(_static(name), media_type=STATIC[name], headers=HEADERS)

    async def config(request: Request) -> Response:
        games = {**{n: _shipped(n) for n in names}, **extra}
        listed = [
            {"name": n, "title": g.title, "players": list(g.model.players)}
            for n, g in games.items()
        ]
        return _json(
            {
                "variants": listed,
                "variant": default_variant,
                "opponents": menu.default,
                "opponent_names": menu.specs,
                "players": players,
                "max_upload": MAX_RULES_BYTES,
            }
        )

    async def rules_of_variant(request: Request) -> Response:
        try:
            return _json(variant_rules(game_of(request.path_params["name"])))
        except TrickcoreError as exc:
            return _error(exc)

    async def create_table(request: Request) -> Response:
        try:
            _same_origin(request)
            fields = await _fields(request, MAX_RULES_BYTES + 16_000, multipart=True)
            if "seed" in fields:
                raise BadRequest(NO_SEED)
            rules_text = fields.get("rules")
            if rules_text:
                if not isinstance(rules_text, str) or len(rules_text.encode()) > MAX_RULES_BYTES:
                    raise BadRequest(f"a rules file of at most {MAX_RULES_BYTES:,} bytes", 413)
                filename = _text(fields, "filename", 200) or "uploaded.rules"
                game = await run_in_threadpool(compile_upload, rules_text, filename)
            else:
                game = game_of(_text(fields, "variant") or default_variant)
            count = _whole(fields, "players", 1, 8)
            if count is None and players in game.model.players:
                count = players
            if count is not None and count not in game.model.players:
                allowed = ", ".join(map(str, game.model.players))
                raise BadRequest(f"{game.title} is played by {allowed} players, not {count}")
            people = _whole(fields, "people", 1, 8) or 1
            spec = _text(fields, "opponents", 200)
            table = await run_in_threadpool(
                tables.create, game, count, people, spec, _client(request)
            )
            seat, token = table.take_seat(0)
            await run_in_threadpool(table.advance)
        except (UploadErrors, RulesError) as exc:
            errors = exc.errors if isinstance(exc, UploadErrors) else [exc]
            word = "error" if len(errors) == 1 else "errors"
            return _json(
                {
                    "error": f"the rules file has {len(errors)} {word}",
                    "errors": [_rules_error(e) for e in errors],
                },
                400,
            )
        except TrickcoreError as exc:
            return _error(exc)
        return _json({"table": table.id, "seat": seat, "token": token, "url": f"/t/{table.id}"})

    async def resume_table(request: Request) -> Response:
        """A table again from a seat's download of its running match (the whole file as
        the JSON body); the uploader takes the seat the download was made for."""
        try:
            _same_origin(request)
            data = await _body(request, MAX_RESUME_BYTES)
            kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                raise BadRequest("a downloaded match is sent as application/json", 415)
            table, seat = await run_in_threadpool(tables.resume, parse_json(data), _client(request))
            seat, token = table.take_seat(seat)
            await run_in_threadpool(table.advance)
        except TrickcoreError as exc:
            return _error(exc)
        return _json({"table": table.id, "seat": seat, "token": token, "url": f"/t/{table.id}"})

    def table_of(request: Request) -> Table:
        return tables.get(request.path_params["table"])

    async def state(request: Request) -> Response:
        try:
            table = table_of(request)
            return _json(await run_in_threadpool(table.view, seat_token(request)))
        except TrickcoreError as exc:
            return _error(exc)

    async def take_seat(request: Request) -> Response:
        try:
            _same_origin(request)
            table = table_of(request)
            fields = await _fields(request)
            seat, token = table.take_seat(_whole(fields, "seat", 0, 7))
            return _json({"table": table.id, "seat": seat, "token": token})
        except TrickcoreError as exc:
            return _error(exc)

    async def move(request: Request) -> Response:
        try:
            _same_origin(request)
            table = table_of(request)
            fields = await _fields(request)
            action = fields.get("action")
            if not isinstance(action, (str, int)) or isinstance(action, bool):
                raise BadRequest("action: the text or the number of a legal action")
            token = seat_token(request)
            await run_in_threadpool(table.move, token, action)
            return _json(await run_in_threadpool(table.view, token))
        except TrickcoreError as exc:
            return _error(exc)

    async def fill(request: Request) -> Response:
        try:
            _same_origin(request)
            table = table_of(request)
            await _fields(request)
            if table.seat_of(seat_token(request)) is None:
                raise TableError("only a player at the table may do that", 403)
            await run_in_threadpool(table.fill_with_bots)
            return _json(await run_in_threadpool(table.view, seat_token(request)))
        except TrickcoreError as exc:
            return _error(exc)

    async def next_match(request: Request) -> Response:
        try:
            _same_origin(request)
            table = table_of(request)
            await _fields(request)
            await run_in_threadpool(table.new_match, seat_token(request))
            return _json(await run_in_threadpool(table.view, seat_token(request)))
        except TrickcoreError as exc:
            return _error(exc)

    async def table_rules(request: Request) -> Response:
        try:
            return _json(table_of(request).rules())
        except TrickcoreError as exc:
            return _error(exc)

    async def saved(request: Request) -> Response:
        try:
            table_id = request.path_params["table"]
            data = await run_in_threadpool(tables.saved, table_id, seat_token(request))
            return _json(
                data, headers={"Content-Disposition": f'attachment; filename="{table_id}.json"'}
            )
        except TrickcoreError as exc:
            return _error(exc)

    routes = [
        Route("/", page),
        Route("/t/{table}", page),
        Route("/static/{name}", static),
        Route("/api/config", config),
        Route("/api/variants/{name}/rules", rules_of_variant),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/resume", resume_table, methods=["POST"]),
        Route("/api/tables/{table}", state),
        Route("/api/tables/{table}/seat", take_seat, methods=["POST"]),
        Route("/api/tables/{table}/move", move, methods=["POST"]),
        Route("/api/tables/{table}/bots", fill, methods=["POST"]),
        Route("/api/tables/{table}/next", next_match, methods=["POST"]),
        Route("/api/tables/{table}/rules", table_rules),
        Route("/api/tables/{table}/saved", saved),
    ]
    middleware = []
    if allowed_hosts is not None:  # DNS rebinding: a page served under a foreign name
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)))
    app = Starlette(routes=routes, middleware=middleware)
    app.state.tables = tables
    app.state.runner = runner
    return app
