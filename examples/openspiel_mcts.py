"""OpenSpiel's own search bot plays a shipped variant through trickcore.openspiel.

    python examples/openspiel_mcts.py [VARIANT] [DEALS] [SIMULATIONS]

Each deal is one OpenSpiel game (`match=False`): the chance nodes deal the cards, then the
bot at seat 0 plays against uniform random players. When the variant can resample worlds
from an information state, the bot is OpenSpiel's ISMCTS, which sees only its own seat's
information; otherwise it is OpenSpiel's MCTS, which searches the true state (it sees every
hand: a strong baseline, not a fair player). Prints every deal's returns and the totals.
Needs `pip install 'trickcore[openspiel]'`.
"""

from __future__ import annotations

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import trickcore.openspiel as tos

WORLDS = 10  # hidden worlds ISMCTS draws per decision (its simulations reuse them)


def make_bot(game: pyspiel.Game, simulations: int, rng: np.random.RandomState) -> pyspiel.Bot:
    """ISMCTS when worlds can be resampled, else MCTS on the true state."""
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    if tos.can_resample(game):
        bot = ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c=2.0,
            max_simulations=simulations,
            max_world_samples=WORLDS,
            random_state=rng,
        )
        # worlds drawn with the example's own generator, so that a run repeats exactly
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.rand))
        return bot
    return mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng
    )


def play_deal(game: pyspiel.Game, bot: pyspiel.Bot, rng: np.random.RandomState) -> list[float]:
    """One deal: chance deals, seat 0 is the bot, the others play at random."""
    state = game.new_initial_state()
    bot.restart()
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(cards, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return list(state.returns())


def main(argv: list[str]) -> None:
    """Play the deals and print the returns."""
    variant = argv[0] if argv else "tysiacha"
    deals = int(argv[1]) if len(argv) > 1 else 3
    simulations = int(argv[2]) if len(argv) > 2 else 50
    game = tos.load_game(variant)
    rng = np.random.RandomState(7)
    bot = make_bot(game, simulations, rng)
    kind = type(bot).__name__
    print(f"{game}: {kind} ({simulations} simulations) at seat 0 against random players")
    totals = [0.0] * game.num_players()
    for deal in range(1, deals + 1):
        returns = play_deal(game, bot, rng)
        totals = [t + r for t, r in zip(totals, returns)]
        print(f"deal {deal}: returns {returns}")
    print(f"total after {deals} deals: {totals}")


if __name__ == "__main__":
    main(sys.argv[1:])
