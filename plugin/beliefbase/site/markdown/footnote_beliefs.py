"""Footnotes that link to the beliefs citing them.

A page's sidecar says which belief each footnote supports
(``footnote_ids``).  This Python-Markdown extension adds, inside each
footnote of the page being rendered, a small list of links to those belief
pages.  The list's HTML comes from the ``beliefs/footnote-links.html``
template (through ``links``, given by the site build: the current page's);
this module only finds the footnotes and places the fragment.

Treeprocessor ``bb_footnote_beliefs`` (13, and why): the ``footnotes``
extension builds its ``<div class="footnote">`` at 50, reorders it at 19 and
appends duplicate back-references to each item's last element at 15, so we
run after all of those (or our list would receive the back-links), and
before ``attr_list`` (8) and ``toc`` (5), which do not care about it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from xml.etree import ElementTree as etree

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor

#: footnote id -> HTML of its link list, for the page being rendered ({} for none).
FootnoteLinks = Callable[[], Mapping[str, str]]


class FootnoteBeliefs(Treeprocessor):
    """Appends the belief links to each ``<li id="fn:ID">`` of the footnote list."""

    def __init__(self, md: Markdown, extension: FootnoteBeliefsExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, root: etree.Element) -> None:
        links = self.extension.links
        found = links() if links is not None else {}
        if not found:
            return
        separator, unique = self._footnote_config()
        for div in root.iter("div"):
            if "footnote" not in div.get("class", "").split():
                continue
            for ol in div.findall("ol"):
                for li in ol.findall("li"):
                    html = found.get(self._footnote_id(li.get("id", ""), separator, unique))
                    if html:
                        slot = etree.SubElement(li, "p")  # <p>placeholder</p>: a block slot
                        slot.text = self.md.htmlStash.store(html)
            break

    def _footnote_config(self) -> tuple[str, bool]:
        for ext in self.md.registeredExtensions:
            if type(ext).__name__ == "FootnoteExtension":
                return str(ext.getConfig("SEPARATOR")), bool(ext.getConfig("UNIQUE_IDS"))
        return ":", False

    @staticmethod
    def _footnote_id(item_id: str, separator: str, unique: bool) -> str:
        """``fn:2`` -> ``2`` (``fn:3-2`` -> ``2`` with UNIQUE_IDS)."""
        _, _, rest = item_id.partition(separator)
        if unique:
            _, _, rest = rest.partition("-")
        return rest


class FootnoteBeliefsExtension(Extension):
    """Registers ``FootnoteBeliefs``; ``links``: the belief links of the page being
    rendered (``BeliefSite.footnote_links``), None for none."""

    def __init__(self, links: FootnoteLinks | None = None, **kwargs: object) -> None:
        self.links = links
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown API
        md.treeprocessors.register(FootnoteBeliefs(md, self), "bb_footnote_beliefs", 13)
