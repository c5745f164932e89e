"""A readable rules summary generated from the compiled model (so it cannot disagree with play)."""

from __future__ import annotations

import re

from ..language.defines import fold_defines
from ..language.exprs import CompiledExpr
from ..language.model import (
    NO_TRUMP,
    Bidding,
    BoutRules,
    Decision,
    Deck,
    Packet,
    StepRule,
    TrickRules,
    VariantModel,
)


def describe_pattern(packets: tuple[Packet, ...]) -> str:
    """A deal pattern as text, repeated packets folded: '1 each 7 times, 3 talon'."""
    parts: list[str] = []
    i = 0
    while i < len(packets):
        j = i
        while j + 1 < len(packets) and packets[j + 1] == packets[i]:
            j += 1
        p = packets[i]
        if p.to == "round":
            text = " ".join(map(str, p.counts)) + " round"
        else:
            text = f"rest {p.to}" if p.count < 0 else f"{p.count} {p.to}"
            if p.holder:
                text += f" to {p.holder}"
        if p.sized:
            text += " size times"
        parts.append(text + (f" {j - i + 1} times" if j > i else ""))
        i = j + 1
    return ", ".join(parts)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def cards(n: int) -> str:
    """'1 card', '2 cards'."""
    return f"{n} card" if n == 1 else f"{n} cards"


_TOKEN = re.compile(r"\s*(\d+|[A-Za-z_][A-Za-z_0-9]*|[-+])")


def plain(text: str) -> str:
    """An expression in words, for people: a sum of numbers and names the rules language
    defines (`120 + melds_in_hand`: "120 plus the value of the melds held in full in the
    hand"); any other expression as written, followed by the meaning of each such name it
    reads ("where ...")."""
    from ..language.vocabulary import QUANTITIES

    tokens: list[str] = []
    at = 0
    while at < len(text):
        found = _TOKEN.match(text, at)
        if found is None or not found.group(1):
            tokens = []
            break
        tokens.append(found.group(1))
        at = found.end()
        if at < len(text) and not text[at:].strip():
            break
    words = {"+": "plus", "-": "minus"}
    simple = bool(tokens) and len(tokens) % 2 == 1
    out: list[str] = []
    for i, token in enumerate(tokens):
        if i % 2 == 1:
            simple = simple and token in words
            out.append(words.get(token, token))
        elif token.isdigit():
            out.append(token)
        elif token in QUANTITIES:
            out.append(QUANTITIES[token].meaning)
        else:
            simple = False
    if simple and len(tokens) > 1:
        return " ".join(out)
    if simple and len(tokens) == 1 and tokens[0] in QUANTITIES:
        return f"{tokens[0]} ({QUANTITIES[tokens[0]].meaning})"
    names = [
        n for n in dict.fromkeys(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text)) if n in QUANTITIES
    ]
    if not names:
        return text
    return f"{text} (where " + "; ".join(f"{n} is {QUANTITIES[n].meaning}" for n in names) + ")"


def _thrown_in_otherwise(model: VariantModel) -> bool:
    """Whether a deal may be thrown in without a `redeal` block: nobody bids
    (`all_pass: redeal`), or a decision's `effect: redeal`."""
    tricks = model.tricks
    if tricks is None:
        return False
    bidding = tricks.bidding
    return (bidding is not None and bidding.all_pass == "redeal") or any(
        d.effect == "redeal" for d in tricks.decisions
    )


def ranked_by(text: str | None) -> str:
    """What a match ranks the players by, as words: "the highest score", "the lowest
    score" (for `rank_by = -score`), or the highest value of another expression."""
    if text is None:
        return "the highest score"
    text = " ".join(text.split())
    if text.startswith("-") and re.fullmatch(r"-\s*[A-Za-z_][A-Za-z_0-9]*", text):
        return f"the lowest {text[1:].strip()}"
    if re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", text):
        return f"the highest {text}"
    return f"the highest value of ({text})"


def rules_summary(model: VariantModel) -> list[tuple[str, list[str]]]:
    """The variant's rules as (section title, lines of plain English); the file's defines
    are listed first and shown by name wherever they are used."""
    sections = _sections(model)
    if not model.defines:
        return sections
    defines = [f"{name} = {text}" for name, text, _ in model.defines]
    return [("Defines", defines)] + [
        (title, [fold_defines(line, model.defines) for line in lines]) for title, lines in sections
    ]


