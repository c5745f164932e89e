"""The blocks, settings and words this restatement follows: a rules file that uses any other
is refused as "not restated" rather than checked by rules the checker does not know."""

from __future__ import annotations

from ...language import syntax as s
from ...language.loader import MergedBlock
from .errors import ReferenceError
from .rules_text import items_of, words_of

# The settings this restatement follows, block by block (ANY_SETTING below: any
# definition or rule). A setting the language gains later is not followed until it is added
# here and restated: until then a file that uses it is refused as "not restated".
RESTATED: dict[str, set[str]] = {
    "variant": {"name", "players", "sides"},
    "deck": {"suits", "ranks", "points", "card_points", "copies", "without"},
    "meld": {"cards", "suits", "value", "trump_value", "announce", "declare_if", "counts_if"}
    | {"sets_trump"},
    "decision": {"at", "who", "first_asked", "offer_if", "after_announce", "effect", "public"}
    | {"forced_if", "again"},
    "choice": {"at", "who", "options", "trump", "first_asked", "offer_if", "own", "declares"},
    "deal": {"pattern", "hands", "sits_out", "next_dealer", "flow", "keep", "size", "stock_top"},
    "redeal": {"allowed_if", "forced_if", "same_dealer"},
    "bidding": {"opening", "forced_opening", "step", "pass", "ends", "cap", "qualifiers"}
    | {"style", "values", "all_pass", "strains", "levels", "bid_if", "pass_if", "rounds"}
    | {"double", "declarer", "first_caller", "join", "hold_if"},
    "pickup": {"who", "take_if", "lay_away", "lay_away_if", "lay_away_shown_if"},
    "draw_up": {"to"},
    "combination": {"run", "same_rank", "cards", "order", "value", "strength"},
    "talon": {"show", "give_each_defender", "split_if", "lay_away", "counts_for_if"}
    | {"lay_away_if", "lay_away_shown_if"},
    "contract": {"raise", "step", "cap", "raise_if"},
    "play": {"follow", "trump_when_void", "beat_in_suit", "overtrump", "lead_if", "play_if"}
    | {"free_if", "sets_suit_if"}
    | {"first_leader", "trump", "draw", "trump_power", "power", "open_hand_if", "stop_if"}
    | {"sit_out_if", "partner_plays_if", "trump_if", "talon_leads", "skip_if", "side_if"}
    | {"beats"},
    "pass_cards": {"count", "to", "passes_if", "back", "receives_if", "pass_if"},
    "bids": {"min", "max", "blind_if", "blind", "bid_if"},
    # `carry` changes nothing within a match: only where a next one starts (`after=`)
    "match": {"target", "deal_limit", "redeal_limit", "tie_break", "keep", "rank_by", "end_if"}
    | {"carry"},
    "bouts": {"attack", "throw_in_by", "skip_unable", "limit", "throw_after_take", "refill_to"}
    | {"refill_order", "next_attacker_after_defence", "next_attacker_after_take", "swap_rank"}
    | {"transfer", "max_bouts", "trump_if_no_stock", "first_attacker", "throw_in", "beats"},
}
# blocks of any definitions or rule lines (`define`: written into the rules by the loader
# before anything reads them, so followed wherever they are used)
ANY_SETTING = ("scoring", "after_deal", "after_trick", "after_card", "define")


def check_restated(root: MergedBlock, name: str) -> None:
    """ReferenceError when the rules use a block or setting this restatement does not follow
    (the checker would otherwise judge the engine by rules it does not know)."""
    missing = [
        f"'{key}'"
        for key, entry in root.entries.items()
        if not isinstance(entry, MergedBlock) and key not in RESTATED["variant"]
    ]
    for key, entry in root.entries.items():
        if not isinstance(entry, MergedBlock) or entry.kind in ANY_SETTING:
            continue
        known = RESTATED.get(entry.kind)
        if known is None:
            missing.append(f"'{key}'")
            continue
        if entry.kind == "choice":
            known = known | {f"{parts[0]}_if" for parts in items_of(entry, "options")}
        allowed_steps = entry.kind == "decision"
        for setting_name, setting in entry.entries.items():
            if isinstance(setting, s.Step) and allowed_steps:
                continue
            if setting_name not in known:
                missing.append(f"'{key}.{setting_name}'")
    if missing:
        raise ReferenceError(
            f"the checker does not restate {', '.join(missing)} yet: {name} cannot be checked"
        )


# The words of the settings whose meaning this restatement chooses between: a word the
# language gains later is refused as "not restated" rather than read as another.
RESTATED_WORDS: dict[tuple[str, str], set[str]] = {
    ("play", "first_leader"): {"declarer", "forehand", "holder", "left_of_declarer"},
    ("pickup", "who"): {"dealer", "declarer"},
    ("bidding", "ends"): {"one_left", "passes", "first_bid"},
    ("bidding", "declarer"): {"last_bidder", "first_to_name"},
    ("bidding", "first_caller"): {"forehand", "dealer"},
    ("bidding", "levels"): {"none"},
    ("bidding", "pass"): {"drops_out", "stays_in"},
    ("bidding", "all_pass"): {"redeal", "played", "play_on"},
    ("deal", "next_dealer"): {"left", "same", "loser"},
    ("deal", "sits_out"): {"dealer", "none"},
    ("deal", "stock_top"): {"shown", "hidden"},
    ("bouts", "first_attacker"): {"left_of_dealer", "lowest_trump"},
}
PATTERN_WORDS = {
    *("each", "talon", "stock", "turnup", "out", "round", "times", "rest", "size", "to", "dealer")
}


def check_words(root: MergedBlock, name: str) -> None:
    """ReferenceError when a setting of RESTATED_WORDS, or the deal pattern, uses a word
    this restatement does not know."""
    unknown = [
        f"'{block}.{setting}: {parts[0]}'"
        for (block, setting), known in RESTATED_WORDS.items()
        for parts in words_of(root, block, setting)
        if parts[0] not in known
    ]
    unknown += [
        f"'deal.pattern: {' '.join(parts)}'"
        for parts in words_of(root, "deal", "pattern")
        if any(not w.isdigit() and w not in PATTERN_WORDS for w in parts)
    ]
    if unknown:
        raise ReferenceError(
            f"the checker does not restate {', '.join(unknown)} yet: {name} cannot be checked"
        )
