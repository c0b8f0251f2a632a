"""No bad file fails a build (SPEC §12, issue 20): each is a diagnostic at that file.

The hostile vault (``vault.py``) is built end to end, with every speed-up of
the page loop on (the shared Markdown instance, a worker converting pages
ahead) and with both off: the build succeeds, each hostile file has its
diagnostic, every other page is built, the vault is byte for byte as it was,
and nothing is written outside the site and the cache.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import sys
from pathlib import Path
from typing import Any

import pytest
from beliefbase.builder.cache import CACHE_FILE, ParseCache
from beliefbase.codecs import guards
from beliefbase.ids import MAX_NAME_BYTES, fit_name
from beliefbase.speedups import render_ahead

from tests.conftest import diagnostic_lines
from tests.hostile.vault import DEEP_STRONG, LONG, snapshot, write_vault
from tests.site.test_markdown_offload import _both_convert

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or sys.platform == "darwin",
                                reason="named pipes and byte file names as on Linux")

# what the build may write: the site, the cache, and the config the fixture writes
_OUTPUTS = ("site", ".beliefbase", "mkdocs.yml")


@pytest.fixture(params=["fast", "plain"])
def options(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
            ) -> dict[str, Any]:
    """"fast": one Markdown instance and a worker converting pages ahead (even for
    this small vault); "plain": MkDocs' own instance per page, no worker."""
    started: list[Any] = []
    start = render_ahead.RenderAhead.start.__func__  # type: ignore[attr-defined]

    def spy(cls: Any, *args: Any) -> Any:
        ahead = start(cls, *args)
        started.append(ahead)
        return ahead

    monkeypatch.setattr(render_ahead.RenderAhead, "start", classmethod(spy))
    if request.param == "fast":
        monkeypatch.setattr(render_ahead, "AHEAD_THRESHOLD", 1)
        _both_convert(monkeypatch)  # each process converts some, whatever the machine's load
        return {"reuse_markdown": True, "markdown_offload": True, "started": started}
    return {"reuse_markdown": False, "markdown_offload": False, "started": started}


def test_every_hostile_file_is_a_diagnostic_and_the_rest_builds(
        project: Any, options: dict[str, Any]) -> None:
    expected = write_vault(project)
    before = snapshot(project.root, _OUTPUTS)
    started = options.pop("started")
    result = project.build(plugins=["search", {"beliefbase": options}])
    assert result.error is None
    if options["markdown_offload"]:  # the worker ran, and took some pages
        assert len(started) == 1 and started[0] is not None and started[0].taken > 0
    else:
        assert started == []
    for name, (file, code) in expected.items():
        found = [line for line in diagnostic_lines(result, code) if f" {file}:" in line]
        assert found, f"{name}: no {code} at {file}"
    assert not [line for line in result.lines if "sub/loop/" in line]  # the loop: once
    # an icon: Material lacks is an icon plugin's (Obsidian), not an error: no word
    assert not [line for line in result.lines if "-icon.md" in line]
    assert snapshot(project.root, _OUTPUTS) == before  # no user byte changed, nothing added
    with (project.root / ".beliefbase" / CACHE_FILE).open("rb") as fh:  # the others cached
        assert "ok.md" in pickle.load(fh)[2]  # noqa: S301 - our own cache

    # deep emphasis: that paragraph is shown as text, the rest of the page renders
    article = result.article("deep-strong/")
    assert "<pre" in article and "**a **a **a" in article and "<strong>" not in article
    assert "<em>before</em>" in article and "<em>after</em>" in article
    # every other page is built, the embedding one too (the embed shows its source)
    for url in ("", "ok/", "stars/", "deep-meta/", "sub/inner/", "aliased/",
                "bad-template/", "missing-icon/"):
        assert (result.site / url / "index.html").is_file(), url
    assert "**a **a" in result.article("ok/")
    # bad template: and icon: fell back to the theme's own
    assert "/etc/passwd" not in result.page("bad-template/")
    assert 'class="md-content"' in result.page("missing-template/")
    # no page of the loop, the pipes or the bad name
    assert not (result.site / "sub" / "loop").exists()
    assert not (result.site / "pipe").exists() and not (result.site / "pipe.png").exists()
    assert not any("bad-" in p.name and "name" in p.name for p in result.site.iterdir())
    # the files MkDocs writes are not replaced by alias redirects
    assert (result.site / "sitemap.xml").read_text(encoding="utf-8").startswith("<?xml")
    assert "Redirecting" not in (result.site / "404.html").read_text(encoding="utf-8")


