"""Deterministic generation of fuzz cases of four kinds from one seed.

- ``mutant``: a shipped rules file mutated at the token level or with a hostile snippet;
- ``grammar``: a small rules text drawn by a grammar-aware hypothesis strategy;
- ``save``: a real saved match (from `trickcore.save_match`) corrupted;
- ``api``: a malformed action or argument given to a mid-play match of a shipped variant.
"""

from __future__ import annotations

import functools
import json
import random
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

import trickcore
from trickcore.language.resources import variants_dir

from . import hostile

KINDS = ("mutant", "grammar", "save", "api")
# Out of every 20 cases of a mixed run: 10 mutants, 3 grammar texts, 3 saves, 4 api calls.
SCHEDULE = ("mutant",) * 10 + ("grammar",) * 3 + ("save",) * 3 + ("api",) * 4


@attrs.frozen
class Case:
    """One fuzz input: its kind, its index in the run, a short label and its data."""

    kind: str
    index: int
    label: str
    data: dict[str, Any]

    @property
    def ident(self) -> str:
        """A name for the case, unique in a run."""
        return f"{self.kind}-{self.index:06d}"


def shipped_texts() -> dict[str, str]:
    """The shipped rules files by variant name."""
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(variants_dir().glob("*.rules"))}


@functools.cache
def players_of(name: str) -> tuple[int, ...]:
    """The allowed player counts of a shipped variant."""
    return tuple(trickcore.load_variant(name).model.players)


@functools.cache
def card_texts_of(name: str) -> tuple[str, ...]:
    """The card texts of a shipped variant."""
    return tuple(trickcore.load_variant(name).card_texts)


@functools.cache
def is_bouts(name: str) -> bool:
    """Whether a shipped variant is a game of bouts."""
    return trickcore.load_variant(name).model.bouts is not None


# ---------------------------------------------------------------- rules mutants
TOKEN = re.compile(r'"[^"\n]*"|-?\d+|[^\W\d]\w*|\n|[ \t]+|.', re.UNICODE)
WORDS = [
    "yes",
    "no",
    "none",
    "each",
    "talon",
    "times",
    "turnup",
    "rest",
    "stock",
    "at_least",
    "exactly",
    "drops_out",
    "stays_in",
    "one_left",
    "passes",
    "declarer",
    "highest",
    "left",
    "same",
    "loser",
    "dealer",
    "rule",
    "if",
    "then",
    "else",
    "and",
    "or",
    "not",
    "extends",
    "remove",
    "meld",
    "deck",
    "deal",
    "bidding",
    "talon",
    "contract",
    "play",
    "scoring",
    "match",
    "bouts",
    "after_deal",
    "redeal",
    "score",
    "gain",
    "card_points",
    "contract",
    "round",
    "floor",
    "ceil",
    "min",
    "max",
    "abs",
    "bid_is",
    "count_rank",
    "count_suit",
    # the constructs games without an auction, with a stock or with decisions use
    "pass_cards",
    "bids",
    "decision",
    "choice",
    "sides",
    "at",
    "before",
    "end",
    "lead",
    "who",
    "effect",
    "close_stock",
    "end_deal",
    "redeal",
    "receives_if",
    "pass_if",
    "hold_if",
    "again",
    "out_left",
    "turnup_rank",
    "first_lead",
    "trump_is",
    "skip",
    "swap_turnup",
    "options",
    "public",
    "pairs",
    "values",
    "played",
    "play_on",
    "holder",
    "draw",
    "blind",
    "lay_away",
    "counts_for_if",
    "trump_power",
    "power",
    "stop_if",
    "open_hand_if",
    "card_is",
    "played_suit",
    "taken_card",
    "sum_all",
    "count_side",
    "mod",
    "top_trumps",
]
PUNCT = list('{}()[],:=."#+-*<>!') + ["==", "!=", "<=", ">=", "\\"]


