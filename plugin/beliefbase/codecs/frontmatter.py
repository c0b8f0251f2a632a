"""Frontmatter: split it off a note and parse it (YAML, TOML, TOML-in-dashes).

Three conventions are accepted (SPEC §3):

* YAML between ``---`` lines (MkDocs / Obsidian), closed by ``---`` or ``...``;
* TOML between ``+++`` lines (Hugo);
* TOML between ``---`` lines, recognised when the block is not a YAML mapping
  but parses as TOML.

A fence opened on the first line and never closed is no frontmatter (Obsidian
shows its ``---`` as a horizontal rule and everything after it as text, and so
do we); when the lines after it read as frontmatter (``title: x`` for ``---``,
``title = "x"`` for ``+++``) it is a ``bad-frontmatter`` warning at line 1,
``unclosed``.  A rule followed by a blank line or by prose is left alone.

A block that parses as neither is *not* dropped (MkDocs' ``utils/meta.py``
silently keeps such text in the page): it becomes a ``bad-frontmatter`` error
with the line and column of the parser's complaint, and the caller shows the
block as code.
"""

from __future__ import annotations

import datetime as _dt
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

try:  # libyaml is much faster; every PyPI wheel ships it, source builds may not.
    _YamlLoader: type[yaml.SafeLoader] = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _YamlLoader = yaml.SafeLoader

Format = Literal["yaml", "toml", "toml-dashes"]

# An opening fence on the first line (after an optional BOM), the block, and the
# matching closing fence on a line of its own.
_FENCED = re.compile(
    r"""
    \A(?P<fence>---|\+\+\+)[ \t]*\r?\n        # opening fence: YAML/TOML-in-dashes or TOML
    (?P<raw>(?:.*?\r?\n)??)                   # the block, possibly empty (lazy: first close)
    (?P<close>---|\+\+\+|\.\.\.)[ \t]*(?:\r?\n|\Z)  # closing fence
    """,
    re.DOTALL | re.VERBOSE,
)
_MAX_VALUES = 100_000
_TOML_POSITION = re.compile(r"at line (\d+), column (\d+)")


@dataclass(frozen=True, slots=True)
class FrontmatterError:
    """Where and why a frontmatter block failed to parse (1-based, file coordinates)."""

    line: int
    column: int
    message: str


@dataclass(frozen=True, slots=True)
class Frontmatter:
    """The result of splitting a note: its metadata and where its body starts."""

    format: Format | None
    data: dict[str, Any] = field(default_factory=dict)
    raw: str = ""
    body_offset: int = 0
    body_line: int = 1
    block_end: int = 0
    error: FrontmatterError | None = None
    #: a fence opened on the first line, never closed, before lines that read as
    #: frontmatter: the note is shown as text, this says why
    unclosed: FrontmatterError | None = None


def split(text: str) -> Frontmatter:
    """Split ``text`` (BOM already removed) into frontmatter and body position.

    Never raises: a block that does not parse is returned with ``error`` set,
    ``data`` empty and ``body_offset`` pointing *at the block*, so that the
    renderer can show it instead of losing it.
    """
    m = _FENCED.match(text)
    if not m:
        return Frontmatter(format=None, unclosed=unclosed(text))
    fence, close, raw = m.group("fence"), m.group("close"), m.group("raw")
    if (fence == "+++") != (close == "+++"):
        return Frontmatter(format=None)
    body_line = 1 + text.count("\n", 0, m.end())
    if m.end() == len(text) and not text.endswith("\n"):
        body_line = 1 + text.count("\n")
    if fence == "+++":
        data, err = _parse_toml(raw)
        fmt: Format = "toml"
    else:
        data, err, fmt = _parse_dashes(raw)
    if err is not None:
        return Frontmatter(format=fmt, raw=raw, block_end=m.end(), error=err)
    return Frontmatter(
        format=fmt, data=data, raw=raw, body_offset=m.end(), body_line=body_line,
        block_end=m.end(),
    )


_OPEN = re.compile(r"(---|\+\+\+)[ \t]*\r?\n")
#: the first lines after an unclosed fence, up to a blank line (at most this many)
_FIRST_LINES = 40
#: keys that make one ``key: value`` line after an unclosed ``---`` frontmatter, not prose
#: ("Note: ..."): Obsidian's properties and the ones this plugin and MkDocs read
_KNOWN_KEYS = frozenset((
    "title", "tags", "tag", "aliases", "alias", "cssclasses", "cssclass", "date", "created",
    "updated", "modified", "publish", "draft", "status", "description", "author", "authors",
    "id", "bid", "template", "icon", "schema", "source_refs", "subtitle", "hide", "search"))
_YAML_KEY = re.compile(r"[A-Za-z_][\w-]*:(?:[ \t]|$)")


