"""A table in the browser: `trickcore serve` (needs the `web` extra: starlette, uvicorn,
cryptography).

`create_app()` builds the Starlette application; the static page, script and style sheet
are package data (`static/`), read with importlib.resources, so an installed wheel serves
them too. The page loads nothing from elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette

EXTRA_HINT = "the web table needs the 'web' extra: pip install 'trickcore[web]'"


def missing_web_packages() -> list[str]:
    """The packages of the `web` extra that are not installed."""
    import importlib.util

    return [
        name
        for name in ("starlette", "uvicorn", "cryptography")
        if importlib.util.find_spec(name) is None
    ]


def create_app(*args: Any, **kwargs: Any) -> Starlette:
    """The web app (see `app.create_app`); a clear ImportError without the `web` extra."""
    missing = missing_web_packages()
    if missing:
        raise ImportError(f"{EXTRA_HINT} ({', '.join(missing)} missing)")
    from .app import create_app as build

    return build(*args, **kwargs)
