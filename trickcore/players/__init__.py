"""Computer players: the `Bot` protocol, the `Turn` a bot is shown, and bots by name.

>>> from trickcore.players import make_bot, turn_of
>>> bot = make_bot("pimc:iterations=100", seed=1)
"""

from .protocol import Bot, Turn, turn_of
from .registry import bot_names, make_bot

__all__ = ["Bot", "Turn", "bot_names", "make_bot", "turn_of"]
