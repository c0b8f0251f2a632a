"""``lang.t`` answered once per build (``speedups/language_memo.py``): the same strings."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
import pytest
from beliefbase.speedups import language_memo
from hypothesis import given
from hypothesis import strategies as st

#: Material's language.html and two language templates, in miniature
_TEMPLATES = {
    "partials/language.html": (
        '{% import "partials/languages/" ~ config.theme.language ~ ".html" as lang %}'
        '{% import "partials/languages/en.html" as fallback %}'
        "{% macro t(key) %}{{ lang.t(key) or fallback.t(key) or key }}{% endmacro %}"),
    "partials/languages/en.html": (
        '{% macro t(key) %}{{ {"nav": "Navigation", "search": "Search", "amp": "a & b"}'
        "[key] }}{% endmacro %}"),
    "partials/languages/de.html": (
        '{% macro t(key) %}{{ {"nav": "Navigation (de)", "search": "Suche"}[key] }}'
        "{% endmacro %}"),
    "page.html": ('{% import "partials/language.html" as lang with context %}'
                  "{{ page }}|{% for key in keys %}{{ lang.t(key) }};{% endfor %}"),
}


def _env(memo: language_memo.LanguageMemo | None) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.DictLoader(_TEMPLATES), auto_reload=False)
    if memo is not None:
        memo.wrap(env.get_template(language_memo.LANGUAGE))
    return env


def _config(language: str) -> Any:
    return SimpleNamespace(theme={"language": language})


_KEYS = st.lists(st.sampled_from(["nav", "search", "amp", "missing", "<b>", ""]), max_size=8)


@given(pages=st.lists(st.tuples(st.sampled_from(["en", "de"]), _KEYS), min_size=1,
                      max_size=6))
def test_the_memo_prints_what_jinja_prints(pages: list[tuple[str, list[str]]]) -> None:
    memo = language_memo.LanguageMemo()
    plain, memoised = _env(None), _env(memo)
    configs = {"en": _config("en"), "de": _config("de")}
    for i, (language, keys) in enumerate(pages):
        context = {"config": configs[language], "page": f"p{i}", "keys": keys}
        assert (memoised.get_template("page.html").render(context)
                == plain.get_template("page.html").render(context))
    assert memo.hits == len(pages) - len({language for language, _ in pages})


def test_each_configuration_and_language_its_own_module() -> None:
    memo = language_memo.LanguageMemo()
    env = _env(memo)
    page = env.get_template("page.html")
    config = _config("en")
    assert page.render(config=config, page="a", keys=["nav"]) == "a|Navigation;"
    config.theme["language"] = "de"  # (a serve rebuild makes a new memo; still right)
    assert page.render(config=config, page="b", keys=["nav"]) == "b|Navigation (de);"
    assert page.render(config=_config("en"), page="c", keys=["search"]) == "c|Search;"
    assert memo.hits == 0


def test_calls_other_than_one_key_go_to_the_macro() -> None:
    memo = language_memo.LanguageMemo()
    env = _env(memo)
    module = env.get_template(language_memo.LANGUAGE).make_module(
        {"config": _config("en")}, True, {})
    assert module.t("nav") == "Navigation"
    assert module.t(key="search") == "Search"  # a keyword: not kept, still answered
    with pytest.raises(TypeError):
        module.t("nav", "extra")  # the macro's own error
    with pytest.raises(jinja2.UndefinedError):  # no configuration: Jinja's own path
        env.get_template(language_memo.LANGUAGE).make_module({}, True, {})


@pytest.mark.parametrize("vars", [None, {}, {"config": None}, {"config": _config("en")}])
def test_key_of_a_context(vars: Any) -> None:
    key = language_memo._key(vars)
    if vars and vars.get("config") is not None:
        assert key == (id(vars["config"]), "en")
    else:
        assert key is None


def test_materials_language_template_is_memoised_in_a_build(tmp_path: Path) -> None:
    """Material's own ``language.html`` is the one ``BlockMemo`` hands over."""
    from beliefbase.speedups.block_memo import BlockMemo, material_templates
    from beliefbase.speedups.nav_memo import NavMemo

    folder = material_templates("material")
    assert folder is not None and (folder / language_memo.LANGUAGE).is_file()
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), auto_reload=False)
    memo = BlockMemo(NavMemo(lambda context, value: value), folder)
    template = env.get_template(language_memo.LANGUAGE)
    memo.wrap(template)
    config = SimpleNamespace(theme={"language": "en"})
    first = template.make_module({"config": config}, True, {})
    assert template.make_module({"config": config}, True, {}) is first
    assert first.t("search.placeholder") == "Search"
    assert memo.language.hits == 1
