"""The names rules expressions may read: one registry, from which the compiler's scopes, the
the manual's tables of names (docs/language.md) and functions and `trickcore show` all come.

Every name is defined once (`QUANTITIES`: its type, meaning and an example); every place an
expression can stand (`PLACES`) lists the names it may read. Every function has an example too
(`FUNCTIONS`, beside its help text in `exprs.py`). The engine builds one environment per
place; `tests/test_vocabulary.py` plays with every name of every place, and
`tests/test_vocabulary_examples.py` compiles every example in a shipped variant.
"""

from __future__ import annotations

import attrs

from .exprs import ALL_FUNCS, BOOL, INT


@attrs.frozen
class Quantity:
    """A name expressions may read: its type (int or bool), what it means, and an example: a
    line of a rules file that reads it, shown with its block, `BLOCK [NAME] { SETTING = EXPR }`
    or `BLOCK [NAME] { rule ... }` (in a file the line stands on its own inside the block)."""

    name: str
    type: str
    meaning: str
    example: str


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


@attrs.frozen
class Function:
    """A function expressions may call: how it is written (`holds(C)`), what it gives (both
    from its help text in `exprs.py`) and an example, written as a `Quantity`'s."""

    name: str
    signature: str
    meaning: str
    example: str


def _q(name: str, type_: str, meaning: str, example: str) -> tuple[str, Quantity]:
    return name, Quantity(name, type_, meaning, example)


def _f(name: str, example: str) -> tuple[str, Function]:
    signature, meaning = ALL_FUNCS[name].split(": ", 1)
    return name, Function(name, signature, meaning, example)


