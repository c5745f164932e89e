"""The validated, immutable model of a variant (what the compiler makes of a rules file)."""

from __future__ import annotations

import attrs

from .errors import Location
from .exprs import CompiledExpr, relation_env

# The phase kinds of a trick game's deal, in the only order they can run (each needs what the
# ones before it decide); `deal { flow: ... }` names a selection. The engine implements each.
TRICK_PHASES: tuple[str, ...] = (
    "redeal",
    "pass",
    "auction",
    "bids",
    "talon",
    "contract",
    "pickup",
    "draw_up",
    "tricks",
)


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
    """Suits, ranks from high to low, card points by rank, and which cards the deck holds.

    A *face* is a rank of a suit, numbered ``suit_index * len(ranks) + rank_index`` (rank 0
    is the highest). The deck holds every face `copies` times, except the faces of
    `without`; its cards are numbered from 0, face by face, the copies of a face one after
    another (so with one copy of every face a card's number is its face's). Two copies of a
    face are the same card to the players: they have one text, and no rule can tell them
    apart.
    """

    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    points: tuple[int, ...]
    # `card_points = EXPR`: the points of each card with no trump, no call and nothing chosen
    by_card: tuple[int, ...] | None = None
    # `card_points = EXPR` reading the trump, the contract's call (`bid_is`, `strain_is`) or the
    # options chosen: the rule itself, worked out for each of them by `points_in`; None when a
    # card's points never change
    points_rule: CompiledExpr | None = None
    points_options: tuple[str, ...] = ()  # the options of the `choice` blocks (yes/no names)
    copies: int = 1  # `copies: N`: each face N times
    without: tuple[int, ...] = ()  # `without: CARD, ...`: faces the deck does not hold
    # worked out from the above: the face of each card, and the cards of each face
    faces: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    cards_of_face: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False, repr=False)
    # each card's first copy (itself without copies): melds name first copies
    first_copy: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        left_out = set(self.without)
        faces = tuple(
            f
            for f in range(len(self.suits) * len(self.ranks))
            if f not in left_out
            for _ in range(self.copies)
        )
        of_face: list[list[int]] = [[] for _ in range(len(self.suits) * len(self.ranks))]
        for card, face in enumerate(faces):
            of_face[face].append(card)
        object.__setattr__(self, "faces", faces)
        object.__setattr__(self, "cards_of_face", tuple(tuple(cs) for cs in of_face))
        object.__setattr__(self, "first_copy", tuple(of_face[face][0] for face in faces))

    @property
    def size(self) -> int:
        """Number of cards."""
        return len(self.faces)

    @property
    def plain(self) -> bool:
        """Every face once: a card's number is its face's."""
        return self.copies == 1 and not self.without

    @property
    def suit_of_card(self) -> tuple[int, ...]:
        """The suit index of each card."""
        n = len(self.ranks)
        return tuple(f // n for f in self.faces)

    @property
    def rank_of_card(self) -> tuple[int, ...]:
        """The rank index of each card."""
        n = len(self.ranks)
        return tuple(f % n for f in self.faces)

    @property
    def card_points(self) -> tuple[int, ...]:
        """The points of each card (by card number)."""
        if self.by_card is not None:
            return self.by_card
        n = len(self.ranks)
        return tuple(self.points[f % n] for f in self.faces)

    @property
    def total_points(self) -> int:
        """Card points in the whole deck."""
        return sum(self.card_points)

    @property
    def points_vary(self) -> bool:
        """A card's points depend on the trump, the contract's call or the options chosen."""
        return self.points_rule is not None

    def points_in(
        self, trump: int, call: str = "", chosen: tuple[str, ...] = ()
    ) -> tuple[int, ...]:
        """The points of each card while `trump` (a suit index, -1 for none) is trump, the
        contract carries `call` (a qualifier, or a strain and qualifier) and the `chosen`
        options were chosen. Worked out anew on each call: the engine keeps what it needs."""
        rule = self.points_rule
        if rule is None:
            return self.card_points
        n, options = len(self.ranks), self.points_options
        return tuple(
            rule(relation_env(c, face, n, trump, call, options, chosen))
            for c, face in enumerate(self.faces)
        )

    def face_text(self, face: int) -> str:
        """A face's text: rank symbol + suit symbol (e.g. 10H)."""
        n = len(self.ranks)
        return self.ranks[face % n].symbol + self.suits[face // n].symbol

    def card_text(self, card: int) -> str:
        """Canonical card text: rank symbol + suit symbol (e.g. 10H); copies share it."""
        return self.face_text(self.faces[card])

    def card_glyph(self, card: int) -> str:
        """Card text with the suit's glyph (e.g. 10♥)."""
        n = len(self.ranks)
        face = self.faces[card]
        return self.ranks[face % n].symbol + self.suits[face // n].glyph

    def card_of(self, suit: int, rank: int) -> int:
        """The first card of a rank of a suit, or -1 when the deck does not hold it."""
        cards = self.cards_of_face[suit * len(self.ranks) + rank]
        return cards[0] if cards else -1

    def face_index(self, text: str) -> int | None:
        """The face a text names (held by the deck or not), or None."""
        for si, suit in enumerate(self.suits):
            if text.endswith(suit.symbol):
                rank = text[: -len(suit.symbol)]
                for ri, r in enumerate(self.ranks):
                    if r.symbol == rank:
                        return si * len(self.ranks) + ri
        return None

    def card_index(self, text: str) -> int | None:
        """The (first) card a text names, or None."""
        face = self.face_index(text)
        if face is None or not self.cards_of_face[face]:
            return None
        return self.cards_of_face[face][0]


@attrs.frozen
class Meld:
    """A declarable combination: ranks of one suit (one meld per suit) or a fixed
    set of cards (four aces), with its value per suit and its conditions."""

    name: str
    ranks: tuple[int, ...]
    values: tuple[int, ...]
    declare_if: CompiledExpr
    counts_if: CompiledExpr
    sets_trump: bool
    trump_value: int | None = None  # its value when its suit is trump as it is declared
    announce: bool = False  # declared as an action of its own ("announce NAME SUIT")
    cards: tuple[int, ...] = ()  # a meld of these cards (not ranks of one suit): suit -1

    def value_in(self, suit: int, trump: int) -> int:
        """The meld's value in `suit` (-1 for a meld of fixed cards) while `trump` is the
        trump suit (-1: none)."""
        if self.trump_value is not None and suit == trump and suit >= 0:
            return self.trump_value
        return self.values[max(suit, 0)]


@attrs.frozen
class Combination:
    """A pattern of cards in one hand (`combination NAME`): a run of `size` or more cards of
    one suit, consecutive in `order` ("run"), `size` or more suits of one rank
    ("same_rank"), or every card of one of `sets` ("cards": given ranks of one suit, or
    given cards). Patterns are of faces: with copies, a combination is held as often
    (`times`) as the fewest copies held of its cards. Each one held is worth `value` (a
    combination worth 0 is none) and compares by `strength` (by default its value)."""

    name: str
    kind: str  # "run" | "same_rank" | "cards"
    size: int
    order: tuple[int, ...]  # rank indices, high to low: a run's order; ranks' places (`top`)
    value: CompiledExpr
    strength: CompiledExpr | None = None
    sets: tuple[tuple[int, ...], ...] = ()  # "cards": the faces of each set it may be


@attrs.frozen
class Packet:
    """One step of the deal pattern: `count` cards to each hand, the talon, or the stock."""

    count: int  # -1 with "stock" or "out": the rest of the deck
    to: str  # "each" | "talon" | "stock" | "turnup" | "out" | "round"
    sized: bool = False  # repeated `size` times (`1 each size times`)
    counts: tuple[int, ...] = ()  # "round": one packet per player in deal order
    holder: str = ""  # "turnup": "" lies on the table; "dealer": dealt face up into his hand


NO_TRUMP = -2  # a choice's option that leaves the deal without a trump suit (`OPTION none`)
TALON, STOCK, TURNUP, OUT = -1, -2, -3, -4  # where a deck position goes, besides a seat
PLACE_OF = {"talon": TALON, "stock": STOCK, "turnup": TURNUP, "out": OUT}


@attrs.frozen
class DealRules:
    """Who takes part, how cards are dealt, who deals next."""

    pattern: tuple[Packet, ...]
    hands: int | None
    sits_out: str | None
    next_dealer: str  # "left" | "same" | "loser"; "rule" with `next_dealer_rule`
    keep: tuple[tuple[str, str, int | bool], ...] = ()  # per-player values during a deal
    size: CompiledExpr | None = None  # `size = EXPR`: the count `size` in the pattern
    # `stock_top: shown`: the stock's top card lies face up (every player sees it)
    stock_top_shown: bool = False

    def packets(self, size: int = 1) -> tuple[Packet, ...]:
        """The pattern with `size` worked out: packets repeated `size` times are repeated."""
        if self.size is None:
            return self.pattern
        out: list[Packet] = []
        for p in self.pattern:
            if p.sized:
                out.extend([Packet(p.count, p.to, holder=p.holder)] * size)
            else:
                out.append(p)
        return tuple(out)

    def places(self, order: list[int], deck_size: int, size: int = 1) -> list[int]:
        """Where each deck position goes, top first: a seat, or TALON, STOCK, TURNUP, OUT.
        A turned-up card with no card left to turn is left out; one dealt to the dealer
        (`1 turnup to dealer`) goes to his seat, the last of `order`."""
        return self._places(order, deck_size, size)[0]

    def shown_position(self, order: list[int], deck_size: int, size: int = 1) -> int:
        """The deck position of the card turned up and dealt into the dealer's hand
        (`1 turnup to dealer`), or -1."""
        return self._places(order, deck_size, size)[1]

    def _places(self, order: list[int], deck_size: int, size: int) -> tuple[list[int], int]:
        places: list[int] = []
        shown = -1
        for packet in self.packets(size):
            if packet.to == "each":
                for s in order:
                    places.extend([s] * packet.count)
            elif packet.to == "round":
                for s, n in zip(order, packet.counts, strict=True):
                    places.extend([s] * n)
            elif packet.holder == "dealer":
                if len(places) < deck_size:
                    shown = len(places)
                    places.append(order[-1])
            else:
                left = deck_size - len(places)
                count = left if packet.count < 0 else min(packet.count, left)
                places.extend([PLACE_OF[packet.to]] * count)
        return places, shown

    @property
    def turnup_held(self) -> bool:
        """Whether the turned-up card is dealt into the dealer's hand (`1 turnup to dealer`)
        instead of lying on the table."""
        return any(p.to == "turnup" and p.holder for p in self.pattern)

    def players_in_deal(self, dealer: int, seats: int) -> list[int]:
        """The seats that take part, in dealing order from the left of the dealer (C1, C2)."""
        order = [(dealer + 1 + i) % seats for i in range(seats)]
        hands = self.hands or seats
        if hands < seats:  # S3: the dealer sits out
            order = [s for s in order if s != dealer][:hands]
        return order

    @property
    def per_hand(self) -> int:
        """Cards each hand receives (with `size` in the pattern: with a size of 1)."""
        return sum(
            p.count if p.to == "each" else p.counts[0] if p.to == "round" else 0
            for p in self.packets()
        )

    @property
    def talon_size(self) -> int:
        """Cards in the talon."""
        return sum(p.count for p in self.pattern if p.to == "talon")


@attrs.frozen
class RedealRules:
    """A player whose hand meets `allowed_if` may demand a redeal before bidding; a hand that
    meets `forced_if` makes the deal void at once, nobody asked."""

    allowed_if: CompiledExpr | None  # None: nobody is offered a redeal
    same_dealer: bool
    forced_if: CompiledExpr | None = None


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
    style: str = "calls"  # "calls": in turn round the table; "pairs": one challenger at a time
    values: tuple[int, ...] = ()  # the only bids there are (`values:`), lowest first
    # nobody bids: "redeal" (thrown in), "played" (scored as it is), "play_on" (the flow goes
    # on without a declarer)
    all_pass: str = "redeal"
    strains: tuple[str, ...] = ()  # what a bid names, low to high (`strains:`)
    strain_suits: tuple[int, ...] = ()  # the trump suit of each strain (-1: none)
    levelless: bool = False  # `levels: none`: a bid names a strain only
    bid_if: CompiledExpr | None = None  # which bids a player may make
    pass_if: CompiledExpr | None = None  # when he may pass
    # when he may bid the standing bid again and so take it over (the dealer's privilege)
    hold_if: CompiledExpr | None = None
    rounds: int | None = None  # with `pass: stays_in`: rounds of calls before all passed
    double: bool = False  # `double` and `redouble` calls
    declarer_rule: str = "last_bidder"  # or "first_to_name" (of the last bidder's side)
    first_caller: str = "forehand"  # or "dealer"
    # `style: pairs` with `join: yes`: first each player says `join` or `pass`; only those
    # who joined bid, the first of them holding the lowest value
    join: bool = False

    @property
    def first_bid_ends(self) -> bool:
        """`ends: first_bid`: the first bid ends the auction."""
        return self.ends_after_passes == 0

    def opening_for(self, env: dict[str, object]) -> int:
        """The lowest (or, with opening_exact, the only) opening bid for a bidder's env."""
        return self.opening if self.opening_expr is None else int(self.opening_expr(env))


@attrs.frozen
class TalonRules:
    """What happens to the talon once a declarer is known."""

    show: bool
    give_each_defender: int
    split_if: CompiledExpr | None
    lay_away: int = 0  # cards the declarer then lays away (face down), one at a time
    # the first player (in deal order) for whom this holds at the end gets the points of the
    # laid-away cards and of the talon left untaken
    counts_for_if: CompiledExpr | None = None
    # per card of the declarer's hand: whether he may lay it away (all, when none may)
    lay_away_if: CompiledExpr | None = None
    # per card laid away (as `lay_away_if` judged it): shown to all as it is laid away
    lay_away_shown_if: CompiledExpr | None = None


@attrs.frozen
class ContractRules:
    """Whether the declarer may raise his contract after the talon."""

    raise_allowed: bool
    step: int
    cap: CompiledExpr
    cap_loc: Location | None = None
    # with strains: which higher contracts he may name (each asked; names `level`, ...)
    raise_if: CompiledExpr | None = None


@attrs.frozen
class PassRules:
    """Passing cards (`pass_cards`): each player for whom `passes_if` holds (every player
    without it) sets `count` cards aside, then each set goes `to` seats on in deal order (0:
    no passing in this deal), or to the first player after him for whom `receives_if` holds
    (none: he does not pass); `pass_if` says, card by card, which cards may be passed; with
    `back`, each player who received cards then passes as many back to the player they came
    from."""

    count: int
    to: CompiledExpr | None  # None: the takers are picked by `receives_if`
    passes_if: CompiledExpr | None = None  # for each player, as the phase begins
    back: bool = False
    receives_if: CompiledExpr | None = None  # for each player, as the phase begins
    pass_if: CompiledExpr | None = None  # for each card of the hand, as one is to be passed
    # `count: N each`: N cards to each other player (for whom `receives_if` holds), the
    # first N to the player after him, the next N to the one after, ...
    each: bool = False


@attrs.frozen
class BidsRules:
    """One bid of a number from each player (`bids`), some of them possibly blind."""

    min: int
    max: CompiledExpr
    blind_if: CompiledExpr | None
    blind: tuple[int, ...]
    bid_if: CompiledExpr | None = None  # which numbers a player may bid
    bid_if_aggregates: bool = False  # it reads the other players' bids (sum_side, ...)


@attrs.frozen
class DrawUpRules:
    """Each player in deal order, from the forehand, takes cards from the top of the stock
    (the turned-up card last) until his hand holds `to` cards."""

    to: int


@attrs.frozen
class PickupRules:
    """A player (the dealer or the declarer) takes the turned-up card and lays away cards."""

    who: str  # "dealer" | "declarer"
    take_if: CompiledExpr | None
    lay_away: int
    lay_away_if: CompiledExpr | None = None  # per card: may he lay it away (all, if none)
    lay_away_shown_if: CompiledExpr | None = None  # per card laid away: shown to all


@attrs.frozen
class PlayRules:
    """Card play obligations."""

    follow: bool
    trump_when_void: bool
    beat_in_suit: bool
    overtrump: bool
    lead_if: CompiledExpr | None = None
    # "declarer" | "forehand" | "holder" | "left_of_declarer" | "rule" (`first_leader_rule`)
    first_leader: str = "declarer"
    play_if: CompiledExpr | None = None
    # per card, over `lead_if`'s names: a card for which it holds may always be led or
    # played, whatever the duties, `lead_if` and `play_if` say (a joker, a card no duty binds)
    free_if: CompiledExpr | None = None
    # per card, over the relation names: whether a card sets the suit to follow when it is
    # the first such card of a trick (None: every card does, the usual rule); a trick led
    # with a card that does not is led by the next card that does
    sets_suit_if: CompiledExpr | None = None
    trump: int = -1  # a suit that is trump from the start; -1: none (melds may set one)
    leader_card: int = -1  # with first_leader "holder": the card whose holder leads
    # the place whose card's suit is trump as play is dealt: "turnup" (the turned-up card),
    # "stock_top" (the stock's top card); "first_lead": the suit of the first card a player
    # leads in the deal, trump from that card on; "" for none
    trump_from: str = ""
    draw: bool = False  # after each trick everyone draws from the stock, the winner first
    # obligations written as expressions (name, rule), read at each play; the flags above
    # hold the value of those written as plain yes/no
    obligations: tuple[tuple[str, CompiledExpr], ...] = ()
    trump_power: CompiledExpr | None = None  # per card: > 0 makes it a trump, the higher
    power: CompiledExpr | None = None  # per card: its strength in its suit (higher wins)
    open_hand_if: CompiledExpr | None = None  # per player: his hand is shown to all
    # `open_hand_if` reads a card's names: worked out for each card of the hand, the cards
    # for which it holds shown (`open_combination`: it reads `card_in_combination`)
    open_cards: bool = False
    open_combination: bool = False
    # of such an `open_hand_if`, the part it begins with that reads no card: once a player
    open_hand_player: CompiledExpr | None = None
    stop_if: CompiledExpr | None = None  # after each trick, per player: play ends now
    skip_if: CompiledExpr | None = None  # as play begins, per player: no trick is played
    sit_out_if: CompiledExpr | None = None  # per player, as play begins: he sits out
    partner_plays_if: CompiledExpr | None = None  # per player: his partner plays his cards
    # `partner_plays_if` reads only what trick play does not change (the contract and the
    # roles in it): worked out once per deal, as play begins
    partner_fixed: bool = False
    trump_bid: bool = False  # `trump: bid`: the contract's strain is trump
    trump_if: CompiledExpr | None = None  # public: when false, the deal has no trump
    # `trump = EXPR`: the trump suit's index, worked out as each deal is dealt (public)
    trump_rule: CompiledExpr | None = None
    player_reads: frozenset[str] = frozenset()  # the player's values these two read
    open_reads_contract: bool = False  # open_hand_if / stop_if / partner_plays_if read it
    obligation_reads: frozenset[str] = frozenset()  # the player's values obligations read
    open_aggregates: bool = False  # open_hand_if / stop_if / partner_plays_if read count_all..
    talon_leads: bool = False  # a talon still there as play begins leads the first tricks
    open_table_reads: frozenset[str] = frozenset()  # the names those aggregates read
    # the names of the trick in progress (`cards_in_trick`, `partner_winning`, ...,
    # `card_wins`) the obligations and `play_if` read: worked out at a play only if read
    trick_reads: frozenset[str] = frozenset()
    # `lead_if` / `play_if` read `times_led(S)` or `led_suit(S)`: the suits led are kept
    reads_led: bool = False
    # `lead_if` or `play_if` reads the trumps in the hand (`trumps_held`, `holds_trump`)
    reads_trumps: bool = False
    # `side_if`: worked out for each player as trick play begins; those for whom it holds
    # form one side, the others the other (secret: nobody is told who is on which)
    side_if: CompiledExpr | None = None
    side_reads: frozenset[str] = frozenset()  # the names side_if reads
    # `first_leader = EXPR`: for each player in deal order as trick play begins (over the
    # names of `side_if`), the first for whom it holds leads (none: the forehand)
    first_leader_rule: CompiledExpr | None = None
    # `beats = EXPR`: whether a card played beats the card winning the trick so far (None:
    # the usual rule, `beats_usually`)
    beats: CompiledExpr | None = None
    # `beats` reads names of the card's player (his `keep` names, his role, aggregates):
    # it is given that player's open names (`player_reads` and the like cover them)
    beats_reads_player: bool = False


@attrs.frozen
class Decision:
    """A decision a player may take (`decision NAME`: its action is its name, the other
    answer between phases is `keep`), or a choice he must make (`choice NAME`: its actions
    are its options)."""

    name: str
    at: tuple[str, ...]  # "lead" and/or "play"; or one of "before PHASE", "end"
    offer_if: CompiledExpr
    after_announce: bool
    rules: tuple[StepRule, ...]
    # "" | "close_stock" | "swap_turnup" | "end_deal" | "redeal" | "skip" | "exchange_out"
    effect: str
    swap_rank: int = -1
    who: str = "each"  # between phases: "each" player, the "declarer" alone, the "defenders"
    skip: str = ""  # with effect "skip": the phase of the flow it skips
    # a `choice`: one of these options must be chosen (each a yes/no name of the deal), when
    # its condition holds; an option may set the trump suit (-1: no trump)
    options: tuple[str, ...] = ()
    option_ifs: tuple[CompiledExpr, ...] = ()
    option_trumps: tuple[int, ...] = ()  # a suit, -1: as it is, NO_TRUMP: no trump suit
    reads: frozenset[str] = frozenset()  # the names and functions its expressions use
    # the names and functions `offer_if` and `forced_if` read (whether he is asked, and
    # must), without the cards, ranks, suits, strains and qualifiers they name
    offer_reads: frozenset[str] = frozenset()
    # the same of its rules (their conditions and the values they set)
    rule_reads: frozenset[str] = frozenset()
    aggregated: frozenset[str] = frozenset()  # the names its aggregates read of everybody
    public: bool = False  # its rules set every player's values (an announcement to all)
    # between phases: whom it is asked first, in deal order ("forehand"), or from the
    # declarer's left ("left_of_declarer")
    first_asked: str = "forehand"
    # with effect "exchange_out": he lays away this many cards of his choice, one
    # `discard CARD` each, and takes as many of the cards left out of the deal (`out`); with
    # `exchange_out A to B`, at most B (and no more than the cards nobody has held, unless A
    # needs them) and at least `exchange_least` (A): after A he may say `keep` to stop
    exchange: int = 0
    exchange_least: int = 0
    own: bool = False  # a choice whose options are the chooser's own yes/no values
    declares: bool = False  # a choice whose chooser becomes the declarer (public)
    # between phases: when it holds for the player asked, `keep` is not offered (he must)
    forced_if: CompiledExpr | None = None
    # between phases: when taken, the decisions of its point are all asked again once this
    # round of them is over (rounds until one in which no such decision is taken)
    again: bool = False


@attrs.frozen
class Scoring:
    """Deal scoring: named definitions in order, then the declarer's and defenders' gains."""

    definitions: tuple[tuple[str, CompiledExpr], ...]
    declarer: CompiledExpr
    defender: CompiledExpr  # without an auction both are the `player` rule
    reads_taken: bool = False  # taken_suit / taken_card: the won cards are collected
    reads_top_trumps: bool = False  # top_trumps is worked out
    sitting_out: CompiledExpr | None = None  # the deal score of a seat not in the deal
    reads_hand: bool = False  # count_rank / count_suit / holds_trump over the start hands
    reads_tricks: bool = False  # sum_tricks / count_tricks: each finished trick's names
    # `progress = EXPR`: what a finished deal is worth to each player for those who judge
    # play before the match is decided (computer players, the arena); else the deal score
    progress: bool = False


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
    # `after_card`: the rule's condition begins `played_it and ...`: it can hold for the
    # player who played alone (the others need not be asked)
    player_only: bool = False
    # `after_card`: it reads other players' names (aggregates, other seats): theirs are made
    others_read: bool = False
    # `after_trick`, `after_card`: a part the condition begins with (`A and ...`) that reads
    # nothing but aggregates over every player of the deal (`count_all`, `sum_all`, ...) and
    # constants: the same for every player, so where it fails the rule holds for nobody
    common: CompiledExpr | None = None
    common_reads: tuple[str, ...] = ()  # the names its aggregates read
    # `after_card`: the cards after which the rule can hold, when its condition begins with
    # parts that read the card alone (`played_it and card_is(AD) and ...`); None: any card
    cards: frozenset[int] | None = None


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
    end_if: CompiledExpr | None = None  # the match ends when this holds for any player
    # `deal { next_dealer = EXPR }`: after a played deal, for each seat from the dealer's
    # left round the table (the dealer last), over the names `after_deal` reads once its
    # rules ran: the first for whom it holds deals next (none: the dealer's left)
    next_dealer: CompiledExpr | None = None
    # `carry: NAME, ...`: the kept names a next match made after this one starts from
    # (`Variant.new_match(after=...)`: a tournament's running total, Bock rounds owed)
    carry: tuple[str, ...] = ()


@attrs.frozen
class TrickRules:
    """Everything of a trick-taking game with an auction."""

    bidding: Bidding | None
    talon: TalonRules
    contract: ContractRules | None
    play: PlayRules
    scoring: Scoring
    flow: tuple[str, ...] = TRICK_PHASES
    pass_cards: PassRules | None = None
    bids: BidsRules | None = None
    decisions: tuple[Decision, ...] = ()
    pickup: PickupRules | None = None
    draw_up: DrawUpRules | None = None
    # `after_trick`: rules run for every player of the deal after each finished trick
    # (each rule worked out for all of them before any value is set)
    after_trick: tuple[StepRule, ...] = ()
    # `after_card`: rules run for every player of the deal after each card played to a trick
    after_card: tuple[StepRule, ...] = ()


@attrs.frozen
class BoutRules:
    """A shedding game of bouts: attack, defence, throw-ins, taking, refilling."""

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
    # D4: for each player from the dealer's left, the first for whom it holds attacks first
    # (None: the player left of the dealer; `first_attacker: lowest_trump` is `lowest_trump`)
    first_attacker: CompiledExpr | None = None
    throw_in: str = "any_time"  # D6: "any_time" | "after_beats" (only once all are beaten)
    # `beats = EXPR`: whether a card beats the attack card (None: the usual rule)
    beats: CompiledExpr | None = None


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
    combinations: tuple[Combination, ...] = ()  # `combination NAME` blocks, in file order
    sides: tuple[tuple[int, ...], ...] = ()  # partnerships; () when each plays for himself
    # `define { NAME = EXPR }`: (name, the expression as written, as written into others)
    defines: tuple[tuple[str, str, str], ...] = ()

    @property
    def call_qualifiers(self) -> tuple[str, ...]:
        """What a contract's call can carry besides its value: "" and each bid qualifier (and
        "blind" for bids made blind), or with `strains:` each strain alone and with each
        qualifier ("clubs", "clubs ohne")."""
        bidding = self.tricks.bidding if self.tricks else None
        if bidding is not None and bidding.strains:
            return tuple(
                f"{st} {q}".strip() for st in bidding.strains for q in ("", *bidding.qualifiers)
            )
        quals = bidding.qualifiers if bidding else ()
        if self.tricks and self.tricks.bids and self.tricks.bids.blind:
            quals = (*quals, "blind")
        return ("", *quals)

    def point_tables(self) -> list[tuple[int, str, tuple[str, ...], tuple[int, ...]]]:
        """The card points in each case a deal can be in: for every trump (-1 first), every
        call and every choice of options (at most one of each `choice` block),
        `(trump, call, chosen, points)`; one entry when they never change."""
        deck = self.deck
        if not deck.points_vary:
            return [(-1, "", (), deck.card_points)]
        choices: list[tuple[str, ...]] = [()]
        for decision in self.tricks.decisions if self.tricks else ():
            if decision.options:
                choices = [(*c, o) for c in choices for o in ("", *decision.options)]
        return [
            (trump, call, chosen, deck.points_in(trump, call, chosen))
            for trump in range(-1, len(deck.suits))
            for call in dict.fromkeys(("", *self.call_qualifiers))
            for chosen in dict.fromkeys(tuple(o for o in c if o) for c in choices)
        ]

    def side_of(self, seats: int) -> list[int]:
        """For each seat, the number of its side (its own seat when there are no sides)."""
        out = list(range(seats))
        for i, side in enumerate(self.sides):
            for seat in side:
                if seat < seats:
                    out[seat] = seats + i
        return out
