"""Which decisions are asked by what a seat cannot see: a player passed over between phases
leaves no action behind, so renaming unseen cards may have him asked in a world where he was
not (`WorldSampler` replays such worlds from their deck orders)."""

from __future__ import annotations

from ...language.model import TrickRules, VariantModel

# what a decision may read that is the same in every world a seat's view allows: the deal's
# course, the contract, the tricks (face up), the stock's size, the turned-up card, the
# match; not a hand or a side
PUBLIC_READS = frozenset(
    {
        "tricks_played",
        "tricks_total",
        "tricks_won",
        "card_points",
        "meld_points",
        "stock_left",
        "stock_closed",
        "out_left",
        "dealer",
        "declarer",
        "contract",
        "position",
        "hand_size",
        "turnup_suit",
        "turnup_rank",
        "deal_number",
        "score",
        "target",
        "max_other_score",
        "players",
        "strain_is",
        "bid_is",
        "trump_is",
        "taken_suit",
        "taken_card",
        "sum_all",
        "max_all",
        "min_all",
        "count_all",
    }
)


def public_names(model: VariantModel, tricks: TrickRules) -> frozenset[str]:
    """The names every world of a seat's view gives the same value: those above, the options
    of the choices, the match's kept values (fixed during a deal), and each deal value that
    only decisions set, by rules that read public names alone (the largest such set: a
    counter a decision adds one to stays public)."""
    base = set(PUBLIC_READS) | {o for d in tricks.decisions for o in d.options}
    base |= {name for name, _, _ in model.match.keep}
    later = {a.name for step in (*tricks.after_trick, *tricks.after_card) for a in step.assigns}
    values = {name for name, _, _ in model.deal.keep} - later
    setters: dict[str, list[frozenset[str]]] = {}
    for d in tricks.decisions:
        for step in d.rules:
            for a in step.assigns:
                setters.setdefault(a.name, []).append(d.rule_reads)
    while True:
        public = base | values
        hidden = {v for v in values if any(not reads <= public for reads in setters.get(v, ()))}
        if not hidden:
            return frozenset(public)
        values -= hidden


def asked_by_hidden(model: VariantModel) -> bool:
    """Whether a decision or choice between phases is offered (or forced) by something a
    seat cannot see (a hand, a side, a value set from a hand)."""
    tricks = model.tricks
    if tricks is None:
        return False
    public = public_names(model, tricks)
    return any(
        not set(d.at) & {"lead", "play", "card"} and not d.offer_reads <= public
        for d in tricks.decisions
    )