QUANTITIES: dict[str, Quantity] = dict(
    [
        # a player's hand (bid caps, the redeal offer)
        _q(
            "melds_in_hand",
            INT,
            "the value of the melds held in full in the hand",
            "bidding { cap = 120 + melds_in_hand }",
        ),
        _q("hand_size", INT, "cards in the hand", "bids { max = hand_size }"),
        _q(
            "lowest_trump",
            BOOL,
            "the player holds the lowest trump dealt to any player (in a game of bouts)",
            "bouts { first_attacker = deal_number == 1 and lowest_trump }",
        ),
        _q(
            "lay_away_left",
            INT,
            "the cards still to lay away, this one included",
            "talon { lay_away_if = not card_rank(A) or lay_away_left == 1 }",
        ),
        _q(
            "pass_left",
            INT,
            "the cards still to pass, this one included",
            "pass_cards { pass_if = not card_is(QS) or pass_left == 1 }",
        ),
        _q(
            "passing_back",
            BOOL,
            "the cards chosen now go back to the player they came from (`back: yes`)",
            "pass_cards { pass_if = passing_back or card_is_trump or trumps_held == 0 }",
        ),
        _q(
            "trumps_held",
            INT,
            "the trumps in the player's hand (every card that is a trump in this deal)",
            "play { lead_if = not card_is_trump or trump_broken or trumps_held == hand_size }",
        ),
        _q(
            "deck_points",
            INT,
            "card points in the whole deck",
            "scoring { others_points = deck_points - card_points }",
        ),
        _q(
            "all_melds",
            INT,
            "the value of every meld of the deck together",
            "bidding { cap = deck_points + all_melds }",
        ),
        _q(
            "contract",
            INT,
            "the contract (in a bid or contract cap, and in bidding `bid_if` and `pass_if`: the "
            "level of the bid to beat, 0 before the first bid)",
            "scoring { made = deal_points >= contract }",
        ),
        _q(
            "players",
            INT,
            "players in the deal (in a bout's limit: players still in)",
            "match { end_if = deal_number >= 2 * div(52, players) - 1 }",
        ),
        # leads and declarations
        _q(
            "first_lead",
            BOOL,
            "this is the player's first lead of the deal",
            "play { lead_if = not first_lead or not card_rank(A) }",
        ),
        _q(
            "tricks_played",
            INT,
            "tricks finished so far in the deal",
            "play { lead_if = tricks_played > 0 or card_is(2C) }",
        ),
        _q(
            "tricks_won",
            INT,
            "tricks the player has won",
            "scoring { made = tricks_won >= contract }",
        ),
        _q(
            "declarer",
            BOOL,
            "the player is the declarer",
            "play { open_hand_if = declarer and (ouvert or null_ouvert) }",
        ),
        _q(
            "trump_set",
            BOOL,
            "a trump suit is set (a card that is a trump by `trump_power` alone, as a joker in "
            "no trumps, sets none)",
            "play { trump_power = if card_in_trump_suit or (not trump_set and card_suit(herz)) "
            "then 10 - rank_index else 0 }",
        ),
        _q(
            "trump_broken",
            BOOL,
            "a trump has been played to a finished trick",
            "play { lead_if = not card_is_trump or trump_broken }",
        ),
        _q(
            "card_is_trump",
            BOOL,
            "the card in question is a trump",
            "play { lead_if = not card_is_trump or trump_broken or count_suit(spades) == "
            "hand_size }",
        ),
        _q(
            "rank_index",
            INT,
            "the card's rank in the deck's list of ranks, 0 for the first",
            "play { power = 10 - rank_index }",
        ),
        _q(
            "suit_index",
            INT,
            "the card's suit in the deck's list of suits, 0 for the first",
            "play { trump_power = if card_rank(J) then 20 - suit_index else if card_in_trump_suit "
            "then 10 - rank_index else 0 }",
        ),
        _q(
            "card_in_trump_suit",
            BOOL,
            "the card belongs to the suit that is trump",
            "deck { card_points = if card_rank(9) and card_in_trump_suit then 14 else if "
            "card_rank(A) then 11 else 0 }",
        ),
        _q(
            "can_follow",
            BOOL,
            "the player holds a card of the suit led to this trick",
            "play { play_if = tricks_played > 0 or can_follow or not card_suit(hearts) }",
        ),
        # the trick in progress (obligations and `play_if`, as the player is to play to it)
        _q(
            "cards_in_trick",
            INT,
            "cards played to the trick in progress so far",
            "play { beat_in_suit = cards_in_trick == 1 }",
        ),
        _q(
            "led_trump",
            BOOL,
            "the card led to the trick in progress is a trump",
            "play { beat_in_suit = led_trump }",
        ),
        _q(
            "trick_trumped",
            BOOL,
            "a trump lies in the trick in progress (the card led included)",
            "play { trump_when_void = not partner_winning and not trick_trumped }",
        ),
        _q(
            "partner_winning",
            BOOL,
            "the card winning the trick so far is his partner's (another player of his side; "
            "without sides, against a declarer: another defender)",
            "play { trump_when_void = not partner_winning }",
        ),
        _q(
            "card_wins",
            BOOL,
            "the card in question would win the trick as it stands (it beats the card winning it "
            "so far)",
            "play { play_if = can_follow or partner_winning or not trick_trumped or card_wins }",
        ),
        _q(
            "stock_left",
            INT,
            "cards in a trick game's stock, the turned-up card included",
            "play { follow = stock_closed or stock_left == 0 }",
        ),
        _q(
            "stock_closed",
            BOOL,
            "a decision closed the stock: nobody draws any more",
            "scoring { played_out = not stock_closed and tricks_played == tricks_total }",
        ),
        _q(
            "out_left",
            INT,
            "the cards left out of the deal (`out` in the pattern) that nobody has held: an "
            "`exchange_out N` draws them first, the cards laid away going under them",
            "decision exchange { offer_if = out_left >= 3 and count_rank(9) + count_rank(10) "
            "== 5 }",
        ),
        _q(
            "won_last_trick",
            BOOL,
            "the player won the last trick of a deal played out",
            "scoring { bonus = if won_last_trick and not stock_closed then 10 else 0 }",
        ),
        _q(
            "top_trumps",
            INT,
            "with the highest trump among his side's cards (the hands of his side as play began, "
            "himself alone without sides, and the talon cards counted for one of them): how many "
            "trumps they hold in an unbroken run from the top; without it: how many trumps are "
            "above their highest (all, if they have none)",
            "scoring { laufende = if top_trumps >= 3 then top_trumps else 0 }",
        ),
        # the combinations of a hand (`combination NAME` blocks)
        _q(
            "combination_points",
            INT,
            "the value of every combination in the player's hand (in scoring and `after_trick`: as "
            "trick play began)",
            "scoring { declared_points = if declared then combination_points else 0 }",
        ),
        _q(
            "best_combination",
            INT,
            "the highest `strength` of the combinations in the player's hand (0 without any; in "
            "scoring and `after_trick`: as trick play began)",
            "decision declare { offer_if = tricks_played == 0 and best_combination > 0 and not "
            "declared }",
        ),
        _q(
            "value",
            INT,
            "the combination's value (in its `strength`)",
            "combination carre { strength = 1000 * value + 500 - top }",
        ),
        _q(
            "length",
            INT,
            "the combination's cards: a run's length, the suits held of its rank, or the cards "
            "it names (copies of a card count once)",
            "combination sequence { value = if length == 3 then 20 else if length == 4 then 50 "
            "else 100 }",
        ),
        _q(
            "times",
            INT,
            "how often the combination is held whole: the fewest copies held of any of its "
            "cards (of a run: of its longest run; always 1 in a deck of every card once)",
            "combination carre { value = if times == 2 then 1000 else 100 }",
        ),
        _q(
            "card_in_combination",
            BOOL,
            "the card in question is one of the cards of a combination in its holder's hand "
            "as trick play began (none before)",
            "play { open_hand_if = card_in_combination and declared and tricks_played >= 1 }",
        ),
        _q(
            "top",
            INT,
            "the place in the combination's `order` of its highest rank, 0 for the first",
            "combination sequence { strength = 1000 * value + 20 * length - 2 * top }",
        ),
        _q(
            "position",
            INT,
            "the player's place in deal order: 0 for the player left of the dealer (forehand), "
            "the dealer last; -1 for one sitting the deal out",
            "scoring { shown = if declared then 4 * best_combination + 3 - position else 0 }",
        ),
        # deal results
        _q(
            "card_points",
            INT,
            "card points in the player's tricks",
            "scoring { one_sided = card_points >= 90 or card_points <= 30 }",
        ),
        _q(
            "meld_points",
            INT,
            "the value of the player's declared melds that count",
            "scoring { deal_points = card_points + meld_points }",
        ),
        _q(
            "melds_declared",
            INT,
            "the value of every meld the player declared",
            "scoring { void_melds = melds_declared - meld_points }",
        ),
        _q(
            "tricks_total",
            INT,
            "tricks in the deal (0 before trick play begins)",
            "scoring { schwarz = tricks_won == 0 or tricks_won == tricks_total }",
        ),
        # a finished trick (`after_trick`, and each trick in `sum_tricks(x)`)
        _q(
            "won_trick",
            BOOL,
            "the player won the trick",
            "after_trick { rule partner: if hochzeit and clarified == 0 and tricks_played <= 3 "
            "and won_trick and not reservation then partner = yes }",
        ),
        _q(
            "trick_number",
            INT,
            "the trick's number in the deal, from 1",
            "scoring { first_trick_points = sum_tricks(if trick_number == 1 and won_trick then "
            "trick_points else 0) }",
        ),
        _q(
            "trick_points",
            INT,
            "card points in the trick (with the trump in force then)",
            "scoring { doppelkopfs = sum_tricks(if side_won and trick_points >= 40 then 1 else 0) "
            "}",
        ),
        _q(
            "trick_combination_points",
            INT,
            "the values of the combinations (`combination` blocks) among the trick's cards, "
            "with the trump in force then (a file with combination blocks)",
            "scoring { patterns_won = sum_tricks(if side_won then trick_combination_points else "
            "0) }",
        ),
        # two cards met in a trick or a bout (`play.beats`, `bouts.beats`): the card in
        # question against the other (the card winning the trick so far; the attack card)
        _q(
            "card_power",
            INT,
            "the card's power: its `trump_power` if a trump, else its `power` (by default its "
            "rank, the highest the most)",
            "play { beats = card_power > other_power or (same_card and card_is(10H)) }",
        ),
        _q(
            "other_power",
            INT,
            "the power of the other card (as `card_power`)",
            "play { beats = beats_usually or (same_card and other_power == 40) }",
        ),
        _q(
            "other_trump",
            BOOL,
            "the other card is a trump",
            "play { beats = if card_is_trump then not other_trump or card_power > other_power "
            "else beats_usually }",
        ),
        _q(
            "same_card",
            BOOL,
            "the two cards are copies of one card (`deck { copies: N }`)",
            "play { beats = beats_usually or (same_card and card_is(10H) and not last_trick) }",
        ),
        _q(
            "follows_led",
            BOOL,
            "the card is of the suit led to the trick (its effective suit: a trump follows a "
            "trump lead)",
            "play { beats = beats_usually or (follows_led and card_rank(9) and other_is(AH)) }",
        ),
        _q(
            "same_suit",
            BOOL,
            "the two cards are of one suit",
            "bouts { beats = beats_usually or (same_suit and card_rank(6) and other_rank(A)) }",
        ),
        _q(
            "beats_usually",
            BOOL,
            "the card beats the other by the usual rule (a trick: a higher trump, or with no "
            "trump against it a higher card of the suit led; a bout: a higher card of the suit, "
            "or a trump against a plain card)",
            "play { beats = beats_usually or (same_card and card_is(10H) and not last_trick) }",
        ),
        # a card just played (`after_card`)
        _q(
            "played_it",
            BOOL,
            "the player is the one who played the card",
            "after_card { rule belote: if played_it and card_in_trump_suit and card_rank(K) "
            "and holds_trump(Q) then belote_said = yes }",
        ),
        _q(
            "last_trick",
            BOOL,
            "the trick is the deal's last (its number is `tricks_total`)",
            "scoring { karlchen = sum_tricks(if last_trick and side_won and winning_card_is(JC) "
            "then 1 else 0) }",
        ),
        _q(
            "side_won",
            BOOL,
            "the player's side won the trick (himself or a partner, with the deal's sides as they "
            "are at the end)",
            "scoring { foxes = sum_tricks(if side_won then opponents_played(AD) else 0) }",
        ),
        _q(
            "tricks_bid",
            INT,
            "the player's bid in a `bids` phase (0 without one)",
            "scoring { player = if tricks_won == tricks_bid then 10 + tricks_bid else 0 }",
        ),
        _q(
            "has_bid",
            BOOL,
            "the player has made his bid in the `bids` phase",
            "bids { bid_if = count_side(has_bid) == 0 or level == 0 or sum_side(tricks_bid) + "
            "level >= 4 }",
        ),
        _q(
            "bid_blind",
            BOOL,
            "the player bid blind (before looking at his hand)",
            "scoring { blind_bonus = if bid_blind and tricks_won == 0 then 200 else 0 }",
        ),
        # the deal's size, calls with strains, roles
        _q(
            "deck_size",
            INT,
            "cards in the deck",
            "deal { size = min(deal_number, div(deck_size - 1, players)) }",
        ),
        _q(
            "size",
            INT,
            "the deal's `size` (1 without one)",
            "play { trump_if = size < div(52, players) }",
        ),
        _q(
            "seats",
            INT,
            "players seated at the table (some may sit a deal out)",
            "scoring { sits = dealer and seats > players }",
        ),
        _q(
            "seat",
            INT,
            "the player's seat, from 0 (seat 0 deals the first deal)",
            "scoring { decl_term = if declarer then seat else 0 }",
        ),
        _q(
            "level",
            INT,
            "the level of the bid in question (0 without levels)",
            "bidding { bid_if = if strain_is(misere) then level == 8 and bids_made == 0 else not "
            "named_strain(misere) }",
        ),
        _q(
            "bid_suit",
            INT,
            "the suit index of the bid's strain (-1 for a strain without trump)",
            "bidding { bid_if = if call_round == 1 then bid_suit == turnup_suit else bid_suit != "
            "turnup_suit }",
        ),
        _q(
            "turnup_suit",
            INT,
            "the suit index of the turned-up card (-1 if none, or once it was taken or drawn)",
            "bidding { bid_if = if call_round == 1 then bid_suit == turnup_suit else bid_suit != "
            "turnup_suit }",
        ),
        _q(
            "call_round",
            INT,
            "the round of calls round the table, from 1",
            "bidding { pass_if = not (dealer and call_round == 2) }",
        ),
        _q(
            "bids_made",
            INT,
            "bids the player made before in this auction (in `bids`: players who bid so far)",
            "bidding { bid_if = if strain_is(misere) then level == 8 and bids_made == 0 else not "
            "named_strain(misere) }",
        ),
        _q(
            "bids_total",
            INT,
            "the sum of the bids made so far in the deal",
            "bids { bid_if = not dealer or level + bids_total != hand_size }",
        ),
        _q(
            "dealer",
            BOOL,
            "the player is the dealer",
            "bids { bid_if = not dealer or level + bids_total != hand_size }",
        ),
        _q(
            "dealer_side",
            BOOL,
            "the dealer is the player or on the player's side",
            "bidding { bid_if = not (call_round == 1 and dealer_side and not dealer and not "
            "bid_is(alone)) }",
        ),
        _q(
            "doubled",
            BOOL,
            "the contract is doubled (not redoubled)",
            "scoring { factor = if redoubled then 4 else if doubled then 2 else 1 }",
        ),
        _q(
            "redoubled",
            BOOL,
            "the contract is redoubled",
            "scoring { insult = if redoubled then 100 else if doubled then 50 else 0 }",
        ),
        _q(
            "bid_round",
            INT,
            "the round of calls in which the winning bid was made (0 if none)",
            "pickup { take_if = bid_round == 1 }",
        ),
        _q(
            "declarer_side",
            BOOL,
            "the player is the declarer or on the declarer's side",
            "play { sit_out_if = declarer_side and not declarer and bid_is(alone) }",
        ),
        _q(
            "side",
            INT,
            "the player's side: its place in `sides:` from 0; with `play.side_if`, once trick "
            "play began, 0 where it holds and 1 where not (otherwise his seat)",
            "scoring { re = side == 0 }",
        ),
        _q(
            "cards_played",
            INT,
            "cards played to tricks in the deal, the current trick included",
            "play { open_hand_if = declarer_side and not declarer and cards_played > 0 }",
        ),
        # games of bouts
        _q(
            "loser",
            BOOL,
            "the player is the deal's loser (the last holding cards)",
            "after_deal { rule count: if loser then durak_count = durak_count + 1 }",
        ),
        _q(
            "draw",
            BOOL,
            "the deal ended as a draw",
            "after_deal { rule count: if loser or draw then durak_count = durak_count + 1 }",
        ),
        _q(
            "cards_left",
            INT,
            "cards in the player's hand at the end",
            "after_deal { rule count: if loser then durak_count = durak_count + cards_left }",
        ),
        _q(
            "defender_cards",
            INT,
            "cards the defender held when the bout began",
            "bouts { limit = min(6, defender_cards) }",
        ),
        _q(
            "bout_number",
            INT,
            "the bout's number in the deal, from 1",
            "bouts { limit = if bout_number == 1 then min(5, defender_cards) else min(6, "
            "defender_cards) }",
        ),
        _q(
            "stock",
            INT,
            "cards left in the stock",
            "bouts { limit = if stock == 0 then defender_cards else min(6, defender_cards) }",
        ),
        # the match
        _q(
            "score",
            INT,
            "the player's match score (during a deal: as the deal began)",
            "match { end_if = score >= 500 }",
        ),
        _q(
            "gain",
            INT,
            "the player's score for this deal",
            "after_deal { rule add: score = score + gain }",
        ),
        _q(
            "deal_number",
            INT,
            "the number of this played deal in the match, from 1",
            "pass_cards { to = pick(mod(deal_number - 1, 4), 1, 3, 2, 0) }",
        ),
        _q(
            "target",
            INT,
            "the match target (0 when there is none)",
            "match { end_if = score >= target }",
        ),
        _q(
            "max_other_score",
            INT,
            "the highest match score of a player not on the player's side (0 if none)",
            "bids { blind_if = max_other_score - score >= 100 }",
        ),
    ]
)

