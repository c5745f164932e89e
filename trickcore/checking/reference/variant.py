"""`Reference`: a variant's rules as the checker reads them (syntax trees, the deck's tables,
plain settings of the model), and what follows from them alone: card relations, sides,
combinations, the order of the scoring definitions, who is in a deal, a `rule` line's
values."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...language import syntax as s
from ...language.loader import MergedBlock, MergedRules
from ...language.model import Deck, VariantModel
from ...language.syntax import names_in, nodes_in
from .card_filter import cards_after
from .errors import in_range
from .expressions import (
    AGGREGATES,
    BOOL_WORDS,
    COMBINATIONS,
    OVER_TRICKS,
    STRAIN,
    Evaluator,
    calls_in,
)
from .names_read import NamesRead
from .restated import check_restated, check_words
from .rule_blocks import Combo, MeldRule, read_decisions
from .rules_text import (
    block_of,
    expr_of,
    flag_of,
    items_of,
    load_reference_rules,
    rule_of,
    setting_of,
    value_word,
    word_of,
    words_of,
)

FINAL_RULES = ("declarer", "defender", "player", "sitting_out")  # deal scores, not definitions

# the names `play { beats = EXPR }` reads of the two cards and the trick alone (any other
# name it reads is the card's player's)
BEATS_OWN = frozenset(
    {
        "card_is_trump",
        "card_power",
        "other_trump",
        "other_power",
        "same_card",
        "follows_led",
        "beats_usually",
        "last_trick",
        "tricks_played",
    }
)


class Reference:
    """A variant's rules as the checker reads them: syntax trees plus the deck's tables."""

    def __init__(self, model: VariantModel, rules: MergedRules | None = None) -> None:
        if rules is None:
            rules = load_reference_rules(model)
        self.model = model
        root = rules.root
        self.root = root
        check_restated(root, model.name)
        deck = model.deck
        n = len(deck.ranks)
        faces = deck_faces(root, deck)
        self.eval = ev = Evaluator(model, faces)
        self.size = len(faces)
        self.n_suits = len(deck.suits)
        self.trump_id = len(deck.suits)  # the effective suit of every trump
        self.card_text = [
            deck.ranks[f % n].symbol + deck.suits[f // n].symbol for f in faces
        ]  # the copies of a card share its text
        self.play_text = [f"play {text}" for text in self.card_text]
        self.marry_text = [f"marry {text}" for text in self.card_text]
        self.suit_names = [su.name for su in deck.suits]
        self.suit_symbols = [su.symbol for su in deck.suits]
        # `card_points = EXPR`: per card, and per trump, call and options chosen (kept)
        self.card_points_rule = setting_of(root, "deck", "card_points")
        self._points: dict[tuple[Any, ...], list[int]] = {}
        self.rank_points = [deck.points[ev.rank(c)] for c in range(self.size)]
        # combinations (BL27, BL28): kind, size, order and the sets of given cards are plain
        # settings of the model; value and strength are restated from the file
        self.combos: list[Combo] = []
        self._in_combination: dict[tuple[tuple[int, ...], int], frozenset[int]] = {}
        for combo in model.combinations:
            block = block_of(root, f"combination {combo.name}")
            worth_rule = expr_of(block.entries.get("value")) if block else None
            strength_rule = expr_of(block.entries.get("strength")) if block else None
            assert worth_rule is not None
            self.combos.append(
                Combo(
                    combo.kind,
                    combo.size,
                    tuple(combo.order),
                    tuple(combo.sets),
                    worth_rule,
                    strength_rule,
                )
            )
        # melds, and every concrete meld: (meld index, suit or -1, value, cards)
        self.melds: list[MeldRule] = []
        self.concrete: list[tuple[int, int, int, tuple[int, ...]]] = []
        for mi, meld in enumerate(model.melds):
            block = block_of(root, f"meld {meld.name}")
            self.melds.append(
                MeldRule(
                    meld.name,
                    tuple(meld.ranks),
                    tuple(meld.cards),
                    tuple(meld.values),
                    meld.trump_value,
                    meld.sets_trump,
                    meld.announce,
                    expr_of(block.entries.get("declare_if")) if block else None,
                    expr_of(block.entries.get("counts_if")) if block else None,
                )
            )
            if meld.cards:
                self.concrete.append((mi, -1, meld.values[0], tuple(meld.cards)))
            else:
                for suit, value in enumerate(meld.values):
                    cards = tuple(ev.first_card(suit * n + r) for r in meld.ranks)
                    if -1 not in cards:  # a card left out (`without`): never held
                        self.concrete.append((mi, suit, value, cards))
        self.all_melds = sum(value for _, _, value, _ in self.concrete) * _copies(ev)
        self.led_melds = any(not m.announce for m in self.melds)  # declared by leading
        self.announced_melds = any(m.announce for m in self.melds)
        # scoring
        scoring = block_of(root, "scoring")
        self.definitions: dict[str, s.Expr] = {}
        if scoring is not None:
            for key, entry in scoring.entries.items():
                expr = expr_of(entry)
                if expr is not None:
                    self.definitions[key] = expr
        self.order = self._definition_order()
        after = block_of(root, "after_deal")
        self.after_deal: list[s.Step] = [
            e for e in (after.entries.values() if after else ()) if isinstance(e, s.Step)
        ]
        # after each finished trick, for every player of the deal (set deal values)
        after = block_of(root, "after_trick")
        self.after_trick: list[s.Step] = [
            e for e in (after.entries.values() if after else ()) if isinstance(e, s.Step)
        ]
        # after each card played to a trick, for every player of the deal (set deal values)
        after = block_of(root, "after_card")
        self.after_card: list[s.Step] = [
            e for e in (after.entries.values() if after else ()) if isinstance(e, s.Step)
        ]
        # what the rules after a trick and after a card read (their players' names are made
        # only for those; the others' only for an aggregate)
        self.after_trick_reads = NamesRead(_step_exprs(self.after_trick))
        # of each rule after a trick, the part its condition begins with that is the same
        # for every player (aggregates over all of them, constants): where it fails, the
        # rule holds for nobody
        self.after_trick_common = [
            _same_for_all(st.condition, _TRICK_SAME) for st in self.after_trick
        ]
        # when every rule has one, they are tested first over the players' other names and
        # the trick's names that are the same for all
        self.after_trick_common_first = bool(self.after_trick) and all(
            c is not None for c in self.after_trick_common
        )
        self.after_card_reads = NamesRead(_step_exprs(self.after_card))
        # every rule after a card begins `played_it and`: false for all but the card's player
        self.after_card_player_only = all(
            st.condition is not None and _played_it_first(st.condition) for st in self.after_card
        )
        # the cards after which one of them can hold (None: any)
        self.after_card_cards = cards_after(self.after_card, ev, self.size)
        # `deal { next_dealer = EXPR }`: over after_deal's names (else a word, in the model)
        self.next_dealer = rule_of(root, "deal", "next_dealer")
        # the match
        self.keep: list[tuple[str, bool | int]] = [
            (parts[0], value_word(parts[1])) for parts in words_of(root, "match", "keep")
        ]
        target = words_of(root, "match", "target")
        self.target = 0 if not target or target[0][0] == "none" else int(target[0][0])
        self.has_target = bool(target) and target[0][0] != "none"
        self.end_if = setting_of(root, "match", "end_if")
        self.rank_by = setting_of(root, "match", "rank_by")
        check_words(root, model.name)
        tie_break = tuple(parts[0] for parts in words_of(root, "match", "tie_break"))
        self.tie_break = tie_break or ("highest",)  # T21: equal scores share the win
        self.deal_limit = model.match.deal_limit
        self.redeal_limit = model.match.redeal_limit
        self.sides = [[int(w) for w in parts] for parts in words_of(root, "", "sides")]
        self._side_of: dict[tuple[int, int], tuple[int, ...]] = {}
        self.bout_limit = setting_of(root, "bouts", "limit")
        # D4: `first_attacker = EXPR` ("rule"), or a word: left_of_dealer, lowest_trump
        self.attacker_rule = rule_of(root, "bouts", "first_attacker")
        attacker = words_of(root, "bouts", "first_attacker")
        self.first_attacker = (
            "rule" if self.attacker_rule is not None else attacker[0][0] if attacker else ""
        )
        # the deal: keep names, its flow, the redeal
        self.deal_keep: list[tuple[str, bool | int]] = [
            (parts[0], value_word(parts[1])) for parts in words_of(root, "deal", "keep")
        ]
        tricks = model.tricks
        self.flow: tuple[str, ...] = tricks.flow if tricks is not None else ()
        self.has_auction = "auction" in self.flow
        self.has_redeal = block_of(root, "redeal") is not None
        self.forced_if = setting_of(root, "redeal", "forced_if")
        self.allowed_if = setting_of(root, "redeal", "allowed_if")
        self.same_dealer = model.redeal.same_dealer if model.redeal is not None else False
        # the auction (plain settings from the model, expressions from the trees)
        self.bidding = tricks.bidding if tricks is not None else None
        self.bid_cap = rule_of(root, "bidding", "cap")
        self.opening = rule_of(root, "bidding", "opening")
        self.contract_cap = rule_of(root, "contract", "cap") or self.bid_cap
        # calls naming strains, bid_if, doubles, rounds (spec 4), read from the rules text
        bidding = block_of(root, "bidding")
        suit_by_name = {su.name: i for i, su in enumerate(deck.suits)}
        self.strains = tuple(parts[0] for parts in items_of(bidding, "strains"))
        self.strain_suits = tuple(suit_by_name.get(st, -1) for st in self.strains)
        self.levelless = word_of(bidding, "levels", "") == "none"
        self.bid_values = tuple(int(parts[0]) for parts in items_of(bidding, "values"))
        self.bid_if = setting_of(root, "bidding", "bid_if")
        self.pass_if = setting_of(root, "bidding", "pass_if")
        # who may bid the standing bid again and take it over
        self.hold_if = setting_of(root, "bidding", "hold_if")
        ends = (items_of(bidding, "ends") or [()])[0]
        self.ends_first_bid = ends == ("first_bid",)
        self.ends_passes = int(ends[1]) if len(ends) == 2 and ends[0] == "passes" else None
        self.rounds = int(word_of(bidding, "rounds", "0"))
        self.doubles = flag_of(bidding, "double", False)
        self.joins = flag_of(bidding, "join", False)  # pairs: a round of joining first
        self.first_to_name = word_of(bidding, "declarer", "last_bidder") == "first_to_name"
        self.dealer_calls_first = word_of(bidding, "first_caller", "forehand") == "dealer"
        self.call_qualifiers = ("", *(parts[0] for parts in items_of(bidding, "qualifiers")))
        # the calls of an auction in turns are restated one by one when it says which calls
        # there are in the spec-4 way (strains, bid_if, pass_if, doubles, rounds); otherwise
        # who calls next, when it ends and who declares at what
        spec4 = {"strains", "levels", "bid_if", "pass_if", "hold_if", "double", "rounds"}
        spec4.add("first_caller")
        self.restate_calls = bidding is not None and any(k in bidding.entries for k in spec4)
        # the pickup of the turned-up card (spec 4)
        pickup = block_of(root, "pickup")
        self.pickup_who = word_of(pickup, "who", "dealer")
        self.take_if = setting_of(root, "pickup", "take_if")
        self.pickup_lay_away = int(word_of(pickup, "lay_away", "0"))
        # which cards may be laid away (per card; all when none may)
        self.pickup_lay_away_if = setting_of(root, "pickup", "lay_away_if")
        self.talon_lay_away_if = setting_of(root, "talon", "lay_away_if")
        # which cards laid away are shown to all, judged as `lay_away_if` judges them
        self.pickup_shown_if = setting_of(root, "pickup", "lay_away_shown_if")
        self.talon_shown_if = setting_of(root, "talon", "lay_away_shown_if")
        # BL11: each hand drawn up from the stock to this many cards (0: no such phase)
        self.draw_up_to = int(word_of(block_of(root, "draw_up"), "to", "0"))
        # `play { beats = EXPR }` and `bouts { beats = EXPR }`: which card beats the other
        self.beats = setting_of(root, "play", "beats")
        # it reads names of the card's player (his kept values, his role, the aggregates)
        self.beats_reads_player = self.beats is not None and bool(
            set(names_in(self.beats)) - BEATS_OWN
            or {"strain_is", "bid_is", *AGGREGATES} & set(calls_in(self.beats))
        )
        self.bout_beats = setting_of(root, "bouts", "beats")
        self.contract = tricks.contract if tricks is not None else None
        # talon
        self.split_if = setting_of(root, "talon", "split_if")
        self.counts_for_if = setting_of(root, "talon", "counts_for_if")
        self.talon = tricks.talon if tricks is not None else None
        # decisions and choices, in the order of the file
        self.decisions = read_decisions(root, ev)
        self.options = list(dict.fromkeys(o for d in self.decisions for o in d.options))
        self.card_decisions = [d for d in self.decisions if "card" in d.at]  # before a card
        # what their offer_if reads: only those names are made for the round of offers
        self.card_reads = NamesRead(d.offer_if for d in self.card_decisions if d.offer_if)
        # where they read names alone: the offers worked out from each key of those names
        # (their value follows from it), for every player, deal and run (`CardOffers`)
        self.card_offers_by_key: dict[tuple[Any, ...], list[str]] = {}
        # the decisions offered at a turn (lead, play, right after announcing a meld): what
        # their offer_if read
        self.turn_reads = {
            at: NamesRead(
                d.offer_if
                for d in self.decisions
                if not d.options
                and (d.after_announce if at == "announced" else at in d.at)
                and d.offer_if is not None
            )
            for at in ("lead", "play", "announced")
        }
        # play
        play = block_of(root, "play")
        self.lead_if = setting_of(root, "play", "lead_if")
        self.play_if = setting_of(root, "play", "play_if")
        self.free_if = setting_of(root, "play", "free_if")  # a card the duties do not bind
        # whether a card sets the suit to follow, as the first such card of a trick
        self.sets_suit_if = setting_of(root, "play", "sets_suit_if")
        self.stop_if = setting_of(root, "play", "stop_if")
        self.skip_if = setting_of(root, "play", "skip_if")
        self.open_hand_if = setting_of(root, "play", "open_hand_if")
        self.trump_power = setting_of(root, "play", "trump_power")
        self.power = setting_of(root, "play", "power")
        trump = words_of(root, "play", "trump")
        word = trump[0][0] if trump else "none"
        self.trump_rule = rule_of(root, "play", "trump")  # `trump = EXPR`: a suit's number
        self.suit_numbers = {su.name: i for i, su in enumerate(model.deck.suits)}
        self.trump_turnup = word == "turnup"
        self.trump_stock_top = word == "stock_top"  # the stock's first card as dealt
        self.trump_bid = word == "bid"  # the contract's strain (none for one without a suit)
        self.trump_first_lead = word == "first_lead"  # the suit of the deal's first lead
        named = word not in ("none", "turnup", "stock_top", "bid", "first_lead")
        self.fixed_trump = ev.suits[word] if named else -1
        self.trump_if = setting_of(root, "play", "trump_if")  # public: false, no trump
        self.sit_out_if = setting_of(root, "play", "sit_out_if")
        self.side_if = setting_of(root, "play", "side_if")  # the deal's sides, formed in play
        self.partner_plays_if = setting_of(root, "play", "partner_plays_if")
        self.draw = flag_of(play, "draw", False)
        self.talon_leads = flag_of(play, "talon_leads", False)
        self.raise_if = setting_of(root, "contract", "raise_if")
        play_rules = tricks.play if tricks is not None else None
        # the four obligations: a yes/no or an expression read at each play
        self.obligations: dict[str, s.Expr | bool] = {}
        for name in ("follow", "beat_in_suit", "trump_when_void", "overtrump"):
            duty = play.entries.get(name) if play is not None else None
            expr = expr_of(duty)
            default = bool(getattr(play_rules, name)) if play_rules is not None else False
            self.obligations[name] = expr if expr is not None else default
        self.fixed_duties = all(isinstance(v, bool) for v in self.obligations.values())
        # who leads first: a word, `holder CARD` (the shorthand of `= holds(CARD)`: the face
        # of the card, any copy), or `first_leader = EXPR` ("rule")
        leader = words_of(root, "play", "first_leader")
        self.leader_rule = rule_of(root, "play", "first_leader")
        self.first_leader = (
            "rule"
            if self.leader_rule is not None
            else leader[0][0]
            if leader
            else ("declarer" if self.has_auction else "forehand")
        )
        self.leader_card = (
            ev.card_of("".join(leader[0][1:])) if self.first_leader == "holder" else -1
        )
        # pass phase: how many cards, and how many seats on they go
        count = words_of(root, "pass_cards", "count")
        self.pass_count = int(count[0][0]) if count else 0
        # `count: N each`: N cards to each other player (for whom `receives_if` holds)
        self.pass_each = bool(count) and count[0][1:] == ("each",)
        self.pass_to = setting_of(root, "pass_cards", "to") if "pass" in self.flow else None
        self.passes_if = setting_of(root, "pass_cards", "passes_if")  # who passes
        self.receives_if = setting_of(root, "pass_cards", "receives_if")  # to whom, if no `to`
        self.pass_card_if = setting_of(root, "pass_cards", "pass_if")  # which cards may go
        if self.receives_if is not None or self.pass_each:  # the takers are picked by rule
            self.pass_to = None
        back = words_of(root, "pass_cards", "back")
        self.pass_back = bool(back) and back[0][0] == "yes"  # as many passed back
        # bids phase: the range, and who bids blind with which values
        low = words_of(root, "bids", "min")
        self.bids_min = int(low[0][0]) if low else 0
        self.bids_max = setting_of(root, "bids", "max")
        self.blind_if = setting_of(root, "bids", "blind_if")
        self.blind = [int(parts[0]) for parts in words_of(root, "bids", "blind")]
        self.has_bids = "bids" in self.flow
        self.bids_bid_if = setting_of(root, "bids", "bid_if")
        # the deal pattern as written (`size` and `rest` resolved as each deal begins)
        self.pattern = words_of(root, "deal", "pattern")
        # `stock_top: shown`: the stock's top card lies face up, seen by all
        self.stock_top_shown = word_of(block_of(root, "deal"), "stock_top", "hidden") == "shown"
        self.size_rule = setting_of(root, "deal", "size")
        # sum_tricks / count_tricks: each finished trick's names are made where they are
        # read (in a decision or choice; in scoring, or a meld's counts_if)
        deciding = [
            b for b in root.entries.values() if getattr(b, "kind", "") in ("decision", "choice")
        ]
        self.decisions_read_tricks = any(
            set(OVER_TRICKS) & set(calls_in(e)) for b in deciding for e in expressions_in(b)
        )
        self.scoring_reads_tricks = any(
            set(OVER_TRICKS) & set(calls_in(e))
            for e in [*self.definitions.values(), *(m.counts_if for m in self.melds if m.counts_if)]
        )
        # trick_combination_points: the combinations among each finished trick's cards
        self.reads_trick_combinations = any(
            "trick_combination_points" in names_in(e) for e in expressions_in(root)
        )
        ev.share(expressions_in(root))  # defines written into several rules
        self.reads_top_trumps = any(
            "top_trumps" in names_in(e)
            for e in [*self.definitions.values(), *(m.counts_if for m in self.melds if m.counts_if)]
        )
        self._relations: dict[tuple[Any, ...], tuple[list[int], list[int]]] = {}
        self._setters: dict[tuple[Any, ...], list[bool]] = {}

    def start_context(self) -> dict[str, Any]:
        """What a seat knows of the match as it begins (deal 1, score 0, initial kept)."""
        return {
            **dict(self.keep),
            "deal_number": 1,
            "score": 0,
            "target": self.target,
            "max_other_score": 0,
        }

    def combination_names(self, hand: Sequence[int], trump: int) -> dict[str, Any]:
        """BL27-BL29: each maximal run of `size` or more cards of one suit in the order, each
        rank held in `size` suits or more, and each set of given cards held whole, is a
        combination worth its value (none if worth 0): their sum, the highest strength (its
        value, by default), and every strength (`nth_combination`)."""
        held = self._combinations(hand, trump)
        return {
            "combination_points": sum(worth for worth, _, _ in held),
            "best_combination": max((strong for _, strong, _ in held), default=0),
            COMBINATIONS: [strong for _, strong, _ in held],
        }

    def combination_cards(self, hand: Sequence[int], trump: int) -> frozenset[int]:
        """The cards of a hand in one of its combinations (`card_in_combination`): every
        copy it holds of the faces of a run, a rank or a set (BL33: those laid face up).
        Kept for the hands asked about lately (a hand as trick play began is asked again
        at every step)."""
        key = (tuple(hand), trump)
        found = self._in_combination.get(key)
        if found is None:
            if len(self._in_combination) > 4096:
                self._in_combination.clear()
            found = frozenset(c for _, _, cards in self._combinations(hand, trump) for c in cards)
            self._in_combination[key] = found
        return found

    def _combinations(self, hand: Sequence[int], trump: int) -> list[tuple[int, int, list[int]]]:
        """(value, strength, cards) of each combination of a hand worth more than 0. The
        patterns are of faces (rank of a suit); `times` is the fewest copies held of any
        face of one, and the card in question is a copy of its first face."""
        if not self.combos:
            return []
        ev = self.eval
        n = ev.n_ranks
        copies: dict[int, list[int]] = {}  # face -> the cards of it in the hand
        for c in hand:
            copies.setdefault(ev.face(c), []).append(c)
        out: list[tuple[int, int, list[int]]] = []
        for combo in self.combos:
            order = combo.order
            # (its faces, highest first; length, top, in trumps)
            found: list[tuple[list[int], int, int, bool]] = []
            if combo.kind == "run":
                for su in range(len(self.suit_names)):
                    run: list[int] = []
                    for place in range(len(order) + 1):
                        if place < len(order) and su * n + order[place] in copies:
                            run.append(su * n + order[place])
                            continue
                        if len(run) >= combo.size:
                            found.append((run, len(run), place - len(run), su == trump))
                        run = []
            elif combo.kind == "same_rank":
                for top, r in enumerate(order):
                    faces = [su * n + r for su in range(self.n_suits) if su * n + r in copies]
                    if len(faces) >= combo.size:
                        found.append((faces, len(faces), top, False))
            else:
                for given in combo.sets:
                    if all(f in copies for f in given):
                        found.append((list(given), len(given), 0, given[0] // n == trump))
            for faces, length, top, in_trump in found:
                env = {
                    "length": length,
                    "times": min(len(copies[f]) for f in faces),
                    "top": top,
                    "card_in_trump_suit": in_trump,
                    "trump_set": trump >= 0,
                }
                card = copies[faces[0]][0]  # no rule tells copies apart
                worth = int(ev(combo.value, env, card=card))
                if worth > 0:
                    env["value"] = worth
                    strong = worth
                    if combo.strength is not None:
                        strong = int(ev(combo.strength, env, card=card))
                    out.append((worth, strong, [c for f in faces for c in copies[f]]))
        return out

    def _relation_env(
        self, card: int, trump: int, chosen: Sequence[str], strain: str
    ) -> dict[str, Any]:
        """The names `card_points`, `trump_power` and `power` read of a card (its contract's
        qualifier is given to the evaluator)."""
        ev = self.eval
        return {
            "rank_index": ev.rank(card),
            "suit_index": ev.suit(card),
            "card_in_trump_suit": ev.suit(card) == trump,
            "trump_set": trump >= 0,
            **{o: o in chosen for o in self.options},
            STRAIN: strain,
        }

    def points_for(
        self, trump: int, qualifier: str = "", chosen: Sequence[str] = (), strain: str = ""
    ) -> list[int]:
        """Each card's points while `trump` (-1: none) is trump, the contract carries
        `qualifier` (and names `strain`) and these options were chosen (`card_points` may
        read them all; else the points by rank)."""
        rule = self.card_points_rule
        if rule is None:
            return self.rank_points
        key = (trump, qualifier, tuple(sorted(chosen)), strain)
        found = self._points.get(key)
        if found is not None:
            return found
        ev = self.eval
        found = []
        for c in range(self.size):
            env = self._relation_env(c, trump, chosen, strain)
            found.append(
                int(in_range(ev(rule, env, qualifier=qualifier, card=c), "deck.card_points"))
            )
        self._points[key] = found
        return found

    # ------------------------------------------------------------ sides
    def side(self, seat: int, seats: int) -> tuple[int, ...]:
        """The seats of `seat`'s side at a table of `seats` (`sides`; else himself alone)."""
        key = (seat, seats)
        found = self._side_of.get(key)
        if found is None:
            found = (seat,)
            for members in self.sides:
                here = tuple(x for x in members if x < seats)
                if seat in here:
                    found = here
                    break
            self._side_of[key] = found  # asked at every step: worked out once
        return found

    def side_index(self, seat: int) -> int:
        """`side`: the place of the seat's side in `sides:` from 0 (without one: his seat)."""
        for i, members in enumerate(self.sides):
            if seat in members:
                return i
        return seat

    def partner(
        self, seat: int, seats: int, declarer: int = -1, playing: Sequence[int] = ()
    ) -> int:
        """The other player of the seat's side (`partner_plays_if`); without sides, in a
        deal with a declarer against two defenders, the other defender; else himself."""
        others = [x for x in self.side(seat, seats) if x != seat]
        if others:
            return others[0]
        defenders = [x for x in playing if x != declarer]
        if not self.sides and declarer >= 0 and seat in defenders and len(defenders) == 2:
            return defenders[1 - defenders.index(seat)]
        return seat

    def max_other_score(self, seat: int, scores: Sequence[int]) -> int:
        """The highest score of a seat not on `seat`'s side (0 when there is none)."""
        mine = self.side(seat, len(scores))
        return max((x for i, x in enumerate(scores) if i not in mine), default=0)

    # ------------------------------------------------------------ hands
    def hand_env(
        self, hand: Sequence[int], players: int, context: Mapping[str, Any], contract: int = 0
    ) -> dict:
        """The names a hand rule (caps, `bids.max`, the redeal) reads for this hand."""
        firsts = [self.eval.first_copy(c) for c in hand]  # each meld: times held whole
        in_hand = sum(v * min(map(firsts.count, cards)) for *_, v, cards in self.concrete)
        return {
            "melds_in_hand": in_hand,
            "hand_size": len(hand),
            "deck_points": sum(self.points_for(-1)),
            "all_melds": self.all_melds,
            "contract": contract,
            "players": players,
            **context,
        }

    # ------------------------------------------------------------ card relations
    def relations(
        self, trump: int, qualifier: str, chosen: Sequence[str], strain: str = ""
    ) -> tuple[list[int], list[int]]:
        """Each card's effective suit (`trump_id` for a trump) and power while `trump` is
        trump, the contract carries `qualifier` (and names `strain`) and these options were
        chosen: a card whose `trump_power` is above 0 is a trump; by default the trump
        suit's cards, and powers follow the deck's rank order."""
        key = (trump, qualifier, tuple(sorted(chosen)), strain)
        found = self._relations.get(key)
        if found is not None:
            return found
        ev = self.eval
        n = ev.n_ranks
        eff: list[int] = []
        power: list[int] = []
        for c in range(self.size):
            env = self._relation_env(c, trump, chosen, strain)
            if self.trump_power is not None:
                tp = in_range(ev(self.trump_power, env, qualifier=qualifier, card=c), "trump_power")
            else:
                tp = n - ev.rank(c) if ev.suit(c) == trump else 0
            if tp > 0:
                eff.append(self.trump_id)
                power.append(tp)
            elif self.power is not None:
                eff.append(ev.suit(c))
                power.append(in_range(ev(self.power, env, qualifier=qualifier, card=c), "power"))
            else:
                eff.append(ev.suit(c))
                power.append(n - ev.rank(c))
        self._relations[key] = (eff, power)
        return eff, power

    def setters(
        self, trump: int, qualifier: str, chosen: Sequence[str], strain: str = ""
    ) -> list[bool] | None:
        """Whether each card sets the suit led when no card before it in the trick did
        (`play.sets_suit_if`, over the names `power` reads); None without the rule: every
        card does, so the first card of a trick sets it."""
        if self.sets_suit_if is None:
            return None
        key = (trump, qualifier, tuple(sorted(chosen)), strain)
        found = self._setters.get(key)
        if found is None:
            rule, ev = self.sets_suit_if, self.eval
            envs = [self._relation_env(c, trump, chosen, strain) for c in range(self.size)]
            found = self._setters[key] = [
                bool(ev(rule, env, qualifier=qualifier, card=c)) for c, env in enumerate(envs)
            ]
        return found

    def led(self, eff: Sequence[int], setters: Sequence[bool] | None, cards: Sequence[Any]) -> int:
        """The suit led to these cards of a trick (seat, card): the first card's that sets
        it (`setters`; every card without the rule), -1 when none does."""
        for _, c in cards:
            if setters is None or setters[c]:
                return eff[c]
        return -1

    # ------------------------------------------------------------ scoring definitions
    def _definition_order(self) -> list[str]:
        """The scoring definitions, each after the ones it reads (else as written)."""
        order: list[str] = []
        visiting: set[str] = set()

        def visit(name: str) -> None:
            if name in order or name in visiting:
                return
            visiting.add(name)
            for dep in names_in(self.definitions[name]):
                if dep in self.definitions and dep not in FINAL_RULES:
                    visit(dep)
            visiting.discard(name)
            order.append(name)

        for name in self.definitions:
            if name not in FINAL_RULES:
                visit(name)
        return order


