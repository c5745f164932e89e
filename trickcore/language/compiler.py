"""Compiler: a merged settings tree to a validated VariantModel.

Every setting is checked, with the file:line:column of the setting that is wrong, by the
compile step of its block (`blocks/`, one module per block kind); this module runs those
steps in the order each needs the ones before, and collects their errors.
"""

from __future__ import annotations

import functools
from collections import OrderedDict

from .blocks import BLOCK_SETTINGS, check_top_entry
from .blocks.after_card import compile_after_card
from .blocks.after_trick import compile_after_trick
from .blocks.bidding import (
    check_bid_ranges,
    compile_bidding,
    compile_qualifiers,
    compile_strains,
)
from .blocks.bids import compile_bids
from .blocks.bouts import compile_bouts
from .blocks.combinations import compile_combinations
from .blocks.context import CompileContext, Failed
from .blocks.contract import compile_contract
from .blocks.deal import compile_deal
from .blocks.decisions import check_exchange, compile_decisions
from .blocks.deck import compile_card_points, compile_deck
from .blocks.define import check_defines, shown_defines
from .blocks.draw_up import compile_draw_up
from .blocks.flow import compile_flow, present_flow
from .blocks.match import compile_match
from .blocks.melds import compile_melds
from .blocks.passing import compile_pass_cards
from .blocks.pickup import compile_pickup
from .blocks.play import DRAW_READS, check_stock_draws, compile_play
from .blocks.read_ahead import choice_options, kept_types
from .blocks.redeal import compile_redeal
from .blocks.scoring import compile_scoring
from .blocks.talon import compile_talon
from .blocks.variant import compile_players, compile_sides
from .errors import RulesError
from .exprs import BOOL, Scope, Symbols
from .loader import MergedRules
from .model import (
    BoutRules,
    Combination,
    DealRules,
    Decision,
    Deck,
    Meld,
    StepRule,
    TrickRules,
    VariantModel,
)
from .settings import BlockSettings
from .vocabulary import BOUT_RESULT_NAMES, HAND_NAMES, RESULT_NAMES

# the blocks that have no meaning in a game of bouts
TRICK_ONLY_BLOCKS = ("bidding", "talon", "contract", "play", "scoring", "redeal")


