"""The belief commands: ``why``, ``beliefs list|history|supersede|export|verify``, ``reindex``.

They need the compiled pages, which only the compiler knows, so they are built
around a loader: ``register(group, load)`` adds them to the ``beliefbase``
click group, where ``load(config_file) -> ProjectContext`` compiles the
project of that mkdocs.yml.  The config path comes from the command's own
``-f/--config-file``, else the group's (``ctx.obj["config_file"]`` or a
``config_file`` parameter of the root command), else ``mkdocs.yml``.

Every command verifies the sidecars afresh and brings ``beliefs.sqlite`` up
to date (``BeliefStore.sync``) before answering, so answers never come from a
stale index and quote checks are against the live raw files.  Exit codes: 0
ok; 1 on drift (``verify``), on a pending change (``supersede --check``), on a
refused or impossible edit, or an unknown belief; 2 on usage errors (click).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click

from .. import diagnostics as diag
from ..ids import normalize_name
from ..terminal import echo, printable
from ..writeback import edit_file
from . import dates
from .edit import supersede_transform
from .emit import belief_record
from .facts import ProjectContext, display_path
from .model import SUPERSESSION_REASONS, BeliefSet
from .store import BELIEF_COLUMNS, BeliefStore
from .verify import verify_context
from .why import history, why
from .whytext import belief_node, draw, render_text

Loader = Callable[[Path], ProjectContext]
F = TypeVar("F", bound=Callable[..., Any])


class _IsoDate(click.ParamType):  # type: ignore[type-arg]
    name = "DATE"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if not dates.is_iso(value):
            self.fail(f"{value!r} is not an ISO date (2026-04-15) or date-time "
                      "(2026-04-15T14:23:00Z)", param, ctx)
        return str(value)


ISO_DATE = _IsoDate()


def _config_option(func: F) -> F:
    return click.option("-f", "--config-file", type=click.Path(path_type=Path), default=None,
                        help="mkdocs.yml of the project (default: the group's, or ./mkdocs.yml)."
                        )(func)


def config_path(option: Path | None) -> Path:
    """The mkdocs.yml to load (see the module doc for the order)."""
    if option is not None:
        return option
    root = click.get_current_context().find_root()
    if isinstance(root.obj, Mapping) and root.obj.get("config_file"):
        return Path(root.obj["config_file"])
    if isinstance(root.obj, str | Path):
        return Path(root.obj)
    if root.params.get("config_file"):
        return Path(root.params["config_file"])
    return Path("mkdocs.yml")


@dataclass
class Session:
    project: ProjectContext
    beliefs: BeliefSet
    store: BeliefStore


def open_session(load: Loader, option: Path | None) -> Session:
    """Load the project, verify its sidecars and sync the index."""
    project = load(config_path(option))
    beliefs = project.verified or verify_context(project)  # the compile verified them
    store = BeliefStore(project.store_path)
    store.sync(beliefs)
    return Session(project, beliefs, store)


def rebuild_beliefs(project: ProjectContext) -> BeliefSet:
    """``reindex --rebuild-beliefs``: verify and write ``beliefs.sqlite`` from scratch."""
    beliefs = project.verified or verify_context(project)
    with BeliefStore(project.store_path) as store:
        store.rebuild(beliefs)
    return beliefs


def _unknown(session: Session, belief_id: str) -> click.ClickException:
    hint = diag.did_you_mean(belief_id, list(session.beliefs.beliefs))
    return click.ClickException(printable(f"unknown belief id {belief_id!r}{hint}"))


def make_commands(load: Loader) -> list[click.Command]:
    """The ``why``, ``beliefs`` and ``reindex`` commands, bound to ``load``."""

    @click.command("why")
    @click.argument("query")
    @click.option("--network", "-n", help="Only beliefs of this network.")
    @click.option("--since", type=ISO_DATE, help="Only beliefs current on or after DATE.")
    @click.option("--until", type=ISO_DATE, help="Only beliefs current on or before DATE.")
    @click.option("--as-of", "as_of", type=ISO_DATE, help="What was believed on DATE.")
    @click.option("--no-history", is_flag=True, help="Leave out superseded beliefs.")
    @click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
    @_config_option
    def why_command(query: str, network: str | None, since: str | None, until: str | None,
                    as_of: str | None, no_history: bool, as_json: bool,
                    config_file: Path | None) -> None:
        """What do we believe about QUERY, why, and since when.

        QUERY is a belief id, a subject (SUBJECT::PREDICATE narrows it), a topic,
        or words of a statement, tried in that order.
        """
        session = open_session(load, config_file)
        answer = why(session.store, query, network, since, until, as_of, not no_history)
        if as_json:
            echo(json.dumps(answer, indent=2, ensure_ascii=False))
        else:
            echo(render_text(answer), nl=False)

    @click.group("beliefs")
    def beliefs_group() -> None:
        """List, trace, supersede, export and verify beliefs."""

    @beliefs_group.command("list")
    @click.option("--topic", help="Only beliefs on this topic.")
    @click.option("--current-only", is_flag=True, help="Leave out superseded beliefs.")
    @click.option("--network", "-n", help="Only beliefs of this network.")
    @_config_option
    def list_command(topic: str | None, current_only: bool, network: str | None,
                     config_file: Path | None) -> None:
        """One line per belief: id, status, topic, statement."""
        session = open_session(load, config_file)
        rows = [r for r in session.store.iter_beliefs(network)
                if (topic is None or normalize_name(r["topic"]) == normalize_name(topic))
                and not (current_only and r["superseded_at"] is not None)]
        if not rows:
            echo("no beliefs match")
            return
        width = max(len(r["belief_id"]) for r in rows)
        for r in rows:
            status = "current" if r["superseded_at"] is None else f"superseded {r['superseded_at']}"
            if status == "current" and r["confidence_hint"] == "contested":
                status = "contested"
            statement = " ".join(r["statement"].split())
            echo(f"{r['belief_id']:<{width}}  {status:<21}  {r['topic']}: {statement}")

    @beliefs_group.command("history")
    @click.argument("belief_id")
    @_config_option
    def history_command(belief_id: str, config_file: Path | None) -> None:
        """The supersession chain through BELIEF_ID, oldest first."""
        session = open_session(load, config_file)
        chain = history(session.store, belief_id)
        if chain is None:
            raise _unknown(session, belief_id)
        echo(f"history of {belief_id} ({_count(len(chain), 'belief')}, oldest first)")
        echo("\n".join(draw([belief_node(b) for b in chain])))

    @beliefs_group.command("supersede")
    @click.argument("old")
    @click.argument("new")
    @click.option("--reason", required=True, type=click.Choice(SUPERSESSION_REASONS))
    @click.option("--at", type=ISO_DATE, help="superseded_at (default: NEW's asserted_at).")
    @click.option("--run", help="superseded_in_run (free text, e.g. a commit).")
    @click.option("--check", is_flag=True, help="Exit 1 if the sidecar would change; "
                  "write nothing.")
    @click.option("--diff", is_flag=True, help="Print the change as a diff; write nothing.")
    @_config_option
    def supersede_command(old: str, new: str, reason: str, at: str | None, run: str | None,
                          check: bool, diff: bool, config_file: Path | None) -> None:
        """Mark belief OLD as superseded by NEW in OLD's sidecar."""
        session = open_session(load, config_file)
        _supersede(session, old, new, reason, at, run, check, diff)

    @beliefs_group.command("export")
    @click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json",
                  show_default=True)
    @click.option("--network", "-n", help="Only beliefs of this network.")
    @_config_option
    def export_command(fmt: str, network: str | None, config_file: Path | None) -> None:
        """Every belief, as JSON (the beliefs.json records) or CSV (the index's columns)."""
        session = open_session(load, config_file)
        if fmt == "csv":
            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow([*BELIEF_COLUMNS, "page_url"])
            for row in session.store.iter_beliefs(network):
                writer.writerow([row[c] for c in (*BELIEF_COLUMNS, "page_url")])
            echo(out.getvalue(), nl=False)
            return
        records = [belief_record(vb, session.beliefs) for vb in session.beliefs.beliefs.values()
                   if network is None or vb.network == network]
        echo(json.dumps({"version": 1, "beliefs": records}, indent=2, ensure_ascii=False))

    @beliefs_group.command("verify")
    @_config_option
    def verify_command(config_file: Path | None) -> None:
        """Re-check every quote against the live raw files; exit 1 on drift."""
        session = open_session(load, config_file)
        for found in session.beliefs.diagnostics:
            if found.code in ("quote-drift", "path-escape"):
                echo(str(found))
        checks = [p.check for p in session.beliefs.provenance.values()]
        drifted = sum(not c.verified for c in checks)
        echo(f"{_count(len(checks), 'quote anchor')} checked: "
                   f"{len(checks) - drifted} verified, {drifted} drifted")
        if drifted:
            raise SystemExit(1)

    return [why_command, beliefs_group, _reindex(load)]


