"""Many deals stepped by one call, with numpy arrays in and out: `DealBatch` (see
`trickcore.interfaces.batch`). Needs numpy (`pip install 'trickcore[pettingzoo]'`)."""

from .interfaces.batch import DealBatch, StepResult

__all__ = ["DealBatch", "StepResult"]