def _sections(model: VariantModel) -> list[tuple[str, list[str]]]:
    deck = model.deck
    out: list[tuple[str, list[str]]] = []
    players = " or ".join(str(p) for p in model.players)
    cards = [
        f"{players} players; {deck.size} cards.",
        "Suits: " + ", ".join(f"{s.name} ({s.symbol} {s.glyph})" for s in deck.suits) + ".",
        "Ranks, high to low: "
        + ", ".join(
            r.symbol if r.name == r.symbol else f"{r.symbol} ({r.name})" for r in deck.ranks
        )
        + ".",
        _points_line(model),
        "Cards are written rank + suit symbol, e.g. "
        + ", ".join(deck.card_text(c) for c in (0, deck.size - 1))
        + ".",
    ]
    if deck.copies > 1:
        equal = (
            "an equal card does not beat it"
            if model.bouts is not None
            else "of two equal cards in a trick the first played ranks higher"
        )
        melds = "; a meld is held with any copy of its cards" if model.melds else ""
        cards.append(
            f"Every card is in the deck {deck.copies} times; its copies are the same card to "
            f"the players (one text, one action{melds}), and {equal}."
        )
    if deck.without:
        cards.append(
            "Left out of the deck: " + ", ".join(deck.face_text(f) for f in deck.without) + "."
        )
    if model.sides:
        cards.append(
            "Sides (partners): " + "; ".join(" and ".join(map(str, s)) for s in model.sides) + "."
        )
    out.append(("Cards", cards))
    meld_lines = []
    for meld in model.melds:
        if meld.cards:
            which = " + ".join(deck.card_text(c) for c in meld.cards)
            meld_lines.append(f"{meld.name.capitalize()} ({which}): {meld.values[0]}.")
        else:
            ranks = " + ".join(deck.ranks[r].symbol for r in meld.ranks)
            if len(set(meld.values)) == 1:
                values = f"{meld.values[0]} in every suit"
            else:
                values = ", ".join(
                    f"{s.name} {v}" for s, v in zip(deck.suits, meld.values, strict=True)
                )
            if meld.trump_value is not None:
                values += f"; {meld.trump_value} in trumps"
            meld_lines.append(f"{meld.name.capitalize()} ({ranks} of one suit): {values}.")
        how = (
            "Announced at the turn to lead ('announce NAME SUIT'), then one of its cards is "
            "led, when"
            if meld.announce
            else "Declared by leading one of its cards ('marry CARD') when"
        )
        meld_lines.append(f"  {how}: {meld.declare_if.text}.")
        if meld.counts_if.text not in ("yes", "true"):
            meld_lines.append(f"  Its value counts only if: {meld.counts_if.text}.")
        if meld.sets_trump:
            meld_lines.append(
                "  Its suit becomes trump from that trick on; a later one changes it."
            )
    if meld_lines:
        out.append(("Melds", meld_lines))
    combination_lines = []
    for combo in model.combinations:
        order = ", ".join(deck.ranks[r].symbol for r in combo.order)
        if combo.kind == "run":
            what = (
                f"{combo.size} or more cards of one suit in a row in the order {order} (each "
                "longest run is one)"
            )
        elif combo.kind == "same_rank":
            what = f"{combo.size} or more cards of one rank (ranks in the order {order})"
        else:
            what = "the cards " + " or ".join(
                ", ".join(deck.face_text(f) for f in faces) for faces in combo.sets
            )
        combination_lines.append(f"{combo.name.capitalize()}: {what}; value {combo.value.text}.")
        if combo.strength is not None:
            combination_lines.append(f"  Compared by strength: {combo.strength.text}.")
    if combination_lines:
        combination_lines.append(
            "A hand's combinations are read as combination_points, best_combination and "
            "nth_combination(k), and their cards as card_in_combination; those among a "
            "finished trick's cards as trick_combination_points (a combination worth 0 is "
            "none)."
        )
        if not deck.plain:
            combination_lines.append(
                "A combination is of cards as the players see them: the copies of a card are "
                "one card in it, and times is how often it is held whole (the fewest copies "
                "held of any of its cards)."
            )
        out.append(("Combinations", combination_lines))
    deal = model.deal
    pattern = describe_pattern(deal.pattern)
    deal_lines = [
        f"Dealt from the top, starting left of the dealer, in packets: {pattern}.",
        (
            f"Each hand gets 'size' cards, size = {deal.size.text}"
            if deal.size is not None
            else f"Each hand gets {deal.per_hand} cards"
        )
        + (
            (f"; the talon holds {deal.talon_size}." if deal.talon_size else ".")
            if model.tricks
            else "; the rest is the stock."
        ),
    ]
    if deal.turnup_held:
        deal_lines.append(
            "The turned-up card is the dealer's own: dealt into his hand face up, known to all"
            " for the whole deal, and played like any card of his hand."
        )
    elif any(p.to == "turnup" for p in deal.pattern):
        deal_lines.append(
            "The turned-up card lies face up under the stock and is drawn last."
            if any(p.to == "stock" for p in deal.pattern)
            else "The turned-up card lies face up for all to see (none when no card is left)."
        )
    if deal.stock_top_shown:
        deal_lines.append(
            "The stock's top card lies face up for all to see: after each draw the card then on "
            "top is turned face up (none while the stock is closed)."
        )
    if any(p.to == "out" for p in deal.pattern):
        deal_lines.append("The rest of the deck takes no part in the deal and is seen by nobody.")
    if deal.keep:
        deal_lines.append(
            "Kept for each player during a deal (set by the rules that name them): "
            + ", ".join(f"{n} (starts {str(v).lower()})" for n, _, v in deal.keep)
            + "."
        )
    if deal.hands:
        deal_lines.append(f"{deal.hands} players take part in a deal.")
    if deal.sits_out == "dealer":
        deal_lines.append("When more are seated, the dealer sits out.")
    deal_lines.append(
        {
            "left": "The dealer moves one seat left after every deal.",
            "same": "The same dealer deals again.",
            "loser": "The loser of a deal deals the next one "
            "(after a draw, the dealer moves one seat left).",
            "rule": "After a deal, the first player from the dealer's left (the dealer last) "
            f"for whom {model.match.next_dealer.text if model.match.next_dealer else '?'} "
            "deals next; if none, the dealer's left.",
        }[deal.next_dealer]
    )
    if model.redeal:
        if model.redeal.allowed_if is not None:
            deal_lines.append(
                f"Before bidding, from forehand, a player whose hand meets "
                f"'{model.redeal.allowed_if.text}' may demand a redeal"
                + (" by the same dealer." if model.redeal.same_dealer else ".")
            )
        elif model.redeal.same_dealer:
            deal_lines.append("A deal that is thrown in is dealt again by the same dealer.")
        if model.redeal.forced_if is not None:
            deal_lines.append(
                f"A hand that meets '{model.redeal.forced_if.text}' voids the deal at once."
            )
    elif not _thrown_in_otherwise(model):
        deal_lines.append("There is never a redeal.")
    if model.tricks is not None:
        deal_lines.append("The deal runs through: " + ", ".join(model.tricks.flow) + ".")
    out.append(("Deal", deal_lines))
    if model.tricks is not None:
        out.extend(_trick_sections(model, model.tricks))
    if model.bouts is not None:
        out.append(("Bouts", _bout_lines(model, model.bouts)))
    m = model.match
    match_lines = []
    if m.target is not None:
        match_lines.append(f"The first to reach {m.target} wins.")
    if m.end_if is not None:
        match_lines.append(
            f"The match ends after a deal at whose end, for some player, {m.end_if.text}; "
            "then every player is ranked."
        )
    ranked = ranked_by(m.rank_by.text if m.rank_by else None)
    match_lines.append(
        f"The match ends after {m.deal_limit} played deals at the latest (or after more than "
        f"{m.redeal_limit} redealt ones); {ranked} wins."
    )
    ties = {
        "declarer": "the declarer if he is among them",
        "highest": "the higher standing",
        "play_on": "if still tied, another deal is played",
    }
    if m.target is not None or m.end_if is not None:
        match_lines.append(
            "If several could win: "
            + ", then ".join(ties[x] for x in m.tie_break)
            + "; equal scores share the win."
        )
    else:
        match_lines.append("Equal standings share the win.")
    if m.keep:
        match_lines.append(
            "Kept for each player across deals: "
            + ", ".join(
                f"{n} (starts {str(v).lower() if isinstance(v, bool) else v})" for n, _, v in m.keep
            )
            + "."
        )
    if m.carry:
        match_lines.append(
            "A match made after another (new_match(after=...)) starts "
            + ", ".join(m.carry)
            + " where the other left them."
        )
    match_lines.append("After each deal, for each player in turn:")
    for st in m.after_deal:
        assigns = ", ".join(f"{a.name} = {a.expr.text}" for a in st.assigns)
        cond = f"if {st.condition.text} then " if st.condition else ""
        match_lines.append(f"  [{st.name}] {cond}{assigns}")
    out.append(("Match", match_lines))
    return out


