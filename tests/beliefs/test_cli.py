"""The belief commands, driven through click's CliRunner; outputs asserted exactly."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from beliefbase.beliefs import cli as belief_cli
from beliefbase.beliefs.cli import register
from beliefbase.beliefs.facts import ProjectContext
from beliefbase.writeback import edit_file
from click.testing import CliRunner, Result

OLD, NEW = "b-2026-01-10-acme-auth-001", "b-2026-04-15-acme-auth-001"


@pytest.fixture
def invoke(acme_dir: Path, loader: Callable[[Path], ProjectContext]) -> Callable[..., Result]:
    """Run ``beliefbase -f acme/mkdocs.yml ARGS`` against a fresh copy of the fixture."""

    @click.group()
    @click.option("-f", "--config-file", default="mkdocs.yml")
    @click.pass_context
    def group(ctx: click.Context, config_file: str) -> None:
        ctx.obj = {"config_file": config_file}

    register(group, loader)
    config = str(acme_dir / "mkdocs.yml")
    return lambda *args: CliRunner().invoke(group, ["-f", config, *args])


WHY_TEXT = """\
why 'Acme OAuth refresh endpoint'  (match: subject)
├─ current beliefs (1)
│  └─ b-2026-04-15-acme-auth-001  [current · single_source]
│     │  "Acme's OAuth refresh endpoint is /auth/v2/refresh as of 2026-03-15."
│     │  asserted 2026-04-15 in run-2026-04-15-abc · topic auth
│     │  triple: Acme OAuth refresh endpoint is_at /auth/v2/refresh
│     │  page: topics/auth/#token-refresh
│     └─ source prov-acme-rfc-0034-3: papers/acme-rfc-0034.md (page 3)  verified 2026-06-01
│           "v2 moves the refresh endpoint to /auth/v2/refresh."
├─ history (1)
│  └─ b-2026-01-10-acme-auth-001  [superseded 2026-04-15 by b-2026-04-15-acme-auth-001 \
(contradicted_by_new_source)]
│     │  "Acme's OAuth refresh endpoint is /oauth/refresh."
│     │  asserted 2026-01-10 in run-2026-01-10-pqr · topic auth
│     │  triple: Acme OAuth refresh endpoint is_at /oauth/refresh
│     │  page: topics/auth/#token-refresh
│     └─ source prov-acme-api-v1-12: papers/acme-api-spec-v1.md (page 12)  verified 2026-06-01
│           "Token refresh is served at the path /oauth/refresh."
├─ contradicting beliefs (0)
└─ supersession chain: b-2026-01-10-acme-auth-001 -> b-2026-04-15-acme-auth-001
"""


def test_why_text(invoke: Callable[..., Result]) -> None:
    result = invoke("why", "Acme OAuth refresh endpoint")
    assert (result.exit_code, result.output) == (0, WHY_TEXT)


def test_why_json_and_options(invoke: Callable[..., Result]) -> None:
    result = invoke("why", "--json", "--as-of", "2026-04-14", "--no-history",
                    "Acme OAuth refresh endpoint")
    answer = json.loads(result.output)
    assert [b["belief_id"] for b in answer["current_beliefs"]] == [OLD]
    assert answer["history"] == [] and answer["match_type"] == "subject"
    assert json.loads(invoke("why", "--json", "-n", "elsewhere", "auth").output)[
        "match_type"] == "none"


def test_why_no_match_and_bad_date(invoke: Callable[..., Result]) -> None:
    assert invoke("why", "quantum").output == (
        "why 'quantum': no belief matches; try a belief id, a subject (subject::predicate), "
        "a topic or words of a statement\n")
    bad = invoke("why", "--as-of", "yesterday", "auth")
    assert bad.exit_code == 2
    assert bad.output.endswith("Error: Invalid value for '--as-of': 'yesterday' is not an ISO "
                               "date (2026-04-15) or date-time (2026-04-15T14:23:00Z)\n")


def test_beliefs_list(invoke: Callable[..., Result]) -> None:
    assert invoke("beliefs", "list").output == """\
b-2026-01-10-acme-auth-001  superseded 2026-04-15  auth: Acme's OAuth refresh endpoint is \
/oauth/refresh.
b-2026-02-01-acme-auth-002  current                auth: An Acme session expires after thirty \
minutes of inactivity.
b-2026-04-15-acme-auth-001  current                auth: Acme's OAuth refresh endpoint is \
/auth/v2/refresh as of 2026-03-15.
b-billing-001               contested              billing: Acme issues invoices monthly.
b-billing-002               contested              billing: Acme sends invoices every week.
b-billing-003               current                billing: Acme prices are in EUR.
"""
    assert invoke("beliefs", "list", "--topic", "AUTH", "--current-only").output == """\
