"""The two tutorials (docs/tutorial-house-rule.md, docs/tutorial-new-game.md) do what they say.

Each page is replayed the way a newcomer follows it, in an empty folder: every ```rules fence
that starts with `# file: NAME` is saved as NAME (a later fence of the same name replaces it,
as the newcomer edits the file) and compiled; a file that does not compile must be followed by
a `trickcore check NAME` whose shown output holds its error. Every `$ trickcore ...` line of a
```console fence is run through the command line's `main`, and the lines the page shows (minus
"..." and what changes from run to run: timings, where trickcore is installed) must appear in
its output, in order. A ```rules fence without `# file:` is a piece of a file: of one the
page saves, or of the shipped variant it quotes. ```python fences run, and print what their
comments say.
"""

from __future__ import annotations

import io
import re
import shlex
import sys
from pathlib import Path

import pytest

import trickcore
from trickcore.interfaces.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
HOUSE_RULE = DOCS / "tutorial-house-rule.md"
NEW_GAME = DOCS / "tutorial-new-game.md"
PAGES = [HOUSE_RULE, NEW_GAME]
# the fences of each page that are saved broken on purpose, to show the message
FAILING = {HOUSE_RULE.name: 2, NEW_GAME.name: 0}
# commands quick enough to run here (verify with a smaller budget: see `_argv`)
RUN = {"check", "show", "verify", "compare", "simulate", "arena", "play"}

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
FILE_LINE = re.compile(r"# file: (\S+)\n")
BOX = re.compile(r"[│╭╮╰╯─]")


def _fences(page: Path) -> list[tuple[str, str]]:
    return FENCE.findall(page.read_text(encoding="utf-8"))


def _file_name(body: str) -> str | None:
    found = FILE_LINE.match(body)
    return found.group(1) if found else None


def _commands(body: str) -> list[tuple[str, list[str]]]:
    """The `$ ` lines of a console fence, each with the output lines shown under it."""
    commands: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            assert commands, f"output before any command: {line!r}"
            commands[-1][1].append(line)
    return commands


def _normal(line: str, command: str) -> str:
    """A line of output without what differs between runs and machines, and with the
    terminal's box drawn by `play` (on a terminal) or not (in a pipe) left out."""
    line = BOX.sub(" ", line)
    line = re.sub(r"(?:[^\s:]*/)?variants/", "variants/", line)  # where trickcore lives
    line = re.sub(r", [0-9.]+ s$", "", line.rstrip())  # compare: the time taken
    line = re.sub(r" in \d+ random runs ", " in N random runs ", line)  # verify: see _argv
    if command == "arena":  # decision times, in ms
        line = re.sub(r"\s+[0-9.]+\s+[0-9.]+$", "", line)
    return " ".join(line.split())


def _argv(command_line: str) -> list[str]:
    words = shlex.split(command_line)
    assert words[0] == "trickcore", command_line
    assert words[1] in RUN, f"the test does not run `{command_line}`: add it to RUN if cheap"
    if words[1] == "verify" and "--examples" not in words:
        words += ["--examples", "10", "--jobs", "1"]  # the page shows the default 200
    return words[1:]


