"""What a forked child does with one case: run it and describe the outcome as a dict."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import traceback
from pathlib import Path
from typing import Any

import trickcore
from trickcore.checking.invariants import Checker
from trickcore.engine.game import variant_of
from trickcore.interfaces import cli

from .cases import Case

ACTION_BUDGET = 3000  # actions of random play for an accepted rules file or a loaded save
MATCHES = 2


class Finding(Exception):
    """A wrong behaviour that raises nothing: counted as a non-library exception."""


class Inconsistent(Exception):
    """Accepted rules on which verify finds the engine and its reference checker disagree:
    a file that compiles must play consistently for every player count it allows."""

    def __init__(self, invariant: str, message: str) -> None:
        super().__init__(message)
        self.invariant = invariant


def run_case(case: Case, workdir: Path) -> dict[str, Any]:
    """Run one case in `workdir`; the outcome's class, stage, and what was raised."""
    stage = ["setup"]
    try:
        detail = _dispatch(case, workdir, stage)
        return {"class": "ok", "stage": stage[0], "detail": detail}
    except Inconsistent as exc:
        return {
            "class": "inconsistent",
            "stage": stage[0],
            "type": exc.invariant,
            "message": str(exc)[:500],
            "where": "verify",
        }
    except trickcore.TrickcoreError as exc:
        message = str(exc)
        if not message.strip():
            return _exception("nonlibrary", stage[0], exc, note="library error without a message")
        return {
            "class": "library",
            "stage": stage[0],
            "type": type(exc).__name__,
            "message": message[:300],
        }
    except MemoryError as exc:
        return _exception("oom", stage[0], exc)
    except Exception as exc:  # noqa: BLE001 - every other exception is a finding
        return _exception("nonlibrary", stage[0], exc)


def _exception(cls: str, stage: str, exc: BaseException, note: str = "") -> dict[str, Any]:
    frames = traceback.extract_tb(exc.__traceback__)
    tail = traceback.format_list(frames[-6:])
    where = next(
        (
            f"{Path(f.filename).name}:{f.lineno} in {f.name}"
            for f in reversed(frames)
            if "trickcore" in f.filename
        ),
        f"{Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name}"
        if frames
        else "?",
    )
    message = note or str(exc)
    return {
        "class": cls,
        "stage": stage,
        "type": type(exc).__name__,
        "message": message[:500],
        "where": where,
        "traceback": "".join(tail)[-3000:],
    }


def _dispatch(case: Case, workdir: Path, stage: list[str]) -> str:
    if case.kind == "selftest":
        return _selftest(case.data["do"])
    if case.kind in ("mutant", "grammar"):
        return run_rules(case.data["rules"], workdir, stage)
    if case.kind == "save":
        return run_save(case.data, workdir, stage)
    return run_api(case.data, stage)


# ---------------------------------------------------------------- playing
def play(match: trickcore.Match, rng: random.Random, budget: int) -> int:
    """Random legal play for at most `budget` actions, with views and text round trips."""
    steps = 0
    while not match.is_over and steps < budget:
        legal = match.legal_actions()
        if not legal:
            raise Finding(f"seat {match.to_act} to act has no legal action and no StuckError")
        action = rng.choice(legal)
        if steps % 29 == 0:
            for seat in range(match.seats):
                match.observation(seat).to_dict()
                match.standing(seat)
            match.deal.to_dict()
        if rng.random() < 0.5:
            try:
                match.apply(action.text)
            except trickcore.IllegalActionError as exc:
                raise Finding(
                    f"the text of legal action '{action.text}' is refused: {exc}"
                ) from None
        else:
            match.apply(action)
        steps += 1
    return steps


def _replay_check(game: trickcore.Variant, match: trickcore.Match) -> None:
    data = json.loads(json.dumps(match.to_json()))
    again = trickcore.match_from_json(data, game)
    if again.history != match.history or again.scores != match.scores:
        raise Finding("a saved match replays differently")


def _cli(args: list[str]) -> int:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(args)
    return code