# The functions expressions may call, each with an example (what each gives: its help text in
# `exprs.py`).
FUNCTIONS: dict[str, Function] = dict(
    [
        # numbers (anywhere)
        _f("round", "scoring { deal_points = round(card_points, 10) + meld_points }"),
        _f(
            "floor",
            "after_deal { rule bag_penalty: score = score - 10 * floor(bags, 10), bags = bags - "
            "floor(bags, 10) }",
        ),
        _f("ceil", "scoring { defender = ceil(deal_points, 5) }"),
        _f("mod", "scoring { board = mod(deal_number - 1, 16) }"),
        _f("div", "scoring { other_total = div(sum_all(total), 2) - total }"),
        _f("pick", "scoring { ns_vulnerable = pick(board, 0, 0, 1, 1) == 1 }"),
        _f("min", "scoring { multiplier = min(allpass_run + 1, 3) }"),
        _f("max", "scoring { player = if rubber_over then max(total - other_total, 0) else 0 }"),
        _f(
            "abs",
            "scoring { player = if tricks_won == tricks_bid then 10 + tricks_bid else "
            "-abs(tricks_won - tricks_bid) }",
        ),
        # the player's hand
        _f("count_rank", "redeal { allowed_if = count_rank(9) >= 3 or count_rank(U) == 4 }"),
        _f(
            "count_suit",
            "choice game { rufspiel_gras_if = contract == 1 and not holds(AG) and "
            "count_suit(gras) > 0 }",
        ),
        _f("holds", "play { side_if = declarer or (rufspiel_eichel and holds(AE)) }"),
        _f("count_card", "play { side_if = count_card(QC) > 0 }"),
        # the winning bid
        _f("bid_is", "scoring { ohne_extra = if bid_is(ohne) then 20 else 0 }"),
        _f("strain_is", "scoring { minor = strain_is(clubs) or strain_is(diamonds) }"),
        # the card in question
        _f(
            "card_rank",
            "combination carre { value = if card_rank(J) then 200 else if card_rank(9) then 150 "
            "else 100 }",
        ),
        _f(
            "card_suit",
            "deck { card_points = if card_suit(hearts) then 1 else if card_is(QS) then 13 else 0 }",
        ),
        _f(
            "card_is",
            "play { play_if = tricks_played > 0 or can_follow or not (card_suit(hearts) or "
            "card_is(QS)) }",
        ),
        _f("other_rank", "bouts { beats = beats_usually or (card_rank(6) and other_rank(A)) }"),
        _f("other_suit", "play { beats = beats_usually or (card_is(9H) and other_suit(hearts)) }"),
        _f("other_is", "play { beats = beats_usually or (card_is(10H) and other_is(10H)) }"),
        # the hand and the trump suit
        _f("holds_trump", "scoring { belote_held = holds_trump(K) and holds_trump(Q) }"),
        _f(
            "trump_is", "scoring { jack = (trump_is(hearts) and taken_card(JH)) or taken_card(JS) }"
        ),
        _f(
            "turnup_rank",
            "bidding { pass_if = call_round > 1 or not turnup_rank(J) }",
        ),
        _f(
            "nth_combination",
            "decision declare { rule say: said_second = nth_combination(2) }",
        ),
        # the deal's finished tricks and the trick in progress
        _f(
            "played_suit",
            "play { lead_if = not card_suit(hearts) or played_suit(hearts) > 0 or "
            "count_suit(hearts) == hand_size }",
        ),
        _f(
            "played_card",
            "play { lead_if = not card_suit(hearts) or played_suit(hearts) > 0 or played_card(QS) "
            "}",
        ),
        _f(
            "times_led",
            "play { lead_if = not rufspiel_eichel or times_led(eichel) > 0 or not holds(AE) or "
            "card_is(AE) or not card_suit(eichel) }",
        ),
        _f(
            "led_suit",
            "play { play_if = not rufspiel_eichel or not led_suit(eichel) or not holds(AE) or "
            "card_is(AE) }",
        ),
        # the player's won tricks
        _f("taken_suit", "scoring { shot = taken_suit(hearts) == 13 and taken_card(QS) }"),
        _f("taken_card", "scoring { jack = if taken_card(JD) then -10 else 0 }"),
        # a finished trick (`after_trick`, and each trick in `sum_tricks(x)`)
        _f("in_trick", "scoring { dullen = count_tricks(side_won and in_trick(10H) == 2) }"),
        _f(
            "winning_card_is",
            "scoring { karlchen = sum_tricks(if last_trick and side_won and winning_card_is(JC) "
            "then 1 else 0) }",
        ),
        _f(
            "played_to_trick",
            "scoring { queen_given = count_tricks(played_to_trick(QS) and not won_trick) > 0 }",
        ),
        _f(
            "opponents_played",
            "scoring { foxes = sum_tricks(if side_won then opponents_played(AD) else 0) }",
        ),
        # the deal's finished tricks, one by one
        _f(
            "sum_tricks",
            "scoring { doppelkopfs = sum_tricks(if side_won and trick_points >= 40 then 1 else 0) "
            "}",
        ),
        _f(
            "count_tricks",
            "scoring { karlchen = count_tricks(last_trick and side_won and winning_card_is(JC)) }",
        ),
        # the auction
        _f(
            "named_strain",
            "contract { raise_if = not named_strain(misere) and not strain_is(misere) }",
        ),
        # every seated player, or every player of the deal or of the player's side
        _f(
            "seat_left",
            "scoring { first_defender = defending and (from_declarer == 1 or (from_declarer == 2 "
            "and seat_left(-1, sits))) }",
        ),
        _f("sum_all", "scoring { opponent_points = sum_all(deal_points) - deal_points }"),
        _f("max_all", "scoring { most = max_all(card_points) }"),
        _f("min_all", "scoring { fewest = card_points == min_all(card_points) }"),
        _f("count_all", "scoring { moon = count_all(shot) > 0 }"),
        _f("sum_side", "scoring { side_tricks = sum_side(tricks_won) }"),
        _f("count_side", "scoring { belote = 20 * count_side(belote_held) }"),
    ]
)

