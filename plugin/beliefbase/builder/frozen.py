"""``FrozenDict``: the read-only mapping of compile results (``Compiled``, ``Document``).

A ``dict`` whose mutating methods raise ``TypeError``, rather than a
``MappingProxyType``: every reader keeps working unchanged (``json.dumps``,
``|``, pickling, mypy's narrowing of ``key in mapping``), while a stage that
tries to edit what an earlier compile returned fails loudly instead of
changing it behind that compile's back (issue 17).
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeVar

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
