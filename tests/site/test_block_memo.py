"""Material's page-independent parts rendered once (``theme_cache``): the same site."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from beliefbase.speedups import block_memo

from tests.conftest import differing

from .test_markdown_offload import PAGES, build


@pytest.fixture
def memos(monkeypatch: pytest.MonkeyPatch) -> list[block_memo.BlockMemo]:
    """Every BlockMemo installed, to look at what it memoised."""
    made: list[block_memo.BlockMemo] = []
    init = block_memo.BlockMemo.__init__

    def spy(self: block_memo.BlockMemo, *args: Any) -> None:
        init(self, *args)
        made.append(self)

    monkeypatch.setattr(block_memo.BlockMemo, "__init__", spy)
    return made


def _nested_pages(project: Any) -> None:
    """Pages at several depths, some inside folders named like Material's assets: a
    relative link to ``assets/...`` differs there from other pages of that depth."""
    project.write("assets/inside.md", "# Inside assets\n\nSee [[page-1]].\n", dedent=False)
    project.write("assets/javascripts/deep.md", "# Deep\n\nSee [[page-2]].\n", dedent=False)
    project.write("a/b/c/deeper.md", "# Deeper\n\nSee [[Inside assets]].\n", dedent=False)


def test_memoised_parts_write_the_same_site_and_log(
        project: Any, tmp_path: Path, memos: list[block_memo.BlockMemo]) -> None:
    _nested_pages(project)
    on, on_log = build(project, tmp_path, True, option="theme_cache")
    assert len(memos) == 1
    memo = memos[0]
    off, off_log = build(project, tmp_path, False, option="theme_cache")
    assert len(memos) == 1  # the option off installs none
    assert differing(on, off) == []
    assert on_log == off_log
    # what was memoised, and what was found to read the page
    assert {"base.html#config", "partials/search.html", "partials/logo.html",
            "partials/palette.html"} <= set(memo._made)  # (the plugin's default palette)
    assert memo.hits >= 5 * PAGES
    assert memo.language.hits >= PAGES - 1  # lang.t: one module for the build
    html = (on / "assets/inside/index.html").read_text(encoding="utf-8")
    assert '"search": "../javascripts/workers/search.' in html  # relative to a page in assets/


@pytest.mark.parametrize("directory_urls", [True, False])
def test_without_the_navigation_memo_too(project: Any, tmp_path: Path, directory_urls: bool,
                                         memos: list[block_memo.BlockMemo]) -> None:
    _nested_pages(project)
    project.config["use_directory_urls"] = directory_urls
    on, _ = build(project, tmp_path, True, option="theme_cache", nav_cache=False)
    off, _ = build(project, tmp_path, False, option="theme_cache", nav_cache=False)
    assert differing(on, off) == []
    assert memos[0].hits > 0


def test_a_users_overrides_are_rendered_for_every_page(
        project: Any, tmp_path: Path, memos: list[block_memo.BlockMemo]) -> None:
    overrides = project.root / "overrides"
    (overrides / "partials").mkdir(parents=True)
    # a partial of the memo's list, overridden with the page's title
    (overrides / "partials/logo.html").write_text(
        '<span class="logo-of">{{ page.title }}</span>\n', encoding="utf-8")
    # a block of the memo's list, overridden to print the page's URL, then Material's
    (overrides / "main.html").write_text(
        '{% extends "base.html" %}\n{% block config %}<meta name="page-url" '
        'content="{{ page.url }}">{{ super() }}{% endblock %}\n', encoding="utf-8")
    project.config["theme"] = {**project.config["theme"], "custom_dir": "overrides"}
    on, on_log = build(project, tmp_path, True, option="theme_cache")
    off, off_log = build(project, tmp_path, False, option="theme_cache")
    assert differing(on, off) == []
    assert on_log == off_log
    for i in (1, 2):
        html = (on / f"page-{i}/index.html").read_text(encoding="utf-8")
        assert f'content="page-{i}/"' in html
        assert f'<span class="logo-of">Page {i}</span>' in html
    memo = memos[0]
    assert "partials/logo.html" not in memo._made  # the user's, not Material's
    assert "base.html#config" in memo._made  # Material's block, under the user's super()


def test_a_serve_rebuild_starts_a_new_memo(project: Any, tmp_path: Path,
                                           memos: list[block_memo.BlockMemo]) -> None:
    first, _ = build(project, tmp_path, True, option="theme_cache")
    project.config["site_name"] = "Renamed KB"  # in the search form? in the title parts
    project.config["theme"] = {**project.config["theme"], "language": "de"}
    result = project.build(plugins=["search", {"beliefbase": {"theme_cache": True}}])
    assert result.error is None
    assert len(memos) == 2 and memos[1] is not memos[0]
    html = (result.site / "page-1/index.html").read_text(encoding="utf-8")
    assert "Suche" in html  # the German search form, not the first build's memo
    shutil.rmtree(first)


def test_remembered_lookups_answer_as_jinja_does(tmp_path: Path) -> None:
    import jinja2

    (tmp_path / "a.html").write_text("A{% include 'b.html' %}", encoding="utf-8")
    (tmp_path / "b.html").write_text("B", encoding="utf-8")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(tmp_path), auto_reload=False)
    loaded: list[str] = []
    block_memo.remember_lookups(env, lambda template: loaded.append(template.name))
    first = env.get_template("a.html")
    assert env.get_template("a.html") is first
    assert env.get_template("a.html", "other.html") is first  # a parent joins to the name
    assert first.render() == "AB"
    with pytest.raises(jinja2.TemplateNotFound):
        env.get_template("missing.html")
    with pytest.raises(jinja2.TemplateNotFound):  # not remembered as found
        env.get_template("missing.html")
    assert env.get_template(first) is first  # a Template passes through
    with_globals = env.get_template("b.html", globals={"x": 1})
    assert with_globals.render() == "B"
    assert loaded == ["a.html", "b.html"]  # each once, when first found


def test_an_environment_joining_paths_its_own_way_is_left_alone(tmp_path: Path) -> None:
    import jinja2

    class Relative(jinja2.Environment):
        def join_path(self, template: str, parent: str) -> str:
            return f"{parent.rpartition('/')[0]}/{template}".lstrip("/")

    env = Relative(loader=jinja2.DictLoader({"x/a.html": "A", "a.html": "top"}))
    get_template = env.get_template
    block_memo.remember_lookups(env)
    assert env.get_template == get_template  # not replaced
    assert env.get_template("a.html", "x/p.html").render() == "A"
