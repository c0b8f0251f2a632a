"""Values as HTML (escaped, as Dataview shows them), hostile values, DataviewJS."""

from __future__ import annotations

import datetime as dt
import math
import re

import pytest
from beliefbase.dataview import (
    DataviewError,
    Duration,
    ExternalLink,
    Link,
    format_html,
    inline_kind,
    is_js_fence,
    not_run,
    run,
)
from beliefbase.dataview.javascript import DIAGNOSTIC_CODE
from hypothesis import given, settings
from hypothesis import strategies as st

from . import vaults
from .vaults import NOW


@pytest.mark.parametrize(("value", "html"), [
    (None, '<span class="dataview-null">-</span>'),
    ("a < b & c", "a &lt; b &amp; c"),
    (3, "3"), (2.5, "2.5"), (True, "true"), (math.inf, "Infinity"),
    (dt.datetime(2021, 4, 4), '<span class="dataview-date">April 04, 2021</span>'),
    (dt.datetime(2021, 4, 18, 16, 19), '<span class="dataview-date">4:19 PM - April 18, 2021'
                                       "</span>"),
    (Duration(days=3, hours=4), '<span class="dataview-duration">3 days, 4 hours</span>'),
    (Duration(years=1, weeks=1), '<span class="dataview-duration">1 year, 1 week</span>'),
    (Link("Games/Stardew Valley.md"),
     '<a class="internal-link" data-href="Games/Stardew Valley.md">Stardew Valley</a>'),
    (Link("x.md", "<b>"), '<a class="internal-link" data-href="x.md|&lt;b&gt;">&lt;b&gt;</a>'),
    (("a", 1), '<ul class="dataview-list"><li>a</li><li>1</li></ul>'),
    ((), '<span class="dataview-empty-list"></span>'),
    ({"k<": "v"}, '<ul class="dataview-object"><li><span class="dataview-key">k&lt;</span>: '
                  "v</li></ul>"),
    (ExternalLink("www.google.com", "Google"),
     '<a class="external-link" href="https://www.google.com" rel="noopener">Google</a>'),
    (ExternalLink("javascript:alert(1)"), '<span class="dataview-link">javascript:alert(1)</span>'),
])
def test_format_html(value: object, html: str) -> None:
    assert format_html(value) == html


def test_link_href_and_broken_links() -> None:
    def href(link: Link) -> str | None:
        return "/games/stardew/" if link.path.endswith("Valley.md") else None

    assert format_html(Link("Games/Stardew Valley.md"), href) == (
        '<a class="internal-link" href="/games/stardew/">Stardew Valley</a>')
    assert format_html(Link("Missing"), href) == (
        '<span class="internal-link broken" title="Missing">Missing</span>')


HOSTILE = vaults.build_index([
    vaults.page("evil.md", 'note:: <script>alert("x")</script>\n[h:: <img src=x onerror=a()>]',
                {"title": "<script>bad()</script>", "n": 10**400 if False else 1e308,
                 "nested": [[[["<b>deep</b>"]]]]}),
])


def test_script_in_a_property_stays_text() -> None:
    result = run("TABLE title, note, h, nested", HOSTILE, None, now=NOW)
    html = "".join(format_html(v) for v in result.rows[0].values)
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;bad()&lt;/script&gt;" in html


@pytest.mark.parametrize("query", [
    'TABLE regexreplace(title, "(a+)+$", "x")',
    'LIST WHERE regextest("(a|aa)+$", "' + "a" * 40 + 'b")',
])
def test_hostile_regex_ends(query: str) -> None:
    try:
        run(query, HOSTILE, None, now=NOW)
    except DataviewError as err:
        assert "too long" in err.message


def test_huge_numbers_and_dates_do_not_crash() -> None:
    for query in ["TABLE n * n * n", "TABLE date(today) + dur(999999 years)",
                  'TABLE padleft("x", 999999999)', "TABLE 1 / 0, 0 / 0, -1 / 0",
                  "TABLE flat([1], 999999999)"]:
        try:
            result = run(query, HOSTILE, None, now=NOW)
        except DataviewError:
            continue
        for value in result.rows[0].values:
            format_html(value)


def test_deep_nesting_evaluates_or_is_refused() -> None:
    deep = "map([1], (x) => " * 60 + "x" + ")" * 60
    value = run(f"TABLE {deep}", HOSTILE, None, now=NOW).rows[0].values[0]
    for _ in range(59):
        (value,) = value
    assert value == (1,)
    with pytest.raises(DataviewError) as info:
        run("TABLE " + "map([1], (x) => " * 250 + "x" + ")" * 250, HOSTILE, None, now=NOW)
    assert "nested too deeply" in info.value.message


def test_no_file_or_network_access_from_queries() -> None:
    # a FROM of an absolute or parent path selects nothing; nothing is read
    assert run('LIST FROM "/etc"', HOSTILE, None, now=NOW).rows == ()
    assert run('LIST FROM "../"', HOSTILE, None, now=NOW).rows == ()


def test_dataviewjs_is_never_run() -> None:
    assert is_js_fence("dataviewjs") and is_js_fence(" DataviewJS ")
    assert not is_js_fence("dataview")
    assert inline_kind("$= dv.current()") == "js" and inline_kind("= this.x") == "dql"
    assert inline_kind("print()") is None
    stub = not_run("dv.table([], [])")
    assert stub.diagnostic_code == DIAGNOSTIC_CODE == "dataview-js-not-run"
    assert stub.code == "dv.table([], [])" and "not run" in stub.note


def test_text_repetition_is_bounded() -> None:
    assert run('TABLE "ab" * 3', HOSTILE, None, now=NOW).rows[0].values == ("ababab",)
    with pytest.raises(DataviewError) as info:
        run('TABLE "x" * 999999999', HOSTILE, None, now=NOW)
    assert "longer than" in info.value.message


def test_deeply_nested_and_cyclic_frontmatter_is_cut() -> None:
    deep: object = 1
    for _ in range(5000):
        deep = [deep]
    cyclic: list[object] = []
    cyclic.append(cyclic)
    index = vaults.build_index([vaults.page("a.md", "", {"deep": deep, "cyclic": cyclic})])
    (row,) = run("TABLE deep, cyclic", index, None, now=NOW).rows
    for value in row.values:
        assert format_html(value)


_HOSTILE_TEXT = st.text(alphabet=st.sampled_from(list("<>&\"' script=/aé[]|#:")), max_size=30)
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), _HOSTILE_TEXT,
              _HOSTILE_TEXT.map(lambda t: Link(t or "x", t)),
              st.tuples(_HOSTILE_TEXT, _HOSTILE_TEXT).map(lambda p: ExternalLink(*p))),
    lambda inner: st.one_of(st.lists(inner, max_size=3).map(tuple),
                            st.dictionaries(_HOSTILE_TEXT, inner, max_size=3)),
    max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_formatted_values_never_carry_markup_from_data(value: object) -> None:
    html = format_html(value, lambda link: "/x/?a=1&b=" + link.path)
    # every tag in the output is one of the formatter's own
    for tag in re.findall(r"<\s*/?\s*([a-zA-Z]+)", html):
        assert tag in {"span", "a", "ul", "li"}
    assert "<script" not in html and "javascript:" not in html.split('href="')[-1][:11]
