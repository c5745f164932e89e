"""Rule order and inheritance (issue 10, item 6): `rule X before/after Y`, `NAME +:` and
`NAME -:` on inherited lists, and errors that point at the child file that broke a parent.

House rules are written as real rules files extending the shipped Tysiacha (T1-T25) and
played through scripted matches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import trickcore
from trickcore.language import syntax
from trickcore.language.compiler import compile_errors

# The declarer's 7 dealt cards and the talon; the rest goes to the defenders.
MAKE = ("AS AC AD AH 10S 10C 10D", "10H 9S 9C")  # the declarer takes every trick: 120
FAIL = ("9S 9C 9D 9H JS JC JD", "JH KS QS")  # the declarer takes no trick

OFF = {"on_barrel": False, "barrel_deals": 0}
ON = {"on_barrel": True, "barrel_deals": 0}
RANKS = ["A", "10", "K", "Q", "J", "9"]  # T1


def _strength(text: str) -> int:
    return RANKS.index(text.split()[1][:-1])


def match_of(
    v: trickcore.Variant,
    deals: list[tuple[tuple[str, str], int]],
    scores: list[int],
    kept: Sequence[Mapping[str, Any]] | None = None,
) -> trickcore.Match:
    """A match whose deals follow the templates [(template, declarer), ...] (C2 stacking)."""
    orders = [
        v.stack_deck({declarer: hand.split()}, talon.split(), dealer=i % 3)
        for i, ((hand, talon), declarer) in enumerate(deals)
    ]
    start = [dict(k) for k in kept] if kept is not None else None
    return v.new_match(seed=1, deck_orders=orders, scores=scores, kept=start, dealer=0)


def play_deal(m: trickcore.Match, declarer: int, contract: int) -> None:
    """`declarer` wins the auction at `contract` (T6-T8), gives away his two highest
    cards (T11), keeps his contract (T12) and leads his lowest card; defenders play their
    first legal card."""
    deal = m.current
    assert isinstance(deal, trickcore.Deal)
    forehand = deal.active[0]
    while not deal.is_over:
        seat = m.to_act
        legal = [a.text for a in m.legal_actions()]
        if deal.phase == "bid":
            if seat == declarer and deal.high_bidder != declarer:
                choice = f"bid {contract}"
            elif seat == forehand and not deal.bids:
                choice = "bid 100"
            else:
                choice = "pass"
        elif deal.phase == "give":
            choice = max(legal, key=_strength)
        elif deal.phase == "raise":
            choice = "keep contract"
        elif seat == declarer:
            choice = min((t for t in legal if t.startswith("play")), key=_strength)
        else:
            choice = legal[0]
        m.apply(choice)


def merged_list(rules: Any, block: str, name: str) -> list[syntax.Item]:
    """The items of the merged list setting `block.name`."""
    setting = rules.root.entries[block].entries[name]
    assert isinstance(setting, syntax.ListSetting)
    return list(setting.items)


def steps(v: trickcore.Variant) -> list[str]:
    """The after_deal rules of a compiled variant, in the order they run."""
    return [st.name for st in v.model.match.after_deal]


BASE_ORDER = [
    "barrel_silence",
    "barrel_fall",
    "barrel_count",
    "add",
    "barrel_climb",
    "barrel_out",
]


# ------------------------------------------------------------------ placing rules
GOLDEN_BARREL = """\
extends "tysiacha"
name: "Tysiacha with a golden barrel"
after_deal {
  rule golden_barrel before add: if on_barrel and declarer and made then gain = gain + 50
}
"""


def test_T24_rule_placed_before_add_counts_in_this_deal() -> None:
    """A made 120 from the barrel (T24) scores 120, plus the house rule's 50 because the new
    rule runs before `add`; appended at the end it would come too late to count."""
    v = trickcore.variant_from_text(GOLDEN_BARREL, "golden")
    assert steps(v) == [*BASE_ORDER[:3], "golden_barrel", *BASE_ORDER[3:]]
    m = match_of(v, [(MAKE, 1)], [0, 880, 0], kept=[OFF, ON, OFF])
    play_deal(m, 1, 120)
    assert m.scores == [0, 1050, 0] and m.winners == [1]

    appended = trickcore.variant_from_text(GOLDEN_BARREL.replace(" before add", ""), "late")
    assert steps(appended) == [*BASE_ORDER, "golden_barrel"]
    m = match_of(appended, [(MAKE, 1)], [0, 880, 0], kept=[OFF, ON, OFF])
    play_deal(m, 1, 120)
    assert m.scores == [0, 1000, 0]


BOLTS = """\
extends "tysiacha"
name: "Tysiacha with bolts"
match {
  keep +: bolts 0
}
after_deal {
  rule bolt_penalty after bolt: if bolts >= 3 then gain = gain - 120, bolts = 0
  rule bolt after barrel_count: if tricks_won == 0 then bolts = bolts + 1
}
"""


def test_keep_extended_and_rules_placed_after_inherited_ones() -> None:
    """`keep +: bolts 0` adds a kept name the new rules read while T23's `on_barrel` and
    `barrel_deals` still work; `after` places the rules (the first may name the second,
    written later in the same block), so a third bolt costs 120 in the same deal."""
    v = trickcore.variant_from_text(BOLTS, "bolts")
    assert steps(v) == [*BASE_ORDER[:3], "bolt", "bolt_penalty", *BASE_ORDER[3:]]
    start = [
        {**OFF, "bolts": 2},
        {**OFF, "bolts": 0},
        {**OFF, "bolts": 0},
    ]
    m = match_of(v, [(MAKE, 1)], [300, 850, 40], kept=start)
    play_deal(m, 1, 120)  # the defenders take no trick: a bolt each
    assert m.scores == [180, 880, 40]  # T23: 970 climbs the barrel at 880
    assert m.kept_state(0) == {"on_barrel": False, "barrel_deals": 0, "bolts": 0}
    assert m.kept_state(1) == {"on_barrel": True, "barrel_deals": 0, "bolts": 0}
    assert m.kept_state(2) == {"on_barrel": False, "barrel_deals": 0, "bolts": 1}


DUMP_TRUCK = """\
extends "tysiacha"
name: "Tysiacha with the dump truck"
after_deal {
  rule dump_truck after add: if score == 555 then score = 0
  rule floor_at_zero after add: if score < 0 then score = 0
}
"""


def test_rules_placed_after_the_same_rule_keep_their_written_order() -> None:
    """Two rules placed `after add` follow it in the order written; the dump truck (landing
    on exactly 555 sends a player to 0) sees the score this deal's gain made."""
    v = trickcore.variant_from_text(DUMP_TRUCK, "dump-truck")
    assert steps(v) == [*BASE_ORDER[:4], "dump_truck", "floor_at_zero", *BASE_ORDER[4:]]
    m = match_of(v, [(MAKE, 1), (FAIL, 2)], [0, 435, 60])
    play_deal(m, 1, 120)
    assert m.scores[1] == 0  # 435 + 120 = 555
    play_deal(m, 2, 120)
    assert m.scores[2] == 0  # 60 - 120, floored


