"""Property: after any renames, moves and retitles, ``beliefbase sync`` makes every
link resolve to the note (BID) it resolved to before, changing no other byte.

Hypothesis writes a small vault of notes with a ``bid:`` in their frontmatter
and links of every form between them (file name, display text, heading,
embed, title, path, Markdown link URL-quoted and in angle brackets), with LF or
CRLF, a BOM or not, a final newline or not.  A compile records what each link
means; then notes are renamed, moved to other folders, retitled and edited,
a ``mkdocs build`` may run in between, and ``sync`` runs.
"""

from __future__ import annotations

import posixpath
import re
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

import yaml
from beliefbase.cli import main
from beliefbase.project import compile_project as compile_from_config
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

STEMS = ["alpha", "beta two", "gamma", "delta"]  # base names before the renames
NEW_STEMS = ["renamed one", "50% off", "eta (x)", "théta"]  # ... after (no name is reused)
FOLDERS = ["", "a", "a/b", "c d"]
FORMS = ["stem", "display", "heading", "embed", "title", "path", "md", "md-angle"]
BID = "0190f0a0-0000-7000-8000-{:012x}"
# Where a link's target is written: [[target...]] or ](href...).
_WIKI_TARGET = r"([^\[\]|#\r\n]+)"
_HREF_TARGET = r"([^()<>#\s]+)"
_ANGLE_TARGET = r"([^<>#\r\n]+)"


class Note:
    def __init__(self, i: int, folder: str) -> None:
        self.i, self.folder, self.stem, self.title = i, folder, STEMS[i], f"Title {i}"

    @property
    def path(self) -> str:
        return posixpath.join(self.folder, self.stem + ".md")


def link(form: str, source: Note, target: Note) -> tuple[str, str]:
    """(the link's text, its pattern with the target replaceable)."""
    relative = posixpath.relpath(target.path, source.folder or ".")
    texts = {
        "stem": (f"[[{target.stem}]]", f"[[{_WIKI_TARGET}]]"),
        "display": (f"[[{target.stem}|see it]]", f"[[{_WIKI_TARGET}|see it]]"),
        "heading": (f"[[{target.stem}#Part]]", f"[[{_WIKI_TARGET}#Part]]"),
        "embed": (f"![[{target.stem}#Part]]", f"![[{_WIKI_TARGET}#Part]]"),
        "title": (f"[[{target.title}]]", f"[[{_WIKI_TARGET}]]"),
        "path": (f"[[{target.path[:-3]}]]", f"[[{_WIKI_TARGET}]]"),
        "md": (f"[t]({quote(relative)}#part)", f"[t]({_HREF_TARGET}#part)"),
        "md-angle": (f"[t](<{relative}>)", f"[t](<{_ANGLE_TARGET}>)"),
    }
    text, pattern = texts[form]
    return text, re.escape(pattern).replace(re.escape(_WIKI_TARGET), _WIKI_TARGET).replace(
        re.escape(_HREF_TARGET), _HREF_TARGET).replace(re.escape(_ANGLE_TARGET), _ANGLE_TARGET)


def note_text(note: Note, links: list[str], nl: str, bom: bool, final: bool, extra: str) -> str:
    lines = ["---", f"bid: {BID.format(note.i)}", f"title: {note.title}", "---",
             f"# {note.title}", "", *(f"- {text} and more" for text in links), "",
             "## Part", "", "Text." + extra]
    return ("\ufeff" if bom else "") + nl.join(lines) + (nl if final else "")


VAULT = st.integers(2, 4).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from(FOLDERS), min_size=n, max_size=n),
    st.lists(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from(FORMS)), max_size=6),
             min_size=n, max_size=n),
    st.lists(st.tuples(st.sampled_from(["\n", "\r\n"]), st.booleans(), st.booleans()),
             min_size=n, max_size=n),
    # per note: renamed?, moved to?, retitled?, edited?
    st.lists(st.tuples(st.booleans(), st.none() | st.sampled_from(FOLDERS), st.booleans(),
                       st.booleans()), min_size=n, max_size=n),
    st.booleans(),  # a build between the renames and the sync
))


def targets(config: Path, record: bool) -> dict[str, list[tuple[str, str | None]]]:
    """Per note BID: its links in order, each with the BID it resolves to (``record``:
    a compile that writes the cache and the link record, as `check` or a build does)."""
    compiled = compile_from_config(config, use_cache=record)
    out = {}
    for path, doc in compiled.documents.items():
        resolved = {rl.link: rl for rl in compiled.links.get(path, [])}
        found = []
        for ref in doc.parsed.links:
            rl = resolved.get(ref)
            target = compiled.documents.get(rl.target) if rl and rl.target else None
            ok = target is not None and rl is not None and rl.status == "ok"
            found.append((ref.form, str(target.bid) if ok and target else None))
        out[str(doc.bid)] = found
    return out


@settings(max_examples=30, deadline=None)
@given(VAULT)
def test_sync_makes_every_link_resolve_to_the_same_bid(vault: Any) -> None:
    folders, link_lists, styles, renames, build_between = vault
    notes = [Note(i, folder) for i, folder in enumerate(folders)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config = root / "mkdocs.yml"
        config.write_text(yaml.safe_dump({
            "site_name": "P", "theme": {"name": "material", "font": False},
            "plugins": [{"beliefbase": {"cache_dir": str(root / "cache")}}]}))
        docs = root / "docs"
        patterns: dict[int, str] = {}
        for note, links, (nl, bom, final) in zip(notes, link_lists, styles, strict=True):
            made = [link(form, note, notes[j]) for j, form in links]
            text = note_text(note, [t for t, _ in made], nl, bom, final, "")
            patterns[note.i] = re.escape(note_text(note, ["\0"] * len(made), nl, bom, final, ""))
            for _, pattern in made:
                patterns[note.i] = patterns[note.i].replace(re.escape("\0"), pattern, 1)
            file = docs / note.path
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_bytes(text.encode())
        before = targets(config, record=True)  # compile: records what every link means
        assert all(t is not None for found in before.values() for _, t in found)

        for note, (rename, move, retitle, edit) in zip(notes, renames, strict=True):
            old = docs / note.path
            text = old.read_bytes().decode()
            old.unlink()
            note.stem = NEW_STEMS[note.i] if rename else note.stem
            note.folder = note.folder if move is None else move
            if retitle:
                text = text.replace(f"title: {note.title}", f"title: New {note.i}")
                patterns[note.i] = patterns[note.i].replace(
                    re.escape(f"title: {note.title}"), re.escape(f"title: New {note.i}"))
            if edit:
                text = text.replace("Text.", "Text. Edited.")
                patterns[note.i] = patterns[note.i].replace(
                    re.escape("Text."), re.escape("Text. Edited."))
            (docs / note.path).parent.mkdir(parents=True, exist_ok=True)
            (docs / note.path).write_bytes(text.encode())
        if build_between:
            compile_from_config(config, use_cache=True)

        result = CliRunner().invoke(main, ["sync", "-f", str(config)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert targets(config, record=False) == before
        for note in notes:
            text = (docs / note.path).read_bytes().decode()
            assert re.fullmatch(patterns[note.i], text, re.DOTALL), (note.path, text)
        again = CliRunner().invoke(main, ["sync", "--check", "-f", str(config)])
        assert again.exit_code == 0, again.output  # idempotent