# What every player knows of the match while a deal is played (values as the deal began).
MATCH_STATE = ("deal_number", "score", "target", "max_other_score")

# What `lead_if` and `play_if` read about the card in question and its player.
CARD_IN_PLAY = (
    "tricks_played",
    "tricks_won",
    "declarer",
    "trump_set",
    "trump_broken",
    "card_is_trump",
    "hand_size",
    "trumps_held",
)
# a card of the hand in question, and the hand
CARD_AND_HAND_FUNCTIONS = (
    "card_rank(R)",
    "card_suit(S)",
    "card_is(C)",
    "count_rank(R)",
    "count_suit(S)",
    "holds(C)",
    "count_card(C)",
)
CARD_IN_PLAY_FUNCTIONS = (
    *CARD_AND_HAND_FUNCTIONS,
    "played_suit(S)",
    "played_card(C)",
    "times_led(S)",
    "holds_trump(R)",
    "trump_is(S)",
)

# what a player holds: the cards of his hand, and those of the trump suit in force
HOLDING_FUNCTIONS = (
    "count_rank(R)",
    "count_suit(S)",
    "holds(C)",
    "count_card(C)",
    "holds_trump(R)",
    "trump_is(S)",
)

# The trick in progress as a player is to play to it (obligations and `play_if`).
TRICK_STATE = ("cards_in_trick", "led_trump", "trick_trumped", "partner_winning")

