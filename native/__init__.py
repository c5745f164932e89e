"""The optional native build: the engine's hot modules compiled to C extensions by mypyc.

The pure-Python engine is what an editable install and a plain `pip install .` run. A wheel
built with `TRICKCORE_NATIVE=1` (the hook in `hatch_build.py`) carries the same modules
compiled as well; Python prefers the compiled module over the source beside it, and
`trickcore.ENGINE` says which one runs. Both must behave identically: `python -m native
check` builds a compiled copy of the checkout and compares the two step by step on random
deals of every shipped variant, then runs the engine's tests against the compiled copy.

Only modules of plain classes and functions are compiled (mypyc cannot compile the attrs
classes of the model and the actions); the list is `COMPILED`.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DEST = ROOT / "build" / "native"
# the modules compiled, relative to the checkout: the deal states, the phases of play, hidden
# worlds, the shuffle, the trick records and the melds in a hand (the public Game and Match
# stay Python: they check a caller's arguments themselves, where compiled code would raise a
# bare TypeError)
COMPILED = (
    "trickcore/engine/state.py",
    "trickcore/engine/flow.py",
    "trickcore/engine/turn_reads.py",
    "trickcore/engine/trick_names.py",
    "trickcore/engine/deal_core.py",
    "trickcore/engine/deal_roles.py",
    "trickcore/engine/deal_scoring.py",
    "trickcore/engine/deal.py",
    "trickcore/engine/dealing.py",
    "trickcore/engine/bout_settings.py",
    "trickcore/engine/bouts.py",
    "trickcore/engine/phases/*.py",
    "trickcore/engine/worlds/*.py",
    "trickcore/engine/shuffling.py",
    "trickcore/engine/records.py",
    "trickcore/language/hands.py",
)
COPIED = ("trickcore", "grammar", "variants")  # what a compiled copy of the checkout holds
STAMP = ".native-build"
# what `python -m mypyc FILES` runs, with one C file per module (its defaults otherwise)
SETUP = """import os
from concurrent.futures import ThreadPoolExecutor

from setuptools import setup
from distutils.ccompiler import CCompiler  # setuptools' own copy, once setuptools is imported
from mypyc.build import mypycify


def compile_at_once(self, sources, output_dir=None, macros=None, include_dirs=None,
                    debug=False, extra_preargs=None, extra_postargs=None, depends=None):
    # CCompiler.compile, one C file per core at a time instead of one after another
    macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs)
    cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

    def one(obj):
        src, ext = build[obj]
        self._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        list(pool.map(one, objects))
    return objects


CCompiler.compile = compile_at_once
setup(
    name="trickcore_native",
    ext_modules=mypycify({files!r}, opt_level="3", debug_level="1", multi_file=True),
)
"""  # the hash of the sources a compiled copy was built from


class NativeBuildError(Exception):
    """The compiled copy could not be built (no C compiler, mypyc failed)."""


def compiled_sources(root: Path = ROOT) -> list[Path]:
    """The source files compiled, in a fixed order."""
    found: list[Path] = []
    for pattern in COMPILED:
        found.extend(sorted(root.glob(pattern)))
    return found


def sources_hash(root: Path = ROOT) -> str:
    """A hash of everything a compiled copy depends on: every module of the package (mypyc
    reads the types of the modules the compiled ones import), the mypy version and the way
    they are built."""
    import mypy.version

    h = hashlib.sha256(mypy.version.__version__.encode() + SETUP.encode())
    for path in sorted((root / "trickcore").rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def build(dest: Path = DEFAULT_DEST, root: Path = ROOT, quiet: bool = True) -> Path:
    """A copy of the checkout's package, grammar and variants in `dest`, with the modules of
    `COMPILED` compiled beside their sources; rebuilt only when a source changed. Returns
    `dest`, the folder to put first on `sys.path`."""
    want = sources_hash(root)
    stamp = dest / STAMP
    if stamp.is_file() and stamp.read_text() == want:
        return dest
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in COPIED:
        shutil.copytree(
            root / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
    files = [str(p.relative_to(root)) for p in compiled_sources(root)]
    # mypyc writes its C sources under build/ and each extension beside its module; run in
    # `dest` (no pyproject.toml there) so that nothing is written into the checkout. One C
    # file per module (multi_file) compiles in two thirds of the time of mypyc's default, one
    # file for the whole group (83 s against 126 s here), and runs as fast.
    (dest / "build").mkdir()
    setup = dest / "build" / "setup.py"
    setup.write_text(SETUP.format(files=files))
    done = subprocess.run(
        [sys.executable, str(setup), "build_ext", "--inplace"],
        cwd=dest,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
        raise NativeBuildError("mypyc failed:\n" + "\n".join(tail))
    if not quiet:
        print(f"compiled {len(files)} modules into {dest}")
    stamp.write_text(want)
    return dest


def extensions(dest: Path) -> list[Path]:
    """The compiled extension files of a built copy (relative to `dest`): one per compiled
    module and mypyc's shared library at the top."""
    found = (p.relative_to(dest) for p in dest.rglob("*.so"))
    return sorted(p for p in found if p.parts[0] != "build")  # not mypyc's own build folder


def build_wheel(out: Path, root: Path = ROOT) -> Path:
    """Build the native wheel (TRICKCORE_NATIVE=1, through `hatch_build.py`) into `out` with
    the tools of this environment, and check that it carries a compiled extension for every
    module of `COMPILED` and a platform tag. Returns the wheel."""
    if out.exists():
        shutil.rmtree(out)
    cmd = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
    env = {**os.environ, "TRICKCORE_NATIVE": "1"}
    done = subprocess.run(
        [*cmd, "-w", str(out), str(root)], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise NativeBuildError("the native wheel did not build:\n" + done.stderr[-3000:])
    wheel = next(out.glob("trickcore-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    missing = [
        str(p.relative_to(root))
        for p in compiled_sources(root)
        if str(p.relative_to(root))[: -len(".py")] + suffix not in names
    ]
    if missing or wheel.name.endswith("-none-any.whl"):
        raise NativeBuildError(f"{wheel.name} lacks compiled modules: {', '.join(missing)}")
    return wheel


def unpack(wheel: Path, dest: Path) -> Path:
    """The wheel's files in `dest` (as an install would place them); returns `dest`."""
    if dest.exists():
        shutil.rmtree(dest)
    zipfile.ZipFile(wheel).extractall(dest)
    return dest
