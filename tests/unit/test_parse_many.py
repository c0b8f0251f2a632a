"""Parsing in several processes gives what parsing in this one gives, in order."""

from __future__ import annotations

from beliefbase.builder.parse import POOL_THRESHOLD, parse_many
from beliefbase.ids import SrcPath


def _jobs(count: int) -> list[tuple[SrcPath, str, bytes, str]]:
    jobs = []
    for i in range(count):
        path = SrcPath(f"f{i % 7}/note{i}.md")
        text = (f"---\ntitle: Note {i}\n---\n# Heading {i}\n\nSee [[Note {i + 1}]]. "
                f"And [x](other{i}.md#part) #tag{i % 5}\n" + "filler words. " * (i % 40))
        jobs.append((path, "markdown", text.encode(), f"docs/{path}"))
    jobs.append((SrcPath("node.toml"), "toml", b'title = "Node"\n', "docs/node.toml"))
    return jobs


def test_parallel_parse_is_the_serial_parse_in_order() -> None:
    jobs = _jobs(POOL_THRESHOLD + 37)
    serial = parse_many(jobs, workers=1)
    assert [doc.path for doc in serial] == [job[0] for job in jobs]
    for workers in (2, 3):
        assert parse_many(jobs, workers=workers) == serial
