"""What a player may do at his turn in trick play besides playing a card: declared
decisions (`decision NAME`: close the stock, exchange the turned-up card, claim, ...),
announcing a meld (`meld { announce: yes }`), and drawing from the stock after a trick."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.exprs import (
    HAND_KEY,
    QUALIFIER_KEY,
    SIDE_KEY,
    TABLE_KEY,
    TAKEN_KEY,
    TRICKS_KEY,
    TRUMP_KEY,
    TURNUP_KEY,
    Env,
)
from ...language.limits import in_range
from ...language.vocabulary import TURN_STATE
from ..actions import Action
from ..combinations import NO_COMBINATIONS, CombinationsWhenRead
from ..observation import Declaration
from ..trick_names import tricks_envs
from ..turn_reads import TurnReads
from .base import Asking

if TYPE_CHECKING:
    from ...language.model import Decision
    from ..deal import Deal
    from ..tables import GameTables


def stock_left(deal: Deal) -> int:
    """Cards in the stock, the turned-up card included."""
    return len(deal.stock) + (1 if deal.turnup >= 0 else 0)


# every name of a turn, for a caller that does not say what it reads
EVERY_NAME = TurnReads(
    frozenset(TURN_STATE) | {"taken_card", "sum_tricks", "sum_all", "turnup_rank"}
)


def turn_env(deal: Deal, seat: int, reads: TurnReads | None = None, table: bool = True) -> Env:
    """The names a decision reads for `seat` now (see the `decision` place): with `reads`
    (what the decisions asked use), only the names of the turn they read, the player's
    values they read, the won cards and finished tricks if they need them, and the other
    players' names only for the aggregates (`count_all`, `sum_side`, ...: over the players
    of the deal, or those of the player's side); without, every one of them."""
    every = reads is None
    if reads is None:
        reads = EVERY_NAME
    env: Env = {
        HAND_KEY: deal.hands[seat],
        TRUMP_KEY: deal.trump,
        QUALIFIER_KEY: deal.qualifier,  # bid_is, strain_is: the winning bid's
    }
    if reads.turnup:  # turnup_rank(R)
        env[TURNUP_KEY] = deal.turnup
    if reads.any_turn:
        if reads.tricks_won:
            env["tricks_won"] = deal.tricks_won[seat]
        if reads.tricks_played:
            env["tricks_played"] = len(deal.tricks)
        if reads.card_points:
            env["card_points"] = deal.card_points[seat]
        if reads.meld_points:  # of the melds he declared, those that count
            points = 0
            for d in deal.declarations:
                if d.seat == seat:
                    points = int(deal.result_env(seat)["meld_points"])
                    break
            env["meld_points"] = points
        if reads.stock_left:
            env["stock_left"] = stock_left(deal)
        if reads.stock_closed:
            env["stock_closed"] = deal.stock_closed
        if reads.declarer:
            env["declarer"] = seat == deal.declarer
        if reads.hand_size:
            env["hand_size"] = len(deal.hands[seat])
        if reads.rare_turn:
            if reads.out_left:
                env["out_left"] = deal.out_fresh
            if reads.contract:
                env["contract"] = deal.contract
            if reads.tricks_total:
                env["tricks_total"] = deal.tricks_total
            if reads.side:
                env["side"] = deal.side_number(seat)
            if reads.position:
                env["position"] = deal.active.index(seat) if seat in deal.active else -1
            if reads.dealer:
                env["dealer"] = seat == deal.dealer
            if reads.turnup_suit:
                env["turnup_suit"] = deal.turnup_suit()
    if reads.combinations:
        if deal.game.model.combinations:  # the hand's, worked out only when a rule reads them
            env = CombinationsWhenRead.over(env, deal, seat)
        else:
            env.update(NO_COMBINATIONS)
    context = deal.context[seat]
    if every:
        env.update(context)
    else:  # of the player's values, those read
        for name in reads.values:
            if name in context:
                env[name] = context[name]
    if reads.taken:
        env[TAKEN_KEY] = [c for t in deal.tricks if t.winner == seat for _, c in t.cards]
    if reads.tricks:  # the finished tricks (nothing of the sides: secret)
        game = deal.game
        env[TRICKS_KEY] = tricks_envs(
            deal.tricks,
            deal.tricks_total,
            deal.points_under,
            seat,
            combinations=game.trick_combination_points,
        )
    if table and reads.table:
        envs = [env if s == seat else turn_env(deal, s, reads, False) for s in deal.active]
        side_of = deal.side_of
        env[TABLE_KEY] = envs
        env[SIDE_KEY] = [e for s, e in zip(deal.active, envs) if side_of[s] == side_of[seat]]
    return env


