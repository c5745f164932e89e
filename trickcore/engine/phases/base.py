"""The phase protocol (`engine/flow.py`), as the phases of a flow import it."""

from __future__ import annotations

from ..flow import Asking, Phase

__all__ = ["Asking", "Phase"]