# What every player knows of the contract once the auction is over.
# what a player's turn in trick play shows him (the place `decision`), worked out at the turn
TURN_STATE = (
    "combination_points",
    "best_combination",
    "position",
    "tricks_won",
    "tricks_played",
    "card_points",
    "meld_points",
    "stock_left",
    "stock_closed",
    "declarer",
    "contract",
    "hand_size",
    "tricks_total",
    "side",
    "dealer",
    "turnup_suit",
    "out_left",
)
CONTRACT_STATE = (
    "contract",
    "doubled",
    "redoubled",
    "bid_round",
    "declarer_side",
    "side",
    "dealer",
)
CONTRACT_FUNCTIONS = ("strain_is(S)", "bid_is(Q)")
# over the players of the deal (`_all`) or those of the player's side (`_side`)
AGGREGATE_FUNCTIONS = (
    "sum_all(x)",
    "max_all(x)",
    "min_all(x)",
    "count_all(b)",
    "sum_side(x)",
    "count_side(b)",
)

# a player's names in `play.open_hand_if`, `stop_if`, `partner_plays_if` and `skip_if`
OPEN_STATE = (
    "declarer",
    "tricks_won",
    "tricks_played",
    "cards_played",
    *CONTRACT_STATE,
    *MATCH_STATE,
)
# a finished trick, as `after_trick` and `sum_tricks(x)` read it
TRICK_RECORD = (
    "trick_number",
    "trick_points",
    "last_trick",
    "won_trick",
    "trick_combination_points",
)
# the names of `after_trick` that are the same for every player (the trick's number, its
# points, whether it is the last; the tricks played)
TRICK_COMMON = frozenset({"trick_number", "trick_points", "last_trick", "tricks_played"})
TRICK_FUNCTIONS = ("in_trick(C)", "winning_card_is(C)", "played_to_trick(C)")
TRICKS_FUNCTIONS = ("sum_tricks(x)", "count_tricks(b)")