def _points_line(model: VariantModel) -> str:
    deck = model.deck
    tables = model.point_tables()
    if not any(any(points) for _, _, _, points in tables):
        return "No card points."
    if deck.by_card is None:
        listed = ", ".join(f"{r.symbol} {p}" for r, p in zip(deck.ranks, deck.points, strict=True))
    else:
        scoring = [(deck.card_text(c), p) for c, p in enumerate(deck.by_card) if p]
        listed = ", ".join(f"{t} {p}" for t, p in scoring) + ", every other card 0"
    if not deck.points_vary:
        return f"Card points: {listed} ({deck.total_points} in the deck)."
    # points that depend on the trump, the call or the choices: the cards that change with
    # each trump suit, then each other table once, in the plainest case that gives it
    lines = [f"Card points without a trump: {listed} ({deck.total_points} in the deck)."]
    default = deck.card_points
    shown = {default}
    by_suit = {trump: points for trump, call, chosen, points in tables if not call and not chosen}
    if any(points != default for points in by_suit.values()):
        for suit, su in enumerate(deck.suits):
            lines.append(f"With {su.name} trump: {_changed(deck, by_suit[suit], default)}.")
            shown.add(by_suit[suit])
    cases = sorted(tables, key=lambda t: bool(t[1]) + len(t[2]) + (t[0] >= 0))
    bidding = model.tricks.bidding if model.tricks else None
    strain_suit = dict(zip(bidding.strains, bidding.strain_suits)) if bidding else {}
    of = {(trump, call, chosen): points for trump, call, chosen, points in tables}
    for trump, call, chosen, points in cases:
        named = strain_suit.get(call.split(" ")[0], trump)
        if points in shown or (call and named != trump):  # a strain names its own trump
            continue
        # a case whose changes are those of its parts together (a trump, a call, an option
        # each alone) says nothing more
        parts = [of[(trump, "", ())], of[(-1, call, ())], *(of[(-1, "", (o,))] for o in chosen)]
        if len(chosen) + bool(call) + (trump >= 0) > 1 and _together(default, parts) == points:
            continue
        shown.add(points)
        when = [f"the call {call}"] if call else []
        when += [f"{o} chosen" for o in chosen]
        when += [f"{deck.suits[trump].name} trump"] if trump >= 0 else []
        lines.append(f"With {' and '.join(when)}: {_changed(deck, points, default)}.")
    return " ".join(lines)


