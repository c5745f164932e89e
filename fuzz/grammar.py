"""A grammar-aware hypothesis strategy for small, valid-ish rules texts."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from trickcore.language.vocabulary import QUANTITIES

from .cases import shipped_texts

NUMBERS = st.one_of(
    st.integers(-3, 12),
    st.sampled_from([0, 1, 5, 10, 100, 120, 1000, 999999999, -999999999]),
    st.integers(-(10**9) + 1, 10**9 - 1),
)
SMALL = st.integers(-2, 40)
# every built-in name (from the registry), names the shipped files define, and an unknown one
NAMES = [*QUANTITIES, "made", "deal_points", "on_barrel", "barrel_deals", "durak_count", "x"]
RANKS = ["A", "10", "K", "Q", "J", "9", "8", "7", "6", "O", "U", "AA", "X"]
SUITS = ["S", "C", "D", "H", "G", "E", "B", "AB"]


HAND_INTS = ["melds_in_hand", "hand_size", "contract", "deck_points", "all_melds", "players"]
RESULT_INTS = [
    "card_points",
    "meld_points",
    "melds_declared",
    "tricks_won",
    "tricks_total",
    "contract",
    "deck_points",
    "all_melds",
    "players",
]
MATCH_INTS = [*RESULT_INTS, "score", "gain", "deal_number", "target", "barrel_deals"]
BOUT_INTS = ["defender_cards", "bout_number", "players", "stock"]
LEAD_INTS = ["tricks_played", "tricks_won", "hand_size", "trumps_held"]
LEAD_BOOLS = ["first_lead", "declarer", "trump_set", "trump_broken", "card_is_trump"]
PLACES: dict[str, tuple[list[str], list[str]]] = {
    "hand": (HAND_INTS, []),
    "result": (RESULT_INTS, ["declarer", "made"]),
    "match": (MATCH_INTS, ["declarer", "on_barrel"]),
    "bout_match": (
        ["score", "gain", "deal_number", "cards_left", "players", "durak_count"],
        ["loser", "draw"],
    ),
    "bouts": (BOUT_INTS, []),
    "first_attacker": (
        ["hand_size", "players", "deal_number", "count_rank(A)", "durak_count"],
        ["lowest_trump", "dealer", "holds(AS)", "holds_trump(7)"],
    ),
    "lead": (
        [*LEAD_INTS, "times_led(spades)"],
        [*LEAD_BOOLS, "holds(AS)", "holds_trump(Q)", "trump_is(hearts)"],
    ),
    "declare": (["tricks_won", "tricks_played"], ["declarer", "first_lead"]),
    # a card of the hand, as one is to be laid away (`lay_away_if`)
    "lay_away": (
        ["hand_size", "lay_away_left", "count_suit(hearts)", "count_rank(K)"],
        ["card_is_trump", "card_rank(K)", "card_is(AS)", "holds(x)", "strain_is(spades)"],
    ),
    # a card of the hand, as one is to be passed (`pass_cards.pass_if`)
    "pass_card": (
        ["hand_size", "pass_left", "trumps_held", "count_suit(hearts)", "lay_away_left"],
        ["card_is_trump", "passing_back", "card_rank(Q)", "card_is(QS)", "holds(x)"],
    ),
    # a call of the auction in turns (`bid_if`, `pass_if`, `hold_if`)
    "call": (
        ["level", "contract", "call_round", "bids_made", "bid_suit", "turnup_suit", "x"],
        ["dealer", "dealer_side", "strain_is(spades)", "bid_is(ohne)", "holds(AS)"],
    ),
    "card": (["rank_index", "suit_index"], ["card_in_trump_suit", "trump_set"]),
    "combination": (["length", "top"], ["card_in_trump_suit", "trump_set"]),
    # the play obligations and `play_if`: the trick in progress
    "obligation": (
        ["tricks_played", "stock_left", "cards_in_trick"],
        ["declarer", "stock_closed", "led_trump", "trick_trumped", "partner_winning"],
    ),
    "play": (
        [*LEAD_INTS, "cards_in_trick", "times_led(x)"],
        [*LEAD_BOOLS[1:], "can_follow", "led_trump", "partner_winning", "card_wins"]
        + ["led_suit(spades)", "holds(QS)"],
    ),
    # a finished trick (`after_trick`, and each trick of `sum_tricks`)
    "trick": (
        ["trick_number", "trick_points", "in_trick(QC)", "opponents_played(AD)"],
        ["won_trick", "last_trick", "side_won", "winning_card_is(JC)", "played_to_trick(x)"],
    ),
    # a card just played (`after_card`): the card, the player's hand now
    "card_played": (
        ["cards_in_trick", "tricks_played", "count_suit(hearts)", "count_rank(K)"],
        ["played_it", "card_is_trump", "card_in_trump_suit", "card_is(QS)", "holds_trump(Q)"],
    ),
    # two cards met in a trick (`play.beats`), and the names of the card's player
    "beats": (
        ["card_power", "other_power", "tricks_played", "tricks_won", "cards_played"],
        ["beats_usually", "same_card", "other_is(AS)", "declarer", "count_all(declarer) > 0"],
    ),
    "any": (NAMES, NAMES),
}


def typed(place: str, want: str, depth: int = 2) -> st.SearchStrategy[str]:
    """A `want` ("int" or "bool") expression over the names readable in `place`."""
    ints, bools = PLACES[place]
    int_leaf = st.one_of(NUMBERS.map(str), st.sampled_from(ints)) if ints else NUMBERS.map(str)
    bool_leaf = st.sampled_from(["yes", "no", *bools])
    if depth == 0:
        return int_leaf if want == "int" else bool_leaf
    i = typed(place, "int", depth - 1)
    b = typed(place, "bool", depth - 1)
    if want == "int":
        return st.one_of(
            int_leaf,
            int_leaf,
            st.tuples(i, st.sampled_from(["+", "-", "*"]), i).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            i.map(lambda e: f"-({e})"),
            st.tuples(b, i, i).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
            st.tuples(st.sampled_from(["round", "floor", "ceil", "min", "max"]), i, i).map(
                lambda t: f"{t[0]}({t[1]}, {t[2]})"
            ),
            i.map(lambda e: f"abs({e})"),
        )
    return st.one_of(
        bool_leaf,
        bool_leaf,
        st.tuples(i, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), i).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(b, st.sampled_from(["and", "or"]), b).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        b.map(lambda e: f"not ({e})"),
    )


def expressions() -> st.SearchStrategy[str]:
    """Untyped expressions over every documented name (mostly type or name errors)."""
    return st.one_of(typed("any", "int"), typed("any", "bool"))


def _list(item: st.SearchStrategy[str], lo: int = 1, hi: int = 5) -> st.SearchStrategy[str]:
    return st.lists(item, min_size=lo, max_size=hi).map(", ".join)


YESNO = st.sampled_from(["yes", "no"])
# an obligation is a yes/no or a rule read at each play (the setting's separator included)
OBLIGATION = st.one_of(
    YESNO.map(lambda w: f": {w}"), typed("obligation", "bool").map(lambda e: f" = {e}")
)
SETTINGS: dict[str, dict[str, st.SearchStrategy[str]]] = {
    "deck": {
        "suits": _list(
            st.tuples(
                st.sampled_from(["spades", "clubs", "x", '"Grün"']), st.sampled_from(SUITS)
            ).map(" ".join),
            1,
            6,
        ),
        "ranks": _list(st.sampled_from(RANKS), 1, 9),
        "points": _list(
            st.tuples(st.sampled_from(RANKS), NUMBERS).map(lambda t: f"{t[0]} {t[1]}"), 1, 9
        ),
        "card_points": typed("card", "int"),
        "copies": st.one_of(SMALL.map(str), st.just("x")),  # every card N times
        "without": _list(st.sampled_from(["9S", "AS", "7C", "x", "JD"]), 1, 3),
    },
    "draw_up": {"to": st.one_of(SMALL.map(str), st.just("0"), st.just("x"))},
    "pass_cards": {
        "count": st.one_of(SMALL.map(str), SMALL.map(lambda n: f"{n} each")),
        "to": typed("match", "int").map(lambda e: f" = {e}"),
        "passes_if": typed("result", "bool"),  # a role's names, and some it cannot read
        "receives_if": typed("result", "bool"),  # (with `to`: refused)
        "pass_if": typed("pass_card", "bool"),
        "back": YESNO,
    },
    "deal": {
        "pattern": _list(
            st.one_of(
                st.tuples(SMALL, st.sampled_from(["each", "talon", "turnup"])).map(
                    lambda t: f"{t[0]} {t[1]}"
                ),
                st.tuples(SMALL, SMALL).map(lambda t: f"{t[0]} each {t[1]} times"),
                st.just("rest stock"),
                st.sampled_from(["1 turnup to dealer", "1 turnup to declarer", "1 1 1 0 round"]),
            ),
            1,
            4,
        ),
        "hands": SMALL.map(str),
        "sits_out": st.sampled_from(["dealer", "none", "x"]),
        "stock_top": st.sampled_from(["shown", "hidden", "x"]),
        "next_dealer": st.one_of(
            st.sampled_from(["left", "same", "loser"]).map(lambda w: f": {w}"),
            typed("match", "bool").map(lambda e: f" = {e}"),
        ),
    },
    "bidding": {
        "opening": st.tuples(st.sampled_from(["at_least", "exactly"]), NUMBERS).map(
            lambda t: f"{t[0]} {t[1]}"
        ),
        "forced_opening": YESNO,
        "step": NUMBERS.map(str),
        "pass": st.sampled_from(["drops_out", "stays_in"]),
        "ends": st.one_of(st.just("one_left"), SMALL.map(lambda n: f"passes {n}")),
        "cap": typed("hand", "int"),
        "qualifiers": _list(st.sampled_from(["ohne", "q", "pass", "bid", "x1"]), 1, 4),
        "style": st.sampled_from(["pairs", "calls", "x"]),
        "join": st.sampled_from(["yes", "no", "1"]),
        "values": _list(NUMBERS.map(str), 1, 5),
        "bid_if": typed("call", "bool"),
        "pass_if": typed("call", "bool"),
        "hold_if": typed("call", "bool"),
    },
    "talon": {
        "show": YESNO,
        "give_each_defender": SMALL.map(str),
        "split_if": typed("hand", "bool"),
        "lay_away_if": typed("lay_away", "bool"),
        "lay_away_shown_if": typed("lay_away", "bool"),
    },
    "contract": {"raise": YESNO, "step": NUMBERS.map(str), "cap": typed("hand", "int")},
    "play": {
        "follow": OBLIGATION,
        "trump_when_void": OBLIGATION,
        "beat_in_suit": OBLIGATION,
        "overtrump": OBLIGATION,
        "lead_if": typed("lead", "bool"),
        "play_if": typed("play", "bool"),
        "free_if": st.one_of(typed("lead", "bool"), st.just("card_is(AS) or card_rank(x)")),
        "sets_suit_if": st.one_of(typed("card", "bool"), st.just("not card_is(AS)")),
        "first_leader": st.one_of(
            st.sampled_from(["declarer", "forehand", "holder AS"]).map(lambda w: f": {w}"),
            typed("lead", "bool").map(lambda e: f" = {e}"),
            st.just(" = count_card(QC) == 2"),
        ),
        "trump": st.sampled_from(
            ["turnup", "stock_top", "none", "bid", "first_lead", "spades", "x"]
        ),
        "draw": YESNO,
        # the sides formed as play begins (a hidden partner), over the role and the hand
        "beats": st.one_of(
            st.just("beats_usually or (same_card and card_is(10H) and not last_trick)"),
            st.just("card_power > other_power and other_is(AS)"),
            typed("lead", "bool"),
            # the card's player's names: his role, the aggregates over the table
            typed("beats", "bool"),
            st.just("if card_is(AS) and count_all(declarer) > 0 then declarer else beats_usually"),
        ),
        "side_if": st.one_of(
            typed("lead", "bool"), st.sampled_from(["declarer or holds(AS)", "holds(x)"])
        ),
    },
    "scoring": {
        "declarer": typed("result", "int"),
        "defender": typed("result", "int"),
        "made": typed("result", "bool"),
        "extra": typed("result", "int"),
        # what a deal is worth to the bots and the arena (a number; a yes/no is an error)
        "progress": st.one_of(typed("result", "int"), typed("result", "bool")),
        # single tricks: sum_tricks / count_tricks over each finished trick
        "tricks": st.one_of(
            typed("trick", "int").map(lambda e: f"sum_tricks({e})"),
            typed("trick", "bool").map(lambda e: f"count_tricks({e})"),
        ),
    },
    "define": {
        "own_total": typed("any", "int"),
        "made": typed("result", "bool"),
        "loop": st.just("loop + 1"),
    },
    "decision call": {
        "at": st.sampled_from(["card", "lead", "card, lead", "before tricks"]),
        "offer_if": typed("lead", "bool"),
        "forced_if": st.sampled_from(
            ["yes", "no", "declarer", "tricks_played > 0", "turnup_rank(K)", "out_left > 2"]
        ),
        "public": YESNO,
        "again": st.sampled_from(["yes", "no", "x"]),
        "effect": st.sampled_from(
            ["end_deal", "redeal", "close_stock", "skip tricks", "exchange_out 2"]
            + ["exchange_out 0 to 3", "exchange_out 3 to 1", "x"]
        ),
    },
    "choice game": {
        "at": st.sampled_from(["before tricks", "card"]),
        "options": _list(st.sampled_from(["solo", "grand", "pass", "x"]), 1, 3),
        "declares": st.sampled_from(["yes", "no", "x"]),
        "trump": _list(st.sampled_from(["solo none", "grand spades", "x none"]), 1, 2),
        "offer_if": typed("lead", "bool"),
    },
    "match": {
        "target": st.one_of(NUMBERS.map(str), st.just("none")),
        "deal_limit": NUMBERS.map(str),
        "tie_break": _list(st.sampled_from(["declarer", "highest"]), 1, 3),
        "keep": _list(
            st.tuples(st.sampled_from(NAMES), st.sampled_from(["0", "yes", "no", "5", "-1"])).map(
                " ".join
            ),
            1,
            3,
        ),
        "rank_by": typed("match", "int"),
        "carry": _list(st.sampled_from(NAMES[-5:] + ["score"]), 1, 2),
    },
    "bouts": {
        "attack": st.sampled_from(["same_rank", "one_card"]),
        "throw_in_by": st.sampled_from(["all", "attacker", "neighbours"]),
        "skip_unable": YESNO,
        "limit": typed("bouts", "int"),
        "throw_after_take": YESNO,
        "refill_to": SMALL.map(str),
        "refill_order": st.sampled_from(["attacker_first", "defender_last"]),
        "first_attacker": st.one_of(
            st.sampled_from(["left_of_dealer", "lowest_trump"]).map(lambda w: f": {w}"),
            typed("first_attacker", "bool").map(lambda e: f" = {e}"),
        ),
        "next_attacker_after_defence": st.sampled_from(["defender", "after_defender"]),
        "next_attacker_after_take": st.sampled_from(["after_defender", "defender"]),
        "swap_rank": st.sampled_from(RANKS + ["none"]),
        "transfer": YESNO,
        "max_bouts": NUMBERS.map(str),
        "trump_if_no_stock": st.sampled_from(["last_dealt", "none"]),
    },
    "redeal": {"allowed_if": typed("hand", "bool"), "same_dealer": YESNO},
    "combination run": {
        "run": st.one_of(SMALL.map(str), st.just("x")),
        "same_rank": SMALL.map(str),
        "cards": _list(st.sampled_from(RANKS + ["QS", "JD"]), 1, 3),
        "order": _list(st.sampled_from(RANKS), 1, 9),
        "value": typed("combination", "int").map(lambda e: f" = {e}"),
        "strength": typed("combination", "int").map(lambda e: f" = {e}"),
    },
    "meld marriage": {
        "cards": _list(st.sampled_from(RANKS), 1, 3),
        "value": _list(
            st.tuples(st.sampled_from(SUITS + ["spades"]), NUMBERS).map(lambda t: f"{t[0]} {t[1]}"),
            1,
            5,
        ),
        "declare_if": typed("declare", "bool"),
        "counts_if": typed("result", "bool"),
        "sets_trump": YESNO,
    },
}
EXPRESSION_SETTINGS = {
    "side_if",
    "beats",
    "cap",
    "split_if",
    "lead_if",
    "declarer",
    "defender",
    "made",
    "extra",
    "rank_by",
    "limit",
    "allowed_if",
    "declare_if",
    "counts_if",
    "play_if",
    "free_if",
    "sets_suit_if",
    "lay_away_if",
    "lay_away_shown_if",
    "forced_if",
    "card_points",
    "tricks",
    "own_total",
    "loop",
    "offer_if",
    "passes_if",
    "receives_if",
    "pass_if",
    "bid_if",
    "hold_if",
}
# settings whose drawn text starts with its own separator (": " or " = ")
OWN_SEPARATOR = {
    "follow",
    "trump_when_void",
    "beat_in_suit",
    "overtrump",
    "next_dealer",
    "first_leader",
}
OWN_SEPARATOR_IN = {
    ("bouts", "first_attacker"),
    ("combination run", "value"),
    ("combination run", "strength"),
    ("pass_cards", "to"),
}


BOUT_BLOCKS = ["bouts", "deal", "deck", "match"]
TRICK_BLOCKS = [b for b in SETTINGS if b != "bouts"]


@st.composite
def blocks(draw: st.DrawFn, choices: list[str]) -> str:
    """One block (of `choices`) with one to four of its settings."""
    block = draw(st.sampled_from(sorted(choices)))
    names = draw(
        st.lists(st.sampled_from(sorted(SETTINGS[block])), min_size=1, max_size=4, unique=True)
    )
    lines = []
    for name in names:
        own = name in OWN_SEPARATOR or (block, name) in OWN_SEPARATOR_IN
        sep = "" if own else " = " if name in EXPRESSION_SETTINGS else ": "
        lines.append(f"  {name}{sep}{draw(SETTINGS[block][name])}")
    return f"{block} {{\n" + "\n".join(lines) + "\n}\n"


@st.composite
def after_trick(draw: st.DrawFn) -> str:
    """An after_trick block with a few rules over the trick just finished."""
    rules = []
    for i in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(["partner", "seen", "claimed", "x"]))
        cond = draw(st.one_of(st.just(""), typed("trick", "bool").map(lambda e: f"if {e} then ")))
        rules.append(f"  rule t{i}: {cond}{target} = {draw(typed('trick', 'int'))}")
    return "after_trick {\n" + "\n".join(rules) + "\n}\n"


@st.composite
def after_card(draw: st.DrawFn) -> str:
    """An after_card block with a few rules over the card just played."""
    rules = []
    for i in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(["belote_said", "seen", "claimed", "x"]))
        cond = draw(
            st.one_of(st.just(""), typed("card_played", "bool").map(lambda e: f"if {e} then "))
        )
        rules.append(f"  rule c{i}: {cond}{target} = {draw(typed('card_played', 'int'))}")
    return "after_card {\n" + "\n".join(rules) + "\n}\n"


@st.composite
def after_deal(draw: st.DrawFn, bouts: bool) -> str:
    """An after_deal block with a few rules."""
    place = "bout_match" if bouts else "match"
    targets = ["score", "gain", "durak_count"] if bouts else ["score", "gain", "barrel_deals"]
    rules = []
    for i in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(targets))
        cond = draw(st.one_of(st.just(""), typed(place, "bool").map(lambda e: f"if {e} then ")))
        rules.append(f"  rule r{i}: {cond}{target} = {draw(typed(place, 'int'))}")
    return "after_deal {\n" + "\n".join(rules) + "\n}\n"


REMOVABLE = ["deck", "bidding", "scoring.declarer", "match.deal_limit", "after_deal.add", "bouts"]
PLAYERS = st.one_of(st.integers(2, 8), SMALL)


@st.composite
def rules_text(draw: st.DrawFn) -> str:
    """A small rules text: usually `extends` a shipped variant and overrides a few settings."""
    parts = []
    base = draw(st.sampled_from(sorted(shipped_texts())))
    bouts = "durak" in base
    if draw(st.integers(0, 19)) > 0:
        parts.append(f'extends "{base}"\n')
    if draw(st.integers(0, 3)) == 0:
        parts.append(f"players: {draw(_list(PLAYERS.map(str), 1, 3))}\n")
    choices = BOUT_BLOCKS if bouts else TRICK_BLOCKS
    if draw(st.integers(0, 9)) == 0:
        choices = list(SETTINGS)
    for _ in range(draw(st.integers(1, 3))):
        parts.append(
            draw(
                st.one_of(
                    blocks(choices),
                    blocks(choices),
                    after_deal(bouts),
                    after_trick(),
                    after_card(),
                )
            )
        )
    if draw(st.integers(0, 19)) == 0:
        parts.append(f"remove {draw(st.sampled_from(REMOVABLE))}\n")
    return "".join(parts)


def rules_texts(count: int, seed_value: int) -> list[str]:
    """Draw `count` rules texts, the same ones for the same seed."""
    out: list[str] = []

    @settings(
        max_examples=count,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @seed(seed_value)
    @given(rules_text())
    def collect(text: str) -> None:
        out.append(text)

    collect()
    return out[:count]
