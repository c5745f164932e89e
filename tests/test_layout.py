"""The package shows the pipeline: language -> engine -> checking / players -> analysis ->
interfaces.

Every module's imports that run when it is loaded (not those under `if TYPE_CHECKING:`)
point down the layers or within its own layer (only the interfaces may use the package's
public front, `trickcore`), no modules import each other in a circle, and no class is longer
than 600 lines."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "trickcore"
LAYERS = ["language", "engine", "checking", "players", "analysis", "interfaces"]
# what each layer may import besides itself
ALLOWED = {
    "language": set(),
    "engine": {"language"},
    "checking": {"language", "engine"},
    "players": {"language", "engine"},
    "analysis": {"language", "engine", "checking", "players"},
    "interfaces": {"language", "engine", "checking", "players", "analysis"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(path: Path) -> set[str]:
    """The trickcore modules `path` imports at load time (whole-module level, outside
    `if TYPE_CHECKING:` blocks)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("trickcore"):
                names = [f"{target}.{a.name}" for a in node.names]
                out.update(
                    n
                    for n in names
                    if (PACKAGE.parent / n.replace(".", "/")).exists()
                    or (PACKAGE.parent / (n.replace(".", "/") + ".py")).exists()
                )
                out.add(target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("trickcore"))
    return out


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def modules() -> dict[str, set[str]]:
    return {module_name(p): runtime_imports(p) for p in PACKAGE.rglob("*.py")}


def test_every_module_belongs_to_a_layer():
    """Only the package's public front (`__init__`, `__main__`, `testing`, and the fronts of
    the integrations) sits on top."""
    loose = sorted(m for m in modules() if layer_of(m) is None)
    fronts = ["trickcore.batch", "trickcore.openspiel", "trickcore.pettingzoo"]
    expected = ["trickcore", "trickcore.__main__", "trickcore.testing"]
    assert [m for m in loose if m not in fronts] == expected


def test_imports_point_down_the_layers():
    wrong = []
    for module, imports in modules().items():
        mine = layer_of(module)
        if mine is None:
            continue
        for target in imports:
            theirs = layer_of(target)
            front = target == "trickcore" and mine != "interfaces"  # the public front
            if front or (theirs not in (mine, None) and theirs not in ALLOWED[mine]):
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_no_modules_import_each_other_in_a_circle():
    mods = modules()
    graph = {m: {t for t in imports if t in mods} for m, imports in mods.items()}
    done: set[str] = set()
    path: list[str] = []

    def visit(m: str) -> None:
        if m in path:
            raise AssertionError("import circle: " + " -> ".join([*path[path.index(m) :], m]))
        if m in done:
            return
        path.append(m)
        for t in sorted(graph.get(m, ())):
            if not m.startswith(t + ".") and t != m:  # a package importing its own modules
                visit(t)
        path.pop()
        done.add(m)

    for m in sorted(graph):
        if m != "trickcore":
            visit(m)


MAX_CLASS_LINES = 600  # issue 28: a class that grows past this is split by what it does


def test_no_class_is_longer_than_600_lines():
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_CLASS_LINES:
                    long.append(f"{path.relative_to(PACKAGE.parent)}: {node.name}, {lines} lines")
    assert long == []