def _tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def mutate_tokens(text: str, rng: random.Random, others: list[str]) -> tuple[str, str]:
    """Apply 1-4 token-level mutations; returns the text and a label naming them."""
    toks = _tokens(text)
    done = []
    for _ in range(rng.randint(1, 4)):
        op = rng.choice(
            [
                "number",
                "number",
                "number",
                "swap",
                "dup_line",
                "del_line",
                "bracket",
                "bytes",
                "markup",
                "long",
                "word",
                "delete",
                "foreign_line",
                "unicode_digit",
            ]
        )
        done.append(op)
        nums = [i for i, t in enumerate(toks) if re.fullmatch(r"-?\d+", t)]
        words = [i for i, t in enumerate(toks) if re.fullmatch(r"[^\W\d]\w*", t)]
        if op in ("number", "unicode_digit") and nums:
            i = rng.choice(nums)
            if op == "number":
                toks[i] = rng.choice(hostile.HUGE_NUMBERS)
            else:
                d = rng.choice(hostile.UNICODE_DIGITS)
                toks[i] = rng.choice([d, f'"{d}"', toks[i] + d, d + toks[i]])
        elif op == "swap" and len(words) >= 2:
            i, j = rng.sample(words, 2)
            toks[i], toks[j] = toks[j], toks[i]
        elif op == "word" and words:
            toks[rng.choice(words)] = rng.choice(WORDS)
        elif op in ("dup_line", "del_line", "foreign_line"):
            lines = "".join(toks).split("\n")
            k = rng.randrange(len(lines))
            if op == "dup_line":
                lines.insert(
                    k, lines[k] if rng.random() < 0.7 else lines[rng.randrange(len(lines))]
                )
            elif op == "del_line":
                del lines[k]
            else:
                src = rng.choice(others).split("\n")
                lines.insert(k, rng.choice(src))
            toks = _tokens("\n".join(lines))
        elif op == "bracket":
            toks.insert(rng.randrange(len(toks) + 1), rng.choice(PUNCT))
        elif op == "bytes":
            junk = "".join(
                chr(
                    rng.choice([0, 9, 13, 27, 127, 0xA0, 0xFEFF, 0x202E, rng.randrange(32, 0x3000)])
                )
                for _ in range(rng.randint(1, 6))
            )
            toks.insert(rng.randrange(len(toks) + 1), junk)
        elif op == "markup":
            toks.insert(rng.randrange(len(toks) + 1), rng.choice(hostile.MARKUP))
        elif op == "long":
            toks.insert(
                rng.randrange(len(toks) + 1),
                rng.choice(["x", "9", "(", "-", "a "]) * rng.choice([1000, 20_000, 190_000]),
            )
        elif op == "delete" and toks:
            i = rng.randrange(len(toks))
            del toks[i : i + rng.randint(1, 5)]
    return "".join(toks), "+".join(done)


def pick_snippets(variant: str, rng: random.Random) -> dict[str, str]:
    """The hostile snippets for a variant's kind of game (one time in five: of both kinds)."""
    if rng.random() < 0.2:
        return {**hostile.TRICK_SNIPPETS, **hostile.BOUT_SNIPPETS}
    return hostile.BOUT_SNIPPETS if is_bouts(variant) else hostile.TRICK_SNIPPETS


def mutant_case(index: int, seed: int, texts: dict[str, str]) -> Case:
    """A shipped file mutated: token level, a hostile snippet, or both."""
    rng = random.Random(f"{seed}:mutant:{index}")
    base = rng.choice(sorted(texts))
    text = texts[base]
    others = [t for n, t in sorted(texts.items()) if n != base]
    r = rng.random()
    label = ""
    if r < 0.35:
        snippets = pick_snippets(base, rng)
        name = rng.choice(sorted(snippets))
        snippet = snippets[name]
        how = rng.choice(["extends", "extends", "append"])
        text = f'extends "{base}"\n{snippet}' if how == "extends" else text + "\n" + snippet
        label = f"snippet:{name}({how})"
        if rng.random() < 0.3:
            text, more = mutate_tokens(text, rng, others)
            label += "+" + more
    else:
        text, label = mutate_tokens(text, rng, others)
    data: dict[str, Any] = {"rules": text.encode("utf-8", "surrogatepass"), "base": base}
    if rng.random() < 0.03:  # invalid UTF-8 in the file itself
        raw = bytearray(data["rules"])
        raw.insert(rng.randrange(len(raw) + 1), rng.choice([0x80, 0xC3, 0xFF, 0xED]))
        data["rules"] = bytes(raw)
        label += "+invalid_utf8"
    return Case("mutant", index, f"{base}:{label}", data)


