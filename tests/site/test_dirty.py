"""``mkdocs serve --dirty``: dependents are re-rendered; the result equals a clean build."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from beliefbase.html_json import html_safe

from tests.site.serving import Rebuilds
from tests.site.test_incremental import VAULT, edit, site_files, write_vault

EXPLORER = ["search", {"beliefbase": {"explorer": True}}]
UNDATED = ["search", {"beliefbase": {"explorer": True, "dates": False}}]


@pytest.fixture(params=["dirty", "plain"], ids=["serve-dirty", "plain-serve"])
def serve(request, project):  # type: ignore[no-untyped-def]
    """``serve(**config)``: rebuilds as ``mkdocs serve --dirty`` or plain ``mkdocs
    serve`` (which rebuilds dirty too, ``speedups/plain_serve.py``)."""
    made: list[Rebuilds] = []

    def start(**changes):  # type: ignore[no-untyped-def]
        made.append(Rebuilds(project, request.param == "plain", **changes))
        return made[-1]

    yield start
    for rebuilds in made:
        rebuilds.close()


@pytest.mark.parametrize("plugins", [None, EXPLORER], ids=["material-nav", "explorer"])
def test_dirty_rebuild_matches_clean_build(project, serve, tmp_path: Path, plugins) -> None:  # type: ignore[no-untyped-def]
    kwargs = {"plugins": plugins} if plugins else {}
    write_vault(project, VAULT)
    project.write("unrelated.md", "# Unrelated\n\nNothing links here.\n", dedent=False)
    session = serve(**kwargs)
    first = session.build() if session.plain else project.build(**kwargs)
    assert first.error is None
    unrelated = first.site / "unrelated" / "index.html"
    before = unrelated.stat().st_mtime_ns
    time.sleep(0.05)
    edit(project)  # a title change, a new note resolving a dangling link, a deletion
    # an alias renamed: its old redirect page must go, the new one appear
    project.write("beta.md", "---\ntitle: Beta Title\naliases: [Bee]\n---\nBeta [[alpha]].\n",
                  dedent=False)
    assert (first.site / "b" / "index.html").exists()
    second = session.build()
    assert second.error is None
    assert ">Renamed Alpha</a>" in second.article("")
    assert not (second.site / "old" / "index.html").exists()
    assert not (second.site / "b" / "index.html").exists()
    assert (second.site / "bee" / "index.html").exists()
    if plugins:  # with the explorer, pages that do not show the change are left alone
        assert unrelated.stat().st_mtime_ns == before
    clean = session.clean(tmp_path)
    got, want = site_files(second.site), site_files(clean.site)
    search = "search/search_index.json"
    assert {k: v for k, v in got.items() if k != search} == {
        k: v for k, v in want.items() if k != search}
    entries = lambda data: sorted(json.dumps(e, sort_keys=True)  # noqa: E731
                                  for e in json.loads(data)["docs"])
    assert entries(got[search]) == entries(want[search])


def _same_as_clean(project, built, tmp_path: Path, session: Rebuilds | None = None,  # type: ignore[no-untyped-def]
                   **kwargs) -> None:
    if session is not None:
        clean = session.clean(tmp_path)
    else:
        clean_root = tmp_path / f"clean-{time.monotonic_ns()}"
        shutil.copytree(project.root / "docs", clean_root / "docs")
        clean = type(project)(clean_root, project.config).build(**kwargs)
    search = "search/search_index.json"
    got = {k: v for k, v in site_files(built.site).items() if k != search}
    want = {k: v for k, v in site_files(clean.site).items() if k != search}
    assert sorted(got) == sorted(want)
    assert [k for k in got if got[k] != want[k]] == []


def test_dirty_rebuild_follows_unlinked_mentions(project, serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A note that starts (or stops) naming another without a link changes that
    other page's "Unlinked mentions" panel, though nothing links the two."""
    project.write("target.md", "# Target Note\n\nA target.\n", dedent=False)
    project.write("writer.md", "# Writer\n\nNothing yet.\n", dedent=False)
    project.write("named.md", "# Named\n\nThis text says Fresh Name once.\n", dedent=False)
    project.write("other.md", "# Other\n\nNothing.\n", dedent=False)
    session = serve(plugins=EXPLORER)
    assert session.build().error is None
    time.sleep(0.05)
    project.write("writer.md", "# Writer\n\nNow about the Target Note.\n", dedent=False)
    project.write("other.md", "# Fresh Name\n\nRenamed.\n", dedent=False)
    second = session.build()
    target = second.page("target/")
    assert "Writer" in _mentions_panel(target)
    assert "Named" in _mentions_panel(second.page("other/"))  # its new title is named there
    _same_as_clean(project, second, tmp_path, session)
    time.sleep(0.05)
    project.write("writer.md", "# Writer\n\nNothing again.\n", dedent=False)
    third = session.build()
    assert "Writer" not in _mentions_panel(third.page("target/"))
    _same_as_clean(project, third, tmp_path, session)


