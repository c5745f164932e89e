"""Saving a match to JSON and loading it back by replaying its actions.

A saved match (format version 2) holds the variant's name and content hash, the seed or deck
orders, the starting scoreboard, the actions in canonical text, the source texts of every
rules file the variant was built from (so it reloads anywhere, without the files), the number
of actions, why the match stopped (if the rules stopped it) and a checksum. Saved files are
untrusted: loading checks every field strictly and every failure is a `SavedGameError` in plain
words naming the field.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..language.errors import SavedGameError
from ..language.loader import (
    MAX_RULES_CHARS,
    MAX_SOURCES,
    UnreadableFile,
    is_regular_file,
    read_text_limited,
)
from ..language.parser import MAX_FILE_CHARS
from .actions import MAX_ACTION_TEXT

if TYPE_CHECKING:
    from .tables import GameTables

FORMAT = "trickcore-match"
VERSION = 2
READABLE_VERSIONS = (2, 1)
MAX_DIGITS = 12
_MAX_NUMBER = 10**MAX_DIGITS
# A match ends at the latest when what a saved file holds of it reaches MAX_SAVED_CHARS
# characters: each action its text and ACTION_CHARGE (more than the quotes, comma and line it
# takes in the file, and MAX_SAVED_CHARS / MAX_ACTIONS: so at most MAX_ACTIONS actions),
# each deck order its card texts with CARD_OVERHEAD each. So every match the engine plays fits
# in a saved match (MAX_SAVE_BYTES).
MAX_ACTIONS = 1_000_000
ACTION_OVERHEAD = 8  # the characters around an action's text in the file
ACTION_CHARGE = 32
CARD_OVERHEAD = 3
MAX_SAVED_CHARS = MAX_ACTIONS * ACTION_CHARGE
MAX_DECK_ORDERS = 100_000  # as many as a match may have deals (MAX_DEALS)
MAX_DECK_CARDS = 128
MAX_CARD_TEXT = 16
MAX_SEATS = 64
MAX_STOPPED_CHARS = 4000
# the largest file a saved match may be: its actions and deck orders (MAX_SAVED_CHARS, all
# ASCII), every rules text (at most MAX_RULES_CHARS characters, each at most 6 bytes in JSON)
# and 1 MB for the rest
MAX_SAVE_BYTES = MAX_SAVED_CHARS + 6 * MAX_RULES_CHARS + 2**20


def checksum(data: dict[str, Any]) -> str:
    """The sha256 of the canonical JSON of every field of a saved match but `checksum`."""
    rest = {k: v for k, v in data.items() if k != "checksum"}
    text = json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rules_sources(game: GameTables) -> list[tuple[str, str]]:
    """The `(portable file name, text)` of every rules file of the variant, in merge order."""
    model = game.model
    return list(zip(model.source_files, model.source_texts, strict=True))


def saved_match_data(
    game: GameTables,
    *,
    players: int,
    seed: int | None,
    actions: Sequence[str],
    deck_orders: list[list[str]] | None = None,
    start: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
    stopped: str | None = None,
    secret: bool = False,
) -> dict[str, Any]:
    """A complete saved match (version 2) for a variant, a start and the actions taken.

    `stopped` is why the match stopped on its last action (`Match.stopped`), if so; `secret`
    that it was dealt from the secret source (`deck_orders` then holds every deal's order).
    """
    if seed is not None and not 0 <= seed < _MAX_NUMBER:
        raise SavedGameError(f"cannot save the match: its seed has more than {MAX_DIGITS} digits")
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.name,
        "variant_hash": game.content_hash,
        "players": players,
        "seed": seed,
        "deck_orders": deck_orders,
        "start": start if start is not None else {"scores": None, "kept": None, "dealer": 0},
        "actions": list(actions),
        "action_count": len(actions),
        "rules": [{"file": f, "text": t} for f, t in rules_sources(game)],
        "stopped": stopped,
    }
    if secret:  # dealt from the secret source: a loaded match deals on from it
        data["secret"] = True
    data.update(extra or {})
    data["checksum"] = checksum(data)
    return data


def _shown(path: str | Path) -> str:
    """A path for a message: a NUL byte shown as `\\0`."""
    return str(path).replace("\x00", "\\0")


def _no_nul(target: Path) -> None:
    if "\x00" in str(target):
        raise SavedGameError(
            f"cannot save to {_shown(target)}: a file name cannot hold a NUL character"
        )


def check_save_path(path: str | Path) -> Path:
    """Check before play that a match can be saved at `path`; raise SavedGameError if not."""
    target = Path(path)
    folder = target.parent
    shown = _shown(target)
    _no_nul(target)
    try:
        if not folder.is_dir():
            raise SavedGameError(f"cannot save to {shown}: the folder {folder} does not exist")
        if target.is_dir():
            raise SavedGameError(f"cannot save to {shown}: it is a folder")
        if target.exists() and not is_regular_file(target):
            raise SavedGameError(f"cannot save to {shown}: it is not a regular file")
        writable = os.access(folder, os.W_OK | os.X_OK)
    except (OSError, ValueError) as exc:
        reason = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
        raise SavedGameError(f"cannot save to {shown}: {reason}") from None
    if not writable:
        raise SavedGameError(f"cannot save to {shown}: the folder {folder} is not writable")
    return target


def _file_mode(target: Path) -> int:
    """The permissions a saved file gets: those it had, else what the umask gives."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def saved_chars(actions: Sequence[str], orders: Sequence[Sequence[str]]) -> int:
    """What actions and deck orders count against MAX_SAVED_CHARS."""
    return sum(len(t) + ACTION_OVERHEAD for t in actions) + sum(
        sum(len(c) + CARD_OVERHEAD for c in order) + ACTION_OVERHEAD for order in orders
    )


def saved_text(data: dict[str, Any]) -> str:
    """A saved match as the file holds it: JSON, a field per line, each action and each deck
    order on a line of its own (what `MAX_SAVE_BYTES` allows for)."""

    def dumped(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    lines = []
    for key, value in data.items():
        if key in ("actions", "deck_orders") and isinstance(value, list) and value:
            body = ",\n  ".join(dumped(x) for x in value)
            lines.append(f"{dumped(key)}:[\n  {body}\n]")
        else:
            lines.append(f"{dumped(key)}:{dumped(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def save_json(data: dict[str, Any], path: str | Path) -> None:
    """Write saved-match data to a file atomically (a temporary file, then a rename)."""
    target = Path(path)
    _no_nul(target)
    text = saved_text(data)
    tmp_name = ""
    import tempfile  # here: loading a variant or a match needs none of it

    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.chmod(tmp_name, _file_mode(target))
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except (OSError, ValueError) as exc:
        if tmp_name:
            Path(tmp_name).unlink(missing_ok=True)
        reason = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
        raise SavedGameError(f"cannot save the match to {_shown(target)}: {reason}") from None


# ------------------------------------------------------------------ validation
def saved_error(message: str) -> SavedGameError:
    return SavedGameError(f"saved match: {message}")


def _is_int(value: Any) -> bool:
    return type(value) is int


def _int_field(value: Any, field: str, lo: int, hi: int) -> int:
    if not _is_int(value):
        raise saved_error(f"'{field}' must be a whole number, not {_describe(value)}")
    if not lo <= value <= hi:
        shown = value if abs(value) < _MAX_NUMBER else f"a number of more than {MAX_DIGITS} digits"
        raise saved_error(f"'{field}' must be between {lo} and {hi}, not {shown}")
    return int(value)


def _text_field(value: Any, field: str, most: int) -> str:
    if not isinstance(value, str):
        raise saved_error(f"'{field}' must be a text, not {_describe(value)}")
    if len(value) > most:
        raise saved_error(f"'{field}' is longer than {most:,} characters")
    return value


def _list_field(value: Any, field: str, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise saved_error(f"'{field}' must be a list, not {_describe(value)}")
    if len(value) > most:
        raise saved_error(f"'{field}' holds more than {most:,} entries")
    return value


def _describe(value: Any) -> str:
    names = {bool: "yes/no", int: "a whole number", float: "a fraction", str: "a text"}
    if value is None:
        return "missing"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return names.get(type(value), "something else")


def validate_saved(data: Any) -> None:
    """Check every field's type and size; raise SavedGameError naming the first bad one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SavedGameError(f"not a trickcore saved match (no 'format': '{FORMAT}')")
    version = data.get("version")
    if not _is_int(version) or version not in READABLE_VERSIONS:
        shown = repr(version) if isinstance(version, (int, float)) else _describe(version)
        shown = shown if len(shown) <= 20 else "a very long number"
        raise SavedGameError(
            f"saved match has format version {shown}; this trickcore reads version "
            f"{VERSION} (and {READABLE_VERSIONS[-1]}), written as a whole number"
        )
    _text_field(data.get("variant"), "variant", 200)
    _text_field(data.get("variant_hash"), "variant_hash", 64)
    if data.get("players") is not None:
        _int_field(data["players"], "players", 1, MAX_SEATS)
    if data.get("seed") is not None:
        _int_field(data["seed"], "seed", 0, _MAX_NUMBER - 1)
    if data.get("deck_orders") is not None:
        orders = _list_field(data["deck_orders"], "deck_orders", MAX_DECK_ORDERS)
        for i, order in enumerate(orders):
            cards = _list_field(order, f"deck_orders[{i}]", MAX_DECK_CARDS)
            if set(map(type, cards)) - {str} or max(map(len, cards), default=0) > MAX_CARD_TEXT:
                for card in cards:  # the first that is not: its error
                    _text_field(card, f"deck_orders[{i}] card", MAX_CARD_TEXT)
    if data.get("secret") not in (None, True, False):
        raise saved_error(f"'secret' must be yes or no, not {_describe(data['secret'])}")
    if data.get("secret") and data.get("seed") is not None:
        raise saved_error("a match dealt from the secret source has no 'seed'")
    if data.get("sealed") is not None:
        raise SavedGameError(
            "saved match: its current deal is sealed by the table that dealt it (trickcore "
            "serve): it can be resumed there, on that table's start page, not loaded here"
        )
    start = data.get("start")
    if start is not None:
        if not isinstance(start, dict):
            raise saved_error(f"'start' must be an object, not {_describe(start)}")
        if start.get("scores") is not None:
            for x in _list_field(start["scores"], "start.scores", MAX_SEATS):
                _int_field(x, "start.scores entry", -_MAX_NUMBER + 1, _MAX_NUMBER - 1)
        if start.get("kept") is not None:
            for seat in _list_field(start["kept"], "start.kept", MAX_SEATS):
                if not isinstance(seat, dict) or len(seat) > 64:
                    raise saved_error("'start.kept' must list one object of kept values per seat")
                for value in seat.values():
                    if not isinstance(value, bool):
                        _int_field(value, "start.kept value", -_MAX_NUMBER + 1, _MAX_NUMBER - 1)
        if start.get("dealer") is not None:
            _int_field(start["dealer"], "start.dealer", 0, MAX_SEATS - 1)
    actions = _list_field(data.get("actions"), "actions", MAX_ACTIONS)
    for i, text in enumerate(actions):
        if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
            raise saved_error(
                f"action {i + 1} must be a text of at most {MAX_ACTION_TEXT} characters"
            )
    if version == 1:
        return
    if data.get("stopped") is not None:
        _text_field(data["stopped"], "stopped", MAX_STOPPED_CHARS)
    rules = _list_field(data.get("rules"), "rules", MAX_SOURCES)
    if not rules:
        raise saved_error("'rules' must hold the texts of the variant's rules files")
    for i, entry in enumerate(rules):
        if not isinstance(entry, dict):
            raise saved_error(f"'rules' entry {i + 1} must be an object with 'file' and 'text'")
        _text_field(entry.get("file"), f"rules[{i}].file", 1000)
        _text_field(entry.get("text"), f"rules[{i}].text", MAX_FILE_CHARS)
    count = _int_field(data.get("action_count"), "action_count", 0, MAX_ACTIONS)
    if count != len(actions):
        raise saved_error(
            f"it holds {len(actions)} actions but says it has {count}: it was cut short or edited"
        )
    try:
        expected = checksum(data)
    except (TypeError, ValueError):
        raise saved_error("it holds values that are not plain JSON") from None
    if data.get("checksum") != expected:
        raise saved_error(
            "its checksum does not match its contents: the file was changed or damaged"
        )


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number with more than {MAX_DIGITS} digits")
    return int(text)


def read_saved_json(path: str | Path) -> Any:
    """The JSON data of a saved-match file, read with limits; raise SavedGameError if bad."""
    try:
        text = read_text_limited(Path(path), MAX_SAVE_BYTES)
    except UnreadableFile as exc:
        reason = str(exc)
        if reason == "too large":
            reason = f"larger than {MAX_SAVE_BYTES // 2**20:,} MB"
        raise SavedGameError(f"{_shown(path)}: cannot read saved match ({reason})") from None
    try:
        return json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise SavedGameError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno})"
        ) from None
    except ValueError as exc:
        raise SavedGameError(f"{path}: not a saved match ({exc})") from None
    except RecursionError:
        raise SavedGameError(f"{path}: not a saved match (nested too deeply)") from None
