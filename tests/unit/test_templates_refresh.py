"""Our Jinja environment looks at its templates' files once per build, not at each
render (``Templates.refresh``), and a rebuild still renders an edited template."""

from __future__ import annotations

import os
from pathlib import Path

from beliefbase.site.templates import Templates


def _edit(path: Path, text: str) -> None:
    before = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 10**9, before + 10**9))  # a later time, whatever the clock


def test_an_edited_template_shows_after_refresh(tmp_path: Path) -> None:
    (tmp_path / "redirect.html").write_text("old {{ title }}", encoding="utf-8")
    templates = Templates(tmp_path)
    assert templates.render("redirect.html", title="T", url="u") == "old T"
    _edit(tmp_path / "redirect.html", "new {{ title }}")
    # within a build: the template loaded stays (no stat at each render)
    assert templates.render("redirect.html", title="T", url="u") == "old T"
    templates.refresh()  # the next build
    assert templates.render("redirect.html", title="T", url="u") == "new T"


def test_a_render_does_not_stat_the_template(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "redirect.html").write_text("{{ title }}", encoding="utf-8")
    templates = Templates(tmp_path)
    templates.render("redirect.html", title="T", url="u")
    looked: list[str] = []
    real = os.path.getmtime
    monkeypatch.setattr(os.path, "getmtime", lambda p: looked.append(str(p)) or real(p))
    for _ in range(3):
        templates.render("redirect.html", title="T", url="u")
    assert looked == []
    templates.refresh()
    assert len(looked) == 1


def test_render_same_is_render_once_per_context(tmp_path: Path) -> None:
    from beliefbase.site.escape import UserText

    (tmp_path / "link.html").write_text('<a href="{{ href }}">{{ title }}</a>', encoding="utf-8")
    templates = Templates(tmp_path)
    for href in ("../feed.xml", "feed.xml", "../feed.xml"):
        for title in ("<Feed>", UserText("<Feed>")):
            assert templates.render_same("link.html", href=href, title=title) == \
                templates.render("link.html", href=href, title=title)
    assert len(templates._same) == 4  # str and UserText are two contexts
    with templates.recording():  # what the HTML is made of, not the HTML: never kept
        recorded = templates.render_same("link.html", href="x", title="T")
        assert recorded == templates.render("link.html", href="x", title="T")
    assert len(templates._same) == 4
    _edit(tmp_path / "link.html", "new {{ href }}")
    assert templates.render_same("link.html", href="feed.xml", title="T").startswith("<a")
    templates.refresh()  # the next build: the edited template, rendered again
    assert templates.render_same("link.html", href="feed.xml", title="T") == "new feed.xml"
