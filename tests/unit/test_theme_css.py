"""The theme's style sheets parse: one unclosed rule drops every rule after it
(an unclosed ``.bb-tag-page__folder`` hid the task statuses and the recent notes)."""

from __future__ import annotations

import re

import pytest
from beliefbase.site.templates import theme_dir

_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)  # braces inside comments do not count
_STRING = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")  # nor inside strings (content: "{")


@pytest.mark.parametrize("name", sorted(p.name for p in (theme_dir() / "assets").glob("*.css")))
def test_braces_balance(name: str) -> None:
    source = (theme_dir() / "assets" / name).read_text("utf-8")
    # comments blanked with their line breaks kept, so that line numbers hold
    text = _STRING.sub("", _COMMENT.sub(lambda m: "\n" * m.group().count("\n"), source))
    opened: list[bool] = []  # for each open block: is it an at-rule (@media)?
    for line_no, line in enumerate(text.split("\n"), 1):
        for k, char in enumerate(line):
            if char == "{":
                # a rule opens only at the top or inside an at-rule: a "{" inside a
                # rule is the next rule after a missing "}"
                assert not opened or opened[-1], f"{name}:{line_no}: a rule opens inside a rule"
                opened.append(line[:k].lstrip().startswith("@"))
            elif char == "}":
                assert opened, f"{name}:{line_no}: a closing brace too many"
                opened.pop()
    assert not opened, f"{name}: an unclosed rule"
