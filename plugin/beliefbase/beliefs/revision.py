"""Belief revision checks: supersession sanity and contradictions between current beliefs.

Pure functions over the published beliefs of the whole knowledge base
(already de-duplicated by id).  Supersession: the successor exists, chains are
acyclic (the diagnostic prints the cycle), ``superseded_at`` is not before
``asserted_at``, and old and new share subject+predicate or topic.  A belief
with ``superseded_by_belief_id`` but no ``superseded_at`` is treated as
superseded when its successor was asserted.  Contradictions: current beliefs
with the same subject and predicate but different objects, within a network,
plus those a sidecar declares — always symmetric.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .. import diagnostics as diag
from ..diagnostics import Diagnostic
from ..ids import normalize_name
from . import dates
from .model import Belief

#: (belief, field or None) -> (file, line, column) of that field in its sidecar.
Locate = Callable[[Belief, "str | None"], tuple[str, int, int]]


@dataclass(frozen=True, slots=True)
class Revision:
    superseded_at: dict[str, str | None]  # effective, per belief id
    contradicting: dict[str, tuple[str, ...]]
    diagnostics: list[Diagnostic]


def revise(
    beliefs: Mapping[str, Belief],
    network_of: Mapping[str, str],
    unpublished: frozenset[str],
    locate: Locate,
) -> Revision:
    """Supersession and contradiction results for every belief in ``beliefs``."""
    found: list[Diagnostic] = []

    def report(code: str, belief: Belief, field: str | None, message: str) -> None:
        found.append(diag.make(code, *locate(belief, field), message))

    effective = _supersession(beliefs, unpublished, report)
    _cycles(beliefs, report)
    contradicting = _contradictions(beliefs, network_of, effective, report)
    return Revision(effective, contradicting, found)


Report = Callable[[str, Belief, "str | None", str], None]


def _supersession(
    beliefs: Mapping[str, Belief], unpublished: frozenset[str], report: Report
) -> dict[str, str | None]:
    effective: dict[str, str | None] = {}
    for belief_id, old in beliefs.items():
        when = old.superseded_at
        target = old.superseded_by_belief_id
        new = beliefs.get(target) if target is not None else None
        if target is not None and new is None:
            if target in unpublished:  # not named: diagnostics.json is published
                message = f"{belief_id} is superseded by a belief on an unpublished page"
            else:
                why = diag.did_you_mean(target, list(beliefs)) or " which does not exist"
                message = f"{belief_id} is superseded by {target!r}{why}"
            report("belief-supersession", old, "superseded_by_belief_id", message)
        if new is not None and new is not old:
            if when is None:
                when = new.asserted_at
                report("belief-supersession", old, "superseded_by_belief_id",
                       f"{belief_id} names a successor but no superseded_at; treated as "
                       f"superseded at {when} ({target}'s asserted_at): add superseded_at")
            if not _justified(old, new):
                report("belief-supersession", old, "superseded_by_belief_id",
                       f"unjustified supersession: {belief_id} and {target} share neither "
                       f"subject+predicate nor topic ({old.topic!r} vs {new.topic!r})")
        if when is not None and not dates.not_before(when, old.asserted_at):
            report("belief-supersession", old, "superseded_at",
                   f"{belief_id} is superseded at {when}, before it was asserted "
                   f"({old.asserted_at})")
        effective[belief_id] = when
    return effective


def _justified(old: Belief, new: Belief) -> bool:
    if normalize_name(old.topic) == normalize_name(new.topic):
        return True
    pairs = ((old.subject, new.subject), (old.predicate, new.predicate))
    return all(a is not None and b is not None and normalize_name(a) == normalize_name(b)
               for a, b in pairs)


def _cycles(beliefs: Mapping[str, Belief], report: Report) -> None:
    """Report each supersession cycle once, at its smallest belief id."""
    state: dict[str, int] = {}  # 1 = on the current walk, 2 = done
    for start in beliefs:
        walk: list[str] = []
        node: str | None = start
        while node is not None and node in beliefs and node not in state:
            state[node] = 1
            walk.append(node)
            node = beliefs[node].superseded_by_belief_id
        if node is not None and state.get(node) == 1:
            cycle = walk[walk.index(node):]
            first = cycle.index(min(cycle))
            cycle = cycle[first:] + cycle[:first]
            shown = " -> ".join([*cycle, cycle[0]])
            report("belief-supersession", beliefs[cycle[0]], "superseded_by_belief_id",
                   f"supersession cycle: {shown}; clear superseded_by_belief_id on one of them")
        for done in walk:
            state[done] = 2


def _contradictions(
    beliefs: Mapping[str, Belief],
    network_of: Mapping[str, str],
    effective: Mapping[str, str | None],
    report: Report,
) -> dict[str, tuple[str, ...]]:
    pairs: dict[str, set[str]] = defaultdict(set)
    groups: dict[tuple[str, str, str], list[tuple[str, str]]] = defaultdict(list)
    for belief_id, belief in beliefs.items():
        if effective[belief_id] is not None:
            continue
        if belief.subject and belief.predicate and belief.object is not None:
            key = (network_of[belief_id], normalize_name(belief.subject),
                   normalize_name(belief.predicate))
            groups[key].append((belief_id, normalize_name(belief.object)))
    for members in groups.values():
        for a, object_a in members:
            pairs[a].update(b for b, object_b in members if object_b != object_a)
    for belief_id, belief in beliefs.items():
        for other in belief.contradicting_belief_ids or ():
            if other in beliefs and other != belief_id:
                pairs[belief_id].add(other)
                pairs[other].add(belief_id)
            else:
                report("bad-sidecar", belief, "contradicting_belief_ids",
                       f"contradicting_belief_ids names {other!r}, which is not another "
                       f"published belief{diag.did_you_mean(other, list(beliefs))}")
    return {b: tuple(sorted(pairs[b])) for b in beliefs if pairs.get(b)}
