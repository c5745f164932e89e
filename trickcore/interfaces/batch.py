"""Many independent deals of one variant stepped by one call, as vectorised environments work:
the seat to act in each deal, its observation tensor, its legal actions as a mask, and the
rewards, all as numpy arrays (`trickcore.batch` is the front).

    batch = DealBatch("hearts", 256, seed=0)
    obs, mask = batch.observations, batch.masks  # (256, batch.observation_size), (256, A)
    actions = policy(obs, mask)                  # one legal action number per deal
    result = batch.step(actions)                 # result.rewards: (256, seats)

Each row is one deal. After `step`, a deal that ended has `result.done` set and its rewards
in `result.rewards` (each seat's `Deal.worth()`: the deal score, or scoring's `progress`
where the rules define one; 0 on every other step), and is replaced at once by the next
deal of the batch's seed sequence, so `observations` and `masks` always show a deal to
play (the same-step autoreset of vector environments). `result.final` holds the finished
deals for who wants to read them. Every observation is the one the seat to act may see:
its own hand and what the table saw, never another seat's hidden cards (the layout is
`trickcore.interfaces.tensors.Encoder`'s, as in OpenSpiel and PettingZoo).

Actions are numbered as `actions` says: "compact" (default: only the actions the rules can
offer, one per card whether played, passed or laid away, one per call, as
`trickcore.openspiel`'s `actions="compact"`) or
"stable" (the engine's numbers, `Variant.num_actions`). An action that is not legal in its
deal raises `IllegalActionError` naming the row, and no deal has moved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        "trickcore's batch API needs numpy: pip install 'trickcore[pettingzoo]' (or numpy)"
    ) from exc

from ..engine.game import Game
from ..engine.state import DealState
from ..language.errors import IllegalActionError, TrickcoreError
from .compact_actions import CompactNumbering
from .tensors import Encoder

__all__ = ["DealBatch", "StepResult"]

NUMBERINGS = ("compact", "stable")


@attrs.frozen
class StepResult:
    """What one `DealBatch.step` did: per row, the rewards of a deal that ended (else 0),
    whether it ended, and the finished deals (None for a row whose deal goes on)."""

    rewards: Any  # float32 (n, seats)
    done: Any  # bool (n,)
    final: tuple[DealState | None, ...]


class DealBatch:
    """`n` independent deals of a variant, stepped together (see the module docstring)."""

    def __init__(
        self,
        variant: Game | str,
        n: int,
        *,
        seed: int = 0,
        players: int | None = None,
        actions: str = "compact",
    ) -> None:
        """`variant`: a Variant, a shipped name or a rules file's path; deals are dealt from
        the seeds `seed`, `seed + 1`, ... in the order rows need them (row i starts with
        `seed + i`), with the dealer turning round the table deal by deal."""
        if isinstance(variant, str):
            import trickcore

            variant = trickcore.load_variant(variant)
        if not isinstance(n, int) or n < 1:
            raise TrickcoreError(f"a batch holds 1 deal or more, not {n!r}")
        if actions not in NUMBERINGS:
            raise TrickcoreError(f"actions must be 'compact' or 'stable', not {actions!r}")
        self.variant = variant
        self.n = n
        self.seats = variant.check_seats(players)
        self.encoder = Encoder(variant, self.seats)
        self.observation_size: int = self.encoder.size
        self._numbering = CompactNumbering(variant, self.seats) if actions == "compact" else None
        self.num_actions = (
            self._numbering.size if self._numbering is not None else variant.num_actions
        )
        self._next_seed = seed
        self._dealt = 0
        self.deals: list[DealState] = [self._new_deal() for _ in range(n)]
        self._obs = np.zeros((n, self.observation_size), np.float32)
        self._mask = np.zeros((n, self.num_actions), np.int8)
        self._to_act = np.zeros(n, np.int64)
        self._legal: list[list[int]] = [[] for _ in range(n)]
        # each row's legal numbers -> the engine's (compact numbering only)
        self._taken: list[dict[int, int]] = [{} for _ in range(n)]
        # each row's named pieces: numpy views into `_obs`, made once
        self._pieces = [self.encoder.views(self._obs[row]) for row in range(n)]
        for row in range(n):
            self._show(row)

    # ------------------------------------------------------------ views
    @property
    def observations(self) -> Any:
        """float32 (n, observation_size): each deal's tensor for its seat to act (a copy)."""
        return self._obs.copy()

    @property
    def masks(self) -> Any:
        """int8 (n, num_actions): 1 for each legal action of each deal (a copy)."""
        return self._mask.copy()

    @property
    def to_act(self) -> Any:
        """int64 (n,): the seat to act in each deal (a copy)."""
        return self._to_act.copy()

    def legal_actions(self, row: int) -> list[int]:
        """The legal action numbers of one deal, ascending (a new list)."""
        return list(self._legal[row])

    # ------------------------------------------------------------ stepping
    def step(self, actions: Sequence[int] | Any) -> StepResult:
        """Apply one action in every deal (`actions[i]` for row i, numbered as the batch
        numbers them); a deal that ends is scored and replaced by the next one."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.n,):
            raise IllegalActionError(
                f"step needs one action per deal: {self.n} numbers, not shape {chosen.shape}"
            )
        if not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalActionError(f"actions are whole numbers, not {chosen.dtype}")
        in_range = (chosen >= 0) & (chosen < self.num_actions)
        legal = np.zeros(self.n, dtype=bool)
        rows = np.nonzero(in_range)[0]
        legal[rows] = self._mask[rows, chosen[rows]] == 1
        if not legal.all():
            row = int(np.nonzero(~legal)[0][0])
            raise IllegalActionError(
                f"row {row}: action {int(chosen[row])} is not legal in its deal (legal: "
                f"{self._legal[row][:12]}{' ...' if len(self._legal[row]) > 12 else ''}); "
                "no deal was changed"
            )
        if self._numbering is not None:
            stable = [self._taken[row][int(chosen[row])] for row in range(self.n)]
        else:
            stable = chosen.tolist()
        rewards = np.zeros((self.n, self.seats), np.float32)
        done = np.zeros(self.n, dtype=bool)
        final: list[DealState | None] = [None] * self.n
        for row in range(self.n):
            deal = self.deals[row]
            deal.apply_id(stable[row])
            if deal.is_over:
                worth = deal.worth()
                if worth is not None:
                    rewards[row] = worth
                done[row] = True
                final[row] = deal
                self.deals[row] = self._new_deal()
            self._show(row)
        return StepResult(rewards, done, tuple(final))

    # ------------------------------------------------------------ inside
    def _new_deal(self) -> DealState:
        seed = self._next_seed
        self._next_seed += 1
        dealer = self._dealt % self.seats
        self._dealt += 1
        deal = self.variant.new_deal(seed=seed, dealer=dealer, players=self.seats)
        while deal.is_over:  # a deal over before any action (thrown in as dealt)
            deal = self.variant.new_deal(seed=self._next_seed, dealer=dealer, players=self.seats)
            self._next_seed += 1
        return deal

    def _show(self, row: int) -> None:
        """Write row `row`'s observation, mask and seat to act from its deal."""
        deal = self.deals[row]
        seat = deal.to_act
        if self._numbering is not None:
            taken = self._taken[row] = self._numbering.legal_map(deal.legal_ids())
            legal = list(taken)
        else:
            legal = sorted(deal.legal_ids())
        self._legal[row] = legal
        mask = self._mask[row]
        mask[:] = 0
        mask[legal] = 1
        self._to_act[row] = seat
        self._obs[row] = 0.0
        self.encoder.encode(deal.observation(seat), self._pieces[row])
