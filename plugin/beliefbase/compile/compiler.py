"""The compiler driver: sources in, ``Compiled`` out, incrementally.

Stages, in order (each a function of the previous stage's records):

1. **parse**    – every source through its codec; unchanged files come from the
                  content-addressed ``ParseCache`` (stat first, then hash).
2. **identify** – networks, then a ``Document`` per note/node: BID, title,
                  aliases, id, sections with anchors.
3. **index**    – one ``NameIndex`` for published notes, one for drafts.
4. **resolve**  – every link of every published note (``LinkResolver``).
5. **check**    – duplicate ids, embed cycles/depth, ``source_refs`` drift.
6. **graph**    – nodes and edges (``GraphBuilder``, parts kept per document) and
                  the invariants, the compiled pages' URLs included.
7. **beliefs**  – every sidecar verified against the pages (``compile/beliefs.py``).

This is the one compile: the plugin and every command (``project.compile_project``)
run it, so both report the same diagnostics.  Its result is immutable.

A ``Compiler`` lives as long as ``mkdocs serve`` does.  Between two compiles it
keeps the documents and resolved links of files that did not change, and
re-resolves only the notes that a change can affect: the changed notes, notes
whose link targets name something whose identity changed (title, alias, id,
path...), notes linking to a changed note (its headings may have moved), and
notes linking to one whose heading anchors follow a retitled note's title.
Nothing it shares with an earlier ``Compiled`` is changed: a change is a new
object.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from .. import diagnostics as diag
from ..beliefs.dates import build_date
from ..builder import link_record
from ..builder.cache import ParseCache
from ..builder.checks import SourceRef, SourceRefChecker, duplicate_ids, malformed_bids
from ..builder.compiled import Linked
from ..builder.documents import Document, Network, make_document, place_home, with_sections
from ..builder.embeds import EmbedMemo, check_embeds
from ..builder.excluded import NONE as NOTHING_EXCLUDED
from ..builder.excluded import Excluded
from ..builder.index import NameIndex, doc_key_places, target_keys
from ..builder.links import LinkResolver
from ..builder.options import CompileOptions
from ..builder.parse import parse_many
from ..builder.resolve import Found, ResolvedLink, Resolver
from ..builder.sources import SourceFile, Symlinks, escapes, unreadable
from ..builder.suggest import Suggester
from ..builder.texts import DecodedTexts
from ..builder.wikitext import auto_title
from ..codecs.inline import WikiText
from ..codecs.markdown import digest, note_text
from ..codecs.model import ParsedDoc
from ..entities.source import EntityStage
from ..frozen import FrozenDict
from ..graph.build import GraphBuilder
from ..graph.invariants import COMPILED_PAGES, check_graph
from ..ids import SrcPath, parse_bid, provisional_bid
from .beliefs import draft_sidecars, verify_beliefs
from .compiled import Compiled
from .entity_graph import entity_parts
from .schema import check_schemas

_Identity = tuple[object, ...]


class Compiler:
    """Compiles a project again and again, reusing what did not change."""

    def __init__(self, options: CompileOptions, cache_dir: Path | None = None) -> None:
        self.options = options
        self.cache = ParseCache(options.parse_digest(), cache_dir)
        self.refs = SourceRefChecker(options)
        self.generation = 0
        #: write the parse cache after each compile; `mkdocs serve` saves it on exit instead
        self.autosave = True
        #: ... in a forked child while the compile goes on (``cache.wait()`` for it)
        self.background_save = False
        #: leave the link record to the caller (``save_link_record``): a one-off build
        #: writes it with the compile's files, off the compile's single-core end
        self.record_links_later = False
        self._recorded: Compiled | None = None  # the compile whose link record is written
        #: keep the notes' decoded texts in each ``Compiled`` for the render to take
        #: (a build: it reads every note again; the command line does not)
        self.keep_texts = False
        self._texts = DecodedTexts()  # this compile's
        self.previous: Compiled | None = None
        #: keeps each document's part of the graph until the document changes
        self.graph_builder = GraphBuilder()
        #: keeps each note's entity tags until the note changes
        self.entity_stage = EntityStage()
        self._docs: dict[SrcPath, Document] = {}
        self._identity: dict[SrcPath, _Identity] = {}
        self._resolved: dict[SrcPath, tuple[tuple[ResolvedLink, ...], list[diag.Diagnostic]]] = {}
        self._key_sources: dict[str, set[SrcPath]] = defaultdict(set)
        # backlinks kept up to date link by link: target -> sources with a link to it
        self._linkers: dict[SrcPath, set[SrcPath]] = defaultdict(set)
        #: the two above are up to date (not dropped by ``compact``)
        self._indexed = True
        self._backlinks: dict[SrcPath, tuple[ResolvedLink, ...]] = {}
        self._touched: set[SrcPath] = set()  # targets whose backlinks changed
        self._embedders: set[SrcPath] = set()  # notes with at least one note embed
        self._unresolved: set[SrcPath] = set()  # notes with a link that matches nothing
        self._renamed = False  # the suggester's names changed: "did you mean" may too
        self._embed_memo: EmbedMemo = {}  # per embedding note: findings, documents walked
        self._dup_memo: dict[str, tuple[Document, list[diag.Diagnostic]]] = {}
        self._assets: set[SrcPath] = set()
        self._links: LinkResolver | None = None
        #: note -> the notes whose titles or headings its headings show (``## See [[b]]``)
        self._heading_targets: dict[SrcPath, frozenset[SrcPath]] = {}
        self._symlinks = Symlinks(options.docs_dir)
        self._networks_seen: dict[str, Network] = {}
        self._home: SrcPath | None = None  # the root note serving as home page, if any
        #: sources of the last compile never read: path -> (path to report, why)
        self._refused: dict[SrcPath, tuple[str, str]] = {}
        #: files left out of the site (path -> why): links to them say so
        self._excluded: Excluded = NOTHING_EXCLUDED
        #: told when a stage of a compile is done ("parsed 791 files"): a long first
        #: build's progress (``site/log.py``)
        self.on_stage: Callable[[str], None] | None = None

    # -- the stages -------------------------------------------------------------------

    def compile(self, sources: Iterable[SourceFile],
                excluded: Mapping[str, str] | None = None) -> Compiled:
        """Compile ``sources``; ``excluded``: the files of docs_dir left out of the site
        and why (``project.classify``), so a link to one says so."""
        self.generation += 1
        excluded_changed = dict(excluded or {}) != self._excluded.reasons
        if excluded_changed:
            self._excluded = Excluded(excluded or {})
        escaped, readable = self._partition(sources)
        self._texts = DecodedTexts()
        if self.keep_texts:
            self._texts.open()
        parsed = self._parse(s for s in readable
                             if s.kind in ("markdown", "toml", "network", "canvas", "base"))
        self._stage(f"parsed {len(parsed):,} files")
        self.cache.retain({s.path for s in readable})
        if self.autosave:  # all the cache gets from this compile: write it meanwhile
            self.cache.save(background=self.background_save)
        networks = self._networks(parsed)
        docs = self._identify(parsed, networks)
        self._home = place_home(docs, self._home, self.options)
        assets = {s.path for s in readable if s.kind == "asset"}
        changed = {p for p, d in docs.items() if self._docs.get(p) is not d}
        removed = set(self._docs) - set(docs)
        affected = self._index(docs, assets, changed, removed)
        # new Documents for notes whose heading anchors follow another note's title
        changed |= self._rederive_anchors(docs, changed, removed, bool(affected))
        self._docs, self._assets = docs, assets
        assert self._links is not None
        if self._links.excluded is not self._excluded:
            self._links = self._links.with_excluded(self._excluded)
        to_resolve = self._dirty(docs, changed, removed, affected)
        if excluded_changed:  # a link that matched nothing may name a file left out
            to_resolve |= {p for p in self._unresolved if p in docs and docs[p].published}
        self._resolve(docs, to_resolve, removed)
        self._stage(f"resolved the links of {len(to_resolve):,} notes")
        self._forget_checks(changed | removed | to_resolve, removed)
        compiled = self._check(docs, networks, assets, readable, escaped, parsed,
                               changed, removed)
        self._stage("checked")
        compiled = self._graph_and_beliefs(compiled)
        self.previous = compiled
        if self.autosave and not self.record_links_later:
            self.save_link_record()  # what each link meant, for `beliefbase sync` after a rename
        return compiled

    def compact(self) -> None:
        """Drop the tables only a next compile reads (which notes name each key, which
        link to each note: 9 MB of sets at 5,000 notes); a next compile makes them
        again from the links it kept.  A one-off build: nothing comes next, or (a
        build followed by a serve in one process) rarely."""
        self._key_sources, self._linkers = defaultdict(set), defaultdict(set)
        self._indexed = False

    def _index_links(self) -> None:
        """``_key_sources`` and ``_linkers`` as ``_resolve`` left them, if ``compact``
        dropped them: from each resolved note's links (``previous``: the notes as
        they were resolved)."""
        if self._indexed:
            return
        self._indexed = True
        previous = self.previous.documents if self.previous is not None else {}
        for path, (links, _found) in self._resolved.items():
            doc = previous.get(path)
            for link in doc.parsed.links if doc is not None else ():
                for key in target_keys(link.target):
                    self._key_sources[key].add(path)
            for target in _backlink_targets(links):
                self._linkers[target].add(path)

    def _stage(self, done: str) -> None:
        if self.on_stage is not None:
            self.on_stage(done)

    def save_link_record(self) -> None:
        """Write the last compile's link record into the cache folder (``link_record``),
        unless it was written already (a build's end, after its compile's files)."""
        if (self.previous is not None and self.cache.cache_dir is not None
                and self.previous is not self._recorded):
            link_record.update(self.cache.cache_dir, self.previous)
            self._recorded = self.previous

    def recorded_elsewhere(self) -> None:
        """Another process (a forked child of this one) wrote the last compile's link record."""
        self._recorded = self.previous

    def _partition(
        self, sources: Iterable[SourceFile]
    ) -> tuple[list[SourceFile], list[SourceFile]]:
        """Sources never read (outside docs_dir after symlinks, or ``unreadable``), and
        the others.  Why each unreadable one is refused goes to ``_refused``."""
        escaped: list[SourceFile] = []
        readable: list[SourceFile] = []
        self._refused = {}
        scan = self._symlinks.find()
        loops = tuple(f"{loop}/" for loop in scan.loops)
        for source in sources:
            refused = unreadable(source.path, scan.special, loops)
            if refused is not None:
                self._refused[source.path] = refused
                escaped.append(source)
                continue
            suspicious = source.path in scan.files or (
                scan.folders and posixpath.dirname(source.path) in scan.folders)
            if suspicious and escapes(source, self.options.docs_real):
                escaped.append(source)
            else:
                readable.append(source)
        return escaped, readable

    def _parse(self, sources: Iterable[SourceFile]) -> dict[SrcPath, ParsedDoc]:
        """Parse every source, reusing the cache; new parses in parallel when many."""
        parsed: dict[SrcPath, ParsedDoc] = {}
        todo: list[tuple[SourceFile, bytes, tuple[int, int] | None]] = []
        for source in sorted(sources, key=lambda s: s.path):
            stat = source.stat_key()
            doc = self.cache.by_stat(source.path, stat)
            if doc is None:
                try:
                    data = source.read_bytes()
                except OSError as exc:
                    data = f"<!-- unreadable: {exc.strerror} -->".encode()
                doc = self.cache.by_digest(source.path, digest(data), stat)
                if doc is None:
                    todo.append((source, data, stat))
                    continue
                if self._texts.keeping and doc.kind == "markdown":  # read: the render need not
                    self._texts.keep(doc.path, doc.digest, note_text(data)[0])
            parsed[source.path] = doc
        jobs = [(s.path, s.kind, data, self.options.display(s.path)) for s, data, _ in todo]
        done = parse_many(jobs, self.options.jobs, self._texts)
        for (source, _data, stat), doc in zip(todo, done, strict=True):
            self.cache.store(doc, stat)
            parsed[source.path] = doc
        return dict(sorted(parsed.items()))

    def _networks(self, parsed: dict[SrcPath, ParsedDoc]) -> dict[str, Network]:
        """The root network plus one per BeliefNetwork.toml, keyed by folder."""
        networks: dict[str, Network] = {}
        for path, doc in parsed.items():
            if doc.kind != "network":
                continue
            folder = posixpath.dirname(path)
            meta = doc.meta
            net_id = str(meta.get("id") or posixpath.basename(folder) or "root")
            bid = provisional_bid("network", folder)
            if isinstance(meta.get("bid"), str):
                bid = parse_bid(meta["bid"]) or bid
            title = str(meta.get("title") or (self.options.site_name if not folder else net_id))
            networks[folder] = Network(bid, net_id, title, folder, path)
        if "" not in networks:
            networks[""] = Network(provisional_bid("network", ""), "root",
                                   self.options.site_name or "root", "", None)
        return dict(sorted(networks.items()))

    def _identify(
        self, parsed: dict[SrcPath, ParsedDoc], networks: dict[str, Network]
    ) -> dict[SrcPath, Document]:
        docs: dict[SrcPath, Document] = {}
        by_folder: dict[str, Network] = {}
        same_networks = networks == self._networks_seen
        self._networks_seen = networks
        for path, doc in parsed.items():
            if doc.kind == "network":
                continue
            old = self._docs.get(path)
            if same_networks and old is not None and old.parsed is doc:
                docs[path] = old
                continue
            folder = posixpath.dirname(path)
            network = by_folder.get(folder)
            if network is None:
                network = by_folder[folder] = _nearest_network(path, networks)
            if old is not None and old.parsed is doc and old.network == network:
                docs[path] = old
            else:
                docs[path] = make_document(doc, network, self.options)
        return docs

    def _index(
        self,
        docs: dict[SrcPath, Document],
        assets: set[SrcPath],
        changed: set[SrcPath],
        removed: set[SrcPath],
    ) -> set[str]:
        """(Re)build the name indexes; return the names whose meaning changed."""
        affected: set[str] = set()
        identity = dict(self._identity)
        for path in removed:
            identity.pop(path, None)
        for path in changed:
            identity[path] = _identity(docs[path])
        for path in changed | removed:
            old, new = self._identity.get(path), identity.get(path)
            if old == new:
                continue
            old_keys = doc_key_places(self._docs[path]) if path in self._docs else set()
            new_keys = doc_key_places(docs[path]) if path in docs else set()
            if old is None or new is None or old[-2:] != new[-2:]:
                # added, removed, (un)published, moved network
                affected |= {key for _kind, key in old_keys | new_keys}
            else:  # only names that appeared, disappeared or changed kind
                affected |= {key for _kind, key in old_keys ^ new_keys}
        for path in assets ^ self._assets:
            affected |= target_keys(path)
        if self._links is None or affected:
            if self._links is None or assets != self._assets:
                published = NameIndex((d for d in docs.values() if d.published),
                                      (a for a in assets))
                drafts = NameIndex((d for d in docs.values() if not d.published), ())
            else:  # the last indexes, with the edited, added and removed notes
                gone = [self._docs[p] for p in changed | removed if p in self._docs]
                edited = [docs[p] for p in sorted(changed)]
                published = self._links.published.updated(
                    [d for d in gone if d.published], [d for d in edited if d.published])
                drafts = self._links.resolver.drafts.updated(
                    [d for d in gone if not d.published], [d for d in edited if not d.published])
            suggester = Suggester(published.suggestion_names())
            previous = self._links.suggester if self._links is not None else None
            self._renamed = previous is not None and not suggester.same_names(previous)
            suggester.inherit(previous)  # its index and answers, updated for the new names
            self._links = LinkResolver(Resolver(published, drafts), published, suggester,
                                       self.options)
        else:  # the same names: new objects for the edited notes, in new indexes
            self._links = self._links.with_docs(docs[p] for p in sorted(changed)).for_compile()
        self._identity = identity
        return affected

    def _rederive_anchors(self, docs: dict[SrcPath, Document], changed: set[SrcPath],
                          removed: set[SrcPath], renamed: bool) -> set[SrcPath]:
        """Headings with auto-titled wikilinks get their anchor from the target's title
        (or heading text: ``## About [[g#Part]]``).

        Done for the changed notes, the notes whose headings link to a changed one,
        and every such note when names changed (``renamed``).  A note whose
        sections come out different is a new ``Document`` (in ``docs`` and in the
        name indexes); the earlier compile keeps the old one.  Returns the paths of
        those notes: links into them must be resolved again.
        """
        assert self._links is not None
        links = self._links
        for path in removed:
            self._heading_targets.pop(path, None)
        which = set(docs) if renamed else changed | {
            p for p, targets in self._heading_targets.items() if targets & changed}
        new: dict[SrcPath, Document] = {}
        for path in sorted(which):
            doc = docs.get(path)
            if doc is None or not any("[[" in h.text for h in doc.parsed.headings):
                self._heading_targets.pop(path, None)
                continue
            used: set[SrcPath] = set()
            fixed = with_sections(doc, self.options, _recording(auto_title(links, doc), links,
                                                               doc, used))
            self._heading_targets[path] = frozenset(used)
            if fixed is not doc:
                docs[path] = new[path] = fixed
        self._links = links.with_docs(new.values())
        return set(new)

    def _dirty(
        self,
        docs: dict[SrcPath, Document],
        changed: set[SrcPath],
        removed: set[SrcPath],
        affected: set[str],
    ) -> set[SrcPath]:
        """The published notes whose links must be resolved again."""
        self._index_links()
        if self.previous is None:
            return {p for p, d in docs.items() if d.published}
        dirty = set(changed)
        for key in affected:
            dirty |= self._key_sources.get(key, set())
        previous = self.previous.documents
        for path in changed | removed:
            linkers = self.previous.backlinks.get(path, ())
            if path in docs and path in previous and _anchors(docs[path]) == _anchors(
                previous[path]
            ):
                # same headings and blocks: links into it resolve as before; only a
                # missing-anchor message names its title
                if docs[path].title != previous[path].title:
                    dirty |= {resolution.source for resolution in linkers
                              if resolution.anchor_missing}
                continue
            dirty |= {resolution.source for resolution in linkers}
        return {p for p in dirty if p in docs and docs[p].published}

    def _resolve(
        self, docs: dict[SrcPath, Document], dirty: set[SrcPath], removed: set[SrcPath]
    ) -> None:
        assert self._links is not None
        for path in list(self._resolved):
            if path not in docs or not docs[path].published:
                self._forget(path)
                del self._resolved[path]
        # links first, then their diagnostics: "did you mean" for many unresolved
        # links is answered in parallel in between
        resolved = {path: tuple(self._links.resolve_links(docs[path])) for path in sorted(dirty)}
        self._links.prefetch_suggestions(resolved.values())
        for path, links in resolved.items():
            self._forget(path)
            self._resolved[path] = (links, self._links.rediagnose(docs[path], links))
            for link in docs[path].parsed.links:
                for key in target_keys(link.target):
                    self._key_sources[key].add(path)
            for target in _backlink_targets(links):
                self._linkers[target].add(path)
                self._touched.add(target)
            if any(resolution.link.form == "embed" for resolution in links):
                self._embedders.add(path)
            if any(resolution.status == "unresolved" for resolution in links):
                self._unresolved.add(path)
        if self._renamed:
            # "did you mean" may differ, but only for the words whose answer changed
            suggester = self._links.suggester
            for path in sorted(self._unresolved - dirty):
                links = self._resolved[path][0]
                if suggester.answers_as_before(resolution.link.target for resolution in links
                                               if resolution.status == "unresolved"):
                    continue
                self._resolved[path] = (links, self._links.rediagnose(docs[path], links))
            self._renamed = False

    def _forget(self, path: SrcPath) -> None:
        """Drop what ``path``'s resolved links put into the indexes."""
        old = self._resolved.get(path)
        if old is None:
            return
        for resolution in old[0]:
            for key in target_keys(resolution.link.target):
                self._key_sources.get(key, set()).discard(path)
        for target in _backlink_targets(old[0]):
            self._linkers[target].discard(path)
            self._touched.add(target)
        self._embedders.discard(path)
        self._unresolved.discard(path)
        self._embed_memo.pop(path, None)

    def _forget_checks(self, changed: set[SrcPath], removed: set[SrcPath]) -> None:
        """Drop per-note check results that ``changed`` (or re-resolved) notes may alter."""
        if changed:
            stale = [root for root, (_, reached) in self._embed_memo.items() if reached & changed]
            for root in stale:
                del self._embed_memo[root]
        for path in removed:
            self._dup_memo.pop(path, None)

    def _updated_backlinks(self, links: dict[SrcPath, tuple[ResolvedLink, ...]]) -> (
        dict[SrcPath, tuple[ResolvedLink, ...]]
    ):
        """Backlinks, rebuilt only for targets whose linking notes changed.

        A new dict each compile: the previous ``Compiled`` keeps its own (``--dirty``
        rebuilds compare the two).  Lists are in source path order, then link order.
        """
        backlinks = dict(self._backlinks)
        for target in self._touched:
            items = tuple(resolution for source in sorted(self._linkers.get(target, ()))
                          for resolution in links[source]
                          if resolution.target == target and _is_backlink(resolution))
            if items:
                backlinks[target] = items
            else:
                backlinks.pop(target, None)
                self._linkers.pop(target, None)
        self._touched = set()
        self._backlinks = dict(sorted(backlinks.items()))
        return self._backlinks

    def _check(
        self,
        docs: dict[SrcPath, Document],
        networks: dict[str, Network],
        assets: set[SrcPath],
        readable: list[SourceFile],
        escaped: list[SourceFile],
        parsed: dict[SrcPath, ParsedDoc],
        changed: set[SrcPath],
        removed: set[SrcPath],
    ) -> Linked:
        assert self._links is not None  # made by _resolve
        links = {p: self._resolved[p][0] for p in sorted(self._resolved)}
        backlinks = self._updated_backlinks(links)
        found: list[diag.Diagnostic] = []
        for parsed_doc in parsed.values():
            found.extend(parsed_doc.diagnostics)
        for _links, link_diags in self._resolved.values():
            found.extend(link_diags)
        published = [d for d in docs.values() if d.published]
        found += duplicate_ids(published, self.options, self._dup_memo, lambda: {
            rl.link.target.strip() for rls in links.values() for rl in rls
            if rl.step == 3})  # the links that found a note by its frontmatter id
        found += malformed_bids(published, self.options)
        found += check_embeds(docs, links, self.options.embed_depth, self.options.display,
                              self._embedders, self._embed_memo)
        refs: dict[SrcPath, tuple[SourceRef, ...]] = {}
        for doc in published:
            if "source_refs" not in doc.parsed.meta:
                continue
            doc_refs, ref_diags = self.refs.check(doc)
            if doc_refs:
                refs[doc.path] = tuple(doc_refs)
            found += ref_diags
        for source in escaped:
            if source.path in self._refused:
                where, why = self._refused[source.path]
                found.append(diag.make("unreadable-file", self.options.display(where), 1, 1,
                                       why))
                continue
            found.append(diag.make(
                "path-escape", self.options.display(source.path), 1, 1,
                "this file is a symlink to a place outside the docs folder; it is not read "
                "or published (copy the file in, or link to it instead)",
            ))
        return Linked(
            options=self.options,
            generation=self.generation,
            documents=FrozenDict(docs),
            networks=FrozenDict({n.id: n for n in networks.values()}),
            assets=frozenset(assets),
            links=FrozenDict(links),
            backlinks=FrozenDict(backlinks),
            source_refs=FrozenDict(refs),
            diagnostics=tuple(sorted(set(found), key=diag.sort_key)),
            sidecars=tuple(s for s in readable if s.kind == "sidecar"),
            escaped=tuple(escaped),
            changed=frozenset(changed),
            removed=frozenset(removed),
            link_resolver=self._links,
            home=self._home,
            texts=self._texts,
        )


    def _graph_and_beliefs(self, compiled: Linked) -> Compiled:
        """The entities, the graph with its invariants, the verified beliefs and the
        checks of declared node types, added to ``compiled``.

        Only compiled pages' URLs are checked here; the site checks the pages it
        generates (tag pages) once it has made them.
        """
        documents, options, display = compiled.documents, compiled.options, self.options.display
        published = compiled.published
        entities, entity_found = self.entity_stage.run(documents, compiled.texts, options)
        graph = self.graph_builder.build(compiled, entity_parts(entities, documents, options))
        urls = {d.url for d in published.values() if d.url is not None}
        found = check_graph(graph, urls, display, COMPILED_PAGES)
        beliefs = verify_beliefs(compiled.sidecars, documents, options, build_date())
        diagnostics = (set(compiled.diagnostics) | set(found) | set(beliefs.diagnostics)
                       | set(entity_found) | set(check_schemas(published, display)))
        drafts = draft_sidecars(compiled.sidecars, compiled.drafts, display)
        return Compiled.of(compiled, entities=entities, graph=graph, beliefs=beliefs,
                           diagnostics=tuple(sorted(diagnostics, key=diag.sort_key)),
                           draft_sidecars=frozenset(drafts))


