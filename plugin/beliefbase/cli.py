"""The ``beliefbase`` command line (click, like MkDocs itself).

Every command compiles the project with the same compiler the plugin uses,
run in the folder of mkdocs.yml or given ``-f mkdocs.yml``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import click

from . import canvas_relink, relink
from . import diagnostics as diag
from .beliefs.cli import register as register_belief_commands
from .builder import link_record
from .builder.documents import Document
from .builder.links import written_form
from .compile.compiled import Compiled
from .entities.cli import register as register_entity_commands
from .graph.emit import graph_json_text
from .graph.events import diff_graphs, load_snapshot, save_snapshot
from .graph.model import Graph
from .ids import SrcPath
from .process import one_compile
from .project import (
    belief_context,
    cache_dir,
    compile_project,
    compile_with_config,
    load_config,
    load_project,
    plugin_config,
    vault_settings,
)
from .query.cli import register as register_query_command
from .query.run import QueryEngine
from .sync import add_bid, record_source_refs
from .terminal import echo
from .writeback import edit_file

__all__ = ["compile_project", "load_project", "main"]

config_option = click.option(
    "-f", "--config-file", "config_file", type=click.Path(exists=True, dir_okay=False),
    default=None, help="Path to mkdocs.yml (default: ./mkdocs.yml).",
)


@click.group()
@click.version_option(package_name="mkdocs-beliefbase")
def main() -> None:
    """Compile and query a beliefbase knowledge base."""
    one_compile()  # the collector tuned as for a build: the compile lives to the end


@main.command()
@config_option
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too (not only errors).")
@click.option("--json", "as_json", is_flag=True, help="Print diagnostics as JSON.")
@click.option("--events", is_flag=True,
              help="Print what changed since the last compile (NodeAdded, ...).")
@click.option("--codes", is_flag=True, help="List every diagnostic code and exit.")
def check(config_file: str | None, strict: bool, as_json: bool, events: bool, codes: bool) -> None:
    """Compile the knowledge base and print its diagnostics."""
    if codes:
        for code, (level, meaning) in diag.CODES.items():
            echo(f"{code:22} {level.value:8} {meaning}")
        return
    config, compiled = compile_with_config(config_file, use_cache=True)
    graph = _graph(compiled)
    # the compile's diagnostics (beliefs and graph invariants included) and the
    # vault settings': what the build reports, less what only rendering finds
    found = sorted(set(compiled.diagnostics) | set(vault_settings(config).diagnostics)
                   | set(_page_queries(config, compiled)), key=diag.sort_key)
    snapshot_dir = cache_dir(config)
    if events:
        previous = load_snapshot(snapshot_dir)
        for event in diff_graphs(previous, graph):
            echo(event.describe())
    save_snapshot(snapshot_dir, graph)
    if as_json:
        echo(json.dumps({"version": 1, "diagnostics": [d.as_json() for d in found]},
                              indent=1, ensure_ascii=False))
    elif not events:
        for d in found:
            echo(f"{d.level.value}: {d}")
        counts = diag.summary(found)
        summary = ", ".join(f"{n} {code}" for code, n in counts.items()) or "no diagnostics"
        echo(f"{len(compiled.published)} notes, {summary}", err=True)
    failing = [d for d in found if d.level is diag.Level.ERROR or
               (strict and d.level is diag.Level.WARNING)]
    sys.exit(1 if failing else 0)


def _page_queries(config: Any, compiled: Compiled) -> list[diag.Diagnostic]:
    """The diagnostics of the pages' queries, as the build finds them (query_embeds)."""
    from .codecs.markdown import decode, note_text
    from .site.markdown.query_embeds import page_query_diagnostics
    from .site.query_views import Views

    options = plugin_config(config)
    docs_dir = compiled.options.docs_dir

    def read_text(path: SrcPath) -> str:  # as the build reads it (SiteBuild.read_text)
        doc = compiled.documents.get(path)
        read = note_text if doc is None or doc.kind == "markdown" else decode
        try:
            return str(read((docs_dir / path).read_bytes())[0])
        except OSError:
            return ""

    return page_query_diagnostics(compiled, Views(docs_dir / options.views_dir, options.views),
                                  read_text, float(options.query_timeout),
                                  options.query_max_rows)


