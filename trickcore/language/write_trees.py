"""Writes the shipped rules files' trees (`preparsed` reads them): each file parsed with lark,
its tree saved beside it as `variants/trees/NAME.json`. Run after changing a shipped rules
file or the grammar:

    python -m trickcore.language.write_trees
"""

from __future__ import annotations

import json
from pathlib import Path

from .parser import _lark, parse_with
from .preparsed import PARSED_DIR, tree_data
from .resources import VARIANT_SUFFIX, shipped_path, shipped_variants


def regenerate() -> list[Path]:
    """Parse every shipped rules file with lark and write its tree; remove the trees of
    files no longer shipped. Returns the files written."""
    PARSED_DIR.mkdir(exist_ok=True)
    written = []
    names = shipped_variants()
    for name in names:
        path = shipped_path(name)
        assert path is not None
        doc = parse_with(_lark(), path.read_text(encoding="utf-8"), str(path))
        out = PARSED_DIR / f"{name}.json"
        lines = (json.dumps(part, separators=(",", ":")) for part in tree_data(doc))
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written.append(out)
    for old in PARSED_DIR.glob("*.json"):
        if old.stem not in names:
            old.unlink()
    return written


if __name__ == "__main__":
    files = regenerate()
    print(f"wrote {len(files)} trees to {PARSED_DIR} (one per shipped {VARIANT_SUFFIX} file)")
