"""Property: after notes are renamed and moved, ``beliefbase sync`` makes every link of
a canvas (file nodes, and the links in text nodes' Markdown) resolve to the note
(BID) it resolved to before, and changes no byte of the JSON but those targets.

Hypothesis writes a small vault and a ``.canvas`` laid out as Obsidian writes it
(tabs, one node per line) or as other tools do (``json.dumps`` with or without an
indent), keys in any order, unknown keys, ASCII-only (``\\u`` escapes) or not,
``/`` written as ``\\/`` or not, LF or CRLF; then renames and moves the notes, may
build in between, and syncs (canvas_relink.py).
"""

from __future__ import annotations

import json
import posixpath
import re
import tempfile
from pathlib import Path
from typing import Any

import yaml
from beliefbase.cli import main
from beliefbase.project import compile_project as compile_from_config
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.property.test_sync_renames import FOLDERS, NEW_STEMS, Note, link, note_text, targets

TEXT_FORMS = ["stem", "display", "heading", "embed", "title", "path", "md", "md-angle"]
INTRO = 'Intro \u00e8 "quoted" a/b'  # escapes that must stay as written
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


class Board:
    """Where the canvas lies (``link`` reads its folder)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder


NODES = st.lists(st.one_of(
    st.tuples(st.just("file"), st.integers(0, 3), st.booleans()),
    st.tuples(st.just("text"), st.lists(st.tuples(st.integers(0, 3),
                                                  st.sampled_from(TEXT_FORMS)), max_size=4)),
    st.tuples(st.just("link"), st.integers(0, 3)),
), min_size=1, max_size=5)

VAULT = st.integers(2, 4).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from(FOLDERS), min_size=n, max_size=n),
    NODES.map(lambda nodes, n=n: _within(nodes, n)),
    st.sampled_from(["", "boards"]),  # the canvas's folder
    st.sampled_from(["obsidian", "none", "2", "tab"]),
    st.booleans(), st.booleans(), st.booleans(),  # ASCII only, "\/", CRLF
    st.randoms(use_true_random=False),  # key order
    st.lists(st.tuples(st.booleans(), st.none() | st.sampled_from(FOLDERS)),
             min_size=n, max_size=n),  # per note: renamed?, moved to?
    st.booleans(),  # a build between the renames and the sync
))


def _within(nodes: list[Any], n: int) -> list[Any]:
    """Note numbers below ``n``."""
    out = []
    for node in nodes:
        if node[0] == "text":
            out.append(("text", [(i % n, form) for i, form in node[1]]))
        else:
            out.append((node[0], node[1] % n, *node[2:]))
    return out


def board_data(nodes: list[Any], notes: list[Note], board: Board, order: Any
               ) -> tuple[dict[str, Any], list[str]]:
    """The canvas's data, and per text node the pattern its text matches after a sync."""
    out: list[dict[str, Any]] = []
    patterns = []
    for k, node in enumerate(nodes):
        item: dict[str, Any] = {"id": f"n{k}", "x": 0, "y": 300 * k, "width": 250,
                                "height": 200}
        if node[0] == "file":
            item.update(type="file", file=notes[node[1]].path)
            if node[2]:
                item["subpath"] = "#Part"
        elif node[0] == "text":
            made = [link(form, board, notes[i]) for i, form in node[1]]  # type: ignore[arg-type]
            item.update(type="text", text=INTRO + "\n\n" + "\n".join(
                f"- {text} and more" for text, _ in made) + "\nEnd/", color="3")
            pattern = re.escape(INTRO + "\n\n" + "\n".join(
                "- \0 and more" for _ in made) + "\nEnd/")
            for _, one in made:
                pattern = pattern.replace(re.escape("\0"), one, 1)
            patterns.append(pattern)
        else:
            item.update(type="link", url=f"https://example.org/{notes[node[1]].stem}")
        item["styleAttributes"] = {"border": "dashed", "path": "a/b"}
        keys = list(item)
        order.shuffle(keys)
        out.append({key: item[key] for key in keys})
    edges = [{"id": "e1", "fromNode": "n0", "toNode": f"n{len(nodes) - 1}", "label": "a/b"}]
    return {"nodes": out, "edges": edges, "zz": {"unknown": [1, 2.5, None, True]}}, patterns