def register(group: click.Group, load: Loader) -> None:
    """Add ``why``, ``beliefs`` and ``reindex`` to the ``beliefbase`` command group."""
    for command in make_commands(load):
        group.add_command(command)


def _reindex(load: Loader) -> click.Command:
    @click.command("reindex")
    @click.option("--rebuild-beliefs", "rebuild", is_flag=True,
                  help="Rebuild beliefs.sqlite from the sidecars.")
    @_config_option
    def reindex_command(rebuild: bool, config_file: Path | None) -> None:
        """Rebuild derived indexes from the files on disk."""
        if not rebuild:
            echo("nothing to rebuild; pass --rebuild-beliefs")
            return
        project = load(config_path(config_file))
        beliefs = rebuild_beliefs(project)
        for found in beliefs.diagnostics:
            if found.level is not diag.Level.INFO:
                echo(str(found), err=True)
        current = sum(vb.is_current for vb in beliefs.beliefs.values())
        where = display_path(project.store_path, project.root)
        echo(f"rebuilt {where}: {_count(len(beliefs.beliefs), 'belief')} ({current} "
                   f"current), {_count(len(beliefs.provenance), 'provenance entry')}")

    return reindex_command


def _count(n: int, noun: str) -> str:
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    return f"{n} {noun if n == 1 else plural}"


