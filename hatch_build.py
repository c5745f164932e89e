"""Build hook: with TRICKCORE_NATIVE=1, a wheel carries the engine compiled by mypyc.

`TRICKCORE_NATIVE=1 pip install .` (or `python -m build --wheel`) compiles the modules that
`native.COMPILED` lists and adds the extensions to the wheel beside their sources; without
the variable, and for editable installs, the wheel is pure Python. See
docs/howto/benchmarks.md, "A native build".
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

NATIVE_VARIABLE = "TRICKCORE_NATIVE"
BUILD_REQUIRES = ["mypy==2.4.1", "setuptools>=70"]  # mypyc, and what it builds with


def _wanted() -> bool:
    return os.environ.get(NATIVE_VARIABLE, "") == "1"


class NativeBuildHook(BuildHookInterface):
    """Compiles the engine into the wheel when TRICKCORE_NATIVE=1."""

    def dependencies(self) -> list[str]:
        """What the build needs beyond hatchling: mypyc, and the package's own dependencies
        (mypyc type-checks the modules it compiles against them)."""
        if not _wanted():
            return []
        return BUILD_REQUIRES + list(self.metadata.core.dependencies)

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile in a temporary copy and force-include each extension in the wheel."""
        if not _wanted() or self.target_name != "wheel" or version == "editable":
            return
        sys.path.insert(0, self.root)
        from native import build, extensions

        self._temp = tempfile.mkdtemp(prefix="trickcore-native-")
        dest = build(Path(self._temp) / "copy", root=Path(self.root), quiet=False)
        for ext in extensions(dest):
            build_data["force_include"][str(dest / ext)] = str(ext)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the temporary copy."""
        temp = getattr(self, "_temp", None)
        if temp:
            shutil.rmtree(temp, ignore_errors=True)