def test_a_page_python_markdown_cannot_convert_shows_its_source(
        project: Any, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Python-Markdown's RecursionError on a structure no pre-check catches (here:
    deep emphasis with its pre-check off) is a render-error; the page, and an
    embed of it, show the source; every other page is built."""
    monkeypatch.setattr(guards, "MAX_EMPHASIS", 10**9)
    options.pop("started")
    project.write("index.md", "# Home\n\n![[deep-strong]]\n")
    project.write("deep-strong.md", DEEP_STRONG, dedent=False)
    project.write("ok.md", "# Ok\n\n*fine*\n")
    result = project.build(plugins=["search", {"beliefbase": options}])
    assert result.error is None
    assert [line.split(": ")[0] for line in diagnostic_lines(result, "render-error")] == [
        "WARNING docs/deep-strong.md:1:1"]
    assert any("its Markdown could not be converted" in line
               for line in diagnostic_lines(result, "render-error"))
    article = result.article("deep-strong/")
    assert "This page could not be rendered" in article and "RecursionError" in article
    assert "<pre" in article and "**a **a **a" in article and "<strong>" not in article
    assert "&lt;em&gt;" not in article  # escaped once, not twice
    assert "**a **a" in result.article("")  # the embed: its source
    assert "<em>fine</em>" in result.article("ok/")


def test_generated_page_names_fit_the_file_system(project: Any) -> None:
    """--strict: a page path over the file-system limit used to end the build."""
    project.write("index.md", "# Home\n")
    project.write("long.md", f"---\naliases: [{LONG}]\ntags: [{LONG}]\n---\n# Long\n")
    from tests.hostile.vault import write_long_topic

    write_long_topic(project)
    (project.root / "raw" / "pipe.md").unlink()
    result = project.build(strict=True)
    assert result.error is None, result.lines
    names = [p.name for p in result.site.rglob("*")]
    assert max(len(n.encode()) for n in names) <= MAX_NAME_BYTES
    assert any(n.startswith("t" * 100) for n in names)  # the topic's page, cut
    assert (result.site / fit_name(LONG) / "index.html").is_file()  # the alias redirect


def test_fit_name_is_stable_and_distinct() -> None:
    assert fit_name("short") == "short"
    a, b = fit_name("é" * 150 + "a"), fit_name("é" * 150 + "b")
    assert a != b and a == fit_name("é" * 150 + "a")
    assert len(a.encode()) <= MAX_NAME_BYTES
    a.encode("utf-8")  # cut on a character boundary


def test_a_render_error_fails_a_strict_build_at_the_end(
        project: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A warning like any other: --strict still refuses the site, after building it."""
    monkeypatch.setattr(guards, "MAX_EMPHASIS", 10**9)
    project.write("index.md", "# Home\n")
    project.write("deep.md", DEEP_STRONG, dedent=False)
    result = project.build(strict=True)
    assert result.error is not None
    assert any(": render-error: " in line for line in result.lines)
    assert (result.site / "deep" / "index.html").is_file()


def test_a_note_pickle_cannot_take_is_not_cached(tmp_path: Path) -> None:
    """The others are: the cache file holds them, and loads."""
    from beliefbase.codecs.markdown import parse_markdown

    cache = ParseCache("digest", tmp_path)
    fine = parse_markdown("fine.md", b"# Fine\n", "docs/fine.md")  # type: ignore[arg-type]
    # a value nested deeper than pickle can follow, whatever YAML library read it (a
    # frontmatter like DEEP_META parses to one with PyYAML's C loader, not with others)
    nested: list[object] = []
    for _ in range(100_000):
        nested = [nested]
    deep = dataclasses.replace(fine, path="deep.md")
    # past ParsedDoc's freezing, which cuts such nesting off (frozen.MAX_DEPTH): the
    # cache must stand a record that still will not pickle
    object.__setattr__(deep, "meta", {"x": nested})
    cache.store(deep, (1, 1))
    cache.store(fine, (1, 1))
    cache.save()
    with (tmp_path / CACHE_FILE).open("rb") as fh:
        _fmt, _digest, entries = pickle.load(fh)  # noqa: S301 - written just above
    assert set(entries) == {"fine.md"}
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def _raise_for(name: str, method: Any, times: int = 1_000) -> Any:
    """``method`` of SiteBuild, raising for the note ``name`` (its first ``times`` calls)."""
    calls = [0]

    def wrapped(self: Any, doc: Any, *args: Any, **kwargs: Any) -> Any:
        if doc.path == name and calls[0] < times:
            calls[0] += 1
            raise ValueError(f"injected failure for {name}")
        return method(self, doc, *args, **kwargs)

    return wrapped


