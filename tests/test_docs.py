"""The manual (docs/ and README.md): generated parts current, links and anchors that resolve,
every setting described, and the code it shows really runs (issue 31, "Documentation")."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

import trickcore

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


def _module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


generate = _module("docs_generate", DOCS / "generate.py")
markdown_pages = _module("docs_markdown_pages", DOCS / "_ext" / "markdown_pages.py")


def _fences(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.S | re.M)


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub (and the site) give a page's headings."""
    found: set[str] = set()
    body = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    for heading in re.findall(r"^#{1,6} (.+)$", body, re.M):
        anchor = markdown_pages.slug(re.sub(r"[`*]", "", heading))
        n = 1
        while anchor in found:
            anchor = f"{markdown_pages.slug(heading)}-{n}"
            n += 1
        found.add(anchor)
    return found


@pytest.mark.parametrize("path", sorted(generate.pages()), ids=lambda p: str(p.relative_to(ROOT)))
def test_generated_pages_are_current(path: Path) -> None:
    """docs/cli.md and docs/language.md's tables are what `python docs/generate.py` writes."""
    assert path.read_text(encoding="utf-8") == generate.pages()[path], (
        f"{path.name} is out of date: run python docs/generate.py"
    )


def test_the_cli_reference_lists_every_command_and_option() -> None:
    from trickcore.interfaces.cli import build_parser

    page = (DOCS / "cli.md").read_text(encoding="utf-8")
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    assert commands
    for name, command in commands.items():
        assert f"## trickcore {name}\n" in page
        for action in command._actions:
            for flag in action.option_strings:
                assert flag in page, (name, flag)


def test_every_setting_of_every_block_is_described_in_the_language_reference() -> None:
    """Beyond the generated table of blocks, the prose describes each setting by name."""
    from trickcore.language.blocks import BLOCK_SETTINGS

    page = (DOCS / "language.md").read_text(encoding="utf-8")
    start = page.index("| block | settings |")
    rest = page[start:].split("\n")
    end = next(i for i, line in enumerate(rest) if not line.startswith("|"))
    prose = page[:start] + "\n".join(rest[end:])
    missing = [
        f"{block}.{setting}"
        for block, settings in BLOCK_SETTINGS.items()
        for setting in settings
        if not re.search(rf"`[^`\n]*\b{setting}\b[^`\n]*`", prose)
    ]
    assert missing == []


@pytest.mark.parametrize(
    "page", [ROOT / "README.md", *PAGES], ids=lambda p: str(p.relative_to(ROOT))
)
def test_links_between_pages_resolve_to_pages_and_headings(page: Path) -> None:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name}: {target}"
        if anchor:
            assert anchor in _anchors(linked), f"{page.name}: {target}"


def test_every_page_is_in_the_site() -> None:
    """Each page is reached from the contents (a toctree), so none is left out of the site."""
    listed: set[Path] = {DOCS / "index.md"}
    for page in PAGES:
        for block in _fences(page.read_text(encoding="utf-8"), r"\{rst\}"):
            for name in re.findall(r"^   ([\w/-]+)$", block, re.M):
                listed.add((page.parent / f"{name}.md").resolve())
    assert set(PAGES) - listed == set()


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_page_converts_for_the_site(page: Path) -> None:
    """The Markdown front end accepts every page (the CI's Sphinx build checks the rest)."""
    name = str(page.relative_to(DOCS).with_suffix(""))
    rst = markdown_pages.Converter(name, set()).convert(page.read_text(encoding="utf-8"))
    assert rst.strip()


def test_the_markdown_front_end_keeps_literals_and_links() -> None:
    text = "# A title\n\nWrite `card_is(QS)`s and *this* [page](other.md#a-b) or [x](../y.rules).\n"
    rst = markdown_pages.Converter("dir/here", set()).convert(text)
    assert ".. _dir/here#a-title:" in rst
    assert "``card_is(QS)``\\ s" in rst
    assert ":ref:`page <dir/other#a-b>`" in rst
    assert "``docs/y.rules``" in rst
    with pytest.raises(ValueError, match="HTML"):
        markdown_pages.Converter("p", set()).convert("<div>no</div>\n")


def test_the_readme_is_short_and_leads_to_the_language_reference() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.split("\n")) < 250
    first_screen = "\n".join(readme.split("\n")[:25])
    assert "(docs/language.md)" in first_screen


def test_the_readme_test_command_is_the_ci_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().split("\n")[-1]
    assert ci in readme
    assert ci in (DOCS / "development.md").read_text(encoding="utf-8")
    assert "sphinx -W" in ci


@pytest.mark.parametrize(
    "page", [ROOT / "README.md", DOCS / "index.md"], ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_front_pages_python_runs(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The short examples on the README and the site's front page play a whole match."""
    monkeypatch.chdir(tmp_path)
    (code,) = _fences(page.read_text(encoding="utf-8"), "python")
    namespace: dict[str, object] = {}
    exec(compile(code, str(page), "exec"), namespace)  # our own documentation's code
    match = namespace["m"]
    assert isinstance(match, trickcore.Match) and match.is_over


@pytest.mark.parametrize(
    "page", [ROOT / "README.md", DOCS / "index.md"], ids=lambda p: str(p.relative_to(ROOT))
)
def test_the_front_pages_house_rule_compiles(page: Path) -> None:
    (text,) = _fences(page.read_text(encoding="utf-8"), "rules")
    variant = trickcore.variant_from_text(text, "front-page-house-rule")
    assert variant.model.match.target == 10  # X50
    assert trickcore.load_variant("sixty-six").model.match.target == 7  # X39


# the module each optional package is imported as (a package new in an extra is added here)
_IMPORTED_AS = {
    "hypothesis": "hypothesis",
    "matplotlib": "matplotlib",
    "numpy": "numpy",
    "open-spiel": "pyspiel",
    "pettingzoo": "pettingzoo",
    "gymnasium": "gymnasium",
    "starlette": "starlette",
    "uvicorn": "uvicorn",
    "python-multipart": "multipart",
    "cryptography": "cryptography",
    "dask[distributed]": "dask",
}
_BLOCKER = """
import importlib, importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(name + " is not installed by the docs extra")
sys.meta_path.insert(0, Block())
for m in MODULES:
    importlib.import_module(m)
"""


def test_the_docs_extra_is_enough_for_the_api_pages() -> None:
    """README's manual command installs the core and the `docs` extra alone: every module the
    API page documents imports without the packages only the other extras install."""
    import subprocess

    tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]

    def name(requirement: str) -> str:
        return re.split(r"[<>=!~ ]", requirement, maxsplit=1)[0]

    installed = {name(r) for r in (*project["dependencies"], *extras["docs"])}
    others = {name(r) for e, rs in extras.items() if e not in ("all", "dev", "docs") for r in rs}
    assert others <= _IMPORTED_AS.keys()
    blocked = sorted(_IMPORTED_AS[p] for p in others - installed)
    assert "pyspiel" in blocked
    targets = re.findall(r"^\.\. (auto\w+):: ([\w.]+)", (DOCS / "api.md").read_text(), re.M)
    modules = sorted({t if kind == "automodule" else t.rsplit(".", 1)[0] for kind, t in targets})
    assert "trickcore.batch" in modules
    script = f"BLOCKED = {blocked!r}\nMODULES = {modules!r}\n{_BLOCKER}"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