class _Compiler:
    """One compilation of merged rules: the blocks' compile steps in the order each needs
    the ones before, each independent part run so that its error is recorded and the
    others still run (`CompileContext.attempt`)."""

    def __init__(self, rules: MergedRules) -> None:
        self.rules = rules
        self.ctx = CompileContext(rules, BLOCK_SETTINGS)

    def compile(self) -> VariantModel:
        """The model of the rules (raises `Failed` with every error found)."""
        ctx = self.ctx
        top = BlockSettings(ctx.root, "the variant", ctx.top_loc)
        for key, entry in ctx.root.entries.items():
            try:
                check_top_entry(key, entry)
            except RulesError as exc:
                ctx.errors.append(exc)
        name_items = ctx.attempt(lambda: top.items("name"), None)
        title = name_items[0].parts[0] if name_items else self.rules.name
        players = ctx.need(lambda: compile_players(top))
        deck = ctx.need(lambda: compile_deck(ctx), ("deck",))
        bidding_block = ctx.block("bidding")
        qualifiers = self._symbols(deck, bidding_block)
        if ctx.block("deck").raw("card_points"):
            deck = ctx.need(lambda: compile_card_points(ctx, deck), ("deck",))
        no_sides: tuple[tuple[int, ...], ...] = ()
        sides = ctx.attempt(lambda: compile_sides(top, players), no_sides)
        ctx.model_sides = sides
        is_bouts = "bouts" in ctx.root.entries
        ctx.player_counts = players
        ctx.deck_size = deck.size
        deal = ctx.need(
            lambda: compile_deal(ctx, players, deck, is_bouts), ("deal", "deck"), ("players",)
        )
        ctx.deal_rules = deal
        ctx.kept = {
            **kept_types(ctx),
            **{k: t for k, t, _ in deal.keep},
            **{option: BOOL for option in choice_options(ctx.root)},
        }
        no_melds: tuple[Meld, ...] = ()
        melds = ctx.attempt(lambda: compile_melds(ctx, deck), no_melds)
        no_combinations: tuple[Combination, ...] = ()
        combinations = ctx.attempt(lambda: compile_combinations(ctx, deck), no_combinations)
        ctx.combinations = combinations
        hand_scope = Scope(
            {**HAND_NAMES, **ctx.kept}, ctx.symbols, hand=True, where="in a hand rule"
        )
        redeal = ctx.attempt(lambda: compile_redeal(ctx, hand_scope), None, ("redeal",))
        tricks: TrickRules | None = None
        bouts: BoutRules | None = None
        scoring_types: dict[str, str] | None = {}  # scoring's definitions (None: it failed)
        if is_bouts:
            bouts = self._bouts(players, deck, deal, melds)
            result_names = dict(BOUT_RESULT_NAMES)
        else:
            tricks, scoring_types = self._tricks(
                players, deck, deal, hand_scope, bidding_block, qualifiers
            )
            result_names = dict(RESULT_NAMES)
        scoring_failed = scoring_types is None
        def_types = scoring_types or {}
        match = (
            None  # after_deal reads scoring's definitions: checking it now would only mislead
            if scoring_failed and ctx.errors
            else ctx.attempt(lambda: compile_match(ctx, def_types, result_names), None)
        )
        ctx.attempt(lambda: check_defines(ctx, def_types), None)
        if ctx.errors:
            raise Failed(ctx.errors)
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
            defines=shown_defines(ctx.root),
        )
        if tricks is not None and tricks.bidding is not None:
            ctx.need(lambda: check_bid_ranges(model, tricks, bidding_block), ("bidding",))
        return model

    def _symbols(self, deck: Deck, bidding_block: BlockSettings) -> tuple[str, ...]:
        """The names of the deck's cards, ranks and suits and of the bidding's qualifiers
        and strains, which every expression reads (`ctx.symbols`); returns the qualifiers."""
        ctx = self.ctx
        ctx.suit_names = {su.name: i for i, su in enumerate(deck.suits)}
        ranks = {r.symbol: i for i, r in enumerate(deck.ranks)}
        suits = {su.symbol: i for i, su in enumerate(deck.suits)}
        suits.update({su.name: i for i, su in enumerate(deck.suits)})
        no_qualifiers: tuple[str, ...] = ()
        qualifiers = ctx.attempt(lambda: compile_qualifiers(bidding_block), no_qualifiers)
        no_strains: tuple[tuple[str, int], ...] = ()
        strains = ctx.attempt(lambda: compile_strains(bidding_block, suits, qualifiers), no_strains)
        ctx.the_deck = deck
        ctx.symbols = Symbols(
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
        ctx.strain_list = strains
        return qualifiers

    def _bouts(
        self, players: tuple[int, ...], deck: Deck, deal: DealRules, melds: tuple[Meld, ...]
    ) -> BoutRules | None:
        """A game of bouts: the bouts block (the blocks of trick games are refused)."""
        ctx = self.ctx
        for key in TRICK_ONLY_BLOCKS:
            stray = ctx.root.entries.get(key)
            if stray is not None:
                ctx.errors.append(
                    RulesError(
                        f"'{key}' has no meaning in a game of bouts (this variant has a "
                        f"'bouts' block); remove it with 'remove {key}'",
                        stray.loc,
                    )
                )
        if melds:
            ctx.errors.append(RulesError("melds have no meaning in a game of bouts", ctx.top_loc))
        return ctx.attempt(lambda: compile_bouts(ctx, deck, deal, players), None, ("bouts", "deal"))

    def _tricks(
        self,
        players: tuple[int, ...],
        deck: Deck,
        deal: DealRules,
        hand_scope: Scope,
        bidding_block: BlockSettings,
        qualifiers: tuple[str, ...],
    ) -> tuple[TrickRules | None, dict[str, str] | None]:
        """A trick game: the phases of its flow, trick play and scoring (None where a part
        failed); also the types of scoring's definitions (None when scoring failed)."""
        ctx = self.ctx
        hands = deal.hands or min(players)
        # a broken flow: go on with the phases the file gives something to do, so that
        # no block is blamed for a phase the flow only lacked
        only_tricks: tuple[str, ...] = ("tricks",)
        flow = ctx.attempt(
            lambda: compile_flow(ctx),
            ctx.attempt(lambda: present_flow(ctx), only_tricks),
            ("deal",),
        )
        ctx.flow_kinds = flow
        auction = "auction" in flow
        bidding = (
            ctx.attempt(
                lambda: compile_bidding(ctx, bidding_block, hand_scope, qualifiers, hands),
                None,
                ("bidding",),
            )
            if auction
            else None
        )
        talon = ctx.attempt(
            lambda: compile_talon(ctx, deal, players), None, ("talon", "deal"), ("players",)
        )
        contract = (
            ctx.attempt(lambda: compile_contract(ctx, bidding, hand_scope), None, ("contract",))
            if bidding is not None
            else None
        )
        pass_cards = (
            ctx.attempt(lambda: compile_pass_cards(ctx), None, ("pass_cards", "deal"))
            if "pass" in flow
            else None
        )
        bids = (
            ctx.attempt(lambda: compile_bids(ctx, hand_scope), None, ("bids",))
            if "bids" in flow
            else None
        )
        play = ctx.attempt(lambda: compile_play(ctx, auction), None, ("play",))
        pickup = (
            ctx.attempt(lambda: compile_pickup(ctx), None, ("pickup", "deal"))
            if "pickup" in flow
            else None
        )
        draw_up = (
            ctx.attempt(
                lambda: compile_draw_up(ctx, players, deck), None, ("draw_up", "deal"), ("players",)
            )
            if "draw_up" in flow
            else None
        )
        if play is not None and play.draw:
            ctx.attempt(
                lambda: check_stock_draws(ctx, players, deck), None, DRAW_READS, ("players",)
            )
        no_decisions: tuple[Decision, ...] = ()
        decisions = ctx.attempt(lambda: compile_decisions(ctx, deck), no_decisions)
        for exchange in ctx.exchanges:
            ctx.attempt(
                functools.partial(check_exchange, ctx, *exchange),
                None,
                ("deal", "deck"),
                ("players",),
            )
        no_steps: tuple[StepRule, ...] = ()
        after_trick = ctx.attempt(lambda: compile_after_trick(ctx), no_steps, ("after_trick",))
        after_card = ctx.attempt(lambda: compile_after_card(ctx), no_steps, ("after_card",))
        scoring_types = ctx.attempt(lambda: compile_scoring(ctx, auction), None)
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
                after_card,
            )
            return tricks, scoring_types[1]
        return None, None if scoring_types is None else scoring_types[1]


