"""Trick play (T13-T17, S11-S13): leads, obligations, declaring melds, trick winners."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.exprs import (
    CARD_KEY,
    HAND_KEY,
    LEADING_KEY,
    LED_KEY,
    PLAYED_KEY,
    TRUMP_KEY,
)
from ..actions import Action
from ..records import TrickView
from . import refusals
from .base import Phase
from .meld_leads import MeldLeads
from .offers import OfferRound
from .trick_events import run_after_card, run_after_trick
from .trick_winner import TrickWinners
from .turns import (
    announce,
    announcements,
    decisions_offered,
    draw_after_trick,
    forced_decisions,
    stock_left,
    take_decision,
    turn_env,
)

if TYPE_CHECKING:
    from ..deal import Deal
    from ..tables import GameTables


class TrickPlay(Phase):
    """Tricks until the hands are empty. The first leader is the declarer or forehand; the
    winner of a trick leads next; the highest trump wins, else the highest card of the led
    suit. A meld is declared by leading one of its cards (`marry CARD`)."""

    name = "play"

    def __init__(self, game: GameTables) -> None:
        super().__init__(game)
        play = game.model.tricks.play if game.model.tricks else None
        # the cards of finished tricks are kept only for the rules that read them
        self.tracks_played = play is not None and (
            play.lead_if is not None or play.play_if is not None or play.free_if is not None
        )
        tricks = game.model.tricks
        self.has_decisions = tricks is not None and bool(tricks.decisions)
        # `at: card` decisions: before each card a round of offers to every player
        self.windows = bool(game.decisions_at["card"][0])
        self.offers = OfferRound(game, self.hand_to)
        self.winners = TrickWinners(game)  # who wins a trick (`play.beats`)
        self.has_announcements = bool(game.announced_melds)
        # actions other than cards at a turn: decisions and announcements
        self.turn_actions = self.has_decisions or self.has_announcements
        # decisions a `forced_if` may make a player take first: at his turn, before a card
        forced = game.forced_at
        self.forced_turns = bool(forced["lead"] or forced["play"] or forced["announced"])
        self.forced_card = bool(forced["card"])
        self.stop_if = play.stop_if if play is not None else None
        self.lead_if = play.lead_if if play is not None else None
        self.play_if = play.play_if if play is not None else None
        self.free_if = play.free_if if play is not None else None
        # `sets_suit_if`: the suit led is the first card's that sets it (-1: none yet)
        self.sets_suit = play is not None and play.sets_suit_if is not None
        self.play_actions = game.actions.play  # by card
        self.play_ids = [a.id for a in game.actions.play]  # their numbers, by card
        self.marry_ids = [a.id for a in game.actions.marry]
        self.meld_cards = frozenset(game.meld_of_card)  # the cards whose lead declares a meld
        self.meld_leads = MeldLeads(game)
        self.trumps_id = game.trump_suit_id
        self.points_of = game.points_of  # by card
        self.points_vary = game.points_vary  # card_points reads the trump, call or choices
        self.stock = any(p.to == "stock" for p in game.model.deal.pattern)
        self.sit_out_if = play.sit_out_if if play is not None else None
        self.partner_plays_if = play.partner_plays_if if play is not None else None
        self.partner_fixed = play is not None and play.partner_fixed
        self.talon_leads = play is not None and play.talon_leads
        # the names of the trick in progress the obligations and `play_if` read
        self.trick_reads = play.trick_reads if play is not None else frozenset()
        self.reads_card_wins = "card_wins" in self.trick_reads
        self.reads_led = play is not None and play.reads_led  # times_led, led_suit
        self.reads_trumps = play is not None and play.reads_trumps  # trumps_held, holds_trump
        self.side_if = play.side_if if play is not None else None
        self.after_trick = tricks.after_trick if tricks is not None else ()
        self.after_card = tricks.after_card if tricks is not None else ()
        # the cards after which some rule after a card can hold (None: any card), and
        # whether they all can hold for the player who played alone, and read the others
        after_card = self.after_card
        self.after_card_cards: frozenset[int] | None = None
        if all(r.cards is not None for r in after_card):
            self.after_card_cards = frozenset(c for r in after_card for c in r.cards or ())
        self.after_card_own = all(r.player_only for r in after_card)
        self.after_card_others = any(r.others_read for r in after_card)
        # `first_leader: holder CARD`: the cards (copies) whose holder leads
        deck = game.model.deck
        self.leader_cards = frozenset(
            deck.cards_of_face[play.leader_card]
            if play is not None and play.leader_card >= 0
            else ()
        )
        # the open rules read the aggregates: a player's names with the table's view
        self.open_table = play is not None and play.open_aggregates
        # follow, beat_in_suit, trump_when_void, overtrump as written; those written as rules
        # are worked out at each play (each rule once, with the places of the duties it sets)
        self.duties: tuple[bool, bool, bool, bool] = (False, False, False, False)
        self.duty_rules: list[tuple[Any, list[int]]] = []
        if play is not None:
            self.duties = (play.follow, play.beat_in_suit, play.trump_when_void, play.overtrump)
            places = ("follow", "beat_in_suit", "trump_when_void", "overtrump")
            by_text: dict[str, tuple[Any, list[int]]] = {}
            for name, rule in play.obligations:
                entry = by_text.setdefault(rule.text, (rule.fn, []))
                entry[1].append(places.index(name))
            self.duty_rules = list(by_text.values())
        # the suit led is the first card's and the duties are yes or no, reading nothing of
        # the trick: `_follows` takes its short way
        self.usual_follows = not (self.sets_suit or self.trick_reads or self.duty_rules)
        # a card played to a trick changes nothing but the hand it comes from (no decisions
        # or announcements at a turn, no partner playing for anyone; rules after a card that
        # changed no value this time): the next round of offers makes only that player's
        # names again
        at_turn = any(game.decisions_at[at][0] for at in ("lead", "play", "announced"))
        self.quiet_card = not (
            at_turn or self.has_announcements or self.partner_plays_if is not None
        )
        # `trump: first_lead`: the first card a player leads in the deal sets the trump suit
        self.trump_first_lead = play is not None and play.trump_from == "first_lead"
        # a plain card play (no turn actions, no partner playing for anyone, no early stop,
        # no stock) takes the short way through `apply`
        self.plain = not (
            self.turn_actions
            or self.partner_plays_if is not None
            or self.stop_if is not None
            or self.stock
            or self.talon_leads
            or self.after_trick
            or self.after_card
            or self.windows
            or self.trump_first_lead
        )

    def start(self, deal: Deal) -> bool:
        """The first leader leads (T13, S11): the declarer, forehand, or the holder of a
        card; a trump suit fixed by `play.trump` is in force from the first trick."""
        rules = deal.rules.play
        if self.sit_out_if is not None:
            rule = self.sit_out_if
            out = [s for s in deal.active if rule(deal.role_env(s))]
            deal.playing = [s for s in deal.active if s not in out]
        playing = deal.playing
        active = deal.active
        leader = active[0]  # forehand
        if rules.first_leader == "declarer" and deal.declarer >= 0:
            leader = deal.declarer
        elif rules.first_leader == "left_of_declarer" and deal.declarer >= 0:
            leader = active[(active.index(deal.declarer) + 1) % len(active)]
        elif rules.first_leader == "holder":  # `first_leader = holds(CARD)`, made quick
            held = self.leader_cards
            leader = next((s for s in active if not held.isdisjoint(deal.hands[s])), leader)
        elif rules.first_leader_rule is not None:  # the first player for whom it holds
            rule = rules.first_leader_rule
            leader = next((s for s in active if rule(deal.hand_role_env(s))), leader)
        # a leader who sits out leaves the lead to the next player who plays (E17)
        i = active.index(leader)
        first = next(
            active[(i + k) % len(active)]
            for k in range(len(active))
            if active[(i + k) % len(active)] in playing
        )
        # `trump: SUIT` and `trump: turnup` are in force from the deal on (Deal); a trump
        # taken from the contract comes with the auction, and `trump_if` is public
        if rules.trump_bid:
            deal.trump = self.game.strain_suit(deal.qualifier)
        if rules.trump_if is not None and not rules.trump_if(deal.trump_if_env()):
            deal.trump = -1
        deal.leader = first
        deal.next_player = next_player = [-1] * deal.seats  # who plays after whom
        for k, s in enumerate(playing):
            next_player[s] = playing[(k + 1) % len(playing)]
        scoring = deal.rules.scoring
        if (
            scoring.reads_top_trumps
            or scoring.reads_hand
            or self.game.model.combinations
            or self.side_if is not None
        ):
            deal.start_hands = {s: list(deal.hands[s]) for s in deal.active}
        if self.side_if is not None:  # the deal's sides, over the hands as play begins
            deal.form_sides()
        deal.tricks_total = len(deal.hands[first]) + stock_left(deal) // len(playing)
        deal.first_leader = first
        self.give_turn(deal, first)
        if self.talon_leads and deal.talon:  # the talon's first card leads the first trick
            self._talon_lead(deal)
        skip_if = deal.rules.play.skip_if  # the deal is not played: scored at once
        view = deal.open_view if self.open_table else deal.open_env
        if skip_if is not None and any(skip_if(view(s)) for s in deal.active):
            deal.ended_early = True
            deal.trick = []
            return False
        return True

    def _talon_lead(self, deal: Deal) -> None:
        """`play.talon_leads`: the talon's next card is turned up and counts as the card led
        (by nobody, seat -1); the first leader plays to it first, then the others in turn."""
        deal.trick = [(-1, deal.talon.pop(0))]
        deal.leader = -1
        self.give_turn(deal, deal.first_leader)

    def give_turn(self, deal: Deal, seat: int, offers: bool = True, played: int = -1) -> None:
        """It is `seat`'s turn to lead or play: he acts, or his partner for him when
        `play.partner_plays_if` holds; first, with `at: card` decisions, a round of offers
        (unless `offers` is False: the caller opens it later; `played`: see
        `OfferRound.open`)."""
        deal.turn = seat
        if self.partner_plays_if is None:
            deal.to_act = seat
        else:
            self.hand_to(deal, seat)
        if offers and self.windows:
            self.offers.open(deal, seat, played)

    def hand_to(self, deal: Deal, seat: int) -> None:
        """The player to act for `seat`'s hand: he, or his partner for him while
        `play.partner_plays_if` holds."""
        rule = self.partner_plays_if
        if rule is None:
            deal.to_act = seat
        elif self.partner_fixed:  # the same for the whole of play: worked out once
            deal.to_act = (deal.partner_for or _fixed_partners(deal, rule))[seat]
        elif rule(deal.open_view(seat) if self.open_table else deal.open_env(seat)):
            deal.to_act = deal.partner_of(seat)
        else:
            deal.to_act = seat

    # ------------------------------------------------------------ legal cards
    def legal(self, deal: Deal) -> list[Action]:
        """Leads (as `lead_if` allows, with meld declarations), or the cards the follow,
        beat, trump and overtrump obligations allow."""
        if deal.window_seat >= 0:  # the round of offers before the card
            assert deal.window_offers is not None
            seat = deal.window_seat
            offers = deal.window_offers[seat]
            if offers and self.forced_card:  # no pass when he must decide
                envs = deal.window_envs
                env = None if envs is None else envs[deal.active.index(seat)]
                forced = forced_decisions(self.game, deal, seat, "card", env)
                if forced:
                    return forced
            return [*offers, self.game.actions.pass_]
        seat = deal.turn
        hand = deal.hands[seat]
        play = self.play_actions
        trick = deal.trick
        if self.turn_actions:
            return self._legal_with_turn_actions(deal, seat, hand)
        if not trick:
            return self._leads(deal, hand)
        return [play[c] for c in self._follows(deal, hand, trick)]

    def legal_ids(self, deal: Deal) -> list[int]:
        """`legal` as numbers, made from the cards (no Action objects)."""
        if self.turn_actions or deal.window_seat >= 0:
            return [a.id for a in self.legal(deal)]
        hand = deal.hands[deal.turn]
        trick = deal.trick
        number = self.play_ids
        if trick:
            return [number[c] for c in self._follows(deal, hand, trick)]
        leads = self._lead_cards(deal, hand)
        out = [number[c] for c in leads]
        if self.meld_cards:
            marry = self.marry_ids
            out.extend([marry[c] for c in self.meld_leads.of(deal, leads)])
        return out

    def _leads(self, deal: Deal, hand: list[int]) -> list[Action]:
        """The cards `lead_if` allows to lead (all when it allows none), and the leads that
        declare a meld."""
        leads = self._lead_cards(deal, hand)
        play = self.play_actions
        out = [play[c] for c in leads]
        if self.meld_cards:
            marry = self.game.actions.marry
            out.extend([marry[c] for c in self.meld_leads.of(deal, leads)])
        return out

    def _lead_cards(self, deal: Deal, hand: list[int]) -> list[int]:
        """The cards `lead_if` allows to lead (all when it allows none), in order."""
        leads = sorted(hand)
        if self.lead_if is not None:
            allowed = self._allowed(deal, leads, self.lead_if, None) or leads
            return self._with_free(deal, hand, allowed) if self.free_if is not None else allowed
        return leads

    def _legal_with_turn_actions(self, deal: Deal, seat: int, hand: list[int]) -> list[Action]:
        """`legal` with decisions and announced melds: the cards of a meld just announced,
        or the decisions and announcements beside the cards."""
        game = self.game
        play = self.play_actions
        env = None  # his names for the decisions at this turn, made once for both uses
        if self.forced_turns:
            at = "announced" if deal.announced is not None else "play" if deal.trick else "lead"
            env = turn_env(deal, seat, game.decisions_at[at][1])
            must = forced_decisions(game, deal, seat, at, env)
            if must:  # a decision he must take before anything else
                return must
        if self.has_announcements and deal.announced is not None:  # lead one of its cards
            mi, suit = deal.announced
            meld = game.model.melds[mi]
            deck = game.model.deck
            meld_cards = set(meld.cards) or {deck.card_of(suit, r) for r in meld.ranks}
            first = game.first_copy  # (with copies: any copy of one of its cards)
            out = [play[c] for c in sorted(hand) if first[c] in meld_cards]
            if self.has_decisions:
                out = decisions_offered(game, deal, seat, "announced", env) + out
            return out
        trick = deal.trick
        if not trick:
            out = self._leads(deal, hand)
            if self.has_announcements:
                out = announcements(game, deal, seat) + out
            if self.has_decisions:
                out = decisions_offered(game, deal, seat, "lead", env) + out
            return out
        out = [play[c] for c in self._follows(deal, hand, trick)]
        if self.has_decisions:
            out = decisions_offered(game, deal, seat, "play", env) + out
        return out

    def _follows(self, deal: Deal, hand: list[int], trick: list[tuple[int, int]]) -> list[int]:
        """The cards the follow, beat, trump and overtrump obligations (and `play_if`) allow
        to a trick that has been led, in order."""
        rel = deal.rel
        eff, power = rel if rel is not None and deal.rel_trump == deal.trump else deal.relations()
        trumps_id = self.trumps_id
        state = None
        if self.usual_follows:  # the first card's suit led, duties written as yes or no
            led = eff[trick[0][1]]
            same = [c for c in hand if eff[c] == led]
            follow, beat, trump_void, overtrump = self.duties
        else:
            led = deal.led_suit(trick) if self.sets_suit else eff[trick[0][1]]
            same = [c for c in hand if eff[c] == led] if led >= 0 else []
            # the trick's names, worked out once for the obligations and play_if reading them
            state = self._trick_state(deal, deal.turn) if self.trick_reads else None
            follow, beat, trump_void, overtrump = (
                self._obligations(deal, state) if self.duty_rules else self.duties
            )
            if led < 0:  # no card has set the suit yet: no duty binds
                follow = trump_void = False
        cards: list[int] = hand
        if same and follow:
            cards = same
            if beat:
                trumped = led != trumps_id and any(eff[c] == trumps_id for _, c in trick)
                if not trumped:
                    best = max(power[c] for _, c in trick if eff[c] == led)
                    beaters = [c for c in same if power[c] > best]
                    if beaters:
                        cards = beaters
        elif not same and trump_void:
            trumps = [c for c in hand if eff[c] == trumps_id]
            if trumps:
                cards = trumps
                if overtrump:
                    in_trick = [power[c] for _, c in trick if eff[c] == trumps_id]
                    if in_trick:
                        best = max(in_trick)
                        over = [c for c in trumps if power[c] > best]
                        if over:
                            cards = over
        if self.play_if is not None:
            allowed = self._allowed(deal, sorted(cards), self.play_if, bool(same), state)
            cards = allowed or cards
        if self.free_if is not None:
            return self._with_free(deal, hand, cards)
        return sorted(cards)

    def _with_free(self, deal: Deal, hand: list[int], cards: list[int]) -> list[int]:
        """`cards` and the cards of the hand `play.free_if` frees, in order."""
        assert self.free_if is not None
        chosen = set(cards)
        rest = sorted(c for c in hand if c not in chosen)
        if not rest:
            return sorted(cards)
        return sorted([*cards, *self._allowed(deal, rest, self.free_if, None)])

    def why_not(self, deal: Deal, action: Action) -> str | None:
        """Which obligation or rule refuses a card that is not legal now, in words, with the
        setting of `play` that sets it (`Phase.why_not`; see `refusals`)."""
        return refusals.why_not(self, deal, action)

    def _obligations(
        self, deal: Deal, state: tuple[dict[str, Any], Any] | None
    ) -> tuple[bool, bool, bool, bool]:
        """follow, beat_in_suit, trump_when_void, overtrump now (some written as rules;
        `state`: the trick's names, when they read them)."""
        seat = deal.turn
        context = deal.context[seat]
        env: dict[str, Any] = {
            "stock_left": stock_left(deal),
            "stock_closed": deal.stock_closed,
            "tricks_played": len(deal.tricks),
            "declarer": seat == deal.declarer,
        }
        for name in deal.rules.play.obligation_reads:
            env[name] = context[name]
        if state is not None:
            env.update(state[0])
        now = list(self.duties)
        for fn, places in self.duty_rules:  # the same rule written for several duties: once
            value = bool(fn(env))
            for i in places:
                now[i] = value
        return now[0], now[1], now[2], now[3]

    def _allowed(
        self,
        deal: Deal,
        cards: list[int],
        rule: Any,
        can_follow: bool | None,
        state: tuple[dict[str, Any], Any] | None = None,
    ) -> list[int]:
        """The cards `play.lead_if` (can_follow None) or `play.play_if` allows this seat to
        play now (the caller keeps them all when it allows none; `state`: the trick's
        names, when play_if reads them)."""
        seat = deal.turn
        trump = deal.trump
        eff = deal.relations()[0]
        trumps_id = self.trumps_id
        hand = deal.hands[seat]
        env: dict[str, Any] = {
            "first_lead": deal.leads[seat] == 0,
            "tricks_played": len(deal.tricks),
            "tricks_won": deal.tricks_won[seat],
            "declarer": seat == deal.declarer,
            "trump_set": trump >= 0,
            "trump_broken": trumps_id in {eff[c] for c in deal.played},
            "hand_size": len(hand),
            "can_follow": can_follow,
            HAND_KEY: hand,
            PLAYED_KEY: deal.played,
            **deal.context[seat],
        }
        if self.reads_trumps:
            env["trumps_held"] = sum(1 for c in hand if eff[c] == trumps_id)
            env[TRUMP_KEY] = trump
        if self.reads_led:  # the suit led to each finished trick, and to this one
            if self.sets_suit:
                env[LED_KEY] = [deal.led_suit(t.cards) for t in deal.tricks]
                env[LEADING_KEY] = deal.led_suit(deal.trick) if deal.trick else -1
            else:
                env[LED_KEY] = [eff[t.cards[0][1]] for t in deal.tricks]
                env[LEADING_KEY] = eff[deal.trick[0][1]] if deal.trick else -1
        best = None
        if state is not None:
            env.update(state[0])
            best = state[1] if self.reads_card_wins else None
        allowed = []
        fn = rule.fn
        for c in cards:
            env[CARD_KEY] = c
            env["card_is_trump"] = eff[c] == trumps_id
            if best is not None:
                env["card_wins"] = self.winners.beats(deal, best, c)
            if fn(env):
                allowed.append(c)
        return allowed

    def _winning(self, deal: Deal) -> tuple[int, int, bool]:
        """The trick in progress as it stands: the seat whose card wins it so far, that card
        and whether it is a trump; (-1, -1, False) for a talon card no player has beaten."""
        if deal.trick[0][0] < 0:  # a talon card led (R31): only the players' cards compete
            seat = self.winners.talon_trick(deal)
            card = next((c for s, c in deal.trick if s == seat), -1) if seat >= 0 else -1
            eff = deal.relations()[0]
            return seat, card, card >= 0 and eff[card] == self.trumps_id
        seat = self.winners.trick(deal)
        card = next(c for s, c in deal.trick if s == seat)
        return seat, card, deal.relations()[0][card] == self.trumps_id

    def _trick_state(
        self, deal: Deal, seat: int
    ) -> tuple[dict[str, Any], tuple[int, int, bool] | None]:
        """The names of the trick in progress as `seat` is to play to it (`cards_in_trick`,
        `led_trump`, `trick_trumped`, `partner_winning`), and the card winning it so far
        when `partner_winning` or `card_wins` is read (see `_winning`)."""
        eff = deal.relations()[0]
        trumps_id = self.trumps_id
        trick = deal.trick
        state: dict[str, Any] = {
            "cards_in_trick": len(trick),
            "led_trump": (deal.led_suit(trick) if self.sets_suit else eff[trick[0][1]])
            == trumps_id,
            "trick_trumped": any(eff[c] == trumps_id for _, c in trick),
        }
        winning = None
        if self.reads_card_wins or "partner_winning" in self.trick_reads:
            winning = self._winning(deal)
            winner = winning[0]
            state["partner_winning"] = winner >= 0 and deal.partners(seat, winner)
        return state, winning

    # ------------------------------------------------------------ playing
    def apply(self, deal: Deal, action: Action) -> None:
        """Play a card; a full trick goes to its winner, who leads next. (The steps of a
        plain card play, see `plain`, here; anything more in `_apply_full`.)"""
        if not self.plain:
            self._apply_full(deal, action)
            return
        seat = deal.turn
        card = action.card
        deal.hands[seat].remove(card)
        trick = deal.trick
        if not trick:
            deal.leads[seat] += 1
            if action.kind == "marry":
                self.meld_leads.declare(deal, seat, card)
        trick.append((seat, card))
        deal.cards_played += 1
        if len(trick) < len(deal.playing):
            deal.turn = deal.to_act = deal.next_player[seat]
            return
        winner = self.winners.trick(deal)
        pts = deal.points_now() if self.points_vary else self.points_of
        won = 0
        for _, c in trick:
            won += pts[c]
        deal.card_points[winner] += won
        deal.tricks_won[winner] += 1
        if self.tracks_played:
            deal.played.extend([c for _, c in trick])
        tricks = deal.tricks
        tricks.append(TrickView(deal.leader, tuple(trick), winner, deal.trump))
        deal.trick = []
        deal.leader = deal.turn = deal.to_act = winner
        if len(tricks) == deal.tricks_total or not deal.hands[winner]:
            deal.next_phase()

    def _apply_full(self, deal: Deal, action: Action) -> None:
        """`apply` with everything a play may bring: decisions, announcements, a partner
        playing, a talon card led, stop_if, the stock."""
        game = self.game
        seat = deal.turn
        if deal.window_seat >= 0:
            self.offers.answer(deal, action)
            return
        if self.turn_actions:
            kind = action.kind
            if kind == "decide":
                take_decision(game, deal, seat, action)
                return
            if kind == "announce":
                announce(game, deal, seat, action)
                return
            deal.announced = None
        card = action.card
        deal.hands[seat].remove(card)
        trick = deal.trick
        if not trick:
            deal.leads[seat] += 1
            if self.trump_first_lead and deal.trump < 0 and not deal.tricks:
                deal.trump = game.suit_of[card]  # its suit is trump from this card on
            if action.kind == "marry":
                self.meld_leads.declare(deal, seat, card)
        trick.append((seat, card))
        deal.cards_played += 1
        changed = False
        if self.after_card and (self.after_card_cards is None or card in self.after_card_cards):
            changed = run_after_card(
                self.game,
                deal,
                self.after_card,
                seat,
                card,
                self.after_card_own,
                self.after_card_others,
            )
        playing = deal.playing
        from_talon = trick[0][0] < 0  # led by a talon card (`talon_leads`)
        if len(trick) < len(playing) + from_talon:
            nxt = deal.next_player[seat]
            if self.partner_plays_if is None and not self.windows:
                deal.turn = deal.to_act = nxt
            elif self.quiet_card and not changed and action.kind == "play":  # his hand alone
                self.give_turn(deal, nxt, played=seat)
            else:
                self.give_turn(deal, nxt)
            return
        winner = self.winners.talon_trick(deal) if from_talon else self.winners.trick(deal)
        if winner >= 0:  # a trick led by a talon card nobody followed belongs to nobody
            pts = deal.points_now() if self.points_vary else self.points_of
            won = 0
            for _, c in trick:
                won += pts[c]
            deal.card_points[winner] += won
            deal.tricks_won[winner] += 1
        if self.tracks_played:
            deal.played.extend(c for _, c in trick)
        deal.tricks.append(TrickView(deal.leader, tuple(trick), winner, deal.trump))
        deal.trick = []
        if self.after_trick:
            run_after_trick(self.game, deal, self.after_trick, self.side_if is not None)
        if from_talon:  # the next talon card leads, or the first leader after the talon's
            if deal.talon:
                self._talon_lead(deal)
                return
            winner = deal.first_leader
        deal.leader = winner
        self.give_turn(deal, winner, offers=False)  # the offers after the draw, if any
        stop_if = self.stop_if
        if stop_if is not None:
            view = deal.open_view if self.open_table else deal.open_env
            if any(stop_if(view(s)) for s in deal.active):
                deal.ended_early = True
                deal.next_phase()
                return
        if self.stock and (deal.stock or deal.turnup >= 0):
            if deal.rules.play.draw:
                draw_after_trick(deal, winner)
            if not any(deal.hands[s] for s in playing):
                deal.next_phase()
                return
        elif len(deal.tricks) == deal.tricks_total or not deal.hands[winner]:
            deal.next_phase()
            return
        if self.windows:
            self.offers.open(deal, winner)


def _fixed_partners(deal: Deal, rule: Any) -> tuple[int, ...]:
    """Who acts for each seat's hand under a `partner_plays_if` that reads only what trick
    play does not change (`PlayRules.partner_fixed`): worked out once, kept in the deal."""
    deal.partner_for = tuple(
        deal.partner_of(s) if s in deal.active and rule(deal.open_env(s)) else s
        for s in range(deal.seats)
    )
    return deal.partner_for
