"""Sealing a running match for its seats: a download that hides how the cards lie.

A seat may download its table's match at any time, so that nothing is lost if the table
closes. While the match runs, the download must not tell the seat anything it could not see
at the table: how the match was dealt (its seed or deck orders) is moved into `sealed`, a
token encrypted and authenticated with the server's key (Fernet: AES and HMAC, from the
`cryptography` package), and the file says nothing in the clear but its actions. Only a
server holding the key can open it (to resume the table); the library refuses to load it.
Once the match is over the download shows everything, as any saved match does.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import attrs
from cryptography.fernet import Fernet, InvalidToken

from ...engine.saving import checksum
from ...language.errors import TrickcoreError

SEALED_FIELDS = ("seed", "deck_orders", "secret")
MAX_SEALED = 64 * 1024 * 1024


class SealError(TrickcoreError):
    """A sealed match this server cannot open (another server's key, or changed)."""


@attrs.frozen
class TableSeats:
    """Who sat where, as a sealed download remembers it: each seat a person's (bot None)
    or a computer player's spec; `seat` is the seat whose download it is."""

    bots: tuple[str | None, ...]
    seat: int


class Sealer:
    """Seals and opens running matches with one key (random, or read from a key file)."""

    def __init__(self, key: bytes | None = None) -> None:
        self._fernet = Fernet(key or Fernet.generate_key())

    @classmethod
    def from_file(cls, path: str | Path) -> Sealer:
        """The key kept in a file (made, readable by its owner only, when missing), so that
        downloads stay resumable after the server restarts."""
        target = Path(path)
        if not target.exists():
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(Fernet.generate_key())
        try:
            key = target.read_bytes().strip()
            return cls(key)
        except (OSError, ValueError) as exc:
            raise TrickcoreError(f"{target}: not a key file of trickcore serve ({exc})") from None

    def seal(self, data: dict[str, Any], seats: TableSeats) -> dict[str, Any]:
        """A saved match with its dealing moved into a sealed token, bound to everything
        else the file says (its rules, start and actions)."""
        out = {k: v for k, v in data.items() if k not in ("checksum", *SEALED_FIELDS)}
        out.update(seed=None, deck_orders=None)
        payload = {
            "dealing": {name: data.get(name) for name in SEALED_FIELDS},
            "digest": checksum(out),
            "bots": list(seats.bots),
            "seat": seats.seat,
        }
        out["sealed"] = self._fernet.encrypt(json.dumps(payload).encode()).decode("ascii")
        out["checksum"] = checksum(out)
        return out

    def open(self, data: dict[str, Any]) -> tuple[dict[str, Any], TableSeats]:
        """The saved match a sealed download was made from, and its table's seats; a
        SealError if this server did not seal it or the file was changed."""
        token = data.get("sealed")
        if not isinstance(token, str) or len(token) > MAX_SEALED:
            raise SealError("the file holds no sealed match (only a running match's download)")
        try:
            payload = json.loads(self._fernet.decrypt(token.encode("ascii")))
        except (InvalidToken, ValueError, UnicodeError):
            raise SealError(
                "this match was sealed by another server (or another run of it without "
                "--key-file), or the file was changed: it cannot be resumed here"
            ) from None
        clear = {k: v for k, v in data.items() if k not in ("sealed", "checksum")}
        try:
            same = checksum(clear) == payload["digest"]
        except (TypeError, ValueError):
            same = False
        if not same:
            raise SealError("the file was changed since it was downloaded")
        out = dict(clear)
        out.update(payload["dealing"])
        if not out.get("secret"):
            out.pop("secret", None)
        out["checksum"] = checksum(out)
        bots = tuple(b if isinstance(b, str) else None for b in payload["bots"])
        return out, TableSeats(bots, int(payload["seat"]))
