"""The names rules expressions may read: one registry, from which the compiler's scopes, the
README's table of names and `trickcore show` all come.

Every name is defined once (`QUANTITIES`: its type and meaning); every place an expression can
stand (`PLACES`) lists the names it may read. The engine builds one environment per place,
and `tests/test_vocabulary.py` plays with every name of every place.
"""

from __future__ import annotations

import attrs

from .exprs import BOOL, INT


@attrs.frozen
class Quantity:
    """A name expressions may read: its type (int or bool) and what it means."""

    name: str
    type: str
    meaning: str


@attrs.frozen
class Place:
    """Where expressions stand (some settings) and the names and functions they may read."""

    key: str
    settings: str
    names: tuple[str, ...]
    functions: tuple[str, ...] = ()
    more: str = ""

    def types(self) -> dict[str, str]:
        """Name -> type, the scope the compiler checks an expression of this place in."""
        return {n: QUANTITIES[n].type for n in self.names}


def _q(name: str, type_: str, meaning: str) -> tuple[str, Quantity]:
    return name, Quantity(name, type_, meaning)


QUANTITIES: dict[str, Quantity] = dict(
    [
        # a player's hand (bid caps, the redeal offer)
        _q("melds_in_hand", INT, "the value of the melds held in full in the hand"),
        _q("hand_size", INT, "cards in the hand"),
        _q("deck_points", INT, "card points in the whole deck"),
        _q("all_melds", INT, "the value of every meld of the deck together"),
        _q("contract", INT, "the contract (in a bid or contract cap: the bid to beat)"),
        _q("players", INT, "players in the deal (in a bout's limit: players still in)"),
        # leads and declarations
        _q("first_lead", BOOL, "this is the player's first lead of the deal"),
        _q("tricks_played", INT, "tricks finished so far in the deal"),
        _q("tricks_won", INT, "tricks the player has won"),
        _q("declarer", BOOL, "the player is the declarer"),
        _q("trump_set", BOOL, "a trump suit is set"),
        _q("trump_broken", BOOL, "a trump has been played to a finished trick"),
        _q("card_is_trump", BOOL, "the card in question is a trump"),
        # deal results
        _q("card_points", INT, "card points in the player's tricks"),
        _q("meld_points", INT, "the value of the player's declared melds that count"),
        _q("melds_declared", INT, "the value of every meld the player declared"),
        _q("tricks_total", INT, "tricks in the deal"),
        # games of bouts
        _q("loser", BOOL, "the player is the deal's loser (the last holding cards)"),
        _q("draw", BOOL, "the deal ended as a draw"),
        _q("cards_left", INT, "cards in the player's hand at the end"),
        _q("defender_cards", INT, "cards the defender held when the bout began"),
        _q("bout_number", INT, "the bout's number in the deal, from 1"),
        _q("stock", INT, "cards left in the stock"),
        # the match
        _q("score", INT, "the player's match score (during a deal: as the deal began)"),
        _q("gain", INT, "the player's score for this deal"),
        _q("deal_number", INT, "the number of this played deal in the match, from 1"),
        _q("target", INT, "the match target (0 when there is none)"),
    ]
)

# What every player knows of the match while a deal is played (values as the deal began).
MATCH_STATE = ("deal_number", "score", "target")

PLACES: dict[str, Place] = {
    p.key: p
    for p in (
        Place(
            "hand",
            "bidding `opening` and `cap`, contract `cap`, `redeal.allowed_if`",
            (
                "melds_in_hand",
                "hand_size",
                "contract",
                "deck_points",
                "all_melds",
                "players",
                *MATCH_STATE,
            ),
            ("count_rank(R)", "count_suit(S)"),
            "and the player's `keep` names",
        ),
        Place(
            "declare",
            "`meld.declare_if`",
            ("tricks_won", "tricks_played", "declarer", "first_lead", *MATCH_STATE),
            ("count_rank(R)", "count_suit(S)"),
            "and the player's `keep` names",
        ),
        Place(
            "lead",
            "`play.lead_if`",
            (
                "first_lead",
                "tricks_played",
                "tricks_won",
                "declarer",
                "trump_set",
                "trump_broken",
                "card_is_trump",
                "hand_size",
                *MATCH_STATE,
            ),
            ("card_rank(R)", "card_suit(S)", "count_rank(R)", "count_suit(S)"),
            "and the player's `keep` names",
        ),
        Place(
            "result",
            "`meld.counts_if`, `scoring`",
            (
                "card_points",
                "meld_points",
                "melds_declared",
                "tricks_won",
                "tricks_total",
                "contract",
                "declarer",
                "deck_points",
                "all_melds",
                "players",
                *MATCH_STATE,
            ),
            ("bid_is(Q)",),
            "the player's `keep` names and the scoring definitions",
        ),
        Place(
            "bout_result",
            "`after_deal` of a game of bouts",
            ("loser", "draw", "cards_left", "players"),
        ),
        Place(
            "match",
            "`after_deal` (besides the deal's results above)",
            ("score", "gain", "deal_number", "target"),
            (),
            "and the `keep` names",
        ),
        Place(
            "bout_limit",
            "`bouts.limit`",
            ("defender_cards", "bout_number", "players", "stock"),
        ),
    )
}

HAND_NAMES = PLACES["hand"].types()
LEAD_NAMES = PLACES["lead"].types()
DECLARE_NAMES = PLACES["declare"].types()
RESULT_NAMES = {n: t for n, t in PLACES["result"].types().items() if n not in MATCH_STATE}
BOUT_RESULT_NAMES = PLACES["bout_result"].types()
BOUT_LIMIT_NAMES = PLACES["bout_limit"].types()
MATCH_NAMES = {n: t for n, t in PLACES["match"].types().items() if n != "target"}
MATCH_STATE_NAMES = {n: QUANTITIES[n].type for n in MATCH_STATE}
ASSIGNABLE_BUILTINS = ("score", "gain")


def names_table() -> str:
    """The README's table of names by place (Markdown), generated from the registry."""
    rows = ["| where | names | functions |", "| --- | --- | --- |"]
    for place in PLACES.values():
        names = ", ".join(f"`{n}`" for n in place.names)
        if place.more:
            names += f", {place.more}"
        functions = ", ".join(f"`{f}`" for f in place.functions)
        rows.append(f"| {place.settings} | {names} | {functions} |")
    return "\n".join(rows)


def meanings_table() -> str:
    """The README's table of what each name means (Markdown), generated from the registry."""
    rows = ["| name | type | meaning |", "| --- | --- | --- |"]
    for q in QUANTITIES.values():
        kind = "number" if q.type == INT else "yes/no"
        rows.append(f"| `{q.name}` | {kind} | {q.meaning} |")
    return "\n".join(rows)
