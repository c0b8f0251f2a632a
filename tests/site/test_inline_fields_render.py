"""Dataview's inline fields render as its reading view shows them (``site/markdown/
inline_fields.py``): ``[key:: value]`` key and value in spans, ``(key:: value)`` the
value alone, ``Key:: value`` lines as written; links in values stay links."""

from __future__ import annotations

import re
from typing import Any

NOTE = """\
# Home

## Plan [due:: 2022-01-04]

Rating:: 4
Read it [mood:: *calm*] on (finished:: 2022-01-02), owner [owner:: [[a]]] #tag.

- [ ] ship [due:: 2022-01-03] and (took:: 3 days)
- plain:: [[a]]

| col | [cell:: x] |
|-----|------------|
| a | `[code:: no]` |
| [who:: [[a|Alias]]] | b |

Math $[m:: 1]$ and [[a]] and [^1] and [x](http://e.org) and [[a|[k:: no]]].

[^1]: A footnote with [foot:: yes].
"""


def _build(project: Any) -> str:
    project.write("index.md", NOTE, dedent=False)
    project.write("a.md", "# A\n")
    result = project.build()
    return re.sub(r' data-bb-target="[^"]*"', "", result.article(""))


def _field(key: str, value: str, norm: str | None = None) -> str:
    attrs = f'data-dv-key="{key}" data-dv-norm-key="{norm or key}"'
    return (f'<span class="dataview inline-field"><span class="dataview inline-field-key" '
            f'{attrs}>{key}</span><span class="dataview inline-field-value" {attrs}>{value}'
            "</span></span>")


def _value(key: str, value: str) -> str:
    attrs = f'data-dv-key="{key}" data-dv-norm-key="{key}"'
    return (f'<span class="dataview inline-field"><span class="dataview '
            f'inline-field-standalone-value" {attrs}>{value}</span></span>')


def test_inline_fields_render_as_in_reading_view(project: Any) -> None:
    article = _build(project)
    link = '<a class="bb-link" href="a/">A</a>'
    assert "Rating:: 4\n" in article  # a line field stays as written
    assert f"Read it {_field('mood', '<em>calm</em>')} on " in article
    assert _value("finished", "January 02, 2022") in article
    assert f"owner {_field('owner', link)} " in article
    assert 'href="tags/tag/"' in article or "#tag" in article
    assert _field("due", "January 03, 2022") in article
    assert _value("took", "3 days") in article
    assert f"plain:: {link}" in article  # a list line needs brackets
    assert _field("cell", "x") in article and "<table>" in article
    assert "<code>[code:: no]</code>" in article
    assert _field("who", '<a class="bb-link" href="a/">Alias</a>') in article  # a | in a cell
    assert "data-dv-key=\"m\"" not in article and "data-dv-key=\"k\"" not in article
    assert _field("foot", "yes") in article
    assert 'href="http://e.org"' in article
    # a heading keeps its field as written: its anchor is made from its text
    assert '<h2 id="plan-due-2022-01-04">Plan [due:: 2022-01-04]<a' in article