MOVED_COUNT = """\
extends "tysiacha"
name: "Tysiacha: the climbing deal is a barrel deal"
after_deal {
  rule barrel_count after barrel_climb: if on_barrel then barrel_deals = barrel_deals + 1
}
"""


def test_T25_inherited_rule_moved_after_barrel_climb() -> None:
    """Restating an inherited rule with `after` moves it: counting after `barrel_climb`
    makes the climbing deal the first of T25's three, so the player falls to 760 one deal
    sooner than in Tysiacha."""
    v = trickcore.variant_from_text(MOVED_COUNT, "moved")
    order = ["barrel_silence", "barrel_fall", "add", "barrel_climb", "barrel_count", "barrel_out"]
    assert steps(v) == order
    deals = [(MAKE, 1), (MAKE, 0), (MAKE, 0)]
    m = match_of(v, deals, [0, 850, 0])
    play_deal(m, 1, 120)
    assert m.scores[1] == 880 and m.kept_state(1) == {"on_barrel": True, "barrel_deals": 1}
    play_deal(m, 0, 120)
    play_deal(m, 0, 120)
    assert m.scores[1] == 760 and m.kept_state(1) == OFF

    base = trickcore.load_variant("tysiacha")
    m = match_of(base, deals, [0, 850, 0])
    for declarer, contract in ((1, 120), (0, 120), (0, 120)):
        play_deal(m, declarer, contract)
    assert m.scores[1] == 880 and m.kept_state(1) == {"on_barrel": True, "barrel_deals": 2}


def test_rule_written_again_without_placement_keeps_its_place() -> None:
    """Without `before`/`after` a replaced rule keeps its inherited place (T24 rewritten)."""
    text = 'extends "tysiacha"\nafter_deal {\n  rule barrel_fall: if no then gain = 0\n}\n'
    assert steps(trickcore.variant_from_text(text, "same")) == BASE_ORDER


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ("  rule bonus before addd: gain = gain + 5", 21, "has no rule 'addd'"),
        ("  rule add after add: score = score + gain", 18, "cannot be placed after itself"),
        ("  rule bonus after missing: gain = 0", 20, "its rules: barrel_silence, barrel_fall"),
    ],
)
def test_placing_next_to_an_unknown_rule_is_an_error_at_the_child(
    tmp_path: Path, line: str, column: int, message: str
) -> None:
    """The other rule must be in the merged block; the error is at its name in the child."""
    text = f'extends "tysiacha"\nafter_deal {{\n{line}\n}}\n'
    with pytest.raises(trickcore.RulesError, match=message) as info:
        trickcore.variant_from_text(text, "house", tmp_path)
    loc = info.value.location
    assert loc is not None and Path(loc.file) == tmp_path / "house.rules"
    assert (loc.line, loc.column) == (3, column)


