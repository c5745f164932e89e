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
    assert "trickcore/py.typed" in names  # the package is typed (PEP 561)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    meta = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "License-Expression: MIT" in meta and "Classifier: Typing :: Typed" in meta
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


def test_the_wheel_installs_in_a_fresh_environment_and_runs_the_demo(tmp_path):
    """`pip wheel .`, installed with its dependencies into a new virtual environment, runs
    `trickcore simulate tysiacha --matches 1` from a folder outside the checkout."""
    dist = tmp_path / "dist"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
        + ["-w", str(dist), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr
    wheel = next(dist.glob("trickcore-*.whl"))
    env = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True, timeout=300)
    python = env / ("Scripts" if sys.platform == "win32" else "bin") / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    command = env / ("Scripts" if sys.platform == "win32" else "bin") / "trickcore"
    run = subprocess.run(
        [str(command), "simulate", "tysiacha", "--matches", "1"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    assert "Tysiacha (1000): 1 match of random play" in run.stdout
    assert "matches that hit the limit of 200 deals" in run.stdout
    assert list(elsewhere.iterdir()) == []  # nothing written where it ran