def _lay_away_rule(text: str) -> str:
    """The line saying which cards may be laid away."""
    return (
        f"A card may be laid away only if: {text} (when that allows none of his cards, any may be)."
    )


def _lay_away_lines(allowed: CompiledExpr | None, shown: CompiledExpr | None) -> list[str]:
    """The lines saying which cards may be laid away and which are shown to all."""
    out = [_lay_away_rule(allowed.text)] if allowed is not None else []
    if shown is not None:
        out.append(f"A card laid away is shown to all as it is laid away if: {shown.text}.")
    return out


def _together(default: tuple[int, ...], parts: list[tuple[int, ...]]) -> tuple[int, ...]:
    """`default` with every card a part changes changed as it says (the later part last)."""
    out = list(default)
    for part in parts:
        for c, p in enumerate(part):
            if p != default[c]:
                out[c] = p
    return tuple(out)


def _changed(deck: Deck, points: tuple[int, ...], default: tuple[int, ...]) -> str:
    """The cards whose points differ from `default`, and the deck's total."""
    changed = [f"{deck.card_text(c)} {p}" for c, p in enumerate(points) if p != default[c]]
    return f"{', '.join(changed) or 'the same'} ({sum(points)} in the deck)"


def _trick_sections(model: VariantModel, tricks: TrickRules) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    if tricks.pass_cards is not None:
        pc = tricks.pass_cards
        who = "Each player" if pc.passes_if is None else f"Each player for whom {pc.passes_if.text}"
        each = ", for each player he passes to," if pc.each else ""
        lines = [
            f"{who} chooses{each} {cards(pc.count)} of his hand, one at a time, in turn "
            "from the dealer's left.",
        ]
        if pc.pass_if is not None:
            lines.append(
                f"He may pass only a card for which {pc.pass_if.text} (any card when none of "
                "his is such a card)."
            )
        if pc.to is not None:
            lines.append(
                "Once all are chosen, each player's cards go to the player N seats on "
                f"(N = {pc.to.text}; 0: no passing in that deal)."
            )
        elif pc.each:
            among = "" if pc.receives_if is None else f" for whom {pc.receives_if.text}"
            lines.append(
                f"Once all are chosen, each player's cards go {cards(pc.count)} to each other "
                f"player{among}: the first to the player after him, the next to the one "
                "after, and so on."
            )
        else:
            assert pc.receives_if is not None
            lines.append(
                "Once all are chosen, each player's cards go to the first player after him "
                f"for whom {pc.receives_if.text} as the passing began (a player with nobody "
                "to pass to passes nothing)."
            )
        if pc.back:
            lines.append(
                "Then each player who received cards chooses as many of his hand, in turn "
                "from the dealer's left, and they go back to the player his came from."
            )
        out.append(("Passing", lines))
    b = tricks.bidding
    if b is not None and b.style == "pairs":
        out.append(("Bidding", _pair_bidding_lines(b)))
    elif b is not None and b.strains:
        out.append(("Bidding", _strain_bidding_lines(b)))
    elif b is not None:
        opening = b.opening_expr.text if b.opening_expr is not None else str(b.opening)
        bid_lines = [
            f"Forehand opens with {'exactly' if b.opening_exact else 'at least'} {opening}"
            + (" and cannot pass his first call." if b.forced_opening else "."),
            f"Bids go up in steps of {b.step}; a bid may not exceed {plain(b.cap.text)}.",
            "A player who passes is out of the auction."
            if b.pass_drops_out
            else "Passing does not put a player out of the auction.",
            "The auction ends when one player is left in."
            if b.ends_after_passes is None
            else "The first bid ends the auction; its bidder declares."
            if b.first_bid_ends
            else f"The auction ends after {b.ends_after_passes} passes in a row; "
            "the last bidder declares.",
        ]
        if b.values:
            bid_lines[1] = (
                f"Bids are the values {_values(b.values)}; "
                f"a bid may not exceed {plain(b.cap.text)}."
            )
        bid_lines += _call_rule_lines(b)
        bid_lines.append(_all_pass_line(b.all_pass))
        if b.qualifiers:
            bid_lines.append(
                "Any bid may carry a qualifier ("
                + ", ".join(b.qualifiers)
                + "); 'N q' beats 'N' and loses to the next step."
            )
        out.append(("Bidding", bid_lines))
    if tricks.bids is not None:
        bd = tricks.bids
        bids_lines = [
            f"Each player bids once, from the dealer's left: a number of tricks from {bd.min} "
            f"to {bd.max.text} ('bid N').",
        ]
        if bd.bid_if is not None:
            bids_lines.append(f"A bid N (level) is allowed only if: {bd.bid_if.text}.")
        if bd.blind_if is not None:
            bids_lines.append(
                f"A player for whom {bd.blind_if.text} first chooses, without seeing his hand, "
                f"a blind bid ({', '.join(map(str, bd.blind))}: 'bid N blind') or 'look'."
            )
        out.append(("Bids", bids_lines))
    if "talon" in tricks.flow:
        out.append(("Talon", _talon_lines(tricks)))
    if tricks.pickup is not None:
        pk = tricks.pickup
        out.append(
            (
                "Pickup",
                [
                    f"The {pk.who} takes the turned-up card into his hand"
                    + (f" if {pk.take_if.text}" if pk.take_if is not None else "")
                    + " (not if he sits out the play)"
                    + (f", then lays away {cards(pk.lay_away)} face down." if pk.lay_away else ".")
                ]
                + _lay_away_lines(pk.lay_away_if, pk.lay_away_shown_if),
            )
        )
    if tricks.draw_up is not None:
        out.append(
            (
                "Drawing up",
                [
                    "From the dealer's left round the table, each player takes the top cards "
                    f"of the stock (the turned-up card last) until he holds {tricks.draw_up.to}."
                ],
            )
        )
    decision_lines = _decision_lines(model, tricks)
    if decision_lines:
        out.append(("Decisions", decision_lines))
    p = tricks.play
    leader = {
        "declarer": "The declarer",
        "forehand": "Forehand",
        "left_of_declarer": "The player after the declarer",
        "holder": f"The holder of {model.deck.face_text(max(p.leader_card, 0))}",
        "rule": "The first player in deal order for whom "
        f"{p.first_leader_rule.text if p.first_leader_rule else '?'} holds (else forehand)",
    }[p.first_leader]
    play_lines = [
        leader + " leads the first trick; the winner of each trick leads the next.",
        f"The trump suit of each deal (a suit's name is its number): {p.trump_rule.text}."
        if p.trump_rule is not None
        else "The turned-up card's suit is trump for the whole deal."
        if p.trump_from == "turnup"
        else "The suit of the stock's top card, as the cards are dealt, is trump for the "
        "whole deal."
        if p.trump_from == "stock_top"
        else "The suit of the first card a player leads in a deal is trump from that card on."
        if p.trump_from == "first_lead"
        else "The contract's strain is trump (none for a strain without trump)."
        if p.trump_bid
        else "There is no trump at the start of a deal."
        if p.trump < 0
        else f"{model.deck.suits[p.trump].name.capitalize()} are trumps for the whole deal.",
    ]
    duty = {name: f"when {rule.text} (else no)" for name, rule in p.obligations}
    for name, flag in (
        ("follow", p.follow),
        ("beat_in_suit", p.beat_in_suit),
        ("trump_when_void", p.trump_when_void),
        ("overtrump", p.overtrump),
    ):
        duty.setdefault(name, _yes(flag))
    play_lines.append(
        f"Follow suit: {duty['follow']}. Beat the highest card of the led suit if no trump is "
        f"in the trick: {duty['beat_in_suit']}."
    )
    play_lines.append(
        f"When void, play a trump if you hold one: {duty['trump_when_void']}. Beat the "
        f"highest trump in the trick if you can: {duty['overtrump']}."
    )
    if p.draw:
        play_lines.append(
            "After each trick, while the stock is open, everyone draws a card, the winner first."
        )
    for rule, saying in (
        (p.trump_power, "Trumps, and how they rank (0: not a trump)"),
        (p.power, "How the other cards rank in their suits"),
        (
            p.open_hand_if,
            "A card of a player's hand lies face up while"
            if p.open_cards
            else "A player's hand lies face up while",
        ),
        (p.stop_if, "Play stops after a trick when, for a player"),
        (p.trump_if, "The deal has a trump only if"),
        (p.beats, "A card takes the trick from the card winning it so far only if"),
        (p.sit_out_if, "A player sits out the trick play (tricks hold one card fewer) if"),
        (
            p.side_if,
            "As play begins the players for whom this holds form one side against the "
            "others (nobody is told who is on which)",
        ),
        (p.partner_plays_if, "A player's partner plays his cards for him while"),
        (p.skip_if, "No trick is played (the deal is scored at once) if, for a player"),
        (p.lead_if, "A card may be led only if"),
        (p.play_if, "A card may be played to another's lead only if"),
        (
            p.free_if,
            "A card may always be led or played, whatever the duties and the rules above say, if",
        ),
    ):
        if rule is not None:
            play_lines.append(f"{saying}: {rule.text}.")
    if p.lead_if is not None or p.play_if is not None:
        play_lines.append("When such a rule allows no card, every card it judged is allowed.")
    if p.talon_leads:
        play_lines.append(
            "A talon still there as play begins leads the first tricks, a card each, face up; "
            "such a trick goes to the highest trump, else the highest card of the talon "
            "card's suit played, else to nobody."
        )
    if p.sets_suit_if is not None:
        play_lines.append(
            "The suit led is that of the trick's first card for which this holds (a card "
            "before it sets none, binds no duty and is beaten by any card of that suit): "
            f"{p.sets_suit_if.text}."
        )
    play_lines.append(
        "A trick is won by its highest trump, else by the highest card of the led suit."
    )
    if tricks.after_card:
        play_lines.append(
            "After each card played, for every player (each rule worked out for all first):"
        )
        play_lines.extend(_step_lines(tricks.after_card))
    if tricks.after_trick:
        play_lines.append(
            "After each trick, for every player (each rule worked out for all first):"
        )
        play_lines.extend(_step_lines(tricks.after_trick))
    if tricks.after_trick and p.side_if is not None:
        play_lines.append("  Then the sides are formed again.")
    out.append(("Play", play_lines))
    s = tricks.scoring
    score_lines = [f"{name} = {expr.text}" for name, expr in s.definitions]
    if b is None:
        score_lines.append(f"Each player scores: {s.declarer.text}")
    else:
        score_lines.append(f"Declarer scores: {s.declarer.text}")
        score_lines.append(f"Each defender scores: {s.defender.text}")
    if s.progress:
        score_lines.append(
            "Computer players and the arena judge a deal by 'progress' (higher is better), "
            "not by the deal score."
        )
    out.append(("Deal scoring", score_lines))
    return out


