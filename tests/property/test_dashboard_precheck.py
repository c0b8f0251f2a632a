"""The dashboard pre-check (``maybe_dashboard``, ``dashboard_fences``) finds what the
plain statement of its rule finds: a fence of a base or a Dataview query, an inline
`` `= expr` ``, a ``.base`` file named.  The page's version is written for speed
(substring searches first, fences found by ``str.find``)."""

from __future__ import annotations

import re

from beliefbase.codecs.grammar import FENCE_RUN
from beliefbase.site.markdown.query_embeds import dashboard_fences, maybe_dashboard
from hypothesis import given, settings
from hypothesis import strategies as st

_PLAIN_FENCE = re.compile(r"^[ \t>*+\-\d.)]*" + FENCE_RUN + r"[ \t]*(?P<kind>base|dataview)"
                          r"(?P<js>js)?", re.MULTILINE | re.IGNORECASE)
_PLAIN_OTHER = re.compile(r"`[ \t]*\$?=|\.(?:base|Base|BASE)\b")

PIECES = st.sampled_from(["```", "~~~", "````", " ", "\t", "base", "Dataview", "dataviewjs",
                          "BASE", "\n", "> ", "- ", "1. ", "a", "`= x`", "`$= y`", "x.base",
                          "X.Base", "=", "`", "~"])
texts = st.lists(PIECES, max_size=14).map("".join)


@settings(max_examples=500, deadline=None)
@given(texts)
def test_the_pre_check_finds_what_the_plain_rule_finds(text: str) -> None:
    assert maybe_dashboard(text) == bool(_PLAIN_FENCE.search(text) or _PLAIN_OTHER.search(text))
    def found(matches: object) -> list[tuple[int, str, str | None]]:
        return sorted((m.start("kind"), m["kind"], m["js"]) for m in matches)  # type: ignore[attr-defined]

    assert found(dashboard_fences(text)) == found(_PLAIN_FENCE.finditer(text))