def _recording(wikitext: WikiText, links: LinkResolver, doc: Document,
               used: set[SrcPath]) -> WikiText:
    """``wikitext``, noting in ``used`` each note whose title or heading it shows."""

    def text(target: str, fragment: str, display: str | None) -> str:
        if target and not display:
            found = links.resolver.find(target, doc)
            if isinstance(found, Found):
                used.add(found.path)
        return wikitext(target, fragment, display)

    return text


def _is_backlink(resolution: ResolvedLink) -> bool:
    return (resolution.status == "ok" and resolution.target is not None
            and resolution.target != resolution.source)


def _backlink_targets(links: Iterable[ResolvedLink]) -> set[SrcPath]:
    return {resolution.target for resolution in links if _is_backlink(resolution)}  # type: ignore[misc]


def _nearest_network(path: SrcPath, networks: dict[str, Network]) -> Network:
    folder = posixpath.dirname(path)
    while True:
        if folder in networks:
            return networks[folder]
        if not folder:
            return networks[""]
        folder = posixpath.dirname(folder)


def _anchors(doc: Document) -> tuple[object, ...]:
    """What a link into ``doc`` can point at, besides the document itself."""
    return (tuple((s.anchor, s.text, s.raw) for s in doc.sections), tuple(sorted(doc.blocks)))


def _identity(doc: Document) -> _Identity:
    """What link resolution reads from a document (besides its sections)."""
    return (doc.title, doc.aliases, doc.id, doc.bid, doc.published, doc.network.id)
