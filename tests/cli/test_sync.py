"""``beliefbase sync``: BIDs and source hashes written under the write-back rules."""

from __future__ import annotations

import hashlib

from beliefbase.codecs import frontmatter as fm
from beliefbase.sync import add_bid, record_source_refs
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.test_check import run
from tests.conftest import diagnostic_lines


def test_sync_writes_provisional_bids_idempotently(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "---\r\ntitle: A\r\n---\r\nBody [[b]]\r\n")
    project.write("b.md", "No frontmatter.\n")
    project.write("c.md", "---\nbid: 0190f0a0-0000-7000-8000-00000000abcd\n---\n")
    before = {p: d.bid for p, d in project.compile().documents.items()}
    assert run(project, "sync", "--check").exit_code == 1
    assert (project.docs / "a.md").read_bytes() == b"---\r\ntitle: A\r\n---\r\nBody [[b]]\r\n"
    result = run(project, "sync")
    assert result.exit_code == 0
    assert sorted(result.stdout.splitlines()) == ["docs/a.md: recorded bid",
                                                 "docs/b.md: recorded bid"]
    a = (project.docs / "a.md").read_bytes()
    assert a == f"---\r\nbid: {before['a.md']}\r\ntitle: A\r\n---\r\nBody [[b]]\r\n".encode()
    after = {p: d.bid for p, d in project.compile().documents.items()}
    assert after == before  # ids do not move when written down
    assert run(project, "sync", "--check").exit_code == 0  # idempotent
    assert run(project, "sync").stdout == ""


def test_sync_diff_writes_nothing(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "# A\n")
    result = run(project, "sync", "--diff")
    assert result.exit_code == 1  # would change
    assert result.stdout.startswith("--- a/docs/a.md\n+++ b/docs/a.md\n")
    assert "+bid: " in result.stdout
    assert (project.docs / "a.md").read_text() == "# A\n"
    run(project, "sync")
    assert run(project, "sync", "--diff").exit_code == 0  # nothing would change


def test_source_refs_drift_and_sync(project) -> None:  # type: ignore[no-untyped-def]
    (project.root / "src").mkdir()
    source = project.root / "src" / "engine.py"
    source.write_text("print('v1')\n")
    project.write("design.md", "---\ntitle: Design\nsource_refs:\n  - src/engine.py\n---\nText\n")
    assert run(project, "sync", "--source-refs").exit_code == 0
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    text = (project.docs / "design.md").read_text()
    assert f'  - path: "src/engine.py"\n    sha256: {digest}\n' in text
    assert project.build(strict=True).error is None  # recorded: no drift
    source.write_text("print('v2')\n")
    result = project.build()
    assert "This page may be stale" in result.article("design/")
    assert [line.split(": ")[1] for line in diagnostic_lines(result)] == ["source-ref-drift"]
    assert run(project, "sync", "--source-refs").exit_code == 0
    assert "This page may be stale" not in project.build().article("design/")


def test_source_refs_outside_project_refused(project) -> None:  # type: ignore[no-untyped-def]
    project.write("a.md", "---\nsource_refs: [../../etc/passwd, /etc/hosts, missing.py]\n---\n")
    result = project.build()
    codes = sorted(line.split(": ")[1] for line in diagnostic_lines(result))
    assert codes == ["path-escape", "path-escape", "source-ref-drift"]


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True).filter(
    lambda k: k not in ("bid", "source_refs")), st.text(
        st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=12),
    max_size=5), st.sampled_from(["\n", "\r\n"]), st.text(max_size=40))
def test_add_bid_preserves_everything_else(data, nl, body) -> None:  # type: ignore[no-untyped-def]
    import yaml

    block = yaml.safe_dump(data, allow_unicode=True) if data else ""
    text = ("---\n" + block + "---\n").replace("\n", nl) + body
    new = add_bid(text, "0190f0a0-0000-7000-8000-00000000abcd")
    assert add_bid(new, "other") == new  # idempotent
    front = fm.split(new)
    assert front.data == {**data, "bid": "0190f0a0-0000-7000-8000-00000000abcd"}
    assert new.endswith(body)
    removed = new.replace("bid: 0190f0a0-0000-7000-8000-00000000abcd" + nl, "", 1)
    assert removed == text  # the only bytes that changed are the inserted line


@settings(max_examples=100, deadline=None)
@given(st.lists(st.from_regex(r"[a-z]{1,8}(/[a-z]{1,8}){0,2}\.py", fullmatch=True),
                min_size=1, max_size=4, unique=True), st.sampled_from(["\n", "\r\n"]))
def test_record_source_refs_roundtrip(paths, nl) -> None:  # type: ignore[no-untyped-def]
    import yaml

    text = ("---\ntitle: T\n" + yaml.safe_dump({"source_refs": paths}) + "other: 1\n---\nB\n"
            ).replace("\n", nl)
    hashes = {p: hashlib.sha256(p.encode()).hexdigest() for p in paths}
    new = record_source_refs(text, hashes)
    assert fm.split(new).data == {"title": "T", "other": 1,
                                  "source_refs": [{"path": p, "sha256": hashes[p]} for p in paths]}
    assert record_source_refs(new, hashes) == new
    assert new.startswith("---" + nl + "title: T" + nl) and new.endswith("---" + nl + "B" + nl)
