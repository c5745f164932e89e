"""Hidden worlds consistent with what one seat knows (`Variant.sample_worlds`).

A *world* is a complete deal: the deck order and the card of every action the seat saw only
as "give a card to N", "pass a card" or "discard a card". It is *consistent* with an
observation when replaying the seat's log in it is legal at every step and the seat's view
at the end is the observation, log included. Nothing here knows any game: every constraint
comes from the engine's own legality, probed on the public situation at each past action.

Method
------
1. **A reference world.** The log is replayed in a deal with a shuffled deck (the seat's
   own cards, a shown talon and a turned-up card placed first, then the cards it saw leave
   another hand, received from it or played, dealt to that hand as far as it takes them; a
   hidden action takes first a card the log shows its receiver play later). Where a step
   fails (a card not in the hand it is played from, an obligation that forbids the action,
   a meld or holding not held, another player to act than the log says) the worlds that
   agree with the steps before are modelled as below (the seat's own cards still in its
   hand kept there) and one assignment is drawn that also makes the failing step possible;
   while the replay gets further each time, cheaper repairs are tried first (one or two
   cards swapped, cards the seat has not seen first, never its own cards out of its hand nor
   a card its view shows where it saw it; a hidden action given the card a later step needs
   or the card that forbids it, or, when its card is that card, another card of its
   player's hand; the swap whose replay gets furthest). The seat's final view is compared
   last and repaired the same way; a view that differs only in its deal values (a value
   worked out from hidden cards) is brought closer by the swap of two unseen cards whose
   replay agrees with more of them. The attempts are bounded: when none fits, a WorldsError
   says so.
2. **Slots.** A card is *fixed* where the seat saw it lie (a shown or taken talon, a
   turned-up card, an open hand), *seen* (its own cards, and cards it saw others play: they
   must be in the hand they left, at that step) or *unseen*. The deck positions of the
   cards not fixed are grouped into slots: positions whose cards go the same way in the
   reference world (dealt to one hand, drawn from the stock at one moment by one player,
   left in the talon...). An unseen card that a hidden action moved keeps its whole way
   (its slot is that way).
3. **Constraints by probing.** At every past action, for every hand whose cards differ
   between worlds, the engine is asked again with one card added to that hand or taken out
   of it: would the action have been legal, would the deal have gone on the same way (the
   same phase and player to act), and would the next logged actions up to that hand's next
   one still be legal (applying an action may work out what a later one reads, like a bid
   cap)? A card that breaks this cannot have been there then (a void, a trump not played
   when it had to be, a rank not thrown in); a card whose absence breaks it had to be there
   (a declared meld). Where any of several cards would do (a bid that needs *some* meld),
   or several cards together break a step that none breaks alone, the step is checked
   whole for each world (exact rejection). "The same way" includes the deal values the
   rules work out as the deal goes on (`deal { keep }`, every seat sees them): a value
   worked out from a hand (a king and queen of trumps announced as the card is played) is
   a constraint on that hand. In trick play, a changed hand's own next action is judged at
   its own step (the same question, asked once) when nothing but the hand differs from the
   state there.
4. **Exact uniform sampling.** Slots every card may take alike form groups; cards allowed
   in the same groups form rows. The assignments of cards to groups (every group filled to
   its size) are counted exactly by dynamic programming over the groups' sizes left, row by
   row (a multinomial for how a row spreads over its groups); a draw walks the table with
   the counts as weights, so every assignment is equally likely, then splits each group's
   cards among its slots and orders the unseen ones within their slot uniformly.
5. **Building a world.** When every seen card stays in its reference slot, the world is a
   copy of the reference deal with its unseen cards renamed (fast: the seat's view cannot
   change); otherwise the log is replayed from the new deck order and the view compared
   (exact rejection).

So the worlds are uniform over the consistent deals, but for: a card the seat saw that
later moved unseen (a shown talon card the declarer may have given away, a turned-down
card, a seen card first moved by a hidden action) keeps the reference world's way, and a
seen card staying in its slot keeps its reference position there.

Modules
-------
`knowledge` reads the observation (the cards seen where, the hidden steps, who is known to
have held a card); `replaying` replays the log from a deck order; `hand_probes` asks the
engine about one past step with other cards in a hand; `places` says where cards lie in a
deal or a view; `reference` finds the reference world (1), repairing a failing replay with
`step_repairs`; `constraints` probes the engine for the slots and constraints (2, 3) of
`slot_model`, which counts and draws the assignments (4); `relabelling` builds a world fast
(5); `sampler` ties them together (`sample_worlds`, `WorldSampler`), and also repairs worlds
of an earlier view of the same deal into worlds of this one (`repaired_worlds`: step 1 from
each such world as its first order, card swaps only; cheap, as no model is made, but not
uniform).
"""

from __future__ import annotations

from .errors import WorldsError
from .knowledge import HIDDEN_FORMS
from .sampler import WorldSampler, repaired_worlds, sample_worlds

__all__ = ["HIDDEN_FORMS", "WorldSampler", "WorldsError", "repaired_worlds", "sample_worlds"]
