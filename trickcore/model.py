"""The validated, immutable model of a variant (what the compiler makes of a rules file)."""

from __future__ import annotations

import attrs

from .errors import Location
from .exprs import CompiledExpr

# The phase kinds of a trick game's deal, in the only order they can run (each needs what the
# ones before it decide); `deal { flow: ... }` names a selection. The engine implements each.
TRICK_PHASES: tuple[str, ...] = ("redeal", "auction", "talon", "contract", "tricks")


@attrs.frozen
class Suit:
    """A suit: its name, the symbol used in card text, and a display glyph."""

    name: str
    symbol: str
    glyph: str


@attrs.frozen
class Rank:
    """A rank: the symbol used in card text and a display name."""

    symbol: str
    name: str


@attrs.frozen
class Deck:
    """Suits, ranks from high to low, and card points by rank.

    Card numbers: ``suit_index * len(ranks) + rank_index`` (rank 0 is the highest).
    """

    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    points: tuple[int, ...]

    @property
    def size(self) -> int:
        """Number of cards."""
        return len(self.suits) * len(self.ranks)

    @property
    def total_points(self) -> int:
        """Card points in the whole deck."""
        return sum(self.points) * len(self.suits)

    def card_text(self, card: int) -> str:
        """Canonical card text: rank symbol + suit symbol (e.g. 10H)."""
        n = len(self.ranks)
        return self.ranks[card % n].symbol + self.suits[card // n].symbol

    def card_glyph(self, card: int) -> str:
        """Card text with the suit's glyph (e.g. 10♥)."""
        n = len(self.ranks)
        return self.ranks[card % n].symbol + self.suits[card // n].glyph

    def card_index(self, text: str) -> int | None:
        """The card a text names, or None."""
        for si, suit in enumerate(self.suits):
            if text.endswith(suit.symbol):
                rank = text[: -len(suit.symbol)]
                for ri, r in enumerate(self.ranks):
                    if r.symbol == rank:
                        return si * len(self.ranks) + ri
        return None


@attrs.frozen
class Meld:
    """A declarable combination (a marriage): its ranks, value per suit, and conditions."""

    name: str
    ranks: tuple[int, ...]
    values: tuple[int, ...]
    declare_if: CompiledExpr
    counts_if: CompiledExpr
    sets_trump: bool


@attrs.frozen
class Packet:
    """One step of the deal pattern: `count` cards to each hand, the talon, or the stock."""

    count: int  # -1 with "stock": the rest of the deck
    to: str  # "each" | "talon" | "stock" | "turnup"


@attrs.frozen
class DealRules:
    """Who takes part, how cards are dealt, who deals next."""

    pattern: tuple[Packet, ...]
    hands: int | None
    sits_out: str | None
    next_dealer: str  # "left" | "same" | "loser"

    def players_in_deal(self, dealer: int, seats: int) -> list[int]:
        """The seats that take part, in dealing order from the left of the dealer (C1, C2)."""
        order = [(dealer + 1 + i) % seats for i in range(seats)]
        hands = self.hands or seats
        if hands < seats:  # S3: the dealer sits out
            order = [s for s in order if s != dealer][:hands]
        return order

    @property
    def per_hand(self) -> int:
        """Cards each hand receives."""
        return sum(p.count for p in self.pattern if p.to == "each")

    @property
    def talon_size(self) -> int:
        """Cards in the talon."""
        return sum(p.count for p in self.pattern if p.to == "talon")


@attrs.frozen
class RedealRules:
    """A player whose hand meets `allowed_if` may demand a redeal before bidding."""

    allowed_if: CompiledExpr
    same_dealer: bool


@attrs.frozen
class Bidding:
    """The auction."""

    opening: int
    opening_exact: bool
    forced_opening: bool
    step: int
    pass_drops_out: bool
    ends_after_passes: int | None
    cap: CompiledExpr
    qualifiers: tuple[str, ...]
    opening_expr: CompiledExpr | None = None  # `opening = EXPR`: the lowest opening bid

    def opening_for(self, env: dict[str, object]) -> int:
        """The lowest (or, with opening_exact, the only) opening bid for a bidder's env."""
        return self.opening if self.opening_expr is None else int(self.opening_expr(env))


@attrs.frozen
class TalonRules:
    """What happens to the talon once a declarer is known."""

    show: bool
    give_each_defender: int
    split_if: CompiledExpr | None


@attrs.frozen
class ContractRules:
    """Whether the declarer may raise his contract after the talon."""

    raise_allowed: bool
    step: int
    cap: CompiledExpr
    cap_loc: Location | None = None


@attrs.frozen
class PlayRules:
    """Card play obligations."""

    follow: bool
    trump_when_void: bool
    beat_in_suit: bool
    overtrump: bool
    lead_if: CompiledExpr | None = None
    first_leader: str = "declarer"  # "declarer" | "forehand"


@attrs.frozen
class Scoring:
    """Deal scoring: named definitions in order, then the declarer's and defenders' gains."""

    definitions: tuple[tuple[str, CompiledExpr], ...]
    declarer: CompiledExpr
    defender: CompiledExpr


@attrs.frozen
class Assignment:
    """One `name = expression` of a step."""

    name: str
    expr: CompiledExpr


@attrs.frozen
class StepRule:
    """An after-deal step, run for each player in seat order."""

    name: str
    condition: CompiledExpr | None
    assigns: tuple[Assignment, ...]
    loc: Location | None = None


@attrs.frozen
class MatchRules:
    """Match end, tie-breaks, ranking and per-player state kept across deals."""

    target: int | None
    deal_limit: int
    tie_break: tuple[str, ...]
    keep: tuple[tuple[str, str, int | bool], ...]
    after_deal: tuple[StepRule, ...]
    rank_by: CompiledExpr | None = None
    redeal_limit: int = 0  # redealt deals a match may have before it ends (S5, T22)


@attrs.frozen
class TrickRules:
    """Everything of a trick-taking game with an auction."""

    bidding: Bidding
    talon: TalonRules
    contract: ContractRules
    play: PlayRules
    scoring: Scoring
    flow: tuple[str, ...] = TRICK_PHASES


@attrs.frozen
class BoutRules:
    """A shedding game of bouts (attack, defence, throw-ins, taking, refilling): Durak."""

    attack_same_rank: bool
    throw_in_by: str  # "all" | "attacker" | "neighbours"
    skip_unable: bool  # skip throwers with nothing to add (this reveals that they have none)
    limit: CompiledExpr
    throw_after_take: bool
    refill_to: int
    refill_order: str  # "attacker_first" | "defender_last"
    after_defence: str  # "defender" | "after_defender"
    after_take: str  # "after_defender" | "defender"
    swap_rank: int | None
    transfer: bool
    max_bouts: int
    trump_if_no_stock: str  # "last_dealt" | "none"
    first_attacker: str = "left_of_dealer"  # "left_of_dealer" | "lowest_trump"
    throw_in: str = "any_time"  # D6: "any_time" | "after_beats" (only once all are beaten)


@attrs.frozen
class VariantModel:
    """A whole variant, validated."""

    name: str
    title: str
    players: tuple[int, ...]
    deck: Deck
    melds: tuple[Meld, ...]
    deal: DealRules
    redeal: RedealRules | None
    tricks: TrickRules | None
    bouts: BoutRules | None
    match: MatchRules
    content_hash: str
    sources: tuple[str, ...]  # the path of every rules file, in merge order
    source_files: tuple[str, ...] = ()  # their portable names (a shipped name or a path)
    source_texts: tuple[str, ...] = ()  # their texts: a saved match carries them
