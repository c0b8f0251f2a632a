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
