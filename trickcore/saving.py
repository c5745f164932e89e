"""Saving a match to JSON and loading it back by replaying its actions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import SavedGameError, TrickcoreError

if TYPE_CHECKING:
    from .game import Game
    from .match import Match

FORMAT = "trickcore-match"
VERSION = 1


def match_to_json(match: Match) -> dict[str, Any]:
    """The match as JSON-ready data."""
    game = match.game
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": game.name,
        "variant_hash": game.content_hash,
        "players": match.seats,
        "seed": match.seed,
        "deck_orders": [[game.card_text(c) for c in o] for o in match.deck_orders] or None,
        "start": match.start,
        "actions": [text for _, _, text in match.history],
    }


def save_match(match: Match, path: str | Path) -> None:
    """Write the match to a JSON file (atomically: a temporary file, then a rename)."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(match_to_json(match), indent=1), encoding="utf-8")
    tmp.replace(target)


def match_from_json(data: Any, game: Game | None = None) -> Match:
    """Rebuild a match from saved data by replaying it; raise SavedGameError if it is bad."""
    from . import load_variant

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SavedGameError("not a trickcore saved match (no 'format': 'trickcore-match')")
    if data.get("version") != VERSION:
        raise SavedGameError(
            f"saved match has format version {data.get('version')!r}; "
            f"this trickcore reads version {VERSION}"
        )
    for key, typ in (("variant", str), ("variant_hash", str), ("actions", list)):
        if not isinstance(data.get(key), typ):
            raise SavedGameError(f"saved match: '{key}' is missing or of the wrong type")
    if game is None:
        path = data.get("variant_path")
        ref = path if isinstance(path, str) and Path(path).is_file() else data["variant"]
        try:
            game = load_variant(ref)
        except TrickcoreError as exc:
            raise SavedGameError(f"saved match names variant '{data['variant']}': {exc}") from None
    if game.content_hash != data["variant_hash"]:
        raise SavedGameError(
            f"saved match was played under a different version of variant '{data['variant']}' "
            f"(hash {data['variant_hash']}, this one is {game.content_hash}); "
            "its replay would differ"
        )
    seed = data.get("seed")
    orders = data.get("deck_orders")
    players = data.get("players")
    if seed is not None and not isinstance(seed, int):
        raise SavedGameError("saved match: 'seed' must be a whole number")
    if players is not None and not isinstance(players, int):
        raise SavedGameError("saved match: 'players' must be a whole number")
    start = data.get("start") or {}
    if not isinstance(start, dict):
        raise SavedGameError("saved match: 'start' must be an object")
    try:
        match = game.new_match(
            seed=seed,
            deck_orders=orders,
            players=players,
            scores=start.get("scores"),
            kept=start.get("kept"),
            dealer=start.get("dealer") or 0,
        )
    except (TrickcoreError, TypeError, ValueError, AttributeError) as exc:
        raise SavedGameError(f"saved match cannot be set up: {exc}") from None
    for i, text in enumerate(data["actions"]):
        if not isinstance(text, str):
            raise SavedGameError(f"saved match: action {i + 1} is not a text")
        try:
            match.apply(text)
        except TrickcoreError as exc:
            first = str(exc).splitlines()[0]
            raise SavedGameError(
                f"saved match: action {i + 1} ('{text}') cannot be replayed: {first}"
            ) from None
    return match


def load_match(path: str | Path, game: Game | None = None) -> Match:
    """Load a match saved with save_match."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SavedGameError(f"{path}: cannot read saved match ({exc})") from None
    except json.JSONDecodeError as exc:
        raise SavedGameError(
            f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno})"
        ) from None
    return match_from_json(data, game)