PLACES: dict[str, Place] = {
    p.key: p
    for p in (
        Place(
            "hand",
            "bidding `opening` and `cap`, contract `cap`, `redeal.allowed_if`, `bids.max`",
            (
                "melds_in_hand",
                "hand_size",
                "contract",
                "deck_points",
                "all_melds",
                "players",
                *MATCH_STATE,
            ),
            ("count_rank(R)", "count_suit(S)", "holds(C)", "count_card(C)"),
            "and the player's match and deal `keep` names",
        ),
        Place(
            "declare",
            "`meld.declare_if`",
            (
                "tricks_won",
                "tricks_played",
                "declarer",
                "first_lead",
                "stock_left",
                "stock_closed",
                *MATCH_STATE,
            ),
            ("count_rank(R)", "count_suit(S)", "holds(C)", "count_card(C)"),
            "and the player's match and deal `keep` names",
        ),
        Place(
            "lead",
            "`play.lead_if`, `play.free_if`",
            ("first_lead", *CARD_IN_PLAY, *MATCH_STATE),
            CARD_IN_PLAY_FUNCTIONS,
            "and the player's match and deal `keep` names",
        ),
        Place(
            "lay_away",
            "`talon.lay_away_if`, `pickup.lay_away_if`, and `lay_away_shown_if` in both (each "
            "card of the hand, as a card is to be laid away)",
            ("card_is_trump", "hand_size", "lay_away_left", *MATCH_STATE),
            (*CARD_AND_HAND_FUNCTIONS, *CONTRACT_FUNCTIONS),
            "and the player's match and deal `keep` names",
        ),
        Place(
            "pass_card",
            "`pass_cards.pass_if` (each card of the hand, as a card is to be passed)",
            (
                "card_is_trump",
                "trumps_held",
                "hand_size",
                "pass_left",
                "passing_back",
                *MATCH_STATE,
            ),
            (*CARD_AND_HAND_FUNCTIONS, *CONTRACT_FUNCTIONS),
            "and the player's match and deal `keep` names and the options chosen",
        ),
        Place(
            "play",
            "`play.play_if` (a card played to a trick led by another)",
            ("can_follow", "card_wins", *TRICK_STATE, *CARD_IN_PLAY, *MATCH_STATE),
            (*CARD_IN_PLAY_FUNCTIONS, "led_suit(S)"),
            "and the player's match and deal `keep` names",
        ),
        Place(
            "decision",
            "`decision`: `offer_if`, `forced_if` and its rules; `choice`: `OPTION_if`",
            (*TURN_STATE, *MATCH_STATE),
            (
                *HOLDING_FUNCTIONS,
                "turnup_rank(R)",
                "taken_suit(S)",
                "taken_card(C)",
                "nth_combination(k)",
                *CONTRACT_FUNCTIONS,
                *AGGREGATE_FUNCTIONS,
                *TRICKS_FUNCTIONS,
            ),
            "the player's match and deal `keep` names",
        ),
        Place(
            "turn_trick",
            "in a decision, `x` of `sum_tricks(x)` and `b` of `count_tricks(b)` (each finished "
            "trick)",
            TRICK_RECORD,
            TRICK_FUNCTIONS,
        ),
        Place(
            "obligation",
            "`play`: `follow`, `trump_when_void`, `beat_in_suit`, `overtrump` as expressions",
            (
                "stock_left",
                "stock_closed",
                "tricks_played",
                "declarer",
                *TRICK_STATE,
                *MATCH_STATE,
            ),
            (),
            "the player's match and deal `keep` names",
        ),
        Place(
            "beats",
            "`play.beats` (the card played against the card winning the trick so far; the "
            "player's names are those of the card's player)",
            (
                "card_is_trump",
                "card_power",
                "other_trump",
                "other_power",
                "same_card",
                "follows_led",
                "beats_usually",
                "last_trick",
                *(n for n in OPEN_STATE if n != "tricks_played"),
                "tricks_played",
            ),
            (
                "card_rank(R)",
                "card_suit(S)",
                "card_is(C)",
                "other_rank(R)",
                "other_suit(S)",
                "other_is(C)",
                *CONTRACT_FUNCTIONS,
                *AGGREGATE_FUNCTIONS,
            ),
            "the player's match and deal `keep` names and the options chosen",
        ),
        Place(
            "bout_beats",
            "`bouts.beats` (a card against the attack card it would beat)",
            (
                "card_is_trump",
                "card_power",
                "other_trump",
                "other_power",
                "same_card",
                "same_suit",
                "beats_usually",
            ),
            (
                "card_rank(R)",
                "card_suit(S)",
                "card_is(C)",
                "other_rank(R)",
                "other_suit(S)",
                "other_is(C)",
            ),
        ),
        Place(
            "relation",
            "`play.trump_power`, `play.power` and `play.sets_suit_if` (once per card, trump "
            "suit, qualifier and options chosen)",
            ("rank_index", "suit_index", "card_in_trump_suit", "trump_set"),
            ("card_rank(R)", "card_suit(S)", "card_is(C)", "bid_is(Q)", "strain_is(S)"),
            "the options chosen",
        ),
        Place(
            "open",
            "`play.stop_if`, `play.partner_plays_if`, `play.skip_if` (for each player)",
            OPEN_STATE,
            (*CONTRACT_FUNCTIONS, *AGGREGATE_FUNCTIONS),
            "the player's match and deal `keep` names and the options chosen",
        ),
        Place(
            "open_hand",
            "`play.open_hand_if` (for each player; for each card of his hand when it reads the "
            "card's names: then only the cards for which it holds lie face up)",
            (*OPEN_STATE, "card_in_trump_suit", "card_in_combination"),
            (
                "card_rank(R)",
                "card_suit(S)",
                "card_is(C)",
                *CONTRACT_FUNCTIONS,
                *AGGREGATE_FUNCTIONS,
            ),
            "the player's match and deal `keep` names and the options chosen",
        ),
        Place(
            "combination",
            "`combination.value` (once per combination and trump suit; the card in question "
            "is its highest, or the first it names)",
            ("length", "times", "top", "card_in_trump_suit", "trump_set"),
            ("card_rank(R)", "card_suit(S)", "card_is(C)"),
        ),
        Place(
            "strength",
            "`combination.strength` (as its `value`)",
            ("value", "length", "times", "top", "card_in_trump_suit", "trump_set"),
            ("card_rank(R)", "card_suit(S)", "card_is(C)"),
        ),
        Place(
            "card",
            "`deck.card_points` (once per card, and per trump suit, call and option chosen if "
            "it reads them)",
            ("rank_index", "suit_index", "card_in_trump_suit", "trump_set"),
            ("card_rank(R)", "card_suit(S)", "card_is(C)", "bid_is(Q)", "strain_is(S)"),
            "the options chosen",
        ),
        Place(
            "pass",
            "`pass_cards.to` (public: the same for every player)",
            ("deal_number", "target", "players"),
        ),
        Place(
            "blind",
            "`bids.blind_if`",
            MATCH_STATE,
            (),
            "and the player's match and deal `keep` names",
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
                "tricks_played",
                "won_last_trick",
                "top_trumps",
                "combination_points",
                "best_combination",
                "position",
                "stock_closed",
                "tricks_bid",
                "bid_blind",
                "contract",
                "declarer",
                "deck_points",
                "all_melds",
                "players",
                "seats",
                "seat",
                "doubled",
                "redoubled",
                "bid_round",
                "declarer_side",
                "side",
                "dealer",
                *MATCH_STATE,
            ),
            (
                "bid_is(Q)",
                "strain_is(S)",
                *HOLDING_FUNCTIONS,
                "taken_suit(S)",
                "taken_card(C)",
                "nth_combination(k)",
                *AGGREGATE_FUNCTIONS,
                "seat_left(k, x)",
                *TRICKS_FUNCTIONS,
            ),
            "the player's match and deal `keep` names and the scoring definitions",
        ),
        Place(
            "result_trick",
            "in scoring, `x` of `sum_tricks(x)` and `b` of `count_tricks(b)` (each finished trick)",
            (*TRICK_RECORD, "side_won"),
            (*TRICK_FUNCTIONS, "opponents_played(C)"),
        ),
        Place(
            "trick_event",
            "`after_trick` (for each player of the deal, after each finished trick)",
            (
                *TRICK_RECORD,
                "tricks_played",
                "tricks_won",
                "declarer",
                "position",
                "combination_points",
                "best_combination",
                *MATCH_STATE,
            ),
            (*TRICK_FUNCTIONS, "nth_combination(k)", *AGGREGATE_FUNCTIONS),
            "the player's match and deal `keep` names and the options chosen",
        ),
        Place(
            "card_event",
            "`after_card` (for each player of the deal, after each card played to a trick)",
            (
                "played_it",
                "card_is_trump",
                "card_in_trump_suit",
                "cards_in_trick",
                "tricks_played",
                "tricks_won",
                "declarer",
                "position",
                *MATCH_STATE,
            ),
            (
                "card_rank(R)",
                "card_suit(S)",
                "card_is(C)",
                *HOLDING_FUNCTIONS,
                *AGGREGATE_FUNCTIONS,
            ),
            "the player's match and deal `keep` names and the options chosen",
        ),
        Place(
            "size",
            "`deal.size` (public: worked out as each deal begins)",
            ("deal_number", "players", "deck_size", "target"),
        ),
        Place(
            "trump_if",
            "`play.trump_if` (public: worked out as trick play begins)",
            ("deal_number", "players", "deck_size", "target", "size"),
        ),
        Place(
            "trump",
            "`play.trump = EXPR` (public: worked out as each deal is dealt; a suit's number)",
            ("deal_number", "players", "deck_size", "target", "size"),
            more="each suit's name, meaning its number (its place in `suits:`, from 0)",
        ),
        Place(
            "call",
            "bidding `bid_if` (each bid in question), `pass_if` and `hold_if` (the standing bid)",
            (
                "level",
                "contract",
                "bid_suit",
                "turnup_suit",
                "call_round",
                "bids_made",
                "dealer",
                "dealer_side",
                "hand_size",
                "players",
                *MATCH_STATE,
            ),
            (
                "strain_is(S)",
                "bid_is(Q)",
                "named_strain(S)",
                "count_rank(R)",
                "count_suit(S)",
                "holds(C)",
                "count_card(C)",
                "turnup_rank(R)",
            ),
            "and the player's match and deal `keep` names",
        ),
        Place(
            "raise",
            "`contract.raise_if` (each contract in question, with `strains:`)",
            ("level", "contract", "hand_size", "players", *MATCH_STATE),
            (
                "strain_is(S)",
                "named_strain(S)",
                "count_rank(R)",
                "count_suit(S)",
                "holds(C)",
                "count_card(C)",
            ),
            "and the declarer's match and deal `keep` names",
        ),
        Place(
            "number_bid",
            "`bids.bid_if` (each bid in question; the aggregates over the players of the deal "
            "or of his side read what each has bid so far)",
            (
                "level",
                "bids_total",
                "bids_made",
                "dealer",
                "hand_size",
                "players",
                "tricks_bid",
                "has_bid",
                *MATCH_STATE,
            ),
            (
                "count_rank(R)",
                "count_suit(S)",
                "holds(C)",
                "count_card(C)",
                *AGGREGATE_FUNCTIONS,
            ),
            "and the player's match and deal `keep` names",
        ),
        Place(
            "role",
            "`play.sit_out_if`, `pickup.take_if` (for each player, as trick play begins), "
            "`pass_cards.passes_if` and `receives_if` after an auction (as the passing begins)",
            ("declarer", "players", *CONTRACT_STATE, *MATCH_STATE),
            (*CONTRACT_FUNCTIONS, *AGGREGATE_FUNCTIONS),
            "and the player's match and deal `keep` names and the options chosen",
        ),
        Place(
            "passer",
            "`pass_cards.passes_if` and `receives_if` before any auction (for each player, as "
            "the passing begins)",
            ("players", *MATCH_STATE),
            AGGREGATE_FUNCTIONS,
            "and the player's match and deal `keep` names and the options chosen",
        ),
        Place(
            "side",
            "`play.side_if` (for each player, as trick play begins: over his hand then)",
            ("declarer", "players", *CONTRACT_STATE, *MATCH_STATE),
            (
                *CONTRACT_FUNCTIONS,
                *HOLDING_FUNCTIONS,
                *AGGREGATE_FUNCTIONS,
            ),
            "and the player's match and deal `keep` names and the options chosen",
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
            "end",
            "`match.end_if` (after each deal, for every player; the aggregates run over every "
            "seated player, or the player's side of `sides:`)",
            ("score", "deal_number", "target", "max_other_score", "players", "seats"),
            AGGREGATE_FUNCTIONS,
            "and the `keep` names",
        ),
        Place(
            "bout_limit",
            "`bouts.limit`",
            ("defender_cards", "bout_number", "players", "stock"),
        ),
        Place(
            "first_attacker",
            "`bouts.first_attacker` (for each player in deal order from the dealer's left, as "
            "the deal's first bout begins: the first for whom it holds attacks)",
            ("lowest_trump", "hand_size", "dealer", "players", *MATCH_STATE),
            (*HOLDING_FUNCTIONS,),
            "and the player's match `keep` names",
        ),
    )
}

