"""The packages' layering, read from every module's imports (``import`` and
``from ... import``, inside functions and ``TYPE_CHECKING`` blocks too).

From the ground up (``docs/develop/architecture.md``): the shared helpers,
``codecs``, ``builder``, the compile stages (``graph``, ``entities``, ``beliefs``,
``query``), the compile (``compile``, and the project's configuration, its Markdown
policy and the commands' edits beside it), the engines of Obsidian Bases and Dataview over it
(``bases``, ``dataview``), ``speedups`` (beside the site: the site calls it, it
never calls the site), ``site``, the adapters (``plugin.py``, ``cli.py``, ``doctor.py``, the
benchmarks).  A module may import its own package and any package below; no
import runs upward, and no modules import each other in a circle.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "plugin" / "beliefbase"

#: each layer's packages (a folder) and modules (a file at the top), ground first
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"__init__", "atomic", "config", "diagnostics", "frozen", "html_json",
               "identity_texts", "ids", "obsidian", "process", "search_index", "terminal",
               "writeback"}),
    frozenset({"codecs"}),
    frozenset({"builder"}),
    frozenset({"graph", "entities", "beliefs", "query"}),
    frozenset({"compile", "project", "markdown_policy", "relink", "canvas_relink",
               "sync"}),
    frozenset({"bases", "dataview"}),  # the vault's own query languages, over the compile
    frozenset({"speedups"}),
    frozenset({"site"}),
    frozenset({"plugin", "cli", "doctor", "bench"}),
)

#: upward imports known and owned by an issue: this list may only shrink
KNOWN_UPWARD: set[tuple[str, str]] = set()


def modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = ["beliefbase", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ours that ``name`` imports (a package: its ``__init__``)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "beliefbase"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target.split(".")[0] != "beliefbase":
                continue
            for alias in node.names:  # ``from . import x``: the module x, if it is one
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in known else target)
    return {m for m in found if m in known and m != name}


def layer(name: str) -> int:
    top = name.split(".")[1] if "." in name else "__init__"
    for rank, members in enumerate(LAYERS):
        if top in members:
            return rank
    raise AssertionError(f"{name} is in no layer: add its package to LAYERS")


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_every_module_is_in_a_layer() -> None:
    for name in modules():
        layer(name)


def test_no_import_runs_upward() -> None:
    upward = {(a, b) for a, targets in graph().items() for b in targets
              if layer(b) > layer(a)}
    assert upward - KNOWN_UPWARD == set(), "imports of a higher layer"
    assert KNOWN_UPWARD - upward == set(), "fixed: take them off KNOWN_UPWARD"


def test_no_packages_of_one_layer_import_each_other_both_ways() -> None:
    between: dict[str, set[str]] = defaultdict(set)
    for a, targets in graph().items():
        for b in targets:
            pa, pb = a.split(".")[1:2], b.split(".")[1:2]
            if pa != pb and layer(a) == layer(b):
                between[pa[0] if pa else "__init__"].add(pb[0] if pb else "__init__")
    both = {(a, b) for a, bs in between.items() for b in bs if a in between.get(b, set())}
    assert both == set()


def test_no_import_circle() -> None:
    edges = graph()
    circles = [c for c in _strongly_connected(edges) if len(c) > 1]
    assert circles == []


def _strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iteratively (the import graph is deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(sorted(component))
    return found


def test_the_checks_see_a_circle_and_an_upward_import() -> None:
    assert _strongly_connected({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"], ["c"]]
    assert layer("beliefbase.site.session") > layer("beliefbase.compile.compiler")
    assert layer("beliefbase.builder.parse") > layer("beliefbase.codecs.markdown")