def deck_faces(root: MergedBlock, deck: Deck) -> list[int]:
    """The face (rank of a suit, `suit * ranks + rank`) of each card of the deck: every
    face `deck.copies` times (default once), but those `deck.without` leaves out, numbered
    face by face, the copies of a face one after another (suits and ranks: the deck's
    tables; copies and without as written)."""
    copies = words_of(root, "deck", "copies")
    times = int(copies[0][0]) if copies else 1
    n = len(deck.ranks)
    faces = {
        rank.symbol + suit.symbol: su * n + r
        for su, suit in enumerate(deck.suits)
        for r, rank in enumerate(deck.ranks)
    }
    left_out = {faces[parts[0]] for parts in words_of(root, "deck", "without")}
    return [f for f in range(len(deck.suits) * n) if f not in left_out for _ in range(times)]


def expressions_in(block: Any) -> Iterable[s.Expr]:
    """Every expression of a block and the blocks in it (settings and rule lines)."""
    for entry in block.entries.values():
        if isinstance(entry, MergedBlock):
            yield from expressions_in(entry)
        elif isinstance(entry, s.ExprSetting):
            yield entry.expr
        elif isinstance(entry, s.Step):
            if entry.condition is not None:
                yield entry.condition
            yield from (a.expr for a in entry.assigns)


