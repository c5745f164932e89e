"""The quantities measured on each match, as sums that add up over matches.

Every quantity is a ratio of two sums over matches, `sum(num) / sum(den)` (declarer
success at a contract level: deals made / deals declared at that level; points per deal at a
seat position: points / deals; deals per match: deals / matches), so a match contributes a
`num` and a `den` to each quantity it touches and confidence intervals come from resampling
whole matches.

Named measures (`--measure NAME`) read, for every deal played, one of:

- a field of the deal result: `contract`, `qualifier`, `declarer`, `gains`, `card_points`,
  `scores`, and in games of bouts `loser`, `draw`, `out`, `bouts`;
- a field of the deal's final public view (`trickcore.Observation` / `BoutObservation`):
  `tricks_won`, `trump`, `declarations`, `bids`, `tricks`, `talon_shown`, `laid_away`,
  `contract_text`, `discarded`, ...;
- a value the variant keeps per seat between deals (a name of its `match { keep ... }`),
  read after each deal;
- a value the variant keeps per seat during a deal (a name of its `deal { keep ... }`), as
  the deal's final public view shows it.

A number is averaged per deal; yes/no gives the share of deals where it holds; a text gives
the share of each text; one number per seat is averaged per seat position (counted from the
dealer); any other list counts its entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from ..engine.game import Game
from ..engine.observation import BoutObservation, Observation
from ..language.errors import TrickcoreError
from .play import MatchRecord

Key = tuple[str, str]  # (section, label)

DECLARER = "Declarer success by contract"
POINTS = "Points per deal by seat position"
LOST = "Deals lost by seat position"
LENGTH = "Length"
SCORES = "Final scores"
MEASURE = "Measure: "
TOTAL = "*"  # the label of a categorical measure's number of deals
SHARE = " (share of deals)"  # ends the section of a yes/no measure

RESULT_FIELDS = (
    "dealer",
    "declarer",
    "contract",
    "qualifier",
    "gains",
    "card_points",
    "scores",
    "loser",
    "draw",
    "out",
    "bouts",
)
VIEW_FIELDS = tuple(
    sorted(
        (set(attrs.fields_dict(Observation)) | set(attrs.fields_dict(BoutObservation)))
        - {"seat", "log", "hand", "kept", "scores", "phase", "to_act"}
    )
)


def position_label(position: int, seats: int) -> str:
    """The name of a seat position counted from the dealer (1: left of the dealer)."""
    if position % seats == 0:
        return "dealer"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(position, "th")
    return f"{position}{suffix} after dealer"


def position_order(label: str) -> int:
    """Sort key of a position label: 1st, 2nd, ..., dealer."""
    return 99 if label == "dealer" else int("".join(ch for ch in label if ch.isdigit()) or 0)


def known_measures(games: Sequence[Game]) -> list[str]:
    """The names `--measure` accepts for these variants."""
    kept = {name for g in games for name, _, _ in g.model.match.keep}
    kept |= {name for g in games for name, _, _ in g.model.deal.keep}
    return sorted(set(RESULT_FIELDS) | set(VIEW_FIELDS) | kept)


def check_measures(names: Sequence[str], games: Sequence[Game]) -> tuple[str, ...]:
    """The measure names, checked (a `TrickcoreError` names an unknown one and lists the
    known ones)."""
    known = known_measures(games)
    for name in names:
        if name not in known:
            raise TrickcoreError(f"unknown measure '{name}': choose one of {', '.join(known)}")
    return tuple(names)


def needs_views(names: Sequence[str], games: Sequence[Game] = ()) -> bool:
    """Whether these measures read the deals' final public views (a view field, or a name
    the variants keep during a deal)."""
    deal_kept = {name for g in games for name, _, _ in g.model.deal.keep}
    return any((n in VIEW_FIELDS or n in deal_kept) and n not in RESULT_FIELDS for n in names)


@attrs.frozen
class MatchMeasures:
    """A match's contributions: `num` and `den` per quantity, and raw values for plots."""

    num: dict[Key, float]
    den: dict[Key, float]
    final_scores: tuple[int, ...]
    deal_lengths: tuple[int, ...]
    deals_played: int
    levels: tuple[int, ...]  # the contract levels of the deals with a declarer