def _values(values: tuple[int, ...]) -> str:
    shown = ", ".join(map(str, values[:12]))
    return shown + (f", ... {values[-1]} ({len(values)} in all)" if len(values) > 12 else "")


def _all_pass_line(all_pass: str) -> str:
    return {
        "redeal": "If nobody bids, the deal is thrown in and dealt again.",
        "played": "If nobody bids, the deal counts as played and is scored with no declarer.",
        "play_on": "If nobody bids, the deal is played on with no declarer.",
    }[all_pass]


def _call_rule_lines(b: Bidding) -> list[str]:
    """What `bid_if`, `pass_if` and `hold_if` allow, in words."""
    lines = []
    if b.bid_if is not None:
        lines.append(f"A bid is allowed only if: {b.bid_if.text}.")
    if b.pass_if is not None:
        lines.append(f"A player may pass only if: {b.pass_if.text}.")
    if b.hold_if is not None:
        lines.append(
            "A player other than the last bidder may also bid the last bid again (the same "
            "level, strain and qualifier, within his cap) and so take it over, unless it was "
            f"taken over already, if: {b.hold_if.text}."
        )
    return lines


def _strain_bidding_lines(b: Bidding) -> list[str]:
    first = "The dealer" if b.first_caller == "dealer" else "Forehand"
    levels = "" if b.levelless else f"a level ({_values(b.values)}) and "
    lines = [
        f"{first} calls first, then each in turn: pass, or a bid that names {levels}a strain "
        f"({', '.join(b.strains)}, low to high)"
        + (f" with or without {', '.join(b.qualifiers)}" if b.qualifiers else "")
        + ("" if b.levelless else "; a bid must rank above the last (level first, then strain)")
        + ".",
    ]
    if b.double:
        lines.append(
            "A player may double an opponent's bid, and redouble an opponent's double, when "
            "it is the last call other than a pass; a new bid cancels them."
        )
    lines += _call_rule_lines(b)
    if b.first_bid_ends:
        lines.append(
            "The first bid ends the auction; its bidder declares"
            + (f" (at most {b.rounds} rounds of calls)." if b.rounds else ".")
        )
    elif b.ends_after_passes is None:
        lines.append("A player who passes is out; the auction ends when one player is left in.")
    else:
        lines.append(
            f"After a bid, {b.ends_after_passes} passes in a row end the auction"
            + ("; a player who passes is out." if b.pass_drops_out else ".")
        )
    if b.declarer_rule == "first_to_name":
        lines.append(
            "The declarer is the player of the last bidder's side who first named its strain."
        )
    lines.append(_all_pass_line(b.all_pass))
    return lines


