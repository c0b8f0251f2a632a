"""The one shape of a page feature (``site/feature.py``) and the one plan of what a
``--dirty`` build re-renders (``site/serve/plan.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from beliefbase.ids import SrcPath
from beliefbase.site import features
from beliefbase.site.feature import FeatureContext, Shown, SiteFeature
from beliefbase.site.reader.generated import GeneratedPages
from beliefbase.site.serve.plan import plan_renders


class ToyFeature(SiteFeature):
    """A feature of the test's own: a page, a row under every title, a panel."""

    name = "toy"
    row_rank = 5  # above every other row
    panel_rank = 5  # above every other panel

    @classmethod
    def make(cls, ctx: FeatureContext) -> ToyFeature:
        return cls()

    def add_files(self, files: Any, config: Any) -> list[Any]:
        GeneratedPages(files, config).add("toy.md")
        return []

    def owns(self, src: str) -> bool:
        return src == "toy.md"

    def meta(self, src: str) -> dict[str, Any]:
        return {"title": "Toy page"} if self.owns(src) else {}

    def content(self, src: str, page_url: str) -> str | None:
        return '<p class="toy-content">made by the toy</p>' if self.owns(src) else None

    def title_row(self, doc: Any, page_url: str) -> str:
        return '<p class="toy-row">row</p>'

    def panel(self, doc: Any, page_url: str) -> str:
        return '<aside class="toy-panel"></aside>'


def test_a_feature_is_one_registration_line(project, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "---\naliases: [Aye]\n---\n# A\n\nText.\n")
    plain = project.build()
    assert "toy-row" not in plain.article("a/")
    monkeypatch.setattr(features, "FEATURES", (*features.FEATURES, ToyFeature.make))
    result = project.build()
    assert result.error is None
    assert "made by the toy" in result.article("toy/")
    assert "<title>Toy page" in result.page("toy/")
    article = result.article("a/")
    # rows by rank: the toy's first, right under the title, then the aliases
    assert article.index("</h1>") < article.index("toy-row") < article.index("Aye") \
        < article.index("Text.")
    page = result.page("a/")
    assert page.index("Text.") < page.index("toy-panel")


def test_the_plan_compares_what_each_feature_showed(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "# A\n\nText.\n")
    project.write("b.md", "# B\n\nText.\n")
    project.write("c.md", "# C\n\nText.\n")
    compiler = project.compiler()
    first = compiler.compile(project.sources())
    project.write("c.md", "# C\n\nOther text.\n")
    second = compiler.compile(project.sources())
    a, b, c = SrcPath("a.md"), SrcPath("b.md"), SrcPath("c.md")
    before = {"f": Shown(notes={a: "1", b: "1"}, outputs=frozenset({"x/index.html",
                                                                     "y/index.html"})),
              "gone": Shown(outputs=frozenset({"z/index.html"}))}
    now = {"f": Shown(notes={a: "1", b: "2"}, outputs=frozenset({"y/index.html"})),
           "q": Shown(pages=frozenset({c}))}
    plan = plan_renders(first, second, before, now, nav_in_every_page=False)
    assert plan.pages == {b, c}  # b: its digest changed; c: the feature says so
    assert plan.gone == {"x/index.html", "z/index.html"}  # no feature makes them now
    assert plan.shown == now
    # the first dirty build compares nothing: it has no last build's digests
    assert plan_renders(first, second, {}, now, nav_in_every_page=False).pages == {c}
    # with no last compile every page is rendered
    assert plan_renders(None, second, before, now, nav_in_every_page=False).pages is None
