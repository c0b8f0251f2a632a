"""Whole builds of tiny knowledge bases: what the reader gets."""

from __future__ import annotations

import html
import json
import re

from tests.conftest import diagnostic_lines

_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d(?:T[\d:.]+(?:Z|[+-]\d\d:\d\d)?)?|\d{1,2} \w+ \d{4}")
HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>{{ 7*7 }}{% raw %}'


def kb(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", """\
        ---
        title: Home
        ---
        # Welcome

        Read [[Alpha]], [[Beta|the second]], [[Alpha#Second Part]], [[Alpha#^intro]] and [[Nowhere]].

        ![[Alpha#Second Part]]
        """)
    project.write("alpha.md", """\
        ---
        aliases: [First Letter]
        tags: [greek]
        ---
        # Alpha

        Alpha links to [[Beta]] in this sentence. ^intro

        ## Second Part

        Text of the second part.
        """)
    project.write("beta.md", """\
        +++
        title = "Beta Note"
        +++
        Beta body.
        """)


def test_wikilinks_render_with_titles_anchors_and_broken_links(project) -> None:  # type: ignore[no-untyped-def]
    kb(project)
    result = project.build()
    assert result.error is None
    html = result.article("")
    assert '<a class="bb-link" data-bb-target="' in html
    assert re.search(r'href="alpha/">Alpha</a>', html)
    assert re.search(r'href="beta/">the second</a>', html)
    assert re.search(r'href="alpha/#second-part">Second Part</a>', html)
    assert re.search(r'href="alpha/#\^intro">Alpha</a>', html)
    assert '<span class="bb-link bb-unresolved" title="Nowhere (no such note)">Nowhere</span>' in html
    assert diagnostic_lines(result) == [
        "WARNING docs/index.md:6:82: unresolved-link: [[Nowhere]] matches no note, title or "
        "alias; create the note or fix the link",
    ]


def test_transclusion_block_anchor_and_backlinks(project) -> None:  # type: ignore[no-untyped-def]
    kb(project)
    result = project.build()
    html = result.article("")
    embed = html[html.index('<div class="bb-embed"'):]
    assert 'href="alpha/#second-part"' in embed  # link to the source
    assert "<h2>Second Part</h2>" in embed  # no duplicate id inside the host page
    assert "Text of the second part." in embed
    alpha = result.article("alpha/")
    assert '<p id="^intro">Alpha links to' in alpha and "^intro</p>" not in alpha
    beta = result.page("beta/")
    panel = beta[beta.index('class="bb-panel bb-backlinks"'):]
    assert 'href="../alpha/"' in panel
    assert "Alpha links to Beta Note in this sentence." in panel  # the sentence, live title
    assert 'Linked from <span class="bb-count">2</span>' in panel


def test_backlink_snippets_drop_quote_and_callout_markers(project) -> None:  # type: ignore[no-untyped-def]
    project.write("target.md", "# Target\n")
    project.write("quoted.md", "# Quoted\n\n> [!tip]- Worth reading\n> See [[Target]] first.\n")
    project.write("math.md", "# Math\n\nWhen x > y the [[Target]] holds.\n")
    panel = project.build().page("target/")
    panel = panel[panel.index('class="bb-panel bb-backlinks"'):]
    # the callout's title is a unit of its own (as the page shows it, a header)
    assert ">See Target first.</p>" in panel and "Worth reading" not in panel
    assert "[!tip]" not in panel and "&gt; See" not in panel
    assert "When x &gt; y the Target holds." in panel  # a '>' in prose stays


def test_frontmatter_stripped_in_all_three_formats(project) -> None:  # type: ignore[no-untyped-def]
    project.write("yaml.md", "---\ntitle: Y\nsecret_field: yaml-value\n---\nbody\n")
    project.write("toml.md", '+++\ntitle = "T"\nsecret_field = "toml-value"\n+++\nbody\n')
    project.write("dash.md", '---\ntitle = "D"\nsecret_field = "dash-value"\n---\nbody\n')
    result = project.build()
    for url, value, title in (("yaml/", "yaml-value", "Y"), ("toml/", "toml-value", "T"),
                              ("dash/", "dash-value", "D")):
        # the Properties block shows the fields on purpose (issue 28); nothing else does
        page = re.sub(r'<details class="bb-properties".*?</details>', "", result.page(url),
                      flags=re.DOTALL)
        assert value not in page and "+++" not in result.article(url)
        assert f"<title>{title} - Test KB</title>" in page


def test_bad_frontmatter_is_shown_and_reported(project) -> None:  # type: ignore[no-untyped-def]
    project.write("bad.md", "---\ntitle: [oops\n---\nThe body survives.\n")
    result = project.build()
    assert result.error is None
    article = result.article("bad/")
    assert "The body survives." in article and "oops" in article and "<code>" in article
    assert diagnostic_lines(result) == [
        "WARNING docs/bad.md:2:8: bad-frontmatter: YAML: did not find expected ',' or ']' "
        "(while parsing a flow sequence); the block is shown as code on the page (fix the "
        "syntax, or quote values that contain ':' or '#')",
    ]


def test_hostile_strings_escaped_everywhere(project) -> None:  # type: ignore[no-untyped-def]
    project.write("evil.md", f"---\ntitle: '{HOSTILE}'\naliases: ['{HOSTILE} alias']\n"
                             f"tags: ['{HOSTILE}']\ndescription: '{HOSTILE}'\n---\nBody\n")
    project.write("index.md", "---\ntitle: Home\n---\n[[evil]] and ![[evil]]\n")
    result = project.build()
    assert result.error is None
    for path in result.site.rglob("*"):
        if path.suffix in (".html", ".json", ".xml"):
            text = path.read_text(encoding="utf-8")
            assert "<script>alert(1)" not in text, path
            assert "<img src=x onerror" not in text, path
            # no Jinja ran on user text ("49"); a date or time a page shows (the
            # feed's entries, a note's <time>) may hold a 49 of its own
            undated = _TIMESTAMP.sub("", text)
            assert "{{ 7*7 }}" not in undated or "49" not in undated
    home = result.page("")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in home  # shown as text in nav and link
    index = json.loads((result.site / "search/search_index.json").read_text(encoding="utf-8"))
    entry = next(e for e in index["docs"] if e["location"] == "evil/")
    assert entry["title"] == html.escape(HOSTILE, quote=False)  # escaped once, not twice


def test_drafts_leak_nowhere(project) -> None:  # type: ignore[no-untyped-def]
    project.write("plan.md", "---\ndraft: true\ntitle: Zebra Quokka Plan\n---\n"
                             "SENTINEL-BODY [[index]] #sentineltag\n")
    project.write("unpub.md", "---\npublish: false\n---\n# Kangaroo Heading\nSENTINEL-TWO\n")
    project.write("index.md", "# Home\n\nSee [[other]].\n")
    project.write("other.md", "# Other\n")
    result = project.build()
    assert result.error is None
    for path in result.site.rglob("*"):
        if path.is_file() and path.suffix not in (".png", ".gz", ".woff2"):
            text = path.read_text(encoding="utf-8", errors="replace")
            for marker in ("SENTINEL", "Zebra Quokka", "Kangaroo", "plan.md", "unpub",
                           "sentineltag"):
                assert marker not in text, (marker, path)


def test_link_to_draft_renders_broken_with_info(project) -> None:  # type: ignore[no-untyped-def]
    project.write("plan.md", "---\ndraft: true\n---\n")
    project.write("index.md", "# Home\n\n[[plan]]\n")
    result = project.build(strict=True)
    assert result.error is None  # info only
    assert '<span class="bb-link bb-unresolved" title="plan (not published)">plan</span>' in (
        result.article(""))
    assert diagnostic_lines(result, "link-to-unpublished") == [
        "INFO docs/index.md:3:1: link-to-unpublished: [[plan]] points at a note that is not "
        "published (draft or publish: false); it renders as a broken link"]


def test_strict_fails_on_warnings_and_non_strict_passes(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "[[missing]]\n")
    assert project.build().error is None
    failed = project.build(strict=True)
    assert failed.error is not None
    plugin_strict = project.build(plugins=["search", {"beliefbase": {"strict": True}}])
    assert plugin_strict.error is not None
    quiet = project.build(strict=True, plugins=["search", {"beliefbase": {"strict": False}}])
    assert quiet.error is None


def test_alias_redirects_and_wanted_page(project) -> None:  # type: ignore[no-untyped-def]
    kb(project)
    result = project.build()
    redirect = (result.site / "first-letter" / "index.html").read_text()
    assert 'content="0; url=../alpha/"' in redirect
    assert 'location.replace("../alpha/" + location.hash)' in redirect
    wanted = result.article("wanted/")
    assert "Nowhere" in wanted and 'href="../">Home</a>' in wanted


def test_graph_and_diagnostics_json(project) -> None:  # type: ignore[no-untyped-def]
    kb(project)
    result = project.build()
    graph = json.loads((result.site / "_beliefbase/graph.json").read_text())
    assert graph["version"] == 1
    kinds = {n["kind"] for n in graph["nodes"]}
    assert {"Network", "Document", "Section", "Block", "Tag"} <= kinds
    docs = {n["title"]: n for n in graph["nodes"] if n["kind"] == "Document"}
    assert docs["Alpha"]["url"] == "alpha/" and docs["Alpha"]["tags"] == ["greek"]
    ids = {n["id"] for n in graph["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in graph["edges"])
    types = {(e["type"], e["weight_kind"]) for e in graph["edges"]}
    assert {("child_of", "Subsection"), ("links_to", "Epistemic"), ("embeds", "Epistemic"),
            ("tagged", "Pragmatic")} <= types
    diags = json.loads((result.site / "_beliefbase/diagnostics.json").read_text())
    assert diags == {"version": 1, "diagnostics": [{
        "code": "unresolved-link", "level": "warning", "file": "docs/index.md", "line": 6,
        "column": 82, "message": "[[Nowhere]] matches no note, title or alias; create the "
        "note or fix the link"}]}


def test_output_is_deterministic(project) -> None:  # type: ignore[no-untyped-def]
    kb(project)
    first = project.build()
    graph1 = (first.site / "_beliefbase/graph.json").read_bytes()
    page1 = first.page("alpha/")
    second = project.build()
    assert (second.site / "_beliefbase/graph.json").read_bytes() == graph1
    assert second.page("alpha/") == page1


def test_toml_node_and_network(project) -> None:  # type: ignore[no-untyped-def]
    project.write("BeliefNetwork.toml", 'id = "kb"\ntitle = "The KB"\n')
    project.write("auth.toml", 'title = "Auth Service"\nschema = "Project"\nstatus = "active"\n'
                               'depends_on = ["[[db]]"]\n')
    project.write("db.md", "# Database\n")
    project.write("index.md", "[[Auth Service]]\n")
    result = project.build()
    assert result.error is None
    node = result.article("auth/")
    assert "Auth Service" in result.page("auth/") and "active" in node
    assert 'href="auth/">Auth Service</a>' in result.article("")
    graph = json.loads((result.site / "_beliefbase/graph.json").read_text())
    assert any(n["kind"] == "Network" and n["title"] == "The KB" for n in graph["nodes"])
    assert any(e["type"] == "depends_on" and e["weight_kind"] == "Pragmatic"
               for e in graph["edges"])
    assert not (result.site / "BeliefNetwork.toml").exists()


def test_snippets_show_rendered_text_code_as_code(project) -> None:  # type: ignore[no-untyped-def]
    project.write("target.md", "# Target\n")
    project.write("src.md", "# Src\n\nUse `<b>run()</b>` with ==care== %%secret%% via "
                            "[[target]] and ![[target]] ^b1\n")
    project.write("mention.md", "# Mention\n\nThe Target uses `x < y` and $a^2$ too.\n")
    page = project.build().page("target/")
    panel = page[page.index('class="bb-panel bb-backlinks"'):]
    panel = panel[:panel.index("</section>")]
    assert ("Use <code>&lt;b&gt;run()&lt;/b&gt;</code> with care via Target and Target</p>"
            in panel)
    for raw in ("[[", "==", "%%", "^b1", "secret"):
        assert raw not in panel
    mentions = page[page.index('class="bb-panel bb-mentions"'):]
    assert ('<mark class="bb-mentions__name">Target</mark> uses <code>x &lt; y</code> and '
            '<span class="bb-math"><math' in mentions)  # math is math (MathML), not code