def _run(
    argv: list[str],
    typed: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{t}\n" for t in typed)))
    capsys.readouterr()
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out + err


def _assert_shown(shown: list[str], printed: str, command: str) -> None:
    """Every line the page shows is printed, in the page's order."""
    text = " ".join(_normal(line, command) for line in printed.splitlines())
    at = 0
    for line in shown:
        want = _normal(re.sub(r"^your move: .*", "your move:", line), command)  # typed
        if not want or want == "...":
            continue
        found = text.find(want, at)
        assert found >= 0, f"`{command}` does not print {want!r}:\n{printed}"
        at = found + len(want)


def _contains_lines(piece: str, whole: str) -> bool:
    def lines(text: str) -> str:
        return "\n".join(" ".join(line.split()) for line in text.strip().splitlines())

    return lines(piece) in lines(whole)


def _shipped(text: str) -> str:
    """The text of the shipped variant a file extends by name."""
    name = re.search(r'^extends "([\w-]+)"', text, re.M)
    assert name is not None, "a piece of a file must come from the page or a shipped variant"
    return (ROOT / "variants" / f"{name.group(1)}.rules").read_text(encoding="utf-8")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_tutorial_runs_as_shown(
    page: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    fences = _fences(page)
    files = [body for language, body in fences if language == "rules" and _file_name(body)]
    assert files, "the page saves no rules file"
    broken: dict[str, trickcore.RulesError] = {}  # saved files that do not compile yet
    failing = ran = 0
    for language, body in fences:
        assert language in ("rules", "console", "python"), language
        if language == "rules":
            assert not broken, f"a broken file with no `trickcore check` showing why: {broken}"
            name = _file_name(body)
            if name is None:
                assert any(_contains_lines(body, f) for f in files) or _contains_lines(
                    body, _shipped(files[0])
                ), f"this piece is in no file:\n{body}"
                continue
            (tmp_path / name).write_text(body, encoding="utf-8")
            broken.pop(name, None)
            try:
                trickcore.load_variant(Path(name))  # as `check NAME` shows it
            except trickcore.RulesError as exc:
                broken[name] = exc
                failing += 1
        elif language == "console":
            for command_line, shown in _commands(body):
                argv = _argv(command_line)
                typed = [line.split(": ", 1)[1] for line in shown if line.startswith("your move: ")]
                code, printed = _run(argv, typed, capsys, monkeypatch)
                ran += 1
                if argv[0] == "check" and argv[1] in broken:
                    error = "error: " + str(broken.pop(argv[1])).splitlines()[0]
                    assert any(_normal(error, "check") == _normal(s, "check") for s in shown), (
                        f"the page does not show the error of {argv[1]}: {error}"
                    )
                    assert code == 1
                else:
                    assert code == 0, printed
                _assert_shown(shown, printed, argv[0])
        else:
            namespace: dict[str, object] = {}
            exec(compile(body, str(page), "exec"), namespace)  # our own documentation's code
            printed = capsys.readouterr().out
            for said in re.findall(r"^print\(.*\)  # (.+)$", body, re.M):
                assert said in printed
    assert not broken, f"a broken file with no `trickcore check` showing why: {broken}"
    assert failing == FAILING[page.name]
    assert ran >= 5


def test_the_new_game_page_quotes_the_messages_of_two_things_left_out() -> None:
    """The page names what `check` says without `deal_limit`, and without `after_deal`."""
    page = " ".join(NEW_GAME.read_text(encoding="utf-8").split())
    (game,) = [body for language, body in _fences(NEW_GAME) if _file_name(body)]
    without_limit = game.replace("  deal_limit: 100\n", "")
    without_after_deal = game[: game.index("after_deal {")]
    for text in (without_limit, without_after_deal):
        assert text != game
        with pytest.raises(trickcore.RulesError) as info:
            trickcore.variant_from_text(text, "draw-whist")
        assert f"`{info.value.message}`" in page


@pytest.mark.parametrize(
    "page, rules",
    [(HOUSE_RULE, {"X": "sixty-six"}), (NEW_GAME, {"X": "sixty-six", "W": "whist"})],
    ids=[HOUSE_RULE.name, NEW_GAME.name],
)
def test_the_rule_numbers_cited_are_those_of_the_rules_pages(
    page: Path, rules: dict[str, str]
) -> None:
    text = page.read_text(encoding="utf-8")
    cited = set(re.findall(r"\b([XW])(\d+)\b", text))
    assert cited
    for letter, number in cited:
        reference = (DOCS / "rules" / f"{rules[letter]}.md").read_text(encoding="utf-8")
        assert f"**{letter}{number}.**" in reference, f"{letter}{number}"
