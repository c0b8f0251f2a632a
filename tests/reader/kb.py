"""A small knowledge base for the reader's tests (unit and browser).

Written with the ``project`` fixture of tests/conftest.py: ``write_kb(project)``.
It has wikilinks, a Markdown link to a note, aliases, headings, tags, a
draft, a hostile title and alias, and plain-text mentions that are not links.
"""

from __future__ import annotations

from typing import Any

HOSTILE = "<img src=x onerror=alert(1)>"

NOTES: dict[str, str] = {
    "index.md": """\
        ---
        title: Home
        ---
        # Home

        Welcome to the test knowledge base. Start with [[Alpha]] or read
        [the beta note](notes/beta.md).
        """,
    "notes/alpha.md": """\
        ---
        title: Alpha
        aliases: [First Letter]
        tags: [greek, physics]
        ---
        # Alpha

        Alpha is the first note of the test base; it links to [[Beta]] and [[Gamma]].

        ## Alpha method

        The method here is plain. Also see [[Hostile]].
        """,
    "notes/beta.md": """\
        ---
        title: Beta
        tags: [greek]
        ---
        # Beta

        Beta explains the measurement. It builds on the Gamma note without a link,
        and the first letter is where everything starts.

        ```
        Gamma inside code is not a mention.
        ```
        """,
    "notes/gamma.md": """\
        ---
        title: Gamma
        aliases: [Third Letter]
        ---
        # Gamma

        Gamma closes the loop back to [[Alpha]]. The `Beta` in code does not count.

        ## Beta again

        A heading that names Beta is not a mention either.
        """,
    "notes/hostile.md": f"""\
        ---
        title: "{HOSTILE}"
        aliases: ["<script>alert(2)</script>"]
        ---

        Hostile <b>bold</b> text & friends, linking [[Alpha]].
        """,
    "notes/secret.md": """\
        ---
        title: Secret draft
        draft: true
        ---
        # Secret draft

        Alpha and Beta are named here, but a draft is never published.
        """,
}


def write_kb(project: Any) -> None:
    """Write the notes into ``project`` (tests/conftest.py ``Project``)."""
    for path, text in NOTES.items():
        project.write(path, text)
