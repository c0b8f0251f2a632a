"""The fixture knowledge base of the belief-site tests (shared by conftest and the tests).

``belief_kb(project)`` writes it into the shared ``project`` fixture (see
tests/conftest.py): a page about Acme's auth with a superseded belief, a
contested pair, a hostile statement, callouts and footnotes; a second topic;
a draft page whose beliefs must leak nowhere; raw sources in ``raw/``.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date
from pathlib import Path
from typing import Any

BUILD_DATE = date(2026, 6, 1)
HOSTILE = "<script>alert('bb')</script> {{ 7*7 }} {% raw %} \"><img src=x onerror=alert(2)>"
SECRET = "TOPSECRET-RENAME-PLAN"

AUTH_MD = """\
---
title: Acme auth
---
# Acme auth

## Token refresh

The refresh endpoint is `/auth/v2/refresh`.[^2] It used to be `/oauth/refresh`.[^1]

::: disputed
Support says sessions last 15 minutes.[^4] The spec says 30.[^3]
:::

> [!note] Keep in mind
> Tokens are **short-lived**.

## Sessions

Sessions last 30 minutes.[^3] A hostile claim.[^5]

[^1]: API spec v1, page 12.
[^2]: RFC 0034, page 3.
[^3]: API spec v1, page 40.
[^4]: Support ticket 17.
[^5]: Somewhere.
"""

BILLING_MD = """\
# Billing

Prices are in EUR.[^1]

[^1]: Price list.
"""

SECRET_MD = f"""\
---
draft: true
---
# Secret

{SECRET} is coming.[^1]

[^1]: Board minutes.
"""

RAW = {
    "spec-v1.md": "Token refresh is served at /oauth/refresh.\n\nA session expires after\n"
                  "thirty minutes of inactivity.\n",
    "rfc-0034.md": "v2 moves the refresh endpoint to /auth/v2/refresh.\n",
    "ticket-17.md": "Support: sessions expire after 15 minutes.\n",
    "prices.md": "All prices are quoted in EUR.\n",
    "board.md": f"The board decided: {SECRET}.\n",
}


def prov(pid: str, raw_path: str, quote: str, **extra: Any) -> dict[str, Any]:
    digest = hashlib.sha256(quote.encode()).hexdigest()
    return {"id": pid, "raw_path": raw_path, "quote": quote, "quote_hash": digest, **extra}


def belief(bid: str, statement: str, topic: str, footnotes: list[str], provs: list[str],
           asserted: str, **extra: Any) -> dict[str, Any]:
    return {"belief_id": bid, "statement": statement, "topic": topic, "footnote_ids": footnotes,
            "provenance_ids": provs, "asserted_at": asserted, **extra}


def auth_sidecar() -> dict[str, Any]:
    return {
        "page": "topics/auth.md",
        "beliefs": [
            belief("b-auth-old", "The refresh endpoint is /oauth/refresh.", "auth", ["1"],
                   ["p-spec-12"], "2026-01-10", subject="Acme refresh endpoint",
                   predicate="is_at", object="/oauth/refresh", wiki_section_anchor="#token-refresh",
                   asserted_in_run="run-1", superseded_at="2026-05-20",
                   superseded_by_belief_id="b-auth-new", superseded_in_run="run-2",
                   supersession_reason="contradicted_by_new_source"),
            belief("b-auth-new", "The refresh endpoint is /auth/v2/refresh.", "auth", ["2"],
                   ["p-rfc-3"], "2026-05-20", subject="Acme refresh endpoint",
                   predicate="is_at", object="/auth/v2/refresh",
                   wiki_section_anchor="#token-refresh", asserted_in_run="run-2"),
            belief("b-session-30", "Sessions last thirty minutes.", "sessions", ["3"],
                   ["p-spec-40"], "2026-02-01T09:30:00Z", subject="Acme session lifetime",
                   predicate="is", object="30 minutes", wiki_section_anchor="#sessions"),
            belief("b-session-15", "Sessions last fifteen minutes.", "sessions", ["4"],
                   ["p-ticket"], "2026-03-01", subject="Acme session lifetime",
                   predicate="is", object="15 minutes", wiki_section_anchor="#sessions"),
            belief("b-<hostile>", HOSTILE, "<b>hostile</b>", ["5"], ["p-prices"], "2026-04-01",
                   subject=HOSTILE, predicate="is", object=HOSTILE),
        ],
        "provenance": [
            prov("p-spec-12", "spec-v1.md", "Token refresh is served at /oauth/refresh.",
                 page_hint=12),
            prov("p-spec-40", "spec-v1.md", "A session expires after thirty minutes of inactivity.",
                 page_hint=40),
            prov("p-rfc-3", "rfc-0034.md", "v2 moves the refresh endpoint to /auth/v2/refresh.",
                 page_hint=3),
            prov("p-ticket", "ticket-17.md", "sessions expire after 15 minutes."),
        ],
    }


def billing_sidecar() -> dict[str, Any]:
    return {
        "beliefs": [belief("b-billing-eur", "Prices are in EUR.", "billing", ["1"],
                           ["p-prices"], "2026-01-02")],
        "provenance": [prov("p-prices", "prices.md", "All prices are quoted in EUR.")],
    }


def secret_sidecar() -> dict[str, Any]:
    return {
        "beliefs": [belief("b-secret-001", f"{SECRET} will happen.", "secret-plans", ["1"],
                           ["p-board"], "2026-05-25")],
        "provenance": [prov("p-board", "board.md", f"The board decided: {SECRET}.")],
    }


def write_json(project: Any, path: str, data: dict[str, Any]) -> Path:
    return project.write(path, json.dumps(data, indent=2) + "\n", dedent=False)


def write_raw(project: Any, files: dict[str, str] = RAW) -> None:
    raw = Path(project.root) / "raw"
    raw.mkdir(exist_ok=True)
    for name, text in files.items():
        (raw / name).write_text(text, encoding="utf-8")


def belief_kb(project: Any) -> Any:
    """Write the fixture knowledge base into ``project``; returns it."""
    project.write("index.md", "# Home\n\nSee [[Acme auth]] and [[Billing]].\n")
    project.write("topics/auth.md", AUTH_MD, dedent=False)
    write_json(project, "topics/auth.beliefs.json", auth_sidecar())
    project.write("topics/billing.md", BILLING_MD, dedent=False)
    write_json(project, "topics/billing.beliefs.json", billing_sidecar())
    project.write("drafts/secret.md", SECRET_MD, dedent=False)
    write_json(project, "drafts/secret.beliefs.json", secret_sidecar())
    write_raw(project)
    return project