# ---------------------------------------------------------------- saved games
SPECIAL = {
    '"@@BIG@@"': "9" * 5000,
    '"@@NEGBIG@@"': "-" + "9" * 5000,
    '"@@DEEP@@"': "[" * 100_000 + "]" * 100_000,
    '"@@DEEPOBJ@@"': '{"a":' * 50_000 + "1" + "}" * 50_000,
    '"@@NAN@@"': "NaN",
    '"@@INF@@"': "Infinity",
    '"@@FLOATBIG@@"': "1e999",
}
HOSTILE_JSON: list[Any] = [
    None,
    True,
    False,
    -1,
    0,
    1,
    1.5,
    -0.0,
    "",
    "x",
    "²",
    [],
    {},
    [[]],
    {"a": 1},
    2**63,
    -(2**63),
    10**100,
    "@@BIG@@",
    "@@NEGBIG@@",
    "@@DEEP@@",
    "@@NAN@@",
    "@@INF@@",
    "@@FLOATBIG@@",
    "9" * 5000,
    ["pass"] * 3,
    "../../etc/passwd",
    "/dev/zero",
]


def real_save(variant: str, players: int, seed: int, steps: int, tmp: Path) -> dict[str, Any]:
    """A saved match made by `trickcore.save_match` after some random legal actions."""
    game = trickcore.load_variant(variant)
    match = game.new_match(seed=seed, players=players)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    path = tmp / "save.json"
    trickcore.save_match(match, path)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _set_path(data: dict[str, Any], rng: random.Random, value: Any) -> str:
    where = rng.choice(
        [
            "format",
            "version",
            "variant",
            "variant_hash",
            "players",
            "seed",
            "deck_orders",
            "start",
            "start.scores",
            "start.kept",
            "start.dealer",
            "actions",
            "actions[]",
            "variant_path",
        ]
    )
    if where.startswith("start."):
        if not isinstance(data.get("start"), dict):
            data["start"] = {"scores": None, "kept": None, "dealer": 0}
        data["start"][where[6:]] = value
    elif where == "actions[]" and data["actions"]:
        data["actions"][rng.randrange(len(data["actions"]))] = value
    else:
        data[where] = value
    return where


def resign(data: dict[str, Any]) -> None:
    """Recompute a saved match's action count and checksum, as an attacker can."""
    from trickcore.engine import saving

    if isinstance(data.get("actions"), list) and "action_count" in data:
        data["action_count"] = len(data["actions"])
    checksum = getattr(saving, "checksum", None)
    if checksum is not None and "checksum" in data:
        try:
            data["checksum"] = checksum(data)
        except (TypeError, ValueError):
            pass


def embed_hostile_rules(
    data: dict[str, Any], variant: str, rng: random.Random, texts: dict[str, str]
) -> str:
    """Put hostile rules texts into a saved match, with a matching variant hash."""
    from trickcore.language import loader

    snippets = pick_snippets(variant, rng)
    name = rng.choice(sorted(snippets))
    how = rng.choice(["extends", "extends", "inline", "mutant", "self", "many"])
    chain = [(e["file"], e["text"]) for e in data.get("rules") or []] or [(variant, texts[variant])]
    if how == "extends":
        rules = [*chain, ("house", f'extends "{variant}"\n{snippets[name]}')]
    elif how == "inline":
        rules = [*chain[:-1], (chain[-1][0], chain[-1][1] + "\n" + snippets[name])]
    elif how == "mutant":
        text, name = mutate_tokens(chain[-1][1], rng, list(texts.values()))
        rules = [*chain[:-1], (chain[-1][0], text)]
    elif how == "self":
        rules = [("house", 'extends "house"\n' + snippets[name])]
    else:
        rules = [
            (f"f{i}", f'extends "f{i - 1}"\n' if i else texts["tysiacha"])
            for i in range(rng.choice([15, 17, 200]))
        ]
    data["rules"] = [{"file": f, "text": t} for f, t in rules]
    data["variant"] = rng.choice(["house", "../../etc/passwd", "/dev/zero", variant, "house"])
    sources_hash = getattr(loader, "sources_hash", None)
    if sources_hash is not None:
        data["variant_hash"] = sources_hash(t for _, t in rules)
    return f"{how}:{name}"