HAND_NAMES = PLACES["hand"].types()
BEATS_NAMES = PLACES["beats"].types()
BOUT_BEATS_NAMES = PLACES["bout_beats"].types()
TURN_TRICK_NAMES = PLACES["turn_trick"].types()
RESULT_TRICK_NAMES = PLACES["result_trick"].types()
TRICK_EVENT_NAMES = PLACES["trick_event"].types()
CARD_EVENT_NAMES = PLACES["card_event"].types()
LEAD_NAMES = PLACES["lead"].types()
LAY_AWAY_NAMES = PLACES["lay_away"].types()
PASS_CARD_NAMES = PLACES["pass_card"].types()
PASSER_NAMES = PLACES["passer"].types()
PLAY_NAMES = PLACES["play"].types()
DECISION_NAMES = PLACES["decision"].types()
OBLIGATION_NAMES = PLACES["obligation"].types()
CARD_POINT_NAMES = PLACES["card"].types()
COMBINATION_NAMES = PLACES["combination"].types()
STRENGTH_NAMES = PLACES["strength"].types()
RELATION_NAMES = PLACES["relation"].types()
OPEN_NAMES = PLACES["open"].types()
OPEN_HAND_NAMES = PLACES["open_hand"].types()
PASS_NAMES = PLACES["pass"].types()
BLIND_NAMES = PLACES["blind"].types()
END_NAMES = PLACES["end"].types()
DECLARE_NAMES = PLACES["declare"].types()
RESULT_NAMES = {n: t for n, t in PLACES["result"].types().items() if n not in MATCH_STATE}
BOUT_RESULT_NAMES = PLACES["bout_result"].types()
SIZE_NAMES = PLACES["size"].types()
TRUMP_IF_NAMES = PLACES["trump_if"].types()
TRUMP_NAMES = PLACES["trump"].types()
CALL_NAMES = PLACES["call"].types()
RAISE_NAMES = PLACES["raise"].types()
NUMBER_BID_NAMES = PLACES["number_bid"].types()
ROLE_NAMES = PLACES["role"].types()
BOUT_LIMIT_NAMES = PLACES["bout_limit"].types()
FIRST_ATTACKER_NAMES = PLACES["first_attacker"].types()
MATCH_NAMES = {n: t for n, t in PLACES["match"].types().items() if n != "target"}
MATCH_STATE_NAMES = {n: QUANTITIES[n].type for n in MATCH_STATE}
ASSIGNABLE_BUILTINS = ("score", "gain")


def names_table() -> str:
    """The manual's table of names by place (Markdown), generated from the registry."""
    rows = ["| where | names | functions |", "| --- | --- | --- |"]
    for place in PLACES.values():
        names = ", ".join(f"`{n}`" for n in place.names)
        if place.more:
            names += f", {place.more}"
        functions = ", ".join(f"`{f}`" for f in place.functions)
        rows.append(f"| {place.settings} | {names} | {functions} |")
    return "\n".join(rows)


def meanings_table() -> str:
    """The manual's table of what each name means, with an example (Markdown), generated from
    the registry."""
    rows = ["| name | type | meaning | example |", "| --- | --- | --- | --- |"]
    for q in QUANTITIES.values():
        kind = "number" if q.type == INT else "yes/no"
        rows.append(f"| `{q.name}` | {kind} | {q.meaning} | `{q.example}` |")
    return "\n".join(rows)


def functions_table() -> str:
    """The manual's table of the functions, what each gives and an example (Markdown),
    generated from the registry."""
    rows = ["| function | meaning | example |", "| --- | --- | --- |"]
    for f in FUNCTIONS.values():
        rows.append(f"| `{f.signature}` | {f.meaning} | `{f.example}` |")
    return "\n".join(rows)
