"""The text form of a ``why`` answer (and of a belief history): a readable tree.

``render_text(answer)`` takes the dict ``why()`` returns and draws it with
box-drawing connectors: current beliefs with their sources and quotes, then
history, contradictions and the supersession chain.  Plain text for a
terminal; nothing is interpreted, so hostile statements print as written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Node:
    """A tree node: its first line, more lines under it, then its children."""

    text: str
    more: list[str] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)


def draw(nodes: Sequence[Node], prefix: str = "") -> list[str]:
    """Lines of a forest, with ``├─`` / ``└─`` / ``│`` connectors."""
    lines: list[str] = []
    for position, node in enumerate(nodes):
        last = position == len(nodes) - 1
        lines.append(prefix + ("└─ " if last else "├─ ") + node.text)
        inner = prefix + ("   " if last else "│  ")
        bar = "│  " if node.children else "   "
        lines.extend((inner + bar + extra).rstrip() for extra in node.more)
        lines.extend(draw(node.children, inner))
    return lines


def _source(source: dict[str, Any]) -> Node:
    hint = source.get("page_hint")
    where = source["raw_path"] + (f" (page {hint})" if hint not in (None, "") else "")
    state = "verified" if source["verified_against_source"] else "NOT VERIFIED"
    text = f"source {source['id']}: {where}  {state} {source['verified_at']}".rstrip()
    more = [f'"{source["quote"]}"']
    if not source["verified_against_source"]:
        more.append(f"! {source['verification']}")
    return Node(text, more)


def belief_node(belief: dict[str, Any]) -> Node:
    """One belief: id and status, statement, dates, page, then its sources."""
    status = f"current · {belief['confidence_hint']}"
    if belief["superseded_at"] is not None:
        status = f"superseded {belief['superseded_at']}"
        if belief["superseded_by_belief_id"]:
            status += f" by {belief['superseded_by_belief_id']}"
        if belief["supersession_reason"]:
            status += f" ({belief['supersession_reason']})"
    more = [f'"{belief["statement"]}"']
    asserted = f"asserted {belief['asserted_at']}"
    if belief["asserted_in_run"]:
        asserted += f" in {belief['asserted_in_run']}"
    more.append(f"{asserted} · topic {belief['topic']}")
    if belief["subject"]:
        triple = " ".join(str(belief[k]) for k in ("subject", "predicate", "object") if belief[k])
        more.append(f"triple: {triple}")
    more.append(f"page: {belief['wiki_page'] or '(unpublished)'}")
    if belief["contradicting_belief_ids"]:
        more.append("contradicted by: " + ", ".join(belief["contradicting_belief_ids"]))
    sources = [_source(s) for s in belief["supporting_sources"]]
    return Node(f"{belief['belief_id']}  [{status}]", more, sources)


def _section(title: str, beliefs: list[dict[str, Any]]) -> Node:
    return Node(f"{title} ({len(beliefs)})", [], [belief_node(b) for b in beliefs])


def render_text(answer: dict[str, Any]) -> str:
    """The ``why`` answer as a tree of text lines (ends with a newline)."""
    head = f"why {answer['query']!r}"
    if answer["match_type"] == "none":
        return (f"{head}: no belief matches; try a belief id, a subject "
                "(subject::predicate), a topic or words of a statement\n")
    sections = [
        _section("current beliefs", answer["current_beliefs"]),
        _section("history", answer["history"]),
        Node(f"contradicting beliefs ({len(answer['contradicting_beliefs'])})", [],
             [Node(f"{b['belief_id']}: \"{b['statement']}\"  ({b['wiki_page']})")
              for b in answer["contradicting_beliefs"]]),
    ]
    for chain in answer.get("supersession_chains", []):
        sections.append(Node("supersession chain: " + " -> ".join(chain)))
    lines = [f"{head}  (match: {answer['match_type']})", *draw(sections)]
    return "\n".join(lines) + "\n"