def decisions_offered(
    game: GameTables, deal: Deal, seat: int, at: str, env: Env | None = None
) -> list[Action]:
    """The decisions `seat` may take now: at his turn to `at` ("lead" or "play"), or right
    after announcing a meld (at = "announced"). `env`: his names for them, when made."""
    asked, reads = game.decisions_at[at]
    if not asked:
        return []
    if env is None:
        env = turn_env(deal, seat, reads)
    decide = game.actions.decide
    return [decide[d.name] for d in asked if d.offer_if.fn(env)]


def forced_decisions(
    game: GameTables, deal: Deal, seat: int, at: str, env: Env | None = None
) -> list[Action]:
    """The decisions `seat` must take now, before anything else, at `at` ("lead", "play",
    "announced", "card"): those offered him whose `forced_if` holds (none when no decision
    there has one). `env`: his names of the round of offers, when there is one."""
    forced = game.forced_at[at]
    if not forced:
        return []
    if env is None:
        env = turn_env(deal, seat, game.decisions_at[at][1])
    decide = game.actions.decide
    return [
        decide[d.name]
        for d in forced
        if d.offer_if.fn(env) and d.forced_if is not None and d.forced_if(env)
    ]


def table_envs(deal: Deal, reads: TurnReads) -> list[Env]:
    """The names `reads` asks for of every player of the deal (in deal order), each with
    the aggregates' view of the table if they read one (shared by all of them)."""
    envs = [turn_env(deal, s, reads, table=False) for s in deal.active]
    if reads.table:
        _set_tables(deal, envs)
    return envs


def _set_tables(deal: Deal, envs: list[Env]) -> None:
    """Give every player's names (`envs`, in deal order) the aggregates' view: the players
    of the deal's names, and those of his side's."""
    active = deal.active
    side_of = deal.side_of
    sides: dict[int, list[Env]] = {}
    for s, env in zip(active, envs):
        sides.setdefault(side_of[s], []).append(env)
    for s, env in zip(active, envs):
        env[TABLE_KEY] = envs
        env[SIDE_KEY] = sides[side_of[s]]


def offers_round(
    game: GameTables, deal: Deal, played: int = -1, decided: bool = False
) -> tuple[tuple[Action, ...], ...]:
    """What each seat is offered in a round of `at: card` offers (by seat; nothing for a
    seat not in the deal): each player's names worked out once, and the aggregates' view of
    the table shared by all of them. With `played`, the round right after his card to the
    same trick, nothing else changed since the last round was worked out (no decision, no
    rule after a card, no meld: see `TrickPlay`): only his names are made again, and only
    his offers tested again unless an aggregate reads a name of his hand. The players'
    names are kept for the next round (`deal.window_envs`). With `decided`, the round
    again after a decision without an effect, nothing else changed since the round was
    worked out: of the players' names kept, their values are read again (only values
    change), and every player's offers are tested again."""
    reads = game.decisions_at["card"][1]
    active = deal.active
    envs = deal.window_envs
    before = deal.window_offers
    if decided and envs is not None:
        values = reads.values
        for s, env in zip(active, envs):
            context = deal.context[s]
            for name in values:
                if name in context:
                    env[name] = context[name]
        changed = active
    elif played < 0 or envs is None or before is None:
        envs = table_envs(deal, reads)
        changed = active
    else:
        i = active.index(played)
        old = envs[i]
        env = envs[i] = turn_env(deal, played, reads, table=False)
        changed = [played]
        if reads.table:  # his names in place of the old in the table and his side's list
            mates: list[Env] = old[SIDE_KEY]
            mates[[e is old for e in mates].index(True)] = env
            env[TABLE_KEY] = envs
            env[SIDE_KEY] = mates
            if reads.hand_aggregated:  # an aggregate reads a name of the hand he played from
                changed = active
    deal.window_envs = envs
    tests = game.card_offers
    offers: list[tuple[Action, ...]] = [()] * deal.seats
    if changed is not active and before is not None:
        offers = list(before)
    for s, env in zip(active, envs):
        if changed is active or s == played:
            offers[s] = tuple([action for action, test in tests if test(env)])
    return tuple(offers)