def _pair_bidding_lines(b: Bidding) -> list[str]:
    if b.join:
        return [
            "First each player in deal order says join or pass; only those who joined bid. "
            "With one, he declares at the lowest value; with more, the first of them holds "
            f"{b.values[0]} and each later one bids to the survivor, who holds or passes.",
            f"Bids are the values {_values(b.values)}, each above every value named; a bid "
            f"may not exceed {plain(b.cap.text)}.",
            _all_pass_line(b.all_pass),
        ]
    return [
        "The second player bids to the first, who holds (the same value) or passes; whoever "
        "passes is out, and the next player bids to the survivor.",
        f"Bids are the values {_values(b.values)}, each above every value named; a bid may "
        f"not exceed {b.cap.text}.",
        "The last survivor declares at the highest value named; if none was named he may bid "
        f"{b.values[0]} or pass.",
        _all_pass_line(b.all_pass),
    ]


def _decision_lines(model: VariantModel, tricks: TrickRules) -> list[str]:
    lines = []
    for d in tricks.decisions:
        when = ", ".join(
            {
                "lead": "at his turn to lead",
                "play": "at his turn to follow",
                "card": "before every card, in a round of offers from the player to play",
                "end": "after play",
            }.get(a, a)
            for a in d.at
        )
        who = {
            "declarer": "the declarer",
            "defenders": "each defender in turn",
        }.get(d.who, "each player in turn" if d.at[0].startswith(("before", "end")) else "a player")
        if d.who != "declarer" and d.first_asked == "left_of_declarer":
            who += " from the declarer's left"
        if d.options:
            asked = "" if d.offer_if.text in ("yes", "true") else f" (asked if {d.offer_if.text})"
            lines.append(f"[{d.name}] {when}, {who} chooses one of: {', '.join(d.options)}{asked}.")
            if d.own:
                lines.append("  Each option is the chooser's own value (count_all counts them).")
            if d.declares:
                lines.append("  The player who chooses becomes the declarer.")
            for option, rule, trump in zip(d.options, d.option_ifs, d.option_trumps, strict=True):
                notes = []
                if rule.text not in ("yes", "true"):
                    notes.append(f"only if {rule.text}")
                if trump >= 0:
                    notes.append(f"{model.deck.suits[trump].name} are trumps")
                elif trump == NO_TRUMP:
                    notes.append("no suit is trumps")
                if notes:
                    lines.append(f"  {option}: {'; '.join(notes)}.")
            continue
        condition = "" if d.offer_if.text in ("yes", "true") else f" if {d.offer_if.text}"
        lines.append(f"[{d.name}] {when}, {who} may say '{d.name}'{condition}.")
        if d.forced_if is not None:
            must = "" if d.forced_if.text in ("yes", "true") else f" when {d.forced_if.text}"
            instead = (
                "before any card or other action"
                if set(d.at) & {"lead", "play", "card"}
                else "(no 'keep')"
            )
            lines.append(f"  He must say it {instead}{must}.")
        if "card" in d.at and d is next(x for x in tricks.decisions if "card" in x.at):
            lines.append(
                "  (The round goes on after a decision; a player offered nothing is passed "
                "over; when every player in a row has passed, the card is played.)"
            )
        for st in d.rules:
            assigns = ", ".join(f"{a.name} = {a.expr.text}" for a in st.assigns)
            cond = f"if {st.condition.text} then " if st.condition else ""
            lines.append(f"  then {cond}{assigns}")
        effect = {
            "close_stock": "the stock is closed: nobody draws any more",
            "swap_turnup": "his trump of that rank changes places with the turned-up card",
            "end_deal": "the deal ends and is scored",
            "redeal": "the deal is thrown in unscored and dealt anew",
            "skip": f"the phase '{d.skip}' is skipped",
            "exchange_out": f"he lays away {_exchanged(d)} of his choice face down and "
            "takes as many of the cards left out of the deal, those nobody has held first",
        }.get(d.effect)
        if effect:
            lines.append(f"  Effect: {effect}.")
        if d.again:
            lines.append(
                f"  Once it is said, the decisions {when} are all asked again when their round "
                "is over."
            )
        if d.after_announce:
            lines.append("  Also offered right after he announced a meld.")
    return lines


