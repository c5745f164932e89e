"""The native build's tool (`python -m native`): the parts that need no compiler."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from native import compiled_sources, extensions  # noqa: E402


def test_extensions_are_found_wherever_the_copy_lies_and_not_in_mypycs_build_folder(tmp_path):
    """A copy inside a folder named build (build/native, the default) still has its
    extensions found; the C build's own folder inside the copy is left out."""
    dest = tmp_path / "build" / "native"
    for name in ("abc__mypyc.so", "trickcore/engine/deal.so", "build/temp/deal.so"):
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        (dest / name).write_bytes(b"")
    assert extensions(dest) == [Path("abc__mypyc.so"), Path("trickcore/engine/deal.so")]


def test_every_compiled_module_is_a_module_of_the_engine_or_language():
    """The modules compiled exist, and the public Game and Match (which check a caller's
    arguments themselves) are not among them."""
    names = [str(p.relative_to(ROOT)) for p in compiled_sources()]
    assert "trickcore/engine/deal.py" in names and "trickcore/engine/state.py" in names
    assert "trickcore/engine/game.py" not in names and "trickcore/engine/match.py" not in names
    assert all((ROOT / n).is_file() for n in names)