def take_decision(
    game: GameTables, deal: Deal, seat: int, action: Action, env: Env | None = None
) -> bool:
    """Carry out a decision: its rules set the player's deal values, then its effect. True
    when it has an effect (else it changed the players' values alone). `env`: the player's
    names now, of those the decision reads at least (a round of offers' own; else made)."""
    tricks = game.model.tricks
    assert tricks is not None
    decision: Decision = next(d for d in tricks.decisions if d.name == action.text)
    if env is None:
        env = turn_env(deal, seat, game.decision_reads[decision.reads, decision.aggregated])
    owners = deal.active if decision.public else [seat]  # public: everybody's values
    for step in decision.rules:
        if step.condition is None or step.condition(env):
            assigned = [(a.name, a.expr(env)) for a in step.assigns]
            for _, value in assigned:
                in_range(value, f"decision '{decision.name}' rule '{step.name}'", step.loc)
            for owner in owners:
                deal.context[owner].update(assigned)
            env.update(assigned)
    if decision.effect == "close_stock":
        deal.stock_closed = True
    elif decision.effect == "swap_turnup":
        deck = game.model.deck
        hand = deal.hands[seat]
        face = deal.trump * len(deck.ranks) + decision.swap_rank
        card = next((c for c in deck.cards_of_face[face] if c in hand), -1)
        hand.remove(card)
        hand.append(deal.turnup)
        deal.turnup = card
    elif decision.effect == "end_deal":
        deal.end_now()
    elif decision.effect == "redeal":  # thrown in: not scored, dealt anew
        deal.ask_queue = []
        deal.end_unplayed(by=seat)
    elif decision.effect == "skip":
        deal.skip_phase(decision.skip)
    elif decision.effect == "exchange_out":  # his cards to lay away are asked next
        deal.exchange_by = seat
        least = decision.exchange_least
        # no more than the cards left out that nobody has held (unless his fewest need more)
        deal.exchange_left = min(decision.exchange, max(least, deal.out_fresh))
        deal.exchange_least = least
    return bool(decision.effect)


# the end of a round of decisions between phases in the queue (`again`): (ROUND_ENDS,
# point), or (ROUND_AGAIN, point) once a decision with `again: yes` was taken in the round
ROUND_ENDS = -1
ROUND_AGAIN = -2


def ask_decisions(game: GameTables, deal: Deal, point: str) -> bool:
    """Ask the decisions of `point` ("before PHASE" or "end"): each decision in the order of
    the file, of every player in deal order (or of the declarer alone, `who: declarer`), if
    its `offer_if` holds when its turn comes (an earlier answer may change it); True when
    someone is asked."""
    deal.ask_queue = _round_of(game, deal, point)
    if not _ask_next(game, deal):
        return False
    deal.ask()
    return True


def _round_of(game: GameTables, deal: Deal, point: str) -> list[tuple[int, str]]:
    """The queue of a round of the decisions of `point`; where one of them has `again: yes`,
    ending in a mark of the round's end (asked again if such a decision is taken)."""
    tricks = game.model.tricks
    assert tricks is not None
    queue = [
        (seat, decision.name)
        for decision in tricks.decisions
        if point in decision.at
        for seat in asked_in_order(deal, decision)
    ]
    if any(d.again and point in d.at for d in tricks.decisions):
        queue.append((ROUND_ENDS, point))
    return queue


def asked_in_order(deal: Deal, decision: Decision) -> list[int]:
    """The players a decision between phases may be asked of, in order: every player of
    the deal, in deal order or from the declarer's left (`first_asked:
    left_of_declarer`); `who: declarer` and `who: defenders` pass over the others as
    their turn comes."""
    order = list(deal.active)
    declarer = deal.declarer
    if decision.first_asked == "left_of_declarer" and declarer in order:
        i = order.index(declarer) + 1
        order = order[i:] + order[:i]
    return order  # whom `who` names is judged as his turn comes (`_still_asked`)


