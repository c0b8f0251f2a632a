"""Walking a whole ``Compiled``: what of it could still change, and a deep snapshot.

``mutable_places`` visits every object reachable from a compile result (fields
of dataclasses, attributes, slots, mapping keys and values, tuple members, the
arguments of ``functools.partial`` and the objects of bound methods) and names
every ``list``, ``dict``, ``set`` (and their kin) and unfrozen dataclass it
finds.  Attributes a class declares as caches (``frozen.CACHES``) are left out:
they hold answers of pure functions of the rest.  ``snapshot`` turns the same
graph of objects into nested tuples that compare equal when nothing changed.
"""

from __future__ import annotations

import array
import collections
import dataclasses
import datetime
import enum
import functools
import pathlib
import re
import types
from collections.abc import Iterator
from typing import Any

from beliefbase.frozen import CACHES, FrozenDict

#: Values with nothing inside to change (``PurePath`` keeps private caches of its
#: parts, but a path never changes what it names).
ATOMS = (str, bytes, int, float, complex, bool, type(None), pathlib.PurePath, datetime.date,
         datetime.time, datetime.timedelta, datetime.tzinfo, enum.Enum, re.Pattern)
MUTABLE = (list, dict, set, bytearray, collections.deque, array.array)
#: Code, not data.
OPAQUE = (type, types.FunctionType, types.BuiltinFunctionType, types.BuiltinMethodType,
          types.ModuleType, types.MethodWrapperType, types.WrapperDescriptorType)


def caches_of(kind: type) -> frozenset[str]:
    return frozenset(name for cls in kind.__mro__ for name in getattr(cls, CACHES, ()))


def _attributes(obj: Any) -> Iterator[tuple[str, Any]]:
    """Every attribute of ``obj`` that holds data (fields, ``__dict__``, slots)."""
    names: dict[str, None] = {}
    if dataclasses.is_dataclass(obj):
        names.update((f.name, None) for f in dataclasses.fields(obj))
    names.update((n, None) for n in getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names.update((n, None) for n in ((slots,) if isinstance(slots, str) else slots)
                     if n not in ("__dict__", "__weakref__"))
    for name in names:
        try:
            yield name, object.__getattribute__(obj, name)
        except AttributeError:  # an empty slot, a field not set
            continue


def _parts(obj: Any) -> Iterator[tuple[str, Any]] | None:
    """(where, value) of what ``obj`` holds; None for an atom or code."""
    if isinstance(obj, ATOMS + OPAQUE):
        return None
    if isinstance(obj, dict):
        return ((f"[{k!r}]", v) for k, v in obj.items())
    if isinstance(obj, tuple | list | frozenset | set | collections.deque):
        return ((f"[{i}]", v) for i, v in enumerate(obj))
    if isinstance(obj, functools.partial):
        return iter([(".func", obj.func), (".args", obj.args), (".keywords", obj.keywords)])
    if isinstance(obj, types.MethodType):
        return iter([(".__self__", obj.__self__)])
    return ((f".{n}", v) for n, v in _attributes(obj))


def mutable_places(root: Any, name: str = "compiled") -> list[str]:
    """Where, below ``root``, a container or dataclass can still be changed."""
    found: list[str] = []
    seen: set[int] = set()
    todo: list[tuple[Any, str]] = [(root, name)]
    while todo:
        obj, where = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, MUTABLE) and not isinstance(obj, FrozenDict):
            found.append(f"{where}: {type(obj).__name__}")
        elif (dataclasses.is_dataclass(obj) and not isinstance(obj, type)
              and not type(obj).__dataclass_params__.frozen):  # type: ignore[attr-defined]
            found.append(f"{where}: unfrozen {type(obj).__name__}")
        parts = _parts(obj)
        if parts is None:
            continue
        if isinstance(obj, dict):  # keys too (a FrozenDict's keys are hashable, so frozen)
            todo.extend((k, f"{where}.keys()") for k in obj)
        caches = caches_of(type(obj))
        todo.extend((value, where + part) for part, value in parts
                    if part[1:] not in caches)
    return sorted(found)


def snapshot(root: Any, skip: tuple[type, ...] = ()) -> Any:
    """Everything reachable from ``root``, as nested tuples; caches included except
    those of the classes in ``skip``.  Shared objects appear once, then as a
    reference to their first appearance."""
    order: dict[int, int] = {}
    keep: list[Any] = []  # keeps every visited object alive: no id is reused meanwhile

    def snap(obj: Any) -> Any:
        if isinstance(obj, ATOMS):
            return obj
        if isinstance(obj, OPAQUE):
            return ("code", getattr(obj, "__qualname__", repr(obj)))
        if id(obj) in order:
            return ("seen", order[id(obj)])
        order[id(obj)] = len(order)
        keep.append(obj)
        kind = type(obj).__qualname__
        if isinstance(obj, dict):
            return (kind, tuple((snap(k), snap(v)) for k, v in obj.items()))
        if isinstance(obj, set | frozenset):
            return (kind, tuple(sorted((snap(v) for v in obj), key=repr)))
        parts = _parts(obj)
        assert parts is not None
        skipped = caches_of(type(obj)) if isinstance(obj, skip) else frozenset()
        return (kind, tuple((part, snap(value)) for part, value in parts
                            if part[1:] not in skipped))

    return snap(root)


def difference(old: Any, new: Any, where: str = "") -> str | None:
    """Where two snapshots first differ (None: they are equal), for a readable failure."""
    if old == new:
        return None
    if (isinstance(old, tuple) and isinstance(new, tuple) and len(old) == 2 == len(new)
            and isinstance(old[0], str) and old[0] == new[0]
            and isinstance(old[1], tuple) and isinstance(new[1], tuple)):
        for a, b in zip(old[1], new[1], strict=False):
            if a != b:
                label = a[0] if isinstance(a, tuple) and a and isinstance(a[0], str) else ""
                inner = a[1] if label.startswith(".") and len(a) == 2 else a
                other = b[1] if label.startswith(".") and len(b) == 2 else b
                return difference(inner, other, where + label) or where + label
        return f"{where}: {len(old[1])} -> {len(new[1])} members"
    return f"{where}: {str(old)[:200]} -> {str(new)[:200]}"
