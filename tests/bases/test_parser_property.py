"""The expression parser and evaluator raise nothing but the engine's own error."""

from __future__ import annotations

from beliefbase.bases import parse_base
from beliefbase.bases.errors import ExprError
from beliefbase.bases.syntax import parse_expression
from hypothesis import given, settings
from hypothesis import strategies as st

from .vault import ev

TOKENS = st.sampled_from([
    "(", ")", "[", "]", "{", "}", ".", ",", ":", "!", "&&", "||", "==", "!=", "<", ">=",
    "+", "-", "*", "/", "%", "1", "2.5", ".5", "1e3", '"a"', "'b'", "/x+/g", "true", "null",
    "file", "note", "formula", "this", "value", "price", "genres", "name", "if", "date",
    "now", "contains", "map", "filter", "reduce", "length", "\\", "\n", " ", "#", "$", "é",
])


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_random_text_parses_or_raises_expr_error(text: str) -> None:
    try:
        parse_expression(text)
    except ExprError as exc:
        assert exc.message


@settings(max_examples=400, deadline=None)
@given(st.lists(TOKENS, max_size=25).map(" ".join))
def test_random_token_soup_evaluates_or_raises_expr_error(text: str) -> None:
    try:
        ev(text)
    except ExprError as exc:
        assert exc.message


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=80))
def test_random_yaml_never_raises(text: str) -> None:
    base = parse_base(text, "R.base")
    assert all(e.path == "R.base" and e.line >= 1 for e in base.errors)


@settings(max_examples=200, deadline=None)
@given(st.lists(TOKENS, max_size=20).map(" ".join))
def test_random_formula_in_a_base_never_raises(text: str) -> None:
    from beliefbase.bases import evaluate

    from .vault import NOW, VAULT
    quoted = text.replace("'", "''").replace("\n", " ")
    base = parse_base(f"formulas:\n  f: '{quoted}'\nviews: [{{type: table, order: "
                      "[formula.f], sort: [formula.f], summaries: {formula.f: Average}}]\n",
                      "X.base")
    result = evaluate(base, None, VAULT, now=NOW)
    assert base.ok == (len(result.columns) == 1)
