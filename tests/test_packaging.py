"""The grammar and the shipped variants work from an installed wheel, not only a checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_carries_grammar_and_variants(tmp_path):
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path / "dist"),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    wheel = next((tmp_path / "dist").glob("trickcore-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "trickcore/_data/grammar/trickcore.lark" in names
    for static in ("index.html", "table.js", "table.css"):  # the web table's page
        assert f"trickcore/interfaces/web/static/{static}" in names
    shipped = sorted(p.name for p in (ROOT / "variants").glob("*.rules"))
    assert sorted(n.rsplit("/", 1)[-1] for n in names if n.endswith(".rules")) == shipped
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    code = (
        "import trickcore; "
        "assert '_data' in str(trickcore.language.resources.variants_dir()); "
        "v = trickcore.load_variant('russisch-schnapsen-36-ohne'); "
        "print(len(trickcore.list_variants()), v.title)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[0] == str(len(shipped))
    assert "36 cards with ohne bids" in run.stdout