def save_case(index: int, seed: int, texts: dict[str, str], tmp: Path) -> Case:
    """A real saved match, corrupted in its values, types, nesting, actions or bytes."""
    rng = random.Random(f"{seed}:save:{index}")
    variant = rng.choice(sorted(texts))
    players = rng.choice(players_of(variant))
    data = real_save(variant, players, rng.randrange(10**6), rng.randrange(0, 120), tmp)
    op = rng.choice(
        [
            "value",
            "value",
            "value",
            "delete",
            "truncate_actions",
            "edit_actions",
            "raw_text",
            "variant_path",
            "deck_orders",
            "start",
            "path",
            "other_variant",
            "embedded_rules",
            "embedded_rules",
            "embedded_rules",
        ]
    )
    label = op
    extra: dict[str, bytes] = {}
    path: str | None = None
    if op == "value":
        where = _set_path(data, rng, rng.choice(HOSTILE_JSON))
        label += ":" + where
    elif op == "delete":
        key = rng.choice(sorted(data))
        del data[key]
        label += ":" + key
    elif op == "truncate_actions":
        acts = data["actions"]
        if rng.random() < 0.5:
            data["actions"] = acts[: rng.randrange(len(acts) + 1)]
        elif acts:
            del acts[rng.randrange(len(acts))]
    elif op == "edit_actions":
        acts = data["actions"]
        choice = rng.choice(["hostile", "dup", "swap", "append"])
        label += ":" + choice
        if choice == "hostile" or not acts:
            acts.insert(rng.randrange(len(acts) + 1), rng.choice(hostile.ACTION_TEXTS))
        elif choice == "dup":
            k = rng.randrange(len(acts))
            acts.insert(k, acts[k])
        elif choice == "swap" and len(acts) > 1:
            i, j = rng.sample(range(len(acts)), 2)
            acts[i], acts[j] = acts[j], acts[i]
        else:
            acts.extend(["pass"] * rng.randint(1, 50000))
    elif op == "variant_path":
        choice = rng.choice(["/dev/zero", "/etc/passwd", "/tmp", "../../etc/passwd", "hostile"])
        label += ":" + choice
        if choice == "hostile":
            snippets = {**hostile.TRICK_SNIPPETS, **hostile.BOUT_SNIPPETS}
            name = rng.choice(sorted(snippets))
            extra["hostile.rules"] = f'extends "{variant}"\n{snippets[name]}'.encode()
            data["variant_path"] = "hostile.rules"
            label += ":" + name
        else:
            data["variant_path"] = choice
    elif op == "deck_orders":
        cards = card_texts_of(variant)
        orders: Any = rng.choice(
            [
                [list(cards)[::-1] + [cards[0]]],
                [[cards[0]] * len(cards)],
                [list(range(len(cards)))],
                [[-1] * len(cards)],
                [[len(cards) + 5] * len(cards)],
                [[None] * len(cards)],
                [[1.5] * len(cards)],
                [[True] * len(cards)],
                [["²"] * len(cards)],
                [[]],
                [],
                "AS KS",
                [[[cards[0]]]],
                [list(cards)] * 100_000,
            ]
        )
        data["deck_orders"] = orders
        data["seed"] = None
        label += ":" + repr(orders)[:40]
    elif op == "start":
        n = data["players"]
        start = rng.choice(
            [
                {"scores": [10**100] * n},
                {"scores": ["@@BIG@@"] * n},
                {"scores": [1] * (n + 1)},
                {"scores": [True] * n},
                {"scores": "abc"},
                {"kept": [{"zzz": 1}] * n},
                {"kept": [{"on_barrel": 5}] * n},
                {"kept": [{"barrel_deals": True}] * n},
                {"kept": [[]] * n},
                {"kept": "x"},
                {"kept": [None] * n},
                {"dealer": -1},
                {"dealer": n},
                {"dealer": "0"},
                {"dealer": 1.5},
                {"dealer": True},
                {"dealer": 10**30},
                {"durak_count": 1},
            ]
        )
        data["start"] = start
        label += ":" + repr(start)[:40]
    elif op == "path":
        path = rng.choice(["/dev/zero", "/dev/urandom", "/tmp", "/nonexistent/x.json", "/etc"])
        label += ":" + path
    elif op == "other_variant":
        other = rng.choice(sorted(texts))
        oplayers = rng.choice(players_of(other))
        odata = real_save(other, oplayers, rng.randrange(10**6), rng.randrange(1, 60), tmp)
        key = rng.choice(["actions", "variant_hash", "variant", "players"])
        data[key] = odata[key]
        label += f":{other}:{key}"
    elif op == "embedded_rules":
        label += ":" + embed_hostile_rules(data, variant, rng, texts)
    if rng.random() < 0.85:  # an attacker recomputes the count and checksum
        resign(data)
        label += "+resigned"
    text = json.dumps(data, indent=1)
    for marker, raw in SPECIAL.items():
        text = text.replace(marker, raw)
    blob = text.encode("utf-8")
    if op == "raw_text":
        choice = rng.choice(
            [
                "truncate",
                "flip",
                "bom",
                "invalid_utf8",
                "empty",
                "null",
                "dup_key",
                "nesting",
                "spaces",
                "big_number",
            ]
        )
        label += ":" + choice
        if choice == "truncate":
            blob = blob[: rng.randrange(len(blob))]
        elif choice == "flip":
            flipped = bytearray(blob)
            for _ in range(rng.randint(1, 5)):
                flipped[rng.randrange(len(flipped))] = rng.randrange(256)
            blob = bytes(flipped)
        elif choice == "bom":
            blob = b"\xef\xbb\xbf" + blob
        elif choice == "invalid_utf8":
            blob = blob[:20] + b"\xff\xfe" + blob[20:]
        elif choice == "empty":
            blob = b""
        elif choice == "null":
            blob = b"null"
        elif choice == "dup_key":
            blob = blob.replace(b'"format"', b'"actions": 5, "format"', 1)
        elif choice == "nesting":
            blob = b"[" * 100_000 + b"]" * 100_000
        elif choice == "spaces":
            blob = b" " * 5_000_000 + blob
        else:
            blob = blob.replace(b'"seed": ', b'"seed": ' + b"9" * 5000 + b', "x": ', 1)
    return Case(
        "save", index, f"{variant}/{players}:{label}", {"save": blob, "path": path, "extra": extra}
    )