_OVER_ALL = frozenset({"sum_all", "max_all", "min_all", "count_all"})


# after a trick, the names the same for every player: the trick's number, its points,
# whether it is the deal's last, the tricks played
_TRICK_SAME = frozenset({"trick_number", "trick_points", "last_trick", "tricks_played"})


def _same_for_all(condition: s.Expr | None, same: frozenset[str] = frozenset()) -> s.Expr | None:
    """The largest part a condition begins with (`A and ...`, from the left) that reads
    nothing but aggregates over every player of the deal, the names in `same` and
    constants, if it reads an aggregate or such a name."""
    e = condition
    while e is not None:
        if _over_all_alone(e, same) and any(
            (isinstance(n, s.Call) and n.func in _OVER_ALL)
            or (isinstance(n, s.Name) and n.name in same)
            for n in nodes_in(e)
        ):
            return e
        e = e.left if isinstance(e, s.Binary) and e.op == "and" else None
    return None


def _over_all_alone(e: s.Expr, same: frozenset[str]) -> bool:
    if isinstance(e, (s.Number, s.String)):
        return True
    if isinstance(e, s.Name):
        return e.name in BOOL_WORDS or e.name in same
    if isinstance(e, s.Call):
        return e.func in _OVER_ALL
    if isinstance(e, s.Unary):
        return _over_all_alone(e.operand, same)
    if isinstance(e, s.Binary):
        return _over_all_alone(e.left, same) and _over_all_alone(e.right, same)
    if isinstance(e, s.Cond):
        return all(_over_all_alone(x, same) for x in (e.test, e.then, e.other))
    return False