@main.command()
@config_option
@click.option("--source-refs", "source_refs", is_flag=True,
              help="Record the current SHA-256 of every source_refs file instead of BIDs.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if anything would change.")
@click.option("--diff", is_flag=True, help="Write nothing; print a unified diff.")
def sync(config_file: str | None, source_refs: bool, check: bool, diff: bool) -> None:
    """Write BIDs into notes that lack one and fix links to renamed notes, in notes
    and canvases (or, with --source-refs, record source hashes)."""
    config, compiled = compile_with_config(config_file, use_cache=True)
    options = compiled.options
    fixes: dict[SrcPath, list[relink.Fix | relink.Unfixable]] = {}
    known = link_record.LinkRecord()
    if not source_refs:  # what each link meant before the last renames (link_record)
        known = link_record.record(compiled, link_record.load(cache_dir(config)))
        fixes = relink.plan(compiled, known)
    changed = refused = 0
    for doc in compiled.documents.values():
        if doc.kind == "canvas" and not source_refs:
            changed_one, refused_one = _sync_canvas(compiled, doc, known, check, diff)
            changed, refused = changed + changed_one, refused + refused_one
            continue
        if doc.kind != "markdown":
            continue
        where = options.display(doc.path)
        what: list[str] = []
        if source_refs:
            refs = compiled.source_refs.get(doc.path, ())
            if not refs:
                continue
            hashes = {r.path: r.current for r in refs}
            transform: Callable[[str], str] = partial(record_source_refs, hashes=hashes)
            what.append("source hashes")
        else:
            planned = fixes.get(doc.path, [])
            for bad in (f for f in planned if isinstance(f, relink.Unfixable)):
                echo(f"{where}:{bad.link.line}:{bad.link.column}: {written_form(bad.link)} "
                     f"meant {options.display(bad.target)}, which moved or was retitled; "
                     f"{bad.why}: fix it by hand", err=True)
            links = [f for f in planned if isinstance(f, relink.Fix)]
            transform = partial(relink.fix_links, fixes=links)
            if "bid" not in doc.parsed.meta:
                transform = _then(transform, partial(add_bid, bid=doc.bid))
                what.append("bid")
            if links:
                what.append(f"{len(links)} link{'s' if len(links) > 1 else ''}")
        result = edit_file(options.docs_dir / doc.path, transform, check=check, diff=diff,
                           root=options.docs_dir, expect_sha256=doc.parsed.digest,
                           label=where)
        if result.refused:
            refused += 1
            echo(f"{where}: not changed: {result.refused}", err=True)
        elif result.changed:
            changed += 1
            if diff:
                echo(result.diff, nl=False)
            else:
                echo(f"{where}: {'would ' if check else ''}{_sync_verbs(what, check)}")
    if (check or diff) and changed:
        sys.exit(1)  # "would change" (SPEC 10), like `git diff --exit-code`
    if refused:
        sys.exit(2)