def test_placing_next_to_a_removed_rule_says_where_it_was_removed() -> None:
    """T25's `barrel_out` removed, a rule cannot be placed after it; the error says where."""
    text = (
        'extends "tysiacha"\nremove after_deal.barrel_out\n'
        "after_deal {\n  rule tail after barrel_out: gain = 0\n}\n"
    )
    with pytest.raises(trickcore.RulesError, match=r"removed at house:2:1") as info:
        trickcore.variant_from_text(text, "house")
    assert info.value.location is not None and info.value.location.line == 4


# ------------------------------------------------------------------ changing lists
def test_keep_changes_need_an_inherited_list(tmp_path: Path) -> None:
    """`+:`/`-:` change an inherited list: a missing one, an expression setting or an item
    that is not there is an error at the child's line."""
    cases = [
        ("match {\n  keeps +: bolts 0\n}\n", 2, "match' inherits no 'keeps:'"),
        ("bidding {\n  cap +: 5\n}\n", 2, "'cap' is not a list"),
        ("match {\n  keep -: bolts\n}\n", 2, "no item of 'keep' starts with 'bolts'"),
        ("remove match.keep\nmatch {\n  keep +: bolts 0\n}\n", 3, "it is removed at"),
    ]
    for body, line, message in cases:
        with pytest.raises(trickcore.RulesError, match=message) as info:
            trickcore.variant_from_text('extends "tysiacha"\n' + body, "x", tmp_path)
        loc = info.value.location
        assert loc is not None and Path(loc.file) == tmp_path / "x.rules"
        assert loc.line == line + 1


def test_keep_list_written_in_full_beside_a_change_is_refused() -> None:
    """`keep:` and `keep +:` in one block of one file: the change has nothing to change."""
    text = 'extends "tysiacha"\nmatch {\n  keep: a 0\n  keep +: b 0\n}\n'
    with pytest.raises(trickcore.RulesError, match="written in full") as info:
        trickcore.variant_from_text(text)
    assert info.value.location is not None and info.value.location.line == 4


ENDLESS_BARREL = (
    'extends "tysiacha"\n'
    'name: "Tysiacha: the barrel lasts until you win or fail"\n'
    "match {\n"
    "  keep -: barrel_deals\n"
    "}\n"
    "remove after_deal.barrel_count\n"
    "remove after_deal.barrel_out\n"
    "after_deal {\n"
    "  rule barrel_climb: if not on_barrel and score >= 880 and score < 1000 then"
    " score = 880, on_barrel = yes\n"
    "}\n"
)


def test_T25_dropped_by_dropping_a_kept_name() -> None:
    """`keep -: barrel_deals` drops one inherited kept name and leaves `on_barrel`: without
    T25's count a player stays on the barrel (T23, T24) however many deals pass."""
    v = trickcore.variant_from_text(ENDLESS_BARREL, "endless")
    assert v.model.match.keep == (("on_barrel", "bool", False),)
    assert steps(v) == ["barrel_silence", "barrel_fall", "add", "barrel_climb"]
    m = match_of(
        v, [(MAKE, 0)] * 4, [0, 880, 0], kept=[{"on_barrel": b} for b in (False, True, False)]
    )
    for _ in range(4):
        play_deal(m, 0, 120)
    assert m.scores == [480, 880, 0] and m.kept_state(1) == {"on_barrel": True}


def test_dropping_every_item_of_a_list_is_refused() -> None:
    """A list keeps at least one item; the error says how to delete the setting instead."""
    text = 'extends "tysiacha"\nmatch {\n  keep -: on_barrel, barrel_deals\n}\n'
    with pytest.raises(trickcore.RulesError, match="remove match.keep") as info:
        trickcore.variant_from_text(text)
    assert info.value.location is not None and info.value.location.line == 3


def test_S4_dropping_needs_words_that_name_one_item() -> None:
    """`-:` drops the item its words start; of equal items (S4's `2 each, 2 each`) the last,
    and words that start different items are refused at the child's item."""
    text = 'extends "russisch-schnapsen"\ndeal {\n  pattern -: 2 each\n}\n'
    rules = trickcore.load_rules_text(text, "child")
    pattern = merged_list(rules, "deal", "pattern")
    assert [" ".join(it.parts) for it in pattern] == ["3 each", "3 talon", "2 each"]
    with pytest.raises(trickcore.RulesError, match="2 items of 'pattern' start with '3'") as info:
        trickcore.load_rules_text(text.replace("2 each", "2 each, 3"), "child")
    assert info.value.location is not None
    assert (info.value.location.line, info.value.location.column) == (3, 22)