def test_dirty_rebuild_follows_titles_in_quoted_sentences(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A page's panels quote other notes' sentences, links shown by their targets'
    titles: retitling a note changes the panels quoting a sentence that links to
    it, though neither the quoting page nor the quoted note changed."""
    project.write("target.md", "# Target Note\n\nA target.\n", dedent=False)
    project.write("mentioned.md", "# Mentioned Note\n\nMentioned.\n", dedent=False)
    project.write("writer.md", "# Writer\n\nThe [[Target Note]] works with [[other]] well.\n\n"
                  "The Mentioned Note works with [[other.md]] too.\n", dedent=False)
    project.write("other.md", "# Other\n\nNothing.\n", dedent=False)
    assert project.build(dirty=True, plugins=EXPLORER).error is None
    time.sleep(0.05)
    project.write("other.md", "# Renamed Other\n\nNothing.\n", dedent=False)
    second = project.build(dirty=True, plugins=EXPLORER)
    assert "works with Renamed Other well" in second.page("target/")  # "Linked from"
    assert "works with Renamed Other too" in _mentions_panel(second.page("mentioned/"))
    _same_as_clean(project, second, tmp_path, plugins=EXPLORER)


def _mentions_panel(page: str) -> str:
    start = page.index('class="bb-panel bb-mentions"')
    return page[start:page.index("</section>", start)]


def test_search_index_stays_whole_over_many_dirty_rebuilds(project, serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Each rebuild merges into the index the previous one left (kept in memory by
    the theme's plugin, or under plain serve by ours); after three, it and every page
    still equal a clean build's."""
    write_vault(project, VAULT)
    session = serve(plugins=EXPLORER)
    assert session.build().error is None
    for i in range(3):
        time.sleep(0.05)
        project.write("beta.md", f"---\ntitle: Beta {i} <b>\naliases: [B]\n---\nBeta [[alpha]].\n",
                      dedent=False)
        project.write(f"new-{i}.md", f"# New {i}\n\nLinks [[alpha]].\n", dedent=False)
        built = session.build()
        assert built.error is None
    clean = session.clean(tmp_path)
    index = lambda site: sorted(json.dumps(e, sort_keys=True) for e in json.loads(  # noqa: E731
        (site / "search/search_index.json").read_text(encoding="utf-8"))["docs"])
    assert index(built.site) == index(clean.site)
    # put together from kept entry texts, still exactly the JSON Material writes, made
    # HTML-safe (issue 32)
    text = (built.site / "search/search_index.json").read_text(encoding="utf-8")
    assert text == html_safe(json.dumps(json.loads(text), separators=(",", ":")))
    assert any('"title": "Beta 2 &lt;b&gt;"' in e for e in index(built.site))
    # home embeds alpha#Part, whose link to beta shows beta's title: rebuilt too
    pages = lambda site: {k: v for k, v in site_files(site).items()  # noqa: E731
                          if k != "search/search_index.json"}
    got, want = pages(built.site), pages(clean.site)
    assert sorted(got) == sorted(want) and [k for k in got if got[k] != want[k]] == []


def test_rebuilds_leave_garbage_collection_for_the_idle_moment(project) -> None:  # type: ignore[no-untyped-def]
    """As ``mkdocs serve --dirty`` runs them (one ``on_startup``, then builds): the
    first build collects garbage as usual, later rebuilds run with the collector
    off (it runs once the server is idle, ``idle_gc``); on at shutdown."""
    import gc

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    record = project.root / "gc-states.txt"
    (project.root / "record_gc.py").write_text(
        "import gc\n"
        "def on_page_markdown(markdown, **kwargs):\n"
        f"    with open({str(record)!r}, 'a') as out:\n"
        "        out.write(f'{gc.isenabled()}\\n')\n"
        "    return markdown\n", encoding="utf-8")
    project.write("a.md", "# A\n\nLinks [[b]].\n", dedent=False)
    project.write("b.md", "# B\n\nText.\n", dedent=False)
    project.write_config(hooks=["record_gc.py"], plugins=EXPLORER)
    config = load_config(str(project.root / "mkdocs.yml"))
    config.plugins.on_startup(command="serve", dirty=True)
    try:
        build(config, dirty=True)
        time.sleep(0.05)
        project.write("b.md", "# B renamed\n\nText.\n", dedent=False)
        build(load_config(str(project.root / "mkdocs.yml")), dirty=True)
    finally:
        config.plugins.on_shutdown()
    seen = record.read_text(encoding="utf-8").split()
    assert seen[0] == "True" and seen[-1] == "False", seen
    assert gc.isenabled()


def test_a_rebuild_stops_the_last_background_search_index(project) -> None:  # type: ignore[no-untyped-def]
    """Under serve the graph page's lunr index is written by a background process
    after the rebuild; the next rebuild stops it (it would share the machine with
    that rebuild, which writes a newer index) and its own index is the right one."""
    import multiprocessing

    from beliefbase.site.reader.reader import ReaderCache
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    project.write("a.md", "# Alpha\n\nLinks [[b]].\n", dedent=False)
    project.write("b.md", "# Beta\n\nText.\n", dedent=False)
    project.write_config(plugins=EXPLORER)
    config = load_config(str(project.root / "mkdocs.yml"))
    config.plugins.on_startup(command="serve", dirty=True)
    plugin = config.plugins["beliefbase"]
    try:
        build(config, dirty=True)
        slow = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,),
                                                            daemon=True)
        slow.start()
        plugin.build.state.kept.get(ReaderCache).pending = slow  # as if the last index were being built
        alive_during_rebuild = []
        on_files = plugin.on_files

        def recording(files, **kwargs):  # type: ignore[no-untyped-def]
            alive_during_rebuild.append(slow.is_alive())
            return on_files(files, **kwargs)

        plugin.on_files = recording
        time.sleep(0.05)
        project.write("b.md", "# Beta Renamed\n\nText.\n", dedent=False)
        build(load_config(str(project.root / "mkdocs.yml")), dirty=True)
        assert alive_during_rebuild == [False]  # stopped as the rebuild began
        assert plugin.build.state.kept.get(ReaderCache).pending is not slow
    finally:
        config.plugins.on_shutdown()  # waits for the rebuild's own index
    index = (project.root / "site" / "_beliefbase" / "search-index.json").read_text(
        encoding="utf-8")
    assert '"renam"' in index  # the new title's word, as lunr stems it