def run_rules(rules: bytes, workdir: Path, stage: list[str]) -> str:
    """Compile a rules file; if accepted, play it, check invariants, replay, show and check."""
    path = workdir / "case.rules"
    path.write_bytes(rules)
    stage[0] = "compile"
    game = trickcore.load_variant(path)
    stage[0] = "play"
    rng = random.Random(len(rules))
    budget = ACTION_BUDGET
    matches = 0
    for players in game.model.players[:MATCHES]:
        match = game.new_match(seed=rng.randrange(1000), players=players)
        budget -= play(match, rng, budget // 2 if matches == 0 else budget)
        matches += 1
        stage[0] = "replay"
        _replay_check(game, match)
        stage[0] = "play"
    stage[0] = "verify"
    checker = Checker(game, max_actions=200)
    for players in game.model.players:  # every player count the file allows
        violation = checker.run(1, players, [])
        if violation is None:
            continue
        if violation.invariant == "error":  # the engine raised a library error, as in play
            raise trickcore.TrickcoreError(violation.message)
        raise Inconsistent(
            violation.invariant,
            f"trickcore verify finds, with {players} players: {violation.invariant}: "
            f"{violation.message}",
        )
    stage[0] = "cli"
    for command in ("check", "show"):
        code = _cli([command, str(path)])
        if code != 0:
            raise Finding(f"trickcore {command} exits {code} on a file that compiles")
    return f"played {ACTION_BUDGET - budget} actions in {matches} matches"


def run_save(data: dict[str, Any], workdir: Path, stage: list[str]) -> str:
    """Load a corrupted save; if accepted, play on, save again, and replay it on the CLI."""
    for name, blob in data["extra"].items():
        (workdir / name).write_bytes(blob)
    path = data["path"] or str(workdir / "save.json")
    if data["path"] is None:
        Path(path).write_bytes(data["save"])
    stage[0] = "load"
    match = trickcore.load_match(path)
    stage[0] = "replay"
    _cli(["replay", path])
    stage[0] = "play"
    steps = play(match, random.Random(1), 300)
    stage[0] = "resave"
    out = workdir / "again.json"
    trickcore.save_match(match, out)
    again = trickcore.load_match(out)
    if again.history != match.history:
        raise Finding("a loaded and saved match replays differently")
    return f"loaded {len(match.history) - steps} actions, played {steps}"


# ---------------------------------------------------------------- api
def _deck(game: trickcore.Variant, kind: str) -> Any:
    cards = list(game.card_texts)
    return {
        "deck:dup": [cards[0]] * len(cards),
        "deck:ints": list(range(len(cards))),
        "deck:neg": [-1] * len(cards),
        "deck:short": cards[:-1],
        "deck:none": [None] * len(cards),
        "deck:nested": [[c] for c in cards],
        "deck:big": cards + cards,
    }[kind]


def materialize(game: trickcore.Variant, value: Any) -> Any:
    """Turn the case's descriptions of values (decks, card names, actions) into values."""
    if isinstance(value, str) and value.startswith("deck:"):
        return _deck(game, value)
    if isinstance(value, str) and value.startswith("card:"):
        return game.card_texts[int(value[5:]) % len(game.card_texts)]
    if value == "all":
        return list(game.card_texts)
    if isinstance(value, list):
        return [materialize(game, v) for v in value]
    if isinstance(value, dict):
        return {k: materialize(game, v) for k, v in value.items()}
    if isinstance(value, tuple) and value and value[0] == "object":
        return object()
    if isinstance(value, tuple) and value and value[0] == "action":
        kind, text, card, val, to, qual, cards = value[1:]
        return trickcore.Action(
            kind, text, card=card, value=val, to=to, qualifier=qual, cards=cards
        )
    return value


def _action_arg(match: trickcore.Match, arg: Any, rng: random.Random) -> Any:
    if isinstance(arg, tuple) and arg and arg[0] == "text":
        return arg[1]
    if isinstance(arg, tuple) and arg and arg[0] == "mangle":
        how, pick = arg[1], arg[2]
        legal = match.legal_actions()
        text = legal[pick % len(legal)].text if legal else "pass"
        return {
            "upper": text.upper(),
            "spaces": "  " + text.replace(" ", "   ") + " ",
            "unicode": text.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")),
            "junk": text + " junk",
            "chop": text[:-1],
            "double": text + " " + text,
            "tab": text.replace(" ", "\t"),
            "zero": text + "0",
        }[how]
    if isinstance(arg, tuple) and arg and arg[0] == "other":
        _, variant, players, seed, prefix, pick = arg
        other = trickcore.load_variant(variant).new_match(seed=seed, players=players)
        play(other, random.Random(seed), prefix)
        legal = other.legal_actions()
        return legal[pick % len(legal)] if legal else trickcore.Action("pass", "pass")
    return materialize(variant_of(match), arg)


def _snapshot(match: trickcore.Match) -> tuple[Any, ...]:
    legal = [a.text for a in match.legal_actions()] if not match.is_over else []
    return (
        len(match.history),
        match.to_act,
        legal,
        list(match.scores),
        match.is_over,
        match.observation(match.to_act).to_dict() if not match.is_over else None,
    )


def run_api(data: dict[str, Any], stage: list[str]) -> str:
    """Apply the case's call to a mid-play match; refused calls must leave it unchanged."""
    game = trickcore.load_variant(data["variant"])
    match = game.new_match(seed=data["seed"], players=data["players"])
    rng = random.Random(data["seed"])
    play(match, rng, data["prefix"])
    op = data["op"]
    stage[0] = op
    if op == "apply":
        arg = _action_arg(match, data["args"][0], rng)
        if match.is_over:
            return "match over before the call"
        before = _snapshot(match)
        try:
            match.apply(arg)
        except trickcore.TrickcoreError:
            if _snapshot(match) != before:
                raise Finding(f"a refused action {arg!r:.80} changed the match") from None
            raise
        stage[0] = "play after apply"
        play(match, rng, 200)
        return "accepted"
    if op == "refused_many":
        return _refused_many(match, data["args"][0])
    args = [materialize(game, a) for a in data["args"]]
    kwargs = {k: materialize(game, v) for k, v in data["kwargs"].items()}
    if op == "observation":
        match.observation(*args).to_dict()
    elif op == "standing":
        match.standing(*args)
    elif op == "new_match":
        m = game.new_match(**kwargs)
        stage[0] = "play new match"
        play(m, rng, 300)
    elif op == "stack_deck":
        order = game.stack_deck(**kwargs)
        stage[0] = "new_deal of stacked deck"
        game.new_deal(
            deck_order=order, dealer=kwargs.get("dealer", 0) or 0, players=kwargs.get("players")
        )
    elif op == "deal_score":
        game.deal_score(*args, **kwargs)
    elif op == "new_deal":
        deal = game.new_deal(**kwargs)
        stage[0] = "play new deal"
        for _ in range(300):
            if deal.is_over:
                break
            deal.apply(rng.choice(deal.legal_actions()))
    return "accepted"


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _refused_many(match: trickcore.Match, count: int) -> str:
    if match.is_over:
        return "match over"
    before = _rss_mb()
    for i in range(count):
        try:
            match.apply(f"bid {i}{i} zz{i}")
        except trickcore.IllegalActionError:
            pass
    grown = _rss_mb() - before
    if grown > 64:
        raise MemoryError(f"memory grew by {grown:.0f} MB over {count} refused action texts")
    return f"memory grew by {grown:.1f} MB"


def _selftest(what: str) -> str:
    """Known behaviours for testing the harness itself (never generated by a run)."""
    if what == "sleep":
        import time

        time.sleep(60)
    elif what == "allocate":
        hog = [bytearray(2**20) for _ in range(100_000)]
        return f"allocated {len(hog)} MB"
    elif what == "raise":
        raise KeyError("a non-library exception")
    elif what == "library":
        raise trickcore.RulesError("a library error")
    elif what == "silent":
        raise trickcore.TrickcoreError("")
    elif what == "crash":
        os.abort()
    return "ok"
