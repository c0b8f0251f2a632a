"""Entities on the built site: overlay, entity pages, graph, options, --dirty."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import markdown
from beliefbase.codecs.entity_syntax import render_text, tag_text
from beliefbase.entities.index import build_index, note_of
from beliefbase.site.markdown.entity_overlay import EntityOverlay, EntityOverlayExtension
from beliefbase.site.templates import Templates
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import Project, differing


def vault(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nThe dragon #Smaug:CREATURE sleeps under "
                  "#[Lonely Mountain]:PLACE. Cory:ALIAS_OF_CORY_GILFORD:PERSON reads.\n")
    project.write("notes/b.md", "# B\n\nSmaug woke. *Lonely Mountain* is far; Cory went. "
                  "Boromir:REJECT_ENTITY stays. `Smaug` [[index|Smaug]].\n")


def mentions(html: str) -> list[tuple[str, str, str]]:
    return re.findall(r'<a class="bb-entity bb-entity--(\w+)" href="([^"]*)"[^>]*>([^<]*)</a>',
                      html)


def test_overlay_pages_and_graph(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build(strict=True)
    assert result.error is None, result.lines
    home = result.article("")
    assert mentions(home) == [("manual", "entities/smaug/", "Smaug"),
                              ("manual", "entities/lonely-mountain/", "Lonely Mountain"),
                              ("manual", "entities/cory-gilford/", "Cory")]
    assert not re.search(r"#Smaug|:CREATURE|ALIAS_OF|#\[", home)
    b = result.article("notes/b/")
    assert mentions(b) == [("auto", "../../entities/smaug/", "Smaug"),
                           ("auto", "../../entities/lonely-mountain/", "Lonely Mountain"),
                           ("auto", "../../entities/cory-gilford/", "Cory")]
    assert "Boromir stays" in b and "REJECT" not in b and "<code>Smaug</code>" in b
    index = result.article("entities/")
    assert "CREATURE" in index and 'href="smaug/"' in index
    page = result.article("entities/cory-gilford/")
    assert "Cory Gilford" in page and "PERSON" in page and "Aliases" in page
    assert "bb-entity-page__mark--auto" in page and "Cory went." in page
    graph = json.loads((result.site / "_beliefbase/graph.json").read_text())
    entities = {n["title"]: n for n in graph["nodes"] if n["kind"] == "Entity"}
    assert sorted(entities) == ["Cory Gilford", "Lonely Mountain", "Smaug"]
    assert entities["Smaug"]["schema"] == "CREATURE"
    assert entities["Smaug"]["url"] == "entities/smaug/"
    assert sum(e["type"] == "mentions" for e in graph["edges"]) == 6
    view = json.loads((result.site / "_beliefbase/graph-view.json").read_text())
    assert "mentions" in view["types"]
    assert any(n.get("kind") == "Entity" for n in view["nodes"])


def test_snippets_and_previews_show_names_only(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nThe dragon #Smaug:CREATURE sleeps near [[B]] "
                  "with Cory:ALIAS_OF_CORY_GILFORD:PERSON.\n")
    project.write("B.md", "# B\n\nHello.\n")
    result = project.build()
    assert "The dragon Smaug sleeps near B with Cory." in result.article("B/")
    previews = (result.site / "_beliefbase/previews.json").read_text()
    assert "The dragon Smaug sleeps near B with Cory." in previews
    assert ":CREATURE" not in previews and "ALIAS_OF" not in previews


def test_embedded_notes_are_overlaid_too(project) -> None:  # type: ignore[no-untyped-def]
    project.write("sub/A.md", "# A\n\n![[B]]\n")
    project.write("B.md", "# B\n\nThe #Smaug:CREATURE sleeps. Boromir:REJECT_ENTITY\n")
    result = project.build()
    a = result.article("sub/A/")
    assert mentions(a) == [("manual", "../../entities/smaug/", "Smaug")]
    assert ":CREATURE" not in a and "REJECT_ENTITY" not in a and "Boromir" in a


def test_unicode_and_hostile_names(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\n#東京:PLACE, #Éowyn:PERSON and "
                  "#[a < b & \"c\"]:THING.\n")
    project.write("b.md", "# B\n\n東京 is far from Éowyn.\n")
    result = project.build(strict=True)
    assert result.error is None, result.lines
    home = result.article("")
    assert ">a &lt; b &amp; &#34;c&#34;</a>" in home and ":THING" not in home
    assert [m[2] for m in mentions(result.article("b/"))] == ["東京", "Éowyn"]
    assert (result.site / "entities/東京/index.html").exists()
    assert "Éowyn" in result.article("entities/éowyn/")


def test_type_conflict_is_reported(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "# A\n\n#Gondor:PLACE\n")
    project.write("b.md", "# B\n\nIt is #Gondor:PERSON.\n")
    result = project.build()
    lines = [x for x in result.lines if ": entity-type-conflict: " in x]
    assert len(lines) == 1 and "docs/b.md:3:8" in lines[0] and "docs/a.md:3:2" in lines[0]


def test_auto_entities_false_keeps_manual_only(project) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    result = project.build(plugins=["search", {"beliefbase": {"auto_entities": False}}])
    assert result.error is None
    assert mentions(result.article("notes/b/")) == []
    assert len(mentions(result.article(""))) == 3


def test_no_entities_no_pages(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nSmaug and #tag, time: 10:30 Note:thing.\n")
    result = project.build()
    assert not (result.site / "entities").exists()
    assert "bb-entity" not in result.article("")


def test_dirty_rebuild_follows_new_and_gone_entities(project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "# A\n\nSmaug sleeps.\n")
    project.write("b.md", "# B\n\nNothing here.\n")
    assert project.build(dirty=True).error is None
    project.write("b.md", "# B\n\nNothing here but #Smaug:CREATURE.\n")
    result = project.build(dirty=True)
    assert mentions(result.article("a/")) == [("auto", "../entities/smaug/", "Smaug")]
    _same_as_clean(project, tmp_path, "one")
    project.write("b.md", "# B\n\nNothing here.\n")
    result = project.build(dirty=True)
    assert mentions(result.article("a/")) == []
    assert not (result.site / "entities/smaug/index.html").exists()
    _same_as_clean(project, tmp_path, "two")


def _same_as_clean(project, tmp_path, name: str) -> None:  # type: ignore[no-untyped-def]
    import shutil

    clean = tmp_path / f"clean-{name}"
    shutil.copytree(project.root, clean, ignore=shutil.ignore_patterns("site", ".beliefbase"))
    from tests.conftest import Project

    other = Project(clean, dict(project.config)).build()
    assert other.error is None
    diff = [p for p in differing(project.root / "site", clean / "site")
            if p.endswith(".html") and not p.startswith(("search", "404"))]
    assert diff == []


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def visible(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join("".join(parser.parts).split())


_NAMES = st.sampled_from(["Smaug", "Mount Doom", "Cory", "Éowyn", "Bilbo's", "Gondor"])
_WORDS = st.sampled_from(["the", "dragon", "Smaug", "Cory", "sat", "Gondor", "Mount Doom"])
_PIECE = st.one_of(
    _WORDS,
    st.tuples(_NAMES, st.sampled_from(["PLACE", "PERSON"])).map(
        lambda t: tag_text("tag", t[0], t[1])),
    _NAMES.map(lambda n: tag_text("alias", n, "PERSON", "CORY_GILFORD")),
    _NAMES.map(lambda n: tag_text("reject", n)),
    st.sampled_from(["`Smaug code`", "[[Gondor]]", "[a link](x.md)", "$x$", "\\#Smaug:X",
                     "https://x.org/#Smaug:PLACE"]),
)
_WRAP = st.sampled_from(["{}", "*{}*", "**{}**", "_{}_", "({})", "{},", "{}.", "\"{}\""])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_PIECE, _WRAP), min_size=1, max_size=12),
       st.sampled_from(["", "- ", "> ", "| a | b |\n|---|---|\n| "]))
def test_visible_text_is_the_render_text(pieces: list[tuple[str, str]], lead: str) -> None:
    """The page's text (HTML stripped, whitespace normalised) is the text the same
    Markdown gives with only the entity wrappers removed: nothing leaks, nothing
    is added, no space lost or doubled."""
    source = lead + " ".join(wrap.format(piece) for piece, wrap in pieces)
    if lead.startswith("|"):
        source += " | x |"
    index, _ = build_index([note_of("a.md", "#Smaug:PLACE #[Mount Doom]:PLACE #Cory:PERSON\n"),
                            note_of("b.md", source)])
    ext = EntityOverlayExtension(EntityOverlay(index, Templates(),
                                               lambda slug: f"entities/{slug}/", _PageB()))
    shown = markdown.Markdown(extensions=[ext, "tables"]).convert(source)
    plain = markdown.Markdown(extensions=["tables"]).convert(render_text(source))
    assert visible(shown) == visible(plain)
    leftovers = visible(shown).replace("https://x.org/#Smaug:PLACE", "")  # URLs stay
    for piece, _wrap in pieces:
        if piece.endswith(("REJECT_ENTITY", ":PERSON", ":PLACE")) and not piece.startswith(
                ("\\", "http")):
            assert piece not in leftovers


def test_a_note_tags_at_most_100_entities(project: Project) -> None:
    """A pasted list of 150 entity tags: 100 entities get pages, the rest stay text
    as written (like the tags after a note's 100th), and one info line says so."""
    names = [f"Name{i:03d}" for i in range(150)]
    project.write("list.md", "# List\n\n" + " ".join(f"#{n}:THING" for n in names) + "\n")
    result = project.build()
    assert result.error is None
    found = json.loads((result.site / "_beliefbase" / "diagnostics.json").read_text())
    assert [d["code"] for d in found["diagnostics"]] == ["too-many-entities"]
    pages = {p.name for p in (result.site / "entities").iterdir() if p.is_dir()}
    assert len(pages) == 100 and "name099" in pages and "name100" not in pages
    text = re.sub(r"<[^>]+>", "", result.article("list/"))
    assert "Name099 #Name100:THING" in text and "#Name099" not in text


class _PageB:
    """The page ``b/`` is being rendered, from Markdown that is no note's own."""

    def page_url(self) -> str | None:
        return "b/"

    def page_path(self) -> None:
        return None
