"""`play { ... }`: trick play: leading, following, trump, the card order, drawing."""

from __future__ import annotations

import attrs

from .. import syntax as s
from ..errors import RulesError
from ..exprs import (
    AGGREGATE_FUNCS,
    BOOL,
    CARD_FUNCS,
    INT,
    LED_FUNCS,
    QUALIFIER_FUNCS,
    CompiledExpr,
    Scope,
    compile_expr,
    functions_used,
    names_used,
    relation_env,
)
from ..limits import MAX_VALUE
from ..model import STOCK, TURNUP, Deck, PlayRules
from ..settings import BlockSettings
from ..vocabulary import (
    BEATS_NAMES,
    CONTRACT_STATE,
    LEAD_NAMES,
    MATCH_STATE_NAMES,
    OBLIGATION_NAMES,
    OPEN_HAND_NAMES,
    OPEN_NAMES,
    OPEN_STATE,
    PLAY_NAMES,
    RELATION_NAMES,
    TRICK_STATE,
    TRUMP_IF_NAMES,
    TRUMP_NAMES,
)
from .context import CompileContext
from .deal import layouts
from .read_ahead import choice_options, relation_scope, role_scope

PLAY_SETTINGS = frozenset(
    {
        "follow",
        "trump_when_void",
        "beat_in_suit",
        "overtrump",
        "lead_if",
        "play_if",
        "free_if",
        "sets_suit_if",
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
        "beats",
    }
)
# the words of `trump:` besides a suit's name (`turnup`, `stock_top`: that card's suit;
# `first_lead`: the suit of the first card a player leads in the deal)
TRUMP_WORDS = ("none", "turnup", "stock_top", "bid", "first_lead")
# the names of the trick in progress a play reads (worked out at a play only when read)
TRICK_READS = frozenset((*TRICK_STATE, "card_wins"))
# the "open" place, and `beats` (which reads the open names of the card's player)
OPEN_RULES = ("open_hand_if", "stop_if", "partner_plays_if", "skip_if", "beats")
# the open names that trick play does not change (the contract and each player's role in it)
FIXED_IN_PLAY = frozenset(
    {"declarer", "contract", "doubled", "redoubled", "bid_round", "declarer_side", "dealer"}
)
CONTRACT_NAMES = frozenset(CONTRACT_STATE)
# what `check_stock_draws` reads: an error there names another file's change to any of them
DRAW_READS = ("play", "deal", "deck", "pickup")