def test_merged_list_items_keep_their_own_files(tmp_path: Path) -> None:
    """Items from the parent point at the parent, items added by the child at the child:
    a compile error about an added item is at the child's line and column."""
    (tmp_path / "bolts.rules").write_text(BOLTS, encoding="utf-8")
    child = 'extends "./bolts.rules"\nmatch {\n  keep +: streak 0, on_barrel yes\n}\n'
    rules = trickcore.load_rules_text(child, "child", tmp_path)
    files = [Path(it.loc.file).name for it in merged_list(rules, "match", "keep")]
    assert files == [
        "tysiacha.rules",
        "tysiacha.rules",
        "bolts.rules",
        "child.rules",
        "child.rules",
    ]
    errors = compile_errors(rules)
    assert len(errors) == 1 and "'on_barrel' is kept twice" in errors[0].message
    loc = errors[0].location
    assert loc is not None and Path(loc.file) == tmp_path / "child.rules"
    assert (loc.line, loc.column) == (3, 21)


# ------------------------------------------------------------------ blame
def test_T25_dropping_a_name_an_inherited_rule_reads_is_blamed_on_the_child(
    tmp_path: Path,
) -> None:
    """The child drops `barrel_deals` but keeps T25's `barrel_out`, which reads it: the
    error is in the inherited rule, and `blame` names the child line that caused it."""
    text = 'extends "tysiacha"\nmatch {\n  keep -: barrel_deals\n}\n'
    rules = trickcore.load_rules_text(text, "child", tmp_path)
    errors = compile_errors(rules)
    assert errors and "barrel_deals" in errors[0].message
    inherited = errors[0].location
    assert inherited is not None and Path(inherited.file).name == "tysiacha.rules"

    culprit = rules.blame("match.keep.barrel_deals")
    assert culprit is not None and Path(culprit.file) == tmp_path / "child.rules"
    assert (culprit.line, culprit.column) == (3, 11)
    assert rules.blame("match.keep.on_barrel") is None  # untouched item: no blame
    explained = rules.because(errors[0], ["match.keep.on_barrel", "match.keep.barrel_deals"])
    assert explained.location == inherited
    assert explained.message.endswith(f"(because of {culprit})")


def test_blame_follows_removals_replacements_and_the_last_file(tmp_path: Path) -> None:
    """Blame names the last file that changed an entry; entries only ever written once, and
    errors in the blamed file itself, get none."""
    (tmp_path / "mid.rules").write_text(
        'extends "tysiacha"\nscoring {\n  made = deal_points > contract\n}\n', encoding="utf-8"
    )
    child = (
        'extends "./mid.rules"\nremove scoring.deal_points\n'
        "after_deal {\n  rule add before barrel_silence: score = score + gain\n}\n"
    )
    rules = trickcore.load_rules_text(child, "child", tmp_path)
    made = rules.blame(("scoring", "made"))
    assert made is not None and (Path(made.file).name, made.line) == ("mid.rules", 3)
    removed = rules.blame("scoring.deal_points")
    assert removed is not None and (Path(removed.file).name, removed.line) == ("child.rules", 2)
    moved = rules.blame("after_deal.add")
    assert moved is not None and (Path(moved.file).name, moved.line) == ("child.rules", 4)
    assert rules.blame("after_deal.barrel_out") is None
    assert rules.blame("scoring.defender") is None

    # `made` (mid.rules) reads the removed deal_points
    errors = [
        e for e in compile_errors(rules) if e.location and e.location.file.endswith("mid.rules")
    ]
    assert errors and "deal_points" in errors[0].message
    explained = rules.because(errors[0], ["scoring.deal_points", "scoring.made"])
    assert explained.message.endswith(f"(because of {removed})")


# ---------------------------------------------------------------- errors caused by the child
def test_an_inherited_rule_broken_by_the_child_names_the_childs_line():
    """Dropping a kept name that an inherited after_deal rule assigns: the error is at the
    inherited rule (tysiacha.rules) and ends with the child's line that caused it."""
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.variant_from_text(
            'extends "tysiacha"\nmatch {\n  keep -: barrel_deals\n}\n', "child"
        )
    err = info.value
    assert err.location is not None and err.location.file.endswith("tysiacha.rules")
    assert "barrel_deals" in err.message and err.message.endswith("(because of child:3:11)")


def test_removing_an_inherited_definition_names_the_remove_line():
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.variant_from_text('extends "tysiacha"\nremove scoring.made\n', "child")
    assert "unknown name 'made'" in info.value.message
    assert info.value.message.endswith("(because of child:2:1)")
