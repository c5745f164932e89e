"""An independent restatement of a variant's rules, for the consistency checker.

Nothing here calls the engine's rule code (`Deal`, `BoutDeal`, `Match`, the phases, the
compiled `CompiledExpr` closures, `Game.relations`, `Game.deal_score`) to decide what is
right. Expressions are evaluated by walking their syntax trees (`trickcore.language.syntax`) as the
loader gives them; plain settings (the deck's tables, meld ranks and values, the flow,
flags and numbers) are read from the model, and the deal pattern and the settings of
spec 4 (strains, levels, rounds, doubles, the pickup, `trump: bid`) from the rules text
itself. The checker compares the engine against what is computed here:

- `Evaluator` (`reference/expressions.py`): a tree-walking evaluator of the expression
  language (card functions over a deck with copies of each card, played and taken cards,
  `holds_trump`, the aggregates over the table and the side, single tricks with
  `sum_tricks` and `count_tricks`, `mod`, `div`, `pick`, `bid_is` and `strain_is`);
- `Reference` (`reference/variant.py`): the rules as read, what follows from them alone
  (card relations, sides, combinations), and the settings it follows
  (`reference/restated.py`);
- `TrickReplay` (`reference/trick_replay.py`, its parts one job each beside it): one trick
  deal followed action by action from its deck order through its flow: the deal (the pattern
  with its `size`, packets round the table, the rest out), the compulsory redeal and the
  redeal offer, cards passed, the auction (in turns: who calls next, when it ends, who
  declares at what, and where it uses strains, `bid_if`, `pass_if`, doubles or rounds, every
  call: by level, strain and qualifier above the last up to the cap, as `bid_if` and
  `pass_if` allow, double and redouble; in pairs: every bid, hold and pass), bids (as
  `bid_if` allows), the pickup of the turned-up card, the talon (shown, taken, given, split,
  laid away), the contract raise, the decisions and choices between phases and at a turn
  (asked in the order of the file while their `offer_if` holds, their rules and effects),
  trick play with a stock and turn-up (drawing, closing, exchanging), announced and led
  melds, the card relations (`trump_power`, `power`), obligations written as rules,
  `lead_if` / `play_if`, who sits out (`sit_out_if`) and whose hand a partner plays
  (`partner_plays_if`), open hands and `stop_if`, the first leader by a rule, the round of
  offers before each card (`at: card`), `after_trick` and the sides formed again; from it
  the phase, the seat to act, its legal actions, what each seat may see (the turn-up while
  it lies or until play, who sits out, for whom the player to act plays, the contract as
  said, the declarer), and the deal scores (every
  definition for every player before the next, with the names of the contract: `doubled`,
  `side`, `dealer`, ...);
- `bout_moves` (`reference/bouts.py`): every legal action of a game of bouts in the current
  state (D5-D8, D12);
- `MatchBook` (`reference/match_book.py`): scores and kept values across a match, by running
  `after_deal` itself, the match state each deal begins with (`max_other_score` by `sides`),
  who deals (`next_dealer`, also as a rule over after_deal's names), and when the match
  ends and who wins (target, `end_if`, `tie_break` with `play_on`, the limits).

This module is the front of the package `trickcore.checking.reference`, where each part
lives: every name is imported from here as before.
"""

from __future__ import annotations

from .reference.bouts import beats, bout_limit, bout_moves
from .reference.deal_state import OVER
from .reference.errors import OutOfRange, ReferenceError, in_range
from .reference.expressions import (
    AGGREGATES,
    LEADING,
    LED,
    MEMO,
    NAMED,
    PLAYED,
    SEAT,
    SEATS,
    SIDE,
    STRAIN,
    TABLE,
    TAKEN,
    TRUMP,
    Evaluator,
)
from .reference.legal_cards import trick_winner
from .reference.match_book import MatchBook
from .reference.restated import (
    ANY_SETTING,
    PATTERN_WORDS,
    RESTATED,
    RESTATED_WORDS,
    check_restated,
    check_words,
)
from .reference.rule_blocks import DecisionRule, MeldRule
from .reference.rules_text import load_reference_rules
from .reference.trick_replay import TrickReplay
from .reference.variant import FINAL_RULES, Reference, players_in_deal, run_step
from .reference.views import observed

__all__ = [
    "AGGREGATES",
    "ANY_SETTING",
    "DecisionRule",
    "Evaluator",
    "FINAL_RULES",
    "LEADING",
    "LED",
    "MEMO",
    "MatchBook",
    "MeldRule",
    "NAMED",
    "OVER",
    "OutOfRange",
    "PATTERN_WORDS",
    "PLAYED",
    "RESTATED",
    "RESTATED_WORDS",
    "Reference",
    "ReferenceError",
    "SEAT",
    "SEATS",
    "SIDE",
    "STRAIN",
    "TABLE",
    "TAKEN",
    "TRUMP",
    "TrickReplay",
    "beats",
    "bout_limit",
    "bout_moves",
    "check_restated",
    "check_words",
    "in_range",
    "load_reference_rules",
    "observed",
    "players_in_deal",
    "run_step",
    "trick_winner",
]
