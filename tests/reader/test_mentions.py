"""Unlinked mentions: what counts as a mention, and the cache across rebuilds."""

from __future__ import annotations

from typing import Any

import pytest
from beliefbase.codecs.snippet import sentence
from beliefbase.site.previews import excerpt, first_paragraph
from beliefbase.site.reader import mentions as m

from tests.conftest import BuildResult


class _Doc:
    def __init__(self, path: str, title: str, aliases: tuple[str, ...] = ()) -> None:
        self.path, self.title, self.aliases, self.url = path, title, aliases, path


def _names(*docs: _Doc) -> m.MentionNames:
    return m.MentionNames(docs)  # type: ignore[arg-type]


NAMES = _names(_Doc("a.md", "Link resolution", ("Resolver",)), _Doc("b.md", "graph.json"),
               _Doc("c.md", "Go"), _Doc("d.md", "Asynchronous Report Export", ("ARE",)))


@pytest.mark.parametrize("body,found", [
    ("How link resolution works.", ["link resolution"]),
    ("How LINK\n  Resolution works.", ["link resolution"]),  # case, line break
    ("The resolver runs first.", ["resolver"]),  # alias
    ("Read graph.json first.", ["graph.json"]),
    ("Read graph json first.", []),  # separators must match
    ("No linkresolution here, nor resolvers.", []),  # whole words only
    ("See [[Link resolution]] and [link resolution](a.md).", []),  # inside links
    ("Run `link resolution` or\n\n```\nlink resolution\n```\n", []),  # code
    ("## Link resolution\n\nText.", []),  # headings
    ("Setext\nlink resolution\n---\n", []),
    ("Go is too short to look for.", []),
    ("Link [[x]] resolution", []),  # a link between the words breaks the name
    ("#resolver is a tag.", []),
    ("We are here.", []),  # an acronym alias matches in capitals only
    ("The ARE job.", ["are"]),
    ("Results: {{query:Link resolution | view:list}} here.", []),  # a query embed's id
])
def test_what_counts_as_a_mention(body: str, found: list[str]) -> None:
    assert [name for name, _ in m.scan(body, NAMES)] == found


def test_sentence_and_snippet() -> None:
    body = "# T\n\nFirst sentence. Then link resolution is named here! Last one.\n\n- an item\n"
    offset = m.scan(body, NAMES)[0][1]
    assert sentence(body, offset) == "Then link resolution is named here!"
    target = _Doc("a.md", "Link resolution")
    snip = m.snippet(body, offset, target, lambda t, f, d: d or t)  # type: ignore[arg-type]
    assert (snip.before, snip.match, snip.after) == ("Then ", "link resolution",
                                                     " is named here!")


def test_a_mention_in_a_table_shows_its_cell() -> None:
    body = "| option | meaning |\n|---|---|\n| `x` | how link resolution ends |\n"
    offset = m.scan(body, NAMES)[0][1]
    assert sentence(body, offset) == "how link resolution ends"


def test_first_paragraph_skips_headings_code_tables_and_html() -> None:
    body = ("# Title\n\n```\ncode\n```\n\n| a | b |\n|---|---|\n\n<div>x</div>\n\n"
            "!!! note\n    aside\n\n## Sub\nThe **first** prose, with [[Target|a link]]. ^b1\n")
    para = first_paragraph(body)
    assert para == "The **first** prose, with [[Target|a link]]. ^b1"
    assert excerpt(para, lambda t, f, d: d or t) == "The first prose, with a link."
    long = "word " * 100
    cut = excerpt(long, lambda t, f, d: d or t)
    assert len(cut) <= 241 and cut.endswith("…")


def test_an_excerpt_reads_only_the_start_of_a_huge_paragraph() -> None:
    # thousands of unclosed backticks made the code-span pattern quadratic (minutes)
    from beliefbase.site.previews import SOURCE_MAX

    huge = "Start " + "".join("`" * i + " " for i in range(1, 3000))
    shown = excerpt(huge, lambda t, f, d: d or t)
    assert shown.startswith("Start `") and shown.endswith("…")
    assert excerpt(huge, lambda t, f, d: d or t) == excerpt(
        huge[: huge.rfind(" ", 0, SOURCE_MAX)], lambda t, f, d: d or t)


