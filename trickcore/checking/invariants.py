"""Invariants every rules file must keep, checked by playing it.

A run plays one match from a seed, choosing among the legal actions by a list of numbers
(so hypothesis can shrink a failing run), and checks after every action. What is right is
restated independently of the engine (`trickcore.checking.check_reference`: a tree-walking
evaluator of the rules' expressions and a replay of each deal from its deck order):

- every card is in exactly one place (the cards left out by `rest out` included), and
  each hand holds what the deal (its `size` worked out by the checker) and the actions put
  there;
- a seat is to act and has a legal action until the deal ends, every deal ends within a
  bound derived from the rules (`deal_action_bound`), every match within its limits; the
  deal is in the phase the rules give, the seat they give is to act, and the deal ends
  (or is void and dealt again) exactly when they end it; the dealer is the rules' dealer;
- the legal actions are exactly those the rules allow: the redeal offer, cards passed
  (every card of the hand, in deal order), calls of an auction in turns that uses the
  spec-4 call settings (bids by level, strain and qualifier above the last up to the cap,
  as `bid_if` and `pass_if` allow, double and redouble) and in pairs (bid, hold, pass
  over the listed values), bids
  (min..max as `bid_if` allows, blind bids and `look` before the hand is seen), the cards
  laid away after a pickup, talon cards given and laid away, contract raises, decisions
  and choices between phases
  (in the order of the file, while their `offer_if` holds; the options their conditions
  allow), the round of offers before each card (`at: card`), and at a turn in trick play
  the decisions offered, meld announcements, card plays (the first leader, follow, beat,
  trump, overtrump by the card relations and obligations written as rules, `lead_if`,
  `play_if`, `declare_if`, the meld's cards after an announcement) and every move of a
  bout (attack, throw, beat, take, transfer, swap, and who is asked to throw in), nothing
  missing and nothing extra; every trick goes to the right player under the right trump
  (of two copies of a card, the first played);
- what a player sees of his own cards and of what lies open: his hand (nothing while he
  may bid blind and has not decided), the cards he set aside, received and passed, the
  turn-up (while it lies and the stock is open, or until play once picked up), the stock's
  size and state, the meld announced, the deal values, cards laid away, open hands, the
  passing offset, who sits out, for whom the player to act plays, the contract as said,
  the declarer, the log (cards given, passed and laid away hidden from the others), match
  scores and kept values;
- card points, tricks won and declarations are recomputed from the cards in the tricks,
  the deal values `after_trick` sets after each trick, deal scores by the scoring rules
  (single tricks too), match scores and kept values by running `after_deal`; scores change
  only at the end of a deal; the match ends exactly when the rules end it (target,
  `end_if`, `play_on`, limits) with the winners they rank first;
- illegal actions are refused and change nothing;
- information: at every step, for every seat, in another world consistent with what the
  seat has seen (two cards hidden from it swapped, the public history replayed), the seat
  sees the same observation, the same seat is to act, and the seat's legal actions are the
  same (they are computable from its observation alone);
- replaying the saved JSON gives the same match.

This module is the front of the package `trickcore.checking.checker`, where the checker's
parts live (`runs`: `Checker`; `steps`, `bouts`, `information`, `results`: the invariants by
job; `action_bound`; `violations`): every name is imported from here as before.
"""

from __future__ import annotations

from .checker.action_bound import deal_action_bound
from .checker.runs import Checker
from .checker.violations import Violation

__all__ = ["Checker", "Violation", "deal_action_bound"]