def _position(error: RulesError) -> tuple[int, str, int, int]:
    loc = error.location
    return (1, "", 0, 0) if loc is None else (0, loc.file, loc.line, loc.column)


def _each_once(errors: list[RulesError]) -> list[RulesError]:
    """The errors one by one (several found together apart), each message at each place
    once, in file order."""
    seen: set[tuple[str, object]] = set()
    out: list[RulesError] = []
    for error in sorted((e for err in errors for e in err.errors), key=_position):
        key = (error.message, error.location)
        if key not in seen:
            seen.add(key)
            out.append(error)
    return out


def compile_with_errors(rules: MergedRules) -> tuple[VariantModel | None, list[RulesError]]:
    """The model, or None and every error the compiler finds (in file order)."""
    errors = compile_errors(rules)
    return (None, errors) if errors else (compile_rules(rules), [])


def compile_errors(rules: MergedRules) -> list[RulesError]:
    """Every error the compiler finds in merged rules (empty when they compile)."""
    try:
        _Compiler(rules).compile()
    except Failed as failed:
        return _each_once(failed.errors)
    except RulesError as exc:
        return exc.errors
    except RecursionError:
        return [RulesError(f"{rules.path}: the rules nest too deeply to compile")]
    return []


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
    except Failed as failed:
        raise failed.errors[0] from None
    except RecursionError:
        raise RulesError(f"{rules.path}: the rules nest too deeply to compile") from None
