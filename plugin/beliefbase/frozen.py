"""``FrozenDict`` and ``freeze``: the read-only values of compile results (``Compiled``,
``Document``, a note's frontmatter).

A ``dict`` whose mutating methods raise ``TypeError``, rather than a
``MappingProxyType``: every reader keeps working unchanged (``json.dumps``,
``|``, pickling, mypy's narrowing of ``key in mapping``), while a stage that
tries to edit what an earlier compile returned fails loudly instead of
changing it behind that compile's back (issue 17).

``freeze`` makes parsed data (frontmatter, JSON) read-only all the way down
(mappings ``FrozenDict``, lists tuples, sets frozensets) where it is made, once
per parse, so no reader copies it on access.  ``thaw`` gives a plain copy to a
library that expects lists (MkDocs' ``page.meta``).

Caches are the one exception, and each is declared: a class whose objects
memoise lists its cache attributes in ``__caches__`` (``CACHES``).  A cache
holds answers of a pure function of the object's other, read-only attributes,
so filling it changes nothing anyone can observe; the caches a compile fills
while it runs (the link resolver's) are that compile's own.
``tests/builder/test_immutable_compile.py`` walks a whole ``Compiled`` and finds
no ``list``, ``dict`` or ``set`` outside a declared cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn, TypeVar

#: The class attribute naming an object's cache attributes (see the module doc).
CACHES = "__caches__"

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A dict that cannot be changed after it is made."""

    __slots__ = ()

    def _refuse(self, *_args: Any, **_kwargs: Any) -> NoReturn:
        raise TypeError("a compile result is read-only: make a new one instead")

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse

    def __reduce__(self) -> tuple[type[FrozenDict[K, V]], tuple[dict[K, V]]]:
        # pickle and copy rebuild it from a plain dict (the default fills it with
        # __setitem__, which refuses)
        return (type(self), (dict(self),))

    def __copy__(self) -> FrozenDict[K, V]:
        return self


#: The empty ``FrozenDict``: one for every record without such a field (a graph's
#: section nodes have no properties: 35,000 of them at 5,000 notes).
EMPTY: FrozenDict[Any, Any] = FrozenDict()


def empty() -> FrozenDict[Any, Any]:
    """``EMPTY``, as a dataclass field's ``default_factory``."""
    return EMPTY


#: Containers nested deeper are cut off (``None``), like ``codecs.frontmatter.jsonable``
#: cuts them: YAML can nest without end through an alias to an enclosing list.
MAX_DEPTH = 200


def freeze(value: Any) -> Any:
    """``value`` with every ``dict`` a ``FrozenDict``, list and tuple a tuple, set a
    frozenset, recursively.

    Each container is frozen once: YAML aliases share a value between several
    places ("billion laughs" shares it exponentially often), and the frozen
    value shares it the same way instead of copying it out.  A container that
    contains itself (``&a [*a]``) gets ``None`` where it recurs.
    """
    return _freeze(value, {}, 0)


#: Values frozen as they are, tested by exact type (one set lookup: a frontmatter is
#: mostly strings, numbers and lists of strings).
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _freeze(value: Any, done: dict[int, Any], depth: int) -> Any:
    if type(value) in _SCALARS:
        return value
    key = id(value)
    if key in done:
        return done[key]  # shared (an alias), or None while it is being frozen (a cycle)
    if depth > MAX_DEPTH:
        return None
    frozen: Any
    scalars, deeper = _SCALARS, depth + 1
    if isinstance(value, dict):
        done[key] = None
        frozen = FrozenDict({k: v if type(v) in scalars else _freeze(v, done, deeper)
                             for k, v in value.items()})
    elif isinstance(value, list | tuple):
        done[key] = None
        frozen = tuple([v if type(v) in scalars else _freeze(v, done, deeper) for v in value])
    elif isinstance(value, set | frozenset):
        done[key] = None
        frozen = frozenset(_freeze(v, done, deeper) for v in value)
    else:
        return value  # dates, times, bytes: immutable already
    done[key] = frozen
    return frozen


def freeze_mapping(value: Mapping[K, V]) -> FrozenDict[K, V]:
    """A mapping frozen all the way down (itself, if it is a ``FrozenDict`` already:
    only ``freeze`` makes those of parsed data, so their values are frozen too)."""
    if isinstance(value, FrozenDict):
        return value
    frozen: FrozenDict[K, V] = _freeze(value if isinstance(value, dict) else dict(value), {}, 0)
    return frozen


def thaw(value: Any) -> Any:
    """A plain copy of a frozen value: ``dict``s, lists and sets (shared parts are
    copied once, and stay shared)."""
    return _thaw(value, {})


def _thaw(value: Any, done: dict[int, Any]) -> Any:
    if isinstance(value, str | int | float | type(None)):
        return value
    key = id(value)
    if key in done:
        return done[key]
    out: Any
    if isinstance(value, dict):
        out = done[key] = {}
        for k, v in value.items():
            out[k] = _thaw(v, done)
    elif isinstance(value, tuple):
        out = done[key] = [_thaw(v, done) for v in value]
    elif isinstance(value, frozenset):
        out = done[key] = set(value)  # its members are hashable as they are
    else:
        return value
    return out