def _supersede(session: Session, old: str, new: str, reason: str, at: str | None,
               run: str | None, check: bool, diff: bool) -> None:
    beliefs = session.beliefs
    if old not in beliefs.beliefs:
        raise _unknown(session, old)
    if new not in beliefs.beliefs:
        raise _unknown(session, new)
    if old == new:
        raise click.ClickException("a belief cannot supersede itself")
    when = dates.normalize(at) if at else beliefs.beliefs[new].belief.asserted_at
    asserted = beliefs.beliefs[old].belief.asserted_at
    if not dates.not_before(when, asserted):
        raise click.ClickException(f"{old} was asserted at {asserted}, after {when}; "
                                   "pass --at with a later date")
    values: dict[str, Any] = {"superseded_at": when, "superseded_by_belief_id": new,
                              "supersession_reason": reason}
    if run is not None:
        values["superseded_in_run"] = run
    sidecar = beliefs.sidecar_of(old)
    assert sidecar is not None  # every verified belief comes from a loaded sidecar
    result = edit_file(sidecar.path, supersede_transform(old, values), check=check, diff=diff,
                       root=session.project.docs_dir, expect_sha256=sidecar.digest,
                       label=sidecar.display)
    if result.refused:
        raise click.ClickException(
            printable(f"{sidecar.display}: {result.refused}; nothing written"))
    if diff:
        echo(result.diff, nl=False)
    if not result.changed:
        echo(f"{sidecar.display}: {old} is already superseded by {new}; nothing to change")
    elif check or diff:
        if check:
            echo(f"{sidecar.display}: would supersede {old} by {new}")
            raise SystemExit(1)
    else:
        session.store.sync(verify_context(session.project))
        echo(f"{sidecar.display}: {old} superseded by {new} at {when} ({reason})")