def compile_play(ctx: CompileContext, auction: bool) -> PlayRules:
    """The play block: who leads, what a player must play, trump, and the card order."""
    b = ctx.block("play")
    b.check_known(PLAY_SETTINGS)
    lead_scope = Scope(
        {**LEAD_NAMES, **ctx.kept},
        ctx.symbols,
        hand=True,
        card=True,
        played=True,
        led=True,
        trump=True,
        where="in play.lead_if",
    )
    play_scope = attrs.evolve(
        lead_scope, names={**PLAY_NAMES, **ctx.kept}, leading=True, where="in play.play_if"
    )
    first_leader = "declarer" if auction else "forehand"
    leader_card = -1
    leader_rule: CompiledExpr | None = None
    leader_scope = attrs.evolve(role_scope(ctx, "play.first_leader"), hand=True, trump=True)
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
            found = ctx.symbols.cards.get(text)
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
    pattern = ctx.deal_rules.pattern
    trump_rule = compile_trump_rule(ctx, b)
    trump_items = None if trump_rule is not None else b.items("trump")
    if trump_items is not None:
        word = trump_items[0].parts[0]
        if (
            len(trump_items) != 1
            or trump_items[0].words
            or (word not in TRUMP_WORDS and word not in ctx.symbols.suits)
        ):
            names = ", ".join([*TRUMP_WORDS, *ctx.symbols.suits])
            raise RulesError(f"'trump' is one of: {names}", trump_items[0].loc)
        if word == "turnup" and not any(p.to == "turnup" for p in pattern):
            raise RulesError(
                "'trump: turnup' needs a turned-up card: '1 turnup' in the deal pattern",
                trump_items[0].loc,
            )
        if word == "stock_top" and not any(p.to == "stock" for p in pattern):
            raise RulesError(
                "'trump: stock_top' needs a stock: 'rest stock' or 'N stock' in the pattern",
                trump_items[0].loc,
            )
        if word == "bid" and not ctx.strain_list:
            raise RulesError(
                "'trump: bid' needs bids that name a strain: 'strains:' in the bidding",
                trump_items[0].loc,
            )
        trump = ctx.symbols.suits.get(word, -1)
    draw = b.flag("draw", False)
    if draw and not any(p.to == "stock" for p in pattern):
        raise RulesError(
            "'draw: yes' needs a stock: 'rest stock' in the deal pattern", b.raw("draw").loc
        )
    obligation_scope = Scope(
        {**OBLIGATION_NAMES, **ctx.kept}, ctx.symbols, where="in a play obligation"
    )
    open_scope = Scope(
        {**OPEN_NAMES, **ctx.kept},
        ctx.symbols,
        aggregates=True,
        qualifier=True,
        where="in play",
    )
    # open_hand_if: also the names of each card of the hand in question
    open_hand_scope = attrs.evolve(
        open_scope, names={**OPEN_HAND_NAMES, **ctx.kept}, card=True, where="in play.open_hand_if"
    )
    open_card_reads = _open_card_reads(ctx, b)
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
        free_if=b.expr("free_if", attrs.evolve(lead_scope, where="in play.free_if"), BOOL, None)
        if b.raw("free_if")
        else None,
        trump=trump,
        leader_card=leader_card,
        trump_from=trump_items[0].parts[0]
        if trump_items is not None
        and trump_items[0].parts[0] in ("turnup", "stock_top", "first_lead")
        else "",
        draw=draw,
        obligations=tuple(obligations),
        sets_suit_if=compile_relation(ctx, b, "sets_suit_if", BOOL),
        trump_power=compile_relation(ctx, b, "trump_power"),
        power=compile_relation(ctx, b, "power"),
        open_hand_if=b.expr("open_hand_if", open_hand_scope, BOOL, None)
        if b.raw("open_hand_if")
        else None,
        open_cards=bool(open_card_reads),
        open_combination="card_in_combination" in open_card_reads,
        open_hand_player=_open_hand_player(b, open_hand_scope) if open_card_reads else None,
        stop_if=b.expr("stop_if", open_scope, BOOL, None) if b.raw("stop_if") else None,
        skip_if=b.expr("skip_if", open_scope, BOOL, None) if b.raw("skip_if") else None,
        sit_out_if=b.expr("sit_out_if", role_scope(ctx, "play.sit_out_if"), BOOL, None)
        if b.raw("sit_out_if")
        else None,
        partner_fixed=isinstance(b.raw("partner_plays_if"), s.ExprSetting)
        and names_used(b.raw("partner_plays_if").expr) <= FIXED_IN_PLAY
        and functions_used(b.raw("partner_plays_if").expr) <= QUALIFIER_FUNCS.keys(),
        partner_plays_if=b.expr("partner_plays_if", open_scope, BOOL, None)
        if b.raw("partner_plays_if")
        else None,
        trump_bid=trump_items is not None and trump_items[0].parts[0] == "bid",
        trump_if=b.expr(
            "trump_if",
            Scope(dict(TRUMP_IF_NAMES), ctx.symbols, where="in play.trump_if"),
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
            if name in ctx.kept or name in MATCH_STATE_NAMES
        ),
        open_reads_contract=any(
            (names_used(b.raw(key).expr) & CONTRACT_NAMES)
            or (functions_used(b.raw(key).expr) & QUALIFIER_FUNCS.keys())
            for key in OPEN_RULES
            if isinstance(b.raw(key), s.ExprSetting)
        ),
        player_reads=frozenset(
            name
            for key in OPEN_RULES
            if isinstance(b.raw(key), s.ExprSetting)
            for name in names_used(b.raw(key).expr)
            if name in ctx.kept or name in MATCH_STATE_NAMES
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
            if name in TRICK_READS and name not in ctx.kept
        ),
        open_table_reads=frozenset(
            name
            for key in OPEN_RULES
            if isinstance(b.raw(key), s.ExprSetting)
            for name in _aggregated_names(b.raw(key).expr)
        ),
        reads_trumps=any(
            "trumps_held" in names_used(b.raw(key).expr)
            or "holds_trump" in functions_used(b.raw(key).expr)
            for key in ("lead_if", "play_if", "free_if")
            if isinstance(b.raw(key), s.ExprSetting)
        ),
        reads_led=any(
            functions_used(b.raw(key).expr) & set(LED_FUNCS)
            for key in ("lead_if", "play_if", "free_if")
            if isinstance(b.raw(key), s.ExprSetting)
        ),
        side_if=compile_side_if(ctx, b, partner_plays=b.raw("partner_plays_if") is not None),
        side_reads=frozenset(names_used(b.raw("side_if").expr))
        if isinstance(b.raw("side_if"), s.ExprSetting)
        else frozenset(),
        beats=compile_beats(ctx, b, BEATS_NAMES, "play.beats", player=True),
        beats_reads_player=_beats_reads_player(ctx, b),
    )


