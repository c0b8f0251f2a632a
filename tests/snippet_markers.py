"""Raw Markdown in the snippets of a built site: the check the snippet tests share.

``python -m tests.snippet_markers SITE_DIR`` counts the snippets (backlinks, unlinked
mentions, entity sentences, folder and recent blurbs, ``previews.json`` excerpts)
that show Markdown syntax a reader of the page never sees, and prints examples.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

#: Markdown and Obsidian syntax that must not reach a snippet's visible text.
#: (``#tag`` is shown as Obsidian shows it, with its ``#``: not a marker.)
RAW = re.compile(
    r"""
      \[\[ | \]\] | !\[ | \]\( | \[\^ | \^\[             # wikilinks, embeds, links, footnotes
    | \$\$ | (?<![\w$])\$(?=[^\s$\d])[^$]*[^\s$]\$        # math delimiters
    | ` | ~~ | == | %% | \*\* | __                        # code, strike, highlight, comments
    | \[![A-Za-z]                                          # callout markers
    | (?:^|\s)>[-+]?(?=\s|$)                               # quote markers
    | (?:^|\s)\#{1,6}\s                                    # heading hashes
    | (?:^|\s)(?:-{3,}|={3,}|\*{3,}|_{3,})(?=\s|$)         # rules, setext underlines
    | (?:^|\s)\^[A-Za-z0-9-]+(?=\s|$)                      # block ids
    | [A-Za-z_]\w*::                                       # inline field keys
    | ^\s*(?:[-*+]|\d+[.)])\s                              # list markers
    | \|\s*:?-{3,}                                         # table separator rows
    | \[[ xX]\]\s                                          # task boxes
    | <[A-Za-z/!]                                          # HTML
    """,
    re.VERBOSE,
)


def raw_markers(text: str) -> list[str]:
    """The raw Markdown found in a snippet's visible text."""
    return [m.group(0).strip() for m in RAW.finditer(text)]


_SNIPPET_HTML = re.compile(
    r'<(p|span|q) class="(?:bb-backlinks__snippet|bb-folder__description|bb-recent__summary'
    r'|bb-entity-page__sentence)">(.*?)</\1>', re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")
_MATH = re.compile(r'<span class="bb-math">.*?</math></span>', re.DOTALL)
_CODE = re.compile(r"<code>.*?</code>", re.DOTALL)


def snippets_of(site: Path) -> dict[str, list[str]]:
    """Kind -> the visible text of every snippet of a built site (code runs left out:
    what is inside ``<code>`` is shown as code, whatever it holds)."""
    found: dict[str, list[str]] = {"html": [], "previews": []}
    for page in site.rglob("*.html"):
        text = _MATH.sub(" ", page.read_text(encoding="utf-8", errors="replace"))
        for m in _SNIPPET_HTML.finditer(text):
            inner = _CODE.sub(" ", m.group(2))
            found["html"].append(html.unescape(_TAGS.sub("", inner)))
    previews = next(site.rglob("previews.json"), None)
    if previews is not None:
        pages = json.loads(previews.read_text(encoding="utf-8"))["pages"]
        found["previews"] = [_outside_code(p) for p in pages.values() if p["excerpt"]]
    return found


def _outside_code(page: dict[str, object]) -> str:
    """A preview's excerpt without the runs it shows as code (``code``: their ranges)."""
    text = str(page["excerpt"])
    for start, end in reversed(page.get("code") or []):  # type: ignore[attr-defined]
        text = text[:start] + " " + text[end:]
    return text


def main() -> int:
    site = Path(sys.argv[1])
    for kind, texts in snippets_of(site).items():
        bad = [t for t in texts if raw_markers(t)]
        print(f"{kind}: {len(bad)} of {len(texts)} snippets show raw Markdown")
        for text in bad[:int(sys.argv[2]) if len(sys.argv) > 2 else 5]:
            print("   ", raw_markers(text)[:4], repr(text[:120]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
