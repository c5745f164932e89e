"""The scripts in examples/ run as a user would run them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(args: list[str], cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_my_bot_plays_a_match_and_saves_it(tmp_path):
    """Saved where asked; unasked, into a temporary folder it names, not the current one."""
    out = run([str(EXAMPLES / "my_bot.py"), "tysiacha", "3", "mine.json"], tmp_path)
    assert "winners" in out and (tmp_path / "mine.json").is_file()
    out = run([str(EXAMPLES / "my_bot.py"), "tysiacha", "3"], tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json"]
    saved = Path(out.split("saved to ")[1].split(";")[0])
    assert saved.is_file() and saved.parent != tmp_path
    saved.unlink()
    saved.parent.rmdir()


def test_house_rule_example(tmp_path):
    out = run([str(EXAMPLES / "house_rule.py")], tmp_path)
    assert "barrel_deals >= 2" in out and "barrel_deals >= 3" in out


def test_house_rule_consistency_example(tmp_path):
    args = ["-m", "pytest", "-p", "no:cacheprovider", "-rA", str(EXAMPLES / "test_house_rule.py")]
    out = run(args, tmp_path)
    assert "PASSED" in out and "test_quick_barrel_is_consistent" in out


def test_batch_policy_gradient_example_trains_and_reports(tmp_path):
    out = run([str(EXAMPLES / "batch_reinforce.py"), "sixty-six", "30", "8"], tmp_path)
    lines = out.strip().splitlines()
    assert lines[0].startswith("sixty-six: before training, seat 0 scores ")
    assert lines[1].startswith("sixty-six: after 30 steps of 8 deals, seat 0 scores ")
    assert list(tmp_path.iterdir()) == []
