"""Playing a match in the terminal: the person's view, prompts, and computer turns."""

from __future__ import annotations

from typing import Any, Protocol

from .actions import Action
from .errors import IllegalActionError
from .match import Match
from .saving import save_match

HUMAN = 0


class Player(Protocol):
    """Anything that chooses an action for the seat to act."""

    def choose(self, match: Match) -> Action: ...


def _cards(match: Match, texts: tuple[str, ...] | list[str]) -> str:
    game = match.game
    return " ".join(game.model.deck.card_glyph(game.card(t)) for t in texts) or "-"


def render(match: Match, console: Any) -> None:
    """Print what seat 0 may see now."""
    from rich.panel import Panel

    obs = match.observation(HUMAN)
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


def _report_deal_end(match: Match, console: Any) -> None:
    if not match.deal_results:
        return
    r = match.deal_results[-1]
    if r.get("redeal"):
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

    console.print(
        "Type an action (e.g. 'bid 100', 'play 10H'), '?' for the legal ones, 'quit' to stop."
    )
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
        console.print(f"[bold]match over: scores {match.scores}, winners {match.winners}[/bold]")
    if save_to:
        save_match(match, save_to)
        console.print(f"saved to {save_to} (trickcore replay {save_to})")
    return 0