def _still_asked(deal: Deal, decision: Decision, seat: int) -> bool:
    """Whether `who` names this player now: the declarer (a choice asked before at the same
    point may just have made him so), the defenders, or each player."""
    declarer = deal.declarer
    if decision.who == "declarer":
        return seat == declarer
    if decision.who == "defenders":
        return declarer >= 0 and deal.side_of[seat] != deal.side_of[declarer]
    return True


def _ask_next(game: GameTables, deal: Deal) -> bool:
    """Drop the queued decisions not offered now; ask the first one that is."""
    tricks = game.model.tricks
    assert tricks is not None
    by_name = {d.name: d for d in tricks.decisions}
    active = deal.active
    reads = game.ask_reads
    # with aggregates, every player's names that the decisions between phases read, made
    # once: nothing changes while the queue is looked through (else only the asked one's)
    envs: list[Env] | None = None
    while deal.ask_queue:
        seat, name = deal.ask_queue[0]
        if seat < 0:  # the round is over: again if a decision with `again` was taken
            deal.ask_queue = _round_of(game, deal, name) if seat == ROUND_AGAIN else []
            envs = None
            continue
        decision = by_name[name]
        if _still_asked(deal, decision, seat):
            if not reads.table:
                env = turn_env(deal, seat, reads)
            else:
                if envs is None:
                    envs = table_envs(deal, reads)
                env = envs[active.index(seat)]
            if decision.offer_if(env):
                deal.phase = "decide"
                deal.to_act = seat
                return True
        deal.ask_queue.pop(0)
    return False


class AskDecisions(Asking):
    """Decisions and choices asked between phases, as a phase of their own."""

    name = "decide"

    def start(self, deal: Deal) -> bool:
        """Not a phase of the flow: the deal enters it when it asks (see ask_decisions)."""
        return False

    def ask(self, deal: Deal, point: str) -> bool:
        """Ask the decisions of `point` (`ask_decisions`)."""
        return ask_decisions(self.game, deal, point)

    def legal(self, deal: Deal) -> list[Action]:
        """The answers to the decision asked now; during an exchange with the cards left
        out of the deal, each card of the exchanger's hand to lay away, and `keep` (no more)
        once he has laid away the fewest he must."""
        if deal.exchange_left:
            discard = self.game.actions.discard
            out = [discard[c] for c in sorted(deal.hands[deal.exchange_by])]
            if len(deal.exchanged) >= deal.exchange_least:
                out.append(self.game.actions.keep)
            return out
        return asked_actions(self.game, deal)

    def apply(self, deal: Deal, action: Action) -> None:
        """Answer it, or lay away a card of an exchange (or lay away no more)."""
        if not deal.exchange_left:
            answer_decision(self.game, deal, action)
        elif action.kind == "keep":
            end_exchange(self.game, deal)
        else:
            exchange_card(self.game, deal, action.card)


def exchange_card(game: GameTables, deal: Deal, card: int) -> None:
    """`effect: exchange_out N` (or `A to B`): a card laid away face down; after the last
    he may lay away, the exchange ends (`end_exchange`)."""
    deal.hands[deal.exchange_by].remove(card)
    deal.exchanged.append(card)
    deal.exchange_left -= 1
    if not deal.exchange_left:
        end_exchange(game, deal)


def end_exchange(game: GameTables, deal: Deal) -> None:
    """The exchanger has laid away his cards (all he may, or he says `keep`): he takes as
    many of the cards left out of the deal, the first, and his go under the rest of them;
    then the decisions go on."""
    seat = deal.exchange_by
    deal.exchange_left = 0
    n = len(deal.exchanged)
    deal.hands[seat].extend(deal.out[:n])
    deal.out = deal.out[n:] + deal.exchanged
    deal.out_fresh = max(0, deal.out_fresh - n)
    deal.exchanged = []
    if not _ask_next(game, deal):
        deal.next_phase()