@pytest.mark.parametrize("reuse", [True, False])
def test_a_page_hook_that_raises_costs_that_page_only(
        project: Any, monkeypatch: pytest.MonkeyPatch, reuse: bool) -> None:
    """Reading the page (our on_page_read_source / on_page_markdown) fails: its
    source is its content, the theme renders it, the rest builds."""
    from beliefbase.site.session import SiteBuild

    project.write("index.md", "# Home\n\n[[boom]]\n")
    project.write("boom.md", "# Boom\n\n<b>raw</b> & text\n")
    monkeypatch.setattr(SiteBuild, "page_markdown",
                        _raise_for("boom.md", SiteBuild.page_markdown))
    result = project.build(plugins=["search", {"beliefbase": {"reuse_markdown": reuse}}])
    assert result.error is None
    assert any("docs/boom.md:1:1: render-error:" in line and "injected failure" in line
               for line in result.lines)
    assert any("at a line not known" in line and "it could not be read" in line
               for line in result.lines)
    assert not [line for line in result.lines if "Error reading page" in line]  # MkDocs' own
    article = result.article("boom/")
    assert "&lt;b&gt;raw&lt;/b&gt; &amp; text" in article and "<b>raw</b>" not in article
    assert (result.site / "index.html").is_file()


@pytest.mark.parametrize("times", [1, 1_000])
def test_a_page_the_theme_cannot_render_is_written_anyway(
        project: Any, monkeypatch: pytest.MonkeyPatch, times: int) -> None:
    """on_page_context fails once (the theme renders the source) or always (a page
    of ours)."""
    from beliefbase.site.session import SiteBuild

    project.write("index.md", "# Home\n\n[[boom]]\n")
    project.write("boom.md", "# Boom\n\n<b>raw</b> & text\n")
    monkeypatch.setattr(SiteBuild, "panels_after",
                        _raise_for("boom.md", SiteBuild.panels_after, times))
    result = project.build()
    assert result.error is None
    assert any("docs/boom.md:1:1: render-error: the theme could not render it" in line
               for line in result.lines)
    assert not [line for line in result.lines if "Error building page" in line]  # MkDocs' own
    html = result.page("boom/")
    assert "&lt;b&gt;raw&lt;/b&gt; &amp; text" in html and "<b>raw</b>" not in html
    assert ('class="md-content"' in html) == (times == 1)  # the theme's page, or ours
    assert "Home" in result.page("")


def test_a_bad_template_is_reported_at_its_frontmatter_line(project: Any) -> None:
    """``bad-template`` names the line of the ``template:`` key."""
    project.write("index.md", "# Home\n")
    project.write("t.md", "---\ntitle: T\ntags: [a]\ntemplate: nowhere.html\n---\n# T\n")
    result = project.build()
    assert result.error is None
    assert any("docs/t.md:4:1: bad-template:" in line for line in result.lines)


@pytest.mark.parametrize("icon", ["trees", "LiHome", "material/no-such-icon", "../x", "[a, b]"])
def test_an_icon_material_lacks_is_left_alone(project: Any, icon: str) -> None:
    """``icon:`` in an Obsidian vault belongs to icon plugins (Iconize, Icon Folder):
    Material never sees a name it lacks, the build says nothing and the page is built
    (``--strict`` too); an icon Material has is still shown."""
    project.write("index.md", "# Home\n")
    project.write("i.md", f"---\ntitle: I\nicon: {icon}\n---\n# I\n")
    project.write("m.md", "---\ntitle: M\nicon: material/home\n---\n# M\n")
    result = project.build(strict=True)
    assert result.error is None
    assert not [line for line in result.lines if "i.md" in line]
    assert "I" in result.article("i/")
    assert "md-nav__icon" in result.page("m/") or "svg" in result.page("m/")


def test_a_sidecar_that_is_a_pipe_is_not_opened(tmp_path: Path) -> None:
    """The command line finds sidecars by walking docs (``discover_sidecars``)."""
    from beliefbase.beliefs.load import load_sidecar

    pipe = tmp_path / "x.beliefs.json"
    os.mkfifo(pipe)
    sidecar, found = load_sidecar(pipe, "x.beliefs.json", "docs/x.beliefs.json")
    assert sidecar is None
    assert [d.code for d in found] == ["bad-sidecar"] and "regular" in found[0].message