b-2026-02-01-acme-auth-002  current  auth: An Acme session expires after thirty minutes of \
inactivity.
b-2026-04-15-acme-auth-001  current  auth: Acme's OAuth refresh endpoint is /auth/v2/refresh \
as of 2026-03-15.
""".replace("current  ", "current" + " " * 16)
    assert invoke("beliefs", "list", "--topic", "nothing").output == "no beliefs match\n"


def test_beliefs_history(invoke: Callable[..., Result]) -> None:
    result = invoke("beliefs", "history", NEW)
    assert result.output == """\
history of b-2026-04-15-acme-auth-001 (2 beliefs, oldest first)
├─ b-2026-01-10-acme-auth-001  [superseded 2026-04-15 by b-2026-04-15-acme-auth-001 \
(contradicted_by_new_source)]
│  │  "Acme's OAuth refresh endpoint is /oauth/refresh."
│  │  asserted 2026-01-10 in run-2026-01-10-pqr · topic auth
│  │  triple: Acme OAuth refresh endpoint is_at /oauth/refresh
│  │  page: topics/auth/#token-refresh
│  └─ source prov-acme-api-v1-12: papers/acme-api-spec-v1.md (page 12)  verified 2026-06-01
│        "Token refresh is served at the path /oauth/refresh."
└─ b-2026-04-15-acme-auth-001  [current · single_source]
   │  "Acme's OAuth refresh endpoint is /auth/v2/refresh as of 2026-03-15."
   │  asserted 2026-04-15 in run-2026-04-15-abc · topic auth
   │  triple: Acme OAuth refresh endpoint is_at /auth/v2/refresh
   │  page: topics/auth/#token-refresh
   └─ source prov-acme-rfc-0034-3: papers/acme-rfc-0034.md (page 3)  verified 2026-06-01
         "v2 moves the refresh endpoint to /auth/v2/refresh."
"""
    unknown = invoke("beliefs", "history", "b-billing-01")
    assert (unknown.exit_code, unknown.output) == (
        1, "Error: unknown belief id 'b-billing-01' (did you mean 'b-billing-001', "
           "'b-billing-003' or 'b-billing-002'?)\n")


def test_beliefs_export(invoke: Callable[..., Result]) -> None:
    rows = list(csv.DictReader(io.StringIO(invoke("beliefs", "export", "--format", "csv")
                                           .output)))
    assert [r["belief_id"] for r in rows][:2] == [OLD, "b-2026-02-01-acme-auth-002"]
    assert rows[0]["superseded_by_belief_id"] == NEW and rows[0]["page_url"] == "topics/auth/"
    exported = json.loads(invoke("beliefs", "export").output)
    assert exported["version"] == 1 and len(exported["beliefs"]) == 6
    assert exported["beliefs"][0]["supersession_chain"] == [OLD, NEW]


def test_beliefs_verify_and_drift(invoke: Callable[..., Result], acme_dir: Path) -> None:
    ok = invoke("beliefs", "verify")
    assert (ok.exit_code, ok.output) == (0, "6 quote anchors checked: 6 verified, 0 drifted\n")
    (acme_dir / "raw/billing/faq.md").write_text("# FAQ\n\nInvoices are sent monthly.\n")
    drift = invoke("beliefs", "verify")
    assert (drift.exit_code, drift.output) == (1, """\
docs/topics/billing.beliefs.json:63:13: quote-drift: provenance 'prov-billing-faq': quote not \
found in raw/billing/faq.md; verified_against_source is false
6 quote anchors checked: 5 verified, 1 drifted
""")


def test_reindex(invoke: Callable[..., Result], acme_dir: Path) -> None:
    assert invoke("reindex").output == "nothing to rebuild; pass --rebuild-beliefs\n"
    (acme_dir / ".beliefbase").mkdir()
    (acme_dir / ".beliefbase/beliefs.sqlite").write_bytes(b"garbage")
    result = invoke("reindex", "--rebuild-beliefs")
    assert (result.exit_code, result.stdout) == (
        0, "rebuilt .beliefbase/beliefs.sqlite: 6 beliefs (5 current), 6 provenance entries\n")


# -- supersede: write-back rules -------------------------------------------------------

SIDECAR = "docs/topics/billing.beliefs.json"
ARGS = ("beliefs", "supersede", "b-billing-001", "b-billing-003", "--reason", "elaborated")
INSERTED = (b'"asserted_at": "2026-03-01",\r\n'
            b'            "superseded_at": "2026-03-20",\r\n'
            b'            "superseded_by_belief_id": "b-billing-003",\r\n'
            b'            "supersession_reason": "elaborated"\r\n')


@pytest.fixture
def bom_sidecar(acme_dir: Path) -> bytes:
    """Billing's sidecar (CRLF) given a BOM too; returns its original bytes."""
    path = acme_dir / SIDECAR
    data = b"\xef\xbb\xbf" + path.read_bytes()
    path.write_bytes(data)
    return data