def test_deleting_a_note_in_a_folder(project, serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The folder's listing changes with the deleted note: the rebuild once looked the
    deleted note up among the new compile's documents (KeyError) and ``mkdocs serve``
    stopped answering until another save."""
    project.write("index.md", "# Home\n\nSee [[alpha]].\n", dedent=False)
    for name in ("alpha", "beta", "gamma"):
        project.write(f"archive/deep/{name}.md", f"# {name.title()}\n\nText.\n", dedent=False)
    session = serve(plugins=EXPLORER)
    assert session.build().error is None
    (project.docs / "archive/deep/beta.md").unlink()
    second = session.build()
    assert second.error is None, second.lines
    assert not (second.site / "archive/deep/beta/index.html").exists()
    _same_as_clean(project, second, tmp_path, session)


def test_generated_pages_render_again_only_when_what_they_show_changed(  # type: ignore[no-untyped-def]
        project, serve, tmp_path: Path) -> None:
    """MkDocs takes a page without a source file for changed in every dirty build:
    every tag and folder page was rendered again after every save (95 of the 118
    pages one body edit wrote at 1,000 notes)."""
    # (no dates: a listed note's date is its file's, which an edit changes)
    project.write("index.md", "# Home\n\nSee [[alpha]].\n", dedent=False)
    for name in ("alpha", "beta"):
        project.write(f"archive/deep/{name}.md",
                      f"---\ntags: [topic]\n---\n# {name.title()}\n\nFirst line.\n",
                      dedent=False)
    project.write("other/gamma.md", "# Gamma\n\nNo tag here.\n", dedent=False)
    session = serve(plugins=UNDATED)
    assert session.build().error is None
    tag = project.root / "site" / "tags" / "topic" / "index.html"
    folder = project.root / "site" / "archive" / "deep" / "index.html"
    other = project.root / "site" / "other" / "index.html"
    assert tag.exists() and folder.exists() and other.exists()
    stamps = lambda: [p.stat().st_mtime_ns for p in (tag, folder, other)]  # noqa: E731
    before = stamps()
    time.sleep(0.05)
    # a body edit past the first sentence: no listing shows it
    project.write("archive/deep/beta.md",
                  "---\ntags: [topic]\n---\n# Beta\n\nFirst line.\n\nMore text.\n", dedent=False)
    second = session.build()
    assert second.error is None
    assert stamps() == before
    time.sleep(0.05)
    # a retitled note: its tag page and its folder's page list the new title
    project.write("archive/deep/beta.md",
                  "---\ntags: [topic]\n---\n# Beta Renamed\n\nFirst line.\n", dedent=False)
    assert session.build().error is None
    after = stamps()
    assert after[0] != before[0] and after[1] != before[1] and after[2] == before[2]
    assert "Beta Renamed" in tag.read_text(encoding="utf-8")
    assert "Beta Renamed" in folder.read_text(encoding="utf-8")
    # an output gone (an earlier step's invalidation removes some) is written again
    tag.unlink()
    time.sleep(0.05)
    project.write("other/gamma.md", "# Gamma\n\nNo tag here.\n\nStill none.\n", dedent=False)
    last = session.build()
    assert tag.exists() and other.stat().st_mtime_ns == before[2]
    # (a clean build in this process makes the next dirty one render every page)
    _same_as_clean(project, last, tmp_path, session)


def test_generated_pages_follow_an_edited_template(project) -> None:  # type: ignore[no-untyped-def]
    """A template edited under ``mkdocs serve`` shows on the generated pages at the next
    save, as it did when they were rendered in every rebuild."""
    from beliefbase.site.templates import theme_dir

    overrides = project.root / "overrides" / "beliefbase"
    overrides.mkdir(parents=True)
    template = (theme_dir() / "folder.html").read_text(encoding="utf-8")
    (overrides / "folder.html").write_text(template, encoding="utf-8")
    theme = {"name": "material", "font": False, "custom_dir": "overrides"}
    project.write("archive/alpha.md", "# Alpha\n\nText.\n", dedent=False)
    project.write("other.md", "# Other\n\nText.\n", dedent=False)
    assert project.build(dirty=True, plugins=UNDATED, theme=theme).error is None
    folder = project.root / "site" / "archive" / "index.html"
    assert "folder-edited" not in folder.read_text(encoding="utf-8")
    time.sleep(0.05)
    (overrides / "folder.html").write_text('<p class="folder-edited"></p>\n' + template,
                                           encoding="utf-8")
    project.write("other.md", "# Other\n\nText.\n\nMore.\n", dedent=False)
    assert project.build(dirty=True, plugins=UNDATED, theme=theme).error is None
    assert "folder-edited" in folder.read_text(encoding="utf-8")


def test_material_navigation_stays_whole(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Material prints the whole navigation into every page: MkDocs reads only the
    pages a dirty build renders, so the others' titles printed as "None"; and a page
    the navigation gains (the entity index) must show on every page."""
    for name in "abc":
        project.write(f"{name}.md", f"# Note {name.upper()}\n\nText.\n", dedent=False)
    first = project.build(dirty=True)
    a_page = first.site / "a" / "index.html"
    before = a_page.stat().st_mtime_ns
    time.sleep(0.05)
    project.write("c.md", "# Note C\n\nText, more.\n", dedent=False)
    second = project.build(dirty=True)
    nav = second.page("c/")
    assert ">None<" not in nav.replace(" ", "").replace("\n", "")
    for title in ("Note A", "Note B", "Graph"):
        assert title in nav
    assert a_page.stat().st_mtime_ns == before  # the same navigation: left alone
    assert "entities/" not in a_page.read_text(encoding="utf-8")
    time.sleep(0.05)
    project.write("c.md", "# Note C\n\nText about #Smaug:CREATURE.\n", dedent=False)
    third = project.build(dirty=True)
    assert a_page.stat().st_mtime_ns != before
    assert "entities/" in a_page.read_text(encoding="utf-8")
    _same_as_clean(project, third, tmp_path)


def test_material_navigation_keeps_statuses_and_icons(project, serve, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Material's navigation prints each page's ``status`` (and ``icon``) from its
    meta: a rebuilt page printed none for the pages MkDocs did not read, and a
    status changed in one note stayed old in every other page."""
    project.write("a.md", "---\nstatus: active\n---\n# Note A\n\nText.\n", dedent=False)
    project.write("b.md", "---\nstatus: done\n---\n# Note B\n\nText.\n", dedent=False)
    project.write("c.md", "# Note C\n\nText.\n", dedent=False)
    session = serve()
    first = session.build()
    assert first.error is None
    assert first.page("c/").count("md-status--") == 2
    time.sleep(0.05)
    project.write("c.md", "# Note C\n\nText, more.\n", dedent=False)  # a body edit
    second = session.build()
    assert second.page("c/").count("md-status--") == 2
    _same_as_clean(project, second, tmp_path, session)
    time.sleep(0.05)
    project.write("a.md", "---\nstatus: paused\n---\n# Note A\n\nText.\n", dedent=False)
    third = session.build()
    assert "md-status--paused" in third.page("b/") and "md-status--active" not in third.page("b/")
    _same_as_clean(project, third, tmp_path, session)


def _written_since(site: Path, since: int) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.rglob("*.html")
                  if p.stat().st_mtime_ns > since)


def test_plain_serve_rerenders_only_what_a_body_edit_changes(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Plain ``mkdocs serve`` (no ``--dirty``) once emptied the site and rendered every
    page after every save; now a body edit writes the note's page and its
    dependents only, and the site equals a clean build."""
    # each note's time fixed, the edit's too: the recent page (notes by their time) is
    # the same before and after, whatever second the edit falls in
    for i in range(12):
        written = project.write(f"note-{i}.md", f"---\ntags: [t{i % 3}]\n---\n# Note {i}\n\n"
                                f"Text {i}.\n", dedent=False)
        os.utime(written, (1_700_000_000 + i, 1_700_000_000 + i))
    written = project.write("linker.md", "# Linker\n\nSee [[note-1]].\n", dedent=False)
    os.utime(written, (1_700_000_100, 1_700_000_100))
    session = Rebuilds(project, plain=True, plugins=UNDATED)
    try:
        assert session.build().error is None
        site = project.root / "site"
        pages = len(list(site.rglob("*.html")))
        since = max(p.stat().st_mtime_ns for p in site.rglob("*"))
        time.sleep(0.05)
        edited = project.write("note-1.md", "---\ntags: [t1]\n---\n# Note 1\n\nText 1.\n\n"
                               "More.\n", dedent=False)
        os.utime(edited, (1_700_000_001, 1_700_000_001))
        second = session.build()
        assert second.error is None
        written = _written_since(site, since)
        assert "note-1/index.html" in written
        assert "note-5/index.html" not in written and "tags/t1/index.html" not in written
        assert len(written) <= 3 < pages, written
        _same_as_clean(project, second, tmp_path, session)
    finally:
        session.close()


def test_plain_serve_rebuilds_everything_when_mkdocs_yml_changes(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The plan follows the vault; an edited ``mkdocs.yml`` (here the site's name, in
    every page) makes the next plain-serve rebuild a full one."""
    project.write("a.md", "# A\n\nText.\n", dedent=False)
    project.write("b.md", "# B\n\nText.\n", dedent=False)
    session = Rebuilds(project, plain=True, plugins=EXPLORER)
    try:
        assert session.build().error is None
        time.sleep(0.05)
        project.config = {**project.config, "site_name": "Renamed KB"}
        project.write_config(plugins=EXPLORER)
        second = session.build()
        assert second.error is None
        assert "Renamed KB" in second.page("b/")
        _same_as_clean(project, second, tmp_path, session)
    finally:
        session.close()


def test_plain_serve_removes_a_deleted_attachment(project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """MkDocs' dirty build leaves the copy of a deleted file in the site; a plain
    serve rebuild must not."""
    project.write("a.md", "# A\n\nText.\n", dedent=False)
    project.write("img/pic.png", b"\x89PNG\r\n\x1a\n")
    session = Rebuilds(project, plain=True, plugins=EXPLORER)
    try:
        first = session.build()
        assert (first.site / "img" / "pic.png").exists()
        (project.docs / "img" / "pic.png").unlink()
        second = session.build()
        assert second.error is None
        assert not (second.site / "img" / "pic.png").exists()
    finally:
        session.close()