def _sync_canvas(compiled: Compiled, doc: Document, known: link_record.LinkRecord,
                 check: bool, diff: bool) -> tuple[int, int]:
    """``sync`` of one canvas: its file nodes and text nodes' links to renamed notes
    (``canvas_relink``).  1 or 0 changed, 1 or 0 refused."""
    options = compiled.options
    meant = canvas_relink.stale_targets(compiled, doc, known)
    if not meant:
        return 0, 0
    where = options.display(doc.path)
    transform = canvas_relink.CanvasRelink(compiled, doc, meant)
    result = edit_file(options.docs_dir / doc.path, transform, check=check, diff=diff,
                       root=options.docs_dir, expect_sha256=doc.parsed.digest, label=where)
    for bad in transform.unfixable:
        echo(f"{where}:{bad.link.line}:{bad.link.column}: {written_form(bad.link)} "
             f"meant {options.display(bad.target)}, which moved or was retitled; "
             f"{bad.why}: fix it by hand", err=True)
    if result.refused:
        echo(f"{where}: not changed: {result.refused}", err=True)
        return 0, 1
    if not result.changed:
        return 0, 0
    if diff:
        echo(result.diff, nl=False)
    else:
        links = f"{transform.fixed} link{'s' if transform.fixed != 1 else ''}"
        echo(f"{where}: {'would ' if check else ''}{_sync_verbs([links], check)}")
    return 1, 0


def _graph(compiled: Compiled) -> Graph:
    return compiled.graph


def _then(first: Callable[[str], str], second: Callable[[str], str]) -> Callable[[str], str]:
    """``second`` after ``first`` (links are fixed by line before a bid line shifts them)."""
    return lambda text: second(first(text))


def _sync_verbs(what: list[str], check: bool) -> str:
    """"recorded bid", "fixed 2 links", "recorded bid, fixed 1 link" (check: bare verbs)."""
    parts = []
    for item in what:
        fixed = item.endswith(("link", "links"))
        if check:
            parts.append(f"{'fix' if fixed else 'record'} {item}")
        else:
            parts.append(f"{'fixed' if fixed else 'recorded'} {item}")
    return ", ".join(parts)


@main.command()
@click.option("-f", "--config-file", "config_file", type=click.Path(dir_okay=False),
              default=None, help="Path to mkdocs.yml (default: ./mkdocs.yml).")
def doctor(config_file: str | None) -> None:
    """Say what will and will not run the plugin: the MkDocs, ProperDocs and Zensical
    installed here, and what mkdocs.yml asks for. Exit 1 when nothing builds the site
    with beliefbase."""
    from . import doctor as checkup

    path = Path(config_file) if config_file else next(
        (p for p in (Path("mkdocs.yml"), Path("mkdocs.yaml")) if p.is_file()), None)
    found = checkup.report(path)
    for finding in found.findings:
        echo(str(finding))
    echo(found.summary())
    sys.exit(0 if found.ok else 1)


@main.group()
def graph() -> None:
    """Export the compiled graph."""


@graph.command("export")
@config_option
@click.option("--format", "fmt", type=click.Choice(["json", "graphml"]), default="json")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None)
def graph_export(config_file: str | None, fmt: str, output: Path | None) -> None:
    """Write graph.json (the site's format) or GraphML."""
    g = _graph(compile_project(config_file, use_cache=True))
    if fmt == "json":
        text = graph_json_text(g)
    else:
        from .graph.graphml import to_graphml

        text = to_graphml(g)
    if output is None:
        echo(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise click.ClickException(
            f"cannot write {output}: {exc.strerror or exc} (does its folder exist?)") from exc


register_belief_commands(main, belief_context)
def _query_engine(config_file: Path | None) -> QueryEngine:
    """The query engine of ``beliefbase query``: the project's graph, the plugin's limits."""
    options = plugin_config(load_config(config_file))
    compiled = compile_project(config_file, use_cache=True)
    return QueryEngine(compiled.graph, timeout=float(options.query_timeout),
                       max_rows=options.query_max_rows, display=compiled.options.display)


def _vault_answer(config_file: Path | None, dataview: str | None, base_file: Path | None,
                  view: str | None) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """``query --dataview`` / ``--base``: the engines over the compile (issue 27)."""
    from .site.dashboard_cli import answer

    return answer(compile_project(config_file, use_cache=True), dataview, base_file, view)


register_query_command(main, _query_engine, _vault_answer)
register_entity_commands(main, lambda f: Path(load_config(f).docs_dir).resolve())
