"""Loading a saved match: the variant it names (or the rules it carries) and a replay of its
actions (the format is in `saving`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from ..language.compiler import compile_rules
from ..language.errors import RulesError, SavedGameError, TrickcoreError
from ..language.loader import (
    is_path_reference,
    is_regular_file,
    load_rules,
    load_rules_embedded,
    sources_hash,
)
from ..language.resources import shipped_variants
from .game import Game
from .match import Match
from .saving import read_saved_json, saved_error, validate_saved


def _allowed_v1_path(path: Any, search_path: Sequence[str | Path]) -> Path | None:
    """A version-1 save's `variant_path` if it names a regular .rules file inside the current
    working folder or a folder of `search_path` (after following links), else None."""
    if not isinstance(path, str) or not path.endswith(".rules") or "\x00" in path:
        return None
    try:
        real = Path(path).resolve()
        roots = [Path.cwd().resolve(), *(Path(p).resolve() for p in search_path)]
    except (OSError, RuntimeError, ValueError):
        return None
    if not any(real == root or root in real.parents for root in roots):
        return None
    return real if is_regular_file(real) else None


SAVED_SUFFIX = "-as-saved"


def _game_of(data: dict[str, Any], search_path: Sequence[str | Path] = ()) -> Game:
    """The variant a validated saved match was played under: judged by the rules texts it
    carries (version 2), which must give its `variant_hash`. Texts equal to the shipped
    variant of its name are that variant; other texts under a shipped name are a variant of
    their own (`NAME-as-saved`, its title saying that its rules are the saved ones)."""
    name = data["variant"]
    shipped = name in shipped_variants()
    if data["version"] >= 2:
        sources = [(e["file"], e["text"]) for e in data["rules"]]
        if sources_hash(t for _, t in sources) != data["variant_hash"]:
            raise saved_error("the rules saved with it do not match its 'variant_hash'")
        if shipped:
            try:
                game: Game | None = Game(compile_rules(load_rules(name)))
            except TrickcoreError:
                game = None
            if game is not None and game.content_hash == data["variant_hash"]:
                return game  # the texts it carries are the shipped file's
        try:
            game = Game(compile_rules(load_rules_embedded(sources, name)))
        except RulesError as exc:
            first = str(exc).splitlines()[0]
            raise saved_error(f"the rules saved with it do not compile: {first}") from None
        if shipped:  # edited rules under a shipped name: never shown as the shipped variant
            model = attrs.evolve(
                game.model,
                name=name + SAVED_SUFFIX,
                title=f"{game.title} (the rules saved with the match, not the shipped file)",
            )
            game = Game(model)
        return game
    path = _allowed_v1_path(data.get("variant_path"), search_path)
    if path is not None:
        try:
            return Game(compile_rules(load_rules(path, search_path)))
        except TrickcoreError:
            pass  # never echo a file named by an untrusted save; the name is tried next
    if shipped:
        game = Game(compile_rules(load_rules(name)))
        if game.content_hash == data["variant_hash"]:
            return game
        raise SavedGameError(
            f"saved match was played under a different version of variant '{name}' "
            f"(saved hash {data['variant_hash']}); its replay would differ"
        )
    what = "a path" if is_path_reference(name) else "not a shipped variant"
    raise SavedGameError(
        f"saved match names variant '{name}', {what}, and no readable rules file "
        "(older saves do not hold the rules texts)"
    )


def match_from_json(
    data: Any, game: Game | None = None, search_path: Sequence[str | Path] = ()
) -> Match:
    """Rebuild a match from saved data by replaying it; raise SavedGameError if it is bad.

    A match the rules stopped (`Match.stopped`) reloads stopped, with the same reason. An old
    (version 1) save without rules texts may name its rules file by `variant_path`; that file
    is read only inside the current working folder or a folder of `search_path`.
    """
    try:
        validate_saved(data)
    except RecursionError:
        raise SavedGameError("saved match: nested too deeply") from None
    if game is None:
        game = _game_of(data, search_path)
    if game.content_hash != data["variant_hash"]:
        raise SavedGameError(
            f"saved match was played under a different version of variant '{data['variant']}' "
            f"(saved hash {data['variant_hash']}); its replay would differ"
        )
    start = data.get("start") or {}
    try:
        match = game.new_match(
            seed=data.get("seed"),
            deck_orders=data.get("deck_orders"),
            players=data.get("players"),
            scores=start.get("scores"),
            kept=start.get("kept"),
            dealer=start.get("dealer") or 0,
            secret=bool(data.get("secret")),
        )
    except TrickcoreError as exc:
        raise saved_error(f"cannot be set up: {str(exc).splitlines()[0]}") from None
    except (TypeError, ValueError, AttributeError, KeyError, IndexError):
        raise saved_error(
            "cannot be set up: its players, deck orders, scores, kept values or dealer "
            f"do not fit variant '{game.name}'"
        ) from None
    actions = data["actions"]
    stopped = data.get("stopped") if data["version"] >= 2 else None
    for i, text in enumerate(actions):
        try:
            match.apply(text)
        except RulesError as exc:
            last = i == len(actions) - 1
            if last and stopped is not None and match.stopped == stopped:
                return match  # the rules stopped the match here, as when it was saved
            first = str(exc).splitlines()[0]
            raise saved_error(f"action {i + 1} ('{text}') cannot be replayed: {first}") from None
        except TrickcoreError as exc:
            first = str(exc).splitlines()[0]
            raise saved_error(f"action {i + 1} ('{text}') cannot be replayed: {first}") from None
    if stopped != match.stopped:
        if stopped is None:
            raise saved_error("its replay stops the match, but it does not say so")
        raise saved_error("it says the rules stopped the match, but its replay does not stop")
    return match


def load_match(
    path: str | Path, game: Game | None = None, search_path: Sequence[str | Path] = ()
) -> Match:
    """Load a match saved with save_match (see match_from_json)."""
    return match_from_json(read_saved_json(path), game, search_path)