@pytest.mark.parametrize("text", [
    "*" * 20000,  # a rule
    "*a" * 10000,  # intraword: neither opens nor closes
    "2 * 3 * 4 " * 500,
    "foo_bar_baz " * 500,
    "**bold** and _it_ " * 500,
    "".join("* item *a*\n" for _ in range(500)),
    "```\n" + "*p = *q;\n" * 500 + "\n\n" + "*x;\n" * 300 + "```\n",  # code is not emphasis
    "*a " * guards.MAX_EMPHASIS + "x" + " b*" * guards.MAX_EMPHASIS,  # at the limit
])
def test_deep_emphasis_leaves_ordinary_text_alone(text: str) -> None:
    assert guards.deep_emphasis(text) == []
    assert guards.make_renderable(text) == text


def test_deep_emphasis_is_fenced_as_text_alone() -> None:
    deep = "*a " * 300 + "x" + " b*" * 300
    text = f"# T\n\n*before*\n\n{deep}\n\n*after*\n"
    [block] = guards.deep_emphasis(text)
    assert (block.line, block.depth, block.kind) == (4, 300, "emphasis")
    assert guards.make_renderable(text) == (
        f"# T\n\n*before*\n\n```text\n{deep}\n```\n\n*after*\n")


@pytest.fixture(params=["speedups-off", "untested-mkdocs"])
def guard_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
               ) -> dict[str, Any]:
    """The plugin's options of a build whose render guard is the gated one with every
    speed-up off, or the public one (``site/page_guard.py``): every library a release
    beyond what was tested, as ``tests/speedups/test_speedups_gate.py`` fakes it."""
    from beliefbase.speedups import gate
    from beliefbase.speedups.render_guard import RenderGuard

    installed: list[str] = []
    real = RenderGuard.install
    monkeypatch.setattr(RenderGuard, "install",
                        lambda self: (installed.append("gated"), real(self))[1])
    if request.param == "speedups-off":
        request.addfinalizer(lambda: assert_guard(installed, ["gated"]))
        return {"speedups": False}
    for name in gate.TESTED:
        monkeypatch.setitem(gate.TESTED, name, ("0.0", "0.1"))
    request.addfinalizer(lambda: assert_guard(installed, []))
    return {}


def assert_guard(installed: list[str], expected: list[str]) -> None:
    assert installed == expected  # the private path ran, or only the public one


def test_a_page_that_cannot_be_converted_builds_on_every_mkdocs(
        project: Any, guard_mode: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """With the gate's guard off (an untested MkDocs) the public path catches the
    conversion: a render-error at the file, the page shows its source, the embed its
    source, every other page is built."""
    monkeypatch.setattr(guards, "MAX_EMPHASIS", 10**9)
    project.write("index.md", "# Home\n\n![[deep-strong]]\n")
    project.write("deep-strong.md", "# Deep\n\n" + DEEP_STRONG, dedent=False)
    project.write("ok.md", "# Ok\n\n*fine*\n\n## Part\n")
    result = project.build(plugins=["search", {"beliefbase": guard_mode}])
    assert result.error is None, result.lines
    found = diagnostic_lines(result, "render-error")
    assert [line.split(": ")[0] for line in found] == ["WARNING docs/deep-strong.md:1:1"]
    assert "its Markdown could not be converted" in found[0]
    article = result.article("deep-strong/")
    assert "This page could not be rendered" in article and "RecursionError" in article
    assert "<pre" in article and "**a **a **a" in article and "<strong>" not in article
    assert "&lt;em&gt;" not in article  # escaped once, not twice
    assert "**a **a" in result.article("")  # the embed: its source
    assert "<em>fine</em>" in result.article("ok/")
    assert 'href="#part"' in result.page("ok/")  # the next page's own table of contents


def test_a_page_hook_of_ours_that_raises_costs_that_page_only_on_every_mkdocs(
        project: Any, guard_mode: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from beliefbase.site.session import SiteBuild

    project.write("index.md", "# Home\n\n[[boom]]\n")
    project.write("boom.md", "# Boom\n\n<b>raw</b> & text\n")
    monkeypatch.setattr(SiteBuild, "page_markdown",
                        _raise_for("boom.md", SiteBuild.page_markdown))
    result = project.build(plugins=["search", {"beliefbase": guard_mode}])
    assert result.error is None, result.lines
    assert any("docs/boom.md:1:1: render-error:" in line and "injected failure" in line
               and "it could not be read" in line for line in result.lines)
    article = result.article("boom/")
    assert "&lt;b&gt;raw&lt;/b&gt; &amp; text" in article and "<b>raw</b>" not in article
    assert (result.site / "index.html").is_file()
