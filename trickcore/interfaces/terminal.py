"""Output for people and for pipes, and playing a match in the terminal.

User text (names, cards and messages from rules files, paths) is never read as rich markup:
everything is printed as `rich.text.Text` through a console with markup off, and when stdout
is not a terminal it is printed as plain lines, never wrapped or cut.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.bouts import BoutDeal
from ..engine.deal import Deal
from ..engine.match import Match, save_match
from ..engine.observation import BoutObservation, Observation
from ..engine.saving import check_save_path
from ..language.errors import IllegalActionError, TrickcoreError
from ..players.protocol import Bot, turn_of

HUMAN = 0

Line = str | tuple[str, str]  # a line of text, or (text, rich style)


class Output:
    """Where the command line prints: rich for a terminal, plain lines for a pipe."""

    def __init__(self, tty: bool | None = None) -> None:
        from rich.console import Console

        self.tty = sys.stdout.isatty() if tty is None else tty
        self.console = Console(highlight=False, markup=False, emoji=False, soft_wrap=not self.tty)

    def print(self, text: str, style: str | None = None) -> None:
        """One line (or several) of text, never read as markup."""
        if not self.tty:
            print(text, flush=True)
            return
        from rich.text import Text

        self.console.print(Text(text, style=style or ""))

    def panel(self, title: str, lines: Sequence[Line]) -> None:
        """A titled box of lines (for a pipe: the title, then the lines indented)."""
        if not self.tty:
            print(title)
            for line in lines:
                print("  " + (line if isinstance(line, str) else line[0]))
            sys.stdout.flush()
            return
        from rich.panel import Panel
        from rich.text import Text

        body = Text()
        for i, line in enumerate(lines):
            text, style = (line, "") if isinstance(line, str) else line
            body.append(("\n" if i else "") + text, style=style)
        self.console.print(Panel(body, title=Text(title), title_align="left"))

    def table(
        self,
        title: str,
        headers: Sequence[str],
        rows: Sequence[Sequence[str]],
        right: Sequence[int] = (),
    ) -> None:
        """A table (for a pipe: the title, then aligned columns, none ever cut)."""
        if not self.tty:
            widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

            def fmt(cells: Sequence[str]) -> str:
                return "  ".join(
                    c.rjust(w) if i in right else c.ljust(w)
                    for i, (c, w) in enumerate(zip(cells, widths, strict=True))
                ).rstrip()

            print(title)
            print(fmt(headers))
            for row in rows:
                print(fmt(row))
            sys.stdout.flush()
            return
        from rich.table import Table
        from rich.text import Text

        table = Table(title=Text(title))
        for i, h in enumerate(headers):
            widest = max([len(h)] + [len(r[i]) for r in rows])
            table.add_column(
                Text(h),
                justify="right" if i in right else "left",
                no_wrap=i == 0,  # the first column is what people type: never cut it
                min_width=widest if i == 0 else None,
                overflow="fold",
            )
        for row in rows:
            table.add_row(*(Text(c) for c in row))
        self.console.print(table)

    def ask(self, prompt: str) -> str:
        """A line typed by the person (EOFError at the end of input)."""
        if not self.tty:
            print(f"{prompt}: ", end="", flush=True)
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line.rstrip("\n")
        return str(self.console.input(f"{prompt}: "))


def _cards(match: Match, texts: tuple[str, ...] | list[str]) -> str:
    game = match.game
    return " ".join(game.model.deck.card_glyph(game.card(t)) for t in texts) or "-"


def _who(seat: int) -> str:
    """A seat in a trick: -1 is the talon's card (led from the talon) or nobody's trick."""
    return "talon" if seat < 0 else str(seat)


def _sheet(obs: Observation | BoutObservation) -> list[Line]:
    """The match's kept values of every seat (a score sheet: `match { keep ... }`), one line
    per seat; none when the match keeps nothing."""
    return [
        f"  seat {s}{' (you)' if s == HUMAN else ''}: "
        + ", ".join(
            f"{name} {'yes' if v is True else 'no' if v is False else v}" for name, v in kept
        )
        for s, kept in enumerate(obs.kept)
        if kept
    ]


def render(match: Match, out: Output) -> None:
    """Print what seat 0 may see now."""
    if match.game.model.bouts is not None:
        return render_bouts(match, out)
    obs = match.observation(HUMAN)
    assert isinstance(obs, Observation)
    lines: list[Line] = [
        "scores: "
        + "  ".join(
            f"seat {s}{' (you)' if s == HUMAN else ''}: {x}" for s, x in enumerate(obs.scores)
        ),
        f"deal {match.deals_dealt}, dealer seat {obs.dealer}, phase: {obs.phase}",
    ]
    sheet = _sheet(obs)
    if sheet:
        lines.append("score sheet:")
        lines.extend(sheet)
    if obs.bids:
        lines.append("bids: " + ", ".join(f"{s}: {t}" for s, t in obs.bids))
    if obs.declarer >= 0:
        said = obs.contract_text or (
            f"{obs.contract}" + (f" {obs.qualifier}" if obs.qualifier else "")
        )
        lines.append(f"declarer: seat {obs.declarer}, contract {said}")
    if obs.talon_shown:
        lines.append(f"talon (shown): {_cards(match, obs.talon_shown)}")
    if obs.turnup is not None:
        lines.append(f"turned up: {_cards(match, [obs.turnup])}")
    elif obs.turned_up is not None:  # taken into a hand, or dealt into one face up
        lines.append(f"turned up as dealt: {_cards(match, [obs.turned_up])}")
    if obs.stock_top is not None:
        lines.append(f"on the stock, face up: {_cards(match, [obs.stock_top])}")
    lines.append(f"trump: {obs.trump or 'none'}")
    if obs.sitting_out:
        lines.append("sitting out: " + ", ".join(f"seat {s}" for s in obs.sitting_out))
    for seat, face_up in obs.open_hands:
        lines.append(f"seat {seat}'s hand (face up): {_cards(match, face_up)}")
    if obs.declarations:
        lines.append(
            "declared: "
            + ", ".join(f"seat {s} {m} {suit} {v}" for s, m, suit, v in obs.declarations)
        )
    if obs.tricks:
        leader, cards, winner = obs.tricks[-1]
        lines.append(
            "last trick: "
            + ", ".join(f"{_who(s)}:{_cards(match, [c])}" for s, c in cards)
            + (f" -> seat {winner}" if winner >= 0 else " -> nobody")
        )
    lines.append(
        "table: " + (", ".join(f"{_who(s)}:{_cards(match, [c])}" for s, c in obs.trick) or "-")
    )
    lines.append("tricks won: " + ", ".join(f"{s}: {n}" for s, n in enumerate(obs.tricks_won)))
    if obs.received:
        lines.append(f"you received: {_cards(match, obs.received)}")
    if obs.laid_away:  # his own, or those laid away face up (`lay_away_shown_if`)
        lines.append(f"laid away: {_cards(match, obs.laid_away)}")
    lines.append((f"your hand: {_cards(match, obs.hand)}", "bold"))
    if obs.playing_for is not None and obs.to_act == HUMAN:
        lines.append((f"you play from seat {obs.playing_for}'s hand now", "bold"))
    out.panel(match.game.title, lines)


def render_bouts(match: Match, out: Output) -> None:
    """Print what seat 0 may see of a game of bouts."""
    obs = match.observation(HUMAN)
    assert isinstance(obs, BoutObservation)
    role = {obs.attacker: "attacker", obs.defender: "defender"}
    lines: list[Line] = [
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
        (f"your hand: {_cards(match, obs.hand)}", "bold"),
    ]
    sheet = _sheet(obs)
    if sheet:
        lines[2:2] = ["score sheet:", *sheet]
    out.panel(match.game.title, lines)


def _report_deal_end(match: Match, out: Output) -> None:
    if not match.deal_results:
        return
    r = match.deal_results[-1]
    if "loser" in r:
        who = "a draw" if r["draw"] else f"seat {r['loser']} loses"
        out.print(f"deal over after {r['bouts']} bouts: {who}", "yellow")
    elif r.get("redeal"):
        out.print(f"deal thrown in (redeal by seat {r['by']})", "yellow")
    else:
        out.print(
            f"deal over: declarer seat {r['declarer']} contract {r['contract']}; "
            f"gains {r['gains']}; scores {r['scores']}",
            "yellow",
        )


def seen_by_person(deal: Deal | BoutDeal) -> str:
    """The deal's last action as the person's seat saw it (its observation's log): a card
    given or passed to another seat stays hidden, as at a real table."""
    log = deal.observation(HUMAN).log
    return log[-1][1] if log else "?"


def play_in_terminal(
    match: Match,
    bots: dict[int, Bot],
    out: Output,
    save_to: str | None = None,
    ask: Callable[[str], str] | None = None,
    hint: Any = None,
) -> int:
    """Run a whole match; seat 0 is typed at the prompt, other seats are `bots`.

    With `save_to` the match is saved after every action (atomically), and on the end of
    input, an interrupt or an error, and the file is named; nothing played is lost. With
    `hint` (a search bot with `evaluate(turn)`), its advice and its estimated value of
    each action are shown before each of the person's decisions.
    """
    if save_to:
        check_save_path(save_to)
    ask = ask or out.ask
    out.print(
        "Type an action as the legal list shows it (a card's text alone plays it), "
        "'?' for all of them, 'quit' to stop. A move with one legal choice is made for you."
    )
    results_seen = 0
    saved = -1
    advised = -1
    shown = -1  # the number of actions taken when the table was last printed
    spent = 0.0  # seconds the last save took
    saved_at = 0.0

    def save(now: bool = True) -> None:
        """Save if anything is new: at once (`now`), or after a computer player's move
        when saving has taken at most a twentieth of the time since the last save (a long
        match is not rewritten after every move; the person's moves are always saved)."""
        nonlocal saved, spent, saved_at
        if not save_to or saved == match.actions_taken:
            return
        clock = time.perf_counter()
        if not now and clock - saved_at < 20 * spent:
            return
        save_match(match, save_to)
        saved = match.actions_taken
        saved_at = time.perf_counter()
        spent = saved_at - clock

    try:
        save()
        while not match.is_over:
            if len(match.deal_results) > results_seen:
                results_seen = len(match.deal_results)
                _report_deal_end(match, out)
            seat = match.to_act
            if seat != HUMAN:
                action = bots[seat].choose(turn_of(match))
                deal = match.current
                match.apply(action)
                out.print(f"seat {seat}: {seen_by_person(deal)}")
                save(now=False)
                continue
            save()  # everything before the person's turn is on disk
            legal = [a.text for a in match.legal_actions()]
            if shown != match.actions_taken:  # the table once per turn, not after each error
                shown = match.actions_taken
                render(match, out)
                if len(legal) == 1:  # nothing to choose: played for the person, and said
                    out.print(f"your only legal move: {legal[0]} (played for you)", "bold")
                    match.apply(legal[0])
                    save()
                    continue
                if hint is not None and advised != match.actions_taken:
                    advised = match.actions_taken
                    show_hint(match, hint, out)
                out.print("legal: " + ", ".join(legal[:30]) + (" ..." if len(legal) > 30 else ""))
            text = ask("your move").strip()
            if text in ("quit", "exit"):
                break
            if text == "?":
                out.print(", ".join(legal))
                continue
            try:
                match.apply(typed_action(match, text))
            except IllegalActionError as exc:
                out.print(str(exc).splitlines()[0], "red")
                continue
            save()
    except EOFError:
        out.print("(end of input)")
    except BaseException:
        if save_to:
            _save_after_failure(match, out, save_to)
        raise
    _report_deal_end(match, out)
    if match.is_over:
        standing = [match.standing(s) for s in range(match.seats)]
        out.print(f"match over: standing {standing}, winners {match.winners}", "bold")
    if save_to:
        save()
        out.print(f"saved to {save_to} (trickcore replay {save_to})")
    return 0


def typed_action(match: Match, text: str) -> str:
    """What the person typed, as an action's text: a bare card (`9S`, `9s`, `9♠` as the
    table shows it) stands for the one legal action with that card (`play 9S`) when only
    one action with it is legal now; anything else is returned unchanged (and refused by the
    match, with its reason, when it is not legal)."""
    word = " ".join(text.split())
    if not word or " " in word:
        return text
    legal = match.legal_actions()
    game = match.game
    deck = game.model.deck
    with_card = [
        a
        for a in legal
        if a.card >= 0
        and word.upper() in (game.card_text(a.card).upper(), deck.card_glyph(a.card).upper())
    ]
    if len({a.text for a in with_card}) == 1:
        return with_card[0].text
    if not with_card:  # a card no legal action has: as a play, refused with its reason
        for card_text in game.card_texts:
            if card_text.upper() == word.upper():
                return f"play {card_text}"
    return text


def show_hint(match: Match, hint: Any, out: Output, shown_at_most: int = 8) -> None:
    """Print the hint bot's advice for the seat to act: its best action first, with the
    estimated value of each action (the deal's points for the seat, or minus the chance of
    losing in games of bouts)."""
    turn = turn_of(match)
    if len(turn.legal) < 2:
        return
    try:
        values = sorted(hint.evaluate(turn), key=lambda item: -item[1])
    except TrickcoreError as exc:  # no hidden world could be sampled: no advice this time
        out.print(f"hint: none this time ({str(exc).splitlines()[0][:120]})", "cyan")
        return
    bouts = match.game.model.bouts is not None

    def fmt(x: float) -> str:
        if x == float("-inf"):
            return "?"
        return f"{x:+.2f}" if bouts else f"{x:+.1f}"

    best = values[0]
    rest = ", ".join(f"{a.text} {fmt(x)}" for a, x in values[1:shown_at_most])
    more = " ..." if len(values) > shown_at_most else ""
    out.print(
        f"hint: {best[0].text} ({fmt(best[1])})" + (f"; then {rest}{more}" if rest else ""), "cyan"
    )


def _save_after_failure(match: Match, out: Output, save_to: str) -> None:
    """Save on an interrupt or an error, and say where (or why it could not be saved)."""
    try:
        save_match(match, save_to)
    except TrickcoreError as exc:
        out.print(f"the match could not be saved: {exc}", "red")
        return
    except Exception as exc:  # the original error is re-raised by the caller
        out.print(f"the match could not be saved: {type(exc).__name__}", "red")
        return
    out.print(
        f"match saved to {save_to} ({match.actions_taken} actions; trickcore replay {save_to})"
    )