def _played_it_first(e: s.Expr) -> bool:
    """Whether a condition is `played_it and ...`: false for every player but the one who
    played the card."""
    while isinstance(e, s.Binary) and e.op == "and":
        e = e.left
    return isinstance(e, s.Name) and e.name == "played_it"


def _step_exprs(steps: Iterable[s.Step]) -> list[s.Expr]:
    """The expressions of `rule` lines: each condition and each value assigned."""
    return [e for st in steps for e in (st.condition, *(a.expr for a in st.assigns)) if e]


def players_in_deal(model: VariantModel, dealer: int, seats: int) -> list[int]:
    """C1, S3: the seats in a deal, from the left of the dealer; the dealer sits out if needed."""
    order = [(dealer + k) % seats for k in range(1, seats + 1)]
    hands = model.deal.hands or seats
    if hands < seats:
        order = [x for x in order if x != dealer][:hands]
    return order


def run_step(
    ref: Reference, step: Any, env: dict[str, Any], what: str, each: bool = False, **kw: Any
) -> list[tuple[str, Any]]:
    """The values one `rule` line assigns in `env` (none when its condition fails), each
    computed before any is assigned and kept within ±MAX_VALUE (`what` names the rule; with
    `each`, the message also names the value)."""
    if step.condition is not None and not ref.eval(step.condition, env, **kw):
        return []
    return [
        (a.name, in_range(ref.eval(a.expr, env, **kw), f"{what} ({a.name})" if each else what))
        for a in step.assigns
    ]


def _copies(ev: Any) -> int:
    """How many times the deck holds each of its cards (`copies`)."""
    return len(ev.faces) // len(set(ev.faces)) if ev.faces else 1