# ---------------------------------------------------------------- api calls
BAD_SEATS: list[Any] = [
    -1,
    -2,
    -100,
    "0",
    "1",
    None,
    1.0,
    True,
    False,
    10**30,
    -(10**30),
    [0],
    b"0",
    99,
    10**5000,
]


def api_case(index: int, seed: int, texts: dict[str, str]) -> Case:
    """A malformed action or argument for a shipped variant's mid-play match."""
    rng = random.Random(f"{seed}:api:{index}")
    variant = rng.choice(sorted(texts))
    allowed = players_of(variant)
    players = rng.choice(allowed)
    game_seed = rng.randrange(10**6)
    prefix = rng.choice([0, 1, 3, 5, 10, 20, 40, 80, 200])
    op = rng.choice(
        ["apply"] * 8
        + [
            "observation",
            "observation",
            "standing",
            "standing",
            "new_match",
            "new_match",
            "stack_deck",
            "deal_score",
            "new_deal",
            "refused_many",
        ]
    )
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    if op == "apply":
        how = rng.choice(["text", "text", "mangle", "other", "object", "stale"])
        if how == "text":
            args = [("text", rng.choice(hostile.ACTION_TEXTS))]
        elif how == "mangle":
            args = [
                (
                    "mangle",
                    rng.choice(
                        ["upper", "spaces", "unicode", "junk", "chop", "double", "tab", "zero"]
                    ),
                    rng.randrange(1000),
                )
            ]
        elif how == "other":
            other = rng.choice(sorted(texts))
            oplayers = rng.choice(players_of(other))
            args = [
                (
                    "other",
                    other,
                    oplayers,
                    rng.randrange(10**6),
                    rng.choice([0, 1, 5, 20, 40]),
                    rng.randrange(1000),
                )
            ]
        elif how == "stale":
            args = [
                (
                    "other",
                    variant,
                    players,
                    rng.randrange(10**6),
                    rng.choice([0, 1, 5, 20, 40]),
                    rng.randrange(1000),
                )
            ]
        else:
            args = [
                rng.choice(
                    [
                        None,
                        5,
                        1.5,
                        b"pass",
                        ["pass"],
                        {"kind": "pass"},
                        ("object",),
                        (
                            "action",
                            "bid",
                            "bid 100",
                            -1,
                            10**5000 if rng.random() < 0.3 else 100,
                            -1,
                            "",
                            (),
                        ),
                        ("action", "play", "play AS", 999, 0, -1, "", ()),
                        ("action", "play", "play AS", -5, 0, -1, "", ()),
                        ("action", "give", "give AS to 9", 0, 0, 9, "", ()),
                        ("action", "give", "give AS to -1", 0, 0, -1, "", ()),
                        ("action", "zzz", "zzz", 0, 0, -1, "", ()),
                        ("action", "bid", "bid 100 q", -1, 100, -1, "nonsense", ()),
                        ("action", "attack", "attack", -1, 0, -1, "", ()),
                        ("action", "attack", "attack x", -1, 0, -1, "", (999, -1)),
                        ("action", "beat", "beat", -1, 0, -1, "", (0,)),
                        ("action", "pass", "pass", 0, 0, 0, "", ()),
                        ("action", "raise", "raise 0", -1, 0, -1, "", ()),
                        ("action", "marry", "marry", 10**6, 0, -1, "", ()),
                    ]
                )
            ]
    elif op in ("observation", "standing"):
        args = [rng.choice([*BAD_SEATS, players, players + 1])]
    elif op == "new_match":
        n = players
        options: dict[str, list[Any]] = {
            "seed": [-1, 2**63, 10**100, 10**5000, "7", 1.5, True, [], None],
            "players": [0, -1, 1, 99, "3", 3.0, True, None, n, 10**5000],
            "scores": [
                [1] * (n + 1),
                [10**100] * n,
                ["1"] * n,
                None,
                "abc",
                {},
                [True] * n,
                [10**5000] * n,
                [1.5] * n,
            ],
            "kept": [
                [{}] * n,
                [{"zzz": 1}] * n,
                [{"on_barrel": 5}] * n,
                "x",
                [None] * n,
                [[]] * n,
                [{"durak_count": -(10**30)}] * n,
                [{"barrel_deals": 10**5000}] * n,
            ],
            "dealer": [-1, n, "0", 1.5, None, True, 10**30, 10**5000],
            "deck_orders": [
                "deck:dup",
                "deck:ints",
                "deck:neg",
                "deck:short",
                "deck:none",
                "deck:nested",
                "deck:big",
                [],
                [[]],
                "AS KS",
                [None],
            ],
        }
        for key in rng.sample(sorted(options), rng.randint(1, 3)):
            kwargs[key] = rng.choice(options[key])
    elif op == "stack_deck":
        kwargs = {
            "hands": rng.choice(
                [
                    {99: ["card:0"]},
                    {-1: ["card:0"]},
                    {0: ["XX"]},
                    {"0": ["card:0"]},
                    {0: "card:0"},
                    {0: ["card:0", "card:0"]},
                    {0: "all"},
                    {None: []},
                    {0: [5]},
                    {0: [None]},
                    {1.5: []},
                    "AS",
                    [],
                    {0: ["²S"]},
                    {1: ["card:1"], 2: ["card:1"]},
                    {0: ["card:0"]},
                ]
            ),
            "talon": rng.choice([(), ["card:0"], "all", ["XX"], None, 5, ["card:2"] * 3]),
        }
        if rng.random() < 0.5:
            kwargs["dealer"] = rng.choice([-1, players, "0", None, 10**30, 0])
        if rng.random() < 0.3:
            kwargs["players"] = rng.choice([0, 99, "3", None, players])
    elif op == "deal_score":
        args = [rng.choice([True, False, None, "yes", 2])]
        if rng.random() < 0.5:
            kwargs["qualifier"] = rng.choice(["", "zzz", None, 5, "ohne", "²"])
        for key in rng.sample(
            [
                "card_points",
                "meld_points",
                "contract",
                "tricks_won",
                "tricks_total",
                "players",
                "melds_declared",
                "unknown",
            ],
            rng.randint(1, 3),
        ):
            kwargs[key] = rng.choice([10**100, -(10**9), 0, "x", None, 1.5, True, 10**5000, 5])
    elif op == "new_deal":
        for key in rng.sample(["deck_order", "dealer", "players", "seed"], rng.randint(1, 3)):
            choices: dict[str, list[Any]] = {
                "deck_order": [
                    "deck:dup",
                    "deck:ints",
                    "deck:neg",
                    "deck:short",
                    "deck:none",
                    "deck:nested",
                    None,
                    "AS",
                    [],
                    5,
                ],
                "dealer": [-1, players, "0", None, 1.5, 10**30],
                "players": [0, 99, "3", None, 1.5, players],
                "seed": ["x", 1.5, -1, 10**100, [], None],
            }
            kwargs[key] = rng.choice(choices[key])
    else:  # refused_many
        args = [rng.choice([20_000, 50_000])]
    data = {
        "variant": variant,
        "players": players,
        "seed": game_seed,
        "prefix": prefix,
        "op": op,
        "args": args,
        "kwargs": kwargs,
    }
    label = f"{variant}/{players}:{op}({_short(args, kwargs)})"
    return Case("api", index, label, data)