def unclosed(text: str) -> FrontmatterError | None:
    """A fence on the first line never closed, before lines that read as frontmatter:
    YAML (``---``) a mapping of two keys or of a known one, TOML (``+++``) any table."""
    m = _OPEN.match(text)
    if not m or m.end() >= len(text):
        return None
    head: list[str] = []
    for line in text[m.end():].splitlines()[:_FIRST_LINES]:
        if not line.strip():
            break
        head.append(line)
    if not head:  # a blank line after the fence: a horizontal rule
        return None
    raw = "\n".join(head) + "\n"
    fence = m.group(1)
    if fence == "+++":
        data, err = _parse_toml(raw)
        looks = err is None and bool(data)
    else:
        keys = [line.split(":", 1)[0] for line in head if _YAML_KEY.match(line)]
        looks = bool(keys) and _YAML_KEY.match(head[0]) is not None and (
            len(keys) >= 2 or keys[0].lower() in _KNOWN_KEYS)
        if looks:
            data, err, _ = _parse_dashes(raw)
            looks = err is None and bool(data)
    if not looks:
        return None
    close = "+++" if fence == "+++" else "---"
    return FrontmatterError(1, 1, f"the frontmatter opened here with {fence} is never closed "
                                  f"(no {close} line after it), so the note has no fields and "
                                  "shows it as text: add the closing line")


def block_end(text: str) -> int:
    """Where the frontmatter block (parsed or not) ends; 0 without one.  Cheap: no parse."""
    m = _FENCED.match(text)
    if not m or (m.group("fence") == "+++") != (m.group("close") == "+++"):
        return 0
    return m.end()


def _parse_dashes(raw: str) -> tuple[dict[str, Any], FrontmatterError | None, Format]:
    try:
        loaded = yaml.load(raw, Loader=_YamlLoader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        toml_data, toml_err = _parse_toml(raw)
        if toml_err is None and toml_data:
            return toml_data, None, "toml-dashes"
        return {}, _yaml_error(exc), "yaml"
    except (RecursionError, ValueError, OverflowError) as exc:
        return {}, FrontmatterError(2, 1, f"YAML cannot be loaded: {exc}"), "yaml"
    if loaded is None:
        return {}, None, "yaml"
    if isinstance(loaded, dict):
        return _string_keys(loaded), None, "yaml"
    toml_data, toml_err = _parse_toml(raw)
    if toml_err is None:
        return toml_data, None, "toml-dashes"
    kind = type(loaded).__name__
    return {}, FrontmatterError(2, 1, f"frontmatter is a YAML {kind}, not a mapping of fields"), (
        "yaml"
    )


def _parse_toml(raw: str) -> tuple[dict[str, Any], FrontmatterError | None]:
    try:
        return tomllib.loads(raw), None
    except tomllib.TOMLDecodeError as exc:
        return {}, toml_error(exc, first_line=2)
    except RecursionError:
        return {}, FrontmatterError(2, 1, "TOML nested too deeply")


def toml_error(exc: tomllib.TOMLDecodeError, first_line: int) -> FrontmatterError:
    """A TOML error at file coordinates; ``first_line`` is the file line of TOML line 1."""
    msg = str(exc)
    pos = _TOML_POSITION.search(msg)
    line, col = (int(pos.group(1)), int(pos.group(2))) if pos else (1, 1)
    clean = _TOML_POSITION.sub("", msg).replace("()", "").strip()
    return FrontmatterError(line + first_line - 1, col, f"TOML: {clean}")


def _yaml_error(exc: yaml.YAMLError) -> FrontmatterError:
    # Point at where the construct began ("while parsing a flow sequence" started
    # at `[`), which is where the author must look, rather than where YAML gave up.
    mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    text = f"YAML: {problem}" + (f" ({context})" if context else "")
    if mark is None:
        return FrontmatterError(2, 1, text)
    # +2: one for 1-based lines, one for the opening fence line.
    return FrontmatterError(mark.line + 2, mark.column + 1, text)


def _string_keys(data: dict[Any, Any]) -> dict[str, Any]:
    """YAML allows ``1: x`` or ``null: y``; page.meta and JSON want string keys."""
    if all(isinstance(k, str) for k in data):
        return data
    return {str(k): v for k, v in data.items()}


def jsonable(value: Any, budget: list[int] | None = None, _depth: int = 0) -> Any:
    """A JSON-safe copy of a frontmatter value (dates as ISO strings).

    Bounded in depth and in total size: YAML aliases can make a few lines
    expand to billions of values ("billion laughs"), and a note must never
    hang the build.  Past the bounds, values are cut off (``None``).
    """
    if budget is None:
        budget = [_MAX_VALUES]
    budget[0] -= 1
    if _depth > 50 or budget[0] < 0:
        return None
    if isinstance(value, str | bool | int) or value is None:
        return value
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, _dt.date | _dt.datetime | _dt.time):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): jsonable(v, budget, _depth + 1) for k, v in value.items()
                if budget[0] >= 0}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v, budget, _depth + 1) for v in value if budget[0] >= 0]
    return str(value)


_KEY_LINE = re.compile(r"""^[\"']?(?P<key>[^\s:="'#\[][^:=\n"']*?)[\"']?[ \t]*[:=]""", re.MULTILINE)


def key_lines(raw: str, first_line: int) -> dict[str, int]:
    """Top-level key -> file line, for a block whose first line is ``first_line``."""
    lines: dict[str, int] = {}
    line, counted = first_line, 0  # newlines counted on from the last key, not from the top
    for m in _KEY_LINE.finditer(raw):
        line += raw.count("\n", counted, m.start())
        counted = m.start()
        lines.setdefault(m.group("key").strip(), line)
    return lines