def _exchanged(d: Decision) -> str:
    """How many cards an exchange lays away: "3 cards", "1 to 5 cards (then 'keep' stops)"."""
    if d.exchange_least == d.exchange:
        return cards(d.exchange)
    stop = (
        "he may say 'keep' at once"
        if d.exchange_least == 0
        else f"after {d.exchange_least}, 'keep' stops"
    )
    return (
        f"{d.exchange_least} to {d.exchange} cards ({stop}; beyond {d.exchange_least}, never "
        "more than the cards nobody has held)"
    )


def _talon_lines(tricks: TrickRules) -> list[str]:
    t = tricks.talon
    talon_lines = [
        "The talon is turned face up for all to see, then the declarer takes it."
        if t.show
        else "The declarer takes the talon without showing it."
    ]
    if t.give_each_defender:
        talon_lines.append(
            f"He then gives {cards(t.give_each_defender)} of his choice face down to each defender."
        )
    if t.lay_away:
        talon_lines.append(f"He then lays away {cards(t.lay_away)} face down.")
    talon_lines.extend(_lay_away_lines(t.lay_away_if, t.lay_away_shown_if))
    if t.counts_for_if is not None:
        talon_lines.append(
            "Laid-away cards, and a talon left untaken, count for the first player for whom: "
            f"{t.counts_for_if.text}."
        )
    if t.split_if is not None and t.split_if.text not in ("no", "false"):
        talon_lines.append(
            f"If {t.split_if.text}: no exchange; one talon card to each player in turn, "
            "starting with the declarer."
        )
    c = tricks.contract
    if c is not None and c.raise_allowed and c.raise_if is not None:
        talon_lines.append(
            "He then names his contract: the one he won ('keep contract') or a higher one of "
            f"the ladder up to {plain(c.cap.text)}, if {c.raise_if.text}."
        )
    elif c is not None and c.raise_allowed:
        talon_lines.append(
            f"He may then raise his contract in steps of {c.step}, up to {plain(c.cap.text)}; "
            "never lower it."
        )
    else:
        talon_lines.append("The contract cannot be changed after the talon.")
    return talon_lines