def _short(args: list[Any], kwargs: dict[str, Any]) -> str:
    parts = [_r(a) for a in args] + [f"{k}={_r(v)}" for k, v in kwargs.items()]
    return ", ".join(parts)


def _r(value: Any) -> str:
    text = safe_repr(value)
    return text if len(text) < 60 else text[:57] + "..."


def safe_repr(value: Any) -> str:
    """repr() that writes a huge whole number as a power of ten (str() refuses them)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**50:
        digits = len(str(abs(value))) if abs(value) < 10**4000 else 5001
        return f"{'-' if value < 0 else ''}10**{digits - 1}"
    if isinstance(value, list):
        return "[" + ", ".join(safe_repr(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + "".join(safe_repr(v) + ", " for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{safe_repr(k)}: {safe_repr(v)}" for k, v in value.items()) + "}"
    return repr(value)


# ---------------------------------------------------------------- the stream
def grammar_texts(count: int, seed: int) -> list[str]:
    """`count` rules texts from the grammar-aware strategy, reproducibly from `seed`."""
    from .grammar import rules_texts

    return rules_texts(count, seed)


def generate_cases(count: int, seed: int = 0, kinds: tuple[str, ...] = KINDS) -> Iterator[Case]:
    """`count` cases of the given kinds, in a fixed interleaved order decided by `seed`."""
    unknown = set(kinds) - set(KINDS)
    if unknown:
        raise ValueError(f"unknown kinds: {', '.join(sorted(unknown))}")
    schedule = [k for k in SCHEDULE if k in kinds] or list(kinds)
    plan = [schedule[i % len(schedule)] for i in range(count)]
    texts = shipped_texts()
    n_grammar = plan.count("grammar")
    grammar = iter(grammar_texts(n_grammar, seed)) if n_grammar else iter(())
    with tempfile.TemporaryDirectory(prefix="fuzz-gen-") as tmp:
        for index, kind in enumerate(plan):
            if kind == "mutant":
                yield mutant_case(index, seed, texts)
            elif kind == "grammar":
                text = next(grammar, None)
                if text is None:  # hypothesis gave fewer distinct texts than asked
                    yield mutant_case(index, seed, texts)
                    continue
                data = {"rules": text.encode("utf-8", "surrogatepass"), "base": "grammar"}
                yield Case("grammar", index, f"grammar:{len(text)} chars", data)
            elif kind == "save":
                yield save_case(index, seed, texts, Path(tmp))
            else:
                yield api_case(index, seed, texts)
