"""Playing a match in the terminal: the person's view, prompts, and computer turns."""

from __future__ import annotations

from typing import Any, Protocol

from .actions import Action
from .errors import IllegalActionError
from .match import Match
from .observation import BoutObservation, Observation
from .saving import save_match

HUMAN = 0


class Player(Protocol):
    """Anything that chooses an action for the seat to act."""

    def choose(self, match: Match) -> Action:
        """The action to take now for the seat to act."""
        ...


def _cards(match: Match, texts: tuple[str, ...] | list[str]) -> str:
    game = match.game
    return " ".join(game.model.deck.card_glyph(game.card(t)) for t in texts) or "-"


def render(match: Match, console: Any) -> None:
    """Print what seat 0 may see now."""
    from rich.panel import Panel

    if match.game.model.bouts is not None:
        return render_bouts(match, console)
    obs = match.observation(HUMAN)
    assert isinstance(obs, Observation)
    lines = [
        "scores: "
        + "  ".join(
            f"seat {s}{' (you)' if s == HUMAN else ''}: {x}" for s, x in enumerate(obs.scores)
        ),
        f"deal {match.deals_dealt}, dealer seat {obs.dealer}, phase: {obs.phase}",
    ]
    if obs.bids:
        lines.append("bids: " + ", ".join(f"{s}: {t}" for s, t in obs.bids))
    if obs.declarer >= 0:
        q = f" {obs.qualifier}" if obs.qualifier else ""
        lines.append(f"declarer: seat {obs.declarer}, contract {obs.contract}{q}")
    if obs.talon_shown:
        lines.append(f"talon (shown): {_cards(match, obs.talon_shown)}")
    lines.append(f"trump: {obs.trump or 'none'}")
    if obs.declarations:
        lines.append(
            "declared: "
            + ", ".join(f"seat {s} {m} {suit} {v}" for s, m, suit, v in obs.declarations)
        )
    if obs.tricks:
        leader, cards, winner = obs.tricks[-1]
        lines.append(
            "last trick: "
            + ", ".join(f"{s}:{_cards(match, [c])}" for s, c in cards)
            + f" -> seat {winner}"
        )
    lines.append("table: " + (", ".join(f"{s}:{_cards(match, [c])}" for s, c in obs.trick) or "-"))
    lines.append("tricks won: " + ", ".join(f"{s}: {n}" for s, n in enumerate(obs.tricks_won)))
    if obs.received:
        lines.append(f"you received: {_cards(match, obs.received)}")
    lines.append(f"[bold]your hand: {_cards(match, obs.hand)}[/bold]")
    console.print(Panel("\n".join(lines), title=match.game.title, title_align="left"))


def render_bouts(match: Match, console: Any) -> None:
    """Print what seat 0 may see of a game of bouts."""
    from rich.panel import Panel

    obs = match.observation(HUMAN)
    assert isinstance(obs, BoutObservation)
    role = {obs.attacker: "attacker", obs.defender: "defender"}
    lines = [
        "standing: " + "  ".join(f"seat {s}: {match.standing(s)}" for s in range(match.seats)),
        f"deal {match.deals_dealt}, dealer seat {obs.dealer}; bout {obs.bouts + 1}",
        f"trump: {obs.trump} (card {_cards(match, [obs.trump_card]) if obs.trump_card else '-'}"
        + (", under the stock)" if obs.trump_card_in_stock else ")"),
        f"stock: {obs.stock_size} cards; discarded: {len(obs.discarded)}",
        "players: "
        + ", ".join(
            f"seat {s} {obs.hand_sizes[s]} cards{' (' + role[s] + ')' if s in role else ''}"
            for s in obs.active
        ),
        "table: "
        + (
            ", ".join(
                _cards(match, [a]) + (f" beaten by {_cards(match, [b])}" if b else "")
                for a, b in obs.table
            )
            or "-"
        )
        + (" (defender takes)" if obs.taking else ""),
        f"[bold]your hand: {_cards(match, obs.hand)}[/bold]",
    ]
    console.print(Panel("\n".join(lines), title=match.game.title, title_align="left"))


def _report_deal_end(match: Match, console: Any) -> None:
    if not match.deal_results:
        return
    r = match.deal_results[-1]
    if "loser" in r:
        who = "a draw" if r["draw"] else f"seat {r['loser']} loses"
        console.print(f"[yellow]deal over after {r['bouts']} bouts: {who}[/yellow]")
    elif r.get("redeal"):
        console.print(f"[yellow]deal thrown in (redeal by seat {r['by']})[/yellow]")
    else:
        console.print(
            f"[yellow]deal over: declarer seat {r['declarer']} contract {r['contract']}; "
            f"gains {r['gains']}; scores {r['scores']}[/yellow]"
        )


def play_in_terminal(
    match: Match, bots: dict[int, Player], console: Any, save_to: str | None = None
) -> int:
    """Run a whole match; seat 0 is typed at the prompt, other seats are `bots`."""
    from rich.prompt import Prompt

    console.print("Type an action as the legal list shows it, '?' for all of them, 'quit' to stop.")
    results_seen = 0
    try:
        while not match.is_over:
            if len(match.deal_results) > results_seen:
                results_seen = len(match.deal_results)
                _report_deal_end(match, console)
            seat = match.to_act
            if seat != HUMAN:
                action = bots[seat].choose(match)
                console.print(f"seat {seat}: {action}")
                match.apply(action)
                continue
            render(match, console)
            legal = [a.text for a in match.legal_actions()]
            console.print("legal: " + ", ".join(legal[:30]) + (" ..." if len(legal) > 30 else ""))
            text = Prompt.ask("your move", console=console).strip()
            if text in ("quit", "exit"):
                break
            if text == "?":
                console.print(", ".join(legal))
                continue
            try:
                match.apply(text)
            except IllegalActionError as exc:
                console.print(f"[red]{str(exc).splitlines()[0]}[/red]")
    except EOFError:
        console.print("\n(end of input)")
    _report_deal_end(match, console)
    if match.is_over:
        standing = [match.standing(s) for s in range(match.seats)]
        console.print(f"[bold]match over: standing {standing}, winners {match.winners}[/bold]")
    if save_to:
        save_match(match, save_to)
        console.print(f"saved to {save_to} (trickcore replay {save_to})")
    return 0