def test_mentions_in_the_built_site(built: BuildResult) -> None:
    gamma = built.article("notes/gamma/")
    assert "Unlinked mentions <span class=\"bb-count\">1</span>" in gamma
    assert "builds on the <mark class=\"bb-mentions__name\">Gamma</mark> note" in gamma
    alpha = built.article("notes/alpha/")
    # Beta names Alpha by its alias "first letter"; Gamma and Hostile link to Alpha.
    assert "<mark class=\"bb-mentions__name\">first letter</mark>" in alpha
    # Drafts never mention anything.
    assert "Secret" not in alpha


def _count_scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts ``scan_prose`` is called on from now on."""
    scanned: list[str] = []
    real_scan = m.scan_prose

    def counting(text: str, *args: Any) -> Any:
        scanned.append(text)
        return real_scan(text, *args)

    monkeypatch.setattr(m, "scan_prose", counting)
    return scanned


def test_rebuild_rescans_only_changed_notes(kb: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """MkDocs keeps the plugin instance (it has ``on_startup``), and with it the cache."""
    scanned = _count_scans(monkeypatch)
    kb.build(serve=True)
    scanned.clear()
    kb.build(serve=True)
    assert scanned == [], "nothing changed: nothing is scanned again"
    beta = kb.docs / "notes/beta.md"
    kb.write("notes/beta.md", beta.read_text(encoding="utf-8") + "\nMore text.\n", dedent=False)
    result = kb.build(serve=True)
    assert len(scanned) == 1 and "More text." in scanned[0]
    assert "builds on the <mark class=\"bb-mentions__name\">Gamma</mark>" in result.article(
        "notes/gamma/")


def test_rename_scans_only_notes_that_can_contain_the_new_name(
    kb: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    kb.build(serve=True)
    scanned = _count_scans(monkeypatch)
    beta = kb.docs / "notes/beta.md"
    text = beta.read_text(encoding="utf-8")
    kb.write("notes/beta.md", text.replace("title: Beta", "title: Zyxwvut Beta", 1), dedent=False)
    kb.build(serve=True)
    # the edited note itself is scanned; no other note contains "zyxwvut"
    assert len(scanned) == 1


def test_a_much_mentioned_page_shows_the_first_sources_and_counts_the_rest(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:

    project.write("target.md", "# Target Note\n\nThe target.\n", dedent=False)
    for i in range(30):
        project.write(f"s{i:02}.md", f"# Source {i:02}\n\nSource {i:02} is about the Target "
                      f"Note, again.\n", dedent=False)
    sentences: list[int] = []
    real_snippet = m.snippet
    monkeypatch.setattr(m, "snippet", lambda *a: sentences.append(1) or real_snippet(*a))
    result = project.build()
    assert result.error is None
    panel = result.article("target/")
    panel = panel[panel.index('class="bb-panel bb-mentions"'):]
    assert 'Unlinked mentions <span class="bb-count">30</span>' in panel
    shown = [f"Source {i:02}" for i in range(30) if f">Source {i:02}</a>" in panel]
    assert shown == [f"Source {i:02}" for i in range(m.MENTIONS_SHOWN)]  # sorted by title
    assert f"and {30 - m.MENTIONS_SHOWN} more pages." in panel
    # sentences are made only for the sources shown
    assert len(sentences) == m.MENTIONS_SHOWN


def test_a_build_forgets_what_it_kept_for_a_next_build(kb: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``mkdocs build`` has no next build: every note's hits and each target's sources
    go once the mentions are found (before the panels' workers fork with them), and
    the panels are the same; ``mkdocs serve`` keeps them for its next rebuild."""
    caches: list[m.MentionCache] = []
    real = m.find_mentions

    def spying(compiled: Any, body_of: Any, cache: m.MentionCache, *args: Any,
               **kwargs: Any) -> Any:
        caches.append(cache)
        return real(compiled, body_of, cache, *args, **kwargs)

    monkeypatch.setattr(m, "find_mentions", spying)
    built = kb.build()
    assert caches and not caches[-1].notes and not caches[-1].by_target
    assert "builds on the <mark class=\"bb-mentions__name\">Gamma</mark>" in built.article(
        "notes/gamma/")
    kb.build(serve=True)
    assert caches[-1].notes and caches[-1].by_target