def den_key(key: Key) -> Key:
    """The quantity whose `den` a quantity uses (the share of a text uses the number of
    deals of its measure)."""
    section, label = key
    return (section, TOTAL) if label.startswith("= ") else key


def measure_match(record: MatchRecord, names: Sequence[str] = ()) -> MatchMeasures:
    """What one match contributes to every quantity."""
    num: dict[Key, float] = {}
    den: dict[Key, float] = {}

    def add(key: Key, n: float, d: float = 1) -> None:
        num[key] = num.get(key, 0) + n
        den[key] = den.get(key, 0) + d

    seats = record.seats
    lengths: list[int] = []
    levels: list[int] = []
    played = 0
    for deal in record.deals:
        r = deal.result
        if r.get("redeal"):
            continue
        played += 1
        lengths.append(deal.actions)
        dealer = r.get("dealer", 0)
        if "loser" in r:
            for p in range(seats):
                seat = (dealer + p) % seats
                add((LOST, position_label(p, seats)), r["loser"] == seat)
            add((LOST, "draw"), bool(r.get("draw")))
        else:
            gains = r.get("gains") or ()
            for p in range(len(gains)):
                add((POINTS, position_label(p, seats)), gains[(dealer + p) % seats])
            declarer = r.get("declarer", -1)
            if declarer >= 0:
                made = gains[declarer] > 0
                level = int(r.get("contract", 0))
                levels.append(level)
                add((DECLARER, f"level:{level}"), made)
                add((DECLARER, "all levels"), made)
        for name in names:
            _add_measure(add, name, _value_of(name, deal.result, deal.view, deal.kept), r, seats)
    add((LENGTH, "actions per deal"), sum(lengths), len(lengths))
    add((LENGTH, "deals per match"), played)
    add((LENGTH, "actions per match"), record.actions)
    add((LENGTH, "deals thrown in per match"), record.redeals)
    if record.scores:
        add((SCORES, "mean final score"), sum(record.scores) / seats)
        add((SCORES, "winner's final score"), max(record.scores))
        add((SCORES, "best minus worst final score"), max(record.scores) - min(record.scores))
        for seat in range(seats):
            add((SCORES, f"matches won by seat {seat}"), seat in record.winners)
    add((SCORES, "matches stopped by a rule"), record.stopped)
    return MatchMeasures(num, den, record.scores, tuple(lengths), played, tuple(levels))


def _value_of(
    name: str, result: dict[str, Any], view: dict[str, Any] | None, kept: Sequence[dict[str, Any]]
) -> Any:
    if name in result:
        return result[name]
    if view is not None and name in view:
        return view[name]
    if kept and name in kept[0]:
        return tuple(k[name] for k in kept)
    if view is not None and view.get("deal_keep"):  # a deal's kept name, seat by seat
        values = {seat: value for seat, kept_name, value in view["deal_keep"] if kept_name == name}
        if values:
            return tuple(values.get(seat, 0) for seat in range(max(values) + 1))
    return None


def _add_measure(add: Any, name: str, value: Any, result: dict[str, Any], seats: int) -> None:
    section = MEASURE + name
    if value is None:
        return
    if isinstance(value, bool):
        add((section + SHARE, "share of deals"), value)
    elif isinstance(value, (int, float)):
        add((section, "mean per deal"), value)
    elif isinstance(value, str):
        add((section, TOTAL), 0)
        add((section, f"= {value or '(none)'}"), 1, 0)
    elif isinstance(value, (list, tuple)):
        per_seat = len(value) == seats and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in value
        )
        flags = len(value) == seats and all(isinstance(x, bool) for x in value)
        if per_seat or flags:
            dealer = result.get("dealer", 0)
            if flags:
                section += SHARE
            for p in range(seats):
                add((section, position_label(p, seats)), value[(dealer + p) % seats])
        else:
            add((section, "entries per deal"), len(value))
