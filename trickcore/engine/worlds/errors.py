"""The error of the hidden worlds' sampler."""

from __future__ import annotations

from ...language.errors import TrickcoreError


class WorldsError(TrickcoreError):
    """The observation cannot be matched by any deal of this variant (or none was found)."""
