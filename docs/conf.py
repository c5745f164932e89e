"""Sphinx configuration of trickcore's manual.

Build it with `python -m sphinx -W --keep-going docs build/docs`.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE / "_ext"))

import trickcore  # noqa: E402

project = "trickcore"
author = "the trickcore developers"
copyright = "2026, the trickcore developers"
release = version = trickcore.__version__

extensions = ["sphinx.ext.autodoc", "markdown_pages"]
root_doc = "index"
exclude_patterns = ["_build", "_ext"]
html_theme = "alabaster"
html_title = f"trickcore {release}"
html_theme_options = {
    "description": "Card games written as rules files",
    "fixed_sidebar": True,
    "page_width": "1100px",
    "sidebar_width": "240px",
}
html_sidebars = {"**": ["about.html", "navigation.html", "searchbox.html"]}
html_show_sourcelink = False
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options: dict[str, object] = {}
highlight_language = "text"
default_role = "code"  # docstrings write `names` as Markdown does
suppress_warnings: list[str] = []
