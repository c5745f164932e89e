"""Markdown pages for Sphinx: each `.md` page is turned into reStructuredText and parsed as such.

The pages are written in the Markdown that GitHub shows (headings, paragraphs, lists,
fenced code, tables, quotes, links, images), so the README, the rules reference and the
manual read the same in the repository and on the site. A page's links to other pages
(`language.md#expressions`) become Sphinx cross-references, so a link to a page or heading
that does not exist is a warning (an error with `-W`); a link to a file outside `docs/`
(`../variants/tysiacha.rules`) is shown as its path. A fence tagged `{rst}` is passed
through as reStructuredText (the API reference's `automodule` directives). Every heading
gets the label `<page>#<slug>`, the anchor GitHub gives it.

(myst-parser would do this job, but it is not available on the machines this project is
built on; the subset here is the one the pages use, and the build fails on anything else.)
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from docutils import nodes
from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from sphinx.application import Sphinx
from sphinx.parsers import RSTParser

HEADING_MARKS = "=-~^\"'"
FENCE_LANGUAGES = {
    "": "text",
    "text": "text",
    "console": "console",
    "shell": "console",
    "bash": "bash",
    "python": "python",
    "pycon": "pycon",
    "json": "json",
    "toml": "toml",
    "rules": "rules",
    "html": "html",
    "ini": "ini",
    "yaml": "yaml",
}
# characters that may stand right before / after inline markup without an escaped space
BEFORE_OK = " \n\t'\"([{<-/:‘“’«¡¿"
AFTER_OK = " \n\t'\")]}>-/:.,;!?\\’”»"


def slug(text: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as '-'."""
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def label(docname: str, anchor: str) -> str:
    """The Sphinx label of a heading of a page."""
    return f"{docname}#{anchor}"


def escape(text: str) -> str:
    """Plain text as reStructuredText that shows exactly that text."""
    return re.sub(r"([\\`*_|\[\]<>])", r"\\\1", text)


