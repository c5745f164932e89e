"""Compiler: a merged settings tree to a validated VariantModel.

Every setting is checked here, with the file:line:column of the setting that is wrong.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from . import syntax as s
from .errors import Location, RulesError
from .exprs import (
    BOOL,
    BOOL_WORDS,
    INT,
    CompiledExpr,
    Scope,
    Symbols,
    compile_expr,
    names_used,
)
from .limits import MAX_BIDS
from .loader import Entry, MergedBlock, MergedRules
from .model import (
    TRICK_PHASES,
    Assignment,
    Bidding,
    BoutRules,
    ContractRules,
    DealRules,
    Deck,
    MatchRules,
    Meld,
    Packet,
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
    BOUT_LIMIT_NAMES,
    BOUT_RESULT_NAMES,
    DECLARE_NAMES,
    HAND_NAMES,
    LEAD_NAMES,
    MATCH_NAMES,
    MATCH_STATE_NAMES,
    QUANTITIES,
    RESULT_NAMES,
)

T = TypeVar("T")

MAX_PLAYERS = 8
MAX_DECK = 128
MAX_QUALIFIERS = 16
MAX_DEALS = 100_000
MAX_BOUTS = 10_000
MAX_ATTACK_SUITS = 8  # a rank's multi-card attacks: at most 2**8 sets
MAX_SYMBOL = 8  # rank and suit symbols: card texts stay short (action texts fit in 200)

BLOCK_SETTINGS: dict[str, set[str]] = {
    "variant": {"name", "players"},
    "deck": {"suits", "ranks", "points"},
    "meld": {"cards", "value", "declare_if", "counts_if", "sets_trump"},
    "deal": {"pattern", "hands", "sits_out", "next_dealer", "flow"},
    "redeal": {"allowed_if", "same_dealer"},
    "bidding": {"opening", "forced_opening", "step", "pass", "ends", "cap", "qualifiers"},
    "talon": {"show", "give_each_defender", "split_if"},
    "contract": {"raise", "step", "cap"},
    "play": {"follow", "trump_when_void", "beat_in_suit", "overtrump", "lead_if", "first_leader"},
    "match": {"target", "deal_limit", "redeal_limit", "tie_break", "keep", "rank_by"},
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
    "bouts",
    "deck",
    "meld",
    "deal",
    "redeal",
    "bidding",
    "talon",
    "contract",
    "play",
    "scoring",
    "match",
    "after_deal",
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

    def attempt(self, fn: Callable[[], T], default: T) -> T:
        """Run one independent part of the compilation; record its error and go on."""
        try:
            return fn()
        except RulesError as exc:
            self.errors.append(exc)
            return default

    def need(self, fn: Callable[[], T]) -> T:
        """Run a part every later part depends on: on error, stop with all errors so far."""
        try:
            return fn()
        except RulesError as exc:
            self.errors.append(exc)
            raise _Failed(self.errors) from None

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
        deck = self.need(self.deck)
        ranks = {r.symbol: i for i, r in enumerate(deck.ranks)}
        suits = {su.symbol: i for i, su in enumerate(deck.suits)}
        suits.update({su.name: i for i, su in enumerate(deck.suits)})
        bidding_block = self.block("bidding")
        no_qualifiers: tuple[str, ...] = ()
        qualifiers = self.attempt(lambda: self.qualifiers(bidding_block), no_qualifiers)
        n = len(deck.ranks)
        self.symbols = Symbols(
            ranks,
            suits,
            qualifiers,
            tuple(c % n for c in range(deck.size)),
            tuple(c // n for c in range(deck.size)),
        )
        is_bouts = "bouts" in self.root.entries
        deal = self.need(lambda: self.deal(players, deck, is_bouts))
        self.deal_rules = deal
        self.kept = self.kept_types()
        no_melds: tuple[Meld, ...] = ()
        melds = self.attempt(lambda: self.melds(deck), no_melds)
        hand_scope = Scope(
            {**HAND_NAMES, **self.kept}, self.symbols, hand=True, where="in a hand rule"
        )
        redeal = self.attempt(lambda: self.redeal(hand_scope), None)
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
            bouts = self.attempt(lambda: self.bouts(deck, deal, players), None)
            result_names = dict(BOUT_RESULT_NAMES)
        else:
            hands = deal.hands or min(players)
            bidding = self.attempt(
                lambda: self.bidding(bidding_block, hand_scope, qualifiers, hands), None
            )
            talon = self.attempt(lambda: self.talon(deal, players), None)
            contract = (
                self.attempt(lambda: self.contract(bidding, hand_scope), None)
                if bidding is not None
                else None
            )
            play = self.attempt(self.play, None)
            scoring_types = self.attempt(self.scoring, None)
            if scoring_types is not None:
                def_types = scoring_types[1]
            scoring_failed = scoring_types is None
            if (
                bidding is not None
                and talon is not None
                and contract is not None
                and play is not None
                and scoring_types is not None
            ):
                flow = self.attempt(self.flow, TRICK_PHASES)
                tricks = TrickRules(bidding, talon, contract, play, scoring_types[0], flow)
            result_names = dict(RESULT_NAMES)
        match = (
            None  # after_deal reads scoring's definitions: checking it now would only mislead
            if scoring_failed and self.errors
            else self.attempt(lambda: self.match(def_types, result_names), None)
        )
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
        )
        if tricks is not None:
            self.need(lambda: _check_bid_ranges(model, tricks, bidding_block))
        return model

    def check_top_entry(self, key: str, entry: Entry) -> None:
        """A top-level entry must be a known block or setting."""
        if isinstance(entry, MergedBlock):
            if entry.kind not in TOP_BLOCKS:
                raise RulesError(
                    f"unknown block '{entry.kind}'; blocks: {', '.join(sorted(TOP_BLOCKS))}",
                    entry.loc,
                )
            if entry.kind == "meld" and entry.name is None:
                raise RulesError("a meld block needs a name: 'meld NAME { ... }'", entry.loc)
        elif key not in BLOCK_SETTINGS["variant"]:
            raise RulesError(
                f"unknown top-level setting '{key}'; settings: name, players", entry.loc
            )

    def flow(self) -> tuple[str, ...]:
        """The deal's phases in order (`deal { flow: ... }`), checked against what each needs."""
        b = self.block("deal")
        items = b.items("flow")
        has_talon = any(p.to == "talon" for p in self.deal_rules.pattern)
        raises = self.block("contract").flag("raise", False)
        if items is None:  # the phases the file gives something to do
            present = {
                "redeal": "redeal" in self.root.entries,
                "talon": has_talon,
                "contract": raises,
            }
            return tuple(k for k in TRICK_PHASES if present.get(k, True))
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
        for kind in ("auction", "tricks"):
            if kind not in kinds:
                raise RulesError(f"the flow of a trick game needs the phase '{kind}'", loc)
        order = [k for k in TRICK_PHASES if k in kinds]
        if kinds != order:
            raise RulesError(
                f"phases run in this order: {', '.join(order)} (each needs what the ones "
                "before it decide: a declarer, his hand)",
                loc,
            )
        agree = (
            ("redeal", "redeal" in self.root.entries, "a 'redeal' block"),
            ("talon", has_talon, "a talon in the deal pattern"),
        )
        for kind, needed, what in agree:
            if needed and kind not in kinds:
                raise RulesError(f"the flow needs the phase '{kind}': there is {what}", loc)
            if kind in kinds and not needed:
                raise RulesError(f"the phase '{kind}' has nothing to do without {what}", loc)
        if "contract" not in kinds and raises:
            raise RulesError("the flow needs the phase 'contract': 'contract { raise: yes }'", loc)
        return tuple(kinds)

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

    # ------------------------------------------------------------- sections
    def players(self, top: BlockSettings) -> tuple[int, ...]:
        items = top.items("players", required=True)
        assert items is not None
        counts = tuple(int_item(it, "a player count", 2) for it in items)
        for it, c in zip(items, counts, strict=True):
            if c > MAX_PLAYERS:
                raise RulesError(f"at most {MAX_PLAYERS} players are supported", it.loc)
        return tuple(sorted(set(counts)))

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
        if len(suits) * len(ranks) > MAX_DECK:
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
        return Deck(tuple(suits), tuple(ranks), tuple(points.get(i, 0) for i in range(len(ranks))))

    def deal(self, players: tuple[int, ...], deck: Deck, is_bouts: bool) -> DealRules:
        b = self.block("deal")
        b.check_known(BLOCK_SETTINGS["deal"])
        packets: list[Packet] = []
        for it in b.items("pattern", required=True) or ():
            parts = it.parts
            if parts[0] == "rest" and len(parts) == 2 and parts[1] in ("stock",):
                if not is_bouts:
                    raise RulesError("a stock is dealt only in a game of bouts", it.loc)
                packets.append(Packet(-1, "stock"))
                continue
            count = word_int(parts[0], it.loc, "a packet size")
            if len(parts) < 2 or parts[1] not in ("each", "talon", "stock", "turnup"):
                raise RulesError(
                    "a packet is written: N each | N talon | N stock | N turnup [K times]", it.loc
                )
            times = 1
            if len(parts) == 4 and parts[3] == "times":
                times = word_int(parts[2], it.loc, "a repeat count")
            elif len(parts) != 2:
                raise RulesError("a packet is written: N each [K times]", it.loc)
            if count <= 0 or times <= 0:
                raise RulesError("packet sizes and repeat counts must be positive", it.loc)
            if count * times > MAX_DECK:
                raise RulesError(f"a deal pattern deals at most {MAX_DECK} cards", it.loc)
            if parts[1] in ("stock", "turnup") and not is_bouts:
                raise RulesError(f"a {parts[1]} is dealt only in a game of bouts", it.loc)
            if parts[1] == "talon" and is_bouts:
                raise RulesError("a game of bouts has a stock, not a talon", it.loc)
            if parts[1] == "turnup" and count * times != 1:
                raise RulesError("one card is turned up for trump: '1 turnup'", it.loc)
            packets.extend([Packet(count, parts[1])] * times)
        hands = b.integer("hands", None, minimum=2)
        sits_out = b.word("sits_out", ("dealer", "none"), "none")
        if not is_bouts and b.word("next_dealer", ("left", "same", "loser"), "left") == "loser":
            raise RulesError(
                "'next_dealer: loser' needs a deal with a loser (a game of bouts); a trick game "
                "says left or same",
                b.raw("next_dealer").loc,
            )
        rules = DealRules(
            tuple(packets),
            hands,
            None if sits_out == "none" else sits_out,
            b.word("next_dealer", ("left", "same", "loser"), "left"),
        )
        loc = b.raw("pattern").loc
        for seated in players:
            in_deal = hands or seated
            if in_deal > seated:
                raise RulesError(f"{in_deal} hands cannot be dealt with {seated} players", loc)
            if in_deal < seated and rules.sits_out is None:
                raise RulesError(
                    f"with {seated} players and {in_deal} hands someone must sit out: "
                    "add 'sits_out: dealer' to the deal block",
                    loc,
                )
            dealt = rules.per_hand * in_deal + rules.talon_size
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
                    f"{in_deal} hands + {rules.talon_size} talon) but the deck has {deck.size}",
                    loc,
                )
        return rules

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
            ranks = []
            for it in b.items("cards", required=True) or ():
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
            for it in b.items("value", required=True) or ():
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
            melds.append(
                Meld(
                    entry.name or "",
                    tuple(ranks),
                    tuple(values),
                    b.expr("declare_if", declare_scope, BOOL, true),
                    b.expr("counts_if", count_scope, BOOL, true),
                    b.flag("sets_trump", True),
                )
            )
        return tuple(melds)

    def redeal(self, hand_scope: Scope) -> RedealRules | None:
        if "redeal" not in self.root.entries:
            return None
        b = self.block("redeal")
        b.check_known(BLOCK_SETTINGS["redeal"])
        return RedealRules(b.expr("allowed_if", hand_scope, BOOL), b.flag("same_dealer", True))

    def bidding(
        self, b: BlockSettings, hand_scope: Scope, qualifiers: tuple[str, ...], hands: int
    ) -> Bidding:
        b.check_known(BLOCK_SETTINGS["bidding"])
        opening_expr: CompiledExpr | None = None
        if isinstance(b.raw("opening"), s.ExprSetting):
            opening_expr = b.expr("opening", hand_scope, INT)
            parts: tuple[str, ...] = ("at_least", "")
            opening = 0
        else:
            items = b.items("opening", required=True) or ()
            parts = items[0].parts if items else ()
            if len(items) != 1 or len(parts) != 2 or parts[0] not in ("at_least", "exactly"):
                raise RulesError(
                    "'opening' is written 'at_least N', 'exactly N' or 'opening = EXPR'",
                    b.raw("opening").loc,
                )
            opening = word_int(parts[1], items[0].loc, "the opening bid")
        step = b.integer("step", None, minimum=1)
        if step is None:
            raise RulesError("bidding needs a 'step:' (the bid increment)", b.loc)
        ends_items = b.items("ends") or ()
        ends_after: int | None = None
        if ends_items:
            ep = ends_items[0].parts
            if ep == ("one_left",):
                ends_after = None
            elif len(ep) == 2 and ep[0] == "passes":
                ends_after = word_int(ep[1], ends_items[0].loc, "the number of passes")
            else:
                raise RulesError("'ends' is 'one_left' or 'passes N'", ends_items[0].loc)
        drops = b.word("pass", ("drops_out", "stays_in"), "drops_out") == "drops_out"
        if drops and ends_after is not None and ends_after >= hands:
            raise RulesError(
                f"this auction can never end: players who pass drop out, so {ends_after} passes "
                f"in a row cannot happen among {hands} players; say 'ends: one_left' or "
                "fewer passes",
                b.raw("ends").loc,
            )
        if ends_after is not None and ends_after < 1:
            raise RulesError("'ends: passes N' needs N of at least 1", b.raw("ends").loc)
        if not drops and ends_after is None:
            raise RulesError(
                "when passing does not drop a player out ('pass: stays_in') the auction can "
                "never end by one player being left: say 'ends: passes N'",
                b.raw("pass").loc,
            )
        return Bidding(
            opening=opening,
            opening_exact=parts[0] == "exactly",
            forced_opening=b.flag("forced_opening", True),
            step=step,
            pass_drops_out=drops,
            ends_after_passes=ends_after,
            cap=b.expr("cap", hand_scope, INT),
            qualifiers=qualifiers,
            opening_expr=opening_expr,
        )

    def talon(self, deal: DealRules, players: tuple[int, ...]) -> TalonRules:
        b = self.block("talon")
        b.check_known(BLOCK_SETTINGS["talon"])
        scope = Scope({}, self.symbols, qualifier=True, where="in the talon rules")
        split = b.expr("split_if", scope, BOOL, compile_expr(s.Name("no", self.top_loc), scope))
        give = b.integer("give_each_defender", 0) or 0
        for seated in players:
            hands = deal.hands or seated
            talon = deal.talon_size
            declarer_keeps = deal.per_hand + talon - give * (hands - 1)
            if talon and give * hands != talon:
                raise RulesError(
                    f"the declarer takes the {talon}-card talon and gives {give} to each of "
                    f"{hands - 1} defenders: hands would differ ({declarer_keeps} against "
                    f"{deal.per_hand + give}); 'give_each_defender' must be {talon} / {hands}",
                    (b.raw("give_each_defender") or b).loc,
                )
            if talon and b.raw("split_if") is not None and talon % hands:
                raise RulesError(
                    f"a {talon}-card talon cannot be split one card each among {hands} hands",
                    b.raw("split_if").loc,
                )
        return TalonRules(b.flag("show", False), give, split)

    def contract(self, bidding: Bidding, hand_scope: Scope) -> ContractRules:
        b = self.block("contract")
        b.check_known(BLOCK_SETTINGS["contract"])
        step = b.integer("step", bidding.step, minimum=1) or bidding.step
        cap_entry = b.raw("cap")
        return ContractRules(
            b.flag("raise", False),
            step,
            b.expr("cap", hand_scope, INT, bidding.cap),
            cap_entry.loc if cap_entry is not None else None,
        )

    def play(self) -> PlayRules:
        b = self.block("play")
        b.check_known(BLOCK_SETTINGS["play"])
        lead_scope = Scope(
            {**LEAD_NAMES, **self.kept}, self.symbols, hand=True, card=True, where="in play.lead_if"
        )
        return PlayRules(
            follow=b.flag("follow", True),
            trump_when_void=b.flag("trump_when_void", False),
            beat_in_suit=b.flag("beat_in_suit", False),
            overtrump=b.flag("overtrump", False),
            lead_if=b.expr("lead_if", lead_scope, BOOL, None) if b.raw("lead_if") else None,
            first_leader=b.word("first_leader", ("declarer", "forehand"), "declarer"),
        )

    def scoring(self) -> tuple[Scoring, dict[str, str]]:
        b = self.block("scoring")
        scope = Scope(
            {**RESULT_NAMES, **MATCH_STATE_NAMES, **self.kept},
            self.symbols,
            qualifier=True,
            where="in scoring",
        )
        defs: dict[str, s.ExprSetting] = {}
        for key, entry in b.block.entries.items() if b.block else ():
            if not isinstance(entry, s.ExprSetting):
                raise RulesError(
                    f"scoring holds definitions 'name = expression'; '{key}' is not", entry.loc
                )
            if (key in RESULT_NAMES or key in MATCH_STATE_NAMES) and key not in (
                "declarer",
                "defender",
            ):
                raise RulesError(
                    f"'{key}' is a built-in quantity and cannot be redefined", entry.loc
                )
            defs[key] = entry
        for required in ("declarer", "defender"):
            if required not in defs:
                raise RulesError(
                    f"scoring needs '{required} = ...' (that role's deal score)", b.loc
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
                if dep in defs and dep not in ("declarer", "defender"):
                    visit(dep)
            visiting.pop()
            compiled = checked(defs[name].expr, scope.with_names(types))
            types[name] = compiled.type
            ordered.append((name, compiled))

        for name in defs:
            if name not in ("declarer", "defender"):
                visit(name)
        full = scope.with_names(types)
        declarer = checked(defs["declarer"].expr, full, INT)
        defender = checked(defs["defender"].expr, full, INT)
        return Scoring(tuple(ordered), declarer, defender), types

    def match(self, def_types: dict[str, str], result_names: dict[str, str]) -> MatchRules:
        b = self.block("match")
        b.check_known(BLOCK_SETTINGS["match"])
        keep: list[tuple[str, str, int | bool]] = []
        builtins = {*QUANTITIES, *result_names, *def_types, *BOOL_WORDS}
        for it in b.items("keep") or ():
            parts = it.parts
            if len(parts) != 2:
                raise RulesError("kept state is written: NAME INITIAL, e.g. 'on_barrel no'", it.loc)
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
            if it.parts[0] not in ("declarer", "highest") or it.words:
                raise RulesError("tie_break items are: declarer, highest", it.loc)
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
        names = {**result_names, **def_types, **MATCH_NAMES, **{k: t for k, t, _ in keep}}
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
                self.block("deal").loc,
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
            limit=self.bout_limit(b, limit_scope, deal, players),
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
        self, b: BlockSettings, scope: Scope, deal: DealRules, players: tuple[int, ...]
    ) -> CompiledExpr:
        """D7's limit; it must allow at least one attack card at the start of a deal."""
        limit: CompiledExpr = b.expr("limit", scope, INT)
        env = {
            "defender_cards": deal.per_hand,
            "bout_number": 1,
            "players": min(players),
            "stock": 1,
        }
        if limit(env) < 1:
            raise RulesError(
                f"the bout limit is {limit(env)} at the first bout (defender holding "
                f"{deal.per_hand} cards): it must allow at least one attack card",
                b.raw("limit").loc,
            )
        return limit

    def max_bouts(self, b: BlockSettings) -> int:
        """The bout cap of a deal (D13's draw when the rules alone would not end it)."""
        value = b.integer("max_bouts", 1000, minimum=1) or 1000
        if value > MAX_BOUTS:
            raise RulesError(f"'max_bouts' is at most {MAX_BOUTS:,}", b.raw("max_bouts").loc)
        return value


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
    envs = [{**quantities.env(hand, 0, players), **context} for hand in hands]
    caps = [bidding.cap(env) for env in envs]
    openings = [bidding.opening_for(env) for env in envs]
    best = max(caps)
    if all(o > c for o, c in zip(openings, caps, strict=True)):
        raise RulesError(
            f"the opening bid {min(openings)} is above the bid cap for every hand "
            f"(the highest cap any hand reaches is {best})",
            b.raw("opening").loc,
        )
    low = min(openings)
    if (best - low) // bidding.step > MAX_BIDS:
        raise RulesError(
            f"the bid cap allows more than {MAX_BIDS} different bids (from {low} "
            f"to {best} in steps of {bidding.step}); raise the step or lower the cap",
            b.raw("cap").loc if b.raw("cap") else b.loc,
        )
    contract = tricks.contract
    if contract.raise_allowed:
        top = max(
            contract.cap({**quantities.env(hand, best, players), **context}) for hand in hands
        )
        if (top - low) // contract.step > MAX_BIDS:
            raise RulesError(
                f"the contract cap allows more than {MAX_BIDS} different raises (up to {top} in "
                f"steps of {contract.step}); raise the step or lower the cap",
                contract.cap_loc or b.loc,
            )


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


def compile_rules(rules: MergedRules) -> VariantModel:
    """Compile merged settings into a validated model (raises RulesError)."""
    try:
        return _Compiler(rules).compile()
    except _Failed as failed:
        raise failed.errors[0] from None
    except RecursionError:
        raise RulesError(f"{rules.path}: the rules nest too deeply to compile") from None
