"""What the compiler needs to know about the project (no MkDocs objects)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from markdown.extensions.toc import slugify as toc_slugify

from ..ids import SrcPath

Slugify = Callable[[str, str], str]

#: Bump when anything cached (ParsedDoc and friends) changes shape or meaning.
# 6: a base's views are its headings (codecs/base.py), with their tabs' ids
# 5: every Dataview inline field recorded typed (ParsedDoc.inline_fields), read by
#    Dataview's rules (`- key:: v` list lines are no longer fields)
# 4: an unclosed frontmatter fence before fields is a bad-frontmatter (issue 32)
# 3: frontmatter frozen (FrozenDict, tuples)
# 2: %%comments%% removed, math masked and checked, blocks on their own line
COMPILER_VERSION = "6"


@cache
def _codec_fingerprint() -> str:
    """A hash of the codecs' source: a changed parser never reuses old parses."""
    digest = hashlib.sha256()
    folder = Path(__file__).resolve().parent.parent / "codecs"
    for file in sorted(folder.glob("*.py")):
        digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class CompileOptions:
    """Options of one compile.  ``project_dir`` is the folder of mkdocs.yml."""

    docs_dir: Path
    project_dir: Path
    use_directory_urls: bool = True
    slugify: Slugify = toc_slugify
    slug_separator: str = "-"
    heading_attr_ids: bool = True  # attr_list is on: `## H {#id}` sets the id
    embed_depth: int = 5
    site_name: str = ""
    raw_dir: Path | None = None
    tags_page: str = "tags/"  # URL root of the tag pages: graph.json's Tag nodes link there
    entities_page: str = "entities/"  # likewise for the entity pages and Entity nodes
    auto_entities: bool = True  # detect known entity names without tags (SPEC §7)
    jobs: int = 0  # parse in a process pool above a size threshold; 0 = auto
    docs_real: Path = field(init=False, repr=False, compare=False)
    #: docs_dir as diagnostics print it (relative to the project): ``docs/``
    display_prefix: str = field(init=False, repr=False, compare=False)
    _slugs: dict[str, str] = field(init=False, repr=False, compare=False, default_factory=dict)
    #: ``frozen.CACHES``: text -> slug, a function of the text and the options above
    __caches__ = ("_slugs",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "docs_real", Path(os.path.realpath(self.docs_dir)))
        object.__setattr__(self, "display_prefix", _relative_prefix(self.docs_dir,
                                                                    self.project_dir))

    def display(self, path: SrcPath | str) -> str:
        return self.display_prefix + path

    def slug(self, text: str) -> str:
        """The anchor ``toc`` gives a heading with this text (memoised: headings repeat)."""
        found = self._slugs.get(text)
        if found is None:
            found = self._slugs[text] = self.slugify(text, self.slug_separator)
        return found

    def parse_digest(self) -> str:
        """Everything a cached ParsedDoc depends on besides the file's bytes."""
        key = f"{COMPILER_VERSION}\0{_codec_fingerprint()}\0{self.display_prefix}"
        return hashlib.sha256(key.encode()).hexdigest()

def _relative_prefix(docs_dir: Path, project_dir: Path) -> str:
    try:
        rel = os.path.relpath(docs_dir, project_dir)
    except ValueError:  # another drive on Windows
        rel = str(docs_dir)
    rel = rel.replace(os.sep, "/")
    return "" if rel == "." else rel.rstrip("/") + "/"