class Converter:
    """Markdown text of one page -> reStructuredText text."""

    def __init__(self, docname: str, known_docs: set[str]) -> None:
        self.docname = docname
        self.known_docs = known_docs
        self.slugs: dict[str, int] = {}
        self.md = MarkdownIt("commonmark").enable("table")

    # ---------------------------------------------------------------- blocks
    def convert(self, text: str) -> str:
        """The whole page."""
        tree = SyntaxTreeNode(self.md.parse(text))
        return "\n".join(self.blocks(tree.children)).rstrip() + "\n"

    def blocks(self, children: list[SyntaxTreeNode]) -> list[str]:
        out: list[str] = []
        for node in children:
            out.extend(self.block(node))
            out.append("")
        return out

    def block(self, node: SyntaxTreeNode) -> list[str]:
        kind = node.type
        if kind == "heading":
            return self.heading(node)
        if kind == "paragraph":
            only = node.children[0].children if node.children else []
            if len(only) == 1 and only[0].type == "image":
                return self.image(only[0])
            return self.inline(node.children[0]).split("\n")
        if kind in ("bullet_list", "ordered_list"):
            return self.listing(node)
        if kind == "fence":
            return self.fence(node)
        if kind == "code_block":
            return ["::", ""] + ["   " + line for line in node.content.rstrip("\n").split("\n")]
        if kind == "blockquote":
            inner = self.blocks(node.children)
            return ["..", ""] if not inner else [("   " + s if s else "") for s in inner]
        if kind == "table":
            return self.table(node)
        if kind == "hr":
            return ["----"]
        if kind == "html_block":
            raise ValueError(f"{self.docname}: HTML is not allowed in a page: {node.content!r}")
        raise ValueError(f"{self.docname}: Markdown block '{kind}' is not supported")

    def heading(self, node: SyntaxTreeNode) -> list[str]:
        level = int(node.tag[1])
        title = self.inline(node.children[0])
        anchor = slug(plain(node.children[0]))
        n = self.slugs.get(anchor, 0)
        self.slugs[anchor] = n + 1
        if n:
            anchor = f"{anchor}-{n}"
        mark = HEADING_MARKS[level - 1]
        return [f".. _{label(self.docname, anchor)}:", "", title, mark * max(4, len(title) + 2)]

    def image(self, node: SyntaxTreeNode) -> list[str]:
        src = str(node.attrs["src"])
        alt = plain(node)
        return [f".. image:: {src}", f"   :alt: {alt}"]

    def fence(self, node: SyntaxTreeNode) -> list[str]:
        info = node.info.strip()
        body = node.content.rstrip("\n").split("\n")
        if info == "{rst}":
            return body
        language = FENCE_LANGUAGES.get(info.split()[0] if info else "")
        if language is None:
            raise ValueError(f"{self.docname}: unknown code language {info!r}")
        return [f".. code-block:: {language}", ""] + [("   " + s if s else "") for s in body]

    def listing(self, node: SyntaxTreeNode) -> list[str]:
        out: list[str] = []
        start = int(node.attrs.get("start", 1) or 1)
        for i, item in enumerate(node.children):
            marker = f"{start + i}. " if node.type == "ordered_list" else "- "
            inner = self.blocks(item.children)
            while inner and not inner[-1]:
                inner.pop()
            pad = " " * len(marker)
            for j, line in enumerate(inner or [""]):
                out.append((marker if j == 0 else pad if line else "") + line)
            if any(not line for line in inner):
                out.append("")
        return out

    def table(self, node: SyntaxTreeNode) -> list[str]:
        rows: list[list[str]] = []
        for section in node.children:  # thead, tbody
            for row in section.children:
                rows.append(
                    [
                        self.inline(cell.children[0]) if cell.children else ""
                        for cell in row.children
                    ]
                )
        out = [".. list-table::", "   :header-rows: 1", ""]
        for row in rows:
            for j, cell in enumerate(row):
                text = cell.replace("\n", " ") or "\\ "
                out.append(("   * - " if j == 0 else "     - ") + text)
        return out

    # ---------------------------------------------------------------- inline
    def inline(self, node: SyntaxTreeNode) -> str:
        """A run of inline Markdown as reStructuredText."""
        pieces: list[tuple[str, bool]] = []  # (text, is markup)
        self.inlines(node.children, pieces)
        out = ""
        for k, (text, markup) in enumerate(pieces):
            if markup:
                if out and out[-1] not in BEFORE_OK:
                    out += "\\ "
                out += text
                following = next((t for t, _ in pieces[k + 1 :] if t), "")
                if following and following[0] not in AFTER_OK:
                    out += "\\ "
            else:
                out += text
        return out

    def inlines(self, children: list[SyntaxTreeNode], pieces: list[tuple[str, bool]]) -> None:
        for child in children:
            kind = child.type
            if kind == "text":
                pieces.append((escape(child.content), False))
            elif kind in ("softbreak", "hardbreak"):
                pieces.append(("\n", False))
            elif kind == "code_inline":
                pieces.append((literal(child.content), True))
            elif kind == "strong":
                pieces.append((f"**{escape(plain(child))}**", True))
            elif kind == "em":
                pieces.append((f"*{escape(plain(child))}*", True))
            elif kind == "link":
                pieces.append((self.link(child), True))
            elif kind == "image":
                raise ValueError(f"{self.docname}: an image must stand alone in its paragraph")
            elif kind == "html_inline":
                raise ValueError(
                    f"{self.docname}: HTML is not allowed in a page: {child.content!r}"
                )
            else:
                raise ValueError(f"{self.docname}: Markdown inline '{kind}' is not supported")

    def link(self, node: SyntaxTreeNode) -> str:
        href = str(node.attrs["href"])
        text = plain(node)
        title = re.sub(r"([<>`\\])", r"\\\1", text)
        if re.match(r"^[a-z]+:", href):
            return f"`{title} <{href}>`__"
        path, _, anchor = href.partition("#")
        here = posixpath.dirname(self.docname)
        if not path:
            return f":ref:`{title} <{label(self.docname, anchor)}>`"
        target = posixpath.normpath(posixpath.join(here, path))
        if target.endswith(".md") and not target.startswith(".."):
            doc = target[:-3]
            if anchor:
                return f":ref:`{title} <{label(doc, anchor)}>`"
            return f":doc:`{title} </{doc}>`"
        # a file outside the manual: its path in the project
        return literal(posixpath.normpath(posixpath.join("docs", here, path)))


def literal(text: str) -> str:
    """Inline code; `` cannot hold text with surrounding spaces or two backquotes, say so."""
    if "``" in text:
        raise ValueError(f"inline code with two backquotes: {text!r}")
    return f"``{text}``" if text.strip() == text else f":literal:`{escape(text)}`"


def plain(node: SyntaxTreeNode) -> str:
    """The text of an inline node, markup left out."""
    if node.type in ("text", "code_inline"):
        return node.content
    if node.type in ("softbreak", "hardbreak"):
        return " "
    return "".join(plain(child) for child in node.children)


class MarkdownParser(RSTParser):
    """A Sphinx source parser for `.md` pages (through reStructuredText)."""

    supported = ("markdown", "md")

    def parse(self, inputstring: Any, document: nodes.document) -> None:
        env = document.settings.env
        text = inputstring if isinstance(inputstring, str) else "\n".join(inputstring)
        rst = Converter(env.docname, set(env.found_docs)).convert(text)
        super().parse(rst, document)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the Markdown pages and the rules-file highlighter."""
    from rules_lexer import RulesLexer

    app.add_source_suffix(".md", "markdown")
    app.add_source_parser(MarkdownParser)
    app.add_lexer("rules", RulesLexer)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