def asked_actions(game: GameTables, deal: Deal) -> list[Action]:
    """The answers to the decision asked now: it or `keep`; for a choice, its options whose
    conditions hold."""
    seat, name = deal.ask_queue[0]
    decision = _by_name(game, name)
    reads = game.decision_reads[decision.reads, decision.aggregated]
    if not decision.options:
        forced = decision.forced_if
        if forced is not None and forced(turn_env(deal, seat, reads)):
            return [game.actions.decide[name]]  # he must
        return [game.actions.decide[name], game.actions.keep]
    env = turn_env(deal, seat, reads)
    return [
        game.actions.choose[option]
        for option, allowed in zip(decision.options, decision.option_ifs, strict=True)
        if allowed(env)
    ]


def _by_name(game: GameTables, name: str) -> Decision:
    tricks = game.model.tricks
    assert tricks is not None
    return next(d for d in tricks.decisions if d.name == name)


def answer_decision(game: GameTables, deal: Deal, action: Action) -> None:
    """The player asked takes the decision, keeps, or chooses an option; when nobody is
    left to ask, the flow goes on."""
    seat, name = deal.ask_queue.pop(0)
    if action.kind == "choose":
        decision = _by_name(game, name)
        if decision.own:  # the chooser's own value: true for him alone
            deal.context[seat][action.text] = True
        else:
            i = decision.options.index(action.text)
            deal.note_choice(action.text, decision.option_trumps[i])
        if decision.declares:  # he is the declarer now (public)
            deal.declare(seat)
    if action.kind == "decide":
        take_decision(game, deal, seat, action)
        if deal.is_over:
            return
        decision = _by_name(game, name)
        queue = deal.ask_queue
        if decision.again and queue and queue[-1] == (ROUND_ENDS, decision.at[0]):
            queue[-1] = (ROUND_AGAIN, decision.at[0])  # its round is asked again once over
        if deal.exchange_left:  # he lays away his cards first
            deal.to_act = seat
            return
    if not _ask_next(game, deal):
        deal.next_phase()


def announcements(game: GameTables, deal: Deal, seat: int) -> list[Action]:
    """`announce MELD SUIT` for every announced meld held in full whose declare_if holds."""
    held = game.held_as_first_copies(deal.hands[seat])
    out = []
    env: dict[str, Any] | None = None
    for mi, suit, cards in game.announced_melds:
        if held.issuperset(cards):
            if env is None:
                env = declare_env(deal, seat)
            if game.model.melds[mi].declare_if(env):
                out.append(game.actions.announce[(mi, suit)])
    return out


def declare_env(deal: Deal, seat: int) -> dict[str, Any]:
    """The names a meld's `declare_if` reads for the player on lead."""
    return {
        "tricks_won": deal.tricks_won[seat],
        "tricks_played": len(deal.tricks),
        "declarer": seat == deal.declarer,
        "first_lead": deal.leads[seat] == 0,
        "stock_left": stock_left(deal),
        "stock_closed": deal.stock_closed,
        HAND_KEY: deal.hands[seat],
        **deal.context[seat],
    }


def announce(game: GameTables, deal: Deal, seat: int, action: Action) -> None:
    """Declare the meld: it is recorded with its value now; its cards must be led next."""
    mi, suit = action.value, action.to
    meld = game.model.melds[mi]
    value = meld.value_in(suit, deal.trump)
    deal.declarations.append(Declaration(seat, meld.name, suit, value, len(deal.tricks)))
    if meld.sets_trump and suit >= 0:
        deal.trump = suit
    deal.announced = (mi, suit)


def draw_after_trick(deal: Deal, winner: int) -> None:
    """Each player draws one card, the trick's winner first, while the stock is open and
    holds cards; the turned-up card is drawn last."""
    if deal.stock_closed:
        return
    n = len(deal.active)
    i = deal.active.index(winner)
    for k in range(n):
        seat = deal.active[(i + k) % n]
        if deal.stock:
            deal.hands[seat].append(deal.stock.pop(0))
        elif deal.turnup >= 0:
            deal.hands[seat].append(deal.turnup)
            deal.turnup = -1
    deal.stock_drawn()
