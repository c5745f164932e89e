"""`bouts { ... }`: a game of bouts (attack and defence) instead of tricks."""

from __future__ import annotations

from .. import syntax as s
from ..errors import RulesError
from ..exprs import BOOL, INT, CompiledExpr, Scope, compile_expr
from ..model import BoutRules, DealRules, Deck
from ..settings import BlockSettings
from ..vocabulary import BOUT_BEATS_NAMES, BOUT_LIMIT_NAMES, FIRST_ATTACKER_NAMES
from .context import CompileContext
from .play import compile_beats

BOUTS_SETTINGS = frozenset(
    {
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
        "beats",
    }
)

MAX_BOUTS = 10_000
MAX_ATTACK_SUITS = 8  # a rank's multi-card attacks: at most 2**8 sets


def compile_bouts(
    ctx: CompileContext, deck: Deck, deal: DealRules, players: tuple[int, ...]
) -> BoutRules:
    """The bouts block: how attacks are made, thrown in and refilled, the bout limit,
    the swap of the turned-up card, and the bout cap."""
    b = ctx.block("bouts")
    b.check_known(BOUTS_SETTINGS)
    limit_scope = Scope(dict(BOUT_LIMIT_NAMES), ctx.symbols, where="in the bout limit")
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
            ctx.block("deal").raw("pattern").loc,
        )
    if not any(p.to == "turnup" for p in deal.pattern):
        raise RulesError(
            "a game of bouts turns up a trump card: add '1 turnup' to the deal pattern",
            (ctx.block("deal").raw("pattern") or ctx.block("deal")).loc,
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
        limit=bout_limit(b, limit_scope, deal, players, deck.size),
        throw_after_take=b.flag("throw_after_take", True),
        refill_to=deal.per_hand if refill_to is None else refill_to,
        refill_order=b.word("refill_order", ("attacker_first", "defender_last"), "attacker_first"),
        after_defence=b.word(
            "next_attacker_after_defence", ("defender", "after_defender"), "defender"
        ),
        after_take=b.word(
            "next_attacker_after_take", ("after_defender", "defender"), "after_defender"
        ),
        swap_rank=swap_rank,
        transfer=b.flag("transfer", False),
        max_bouts=max_bouts(b),
        trump_if_no_stock=no_stock,
        first_attacker=first_attacker(ctx, b),
        throw_in=b.word("throw_in", ("any_time", "after_beats"), "any_time"),
        beats=compile_beats(ctx, b, BOUT_BEATS_NAMES, "bouts.beats"),
    )


def first_attacker(ctx: CompileContext, b: BlockSettings) -> CompiledExpr | None:
    """D4: `first_attacker = EXPR`, for each player in deal order from the dealer's left
    (over his hand as dealt); the first for whom it holds attacks first. The words are its
    shorthands: `left_of_dealer` (no rule: the player left of the dealer, also when the rule
    holds for nobody) and `lowest_trump` (the rule `lowest_trump`)."""
    scope = Scope(
        {**FIRST_ATTACKER_NAMES, **ctx.kept},
        ctx.symbols,
        hand=True,
        trump=True,
        where="in bouts.first_attacker",
    )
    raw = b.raw("first_attacker")
    if isinstance(raw, s.ExprSetting):
        return b.expr("first_attacker", scope, BOOL)
    word = b.word("first_attacker", ("left_of_dealer", "lowest_trump"), "left_of_dealer")
    if word == "lowest_trump" and raw is not None:
        return compile_expr(s.Name("lowest_trump", raw.loc), scope, BOOL)
    return None


def bout_limit(
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


def max_bouts(b: BlockSettings) -> int:
    """The bout cap of a deal (D13's draw when the rules alone would not end it)."""
    value = b.integer("max_bouts", 1000, minimum=1) or 1000
    if value > MAX_BOUTS:
        raise RulesError(f"'max_bouts' is at most {MAX_BOUTS:,}", b.raw("max_bouts").loc)
    return value
