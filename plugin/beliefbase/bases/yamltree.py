"""YAML with positions: a base's text as a small tree whose scalars know their
line and column, so an expression's error points into the ``.base`` file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from .errors import ExprError

#: A base is small; these bound what a hostile one can make the parser walk.
MAX_NODES = 50_000
MAX_DEPTH = 64


@dataclass(frozen=True, slots=True)
class Scalar:
    text: str  # the scalar as written (an expression's source)
    value: Any  # as YAML types it (int, bool, str, date ...)
    line: int  # 1-based, in the YAML text
    column: int  # 1-based, of the first character of the text (inside quotes)
    block: bool  # a | or > block scalar: the text starts on the next line


@dataclass(frozen=True, slots=True)
class Mapping:
    items: tuple[tuple[str, Any], ...]
    line: int

    def get(self, key: str) -> Any:
        for k, v in self.items:
            if k == key:
                return v
        return None


@dataclass(frozen=True, slots=True)
class Sequence:
    items: tuple[Any, ...]
    line: int


def load(text: str) -> Any:
    """The tree of ``text`` (``None`` when empty); ``ExprError`` with the line when
    it is not YAML or too large."""
    try:
        loader = yaml.SafeLoader(text)
    except yaml.YAMLError as exc:
        raise ExprError(f"not valid YAML: {exc}", 1, 1) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        return _Walker(loader).walk(node, 0)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        raise ExprError(f"not valid YAML: {exc.problem or exc}", line, column) from None
    except (yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError) as exc:
        raise ExprError(f"not valid YAML: {exc}", 1, 1) from None
    finally:
        loader.dispose()


class _Walker:
    def __init__(self, loader: yaml.SafeLoader) -> None:
        self.loader = loader
        self.count = 0

    def walk(self, node: yaml.Node, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES or depth > MAX_DEPTH:
            raise ExprError("the base is too large or nested too deeply", 1, 1)
        line = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            self.loader.flatten_mapping(node)  # YAML merge keys (<<)
            items = []
            for key, value in node.value:
                key_text = key.value if isinstance(key, yaml.ScalarNode) else str(key.value)
                items.append((str(key_text), self.walk(value, depth + 1)))
            return Mapping(tuple(items), line)
        if isinstance(node, yaml.SequenceNode):
            return Sequence(tuple(self.walk(v, depth + 1) for v in node.value), line)
        assert isinstance(node, yaml.ScalarNode)
        value = self.loader.construct_object(node, deep=True)
        quoted = node.style in ("'", '"')
        block = node.style in ("|", ">")
        return Scalar(node.value, value, line + (1 if block else 0),
                      node.start_mark.column + 1 + (1 if quoted else 0), block)