def _first_attacker_line(b: BoutRules) -> str:
    """D4 in words: who attacks first."""
    rule = b.first_attacker
    if rule is None:
        return "The player left of the dealer attacks first"
    if rule.text == "lowest_trump":
        return "The holder of the lowest trump attacks first (else the player left of the dealer)"
    return (
        "The first player from the dealer's left for whom "
        f"{rule.text} holds attacks first (none: the player left of the dealer)"
    )


def _bout_lines(model: VariantModel, b: BoutRules) -> list[str]:
    deck = model.deck
    lines = [
        "The card turned up after the deal sets trump; it lies face up under the stock and "
        "is drawn last.",
        _first_attacker_line(b) + "; the defender is the next player in.",
        "An attack is one card" + (" or several of one rank." if b.attack_same_rank else "."),
        {
            "all": "Every other player in may throw in",
            "attacker": "Only the attacker may throw in",
            "neighbours": "The attacker and the defender's left neighbour may throw in",
        }[b.throw_in_by]
        + " cards of ranks already on the table, "
        + (
            "right after the attack, after every beat that brings a new rank and after a take"
            if b.throw_in == "any_time"
            else "once every attack card is beaten, and after a take"
        )
        + "; offered from the attacker round the table, a player who throws keeps his turn"
        + (", skipping anyone with nothing to add." if b.skip_unable else "."),
        f"Attack cards in a bout at most: {b.limit.text}.",
        "The defender beats each attack card with a higher card of its suit or a trump "
        "(a higher trump on a trump), or takes all"
        + ("; after 'take' the others may still throw in." if b.throw_after_take else "."),
        f"After a bout everyone draws up to {b.refill_to} cards, "
        + (
            "the attacker first, then round the table."
            if b.refill_order == "attacker_first"
            else "the attacker first, the defender last."
        ),
        "Next attacker after a won defence: "
        + ("the defender" if b.after_defence == "defender" else "the player after the defender")
        + "; after a take: "
        + (
            "the player after the defender."
            if b.after_take == "after_defender"
            else "the defender."
        ),
    ]
    if b.swap_rank is not None:
        lines.append(
            f"The holder of the {deck.ranks[b.swap_rank].symbol} of trumps may swap it for the "
            "turned-up card while that lies under the stock."
        )
    if b.transfer:
        lines.append(
            "Before beating anything, the defender may pass the attack on by adding a card of "
            "the same rank; the next player defends."
        )
    lines.append(
        "A player with no cards when the stock is gone is out; the last one holding cards "
        "loses, and players running out together draw."
    )
    lines.append(f"A deal still going after {b.max_bouts} bouts ends as a draw.")
    if b.beats is not None:
        lines.append(f"A card beats an attack card only if: {b.beats.text}.")
    return lines


def _step_lines(steps: tuple[StepRule, ...]) -> list[str]:
    """One indented line per rule: `name: [if COND then] x = e, ...`."""
    lines = []
    for st in steps:
        assigns = ", ".join(f"{a.name} = {a.expr.text}" for a in st.assigns)
        cond = f"if {st.condition.text} then " if st.condition else ""
        lines.append(f"  {st.name}: {cond}{assigns}")
    return lines
