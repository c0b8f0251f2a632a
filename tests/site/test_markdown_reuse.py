"""One Python-Markdown instance per build (``reuse_markdown``): the same site, byte for byte."""

from __future__ import annotations

import shutil
from pathlib import Path

import markdown
from beliefbase.speedups import markdown_reuse

from tests.conftest import differing

EXTENSIONS = [
    {"toc": {"permalink": True}}, "abbr", "admonition", "attr_list", "def_list", "footnotes",
    "md_in_html", "tables", "pymdownx.details", "pymdownx.highlight", "pymdownx.inlinehilite",
    "pymdownx.superfences", "pymdownx.tasklist", "pymdownx.mark", "pymdownx.caret",
    {"pymdownx.tabbed": {"alternate_style": True}},
]

# Every page defines or uses what a leaky instance would carry to the next one:
# footnotes with the same labels, abbreviations, reference links, repeated headings.
PAGES = {
    "index.md": "# Home\n\nHTML and [ref] and a note[^1].\n\n[^1]: First home note.\n\n"
                "*[HTML]: Hyper Text\n[ref]: https://example.org/home\n",
    "a.md": "# A\n\n## Same\n\n## Same\n\nNo abbreviation: HTML. No [ref] here.[^1]\n\n"
            "[^1]: A's own note.\n\n!!! note \"Box\"\n    Inside [[b]].\n",
    "b.md": "# B\n\nTerm\n:   Definition\n\n- [x] done\n- [ ] open\n\n"
            "=== \"One\"\n    one\n\n=== \"Two\"\n    two\n\n```python\nx = 1\n```\n\n"
            "| a | b |\n|---|---|\n| [[a]] | ==m== |\n",
    "c.md": "# C\n\n<div markdown>\n*inside*\n</div>\n\n??? tip \"More\"\n    ^^ins^^\n\n"
            "## Same\n\nHTML again[^x].\n\n[^x]: C.\n",
}


def build_both(project, tmp_path: Path):  # type: ignore[no-untyped-def]
    for path, text in PAGES.items():
        project.write(path, text, dedent=False)
    sites = []
    for flag in (True, False):
        result = project.build(plugins=["search", {"beliefbase": {"reuse_markdown": flag}}],
                               markdown_extensions=EXTENSIONS)
        assert result.error is None
        copy = tmp_path / f"site-{flag}"
        shutil.copytree(result.site, copy)
        sites.append(copy)
    return sites


def test_reused_instance_renders_the_same_site(project, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    made: list[markdown_reuse.MarkdownReuse] = []
    install = markdown_reuse.MarkdownReuse.install

    def spy(self):  # type: ignore[no-untyped-def]
        made.append(self)
        install(self)

    monkeypatch.setattr(markdown_reuse.MarkdownReuse, "install", spy)
    on, off = build_both(project, tmp_path)
    assert len(made) == 1 and made[0].reused >= 3  # every page after the first reused it
    assert differing(on, off) == []
    a = (on / "a/index.html").read_text(encoding="utf-8")
    assert "Hyper Text" not in a and "example.org/home" not in a  # nothing leaked from index
    assert 'id="same_1"' in a


def test_unknown_extensions_keep_mkdocs_behaviour() -> None:
    assert markdown_reuse.reusable(["toc", "pymdownx.superfences", "markdown.extensions.tables"])
    assert not markdown_reuse.reusable(["toc", "my_company.markdown_ext"])

    class Custom(markdown.Extension):
        pass

    assert not markdown_reuse.reusable([Custom()])


def test_mkdocs_gets_its_module_back_after_the_pages() -> None:
    import mkdocs.structure.pages as pages

    reuse = markdown_reuse.MarkdownReuse(["toc"], {})
    reuse.install()
    try:
        first = pages.markdown.Markdown(extensions=["toc"], extension_configs={})
        nested = pages.markdown.Markdown(extensions=["toc"], extension_configs={})
        assert nested is not first  # the instance is busy until it converted
        first.convert("# x")
        assert pages.markdown.Markdown(extensions=["toc"], extension_configs={}) is first
        other = pages.markdown.Markdown(extensions=["tables"], extension_configs={})
        assert other is not first
    finally:
        markdown_reuse.MarkdownReuse.uninstall()
    assert pages.markdown is markdown


def test_an_instance_made_ahead_is_handed_out_fresh_then_reset() -> None:
    reuse = markdown_reuse.MarkdownReuse(["toc", "tables"], {})
    reuse.prepare()
    made = reuse._md
    assert reuse.markdown(["toc", "tables"], {}) is made and reuse.reused == 0
    reuse._busy = False
    assert reuse.markdown(["toc", "tables"], {}) is made and reuse.reused == 1  # reset


def test_an_instance_made_ahead_is_made_again_if_the_extensions_changed() -> None:
    extensions: list[object] = ["toc"]
    reuse = markdown_reuse.MarkdownReuse(extensions, {})
    reuse.prepare()
    made = reuse._md
    extensions.append("tables")  # a later hook added one to mkdocs.yml's list
    md = reuse.markdown(["toc", "tables"], {})
    assert md is not made and "table" in md.parser.blockprocessors