def compile_side_if(
    ctx: CompileContext, b: BlockSettings, partner_plays: bool
) -> CompiledExpr | None:
    """`play { side_if = EXPR }`: the sides formed as trick play begins, over each
    player's role and his hand (`holds(C)`): those for whom it holds against the others.
    Nobody is told the sides, so no rule a player acts on may read his partner."""
    raw = b.raw("side_if")
    if raw is None:
        return None
    if ctx.model_sides:
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
    scope = attrs.evolve(role_scope(ctx, "play.side_if"), hand=True, trump=True)
    return b.expr("side_if", scope, BOOL)


def compile_trump_rule(ctx: CompileContext, b: BlockSettings) -> CompiledExpr | None:
    """`play { trump = EXPR }`: the trump suit of each deal, worked out as it is dealt
    over the public names of `trump_if` (`deal_number`, ...), where each suit's name is
    its number: `trump = if mod(deal_number, 2) == 1 then hearts else spades`."""
    raw = b.raw("trump")
    if not isinstance(raw, s.ExprSetting):
        return None
    suits = ctx.suit_names
    clash = sorted(set(suits) & set(TRUMP_NAMES))
    if clash:
        raise RulesError(
            f"'trump = EXPR' reads suits by name, and the suit {clash[0]} has the name of "
            "a quantity: rename the suit",
            raw.loc,
        )
    scope = Scope(
        {**TRUMP_NAMES, **dict.fromkeys(suits, INT)},
        ctx.symbols,
        where="in play.trump (a suit's name is its number)",
    )
    return b.expr("trump", scope, INT)


def compile_relation(
    ctx: CompileContext, b: BlockSettings, name: str, kind: str = INT
) -> CompiledExpr | None:
    """`trump_power` / `power`: a number per card, checked on every card and trump
    (`sets_suit_if`: a yes/no per card)."""
    if b.raw(name) is None:
        return None
    options = choice_options(ctx.root)
    scope = relation_scope(ctx, RELATION_NAMES, f"in play.{name}")
    fn = b.expr(name, scope, kind)
    n = len(ctx.symbols.ranks)
    faces = ctx.the_deck.faces
    for trump in range(-1, len(ctx.the_deck.suits)):
        for quals in ("", *ctx.symbols.qualifiers):
            for chosen in ["", *options]:
                for c, face in enumerate(faces):
                    env = relation_env(c, face, n, trump, quals, options, (chosen,))
                    value = fn(env)
                    if not -MAX_VALUE <= value <= MAX_VALUE:
                        raise RulesError(
                            f"{name} gives a number outside ±{MAX_VALUE:,}", b.raw(name).loc
                        )
    return fn


