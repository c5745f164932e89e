"""A readable rules summary generated from the compiled model (so it cannot disagree with play)."""

from __future__ import annotations

from .model import BoutRules, Packet, TrickRules, VariantModel


def describe_pattern(packets: tuple[Packet, ...]) -> str:
    """A deal pattern as text, repeated packets folded: '1 each 7 times, 3 talon'."""
    parts: list[str] = []
    i = 0
    while i < len(packets):
        j = i
        while j + 1 < len(packets) and packets[j + 1] == packets[i]:
            j += 1
        p = packets[i]
        text = f"rest {p.to}" if p.count < 0 else f"{p.count} {p.to}"
        parts.append(text + (f" {j - i + 1} times" if j > i else ""))
        i = j + 1
    return ", ".join(parts)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def rules_summary(model: VariantModel) -> list[tuple[str, list[str]]]:
    """The variant's rules as (section title, lines of plain English)."""
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
        "Card points: "
        + ", ".join(f"{r.symbol} {p}" for r, p in zip(deck.ranks, deck.points, strict=True))
        + f" ({deck.total_points} in the deck).",
        "Cards are written rank + suit symbol, e.g. "
        + ", ".join(deck.card_text(c) for c in (0, deck.size - 1))
        + ".",
    ]
    out.append(("Cards", cards))
    meld_lines = []
    for meld in model.melds:
        ranks = " + ".join(deck.ranks[r].symbol for r in meld.ranks)
        values = ", ".join(f"{s.name} {v}" for s, v in zip(deck.suits, meld.values, strict=True))
        meld_lines.append(f"{meld.name.capitalize()} ({ranks} of one suit): {values}.")
        meld_lines.append(
            f"  Declared by leading one of its cards ('marry CARD') when: {meld.declare_if.text}."
        )
        if meld.counts_if.text not in ("yes", "true"):
            meld_lines.append(f"  Its value counts only if: {meld.counts_if.text}.")
        if meld.sets_trump:
            meld_lines.append(
                "  Its suit becomes trump from that trick on; a later one changes it."
            )
    if meld_lines:
        out.append(("Melds", meld_lines))
    deal = model.deal
    pattern = describe_pattern(deal.pattern)
    deal_lines = [
        f"Dealt from the top, starting left of the dealer, in packets: {pattern}.",
        f"Each hand gets {deal.per_hand} cards"
        + (f"; the talon holds {deal.talon_size}." if model.tricks else "; the rest is the stock."),
    ]
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
        }[deal.next_dealer]
    )
    if model.redeal:
        deal_lines.append(
            f"Before bidding, from forehand, a player whose hand meets "
            f"'{model.redeal.allowed_if.text}' may demand a redeal"
            + (" by the same dealer." if model.redeal.same_dealer else ".")
        )
    else:
        deal_lines.append("There is never a redeal.")
    if model.tricks is not None:
        deal_lines.append("The deal runs through: " + ", ".join(model.tricks.flow) + ".")
    out.append(("Deal", deal_lines))
    if model.tricks is not None:
        out.extend(_trick_sections(model.tricks))
    if model.bouts is not None:
        out.append(("Bouts", _bout_lines(model, model.bouts)))
    m = model.match
    match_lines = []
    if m.target is not None:
        match_lines.append(f"The first to reach {m.target} wins.")
    ranked = f"the highest {m.rank_by.text}" if m.rank_by else "the highest score"
    match_lines.append(
        f"The match ends after {m.deal_limit} played deals at the latest (or after more than "
        f"{m.redeal_limit} redealt ones); {ranked} wins."
    )
    ties = {"declarer": "the declarer if he is among them", "highest": "the higher score"}
    if m.target is not None:
        match_lines.append(
            "If several reach the target in one deal: "
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
    match_lines.append("After each deal, for each player in turn:")
    for st in m.after_deal:
        assigns = ", ".join(f"{a.name} = {a.expr.text}" for a in st.assigns)
        cond = f"if {st.condition.text} then " if st.condition else ""
        match_lines.append(f"  [{st.name}] {cond}{assigns}")
    out.append(("Match", match_lines))
    return out


def _trick_sections(tricks: TrickRules) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    b = tricks.bidding
    opening = b.opening_expr.text if b.opening_expr is not None else str(b.opening)
    bid_lines = [
        f"Forehand opens with {'exactly' if b.opening_exact else 'at least'} {opening}"
        + (" and cannot pass his first call." if b.forced_opening else "."),
        f"Bids go up in steps of {b.step}; a bid may not exceed {b.cap.text}.",
        "A player who passes is out of the auction."
        if b.pass_drops_out
        else "Passing does not put a player out of the auction.",
        "The auction ends when one player is left in."
        if b.ends_after_passes is None
        else f"The auction ends after {b.ends_after_passes} passes in a row; "
        "the last bidder declares.",
    ]
    if b.qualifiers:
        bid_lines.append(
            "Any bid may carry a qualifier ("
            + ", ".join(b.qualifiers)
            + "); 'N q' beats 'N' and loses to the next step."
        )
    out.append(("Bidding", bid_lines))
    t = tricks.talon
    talon_lines = [
        "The talon is turned face up for all to see, then the declarer takes it."
        if t.show
        else "The declarer takes the talon without showing it."
    ]
    if t.give_each_defender:
        talon_lines.append(
            f"He then gives {t.give_each_defender} card(s) of his choice face down "
            "to each defender."
        )
    if t.split_if is not None and t.split_if.text not in ("no", "false"):
        talon_lines.append(
            f"If {t.split_if.text}: no exchange; one talon card to each player in turn, "
            "starting with the declarer."
        )
    c = tricks.contract
    if c.raise_allowed:
        talon_lines.append(
            f"He may then raise his contract in steps of {c.step}, up to {c.cap.text}; "
            "never lower it."
        )
    else:
        talon_lines.append("The contract cannot be changed after the talon.")
    out.append(("Talon", talon_lines))
    p = tricks.play
    play_lines = [
        ("The declarer" if p.first_leader == "declarer" else "Forehand")
        + " leads the first trick; the winner of each trick leads the next.",
        "There is no trump at the start of a deal.",
        f"Follow suit: {_yes(p.follow)}."
        + (
            " You must beat the highest card of the led suit if no trump is in the trick."
            if p.beat_in_suit
            else " Overtaking is never required."
        ),
        f"When void, play a trump if you hold one: {_yes(p.trump_when_void)}."
        + (" You must beat the highest trump in the trick if you can." if p.overtrump else ""),
        "A trick is won by its highest trump, else by the highest card of the led suit.",
    ]
    out.append(("Play", play_lines))
    s = tricks.scoring
    score_lines = [f"{name} = {expr.text}" for name, expr in s.definitions]
    score_lines.append(f"Declarer scores: {s.declarer.text}")
    score_lines.append(f"Each defender scores: {s.defender.text}")
    out.append(("Deal scoring", score_lines))
    return out


def _bout_lines(model: VariantModel, b: BoutRules) -> list[str]:
    deck = model.deck
    lines = [
        "The card turned up after the deal sets trump; it lies face up under the stock and "
        "is drawn last.",
        (
            "The player left of the dealer attacks first"
            if b.first_attacker == "left_of_dealer"
            else "The holder of the lowest trump attacks first (else the player left of the dealer)"
        )
        + "; the defender is the next player in.",
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
    return lines
