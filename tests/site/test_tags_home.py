"""Tag pages and the home page of a vault without index.md (SPEC §9, issue 16 points 7-8)."""

from __future__ import annotations

import json
import re

from beliefbase.ids import tag_key, tag_page_src


def tagged_vault(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nStart at [[Alpha]].\n")
    project.write("Alpha.md", "---\ntags: [project/alpha, Reading]\n---\n# Alpha\n\n"
                  "Body #Project and #area/sub.\n")
    project.write("sub/Beta.md", "# Beta\n\nBeta is #project and #area/other.\n")
    project.write("sub/Gamma.md", "---\ntags: reading\n---\n# Gamma\n\nEmbeds ![[Beta]].\n")
    project.write("Secret.md", "---\ndraft: true\ntags: [secret, project]\n---\n# Secret\n\n"
                  "#project #hidden\n")


def links(html: str, cls: str = "bb-tag") -> list[tuple[str, str]]:
    """(href, text) of every ``<a class=cls>`` in ``html``."""
    return re.findall(rf'<a class="{cls}" href="([^"]*)">([^<]*)</a>', html)


def test_tag_index_and_tag_pages(project) -> None:  # type: ignore[no-untyped-def]
    tagged_vault(project)
    result = project.build()
    assert result.error is None
    index = result.article("tags/")
    # nested tags under their parent, each with its count (a/b counts for a, as in Obsidian)
    assert re.findall(r'<a class="bb-tag" href="([^"]*)">#([^<]*)</a> '
                      r'<span class="bb-tag-index__count">(\d+)</span>', index) == [
        ("area/", "area", "2"), ("area/other/", "other", "1"), ("area/sub/", "sub", "1"),
        ("project/", "Project", "2"), ("project/alpha/", "alpha", "1"),
        ("reading/", "Reading", "2")]  # a tag is named as most notes write it (ties: sorted)
    project_page = result.article("tags/project/")
    assert "<h1>#Project</h1>" in project_page
    assert re.findall(r'<li><a href="([^"]*)">([^<]*)</a>', project_page) == [
        ("../../Alpha/", "Alpha"), ("../../sub/Beta/", "Beta")]
    assert 'href="alpha/">#project/alpha</a>' in project_page  # its nested tags
    assert re.findall(r'<li><a href="([^"]*)">', result.article("tags/project/alpha/")) == [
        "../../../Alpha/"]
    # one page per tag whatever its case: "Reading" and "reading"
    assert re.findall(r'<li><a href="([^"]*)">', result.article("tags/reading/")) == [
        "../../Alpha/", "../../sub/Gamma/"]


def test_drafts_carry_no_tags(project) -> None:  # type: ignore[no-untyped-def]
    tagged_vault(project)
    result = project.build()
    assert not (result.site / "tags/secret").exists()
    assert not (result.site / "tags/hidden").exists()
    for url in ("tags/", "tags/project/"):
        assert "Secret" not in result.page(url) and "secret" not in result.article(url)
    graph = json.loads((result.site / "_beliefbase/graph.json").read_text())
    assert "#secret" not in {n["title"] for n in graph["nodes"]}


def test_body_tags_link_to_their_page(project) -> None:  # type: ignore[no-untyped-def]
    tagged_vault(project)
    result = project.build()
    body = result.article("Alpha/").split('class="bb-tags"')[1].split("</p>", 1)[1]  # after it
    assert links(body) == [("../tags/project/", "#Project"), ("../tags/area/sub/", "#area/sub")]
    # inside an embed the link is made from the host page
    gamma = result.article("sub/Gamma/")
    embed = gamma[gamma.index('class="bb-embed"'):]
    assert ("../../tags/project/", "#project") in links(embed)
    flat = project.build(use_directory_urls=False)
    assert flat.error is None
    body = (flat.site / "Alpha.html").read_text().split('class="bb-tags"')[1]
    assert ("tags/project.html", "#Project") in links(body)
    gamma = (flat.site / "sub/Gamma.html").read_text()
    assert ("../tags/area/other.html", "#area/other") in links(gamma[gamma.index("bb-embed"):])
    assert (flat.site / "tags/index.html").exists() and (flat.site / "tags/area/sub.html").exists()


def test_frontmatter_tags_show_under_the_title(project) -> None:  # type: ignore[no-untyped-def]
    tagged_vault(project)
    result = project.build()
    article = result.article("Alpha/")
    # under the title (and the line of its dates and reading time)
    row = re.search(r'</h1>(?:<p class="bb-note-meta">.*?</p>)?<p class="bb-tags">.*?</p>',
                    article)
    assert row is not None
    # the tags of its properties, as Obsidian shows them above the text; the text's
    # own tags show where they are written, once
    assert links(row.group(0)) == [("../tags/project/alpha/", "#project/alpha"),
                                   ("../tags/reading/", "#Reading")]
    assert links(article).count(("../tags/project/", "#Project")) == 1
    assert 'class="bb-tags"' not in result.article("")  # no tags, no row


def test_a_line_of_tags_at_the_top_shows_once(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n")
    project.write("Idea.md", "#idea #draft/early\n\nA thought worth keeping.\n")
    project.write("Both.md", "---\ntags: [idea]\n---\n#idea #later\n\nText.\n")
    result = project.build()
    idea = result.article("Idea/")
    assert 'class="bb-tags"' not in idea  # no row: the tags are the text's first line
    assert [text for _href, text in links(idea)] == ["#idea", "#draft/early"]
    both = result.article("Both/")
    row = both.split('class="bb-tags"')[1].split("</p>", 1)[0]
    assert [text for _href, text in links(row)] == ["#idea"]  # its property
    # the page of #later still lists the note: a tag written in the text is its tag
    assert "Both" in result.article("tags/later/")


def test_graph_tag_nodes_link_to_their_page(project) -> None:  # type: ignore[no-untyped-def]
    tagged_vault(project)
    result = project.build(strict=True)
    assert result.error is None  # the invariant: every Tag node's URL is a page of the site
    graph = json.loads((result.site / "_beliefbase/graph.json").read_text())
    tags = {n["title"]: n["url"] for n in graph["nodes"] if n["kind"] == "Tag"}
    assert tags["#area/sub"] == "tags/area/sub/"
    assert all((result.site / url / "index.html").exists() for url in tags.values())


def test_hostile_tag_names(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n")
    project.write("evil.md", '---\ntags: ["<img src=x onerror=alert(1)>", "../../up", "index",'
                  ' "a\\"b"]\n---\n# Evil\n')
    result = project.build(strict=True)
    assert result.error is None
    for url in ("evil/", "tags/"):
        assert "<img src=x" not in result.page(url)
        assert "#&lt;img src=x onerror=alert(1)&gt;" in result.article(url)
    pages = {p.relative_to(result.site).as_posix() for p in (result.site / "tags").rglob("*.html")}
    assert all(re.fullmatch(r"tags/([\w\-]+/)*index\.html", p) for p in pages), pages
    # the index, 4 tags, and the parents ".." and "../.." of "../../up" (safe names)
    assert "tags/index.html" in pages and len(pages) == 1 + 4 + 2
    assert not (result.site / "up").exists()
    page = next(p for p in pages if p.startswith("tags/img-"))
    assert "<img src=x" not in (result.site / page).read_text()


def test_tag_page_paths() -> None:
    assert tag_key("#Project//Alpha/") == "project/alpha"
    assert tag_page_src("tags/", "Area/Sub") == "tags/area/sub.md"
    assert tag_page_src("t/", "日本") == "t/日本.md"
    safe = tag_page_src("tags/", "a.b")
    assert safe is not None and re.fullmatch(r"tags/a-b-[0-9a-f]{6}\.md", safe)
    assert tag_page_src("tags/", "index") != "tags/index.md"
    assert tag_page_src("tags/", "/") is None
    assert tag_page_src("tags/", "c++") != tag_page_src("tags/", "c--")


def test_with_materials_tags_plugin(project) -> None:  # type: ignore[no-untyped-def]
    tagged_vault(project)
    result = project.build(plugins=["search", "tags", "beliefbase"])
    assert result.error is None, result.all_lines
    page = result.page("Alpha/")
    assert 'class="bb-tags"' not in page  # Material shows the tags itself
    chips = re.search(r'<nav class="md-tags"\s*>(.*?)</nav>', page, re.S)
    assert chips is not None
    # Material's chips link to our tag pages (no listing of its own features them)
    assert sorted(re.findall(r'<a href="([^"]*)" class="md-tag">\s*([^<]*?)\s*</a>',
                             chips.group(1))) == [
        ("../tags/area/sub/", "area/sub"), ("../tags/project/", "Project"),
        ("../tags/project/alpha/", "project/alpha"), ("../tags/reading/", "Reading")]
    body = result.article("Alpha/")
    assert ("../tags/project/", "#Project") in links(body)
    assert "Beta" in result.article("tags/project/")


def test_materials_tags_listing_keeps_its_page(project) -> None:  # type: ignore[no-untyped-def]
    tagged_vault(project)
    project.write("tags.md", "# Tags\n\n<!-- material/tags -->\n")
    result = project.build(plugins=["search", "tags", "beliefbase"], strict=True)
    assert result.error is None, result.all_lines
    assert any("the site has its own page at tags/" in line for line in result.lines)
    listing = result.article("tags/")
    assert "Alpha" in listing and "bb-tag-index" not in listing  # Material's listing
    assert (result.site / "tags/project/index.html").exists()  # our tag pages still are
    chips = re.search(r'<nav class="md-tags"\s*>(.*?)</nav>', result.page("Alpha/"), re.S)
    assert chips is not None and 'href="../tags/#tag:project"' in chips.group(1)


def test_dirty_rebuild_follows_tag_changes(project) -> None:  # type: ignore[no-untyped-def]
    tagged_vault(project)
    assert project.build(dirty=True).error is None
    project.write("sub/Beta.md", "# Beta\n\nBeta is #fresh now.\n")
    result = project.build(dirty=True)
    assert result.error is None
    assert "Beta" in result.article("tags/fresh/")
    assert "Beta" not in result.article("tags/project/")
    assert not (result.site / "tags/area/other/index.html").exists()  # no note carries it
    assert "area/other" not in result.article("tags/")


# -- the home page ---------------------------------------------------------------------


def test_home_md_is_the_home_page(project) -> None:  # type: ignore[no-untyped-def]
    project.write("Home.md", "# Welcome\n\nRead [[sub/Alpha]] and ![[Beta]].\n")
    project.write("sub/Alpha.md", "# Alpha\n\nBack [[Home]], see [x](../Home.md).\n")
    project.write("Beta.md", "# Beta\n\n[[Alpha]] here.\n")
    result = project.build(strict=True)
    assert result.error is None, result.lines
    assert "INFO no index.md: the home page is Home.md" in result.lines
    home = result.article("")
    assert "<h1" in home and "Welcome" in home
    assert 'href="sub/Alpha/">Alpha</a>' in home  # its links, from the root
    assert not (result.site / "Home").exists()
    alpha = result.article("sub/Alpha/")
    assert 'href="../../">Welcome</a>' in alpha and 'href="../../">x</a>' in alpha
    assert re.search(r'class="bb-backlinks__source" href="\.\./\.\./"', alpha)  # backlink
    graph = json.loads((result.site / "_beliefbase/graph.json").read_text())
    assert {n["title"]: n["url"] for n in graph["nodes"]
            if n["kind"] == "Document"}["Welcome"] == "./"
    flat = project.build(use_directory_urls=False, strict=True)
    assert flat.error is None
    assert "Welcome" in (flat.site / "index.html").read_text()
    assert 'href="../index.html">Welcome</a>' in (flat.site / "sub/Alpha.html").read_text()


def test_generated_home_page(project) -> None:  # type: ignore[no-untyped-def]
    project.write("Notes.md", "# Notes\n")
    project.write("deep/One.md", "# One\n")
    project.write("deep/Draft.md", "---\ndraft: true\n---\n# Draft\n")
    result = project.build(strict=True)
    assert result.error is None, result.lines
    assert "INFO no index.md: the home page is a generated list of notes" in result.lines
    home = result.article("")
    assert "<h1>Test KB</h1>" in home
    assert 'href="Notes/">Notes</a>' in home and 'href="deep/One/">One</a>' in home
    assert "Draft" not in result.page("")


def test_no_home_page_made_when_index_exists(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Real home\n")
    project.write("Home.md", "# Home note\n")
    result = project.build()
    assert not any("home page" in line for line in result.lines)
    assert "Real home" in result.article("")
    assert "Home note" in result.article("Home/")
    project.write("index.md", "# Real home\n")
    readme = project.docs / "index.md"
    readme.rename(project.docs / "README.md")
    result = project.build()
    assert "Real home" in result.article("") and "Home note" in result.article("Home/")


def test_attr_list_ids_stay_ids(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\n## Setup { #setup-id }\n\nText #real\n")
    result = project.build()
    assert '<h2 id="setup-id">' in result.page("")
    assert not (result.site / "tags/setup-id").exists()
    assert (result.site / "tags/real/index.html").exists()


def test_capitalised_index_is_the_home_page(project) -> None:  # type: ignore[no-untyped-def]
    # MkDocs puts only index.md / README.md at the root; Obsidian users write Index.md
    project.write("Index.md", "# Start\n\nSee [[Other]].\n")
    project.write("Other.md", "# Other\n\nBack to [[Index]].\n")
    result = project.build(strict=True)
    assert result.error is None, result.lines
    assert "Start" in result.article("") and not (result.site / "Index").exists()
    assert 'href="../">Start</a>' in result.article("Other/")


def test_dirty_rebuild_when_index_md_arrives(project) -> None:  # type: ignore[no-untyped-def]
    project.write("Home.md", "# Welcome\n")
    project.write("Other.md", "# Other\n\nBack to [[Home]].\n")
    assert project.build(dirty=True).error is None
    project.write("index.md", "# Real home\n")
    result = project.build(dirty=True)
    assert result.error is None, result.lines
    assert "Real home" in result.article("") and "Welcome" in result.article("Home/")
    assert 'href="../Home/">Welcome</a>' in result.article("Other/")
    graph = json.loads((result.site / "_beliefbase/graph.json").read_text())
    assert {n["title"]: n["url"] for n in graph["nodes"]
            if n["kind"] == "Document"}["Welcome"] == "Home/"


def test_lower_case_readme_in_a_folder_is_its_own_page(project) -> None:  # type: ignore[no-untyped-def]
    # MkDocs writes notes/readme.md to notes/readme/ (only README.md is a folder's index):
    # every link to it must point there, not to the folder's URL
    project.write("index.md", "# Home\n\nSee [[notes/readme]] and [r](notes/readme.md).\n")
    project.write("notes/readme.md", "# Notes readme\n")
    result = project.build(strict=True)
    assert result.error is None, result.lines
    assert (result.site / "notes/readme/index.html").exists()
    article = result.article("")
    assert article.count('href="notes/readme/"') >= 2 and 'href="notes/"' not in article


def test_a_tag_first_in_a_list_item_or_a_quote_is_a_tag(project) -> None:  # type: ignore[no-untyped-def]
    # Python-Markdown reads "#solo item" in an item or a quote as a heading (it needs
    # no space after "#"); Obsidian shows a tag there
    project.write("Note.md", "# Note\n\n- #solo item\n- [ ] #first thing\n1. #numbered one\n\n"
                  "> #quoted text\n\n- # Heading in an item\n")
    result = project.build()
    article = result.article("Note/")
    for tag in ("solo", "first", "numbered", "quoted"):
        assert (f"../tags/{tag}/", f"#{tag}") in links(article), tag
    assert "<h1>solo" not in article and "<h1>quoted" not in article
    assert "<h1" in article.split("Heading in an item")[0][-80:]  # "# x" stays a heading
