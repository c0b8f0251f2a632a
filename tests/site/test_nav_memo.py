"""Material's default navigation rendered with the memo (``nav_cache``): same bytes, less work."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from beliefbase.speedups import nav_memo

from tests.conftest import differing

FEATURE_SETS = [
    [],
    ["navigation.indexes"],
    ["navigation.sections"],
    ["navigation.tabs", "navigation.sections", "navigation.indexes"],
    ["navigation.prune"],
    ["navigation.expand"],
    ["navigation.tabs"],
    ["navigation.tabs", "navigation.prune", "navigation.indexes"],
]


def vault(project) -> None:  # type: ignore[no-untyped-def]
    project.write("index.md", "# Home\n\nSee [[Alpha]] and [[Gamma <b>]].\n")
    project.write("alpha.md", "---\ntitle: Alpha\n---\n## Part\n\ntext [[Beta]]\n")
    project.write("topics/index.md", "# Topics\n")
    project.write("topics/beta.md", "# Beta\n\n## One\n\nx [[index]]\n")
    project.write("topics/deep/gamma.md", "# Gamma <b>\n\nx\n")
    project.write("topics/deep/delta.md", "---\ntitle: \"Delta <script>alert(1)</script>\"\n---\n")
    project.write("other/epsilon.md", "# Epsilon\n\n## A\n\n## B\n")
    project.write("other/sub/zeta.md", "# Zeta\n")


def build_both(project, tmp_path: Path, **changes):  # type: ignore[no-untyped-def]
    sites = []
    for flag in (True, False):
        result = project.build(plugins=["search", {"beliefbase": {"speedups": {"nav_cache": flag}}}], **changes)
        assert result.error is None
        copy = tmp_path / f"site-{flag}"
        shutil.copytree(result.site, copy)
        sites.append(copy)
    return sites


@pytest.mark.parametrize("features", FEATURE_SETS, ids=lambda f: "+".join(f) or "default")
def test_memoised_navigation_is_byte_identical(project, tmp_path, features) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    theme = {"name": "material", "font": False, "features": features}
    on, off = build_both(project, tmp_path, theme=theme)
    assert differing(on, off) == []
    page = (on / "topics/deep/gamma/index.html").read_text(encoding="utf-8")
    assert 'href="../../../other/epsilon/"' in page or "navigation.prune" in features
    assert "<script>alert(1)" not in page


def test_identical_with_explicit_nav_links_and_file_urls(project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    nav = [{"Home": "index.md"}, {"Docs": ["alpha.md", {"Topics": ["topics/beta.md",
                                                                  "topics/deep/gamma.md"]}]},
           {"Elsewhere": "https://example.org/x"}, {"Root link": "/abs/"}]
    on, off = build_both(project, tmp_path, nav=nav, use_directory_urls=False)
    assert differing(on, off) == []
    page = (on / "topics/deep/gamma.html").read_text(encoding="utf-8")
    assert 'href="https://example.org/x"' in page and 'href="../../alpha.html"' in page


def test_the_memo_does_the_rendering(project, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    memos: list[nav_memo.NavMemo] = []
    install = nav_memo.NavMemo.install

    def spy(self, env, **kwargs):  # type: ignore[no-untyped-def]
        memos.append(self)
        install(self, env, **kwargs)

    monkeypatch.setattr(nav_memo.NavMemo, "install", spy)
    assert project.build().error is None
    # every inactive subtree rendered once: top-level items and the folders' children
    assert len(memos) == 1 and len(memos[0]._subtrees) >= 8


def test_a_theme_with_another_nav_item_is_left_alone(project, tmp_path) -> None:  # type: ignore[no-untyped-def]
    vault(project)
    custom = project.root / "custom" / "partials"
    custom.mkdir(parents=True)
    (custom / "nav-item.html").write_text(
        "{% macro render(nav_item, path, level) %}<li class=mine>{{ nav_item.title }}"
        "</li>{% endmacro %}", encoding="utf-8")
    theme = {"name": "material", "font": False, "custom_dir": "custom"}
    result = project.build(theme=theme)
    assert result.error is None
    assert "<li class=mine>Alpha</li>" in result.page("topics/beta/")
