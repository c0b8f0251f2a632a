"""Property: what a ``%%comment%%`` holds appears in no file of the built site.

Hypothesis writes a small vault whose notes hold comments (inline, on lines of
their own, spanning lines, unclosed, next to code) around a unique marker and
links, tags, embeds and footnotes; the marker must be in no page, no JSON
under ``_beliefbase/`` (graph, previews, mentions, search), not in
``search/search_index.json`` nor the sitemap.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import BASE_CONFIG, Project

MARKER = "qqzmarkerzz"
NAMES = ["index", "alpha", "beta"]
# What a comment may hold besides the marker: Markdown that would otherwise put
# the marker (or the comment) somewhere on the site.
INSIDE = st.sampled_from([
    "", " [[alpha]]", " ![[beta]]", " #tag", " [^1]", "\n[^1]: note\n", "\n# Heading\n",
    " *em*", "\n- item\n", " alpha beta", "\n\n", " `code`", " $x^2$", "\n> quote\n",
])
PROSE = st.sampled_from([
    "Plain words.", "See [[alpha]].", "Mention beta here.", "`%%code%%`", "#real",
    "\n```\n%% in a fence\n```\n", "\n## Part\n", "- a list item", "> a quote", "$y$",
    "Footnote[^1].\n\n[^1]: shown", "\n",
])


@st.composite
def note(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        parts.append(draw(PROSE))
        inner = MARKER + draw(INSIDE)
        style = draw(st.sampled_from(["inline", "lines", "own"]))
        if style == "inline":
            parts.append(f"%%{inner}%%")
        elif style == "lines":
            parts.append(f"\n%%\n{inner}\n%%\n")
        else:
            parts.append(f"\n%%{inner}%%\n")
    if draw(st.booleans()):
        parts.append(f"%% unclosed {MARKER} [[beta]]")
    sep = draw(st.sampled_from([" ", "\n", "\n\n"]))
    return sep.join(parts) + "\n"


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(note(), min_size=3, max_size=3))
def test_comments_leak_into_no_file_of_the_site(texts: list[str]) -> None:
    root = Path(tempfile.mkdtemp(prefix="bb-comments-"))
    try:
        project = Project(root, dict(BASE_CONFIG))
        for name, text in zip(NAMES, texts, strict=True):
            project.write(f"{name}.md", f"# {name.title()}\n\n{text}", dedent=False)
        result = project.build()
        assert result.error is None
        for path in result.site.rglob("*"):
            if path.is_file() and path.suffix in (".html", ".json", ".xml", ".txt"):
                text = path.read_text(encoding="utf-8", errors="replace")
                assert MARKER not in text, path.relative_to(result.site)
        assert MARKER not in "\n".join(result.all_lines)
    finally:
        shutil.rmtree(root, ignore_errors=True)
