"""The event stream between two compiles (SPEC §11, the seed's BeliefEvents).

``diff_graphs(old, new)`` lists ``NodeAdded``, ``NodeRemoved``,
``NodeUpdated`` (with the fields that changed) and ``RelationAdded`` /
``RelationRemoved``, in a deterministic order.  ``beliefbase check --events``
prints it against the snapshot the previous compile left in cache_dir.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, fields
from pathlib import Path

from ..atomic import replacing
from .model import Edge, Graph, Node

SNAPSHOT_FILE = "graph-snapshot.pickle"
_SNAPSHOT_FORMAT = "beliefbase-graph-snapshot/3"  # 3: a frozen Graph, nodes and edges only

_NODE_FIELDS = [f.name for f in fields(Node) if f.name != "bid"]


@dataclass(frozen=True, slots=True)
class Event:
    kind: str  # NodeAdded | NodeRemoved | NodeUpdated | RelationAdded | RelationRemoved
    bid: str  # the node, or the relation's source
    detail: str  # title, changed fields, or "type -> target"

    def describe(self) -> str:
        return f"{self.kind} {self.bid} {self.detail}"


def _relation_key(edge: Edge) -> tuple[str, str, str]:
    return (edge.source, edge.type, edge.target)


def diff_graphs(old: Graph | None, new: Graph) -> list[Event]:
    """Events that turn ``old`` into ``new`` (everything is added when old is None)."""
    old = old or Graph()
    events: list[Event] = []
    for bid in sorted(new.nodes.keys() - old.nodes.keys()):
        events.append(Event("NodeAdded", bid, f"{new.nodes[bid].kind} {new.nodes[bid].title!r}"))
    for bid in sorted(old.nodes.keys() - new.nodes.keys()):
        events.append(Event("NodeRemoved", bid, f"{old.nodes[bid].kind} {old.nodes[bid].title!r}"))
    for bid in sorted(old.nodes.keys() & new.nodes.keys()):
        a, b = old.nodes[bid], new.nodes[bid]
        if a != b:
            changed = [name for name in _NODE_FIELDS if getattr(a, name) != getattr(b, name)]
            events.append(Event("NodeUpdated", bid, ", ".join(changed)))
    old_rel = {_relation_key(e) for e in old.edges}
    new_rel = {_relation_key(e) for e in new.edges}
    for source, rel, target in sorted(new_rel - old_rel):
        events.append(Event("RelationAdded", source, f"{rel} -> {target}"))
    for source, rel, target in sorted(old_rel - new_rel):
        events.append(Event("RelationRemoved", source, f"{rel} -> {target}"))
    return events


def save_snapshot(cache_dir: Path, graph: Graph) -> None:
    """Keep ``graph``'s nodes and edges (what ``diff_graphs`` compares; not its parts,
    which hold the whole compile) for the next ``check --events``; a graph that cannot be pickled
    (frontmatter nested thousands deep: ``RecursionError``) leaves no snapshot, so
    the next compile is compared with nothing rather than with an old one."""
    try:
        with replacing(cache_dir / SNAPSHOT_FILE, "wb") as fh:
            pickle.dump((_SNAPSHOT_FORMAT, Graph(graph.nodes, graph.edges)), fh,
                        protocol=pickle.HIGHEST_PROTOCOL)
    except RecursionError:
        (cache_dir / SNAPSHOT_FILE).unlink(missing_ok=True)
    except OSError:
        pass  # no snapshot kept: the next ``check --events`` compares with the last one


def load_snapshot(cache_dir: Path) -> Graph | None:
    try:
        with (cache_dir / SNAPSHOT_FILE).open("rb") as fh:
            fmt, graph = pickle.load(fh)  # noqa: S301 - our own cache file
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError,
            ImportError, RecursionError):
        return None
    return graph if fmt == _SNAPSHOT_FORMAT and isinstance(graph, Graph) else None
