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


def test_a_failed_build_stops_the_trace_started_beside_it(monkeypatch, capsys):
    """`check` starts the pure engine's trace while the wheel builds; when the build fails,
    the trace is stopped (killed) and the command says why and returns 2 at once, not after
    the trace has run its course."""
    import native.__main__ as tool

    if sys.version_info < (3, 11) or not any(
        tool.shutil.which(cc) for cc in (tool.os.environ.get("CC", "cc"), "gcc", "clang")
    ):
        import pytest

        pytest.skip("check needs Python 3.11 and a C compiler before it starts anything")
    started = []

    def failing_build(out):
        while not tool._TRACING:  # the trace's process has started
            tool.time.sleep(0.05)
        started.extend(tool._TRACING)
        raise tool.NativeBuildError("mypyc failed: a planted failure")

    monkeypatch.setattr(tool, "build_wheel", failing_build)
    assert tool.main(["check"]) == 2
    assert "a planted failure" in capsys.readouterr().err
    (proc,) = started
    assert proc.wait(timeout=600) != 0  # killed, not run to its end (a bound for a hang only)


def test_the_trace_in_shards_is_the_whole_trace():
    """The compiled engine's trace runs in two halves at once (`--shard K/N`): together they
    hold every variant's matches once, with the hashes of one run of the whole."""
    import json
    import subprocess

    def trace(*extra: str) -> dict[str, str]:
        cmd = [sys.executable, "-m", "native.trace", "--deals", "1", *extra]
        names = ["--variant", "durak", "--variant", "hearts", "--variant", "sixty-six"]
        out = subprocess.run([*cmd, *names], cwd=ROOT, capture_output=True, text=True, check=True)
        hashes: dict[str, str] = json.loads(out.stdout)["hashes"]
        return hashes

    whole = trace()
    first, second = trace("--shard", "0/2"), trace("--shard", "1/2")
    assert sorted(first) == ["durak/0", "sixty-six/0"] and sorted(second) == ["hearts/0"]
    assert {**first, **second} == whole
