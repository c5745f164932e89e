"""Compiler: a merged settings tree to a validated VariantModel.

Every setting is checked here, with the file:line:column of the setting that is wrong.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

import attrs

from . import syntax as s
from .defines import DEFINE_BLOCK, defines_shown
from .errors import Location, RulesError
from .exprs import (
    AGGREGATE_FUNCS,
    ALL_FUNCS,
    BOOL,
    BOOL_WORDS,
    CARD_KEY,
    INT,
    LED_FUNCS,
    TAKEN_FUNCS,
    TRICKS_AGGREGATES,
    CompiledExpr,
    Scope,
    Symbols,
    compile_expr,
    functions_used,
    names_used,
    relation_env,
)
from .limits import MAX_BIDS, MAX_VALUE
from .loader import Entry, MergedBlock, MergedRules
from .model import (
    NO_TRUMP,
    OUT,
    STOCK,
    TRICK_PHASES,
    TURNUP,
    Assignment,
    Bidding,
    BidsRules,
    BoutRules,
    Combination,
    ContractRules,
    DealRules,
    Decision,
    Deck,
    DrawUpRules,
    MatchRules,
    Meld,
    Packet,
    PassRules,
    PickupRules,
    PlayRules,
    Rank,
    RedealRules,
    Scoring,
    StepRule,
    Suit,
    TalonRules,
    TrickRules,
    VariantModel,
)
from .settings import BlockSettings, int_item, word_int
from .vocabulary import (
    ASSIGNABLE_BUILTINS,
    BLIND_NAMES,
    BOUT_LIMIT_NAMES,
    BOUT_RESULT_NAMES,
    CALL_NAMES,
    CARD_POINT_NAMES,
    COMBINATION_NAMES,
    CONTRACT_STATE,
    DECISION_NAMES,
    DECLARE_NAMES,
    END_NAMES,
    HAND_NAMES,
    LEAD_NAMES,
    MATCH_NAMES,
    MATCH_STATE_NAMES,
    NUMBER_BID_NAMES,
    OBLIGATION_NAMES,
    OPEN_NAMES,
    PASS_NAMES,
    PLAY_NAMES,
    QUANTITIES,
    RAISE_NAMES,
    RELATION_NAMES,
    RESULT_NAMES,
    RESULT_TRICK_NAMES,
    ROLE_NAMES,
    SIZE_NAMES,
    STRENGTH_NAMES,
    TRICK_EVENT_NAMES,
    TRICK_STATE,
    TRUMP_IF_NAMES,
    TRUMP_NAMES,
    TURN_TRICK_NAMES,
)

# the names of the trick in progress a play reads (worked out at a play only when read)
TRICK_READS = frozenset((*TRICK_STATE, "card_wins"))

T = TypeVar("T")

# Action words of the engine: a decision (whose action is its name) may not take one.
RESERVED_ACTION_WORDS = {
    "pass",
    "redeal",
    "keep",
    "give",
    "raise",
    "play",
    "marry",
    "announce",
    "bid",
    "look",
    "take",
    "done",
    "attack",
    "throw",
    "beat",
    "swap",
    "transfer",
}

MAX_PLAYERS = 8
MAX_DECK = 128
MAX_QUALIFIERS = 16
MAX_DEALS = 100_000
MAX_BOUTS = 10_000
MAX_ATTACK_SUITS = 8  # a rank's multi-card attacks: at most 2**8 sets
MAX_SYMBOL = 8  # rank and suit symbols: card texts stay short (action texts fit in 200)

BLOCK_SETTINGS: dict[str, set[str]] = {
    "variant": {"name", "players", "sides"},
    "deck": {"suits", "ranks", "points", "card_points", "copies", "without"},
    "meld": {
        "cards",
        "suits",
        "value",
        "trump_value",
        "announce",
        "declare_if",
        "counts_if",
        "sets_trump",
    },
    "decision": {"at", "who", "first_asked", "offer_if", "after_announce", "effect", "public"},
    "deal": {"pattern", "hands", "sits_out", "next_dealer", "flow", "keep", "size"},
    "redeal": {"allowed_if", "forced_if", "same_dealer"},
    "bidding": {
        "opening",
        "forced_opening",
        "step",
        "pass",
        "ends",
        "cap",
        "qualifiers",
        "style",
        "values",
        "all_pass",
        "strains",
        "levels",
        "bid_if",
        "pass_if",
        "rounds",
        "double",
        "declarer",
        "first_caller",
        "join",
    },
    "talon": {"show", "give_each_defender", "split_if", "lay_away", "counts_for_if"},
    "pickup": {"who", "take_if", "lay_away"},
    "draw_up": {"to"},
    "combination": {"run", "same_rank", "order", "value", "strength"},
    "contract": {"raise", "step", "cap", "raise_if"},
    "play": {
        "follow",
        "trump_when_void",
        "beat_in_suit",
        "overtrump",
        "lead_if",
        "play_if",
        "first_leader",
        "trump",
        "draw",
        "trump_power",
        "power",
        "open_hand_if",
        "stop_if",
        "sit_out_if",
        "partner_plays_if",
        "trump_if",
        "talon_leads",
        "skip_if",
        "side_if",
    },
    "pass_cards": {"count", "to"},
    "bids": {"min", "max", "blind_if", "blind", "bid_if"},
    "match": {"target", "deal_limit", "redeal_limit", "tie_break", "keep", "rank_by", "end_if"},
    "bouts": {
        "attack",
        "throw_in_by",
        "skip_unable",
        "limit",
        "throw_after_take",
        "refill_to",
        "refill_order",
        "next_attacker_after_defence",
        "next_attacker_after_take",
        "swap_rank",
        "transfer",
        "max_bouts",
        "trump_if_no_stock",
        "first_attacker",
        "throw_in",
    },
}
TOP_BLOCKS = {
    "define",
    "bouts",
    "decision",
    "choice",
    "pass_cards",
    "bids",
    "deck",
    "meld",
    "deal",
    "redeal",
    "bidding",
    "talon",
    "pickup",
    "draw_up",
    "combination",
    "contract",
    "play",
    "scoring",
    "match",
    "after_deal",
    "after_trick",
}


class _Failed(Exception):
    """Compilation found errors (collected in order of discovery)."""

    def __init__(self, errors: list[RulesError]) -> None:
        super().__init__(str(errors[0]))
        self.errors = errors


class _Compiler:
    def __init__(self, rules: MergedRules) -> None:
        self.rules = rules
        self.root = rules.root
        self.top_loc = Location(rules.path, 1, 1, "")
        self.errors: list[RulesError] = []
        # `exchange_out N` effects and where they are written (checked against the deal)
        self.exchanges: list[tuple[int, Location | None]] = []

    def attempt(
        self,
        fn: Callable[[], T],
        default: T,
        blocks: tuple[str, ...] = (),
        settings: tuple[str, ...] = (),
    ) -> T:
        """Run one independent part of the compilation; record its error and go on.

        `blocks` are the blocks the part reads, `settings` the top-level settings it reads
        (`players`): an error in an inherited setting also names the line of another file
        that changed one of them (`because of ...`).
        """
        try:
            return fn()
        except RulesError as exc:
            self.errors.append(self.blamed(exc, blocks, settings))
            return default

    def need(
        self, fn: Callable[[], T], blocks: tuple[str, ...] = (), settings: tuple[str, ...] = ()
    ) -> T:
        """Run a part every later part depends on: on error, stop with all errors so far."""
        try:
            return fn()
        except RulesError as exc:
            self.errors.append(self.blamed(exc, blocks, settings))
            raise _Failed(self.errors) from None

    def blamed(
        self, exc: RulesError, blocks: tuple[str, ...], settings: tuple[str, ...] = ()
    ) -> RulesError:
        """`exc`, naming the changes other files made to the settings of `blocks` and to the
        top-level `settings` (settings they replaced or removed, or, failing those, settings
        they added to `blocks`)."""
        paths = [f"{b}.{name}" for b in blocks for name in sorted(BLOCK_SETTINGS.get(b, ()))]
        paths += settings
        found = self.rules.because(exc, paths) if paths else exc
        if found is not exc or exc.location is None:
            return found
        # settings added by the files merged after the error's own (its children): the
        # error's file and its parents were fine without them
        order = {path: i for i, (path, _) in enumerate(self.rules.sources)}
        after = order.get(exc.location.file, len(order))
        added = sorted(
            {
                entry.loc
                for key in blocks
                if isinstance(block := self.root.entries.get(key), MergedBlock)
                for entry in block.entries.values()
                if entry.loc is not None and order.get(entry.loc.file, -1) > after
            },
            key=lambda loc: (loc.file, loc.line, loc.column),
        )
        if not added:
            return exc
        shown = ", ".join(str(loc) for loc in added)
        return RulesError(f"{exc.message} (because of {shown})", exc.location)

    def block(self, key: str, label: str | None = None) -> BlockSettings:
        entry = self.root.entries.get(key)
        if entry is not None and not isinstance(entry, MergedBlock):
            raise RulesError(f"'{key}' is a block: write '{key} {{ ... }}'", entry.loc)
        return BlockSettings(entry, label or f"block '{key}'", self.top_loc)

    def compile(self) -> VariantModel:
        top = BlockSettings(self.root, "the variant", self.top_loc)
        for key, entry in self.root.entries.items():
            try:
                self.check_top_entry(key, entry)
            except RulesError as exc:
                self.errors.append(exc)
        name_items = self.attempt(lambda: top.items("name"), None)
        title = name_items[0].parts[0] if name_items else self.rules.name
        players = self.need(lambda: self.players(top))
        deck = self.need(self.deck, ("deck",))
        self.suit_names = {su.name: i for i, su in enumerate(deck.suits)}
        ranks = {r.symbol: i for i, r in enumerate(deck.ranks)}
        suits = {su.symbol: i for i, su in enumerate(deck.suits)}
        suits.update({su.name: i for i, su in enumerate(deck.suits)})
        bidding_block = self.block("bidding")
        no_qualifiers: tuple[str, ...] = ()
        qualifiers = self.attempt(lambda: self.qualifiers(bidding_block), no_qualifiers)
        no_strains: tuple[tuple[str, int], ...] = ()
        strains = self.attempt(lambda: self.strains(bidding_block, suits, qualifiers), no_strains)
        self.the_deck = deck
        self.symbols = Symbols(
            ranks,
            suits,
            qualifiers,
            deck.rank_of_card,
            deck.suit_of_card,
            {deck.card_text(c): deck.faces[c] for c in range(deck.size)},
            tuple(name for name, _ in strains),
            () if deck.plain else deck.faces,
            () if deck.plain else deck.cards_of_face,
        )
        self.strain_list = strains
        if b_points := self.block("deck").raw("card_points"):
            deck = self.need(lambda: self.card_points(deck, b_points), ("deck",))
        no_sides: tuple[tuple[int, ...], ...] = ()
        sides = self.attempt(lambda: self.sides(top, players), no_sides)
        self.model_sides = sides
        is_bouts = "bouts" in self.root.entries
        self.player_counts = players
        self.deck_size = deck.size
        deal = self.need(lambda: self.deal(players, deck, is_bouts), ("deal", "deck"), ("players",))
        self.deal_rules = deal
        self.kept = {
            **self.kept_types(),
            **{k: t for k, t, _ in deal.keep},
            **{option: BOOL for option in self.choice_options()},
        }
        no_melds: tuple[Meld, ...] = ()
        melds = self.attempt(lambda: self.melds(deck), no_melds)
        no_combinations: tuple[Combination, ...] = ()
        combinations = self.attempt(lambda: self.combinations(deck), no_combinations)
        self.attempt(lambda: self.check_plain_deck(deck), None)
        hand_scope = Scope(
            {**HAND_NAMES, **self.kept}, self.symbols, hand=True, where="in a hand rule"
        )
        redeal = self.attempt(lambda: self.redeal(hand_scope), None, ("redeal",))
        tricks: TrickRules | None = None
        bouts: BoutRules | None = None
        def_types: dict[str, str] = {}
        scoring_failed = False
        if is_bouts:
            for key in ("bidding", "talon", "contract", "play", "scoring", "redeal"):
                stray = self.root.entries.get(key)
                if stray is not None:
                    self.errors.append(
                        RulesError(
                            f"'{key}' has no meaning in a game of bouts (this variant has a "
                            f"'bouts' block); remove it with 'remove {key}'",
                            stray.loc,
                        )
                    )
            if melds:
                self.errors.append(
                    RulesError("melds have no meaning in a game of bouts", self.top_loc)
                )
            bouts = self.attempt(lambda: self.bouts(deck, deal, players), None, ("bouts", "deal"))
            result_names = dict(BOUT_RESULT_NAMES)
        else:
            hands = deal.hands or min(players)
            # a broken flow: go on with the phases the file gives something to do, so that
            # no block is blamed for a phase the flow only lacked
            only_tricks: tuple[str, ...] = ("tricks",)
            flow = self.attempt(self.flow, self.attempt(self.present_flow, only_tricks), ("deal",))
            self.flow_kinds = flow
            auction = "auction" in flow
            bidding = (
                self.attempt(
                    lambda: self.bidding(bidding_block, hand_scope, qualifiers, hands),
                    None,
                    ("bidding",),
                )
                if auction
                else None
            )
            talon = self.attempt(
                lambda: self.talon(deal, players), None, ("talon", "deal"), ("players",)
            )
            contract = (
                self.attempt(lambda: self.contract(bidding, hand_scope), None, ("contract",))
                if bidding is not None
                else None
            )
            pass_cards = (
                self.attempt(self.pass_cards, None, ("pass_cards", "deal"))
                if "pass" in flow
                else None
            )
            bids = (
                self.attempt(lambda: self.bids(hand_scope), None, ("bids",))
                if "bids" in flow
                else None
            )
            play = self.attempt(lambda: self.play(auction), None, ("play",))
            pickup = (
                self.attempt(self.pickup, None, ("pickup", "deal")) if "pickup" in flow else None
            )
            draw_up = (
                self.attempt(
                    lambda: self.draw_up(players, deck), None, ("draw_up", "deal"), ("players",)
                )
                if "draw_up" in flow
                else None
            )
            if play is not None and play.draw:
                self.attempt(
                    lambda: self.stock_draws(players, deck), None, DRAW_READS, ("players",)
                )
            no_decisions: tuple[Decision, ...] = ()
            decisions = self.attempt(lambda: self.decisions(deck), no_decisions)
            for exchange in self.exchanges:
                self.attempt(
                    functools.partial(self.check_exchange, *exchange),
                    None,
                    ("deal", "deck"),
                    ("players",),
                )
            no_steps: tuple[StepRule, ...] = ()
            after_trick = self.attempt(self.after_trick, no_steps, ("after_trick",))
            scoring_types = self.attempt(lambda: self.scoring(auction), None)
            if scoring_types is not None:
                def_types = scoring_types[1]
            scoring_failed = scoring_types is None
            if (
                (bidding is not None or not auction)
                and talon is not None
                and (contract is not None or not auction)
                and play is not None
                and scoring_types is not None
                and (pass_cards is not None or "pass" not in flow)
                and (bids is not None or "bids" not in flow)
                and (pickup is not None or "pickup" not in flow)
                and (draw_up is not None or "draw_up" not in flow)
            ):
                tricks = TrickRules(
                    bidding,
                    talon,
                    contract,
                    play,
                    scoring_types[0],
                    flow,
                    pass_cards,
                    bids,
                    decisions,
                    pickup,
                    draw_up,
                    after_trick,
                )
            result_names = dict(RESULT_NAMES)
        match = (
            None  # after_deal reads scoring's definitions: checking it now would only mislead
            if scoring_failed and self.errors
            else self.attempt(lambda: self.match(def_types, result_names), None)
        )
        self.attempt(lambda: self.check_defines(def_types), None)
        if self.errors:
            raise _Failed(self.errors)
        assert match is not None and (tricks is not None or bouts is not None)
        model = VariantModel(
            name=self.rules.name,
            title=title,
            players=players,
            deck=deck,
            melds=melds,
            deal=deal,
            redeal=redeal,
            tricks=tricks,
            bouts=bouts,
            match=match,
            content_hash=self.rules.content_hash,
            sources=tuple(p for p, _ in self.rules.sources),
            source_files=self.rules.files or tuple(p for p, _ in self.rules.sources),
            source_texts=tuple(text for _, text in self.rules.sources),
            sides=sides,
            combinations=combinations,
            defines=self.defines_shown(),
        )
        if tricks is not None and tricks.bidding is not None:
            self.need(lambda: _check_bid_ranges(model, tricks, bidding_block), ("bidding",))
        return model

    def check_top_entry(self, key: str, entry: Entry) -> None:
        """A top-level entry must be a known block or setting."""
        if isinstance(entry, MergedBlock):
            if entry.kind not in TOP_BLOCKS:
                raise RulesError(
                    f"unknown block '{entry.kind}'; blocks: {', '.join(sorted(TOP_BLOCKS))}",
                    entry.loc,
                )
            if entry.kind in ("meld", "decision", "choice", "combination") and entry.name is None:
                raise RulesError(
                    f"a {entry.kind} block needs a name: '{entry.kind} NAME {{ ... }}'", entry.loc
                )
        elif key not in BLOCK_SETTINGS["variant"]:
            raise RulesError(
                f"unknown top-level setting '{key}'; settings: name, players, sides", entry.loc
            )

    FLOW_BLOCKS = {
        "redeal": ("redeal", "a 'redeal' block"),
        "pass": ("pass_cards", "a 'pass_cards' block"),
        "auction": ("bidding", "a 'bidding' block"),
        "bids": ("bids", "a 'bids' block"),
        "pickup": ("pickup", "a 'pickup' block"),
        "draw_up": ("draw_up", "a 'draw_up' block"),
    }

    def _present(self) -> dict[str, bool]:
        """For each phase kind: whether the file gives it something to do."""
        has_talon = any(p.to == "talon" for p in self.deal_rules.pattern)
        present = {kind: key in self.root.entries for kind, (key, _) in self.FLOW_BLOCKS.items()}
        present.update(talon=has_talon, contract=self.block("contract").flag("raise", False))
        present["tricks"] = True
        return present

    def present_flow(self) -> tuple[str, ...]:
        """The phases the file gives something to do, in their order (the default flow)."""
        present = self._present()
        return tuple(k for k in TRICK_PHASES if present[k])

    def flow(self) -> tuple[str, ...]:
        """The deal's phases in order (`deal { flow: ... }`), checked against what each needs."""
        b = self.block("deal")
        items = b.items("flow")
        has_talon = any(p.to == "talon" for p in self.deal_rules.pattern)
        raises = self.block("contract").flag("raise", False)
        blocks = self.FLOW_BLOCKS
        present = self._present()
        if items is None:  # the phases the file gives something to do
            return self.present_flow()
        kinds: list[str] = []
        for it in items:
            kind = it.parts[0]
            if it.words or kind not in TRICK_PHASES:
                raise RulesError(
                    f"unknown phase '{kind}'; phases of a trick game: {', '.join(TRICK_PHASES)}",
                    it.loc,
                )
            if kind in kinds:
                raise RulesError(f"phase '{kind}' is named twice in the flow", it.loc)
            kinds.append(kind)
        loc = b.raw("flow").loc
        if "tricks" not in kinds:
            raise RulesError("the flow of a trick game needs the phase 'tricks'", loc)
        order = [k for k in TRICK_PHASES if k in kinds]
        if kinds != order:
            raise RulesError(
                f"phases run in this order: {', '.join(order)} (each needs what the ones "
                "before it decide: a declarer, his hand)",
                loc,
            )
        for kind in ("talon", "contract"):
            if kind in kinds and "auction" not in kinds:
                raise RulesError(f"the phase '{kind}' needs the phase 'auction' (a declarer)", loc)
        agree = [
            *((kind, present[kind], what) for kind, (_, what) in blocks.items()),
            ("talon", has_talon and "auction" in kinds, "a talon in the deal pattern"),
        ]
        for kind, needed, what in agree:
            if needed and kind not in kinds:
                raise RulesError(f"the flow needs the phase '{kind}': there is {what}", loc)
            if kind in kinds and not needed:
                raise RulesError(f"the phase '{kind}' has nothing to do without {what}", loc)
        if has_talon and "auction" not in kinds:
            raise RulesError("a talon needs the phase 'auction': nobody would take it", loc)
        if "contract" not in kinds and raises:
            raise RulesError("the flow needs the phase 'contract': 'contract { raise: yes }'", loc)
        return tuple(kinds)

    def sides(self, top: BlockSettings, players: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """Partnerships (`sides: 0 2, 1 3`): they cover every seat once for each player count."""
        items = top.items("sides")
        if items is None:
            return ()
        sides: list[tuple[int, ...]] = []
        for it in items:
            seats = [*it.parts]
            side = tuple(word_int(w, it.loc, "a seat") for w in seats)
            sides.append(side)
        flat = [seat for side in sides for seat in side]
        for seated in players:
            if sorted(flat) != list(range(seated)):
                raise RulesError(
                    f"the sides must name each seat 0..{seated - 1} exactly once "
                    f"(for {seated} players)",
                    top.raw("sides").loc,
                )
        return tuple(sides)

    def card_points(self, deck: Deck, entry: object) -> Deck:
        """`card_points = EXPR`: the points of each card, computed once per card (and once
        per trump suit when it reads `card_in_trump_suit` or `trump_set`)."""
        b = self.block("deck")
        scope = Scope(CARD_POINT_NAMES, self.symbols, card=True, where="in deck.card_points")
        fn = b.expr("card_points", scope, INT)
        suit_of = deck.suit_of_card
        reads_trump = bool(names_used(b.raw("card_points").expr) & CARD_POINT_NAMES.keys())
        tables = []
        for trump in range(-1, len(deck.suits) if reads_trump else 0):
            points = []
            for c in range(deck.size):
                in_trump = suit_of[c] == trump
                value = fn({CARD_KEY: c, "card_in_trump_suit": in_trump, "trump_set": trump >= 0})
                if not -MAX_VALUE <= value <= MAX_VALUE:
                    raise RulesError(
                        f"card_points gives {deck.card_text(c)} a number outside ±{MAX_VALUE:,}",
                        b.raw("card_points").loc,
                    )
                points.append(value)
            tables.append(tuple(points))
        return attrs.evolve(deck, by_card=tables[0], by_trump=tuple(tables) if reads_trump else ())

    def pass_cards(self) -> PassRules:
        """Passing cards: how many, and how many seats on."""
        b = self.block("pass_cards")
        b.check_known(BLOCK_SETTINGS["pass_cards"])
        count = b.integer("count", None, minimum=1)
        if count is None:
            raise RulesError("pass_cards needs 'count: N' (cards each player passes)", b.loc)
        if count > self.deal_rules.per_hand:
            raise RulesError(
                f"a player cannot pass {count} cards from a hand of {self.deal_rules.per_hand}",
                b.raw("count").loc,
            )
        scope = Scope(dict(PASS_NAMES), self.symbols, where="in pass_cards.to")
        return PassRules(count, b.expr("to", scope, INT))

    def bids(self, hand_scope: Scope) -> BidsRules:
        """One bid of a number from each player, some possibly blind."""
        b = self.block("bids")
        b.check_known(BLOCK_SETTINGS["bids"])
        low = b.integer("min", 0, minimum=0) or 0
        high = b.expr("max", attrs.evolve(hand_scope, where="in bids.max"), INT)
        blind_scope = Scope({**BLIND_NAMES, **self.kept}, self.symbols, where="in bids.blind_if")
        blind_if = b.expr("blind_if", blind_scope, BOOL, None) if b.raw("blind_if") else None
        blind = tuple(int_item(it, "a blind bid", 0) for it in b.items("blind") or ())
        if blind_if is not None and not blind:
            raise RulesError(
                "bids.blind_if needs 'blind: V, ...' (the bids allowed blind)",
                b.raw("blind_if").loc,
            )
        if blind and blind_if is None:
            raise RulesError(
                "'blind:' needs 'blind_if = ...' (who may bid blind)", b.raw("blind").loc
            )
        if len(set(blind)) != len(blind):
            raise RulesError("a blind bid is listed twice", b.raw("blind").loc)
        if len(blind) > MAX_BIDS:
            raise RulesError(f"at most {MAX_BIDS} blind bids", b.raw("blind").loc)
        return BidsRules(low, high, blind_if, blind, self.number_bid_if(b))

    def choice_options(self) -> list[str]:
        """The options of every `choice` block, read early: each is a yes/no name every
        expression of the deal may read (checked with the block)."""
        out: list[str] = []
        for entry in self.root.entries.values():
            if isinstance(entry, MergedBlock) and entry.kind == "choice":
                options = entry.entries.get("options")
                if isinstance(options, s.ListSetting):
                    out.extend(it.parts[0] for it in options.items if _is_name(it.parts[0]))
        return list(dict.fromkeys(out))  # an option may be offered by several choices

    def kept_types(self) -> dict[str, str]:
        """The kept names and their types, read early: deal-time expressions may read the
        player's kept values (the `keep` setting itself is checked with the match block)."""
        entry = self.block("match").raw("keep")
        kept: dict[str, str] = {}
        for it in entry.items if isinstance(entry, s.ListSetting) else ():
            parts = it.parts
            if len(parts) == 2 and _is_name(parts[0]) and parts[0] not in QUANTITIES:
                kept[parts[0]] = BOOL if parts[1] in BOOL_WORDS else INT
        return kept

    def qualifiers(self, b: BlockSettings) -> tuple[str, ...]:
        """Bid qualifiers ("ohne"): distinct words, at most MAX_QUALIFIERS."""
        items = b.items("qualifiers") or ()
        if len(items) > MAX_QUALIFIERS:
            raise RulesError(f"at most {MAX_QUALIFIERS} bid qualifiers", items[MAX_QUALIFIERS].loc)
        seen: set[str] = set()
        for it in items:
            word = it.parts[0]
            if word in seen:
                raise RulesError(f"bid qualifier '{word}' is listed twice", it.loc)
            if it.words or not _is_word(word):
                raise RulesError(
                    f"a bid qualifier is one word (letters, digits, _), not '{word}'", it.loc
                )
            seen.add(word)
        return tuple(it.parts[0] for it in items)

    def strains(
        self, b: BlockSettings, suits: dict[str, int], qualifiers: tuple[str, ...]
    ) -> tuple[tuple[str, int], ...]:
        """`strains: clubs, ..., notrump`: what a bid names, low to high; a suit name makes
        that suit trump, another word a strain without trump."""
        out: list[tuple[str, int]] = []
        items = b.items("strains") or ()
        if len(items) > MAX_QUALIFIERS:
            raise RulesError(f"at most {MAX_QUALIFIERS} strains", items[MAX_QUALIFIERS].loc)
        for it in items:
            word = it.parts[0]
            if it.words or not _is_word(word):
                raise RulesError(
                    f"a strain is one word (a suit's name or another), not '{word}'", it.loc
                )
            if any(word == w for w, _ in out):
                raise RulesError(f"strain '{word}' is listed twice", it.loc)
            if word in qualifiers:
                raise RulesError(f"'{word}' is both a strain and a qualifier", it.loc)
            out.append((word, suits.get(word, -1)))
        return tuple(out)

    # ------------------------------------------------------------- sections
    def players(self, top: BlockSettings) -> tuple[int, ...]:
        items = top.items("players", required=True)
        assert items is not None
        counts = tuple(int_item(it, "a player count", 2) for it in items)
        for it, c in zip(items, counts, strict=True):
            if c > MAX_PLAYERS:
                raise RulesError(f"at most {MAX_PLAYERS} players are supported", it.loc)
        return tuple(dict.fromkeys(counts))  # the first listed is the default

    def deck(self) -> Deck:
        b = self.block("deck")
        b.check_known(BLOCK_SETTINGS["deck"])
        suit_items = b.items("suits", required=True) or ()
        suits: list[Suit] = []
        for it in suit_items:
            parts = it.parts
            if len(parts) not in (2, 3):
                raise RulesError('a suit is written: name SYMBOL ["glyph"]', it.loc)
            glyph = parts[2] if len(parts) == 3 else parts[1]
            suits.append(Suit(parts[0], parts[1], glyph))
        rank_items = b.items("ranks", required=True) or ()
        ranks: list[Rank] = []
        for it in rank_items:
            parts = it.parts
            if len(parts) not in (1, 2):
                raise RulesError('a rank is written: SYMBOL ["name"]', it.loc)
            ranks.append(Rank(parts[0], parts[1] if len(parts) == 2 else parts[0]))
        for label, seq, items in (
            ("suit", [x.symbol for x in suits], suit_items),
            ("rank", [x.symbol for x in ranks], rank_items),
        ):
            seen: set[str] = set()
            for sym, it in zip(seq, items, strict=True):
                if sym in seen:
                    raise RulesError(f"{label} symbol '{sym}' is declared twice", it.loc)
                seen.add(sym)
        for sym, it in [(x.symbol, i) for x, i in zip(suits, suit_items, strict=True)] + [
            (x.symbol, i) for x, i in zip(ranks, rank_items, strict=True)
        ]:
            if len(sym) > MAX_SYMBOL:
                raise RulesError(
                    f"a card symbol has at most {MAX_SYMBOL} characters, not {len(sym)}", it.loc
                )
            if not _is_word(sym):
                raise RulesError(
                    f"a card symbol is letters and digits (no spaces or signs), not '{sym}'",
                    it.loc,
                )
        copies = b.integer("copies", 1, minimum=1) or 1
        if len(suits) * len(ranks) * copies > MAX_DECK:
            raise RulesError(f"a deck may hold at most {MAX_DECK} cards", b.loc)
        texts: dict[str, tuple[str, str]] = {}
        for su in suits:
            for r in ranks:
                text = r.symbol + su.symbol
                if text in texts:
                    other = texts[text]
                    raise RulesError(
                        f"two cards would be written '{text}': rank {other[0]} of suit "
                        f"{other[1]} and rank {r.symbol} of suit {su.symbol}; choose symbols "
                        "so that every card text is different",
                        rank_items[0].loc,
                    )
                texts[text] = (r.symbol, su.symbol)
        rank_index = {r.symbol: i for i, r in enumerate(ranks)}
        if b.raw("points") is not None and b.raw("card_points") is not None:
            raise RulesError(
                "give card points either by rank ('points:') or by card ('card_points ='), "
                "not both",
                b.raw("points").loc,
            )
        points: dict[int, int] = {}
        for it in b.items("points") or ():
            parts = it.parts
            if len(parts) != 2:
                raise RulesError("card points are written: RANK POINTS, e.g. 'A 11'", it.loc)
            if parts[0] not in rank_index:
                raise RulesError(
                    f"unknown rank '{parts[0]}' in points; ranks: {', '.join(rank_index)}", it.loc
                )
            points[rank_index[parts[0]]] = word_int(parts[1], it.loc, "card points")
        point_items = b.items("points")
        if point_items is not None:
            missing = [r.symbol for i, r in enumerate(ranks) if i not in points]
            if missing:
                raise RulesError(f"rank {', '.join(missing)} has no points", b.raw("points").loc)
        without = self.without(b, suits, ranks)
        return Deck(
            tuple(suits),
            tuple(ranks),
            tuple(points.get(i, 0) for i in range(len(ranks))),
            copies=copies,
            without=without,
        )

    def check_defines(self, def_types: dict[str, str]) -> None:
        """`define { NAME = EXPR }`: the loader wrote each define into the expressions that
        name it; a define's name may not be a name, card, rank, suit or word of the rules
        already (it would stand for two things)."""
        block = self.root.entries.get(DEFINE_BLOCK)
        if not isinstance(block, MergedBlock):
            return
        if block.name is not None:
            raise RulesError("the define block has no name: 'define { NAME = EXPR }'", block.loc)
        taken = {
            **dict.fromkeys(QUANTITIES, "a name of the rules"),
            **dict.fromkeys(BOOL_WORDS, "a word of the rules"),
            **dict.fromkeys(ALL_FUNCS, "a function"),
            **dict.fromkeys(self.kept, "a kept value or option"),
            **dict.fromkeys(def_types, "a scoring definition"),
            **dict.fromkeys(self.symbols.ranks, "a rank"),
            **dict.fromkeys(self.symbols.suits, "a suit"),
            **dict.fromkeys(self.symbols.cards, "a card"),
            **dict.fromkeys(self.symbols.qualifiers, "a bid qualifier"),
            **dict.fromkeys(self.symbols.strains, "a strain"),
        }
        for key, entry in block.entries.items():
            if key in taken:
                raise RulesError(
                    f"'{key}' is {taken[key]} already: a define needs a name of its own",
                    entry.loc,
                )

    def defines_shown(self) -> tuple[tuple[str, str, str], ...]:
        """The defines, as written and as written into other expressions (for `show`)."""
        block = self.root.entries.get(DEFINE_BLOCK)
        return defines_shown(block.entries) if isinstance(block, MergedBlock) else ()

    def check_plain_deck(self, deck: Deck) -> None:
        """Melds, combinations and games of bouts take a deck of every card once: they
        are refused beside `copies` or `without` (not yet defined for them)."""
        if deck.plain:
            return
        for entry in self.root.entries.values():
            if isinstance(entry, MergedBlock) and entry.kind in ("meld", "combination", "bouts"):
                what = {"meld": "melds", "combination": "combinations"}.get(
                    entry.kind, "a game of bouts"
                )
                raise RulesError(
                    f"{what} need a deck of every card once: 'copies' and 'without' cannot "
                    "be used with them yet",
                    entry.loc,
                )

    def without(self, b: BlockSettings, suits: list[Suit], ranks: list[Rank]) -> tuple[int, ...]:
        """`without: CARD, ...`: the faces the deck does not hold (each named once)."""
        faces = {
            r.symbol + su.symbol: si * len(ranks) + ri
            for si, su in enumerate(suits)
            for ri, r in enumerate(ranks)
        }
        out: list[int] = []
        for it in b.items("without") or ():
            text = it.parts[0] if len(it.parts) == 1 else ""
            if text not in faces:
                some = ", ".join(list(faces)[:3])
                raise RulesError(f"'without' names cards, written like {some}", it.loc)
            if faces[text] in out:
                raise RulesError(f"card {text} is named twice in 'without'", it.loc)
            out.append(faces[text])
        if out and len(out) == len(faces):
            raise RulesError("'without' leaves no card in the deck", b.raw("without").loc)
        return tuple(out)

    def deal(self, players: tuple[int, ...], deck: Deck, is_bouts: bool) -> DealRules:
        b = self.block("deal")
        b.check_known(BLOCK_SETTINGS["deal"])
        packets: list[Packet] = []
        sized = False
        for it in b.items("pattern", required=True) or ():
            parts = it.parts
            if parts[0] == "rest" and len(parts) == 2 and parts[1] in ("stock", "out"):
                packets.append(Packet(-1, parts[1]))
                continue
            if len(parts) >= 3 and parts[-1] == "round":
                counts = tuple(word_int(w, it.loc, "a packet size") for w in parts[:-1])
                if any(c < 0 for c in counts) or sum(counts) == 0 or sum(counts) > MAX_DECK:
                    raise RulesError("a round of packets deals 0 or more cards to each", it.loc)
                if is_bouts:
                    raise RulesError("a game of bouts deals 'N each'", it.loc)
                packets.append(Packet(0, "round", counts=counts))
                continue
            count = word_int(parts[0], it.loc, "a packet size")
            if len(parts) < 2 or parts[1] not in ("each", "talon", "stock", "turnup"):
                raise RulesError(
                    "a packet is written: N each | N talon | N stock | N turnup [K times] | "
                    "N N ... round | rest stock | rest out",
                    it.loc,
                )
            times = 1
            by_size = False
            holder = ""
            if parts[1] == "turnup" and len(parts) >= 3 and parts[2] == "to":
                if len(parts) != 4 or parts[3] != "dealer":
                    raise RulesError(
                        "a turned-up card dealt into a hand is written '1 turnup to dealer'",
                        it.loc,
                    )
                if is_bouts:
                    raise RulesError(
                        "a game of bouts leaves its turned-up card under the stock", it.loc
                    )
                holder = "dealer"
            elif len(parts) == 4 and parts[3] == "times" and parts[2] == "size":
                if b.raw("size") is None:
                    raise RulesError("'size times' needs 'size = EXPR' in the deal block", it.loc)
                by_size = sized = True
            elif len(parts) == 4 and parts[3] == "times":
                times = word_int(parts[2], it.loc, "a repeat count")
            elif len(parts) != 2:
                raise RulesError("a packet is written: N each [K times]", it.loc)
            if count <= 0 or times <= 0:
                raise RulesError("packet sizes and repeat counts must be positive", it.loc)
            if count * times > MAX_DECK:
                raise RulesError(f"a deal pattern deals at most {MAX_DECK} cards", it.loc)
            if parts[1] == "talon" and is_bouts:
                raise RulesError("a game of bouts has a stock, not a talon", it.loc)
            if parts[1] == "turnup" and (
                count * times != 1 or by_size or any(p.to == "turnup" for p in packets)
            ):
                raise RulesError("one card is turned up for trump: '1 turnup'", it.loc)
            if by_size:
                packets.append(Packet(count, parts[1], sized=True))
            else:
                packets.extend([Packet(count, parts[1], holder=holder)] * times)
        if sum(1 for p in packets if p.count < 0) > 1:
            raise RulesError("'rest stock' or 'rest out' is written once", b.raw("pattern").loc)
        if any(p.count < 0 for p in packets[:-1]):
            raise RulesError("'rest ...' comes last in the deal pattern", b.raw("pattern").loc)
        size_expr: CompiledExpr | None = None
        if b.raw("size") is not None:
            if not sized:
                raise RulesError(
                    "'size' is used in the pattern: write e.g. '1 each size times'",
                    b.raw("size").loc,
                )
            if is_bouts:
                raise RulesError("a game of bouts deals a fixed pattern", b.raw("size").loc)
            scope = Scope(dict(SIZE_NAMES), self.symbols, where="in deal.size")
            size_expr = b.expr("size", scope, INT)
        hands = b.integer("hands", None, minimum=2)
        sits_out = b.word("sits_out", ("dealer", "none"), "none")
        held = any(p.holder for p in packets)
        if held and (hands is not None or sits_out != "none"):
            raise RulesError(
                "'1 turnup to dealer' deals a card into the dealer's hand: the dealer must "
                "play (no 'hands' or 'sits_out' in the deal block)",
                b.raw("pattern").loc,
            )
        ruled = isinstance(b.raw("next_dealer"), s.ExprSetting)  # compiled with the match
        next_dealer = "rule" if ruled else b.word("next_dealer", ("left", "same", "loser"), "left")
        if not is_bouts and next_dealer == "loser":
            raise RulesError(
                "'next_dealer: loser' needs a deal with a loser (a game of bouts); a trick game "
                "says left or same",
                b.raw("next_dealer").loc,
            )
        keep = self.deal_keep(b)
        if keep and is_bouts:
            raise RulesError("a game of bouts has no decisions to set 'keep'", b.raw("keep").loc)
        rules = DealRules(
            tuple(packets),
            hands,
            None if sits_out == "none" else sits_out,
            next_dealer,
            keep,
            size_expr,
        )
        loc = b.raw("pattern").loc
        out = any(p.to == "out" for p in packets)
        for seated in players:
            for p in packets:
                if p.to == "round" and len(p.counts) != (hands or seated):
                    raise RulesError(
                        f"a round of packets gives one packet to each of {hands or seated} "
                        f"players: {len(p.counts)} given",
                        loc,
                    )
            if packets and (held or any(p.to == "round" for p in packets)):
                last = (hands or seated) - 1  # the dealer, dealt to last
                totals = {
                    sum(
                        p.counts[i]
                        if p.to == "round"
                        else p.count
                        if p.to == "each"
                        else int(bool(p.holder) and i == last)
                        for p in packets
                    )
                    for i in range(hands or seated)
                }
                if len(totals) > 1:
                    raise RulesError(
                        "the deal pattern gives the hands unequal sizes"
                        + (" (the card turned up to the dealer is one of his)" if held else ""),
                        loc,
                    )
            in_deal = hands or seated
            if (
                out
                and size_expr is None
                and len(rules.places(list(range(in_deal)), deck.size)) > deck.size
            ):
                raise RulesError(
                    f"the deal pattern deals {rules.per_hand} cards to each of {in_deal} hands"
                    + (f" + {rules.talon_size} talon" if rules.talon_size else "")
                    + f", more than the {deck.size} cards of the deck",
                    loc,
                )
            if out or size_expr is not None:
                continue  # checked as each deal is dealt
            if in_deal > seated:
                raise RulesError(f"{in_deal} hands cannot be dealt with {seated} players", loc)
            if in_deal < seated and rules.sits_out is None:
                raise RulesError(
                    f"with {seated} players and {in_deal} hands someone must sit out: "
                    "add 'sits_out: dealer' to the deal block",
                    loc,
                )
            fixed = sum(
                p.count for p in rules.pattern if p.to in ("stock", "turnup") and not p.holder
            )
            dealt = rules.per_hand * in_deal + rules.talon_size + fixed
            rest = any(p.count < 0 for p in rules.pattern)
            if rest and not is_bouts and dealt <= deck.size:
                continue
            if is_bouts:
                if rules.per_hand * in_deal > deck.size:
                    raise RulesError(
                        f"the deal pattern gives {rules.per_hand} cards to each of {in_deal} "
                        f"players, {rules.per_hand * in_deal} in all, but the deck has {deck.size}",
                        loc,
                    )
                continue
            if dealt != deck.size:
                raise RulesError(
                    f"the deal pattern deals {dealt} cards ({rules.per_hand} to each of "
                    f"{in_deal} hands + {rules.talon_size} talon"
                    + (f" + {fixed} stock" if fixed else "")
                    + f") but the deck has {deck.size}",
                    loc,
                )
        return rules

    def deal_keep(self, b: BlockSettings) -> tuple[tuple[str, str, int | bool], ...]:
        """`deal { keep: NAME INITIAL, ... }`: per-player values during one deal."""
        keep: list[tuple[str, str, int | bool]] = []
        builtins = {*QUANTITIES, *BOOL_WORDS}
        match_kept = self.kept_types()
        for it in b.items("keep") or ():
            parts = it.parts
            if len(parts) != 2:
                raise RulesError("a deal's kept value is written: NAME INITIAL", it.loc)
            name = parts[0]
            if name in builtins or not _is_name(name) or name in match_kept:
                raise RulesError(
                    f"'{name}' cannot be kept in a deal: it is a built-in quantity or kept by "
                    "the match; choose another name",
                    it.loc,
                )
            if any(name == k for k, _, _ in keep):
                raise RulesError(f"'{name}' is kept twice", it.loc)
            if parts[1] in BOOL_WORDS:
                keep.append((name, BOOL, BOOL_WORDS[parts[1]]))
            else:
                keep.append((name, INT, word_int(parts[1], it.loc, "an initial value")))
        return tuple(keep)

    def melds(self, deck: Deck) -> tuple[Meld, ...]:
        rank_index = {r.symbol: i for i, r in enumerate(deck.ranks)}
        suit_index = {su.name: i for i, su in enumerate(deck.suits)}
        suit_index.update({su.symbol: i for i, su in enumerate(deck.suits)})
        declare_scope = Scope(
            {**DECLARE_NAMES, **self.kept}, self.symbols, hand=True, where="in a meld's declare_if"
        )
        count_scope = Scope(
            {**RESULT_NAMES, **MATCH_STATE_NAMES, **self.kept},
            self.symbols,
            where="in a meld's counts_if",
        )
        melds = []
        for entry in self.root.entries.values():
            if not isinstance(entry, MergedBlock) or entry.kind != "meld":
                continue
            b = BlockSettings(entry, f"meld '{entry.name}'", self.top_loc)
            b.check_known(BLOCK_SETTINGS["meld"])
            card_items = b.items("cards", required=True) or ()
            suits_word = b.word("suits", ("each", "all"), "each")
            texts = ["".join(it.parts) for it in card_items]
            by_text = self.symbols.cards
            fixed: list[int] = []
            if suits_word == "all" or (
                all(t in by_text for t in texts)
                and not all(it.parts[0] in rank_index and not it.words for it in card_items)
            ):
                fixed = self.fixed_meld_cards(card_items, texts, suits_word == "all", deck)
                card_items = ()
            ranks = []
            for it in card_items:
                sym = it.parts[0]
                if sym not in rank_index or it.words:
                    raise RulesError(
                        f"unknown rank '{sym}'; ranks: {', '.join(rank_index)}", it.loc
                    )
                if rank_index[sym] in ranks:
                    raise RulesError(
                        f"rank '{sym}' is named twice in the meld; a meld's cards are different "
                        "ranks of one suit",
                        it.loc,
                    )
                ranks.append(rank_index[sym])
            values = [0] * len(deck.suits)
            seen = set()
            value_items = b.items("value", required=True) or ()
            if len(value_items) == 1 and len(value_items[0].parts) == 1:  # `value: 20`
                one = int_item(value_items[0], "a meld value")
                values = [one] * len(deck.suits)
                seen = set(range(len(deck.suits)))
                value_items = ()
            for it in value_items:
                parts = it.parts
                if len(parts) != 2 or parts[0] not in suit_index:
                    raise RulesError(
                        f"a meld value is written: SUIT POINTS; suits: {', '.join(suit_index)}",
                        it.loc,
                    )
                values[suit_index[parts[0]]] = word_int(parts[1], it.loc, "a meld value")
                seen.add(suit_index[parts[0]])
            if len(seen) != len(deck.suits):
                missing = [su.name for i, su in enumerate(deck.suits) if i not in seen]
                raise RulesError(f"meld has no value for {', '.join(missing)}", b.raw("value").loc)
            true = compile_expr(s.Name("yes", entry.loc or self.top_loc), declare_scope, BOOL)
            if fixed:
                if len(set(values)) != 1:
                    raise RulesError(
                        "a meld of cards from several suits has one value: 'value: N'",
                        b.raw("value").loc,
                    )
                for setting in ("trump_value", "sets_trump"):
                    if b.raw(setting) is not None and not (
                        setting == "sets_trump" and not b.flag(setting, False)
                    ):
                        raise RulesError(
                            f"'{setting}' needs a meld of one suit", b.raw(setting).loc
                        )
            melds.append(
                Meld(
                    entry.name or "",
                    tuple(ranks),
                    tuple(values),
                    b.expr("declare_if", declare_scope, BOOL, true),
                    b.expr("counts_if", count_scope, BOOL, true),
                    b.flag("sets_trump", not fixed),
                    b.integer("trump_value", None),
                    b.flag("announce", False),
                    tuple(fixed),
                )
            )
        return tuple(melds)

    def combinations(self, deck: Deck) -> tuple[Combination, ...]:
        """The `combination NAME` blocks: a run of N or more cards of one suit in an order,
        or N or more cards of one rank, each with its value and strength, checked on every
        combination a hand can hold, with every trump."""
        rank_index = {r.symbol: i for i, r in enumerate(deck.ranks)}
        scope = Scope(COMBINATION_NAMES, self.symbols, card=True, where="in a combination")
        strength_scope = Scope(
            STRENGTH_NAMES, self.symbols, card=True, where="in a combination's strength"
        )
        out = []
        for entry in self.root.entries.values():
            if not isinstance(entry, MergedBlock) or entry.kind != "combination":
                continue
            b = BlockSettings(entry, f"combination '{entry.name}'", self.top_loc)
            b.check_known(BLOCK_SETTINGS["combination"])
            kinds = [k for k in ("run", "same_rank") if b.raw(k) is not None]
            if len(kinds) != 1:
                raise RulesError(
                    "a combination is either 'run: N' (N or more cards of one suit in a row) or "
                    "'same_rank: N' (N or more cards of one rank)",
                    (b.raw(kinds[1]) if len(kinds) > 1 else b).loc,
                )
            kind = kinds[0]
            order_items = b.items("order")
            order: list[int] = []
            for it in order_items or ():
                sym = it.parts[0]
                if sym not in rank_index or it.words:
                    raise RulesError(
                        f"unknown rank '{sym}'; ranks: {', '.join(rank_index)}", it.loc
                    )
                if rank_index[sym] in order:
                    raise RulesError(f"rank '{sym}' is named twice in the order", it.loc)
                order.append(rank_index[sym])
            if order_items is None:
                order = list(range(len(deck.ranks)))
            most = len(order) if kind == "run" else len(deck.suits)
            size = b.integer(kind, None, minimum=2)
            assert size is not None
            if size > most:
                raise RulesError(
                    f"{kind}: {size} needs more cards than there are "
                    f"({most} {'ranks in the order' if kind == 'run' else 'suits'})",
                    b.raw(kind).loc,
                )
            value = b.expr("value", scope, INT)
            strength = b.expr("strength", strength_scope, INT, None) if b.raw("strength") else None
            n = len(deck.ranks)
            # every combination a hand can hold (its length, top place and suit), every trump
            shapes = [
                (length, top)
                for length in range(size, most + 1)
                for top in range(len(order) - length + 1 if kind == "run" else len(order))
            ]
            for trump, (length, top), suit in itertools.product(
                range(-1, len(deck.suits)), shapes, range(len(deck.suits))
            ):
                env = {
                    CARD_KEY: suit * n + order[top],
                    "length": length,
                    "top": top,
                    "card_in_trump_suit": kind == "run" and suit == trump,
                    "trump_set": trump >= 0,
                }
                worth = value(env)
                if not -MAX_VALUE <= worth <= MAX_VALUE:
                    raise RulesError(
                        f"value gives a number outside ±{MAX_VALUE:,}", b.raw("value").loc
                    )
                strong = (
                    strength({**env, "value": worth}) if strength is not None and worth > 0 else 1
                )
                if not 1 <= strong <= MAX_VALUE:
                    raise RulesError(
                        f"strength must be from 1 to {MAX_VALUE:,} for a combination worth "
                        f"something, not {strong}",
                        b.raw("strength").loc,
                    )
            out.append(Combination(entry.name or "", kind, size, tuple(order), value, strength))
        return tuple(out)

    def fixed_meld_cards(
        self, items: tuple[s.Item, ...], texts: list[str], all_suits: bool, deck: Deck
    ) -> list[int]:
        """The cards of a meld that is not ranks of one suit: the listed ranks in every suit
        (`suits: all`: four aces), or the listed cards (`cards: QS, JD`)."""
        n = len(deck.ranks)
        rank_index = {r.symbol: i for i, r in enumerate(deck.ranks)}
        cards: list[int] = []
        for it, text in zip(items, texts, strict=True):
            if all_suits:
                if it.words or it.parts[0] not in rank_index:
                    raise RulesError(
                        f"with 'suits: all' a meld lists ranks; '{text}' is not a rank", it.loc
                    )
                new = [si * n + rank_index[it.parts[0]] for si in range(len(deck.suits))]
            else:
                new = [self.symbols.cards[text]]
            if any(c in cards for c in new):
                raise RulesError(f"'{text}' is named twice in the meld", it.loc)
            cards.extend(new)
        return cards

    def redeal(self, hand_scope: Scope) -> RedealRules | None:
        if "redeal" not in self.root.entries:
            return None
        b = self.block("redeal")
        b.check_known(BLOCK_SETTINGS["redeal"])
        forced = b.expr("forced_if", hand_scope, BOOL, None) if b.raw("forced_if") else None
        # without `allowed_if` nobody is offered a redeal (only forced ones, or thrown-in
        # deals that `same_dealer` deals again)
        allowed = b.expr("allowed_if", hand_scope, BOOL, None) if b.raw("allowed_if") else None
        return RedealRules(allowed, b.flag("same_dealer", True), forced)

    def bidding(
        self, b: BlockSettings, hand_scope: Scope, qualifiers: tuple[str, ...], hands: int
    ) -> Bidding:
        b.check_known(BLOCK_SETTINGS["bidding"])
        all_pass = b.word("all_pass", ("redeal", "played", "play_on"), "redeal")
        values = self.bid_values(b)
        if b.word("style", ("calls", "pairs"), "calls") == "pairs":
            return self.pair_bidding(b, hand_scope, values, all_pass)
        if b.raw("join") is not None:
            raise RulesError(
                "'join' is a round of the auction in pairs: it needs 'style: pairs'",
                b.raw("join").loc,
            )
        opening_expr: CompiledExpr | None = None
        parts: tuple[str, ...] = ("at_least", "")
        opening = 0
        if isinstance(b.raw("opening"), s.ExprSetting):
            opening_expr = b.expr("opening", hand_scope, INT)
        elif self.strain_list and b.raw("opening") is None:
            pass  # the levels are the values (or none); checked below
        else:
            items = b.items("opening", required=True) or ()
            parts = items[0].parts if items else ()
            if len(items) != 1 or len(parts) != 2 or parts[0] not in ("at_least", "exactly"):
                raise RulesError(
                    "'opening' is written 'at_least N', 'exactly N' or 'opening = EXPR'",
                    b.raw("opening").loc,
                )
            opening = word_int(parts[1], items[0].loc, "the opening bid")
        step = b.integer("step", None if not values and not self.strain_list else 1, minimum=1)
        if step is None:
            raise RulesError("bidding needs a 'step:' (the bid increment) or 'values:'", b.loc)
        if values and b.raw("step") is not None:
            raise RulesError(
                "bids come from 'values:' here; a 'step' means nothing", b.raw("step").loc
            )
        ends_items = b.items("ends") or ()
        ends_after: int | None = None
        if ends_items:
            ep = ends_items[0].parts
            if ep == ("one_left",):
                ends_after = None
            elif len(ep) == 2 and ep[0] == "passes":
                ends_after = word_int(ep[1], ends_items[0].loc, "the number of passes")
            elif ep != ("first_bid",):
                raise RulesError(
                    "'ends' is 'one_left', 'passes N' or 'first_bid'", ends_items[0].loc
                )
        if ends_items and ends_items[0].parts == ("first_bid",):
            ends_after = 0  # the first bid ends the auction
        drops = b.word("pass", ("drops_out", "stays_in"), "drops_out") == "drops_out"
        if drops and ends_after is not None and ends_after >= hands:
            raise RulesError(
                f"this auction can never end: players who pass drop out, so {ends_after} passes "
                f"in a row cannot happen among {hands} players; say 'ends: one_left' or "
                "fewer passes",
                b.raw("ends").loc,
            )
        first_bid = ends_after == 0 and bool(ends_items) and ends_items[0].parts == ("first_bid",)
        if ends_after is not None and ends_after < 1 and not first_bid:
            raise RulesError("'ends: passes N' needs N of at least 1", b.raw("ends").loc)
        rounds = b.integer("rounds", None, minimum=1)
        if first_bid and not drops and rounds is None:
            raise RulesError(
                "with 'ends: first_bid' and 'pass: stays_in' say how many rounds of calls "
                "there are before everybody has passed: 'rounds: N'",
                b.raw("ends").loc,
            )
        if not drops and ends_after is None:
            raise RulesError(
                "when passing does not drop a player out ('pass: stays_in') the auction can "
                "never end by one player being left: say 'ends: passes N'",
                b.raw("pass").loc,
            )
        strains = self.strain_list
        levelless = b.word("levels", ("none",), "") == "none"
        if levelless and not strains:
            raise RulesError(
                "'levels: none' needs 'strains:' (what a bid names)", b.raw("levels").loc
            )
        if levelless and values:
            raise RulesError("'levels: none' and 'values:' exclude each other", b.raw("levels").loc)
        cap = b.expr("cap", hand_scope, INT) if b.raw("cap") is not None or not strains else None
        if strains:
            for name in ("opening", "step", "forced_opening"):
                if b.raw(name) is not None:
                    raise RulesError(
                        f"'{name}' means nothing with 'strains:' (the levels are 'values:' or "
                        "'levels: none')",
                        b.raw(name).loc,
                    )
            if not values and not levelless:
                raise RulesError(
                    "with 'strains:' give the levels: 'values: 1, 2, ...' or 'levels: none'",
                    b.raw("strains").loc,
                )
            if levelless:
                values = (0,)
            opening, parts, step = values[0], ("at_least", ""), 1
            if cap is None:
                cap = compile_expr(s.Number(values[-1], b.loc or self.top_loc), hand_scope, INT)
        call_scope = Scope(
            {**CALL_NAMES, **self.kept},
            self.symbols,
            hand=True,
            qualifier=True,
            named=True,
            where="in bidding.bid_if",
        )
        bid_if = b.expr("bid_if", call_scope, BOOL, None) if b.raw("bid_if") else None
        pass_if = (
            b.expr("pass_if", attrs.evolve(call_scope, where="in bidding.pass_if"), BOOL, None)
            if b.raw("pass_if")
            else None
        )
        assert cap is not None
        return Bidding(
            opening=opening,
            opening_exact=parts[0] == "exactly",
            forced_opening=False if strains else b.flag("forced_opening", True),
            step=step,
            pass_drops_out=drops,
            ends_after_passes=ends_after,
            cap=cap,
            qualifiers=qualifiers,
            opening_expr=opening_expr,
            values=values,
            all_pass=all_pass,
            strains=tuple(name for name, _ in strains),
            strain_suits=tuple(suit for _, suit in strains),
            levelless=levelless,
            bid_if=bid_if,
            pass_if=pass_if,
            rounds=rounds,
            double=b.flag("double", False),
            declarer_rule=b.word("declarer", ("last_bidder", "first_to_name"), "last_bidder"),
            first_caller=b.word("first_caller", ("forehand", "dealer"), "forehand"),
        )

    def bid_values(self, b: BlockSettings) -> tuple[int, ...]:
        """`values: 18, 20, ...`: the bids there are, each once, lowest first."""
        items = b.items("values") or ()
        values = [int_item(it, "a bid value", 1) for it in items]
        for it, (low, high) in zip(items[1:], itertools.pairwise(values), strict=True):
            if high <= low:
                raise RulesError("bid values are listed lowest first, each once", it.loc)
        if len(values) > MAX_BIDS:
            raise RulesError(f"at most {MAX_BIDS} bid values", items[MAX_BIDS].loc)
        return tuple(values)

    def pair_bidding(
        self, b: BlockSettings, hand_scope: Scope, values: tuple[int, ...], all_pass: str
    ) -> Bidding:
        """`style: pairs`: the second player bids to the first, who holds or passes; each
        later player bids to the survivor in turn; bids come from `values`."""
        if not values:
            raise RulesError("'style: pairs' needs 'values: ...' (the bids there are)", b.loc)
        for name in ("opening", "forced_opening", "step", "pass", "ends", "qualifiers"):
            if b.raw(name) is not None:
                raise RulesError(
                    f"'{name}' means nothing with 'style: pairs' (bids come from 'values')",
                    b.raw(name).loc,
                )
        no_cap = compile_expr(s.Number(values[-1], b.loc or self.top_loc), hand_scope, INT)
        return Bidding(
            opening=values[0],
            opening_exact=False,
            forced_opening=False,
            step=1,
            pass_drops_out=True,
            ends_after_passes=None,
            cap=b.expr("cap", hand_scope, INT, no_cap),
            qualifiers=(),
            style="pairs",
            values=values,
            all_pass=all_pass,
            join=b.flag("join", False),
        )

    def talon(self, deal: DealRules, players: tuple[int, ...]) -> TalonRules:
        b = self.block("talon")
        b.check_known(BLOCK_SETTINGS["talon"])
        scope = Scope({}, self.symbols, qualifier=True, where="in the talon rules")
        split = b.expr("split_if", scope, BOOL, compile_expr(s.Name("no", self.top_loc), scope))
        give = b.integer("give_each_defender", 0) or 0
        lay_away = b.integer("lay_away", 0) or 0
        for seated in players:
            hands = deal.hands or seated
            talon = deal.talon_size
            declarer_keeps = deal.per_hand + talon - give * (hands - 1) - lay_away
            if talon and give * hands + lay_away != talon:
                what = f"gives {give} to each of {hands - 1} defenders" + (
                    f" and lays away {lay_away}" if lay_away else ""
                )
                raise RulesError(
                    f"the declarer takes the {talon}-card talon and {what}: hands would differ "
                    f"({declarer_keeps} against {deal.per_hand + give}); the talon must be "
                    "the cards given to each player times the players, plus those laid away",
                    (b.raw("give_each_defender") or b.raw("lay_away") or b).loc,
                )
            if talon and b.raw("split_if") is not None and talon % hands:
                raise RulesError(
                    f"a {talon}-card talon cannot be split one card each among {hands} hands",
                    b.raw("split_if").loc,
                )
        counts_scope = Scope(
            {**OPEN_NAMES, "won_last_trick": BOOL, "contract": INT, **self.kept},
            self.symbols,
            where="in talon.counts_for_if",
        )
        counts_for = b.expr("counts_for_if", counts_scope, BOOL) if b.raw("counts_for_if") else None
        return TalonRules(b.flag("show", False), give, split, lay_away, counts_for)

    def contract(self, bidding: Bidding, hand_scope: Scope) -> ContractRules:
        b = self.block("contract")
        b.check_known(BLOCK_SETTINGS["contract"])
        step = b.integer("step", bidding.step, minimum=1) or bidding.step
        cap_entry = b.raw("cap")
        raise_if: CompiledExpr | None = None
        if b.raw("raise_if") is not None:
            if not bidding.strains:
                raise RulesError(
                    "'raise_if' chooses among contracts that name a strain: it needs "
                    "'strains:' in the bidding",
                    b.raw("raise_if").loc,
                )
            raise_scope = Scope(
                {**RAISE_NAMES, **self.kept},
                self.symbols,
                hand=True,
                qualifier=True,
                named=True,
                where="in contract.raise_if",
            )
            raise_if = b.expr("raise_if", raise_scope, BOOL)
        return ContractRules(
            b.flag("raise", False),
            step,
            b.expr("cap", hand_scope, INT, bidding.cap),
            cap_entry.loc if cap_entry is not None else None,
            raise_if=raise_if,
        )

    def play(self, auction: bool) -> PlayRules:
        b = self.block("play")
        b.check_known(BLOCK_SETTINGS["play"])
        lead_scope = Scope(
            {**LEAD_NAMES, **self.kept},
            self.symbols,
            hand=True,
            card=True,
            played=True,
            led=True,
            where="in play.lead_if",
        )
        play_scope = attrs.evolve(
            lead_scope, names={**PLAY_NAMES, **self.kept}, leading=True, where="in play.play_if"
        )
        first_leader = "declarer" if auction else "forehand"
        leader_card = -1
        leader_rule: CompiledExpr | None = None
        leader_scope = attrs.evolve(self.role_scope("play.first_leader"), hand=True, trump=True)
        raw_leader = b.raw("first_leader")
        leader_items = None if isinstance(raw_leader, s.ExprSetting) else b.items("first_leader")
        if isinstance(raw_leader, s.ExprSetting):  # the first player for whom it holds
            first_leader = "rule"
            leader_rule = b.expr("first_leader", leader_scope, BOOL)
        if leader_items is not None:
            it = leader_items[0]
            parts = it.parts
            if len(leader_items) == 1 and parts[0] == "holder" and len(parts) >= 2:
                text = "".join(parts[1:])
                found = self.symbols.cards.get(text)
                if found is None:
                    raise RulesError(f"'{text}' is not a card of this deck", it.loc)
                first_leader, leader_card = "holder", found
                # the shorthand of the rule `first_leader = holds(CARD)`
                holds = s.Call("holds", (s.Name(text, it.loc),), it.loc)
                leader_rule = compile_expr(holds, leader_scope, BOOL)
            else:
                first_leader = b.word(
                    "first_leader", ("declarer", "forehand", "left_of_declarer"), first_leader
                )
        if first_leader in ("declarer", "left_of_declarer") and not auction:
            raise RulesError(
                f"'first_leader: {first_leader}' needs an auction; say forehand or 'holder CARD'",
                b.raw("first_leader").loc,
            )
        trump = -1
        pattern = self.deal_rules.pattern
        trump_rule = self.trump_rule(b)
        trump_items = None if trump_rule is not None else b.items("trump")
        if trump_items is not None:
            word = trump_items[0].parts[0]
            if (
                len(trump_items) != 1
                or trump_items[0].words
                or (word not in ("none", "turnup", "bid") and word not in self.symbols.suits)
            ):
                names = ", ".join(["none", "turnup", "bid", *self.symbols.suits])
                raise RulesError(f"'trump' is one of: {names}", trump_items[0].loc)
            if word == "turnup" and not any(p.to == "turnup" for p in pattern):
                raise RulesError(
                    "'trump: turnup' needs a turned-up card: '1 turnup' in the deal pattern",
                    trump_items[0].loc,
                )
            if word == "bid" and not self.strain_list:
                raise RulesError(
                    "'trump: bid' needs bids that name a strain: 'strains:' in the bidding",
                    trump_items[0].loc,
                )
            trump = self.symbols.suits.get(word, -1)
        draw = b.flag("draw", False)
        if draw and not any(p.to == "stock" for p in pattern):
            raise RulesError(
                "'draw: yes' needs a stock: 'rest stock' in the deal pattern", b.raw("draw").loc
            )
        obligation_scope = Scope(
            {**OBLIGATION_NAMES, **self.kept}, self.symbols, where="in a play obligation"
        )
        open_scope = Scope(
            {**OPEN_NAMES, **self.kept},
            self.symbols,
            aggregates=True,
            qualifier=True,
            where="in play",
        )
        talon_leads = b.flag("talon_leads", False)
        if talon_leads and not any(p.to == "talon" for p in pattern):
            raise RulesError(
                "'talon_leads: yes' needs a talon: 'N talon' in the deal pattern",
                b.raw("talon_leads").loc,
            )
        flags: dict[str, bool] = {}
        obligations: list[tuple[str, CompiledExpr]] = []
        for name, default in (
            ("follow", True),
            ("trump_when_void", False),
            ("beat_in_suit", False),
            ("overtrump", False),
        ):
            if isinstance(b.raw(name), s.ExprSetting):
                obligations.append((name, b.expr(name, obligation_scope, BOOL)))
                flags[name] = default
            else:
                flags[name] = b.flag(name, default)
        return PlayRules(
            follow=flags["follow"],
            trump_when_void=flags["trump_when_void"],
            beat_in_suit=flags["beat_in_suit"],
            overtrump=flags["overtrump"],
            lead_if=b.expr("lead_if", lead_scope, BOOL, None) if b.raw("lead_if") else None,
            first_leader=first_leader,
            first_leader_rule=leader_rule,
            play_if=b.expr("play_if", play_scope, BOOL, None) if b.raw("play_if") else None,
            trump=trump,
            leader_card=leader_card,
            trump_turnup=trump_items is not None and trump_items[0].parts[0] == "turnup",
            draw=draw,
            obligations=tuple(obligations),
            trump_power=self.relation(b, "trump_power"),
            power=self.relation(b, "power"),
            open_hand_if=b.expr("open_hand_if", open_scope, BOOL, None)
            if b.raw("open_hand_if")
            else None,
            stop_if=b.expr("stop_if", open_scope, BOOL, None) if b.raw("stop_if") else None,
            skip_if=b.expr("skip_if", open_scope, BOOL, None) if b.raw("skip_if") else None,
            sit_out_if=b.expr("sit_out_if", self.role_scope("play.sit_out_if"), BOOL, None)
            if b.raw("sit_out_if")
            else None,
            partner_plays_if=b.expr("partner_plays_if", open_scope, BOOL, None)
            if b.raw("partner_plays_if")
            else None,
            trump_bid=trump_items is not None and trump_items[0].parts[0] == "bid",
            trump_if=b.expr(
                "trump_if",
                Scope(dict(TRUMP_IF_NAMES), self.symbols, where="in play.trump_if"),
                BOOL,
                None,
            )
            if b.raw("trump_if")
            else None,
            trump_rule=trump_rule,
            obligation_reads=frozenset(
                name
                for key, _ in obligations
                for name in names_used(b.raw(key).expr)
                if name in self.kept or name in MATCH_STATE_NAMES
            ),
            open_reads_contract=any(
                (names_used(b.raw(key).expr) & CONTRACT_NAMES)
                or (functions_used(b.raw(key).expr) & {"strain_is", "bid_is"})
                for key in OPEN_RULES
                if isinstance(b.raw(key), s.ExprSetting)
            ),
            player_reads=frozenset(
                name
                for key in OPEN_RULES
                if isinstance(b.raw(key), s.ExprSetting)
                for name in names_used(b.raw(key).expr)
                if name in self.kept or name in MATCH_STATE_NAMES
            ),
            open_aggregates=any(
                functions_used(b.raw(key).expr) & AGGREGATE_FUNCS.keys()
                for key in OPEN_RULES
                if isinstance(b.raw(key), s.ExprSetting)
            ),
            talon_leads=talon_leads,
            trick_reads=frozenset(
                name
                for key in ("follow", "trump_when_void", "beat_in_suit", "overtrump", "play_if")
                if isinstance(b.raw(key), s.ExprSetting)
                for name in names_used(b.raw(key).expr)
                if name in TRICK_READS and name not in self.kept
            ),
            open_table_reads=frozenset(
                name
                for key in OPEN_RULES
                if isinstance(b.raw(key), s.ExprSetting)
                for name in _aggregated_names(b.raw(key).expr)
            ),
            reads_led=any(
                functions_used(b.raw(key).expr) & set(LED_FUNCS)
                for key in ("lead_if", "play_if")
                if isinstance(b.raw(key), s.ExprSetting)
            ),
            side_if=self.side_if(b, partner_plays=b.raw("partner_plays_if") is not None),
        )

    def side_if(self, b: BlockSettings, partner_plays: bool) -> CompiledExpr | None:
        """`play { side_if = EXPR }`: the sides formed as trick play begins, over each
        player's role and his hand (`holds(C)`): those for whom it holds against the others.
        Nobody is told the sides, so no rule a player acts on may read his partner."""
        raw = b.raw("side_if")
        if raw is None:
            return None
        if self.model_sides:
            raise RulesError(
                "'side_if' forms the sides in each deal; the file also fixes them with "
                "'sides:': keep one",
                raw.loc,
            )
        if partner_plays:
            raise RulesError(
                "'partner_plays_if' needs partners known to all; with 'side_if' nobody is "
                "told who his partner is",
                b.raw("partner_plays_if").loc,
            )
        for key in ("follow", "trump_when_void", "beat_in_suit", "overtrump", "play_if"):
            entry = b.raw(key)
            if isinstance(entry, s.ExprSetting) and "partner_winning" in names_used(entry.expr):
                raise RulesError(
                    "'partner_winning' would tell a player who his partner is; with 'side_if' "
                    "nobody is told",
                    entry.loc,
                )
        scope = attrs.evolve(self.role_scope("play.side_if"), hand=True, trump=True)
        return b.expr("side_if", scope, BOOL)

    def role_scope(self, where: str) -> Scope:
        """The names a player's role in the deal reads (`sit_out_if`, `pickup.take_if`)."""
        options = self.choice_options()
        return Scope(
            {**ROLE_NAMES, **self.kept, **dict.fromkeys(options, BOOL)},
            self.symbols,
            qualifier=True,
            aggregates=True,
            where=f"in {where}",
        )

    def trump_rule(self, b: BlockSettings) -> CompiledExpr | None:
        """`play { trump = EXPR }`: the trump suit of each deal, worked out as it is dealt
        over the public names of `trump_if` (`deal_number`, ...), where each suit's name is
        its number: `trump = if mod(deal_number, 2) == 1 then hearts else spades`."""
        raw = b.raw("trump")
        if not isinstance(raw, s.ExprSetting):
            return None
        suits = self.suit_names
        clash = sorted(set(suits) & set(TRUMP_NAMES))
        if clash:
            raise RulesError(
                f"'trump = EXPR' reads suits by name, and the suit {clash[0]} has the name of "
                "a quantity: rename the suit",
                raw.loc,
            )
        scope = Scope(
            {**TRUMP_NAMES, **dict.fromkeys(suits, INT)},
            self.symbols,
            where="in play.trump (a suit's name is its number)",
        )
        return b.expr("trump", scope, INT)

    def pickup(self) -> PickupRules:
        """`pickup { who; take_if; lay_away }`: a player takes the turned-up card."""
        b = self.block("pickup")
        b.check_known(BLOCK_SETTINGS["pickup"])
        if not any(p.to == "turnup" for p in self.deal_rules.pattern):
            raise RulesError(
                "a pickup needs a turned-up card: '1 turnup' in the deal pattern", b.loc
            )
        if self.deal_rules.turnup_held:
            raise RulesError(
                "the turned-up card is dealt into the dealer's hand ('1 turnup to dealer'): "
                "there is nothing to pick up",
                b.loc,
            )
        who = b.word("who", ("dealer", "declarer"), "dealer")
        if who == "declarer" and "auction" not in self.flow_kinds:
            raise RulesError("'who: declarer' needs an auction", b.raw("who").loc)
        take_if = (
            b.expr("take_if", self.role_scope("pickup.take_if"), BOOL, None)
            if b.raw("take_if")
            else None
        )
        lay_away = b.integer("lay_away", 0, minimum=0) or 0
        # the taker's hand would differ from the others' all through play (unless every hand
        # is drawn up to one size after the pickup)
        if lay_away != 1 and not (lay_away == 0 and "draw_up" in self.flow_kinds):
            more = 1 - lay_away
            raise RulesError(
                f"the taker adds the turned-up card to his hand and lays away {lay_away}: he "
                f"would play with {abs(more)} card{'s' if abs(more) != 1 else ''} "
                f"{'more' if more > 0 else 'fewer'} than the others; the hands stay equal "
                "with 'lay_away: 1'",
                (b.raw("lay_away") or b).loc,
            )
        return PickupRules(who, take_if, lay_away)

    def draw_up(self, players: tuple[int, ...], deck: Deck) -> DrawUpRules:
        """`draw_up { to: N }`: each player in deal order takes cards from the stock (the
        turned-up card last) until he holds N; the stock must hold enough for every player
        count, whatever the phases before took or laid away."""
        b = self.block("draw_up")
        b.check_known(BLOCK_SETTINGS["draw_up"])
        to = b.integer("to", None, minimum=1)
        if to is None:
            raise RulesError(
                "a draw_up block needs 'to: N' (the size each hand is drawn up to)", b.loc
            )
        rules = self.deal_rules
        if not any(p.to == "stock" for p in rules.pattern):
            raise RulesError(
                "draw_up takes its cards from a stock: 'rest stock' in the deal pattern", b.loc
            )
        for seated, in_deal, size, places in _layouts(rules, players, deck.size):
            held = min(places.get(seat, 0) for seat in range(in_deal))
            if max(places.get(seat, 0) for seat in range(in_deal)) > to:
                raise RulesError(
                    f"the deal pattern already gives a hand more than {to} cards "
                    f"(with {seated} players): draw_up cannot even the hands",
                    b.raw("to").loc,
                )
            stock = places.get(STOCK, 0) + places.get(TURNUP, 0)
            need = sum(to - places.get(seat, 0) for seat in range(in_deal))
            if stock < need:
                of_size = f" in a deal of size {size}" if rules.size is not None else ""
                raise RulesError(
                    f"drawing every hand up to {to} cards takes {need} cards with {seated} "
                    f"players{of_size} (hands of {held} or more), but the stock and the "
                    f"turned-up card hold {stock}",
                    b.raw("to").loc,
                )
        return DrawUpRules(to)

    def stock_draws(self, players: tuple[int, ...], deck: Deck) -> None:
        """`play { draw: yes }`: after each trick every player in the deal draws one card,
        so the stock (with the turned-up card) must hold a multiple of their number, for
        every player count and deal size, and also once a pickup has taken the turned-up
        card; otherwise the hands run unequal and the deal ends with cards unplayed."""
        rules = self.deal_rules
        pickup = "pickup" in self.flow_kinds
        for seated, in_deal, size, places in _layouts(rules, players, deck.size):
            face_down, turnup = places.get(STOCK, 0), places.get(TURNUP, 0)
            stock = face_down + turnup
            sizes = [stock, stock - 1] if pickup and turnup else [stock]
            if all(n % in_deal == 0 for n in sizes):
                continue
            who = f"{seated} players" + (f" ({in_deal} in a deal)" if in_deal != seated else "")
            parts = f"{face_down} face down and the turned-up card" if turnup else ""
            held = f"{stock} cards" + (f" ({parts})" if parts else "")
            if len(sizes) > 1:
                held += f", and {stock - 1} once the pickup has taken the turned-up card"
            of_size = f" in a deal of size {size}" if rules.size is not None else ""
            raise RulesError(
                f"'draw: yes' gives each of the {in_deal} players in a deal one card of the "
                f"stock after every trick, so the stock must hold a multiple of {in_deal} "
                f"cards; with {who}{of_size} it holds {held}: the hands would end up of "
                "different sizes",
                self.block("play").raw("draw").loc,
            )

    def number_bid_if(self, b: BlockSettings) -> CompiledExpr | None:
        """`bids { bid_if = EXPR }`: which numbers a player may bid."""
        if b.raw("bid_if") is None:
            return None
        scope = Scope(
            {**NUMBER_BID_NAMES, **self.kept}, self.symbols, hand=True, where="in bids.bid_if"
        )
        return b.expr("bid_if", scope, BOOL, None)

    def relation(self, b: BlockSettings, name: str) -> CompiledExpr | None:
        """`trump_power` / `power`: a number per card, checked on every card and trump."""
        if b.raw(name) is None:
            return None
        options = self.choice_options()
        scope = Scope(
            {**RELATION_NAMES, **dict.fromkeys(options, BOOL)},
            self.symbols,
            card=True,
            qualifier=True,
            where=f"in play.{name}",
        )
        fn = b.expr(name, scope, INT)
        n = len(self.symbols.ranks)
        faces = self.the_deck.faces
        for trump in range(-1, len(self.the_deck.suits)):
            for quals in ("", *self.symbols.qualifiers):
                for chosen in ["", *options]:
                    for c, face in enumerate(faces):
                        env = relation_env(c, face, n, trump, quals, options, (chosen,))
                        value = fn(env)
                        if not -MAX_VALUE <= value <= MAX_VALUE:
                            raise RulesError(
                                f"{name} gives a number outside ±{MAX_VALUE:,}", b.raw(name).loc
                            )
        return fn

    def decisions(self, deck: Deck) -> tuple[Decision, ...]:
        """The `decision NAME` blocks: who may take them when, and what they do."""
        scope = Scope(
            {**DECISION_NAMES, **self.kept},
            self.symbols,
            hand=True,
            taken=True,
            trump=True,
            aggregates=True,
            qualifier=True,
            where="in a decision",
            tricks=Scope(
                dict(TURN_TRICK_NAMES),
                self.symbols,
                where="in a trick of sum_tricks / count_tricks",
                trick=True,
            ),
        )
        assignable = {k: t for k, t, _ in self.deal_rules.keep}
        rank_index = {r.symbol: i for i, r in enumerate(deck.ranks)}
        out: list[Decision] = []
        seen_options: set[str] = set()
        for entry in self.root.entries.values():
            if not isinstance(entry, MergedBlock) or entry.kind not in ("decision", "choice"):
                continue
            name = entry.name or ""
            b = BlockSettings(entry, f"{entry.kind} '{name}'", self.top_loc)
            if name in RESERVED_ACTION_WORDS:
                raise RulesError(
                    f"a decision cannot be called '{name}': it is an action word of the engine",
                    entry.loc,
                )
            at = tuple(" ".join(it.parts) for it in b.items("at", required=True) or ())
            flow = self.flow_kinds
            for it, point in zip(b.items("at") or (), at, strict=True):
                parts = it.parts
                turn = point in ("lead", "play", "end", "card")
                between = len(parts) == 2 and parts[0] == "before" and parts[1] in flow
                if not (turn or between):
                    raise RulesError(
                        "'at' is one of: lead, play (turns in trick play; both may be listed), "
                        "card (a round of offers to every player before each card), end, "
                        f"before PHASE (phases here: {', '.join(flow)})",
                        it.loc,
                    )
            if "card" in at and len(at) > 1:
                raise RulesError(
                    "'at: card' (offered to every player before each card) stands alone",
                    b.raw("at").loc,
                )
            if len(at) > 1 and not set(at) <= {"lead", "play"}:
                raise RulesError(
                    "a decision between phases ('end', 'before PHASE') has one 'at'",
                    b.raw("at").loc,
                )
            who = b.word("who", ("each", "declarer", "defenders"), "each")
            if who != "each" and "auction" not in flow and not self.declaring_choice():
                raise RulesError(f"'who: {who}' needs an auction (a declarer)", b.raw("who").loc)
            first_asked = b.word("first_asked", ("forehand", "left_of_declarer"), "forehand")
            if first_asked != "forehand" and "auction" not in flow and not self.declaring_choice():
                raise RulesError(
                    f"'first_asked: {first_asked}' needs an auction (a declarer)",
                    b.raw("first_asked").loc,
                )
            for key in ("who", "first_asked"):
                if b.raw(key) is not None and set(at) <= {"lead", "play", "card"}:
                    raise RulesError(
                        f"'{key}' is for decisions between phases: at its turn a player decides",
                        b.raw(key).loc,
                    )
            if entry.kind == "choice":
                out.append(self.choice(b, name, at, who, scope, seen_options))
                continue
            steps: list[StepRule] = []
            effect, swap_rank, skip, exchange = "", -1, "", 0
            for key, item in entry.entries.items():
                if isinstance(item, s.Step):
                    steps.append(self.step_rule(item, scope, assignable, "a deal's keep names"))
                elif key not in BLOCK_SETTINGS["decision"]:
                    known = ", ".join(sorted(BLOCK_SETTINGS["decision"]))
                    raise RulesError(
                        f"unknown setting '{key}' in {b.label}; settings: {known}, and "
                        "'rule NAME: ...' lines",
                        item.loc,
                    )
            effects = b.items("effect") or ()
            if len(effects) > 1:
                raise RulesError("a decision has one effect", effects[1].loc)
            for it in effects:
                parts = it.parts
                if parts in (("close_stock",), ("end_deal",)):
                    effect = parts[0]
                elif len(parts) == 2 and parts[0] == "swap_turnup" and parts[1] in rank_index:
                    effect, swap_rank = "swap_turnup", rank_index[parts[1]]
                elif len(parts) == 2 and parts[0] == "exchange_out" and parts[1].isdigit():
                    effect, exchange = "exchange_out", int(parts[1])
                    if not 1 <= exchange <= deck.size:
                        raise RulesError(f"'exchange_out' takes 1 to {deck.size} cards", it.loc)
                    if set(at) & {"lead", "play", "card"}:
                        raise RulesError(
                            "'exchange_out' is for decisions between phases "
                            "('at: before PHASE' or 'at: end')",
                            it.loc,
                        )
                elif len(parts) == 2 and parts[0] == "skip" and parts[1] in flow:
                    effect, skip = "skip", parts[1]
                    later = [p.split()[1] for p in at if p.startswith("before ")]
                    if not later or flow.index(later[0]) > flow.index(skip):
                        raise RulesError(
                            f"'skip {skip}' needs a decision asked before that phase starts "
                            f"('at: before {skip}' or an earlier phase)",
                            it.loc,
                        )
                else:
                    raise RulesError(
                        "'effect' is one of: close_stock, swap_turnup RANK, end_deal, "
                        f"skip PHASE (phases here: {', '.join(flow)}), exchange_out N",
                        it.loc,
                    )
            needs = {"close_stock": "stock", "swap_turnup": "turnup", "exchange_out": "out"}.get(
                effect
            )
            if needs and not any(p.to == needs and not p.holder for p in self.deal_rules.pattern):
                raise RulesError(
                    f"'{effect}' needs a {needs} in the deal pattern", b.raw("effect").loc
                )
            if effect == "exchange_out":
                self.exchanges.append((exchange, b.raw("effect").loc))
            out.append(
                Decision(
                    name,
                    at,
                    b.expr("offer_if", scope, BOOL),
                    b.flag("after_announce", False),
                    tuple(steps),
                    effect,
                    swap_rank,
                    who,
                    skip,
                    reads=_block_reads(entry),
                    public=b.flag("public", False),
                    first_asked=first_asked,
                    exchange=exchange,
                )
            )
        return tuple(out)

    def check_exchange(self, count: int, loc: Location | None) -> None:
        """`exchange_out N` swaps N cards of a hand for N of the cards left out: with fewer
        left out (for some player count or deal size) his hand would shrink."""
        for seated, _, size, places in _layouts(
            self.deal_rules, self.player_counts, self.deck_size
        ):
            out = places.get(OUT, 0)
            if out < count:
                of_size = f" in a deal of size {size}" if self.deal_rules.size is not None else ""
                raise RulesError(
                    f"'exchange_out {count}' takes {count} of the cards left out of the deal, "
                    f"but with {seated} players{of_size} the deal leaves out {out}: the "
                    "exchanger's hand would shrink",
                    loc,
                )

    def choice(
        self,
        b: BlockSettings,
        name: str,
        at: tuple[str, ...],
        who: str,
        scope: Scope,
        seen: set[str],
    ) -> Decision:
        """A `choice NAME` block: one of its options must be chosen between phases; each
        option is a yes/no name of the deal, and may set the trump suit."""
        block = b.block
        assert block is not None
        if set(at) & {"lead", "play", "card"}:
            raise RulesError(
                "a choice is made between phases: 'at: before PHASE' or 'at: end'",
                b.raw("at").loc,
            )
        items = b.items("options", required=True) or ()
        options: list[str] = []
        for it in items:
            option = it.parts[0]
            if it.words or not _is_name(option) or option in RESERVED_ACTION_WORDS:
                raise RulesError(f"an option is one word, not an action word: '{option}'", it.loc)
            if option in options:
                raise RulesError(f"option '{option}' is named twice", it.loc)
            if option in QUANTITIES or option in {k for k, _, _ in self.deal_rules.keep}:
                raise RulesError(f"option '{option}' is already a name here", it.loc)
            options.append(option)
        seen.update(options)
        trumps = dict.fromkeys(options, -1)
        for it in b.items("trump") or ():
            parts = it.parts
            suits = {**self.symbols.suits, "none": NO_TRUMP}
            if len(parts) != 2 or parts[0] not in trumps or parts[1] not in suits:
                raise RulesError(
                    "'trump' pairs an option with a suit (or none): OPTION SUIT, ...", it.loc
                )
            trumps[parts[0]] = suits[parts[1]]
        known = {
            "at",
            "who",
            "first_asked",
            "offer_if",
            "own",
            "options",
            "trump",
            "declares",
            *(f"{o}_if" for o in options),
        }
        for key, entry in block.entries.items():
            if key not in known:
                raise RulesError(
                    f"unknown setting '{key}' in {b.label}; settings: at, who, first_asked, "
                    "offer_if, own, options, trump, declares, and OPTION_if = ... for an "
                    "option offered only sometimes",
                    entry.loc,
                )
        yes = compile_expr(s.Name("yes", b.loc or self.top_loc), scope, BOOL)
        own = b.flag("own", False)
        if own and any(trumps[o] != -1 for o in options):
            raise RulesError(
                "the options of a choice with 'own: yes' are each player's own values and "
                "cannot set the deal's trump",
                b.raw("trump").loc,
            )
        conditions = tuple(
            b.expr(f"{o}_if", scope, BOOL) if b.raw(f"{o}_if") is not None else yes for o in options
        )
        first_asked = b.word("first_asked", ("forehand", "left_of_declarer"), "forehand")
        return Decision(
            name,
            at,
            b.expr("offer_if", scope, BOOL, yes) if b.raw("offer_if") is not None else yes,
            False,
            (),
            "",
            -1,
            who,
            "",
            tuple(options),
            conditions,
            tuple(trumps[o] for o in options),
            _block_reads(block),
            first_asked=first_asked,
            own=own,
            declares=b.flag("declares", False),
        )

    def after_trick(self) -> tuple[StepRule, ...]:
        """`after_trick { rule NAME: [if C then] x = e, ... }`: run for every player of the
        deal after each finished trick, over that trick's names; they set deal `keep`
        values."""
        b = self.block("after_trick")
        if b.block is None:
            return ()
        if "tricks" not in self.flow_kinds:
            raise RulesError("after_trick needs trick play", b.loc)
        scope = Scope(
            {**TRICK_EVENT_NAMES, **self.kept},
            self.symbols,
            where="in after_trick",
            trick=True,
            aggregates=True,
        )
        assignable = {k: t for k, t, _ in self.deal_rules.keep}
        steps = []
        for key, entry in b.block.entries.items():
            if not isinstance(entry, s.Step):
                raise RulesError(
                    f"after_trick holds 'rule NAME: ...' lines; '{key}' is not one", entry.loc
                )
            steps.append(self.step_rule(entry, scope, assignable, "a deal's keep names"))
        return tuple(steps)

    def declaring_choice(self) -> bool:
        """Some choice makes its chooser the declarer (`declares: yes`): a declarer without
        an auction."""
        for entry in self.root.entries.values():
            if isinstance(entry, MergedBlock) and entry.kind == "choice":
                raw = entry.entries.get("declares")
                if isinstance(raw, s.ListSetting) and [it.parts for it in raw.items] in (
                    [("yes",)],
                    [("true",)],
                ):
                    return True
        return False

    def step_rule(
        self, entry: s.Step, scope: Scope, assignable: dict[str, str], what: str
    ) -> StepRule:
        """One `rule NAME: [if C then] x = e, ...` line; it may assign the names `assignable`."""
        cond = compile_expr(entry.condition, scope, BOOL) if entry.condition else None
        assigns = []
        for a in entry.assigns:
            if a.name not in assignable:
                known = ", ".join(sorted(assignable)) or "none"
                raise RulesError(f"cannot assign '{a.name}'; assignable ({what}): {known}", a.loc)
            assigns.append(Assignment(a.name, compile_expr(a.expr, scope, assignable[a.name])))
        return StepRule(entry.name, cond, tuple(assigns), entry.loc)

    def scoring(self, auction: bool) -> tuple[Scoring, dict[str, str]]:
        b = self.block("scoring")
        scope = Scope(
            {**RESULT_NAMES, **MATCH_STATE_NAMES, **self.kept},
            self.symbols,
            qualifier=True,
            where="in scoring",
            taken=True,
            aggregates=True,
            seats=True,
            hand=True,
            trump=True,
            tricks=Scope(
                dict(RESULT_TRICK_NAMES),
                self.symbols,
                where="in a trick of sum_tricks / count_tricks",
                trick=True,
                opponents=True,
            ),
        )
        roles = ("declarer", "defender") if auction else ("player",)
        defs: dict[str, s.ExprSetting] = {}
        for key, entry in b.block.entries.items() if b.block else ():
            if not isinstance(entry, s.ExprSetting):
                raise RulesError(
                    f"scoring holds definitions 'name = expression'; '{key}' is not", entry.loc
                )
            other = ("player",) if auction else ("declarer", "defender")
            if key in other:
                raise RulesError(
                    f"'{key}' has no meaning "
                    + (
                        "with an auction: say 'declarer = ...' and 'defender = ...'"
                        if auction
                        else "without an auction (no declarer): say 'player = ...'"
                    ),
                    entry.loc,
                )
            if (key in RESULT_NAMES or key in MATCH_STATE_NAMES) and key not in roles:
                raise RulesError(
                    f"'{key}' is a built-in quantity and cannot be redefined", entry.loc
                )
            defs[key] = entry
        for required in roles:
            if required not in defs:
                raise RulesError(
                    f"scoring needs '{required} = ...' (that role's deal score)"
                    if auction
                    else "scoring needs 'player = ...' (each player's deal score)",
                    b.loc,
                )
        ordered: list[tuple[str, CompiledExpr]] = []
        types: dict[str, str] = {}
        visiting: list[str] = []

        def checked(expr: s.Expr, names: Scope, want: str | None = None) -> CompiledExpr:
            try:
                return compile_expr(expr, names, want)
            except RulesError as exc:
                raise self.rules.because(exc, _defined_by(names_used(expr))) from None

        def visit(name: str) -> None:
            if name in types:
                return
            if name in visiting:
                cycle = " -> ".join([*visiting[visiting.index(name) :], name])
                raise RulesError(
                    f"definitions refer to each other in a circle: {cycle}", defs[name].loc
                )
            visiting.append(name)
            for dep in sorted(names_used(defs[name].expr)):
                if dep in defs and dep not in roles:
                    visit(dep)
            visiting.pop()
            compiled = checked(defs[name].expr, scope.with_names(types))
            types[name] = compiled.type
            ordered.append((name, compiled))

        roles_all = (*roles, "sitting_out")  # `sitting_out`: what a seat out of the deal scores
        roles = roles_all if "sitting_out" in defs else roles
        for name in defs:
            if name not in roles:
                visit(name)
        full = scope.with_names(types)
        declarer = checked(defs[roles[0]].expr, full, INT)
        defender = checked(defs["defender" if auction else "player"].expr, full, INT)
        sitting_out = (
            checked(defs["sitting_out"].expr, full, INT) if "sitting_out" in defs else None
        )
        reads_taken = any(functions_used(entry.expr) & set(TAKEN_FUNCS) for entry in defs.values())
        reads_top = any("top_trumps" in names_used(entry.expr) for entry in defs.values())
        reads_hand = any(
            functions_used(entry.expr)
            & {"count_rank", "count_suit", "holds", "count_card", "holds_trump"}
            for entry in defs.values()
        )
        reads_tricks = any(
            functions_used(entry.expr) & set(TRICKS_AGGREGATES) for entry in defs.values()
        )
        scoring = Scoring(
            tuple(ordered),
            declarer,
            defender,
            reads_taken,
            reads_top,
            sitting_out,
            reads_hand,
            reads_tricks,
        )
        return scoring, types

    def match(self, def_types: dict[str, str], result_names: dict[str, str]) -> MatchRules:
        b = self.block("match")
        b.check_known(BLOCK_SETTINGS["match"])
        keep: list[tuple[str, str, int | bool]] = []
        builtins = {*QUANTITIES, *result_names, *def_types, *BOOL_WORDS}
        for it in b.items("keep") or ():
            parts = it.parts
            if len(parts) != 2:
                raise RulesError(
                    "kept state is written: NAME INITIAL, e.g. 'bonus 0' or 'warned no'", it.loc
                )
            if parts[0] in builtins or not _is_name(parts[0]):
                raise RulesError(
                    f"'{parts[0]}' cannot be a kept name: it is a built-in quantity or a "
                    "scoring definition here; choose another name",
                    it.loc,
                )
            if any(parts[0] == k for k, _, _ in keep):
                raise RulesError(f"'{parts[0]}' is kept twice", it.loc)
            if parts[1] in BOOL_WORDS:
                keep.append((parts[0], BOOL, BOOL_WORDS[parts[1]]))
            else:
                keep.append((parts[0], INT, word_int(parts[1], it.loc, "an initial value")))
        tie = tuple(it.parts[0] for it in (b.items("tie_break") or ()))
        for it in b.items("tie_break") or ():
            if it.parts[0] not in ("declarer", "highest", "play_on") or it.words:
                raise RulesError("tie_break items are: declarer, highest, play_on", it.loc)
        target = b.integer("target", None, minimum=1)
        deal_limit = b.integer("deal_limit", None, minimum=1)
        if deal_limit is None:
            raise b.missing(
                "deal_limit", "match needs 'deal_limit: N' so that every match is sure to end"
            )
        redeal_limit = b.integer("redeal_limit", deal_limit, minimum=0)
        for label, value in (("deal_limit", deal_limit), ("redeal_limit", redeal_limit)):
            if value is None or value > MAX_DEALS:
                raise RulesError(
                    f"'{label}' must be a number of at most {MAX_DEALS:,} deals",
                    b.raw(label).loc,
                )
        deal_keep = {k: t for k, t, _ in self.deal_rules.keep}
        names = {
            **result_names,
            **def_types,
            **MATCH_NAMES,
            **deal_keep,
            **{k: t for k, t, _ in keep},
        }
        names["target"] = INT
        scope = Scope(names, self.symbols, qualifier=True, where="in after_deal")
        assignable = {*ASSIGNABLE_BUILTINS, *(k for k, _, _ in keep)}
        steps: list[StepRule] = []
        ab = self.block("after_deal")
        for key, entry in ab.block.entries.items() if ab.block else ():
            if not isinstance(entry, s.Step):
                raise RulesError(
                    f"after_deal holds 'rule NAME: ...' lines; '{key}' is not one", entry.loc
                )
            try:
                cond = compile_expr(entry.condition, scope, BOOL) if entry.condition else None
                assigns = []
                for a in entry.assigns:
                    if a.name not in assignable:
                        known = ", ".join(sorted(assignable))
                        raise RulesError(f"cannot assign '{a.name}'; assignable: {known}", a.loc)
                    want = (
                        INT
                        if a.name in ASSIGNABLE_BUILTINS
                        else dict((k, t) for k, t, _ in keep)[a.name]
                    )
                    assigns.append(Assignment(a.name, compile_expr(a.expr, scope, want)))
            except RulesError as exc:
                raise self.rules.because(exc, _defined_by(_step_reads(entry))) from None
            steps.append(StepRule(entry.name, cond, tuple(assigns), entry.loc))
        rank_scope = Scope(
            {"score": INT, **{k: t for k, t, _ in keep}}, self.symbols, where="in rank_by"
        )
        rank_by = b.expr("rank_by", rank_scope, INT, None) if b.raw("rank_by") else None
        end_scope = Scope(
            {**END_NAMES, **{k: t for k, t, _ in keep}}, self.symbols, where="in match.end_if"
        )
        end_if = b.expr("end_if", end_scope, BOOL, None) if b.raw("end_if") else None
        next_dealer = None
        deal_block = self.block("deal")
        if isinstance(deal_block.raw("next_dealer"), s.ExprSetting):  # over after_deal's names
            next_dealer = deal_block.expr(
                "next_dealer", attrs.evolve(scope, where="in deal.next_dealer"), BOOL
            )
        changes_score = any(a.name == "score" for st in steps for a in st.assigns)
        if not changes_score and rank_by is None:
            raise RulesError(
                "after_deal never changes 'score' and there is no 'rank_by': add "
                "'rule add: score = score + gain' or rank the players with 'rank_by = ...'",
                ab.loc or self.top_loc,
            )
        assert redeal_limit is not None
        return MatchRules(
            target,
            deal_limit,
            tie or ("highest",),
            tuple(keep),
            tuple(steps),
            rank_by,
            redeal_limit,
            end_if,
            next_dealer,
        )

    def bouts(self, deck: Deck, deal: DealRules, players: tuple[int, ...]) -> BoutRules:
        b = self.block("bouts")
        b.check_known(BLOCK_SETTINGS["bouts"])
        limit_scope = Scope(dict(BOUT_LIMIT_NAMES), self.symbols, where="in the bout limit")
        swap_rank: int | None = None
        swap_items = b.items("swap_rank")
        if swap_items:
            sym = swap_items[0].parts[0]
            ranks = [r.symbol for r in deck.ranks]
            if sym != "none":
                if sym not in ranks or swap_items[0].words or len(swap_items) != 1:
                    raise RulesError(
                        f"swap_rank is a rank ({', '.join(ranks)}) or none", swap_items[0].loc
                    )
                swap_rank = ranks.index(sym)
        if sum(p.to == "turnup" for p in deal.pattern) > 1:
            raise RulesError(
                "a game of bouts turns up one trump card: one '1 turnup' in the deal pattern",
                self.block("deal").raw("pattern").loc,
            )
        if not any(p.to == "turnup" for p in deal.pattern):
            raise RulesError(
                "a game of bouts turns up a trump card: add '1 turnup' to the deal pattern",
                (self.block("deal").raw("pattern") or self.block("deal")).loc,
            )
        attack = b.word("attack", ("one_card", "same_rank"), "same_rank")
        if attack == "same_rank" and len(deck.suits) > MAX_ATTACK_SUITS:
            raise RulesError(
                f"'attack: same_rank' with {len(deck.suits)} suits offers too many attacks of "
                f"several cards (every set of one rank); at most {MAX_ATTACK_SUITS} suits, or "
                "'attack: one_card'",
                (b.raw("attack") or b).loc,
            )
        refill_to = b.integer("refill_to", deal.per_hand, minimum=0)
        no_stock = b.word("trump_if_no_stock", ("last_dealt", "none"), "none")
        for seated in players:
            if deal.per_hand * seated >= deck.size and no_stock == "none":
                raise RulesError(
                    f"with {seated} players no card is left to turn up for trump: say "
                    "'trump_if_no_stock: last_dealt' in the bouts block",
                    b.loc,
                )
        return BoutRules(
            attack_same_rank=attack == "same_rank",
            throw_in_by=b.word("throw_in_by", ("all", "attacker", "neighbours"), "all"),
            skip_unable=b.flag("skip_unable", True),
            limit=self.bout_limit(b, limit_scope, deal, players, deck.size),
            throw_after_take=b.flag("throw_after_take", True),
            refill_to=deal.per_hand if refill_to is None else refill_to,
            refill_order=b.word(
                "refill_order", ("attacker_first", "defender_last"), "attacker_first"
            ),
            after_defence=b.word(
                "next_attacker_after_defence", ("defender", "after_defender"), "defender"
            ),
            after_take=b.word(
                "next_attacker_after_take", ("after_defender", "defender"), "after_defender"
            ),
            swap_rank=swap_rank,
            transfer=b.flag("transfer", False),
            max_bouts=self.max_bouts(b),
            trump_if_no_stock=no_stock,
            first_attacker=b.word(
                "first_attacker", ("left_of_dealer", "lowest_trump"), "left_of_dealer"
            ),
            throw_in=b.word("throw_in", ("any_time", "after_beats"), "any_time"),
        )

    def bout_limit(
        self,
        b: BlockSettings,
        scope: Scope,
        deal: DealRules,
        players: tuple[int, ...],
        deck_size: int,
    ) -> CompiledExpr:
        """D7's limit; it must allow at least one attack card at the start of a deal, for
        every number of players (the stock then holds the cards not dealt, the turned-up
        card among them)."""
        limit: CompiledExpr = b.expr("limit", scope, INT)
        for seated in players:
            env = {
                "defender_cards": deal.per_hand,
                "bout_number": 1,
                "players": seated,
                "stock": max(0, deck_size - deal.per_hand * seated),
            }
            if limit(env) < 1:
                raise RulesError(
                    f"the bout limit is {limit(env)} at the first bout with {seated} players "
                    f"(defender holding {deal.per_hand} cards, {env['stock']} in the stock): "
                    "it must allow at least one attack card",
                    b.raw("limit").loc,
                )
        return limit

    def max_bouts(self, b: BlockSettings) -> int:
        """The bout cap of a deal (D13's draw when the rules alone would not end it)."""
        value = b.integer("max_bouts", 1000, minimum=1) or 1000
        if value > MAX_BOUTS:
            raise RulesError(f"'max_bouts' is at most {MAX_BOUTS:,}", b.raw("max_bouts").loc)
        return value


# what `stock_draws` reads: an error there names another file's change to any of them
DRAW_READS = ("play", "deal", "deck", "pickup")


def _layouts(
    rules: DealRules, players: tuple[int, ...], deck_size: int
) -> list[tuple[int, int, int, dict[int, int]]]:
    """Every way the deal pattern lays out the deck: (players seated, players in the deal,
    deal size, cards going to each place: a seat, TALON, STOCK, TURNUP or OUT), for each
    player count and, with `size` in the pattern, each size whose deal fits the deck."""
    out = []
    for seated in players:
        in_deal = rules.hands or seated
        if in_deal > seated:
            continue  # refused by `deal` (and not a deal there is)
        for size in range(1, deck_size + 1) if rules.size is not None else (1,):
            places = rules.places(list(range(in_deal)), deck_size, size)
            if len(places) > deck_size:
                continue  # no such deal (refused as it is dealt)
            counts: dict[int, int] = {}
            for place in places:
                counts[place] = counts.get(place, 0) + 1
            out.append((seated, in_deal, size, counts))
    return out


def _check_bid_ranges(model: VariantModel, tricks: TrickRules, b: BlockSettings) -> None:
    """The forced opening is within the bid cap for some hand; no cap allows too many bids.

    Caps are evaluated on sampled hands (every meld-rich hand and random ones); during play a
    cap beyond the range raises RulesError (see `bid_values`), so the bound always holds.
    """
    from .hands import HandQuantities, meld_rich_hands, start_context

    quantities = HandQuantities(model)
    players = model.deal.hands or model.players[0]
    context = start_context(model)
    rng = random.Random(0)
    hands = meld_rich_hands(model) + [
        rng.sample(range(model.deck.size), model.deal.per_hand) for _ in range(200)
    ]
    bidding = tricks.bidding
    assert bidding is not None
    envs = [quantities.env(hand, 0, players, context) for hand in hands]
    caps = [bidding.cap(env) for env in envs]
    openings = [bidding.opening_for(env) for env in envs]
    best = max(caps)
    if all(o > c for o, c in zip(openings, caps, strict=True)):
        raise RulesError(
            f"the opening bid {min(openings)} is above the bid cap for every hand "
            f"(the highest cap any hand reaches is {best})",
            (b.raw("opening") or b.raw("values") or b).loc,
        )
    low = min(openings)
    if (best - low) // bidding.step > MAX_BIDS:
        raise RulesError(
            f"the bid cap allows more than {MAX_BIDS} different bids (from {low} "
            f"to {best} in steps of {bidding.step}); raise the step or lower the cap",
            b.raw("cap").loc if b.raw("cap") else b.loc,
        )
    contract = tricks.contract
    if contract is not None and contract.raise_allowed:
        top = max(contract.cap(quantities.env(hand, best, players, context)) for hand in hands)
        if (top - low) // contract.step > MAX_BIDS:
            raise RulesError(
                f"the contract cap allows more than {MAX_BIDS} different raises (up to {top} in "
                f"steps of {contract.step}); raise the step or lower the cap",
                contract.cap_loc or b.loc,
            )


OPEN_RULES = ("open_hand_if", "stop_if", "partner_plays_if", "skip_if")  # the "open" place


def _aggregated_names(expr: s.Expr) -> set[str]:
    """The names an expression's aggregates (`count_all(x)`, ...) read of every player."""
    return {
        call.args[0].name
        for call in s.calls_in(expr)
        if call.func in AGGREGATE_FUNCS and call.args and isinstance(call.args[0], s.Name)
    }


def _block_reads(block: MergedBlock) -> frozenset[str]:
    """The names and functions the expressions of a block's settings and rules use."""
    out: set[str] = set()
    for entry in block.entries.values():
        exprs: list[s.Expr] = []
        if isinstance(entry, s.ExprSetting):
            exprs.append(entry.expr)
        elif isinstance(entry, s.Step):
            exprs.extend(e for e in (entry.condition, *(a.expr for a in entry.assigns)) if e)
        for e in exprs:
            out |= names_used(e) | functions_used(e)
    return frozenset(out)


def _step_reads(step: s.Step) -> set[str]:
    """Every name an after_deal rule reads or assigns."""
    exprs = [e for e in (step.condition, *(a.expr for a in step.assigns)) if e is not None]
    return {a.name for a in step.assigns}.union(*(names_used(e) for e in exprs))


def _defined_by(names: set[str]) -> list[str]:
    """The merged entries that define these names (scoring definitions, kept names): what
    `MergedRules.because` blames when an inherited rule reading them breaks."""
    roles = ("declarer", "defender")  # role scores: no expression reads them
    return [f"scoring.{n}" for n in sorted(names) if n not in roles] + [
        f"match.keep.{n}" for n in sorted(names)
    ]


def _is_word(text: str) -> bool:
    """Letters (any script), ASCII digits and underscores: a symbol that prints as one word."""
    return bool(text) and all(ch.isalpha() or ch in "0123456789_" for ch in text)


def _is_name(text: str) -> bool:
    """A name expressions can read: ASCII letters, digits and _, not starting with a digit."""
    return bool(text) and text.isascii() and text.isidentifier()


def _position(error: RulesError) -> tuple[int, str, int, int]:
    loc = error.location
    return (1, "", 0, 0) if loc is None else (0, loc.file, loc.line, loc.column)


def compile_with_errors(rules: MergedRules) -> tuple[VariantModel | None, list[RulesError]]:
    """The model, or None and every error the compiler finds (in file order)."""
    errors = compile_errors(rules)
    return (None, errors) if errors else (compile_rules(rules), [])


def compile_errors(rules: MergedRules) -> list[RulesError]:
    """Every error the compiler finds in merged rules (empty when they compile)."""
    try:
        _Compiler(rules).compile()
    except _Failed as failed:
        return sorted(failed.errors, key=_position)
    except RulesError as exc:
        return [exc]
    except RecursionError:
        return [RulesError(f"{rules.path}: the rules nest too deeply to compile")]
    return []


CONTRACT_NAMES = frozenset(CONTRACT_STATE)
_COMPILED: OrderedDict[tuple[object, ...], VariantModel] = OrderedDict()
_COMPILED_KEEP = 64  # models kept for a warm load of the same texts


def compile_rules(rules: MergedRules) -> VariantModel:
    """Compile merged settings into a validated model (raises RulesError). The model is a
    function of the rules' texts, so the same texts (a warm load) give the model compiled
    before; the last 64 are kept, errors never."""
    key = (rules.name, rules.path, rules.sources, rules.files)
    found = _COMPILED.get(key)
    if found is not None:
        _COMPILED.move_to_end(key)
        return found
    model = _compile(rules)
    _COMPILED[key] = model
    if len(_COMPILED) > _COMPILED_KEEP:
        _COMPILED.popitem(last=False)
    return model


def forget_compiled() -> None:
    """Drop the kept models (for tools and tests that change the compiler itself)."""
    _COMPILED.clear()


def _compile(rules: MergedRules) -> VariantModel:
    try:
        return _Compiler(rules).compile()
    except _Failed as failed:
        raise failed.errors[0] from None
    except RecursionError:
        raise RulesError(f"{rules.path}: the rules nest too deeply to compile") from None