def check_stock_draws(ctx: CompileContext, players: tuple[int, ...], deck: Deck) -> None:
    """`play { draw: yes }`: after each trick every player in the deal draws one card,
    so the stock (with the turned-up card) must hold a multiple of their number, for
    every player count and deal size, and also once a pickup has taken the turned-up
    card; otherwise the hands run unequal and the deal ends with cards unplayed."""
    rules = ctx.deal_rules
    pickup = "pickup" in ctx.flow_kinds
    for seated, in_deal, size, places in layouts(rules, players, deck.size):
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
            ctx.block("play").raw("draw").loc,
        )


OPEN_CARD_NAMES = frozenset(set(OPEN_HAND_NAMES) - set(OPEN_NAMES))


def _open_hand_player(b: BlockSettings, scope: Scope) -> CompiledExpr | None:
    """Of an `open_hand_if = A and B and ...` read card by card, the largest part it begins
    with that reads no name of a card: worked out once for a player (when it fails, none of
    his cards is shown)."""
    raw = b.raw("open_hand_if")
    assert isinstance(raw, s.ExprSetting)
    node: s.Expr | None = raw.expr
    while node is not None:
        reads_card = names_used(node) & OPEN_CARD_NAMES or functions_used(node) & CARD_FUNCS.keys()
        if not reads_card:
            return compile_expr(node, scope, BOOL) if node is not raw.expr else None
        node = node.left if isinstance(node, s.Binary) and node.op == "and" else None
    return None


def _open_card_reads(ctx: CompileContext, b: BlockSettings) -> set[str]:
    """The names of a card `open_hand_if` reads (its card functions as `card_rank`): when
    it reads any, it is worked out card by card. `card_in_combination` needs combinations."""
    raw = b.raw("open_hand_if")
    if not isinstance(raw, s.ExprSetting):
        return set()
    reads = (names_used(raw.expr) & OPEN_CARD_NAMES) - set(ctx.kept)
    reads |= functions_used(raw.expr) & CARD_FUNCS.keys()
    if "card_in_combination" in reads and not ctx.combinations:
        raise RulesError(
            "'card_in_combination' needs combinations: a 'combination NAME { ... }' block",
            raw.loc,
        )
    return reads


def _aggregated_names(expr: s.Expr) -> set[str]:
    """The names an expression's aggregates (`count_all(x)`, ...) read of every player."""
    return {
        call.args[0].name
        for call in s.calls_in(expr)
        if call.func in AGGREGATE_FUNCS and call.args and isinstance(call.args[0], s.Name)
    }


def _beats_reads_player(ctx: CompileContext, b: BlockSettings) -> bool:
    """`play.beats` reads a name of the card's player or an aggregate over the table (the
    engine then gives it that player's open names)."""
    raw = b.raw("beats")
    if not isinstance(raw, s.ExprSetting):
        return False
    own = frozenset(BEATS_NAMES) - frozenset(OPEN_STATE) | {"tricks_played"}
    return bool(
        {n for n in names_used(raw.expr) if n not in own}
        or functions_used(raw.expr) & (AGGREGATE_FUNCS.keys() | QUALIFIER_FUNCS.keys())
    )


def compile_beats(
    ctx: CompileContext,
    b: BlockSettings,
    names: dict[str, str],
    where: str,
    player: bool = False,
) -> CompiledExpr | None:
    """`beats = EXPR` (in `play` or `bouts`): whether a card beats the other it meets (the
    card winning the trick so far; the attack card), over the two cards (`card_*`,
    `other_*`) and `beats_usually`, the usual rule; with `player`, also over the names of
    the card's player (his `keep` names, his role, the aggregates over the table)."""
    if b.raw("beats") is None:
        return None
    scope = Scope(dict(names), ctx.symbols, card=True, other=True, where=f"in {where}")
    if player:  # the names of the card's player, as the open rules read them
        scope = attrs.evolve(scope, names={**names, **ctx.kept}, aggregates=True, qualifier=True)
    rule: CompiledExpr = b.expr("beats", scope, BOOL)
    return rule
