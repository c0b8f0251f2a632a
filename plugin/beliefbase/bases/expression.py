"""One expression on its own: for tests, the CLI and inline uses."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from typing import Any

from .context import Context, RecordSet
from .errors import ExprError
from .evaluator import compile_expression
from .syntax import parse_expression
from .values import FileRecord


def evaluate_expression(text: str, record: FileRecord | None = None,
                        records: RecordSet | Iterable[FileRecord] = (),
                        this: FileRecord | None = None, *,
                        now: _dt.datetime | None = None) -> Any:
    """The value of ``text`` for ``record``; raises ``ExprError`` (only) when it fails.

    ``formula.x`` is not available here (there is no base).
    """
    record_set = records if isinstance(records, RecordSet) else RecordSet(records)
    moment = now or _dt.datetime.now(_dt.UTC).replace(tzinfo=None)
    ctx = Context(record_set, this, moment, {})
    fn = compile_expression(parse_expression(text))
    try:
        return fn(ctx.scope(record))
    except ExprError:
        raise
    except (ArithmeticError, ValueError, TypeError, RecursionError, KeyError, IndexError,
            AttributeError) as exc:
        raise ExprError(f"{type(exc).__name__}: {exc}") from None
