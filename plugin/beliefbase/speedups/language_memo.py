"""Material's translations looked up once per build, not once per page.

``base.html`` starts every page with ``{% import "partials/language.html" as lang
with context %}``: an import *with context* is never cached by Jinja, so every
page copies its whole context into a new one, runs ``language.html`` (which
imports the language's template and English as the fallback) and defines its
``t`` macro again; each of the half-dozen ``lang.t(key)`` calls of a page then
builds the language's dictionary of about two hundred strings to pick one.
At 1,000 notes that was a tenth of rendering ``main.html``.

What the module holds, and every string ``t`` returns, depends on nothing of the
page: Material's ``language.html`` reads ``config`` (``config.theme.language``)
and imports the language templates *without* context, so what they print can
only depend on the key and the environment's globals.  ``LanguageMemo`` keeps the
first module made for a configuration and language and answers ``t(key)`` from a
dict once the macro has answered it.  Only Material's own ``language.html``
takes part (``BlockMemo`` checks the file); a user's override may read the page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jinja2

#: the template ``base.html`` imports with context for its ``lang.t``
LANGUAGE = "partials/language.html"


class LanguageMemo:
    """One build's ``language.html`` modules, by configuration and language."""

    def __init__(self) -> None:
        self._modules: dict[tuple[int, Any], Any] = {}
        self.hits = 0

    def wrap(self, template: jinja2.Template) -> None:
        """``template.make_module`` answered from the memo (once per template)."""
        make_module = template.make_module

        def memo_module(vars: Any = None, shared: bool = False, locals: Any = None) -> Any:
            key = _key(vars)
            if key is None:
                return make_module(vars, shared, locals)
            module = self._modules.get(key)
            if module is not None:
                self.hits += 1
                return module
            module = make_module(vars, shared, locals)
            macro = getattr(module, "t", None)
            if isinstance(macro, jinja2.runtime.Macro):
                module.__dict__["t"] = _remembered(macro)
            self._modules[key] = module
            return module

        template.make_module = memo_module  # type: ignore[method-assign]


def _key(vars: Any) -> tuple[int, Any] | None:
    """The configuration (by identity) and its language, or None: not memoised."""
    if not isinstance(vars, dict):
        return None
    config = vars.get("config")
    theme = getattr(config, "theme", None)
    if theme is None:
        return None
    try:
        language = theme["language"]
        hash(language)
    except (KeyError, TypeError):
        return None
    return id(config), language


def _remembered(macro: jinja2.runtime.Macro) -> Callable[..., Any]:
    """``macro``, its answer to a string key kept after the first call."""
    answers: dict[str, Any] = {}

    def t(*args: Any, **kwargs: Any) -> Any:
        if len(args) != 1 or kwargs or type(args[0]) is not str:
            return macro(*args, **kwargs)
        key = args[0]
        answer = answers.get(key)
        if answer is None:
            answer = answers[key] = macro(key)
        return answer

    return t
