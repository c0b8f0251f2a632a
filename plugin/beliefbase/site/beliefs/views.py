"""What each belief template gets: plain data from a ``BeliefSet``, URLs final.

``BeliefPlan`` decides where the generated pages live (one URL segment per
belief id and per topic, slugged, collisions numbered).  ``BeliefViews``
turns verified beliefs into the dicts the templates in ``theme/beliefs/``
print: the belief index, a topic timeline, one belief, the "Beliefs on this
page" panel and the footnote links.  No HTML is built here; every href is
relative to the page it appears on, because these fragments are added after
MkDocs converted the page's own links.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from mkdocs.utils import get_relative_url

from ...beliefs import BeliefSet, VerifiedBelief, VerifiedProvenance
from ...beliefs.emit import counts
from ...compile.compiled import Compiled
from ...ids import SrcPath, asset_url, fit_name, url_for_src, url_slug

#: Slugs a belief page may not take: they name the folders next to it.
_RESERVED = frozenset({"topic", "index"})


@dataclass
class BeliefPlan:
    """Source paths (``beliefs/<slug>.md``) and URLs of the generated belief pages."""

    root: str  # "beliefs/"
    use_directory_urls: bool
    index_src: str | None = None
    belief_src: dict[str, str] = field(default_factory=dict)  # belief id -> src path
    topic_src: dict[str, str] = field(default_factory=dict)  # topic -> src path
    _urls: dict[str, str] = field(default_factory=dict, repr=False)

    def url(self, src: str) -> str:
        """The page's site-relative URL (as MkDocs' ``File.url`` has it)."""
        url = self._urls.get(src)
        if url is None:
            url = self._urls[src] = url_for_src(SrcPath(src), self.use_directory_urls)
        return url

    @property
    def sources(self) -> list[str]:
        found = [self.index_src] if self.index_src else []
        return found + list(self.topic_src.values()) + list(self.belief_src.values())


def plan_pages(belief_set: BeliefSet, root: str, use_directory_urls: bool,
               taken: Iterable[str]) -> BeliefPlan:
    """Give every belief and topic a page path that no other file has (deterministic)."""
    used = {t.lower() for t in taken}
    plan = BeliefPlan(root, use_directory_urls)
    index = root + "index.md"
    if index.lower() not in used:
        plan.index_src = index
        used.add(index.lower())
    plan.belief_src = _assign(sorted(belief_set.beliefs), root, used, _RESERVED)
    plan.topic_src = _assign(sorted(belief_set.topics), root + "topic/", used, frozenset())
    return plan


def _assign(names: list[str], folder: str, used: set[str],
            reserved: frozenset[str]) -> dict[str, str]:
    assigned: dict[str, str] = {}
    for name in names:
        base = fit_name(url_slug(name))  # a topic may be longer than a file name
        slug, n = base, 1
        while slug in reserved or f"{folder}{slug}.md" in used:
            n += 1
            slug = f"{base}-{n}"
        src = f"{folder}{slug}.md"
        used.add(src)
        assigned[name] = src
    return assigned


def when(value: str | None) -> dict[str, str] | None:
    """A canonical belief date for a ``<time>``: machine value and readable text."""
    if not value:
        return None
    text = value if len(value) == 10 else value[:10] + " " + value[11:16] + " UTC"
    return {"iso": value, "text": text}


class BeliefViews:
    """Template data for the belief pages of one build."""

    def __init__(self, belief_set: BeliefSet, compiled: Compiled, plan: BeliefPlan,
                 raw_urls: Mapping[str, str], recent_days: int) -> None:
        self.belief_set = belief_set
        self.compiled = compiled
        self.plan = plan
        self.raw_urls = raw_urls  # raw_path -> site URL, for raw files published in docs
        self.recent_days = recent_days

    # -- links -------------------------------------------------------------------------

    def href(self, src: str, page_url: str) -> str:
        return get_relative_url(self.plan.url(src), page_url)

    def belief_href(self, belief_id: str, page_url: str) -> str | None:
        src = self.plan.belief_src.get(belief_id)
        return self.href(src, page_url) if src else None

    def asset_href(self, name: str, page_url: str) -> str:
        return get_relative_url(f"_beliefbase/{name}", page_url)

    def _location(self, vb: VerifiedBelief, page_url: str) -> dict[str, Any] | None:
        doc = self.compiled.documents.get(SrcPath(vb.page))
        if doc is None or vb.page_url is None:
            return None
        anchor = vb.belief.wiki_section_anchor
        section = doc.by_anchor.get(anchor[1:]) if anchor else None
        return {"title": doc.title, "section": section.text if section else None,
                "href": get_relative_url(vb.page_url, page_url) + (anchor or "")}

    # -- records -----------------------------------------------------------------------

    def summary(self, vb: VerifiedBelief, page_url: str) -> dict[str, Any]:
        """What a list of beliefs shows for one of them."""
        b = vb.belief
        return {
            "id": b.belief_id,
            "statement": b.statement,
            "href": self.belief_href(b.belief_id, page_url),
            "status": "current" if vb.is_current else "superseded",
            "contested": vb.is_current and vb.confidence_hint == "contested",
            "drifted": any(not s.check.verified for s in vb.sources),
            "unsourced": not vb.sources,
            "topic": b.topic,
            "topic_href": self.href(self.plan.topic_src[b.topic], page_url),
            "asserted": when(b.asserted_at),
            "superseded": when(vb.superseded_at),
            "subject": b.subject, "predicate": b.predicate, "object": b.object,
        }

    def _summaries(self, ids: Iterable[str], page_url: str) -> list[dict[str, Any]]:
        beliefs = self.belief_set.beliefs
        return [self.summary(beliefs[i], page_url) for i in ids if i in beliefs]

    def _one(self, belief_id: str | None, page_url: str) -> dict[str, Any] | None:
        """The summary of a published belief, or None (no id, or an unknown/draft one)."""
        vb = self.belief_set.beliefs.get(belief_id) if belief_id else None
        return self.summary(vb, page_url) if vb else None

    def _change(self, vb: VerifiedBelief, page_url: str) -> dict[str, Any]:
        """A summary plus what superseded it (for timelines and "changed recently")."""
        item = self.summary(vb, page_url)
        item["successor"] = self._one(vb.belief.superseded_by_belief_id, page_url)
        item["reason"] = _words(vb.belief.supersession_reason)
        return item

    def _index_href(self, page_url: str) -> str | None:
        return self.href(self.plan.index_src, page_url) if self.plan.index_src else None

    def belief(self, belief_id: str, page_url: str) -> dict[str, Any]:
        """Context of ``beliefs/belief.html``."""
        vb = self.belief_set.beliefs[belief_id]
        b = vb.belief
        chain = self._summaries(self.belief_set.chain(belief_id), page_url)
        position = next(i for i, item in enumerate(chain) if item["id"] == belief_id)
        return {
            "belief": self.summary(vb, page_url),
            "confidence": vb.confidence_hint,
            "supporting_count": vb.supporting_count,
            "verified": vb.verified_against_source,
            "asserted_in_run": b.asserted_in_run,
            "superseded_in_run": b.superseded_in_run,
            "supersession_reason": _words(b.supersession_reason),
            "valid_from": when(b.source_valid_from), "valid_to": when(b.source_valid_to),
            "location": self._location(vb, page_url),
            "footnotes": [{"id": f, "href": self._footnote_href(vb, f, page_url)}
                          for f in b.footnote_ids],
            "sources": [self._source(s, page_url) for s in vb.sources],
            "missing_sources": [p for p in b.provenance_ids
                                if p not in {s.id for s in vb.sources}],
            "chain": chain,
            "position": position,
            "older": chain[position - 1] if position > 0 else None,
            "newer": self._one(b.superseded_by_belief_id, page_url),
            "contradicting": self._summaries(vb.contradicting_belief_ids, page_url),
            "index_href": self._index_href(page_url),
            "json_href": self.asset_href("beliefs.json", page_url),
        }

    def _footnote_href(self, vb: VerifiedBelief, footnote: str, page_url: str) -> str | None:
        if vb.page_url is None:
            return None
        return get_relative_url(vb.page_url, page_url) + "#fn:" + footnote

    def _source(self, source: VerifiedProvenance, page_url: str) -> dict[str, Any]:
        entry, check = source.provenance, source.check
        raw_url = self.raw_urls.get(entry.raw_path)
        return {
            "id": entry.id,
            "raw_path": entry.raw_path,
            "raw_href": get_relative_url(raw_url, page_url) if raw_url else None,
            "page_hint": entry.page_hint,
            "quote": entry.quote,
            "quote_hash": entry.quote_hash,
            "verified": check.verified,
            "reason": check.reason,
            "problem": check.problem,
            "verified_at": when(check.verified_at),
        }

    def topic(self, topic: str, page_url: str) -> dict[str, Any]:
        """Context of ``beliefs/topic.html``: the timeline, newest first."""
        items = [self._change(self.belief_set.beliefs[i], page_url)
                 for i in self.belief_set.topics.get(topic, ())]
        items.sort(key=lambda s: (s["asserted"]["iso"], s["id"]), reverse=True)
        moments = {i["asserted"]["iso"][:10] for i in items}
        moments |= {i["superseded"]["iso"][:10] for i in items if i["superseded"]}
        return {
            "topic": topic,
            "items": items,
            "current": sum(i["status"] == "current" for i in items),
            "dates": sorted(moments),
            "build_date": self.belief_set.today.isoformat(),
            "index_href": self._index_href(page_url),
            "script_href": self.asset_href("beliefs.js", page_url),
        }

    def index(self, page_url: str) -> dict[str, Any]:
        """Context of ``beliefs/index.html``."""
        today = self.belief_set.today
        after = (today - timedelta(days=self.recent_days)).isoformat()
        recent = [self._change(vb, page_url)
                  for vb in self.belief_set.superseded_between(after, today.isoformat())]
        current = [self.summary(vb, page_url) for vb in self.belief_set.current()]
        return {
            "counts": counts(self.belief_set),
            "topics": [self._topic_row(t, ids, page_url)
                       for t, ids in self.belief_set.topics.items()],
            "recent": recent,
            "recent_days": self.recent_days,
            "build_date": today.isoformat(),
            "contested": [s for s in current if s["contested"]],
            "drifted": [self.summary(vb, page_url) for vb in self.belief_set.beliefs.values()
                        if any(not s.check.verified for s in vb.sources)],
            "search_index_href": self.asset_href("beliefs-search.json", page_url),
            "lunr_href": self.asset_href("lunr.js", page_url),
            "script_href": self.asset_href("beliefs.js", page_url),
            "site_root": get_relative_url("./", page_url) or "./",
            "json_href": self.asset_href("beliefs.json", page_url),
            "schema_href": self.asset_href("beliefs.schema.json", page_url),
        }

    def _topic_row(self, topic: str, ids: tuple[str, ...], page_url: str) -> dict[str, Any]:
        beliefs = [self.belief_set.beliefs[i] for i in ids]
        changes = [vb.belief.asserted_at for vb in beliefs]
        changes += [vb.superseded_at for vb in beliefs if vb.superseded_at]
        return {
            "topic": topic,
            "href": self.href(self.plan.topic_src[topic], page_url),
            "current": sum(vb.is_current for vb in beliefs),
            "superseded": sum(not vb.is_current for vb in beliefs),
            "contested": sum(vb.is_current and vb.confidence_hint == "contested"
                             for vb in beliefs),
            "last_change": when(max(changes)[:10]) if changes else None,
        }

    # -- on wiki pages -----------------------------------------------------------------

    def panel(self, page: str, page_url: str) -> dict[str, Any] | None:
        """Context of ``beliefs/panel.html`` for a wiki page, or None if it has no beliefs."""
        ids = self.belief_set.pages.get(page)
        if not ids:
            return None
        items = []
        for belief_id in ids:
            vb = self.belief_set.beliefs[belief_id]
            item = self.summary(vb, page_url)
            location = self._location(vb, page_url)
            item["section"] = location["section"] if location else None
            item["section_href"] = "#" + vb.belief.wiki_section_anchor[1:] \
                if vb.belief.wiki_section_anchor else None
            items.append(item)
        return {
            "current": [i for i in items if i["status"] == "current"],
            "superseded": [i for i in items if i["status"] != "current"],
        }

    def footnotes(self, page: str, page_url: str) -> dict[str, list[dict[str, Any]]]:
        """Footnote id -> the beliefs citing it (for the links inside each footnote)."""
        return {footnote: self._summaries(ids, page_url)
                for footnote, ids in self.belief_set.footnotes(page).items()}


def _words(reason: str | None) -> str | None:
    """``contradicted_by_new_source`` -> ``contradicted by new source``."""
    return reason.replace("_", " ") if reason else None


def raw_site_urls(belief_set: BeliefSet, raw_dir: Path, docs_dir: Path,
                  static: set[str]) -> dict[str, str]:
    """Raw files that are also published (raw_dir inside docs_dir): raw_path -> URL."""
    found: dict[str, str] = {}
    try:
        rel_root = raw_dir.resolve().relative_to(docs_dir.resolve()).as_posix()
    except ValueError:  # raw_dir is outside docs_dir: raw files are not published
        return found
    for p in belief_set.provenance.values():
        src = posixpath.normpath(posixpath.join(rel_root, p.provenance.raw_path))
        if src in static:
            found[p.provenance.raw_path] = asset_url(SrcPath(src))
    return found
