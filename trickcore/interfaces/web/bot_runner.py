"""The computer players' moves at a served table, made off the request path.

A request never waits for a computer player: it only asks the runner to move a table's bot
when one is due. A fixed number of worker threads (daemons: they never hold the server up
when it stops) take the due tables in order, one decision at a time per table; each
decision is bounded by the opponent menu's ceilings. A table with a person to act, or no
bot due, is not queued.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from typing import Protocol


class BotTable(Protocol):
    """What the runner needs of a table."""

    id: str

    def bot_due(self) -> float | None:
        """When its computer player should move next (time.monotonic()), None if none."""
        ...

    def bot_step(self) -> None:
        """Make one computer player's move (it may take a while)."""
        ...


class BotRunner:
    """Worker threads that move the computer players of tables as they come due."""

    def __init__(self, threads: int = 1) -> None:
        self._cond = threading.Condition()
        self._heap: list[tuple[float, int, BotTable]] = []
        self._queued: set[str] = set()
        self._order = itertools.count()
        self._stopped = False
        self.busy = 0  # decisions being made now
        self._threads = [
            threading.Thread(target=self._work, name=f"trickcore-bots-{i}", daemon=True)
            for i in range(max(1, threads))
        ]
        for t in self._threads:
            t.start()

    def wake(self, table: BotTable) -> None:
        """Queue the table if its computer player is due to move (once: a queued table is
        not queued again)."""
        due = table.bot_due()
        if due is None:
            return
        with self._cond:
            if table.id in self._queued or self._stopped:
                return
            self._queued.add(table.id)
            heapq.heappush(self._heap, (due, next(self._order), table))
            self._cond.notify()

    def stop(self) -> None:
        """Stop taking tables (the workers end after their current decision)."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()

    def idle(self) -> bool:
        """No table queued and no decision being made."""
        with self._cond:
            return not self._heap and self.busy == 0

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._stopped:
                    if self._heap:
                        wait = self._heap[0][0] - time.monotonic()
                        if wait <= 0:
                            break
                        self._cond.wait(wait)
                    else:
                        self._cond.wait()
                if self._stopped:
                    return
                _, _, table = heapq.heappop(self._heap)
                self._queued.discard(table.id)
                self.busy += 1
            try:
                table.bot_step()
            except Exception:  # noqa: BLE001 - a table's failure is its own (it says so)
                pass
            finally:
                with self._cond:
                    self.busy -= 1
            self.wake(table)  # its next computer player, if one is due