def test_supersede_diff_and_check_write_nothing(invoke: Callable[..., Result], acme_dir: Path,
                                                bom_sidecar: bytes) -> None:
    diff = invoke(*ARGS, "--diff")
    assert (diff.exit_code, diff.output) == (0, """\
--- a/docs/topics/billing.beliefs.json
+++ b/docs/topics/billing.beliefs.json
@@ -14,7 +14,10 @@
             "provenance_ids": [
                 "prov-billing-handbook"
             ],
-            "asserted_at": "2026-03-01"
+            "asserted_at": "2026-03-01",
+            "superseded_at": "2026-03-20",
+            "superseded_by_belief_id": "b-billing-003",
+            "supersession_reason": "elaborated"
         },
         {
             "belief_id": "b-billing-002",
""")
    check = invoke(*ARGS, "--check")
    assert (check.exit_code, check.output) == (
        1, f"{SIDECAR}: would supersede b-billing-001 by b-billing-003\n")
    assert (acme_dir / SIDECAR).read_bytes() == bom_sidecar


def test_supersede_writes_only_the_new_bytes_and_is_idempotent(
    invoke: Callable[..., Result], acme_dir: Path, bom_sidecar: bytes
) -> None:
    done = invoke(*ARGS)
    assert (done.exit_code, done.output) == (
        0, f"{SIDECAR}: b-billing-001 superseded by b-billing-003 at 2026-03-20 (elaborated)\n")
    expected = bom_sidecar.replace(b'"asserted_at": "2026-03-01"\r\n', INSERTED, 1)
    assert (acme_dir / SIDECAR).read_bytes() == expected
    again = invoke(*ARGS)
    assert again.output == (f"{SIDECAR}: b-billing-001 is already superseded by b-billing-003; "
                            "nothing to change\n")
    assert invoke(*ARGS, "--check").exit_code == 0
    assert (acme_dir / SIDECAR).read_bytes() == expected
    answer = json.loads(invoke("why", "--json", "b-billing-001").output)  # index was synced
    assert answer["supersession_chain"] == ["b-billing-001", "b-billing-003"]


def test_supersede_refuses_a_sidecar_changed_since_read(
    invoke: Callable[..., Result], acme_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = acme_dir / SIDECAR

    def racing_edit(target: Path, *args: Any, **kwargs: Any) -> Any:
        path.write_bytes(path.read_bytes() + b"\r\n")  # someone saves the file meanwhile
        return edit_file(target, *args, **kwargs)

    monkeypatch.setattr(belief_cli, "edit_file", racing_edit)
    result = invoke(*ARGS)
    assert (result.exit_code, result.output) == (
        1, f"Error: {SIDECAR}: {path} changed since it was read; nothing written\n")


@pytest.mark.parametrize(("args", "message"), [
    (("b-nope", "b-billing-003"), "unknown belief id 'b-nope'"),
    (("b-billing-001", "b-billing-001"), "a belief cannot supersede itself"),
    (("b-billing-002", "b-billing-001"),
     "b-billing-002 was asserted at 2026-03-20, after 2026-03-01; pass --at with a later date"),
    ((OLD, "b-billing-003"),
     f"docs/topics/auth.beliefs.json: {OLD} is already superseded by {NEW}; edit the sidecar by "
     "hand to change that; nothing written"),
])
def test_supersede_refusals(invoke: Callable[..., Result], args: tuple[str, str],
                            message: str) -> None:
    result = invoke("beliefs", "supersede", *args, "--reason", "manual_correction")
    assert result.exit_code == 1 and result.output.startswith(f"Error: {message}"), result.output


def test_supersede_with_explicit_date_and_run(invoke: Callable[..., Result],
                                              acme_dir: Path) -> None:
    result = invoke(*ARGS, "--at", "2026-05-02T08:00:00+02:00", "--run", "commit abc")
    assert result.exit_code == 0, result.output
    belief = json.loads((acme_dir / SIDECAR).read_text(encoding="utf-8"))["beliefs"][0]
    assert (belief["superseded_at"], belief["superseded_in_run"]) == ("2026-05-02T06:00:00Z",
                                                                      "commit abc")


def test_command_level_config_option(acme_dir: Path,
                                     loader: Callable[[Path], ProjectContext]) -> None:
    group = click.Group("beliefbase")
    register(group, loader)
    result = CliRunner().invoke(group, ["beliefs", "verify", "-f", str(acme_dir / "mkdocs.yml")])
    assert result.exit_code == 0 and "6 verified" in result.output
