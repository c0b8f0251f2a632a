"""Jinja's and MkDocs' per-include and per-script work made cheaper
(``block_memo.flatten_globals``, ``block_memo.remember_script_tags``): the same
answers as the code they stand in for."""

from __future__ import annotations

from collections import ChainMap
from types import SimpleNamespace
from typing import Any

import jinja2
from beliefbase.speedups import block_memo
from hypothesis import given
from hypothesis import strategies as st
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.utils import templates

_MAPS = st.dictionaries(st.sampled_from("abcdefgh"), st.integers(), max_size=6)


@given(own=_MAPS, shared=_MAPS, more=st.lists(_MAPS, max_size=2))
def test_flat_globals_are_jinjas_chain(own: dict[str, int], shared: dict[str, int],
                                       more: list[dict[str, int]]) -> None:
    chain = ChainMap(own, shared, *more)
    flat = block_memo.FlatGlobals(own, shared, *more)
    assert list(flat) == list(chain)  # the same keys, in the same order
    assert set(flat) == set(chain) and dict(flat) == dict(chain)
    assert set(flat.keys()) == set(chain.keys()) and bool(flat) == bool(chain)
    for key in "abcdefghz":
        assert (key in flat) == (key in chain)
        assert flat.get(key) == chain.get(key)


def test_templates_keep_their_globals_and_see_later_ones() -> None:
    def steps(remember: bool) -> list[str]:
        env = jinja2.Environment(loader=jinja2.DictLoader({
            "a.html": "{{ x }}{% include 'b.html' %}", "b.html": "{{ y | default('-') }}"}))
        if remember:
            block_memo.remember_lookups(env)
        template = env.get_template("a.html")
        assert isinstance(template.globals, block_memo.FlatGlobals) is remember
        env.globals["x"] = "X"  # an environment global set after the template was loaded
        out = [template.render()]
        template.globals["y"] = "own"  # one of the template's own
        out += [template.render(), template.render(y="Y")]
        return out

    assert steps(True) == steps(False) == ["X-", "Xown", "XY"]


def _page(url: str) -> Any:
    return SimpleNamespace(url=url)


def _script(path: str, **options: Any) -> Any:
    script = ExtraScriptValue(path)
    for name, value in options.items():
        setattr(script, name, value)
    return script


_SCRIPTS = [
    "js/plain.js", "https://example.org/x.js", "/absolute.js", "../up.js", "js/a&b.js",
    _script("js/module.js", type="module"), _script("js/deferred.js", defer=True),
    _script("js/both.js", async_=True, defer=True), _script('q"uote.js', type='a"b'),
]
_PAGES = ["", "index.html", "a/", "a/b/", "a/b/c.html", "x/y/", "a/b/"]


@given(calls=st.lists(st.tuples(st.sampled_from(range(len(_SCRIPTS))),
                                st.sampled_from(_PAGES), st.booleans()), max_size=25))
def test_remembered_script_tags_are_mkdocs(calls: list[tuple[int, str, bool]]) -> None:
    env = jinja2.Environment()
    env.filters["script_tag"] = templates.script_tag_filter
    block_memo.remember_script_tags(env)
    remembered = env.filters["script_tag"]
    assert remembered is not templates.script_tag_filter
    for index, url, has_page in calls:
        context = {"page": _page(url) if has_page else None, "base_url": "../.."}
        script = _SCRIPTS[index]
        ours, mkdocs = remembered(context, script), templates.script_tag_filter(context, script)
        assert ours == mkdocs and type(ours) is type(mkdocs)


def test_another_script_tag_filter_is_left_alone() -> None:
    env = jinja2.Environment()
    env.filters["script_tag"] = mine = lambda value: value
    block_memo.remember_script_tags(env)
    assert env.filters["script_tag"] is mine
