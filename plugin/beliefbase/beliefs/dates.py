"""Belief time: ISO dates and date-times, their one canonical text form, as-of bounds.

Sidecars write ``asserted_at`` / ``superseded_at`` as an ISO date
(``2026-04-15``) or date-time (``2026-04-15T14:23:00+02:00``).  Everything
downstream (the verifier, the SQLite index, ``why``) compares them as *text*,
so this module gives each value one canonical form that sorts correctly:

* a date stays ``YYYY-MM-DD`` and stands for the start of that day;
* a date-time becomes UTC, truncated to the second: ``YYYY-MM-DDTHH:MM:SSZ``
  (no offset means UTC).

A *query* date ``D`` (``--as-of``, ``--since``, ``--until``) means the end of
day ``D``: its bound is ``D + "T24"``, which sorts after every date-time on
``D`` and before the next day.  So with ``asserted_at <= bound`` and
``superseded_at > bound``, a belief superseded on ``D`` is not current on
``D`` and its successor asserted on ``D`` is.
"""

from __future__ import annotations

import functools
import re
from datetime import UTC, date, datetime

#: Also the ``pattern`` of ``isoDateOrDateTime`` in schema.json (kept equal by a test).
ISO_PATTERN = (
    r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$"
)
_ISO_RE = re.compile(ISO_PATTERN)
_FRACTION_RE = re.compile(r"\.\d+")


def is_iso(text: object) -> bool:
    """True when ``text`` is an ISO date or date-time that names a real instant."""
    return isinstance(text, str) and _canonical(text) is not None


def normalize(text: str) -> str:
    """The canonical sortable form of an ISO date or date-time (see module doc).

    Raises:
        ValueError: ``text`` is not an ISO date or date-time.
    """
    value = _canonical(text)
    if value is None:
        raise ValueError(f"not an ISO date or date-time: {text!r}")
    return value


@functools.lru_cache(maxsize=8192)  # sidecars repeat the same few hundred dates
def _canonical(text: str) -> str | None:
    parsed = _parse(text) if _ISO_RE.search(text) else None
    if parsed is None:
        return None
    if isinstance(parsed, datetime):
        return parsed.strftime("%Y-%m-%dT%H:%M:%SZ")
    return parsed.isoformat()


def is_date_only(value: str) -> bool:
    """True for a canonical value without a time of day."""
    return len(value) == 10


def query_bound(text: str) -> str:
    """The comparison bound of a query date: end of day for a date, the instant otherwise."""
    value = normalize(text)
    return value + "T24" if is_date_only(value) else value


def not_before(later: str, earlier: str) -> bool:
    """``later >= earlier`` for canonical values, comparing days when either is a date."""
    if is_date_only(later) or is_date_only(earlier):
        return later[:10] >= earlier[:10]
    return later >= earlier


def today_iso(today: date) -> str:
    return today.isoformat()


def _parse(text: str) -> date | datetime | None:
    try:
        if "T" not in text:
            return date.fromisoformat(text)
        # datetime.fromisoformat of 3.11 takes at most 6 fraction digits.
        trimmed = _FRACTION_RE.sub(lambda m: m.group(0)[:7], text)
        moment = datetime.fromisoformat(trimmed.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # 0001-01-01T00:00+01:00 has no UTC form
        return None


def build_date() -> date:
    """Today, or the date of ``SOURCE_DATE_EPOCH`` (reproducible builds): the "today"
    the verifier and the belief pages count from."""
    import os

    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), UTC).date()
    return date.today()
