"""A Pygments lexer for trickcore rules files (the grammar is `grammar/trickcore.lark`)."""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text


class RulesLexer(RegexLexer):
    """Highlights comments, strings, keywords, block names, settings, numbers and operators."""

    name = "trickcore rules"
    aliases = ["rules"]
    filenames = ["*.rules"]

    tokens = {
        "root": [
            (r"#[^\n]*", Comment.Single),
            (r'"[^"\n]*"', String),
            (r"\b(extends|remove|rule|before|after|if|then|else|and|or|not)\b", Keyword),
            (
                r"([A-Za-z_]\w*)(\s+[A-Za-z_]\w*)?(\s*)(\{)",
                bygroups(Name.Class, Name.Label, Text, Punctuation),
            ),
            (r"([A-Za-z_]\w*)(\s*)([+-]?:|=(?!=))", bygroups(Name.Attribute, Text, Operator)),
            (r"[0-9]+[A-Za-z]\w*", Name.Constant),  # a card whose rank is a number: 10H
            (r"[0-9]+", Number.Integer),
            (r">=|<=|==|!=|[<>+\-*]", Operator),
            (r"[(){},.]", Punctuation),
            (r"[A-Za-z_]\w*", Name),
            (r"\s+", Text),
        ]
    }