def write_canvas(data: dict[str, Any], style: str, ascii_only: bool, slash: bool,
                 crlf: bool) -> str:
    if style == "obsidian":  # Obsidian's own: a tab per level, one node per line
        def one(v: Any) -> str:
            return json.dumps(v, ensure_ascii=ascii_only, separators=(",", ":"))
        text = "{\n\t\"nodes\":[\n" + ",\n".join(f"\t\t{one(n)}" for n in data["nodes"]) + (
            "\n\t],\n\t\"edges\":[\n") + ",\n".join(f"\t\t{one(e)}" for e in data["edges"]) + (
            f"\n\t],\n\t\"zz\":{one(data['zz'])}\n}}")
    else:
        indent = {"none": None, "2": 2, "tab": "\t"}[style]
        text = json.dumps(data, ensure_ascii=ascii_only, indent=indent)
    if slash:  # "/" is only ever inside strings here
        text = text.replace("/", "\\/")
    if crlf:  # a raw newline is only ever whitespace between tokens
        text = text.replace("\n", "\r\n")
    return text


def tokens(text: str) -> tuple[list[str], list[str], list[str]]:
    """(the text between JSON strings, the strings that are no file/text values, those
    that are), in order."""
    between, kept, values = [], [], []
    at = 0
    previous = ""
    for m in _STRING.finditer(text):
        gap = text[at:m.start()]
        between.append(gap)
        if gap.strip() == ":" and previous in ('"file"', '"text"'):
            values.append(m.group())
        else:
            kept.append(m.group())
        previous = m.group()
        at = m.end()
    between.append(text[at:])
    return between, kept, values


@settings(max_examples=30, deadline=None)
@given(VAULT)
def test_sync_keeps_a_canvas_meaning_and_bytes(vault: Any) -> None:
    (folders, nodes, board_folder, style, ascii_only, slash, crlf, order, renames,
     build_between) = vault
    notes = [Note(i, folder) for i, folder in enumerate(folders)]
    board = Board(board_folder)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config = root / "mkdocs.yml"
        config.write_text(yaml.safe_dump({
            "site_name": "P", "theme": {"name": "material", "font": False},
            "plugins": [{"beliefbase": {"cache_dir": str(root / "cache")}}]}))
        docs = root / "docs"
        for note in notes:
            file = docs / note.path
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_bytes(note_text(note, [], "\n", False, True, "").encode())
        data, patterns = board_data(nodes, notes, board, order)
        canvas = docs / posixpath.join(board_folder, "Board.canvas")
        canvas.parent.mkdir(parents=True, exist_ok=True)
        old = write_canvas(data, style, ascii_only, slash, crlf)
        canvas.write_bytes(old.encode())
        before = targets(config, record=True)
        assert all(t is not None for found in before.values() for _, t in found)

        for note, (rename, move) in zip(notes, renames, strict=True):
            text = (docs / note.path).read_bytes()
            (docs / note.path).unlink()
            note.stem = NEW_STEMS[note.i] if rename else note.stem
            note.folder = note.folder if move is None else move
            (docs / note.path).parent.mkdir(parents=True, exist_ok=True)
            (docs / note.path).write_bytes(text)
        if build_between:
            compile_from_config(config, use_cache=True)

        result = CliRunner().invoke(main, ["sync", "-f", str(config)], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        assert targets(config, record=False) == before
        new = canvas.read_bytes().decode()
        # every byte outside the file and text values as it was
        old_between, old_kept, old_values = tokens(old)
        new_between, new_kept, new_values = tokens(new)
        assert (new_between, new_kept) == (old_between, old_kept)
        assert len(new_values) == len(old_values)
        assert new.isascii() or not ascii_only
        # in a text value, the text around the links as written (its escapes too)
        intro = json.dumps(INTRO, ensure_ascii=ascii_only)[1:-1]
        intro = intro.replace("/", "\\/") if slash else intro
        assert new.count(intro) == old.count(intro) == len(patterns)
        texts = [n["text"] for n in json.loads(new)["nodes"] if n["type"] == "text"]
        for text, pattern in zip(texts, patterns, strict=True):
            assert re.fullmatch(pattern, text, re.DOTALL), (pattern, text)
        again = CliRunner().invoke(main, ["sync", "--check", "-f", str(config)])
        assert again.exit_code == 0, again.output  # idempotent
