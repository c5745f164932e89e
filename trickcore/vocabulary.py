"""The names rules expressions may read, by the place they are used in (their scopes)."""

from __future__ import annotations

from .exprs import BOOL, INT

HAND_NAMES = {
    "melds_in_hand": INT,
    "hand_size": INT,
    "deck_points": INT,
    "all_melds": INT,
    "contract": INT,
    "players": INT,
}
LEAD_NAMES = {
    "first_lead": BOOL,
    "tricks_played": INT,
    "tricks_won": INT,
    "declarer": BOOL,
    "trump_set": BOOL,
    "trump_broken": BOOL,
    "card_is_trump": BOOL,
    "hand_size": INT,
}
DECLARE_NAMES = {
    "tricks_won": INT,
    "tricks_played": INT,
    "declarer": BOOL,
    "first_lead": BOOL,
}
RESULT_NAMES = {
    "card_points": INT,
    "meld_points": INT,
    "melds_declared": INT,
    "tricks_won": INT,
    "tricks_total": INT,
    "contract": INT,
    "declarer": BOOL,
    "deck_points": INT,
    "all_melds": INT,
    "players": INT,
}
BOUT_RESULT_NAMES = {
    "loser": BOOL,
    "draw": BOOL,
    "cards_left": INT,
    "players": INT,
}
BOUT_LIMIT_NAMES = {"defender_cards": INT, "bout_number": INT, "players": INT, "stock": INT}
MATCH_NAMES = {"score": INT, "gain": INT, "deal_number": INT}
ASSIGNABLE_BUILTINS = ("score", "gain")
