"""``GeneratedPages``: a generated page never replaces a page of the site."""

from __future__ import annotations

from pathlib import Path

from beliefbase.site.reader.generated import GeneratedPages, dest_uris
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel


def _config(tmp_path: Path) -> MkDocsConfig:
    (tmp_path / "docs").mkdir()
    config = MkDocsConfig(config_file_path=str(tmp_path / "mkdocs.yml"))
    config.load_dict({"site_name": "t", "docs_dir": str(tmp_path / "docs"),
                      "site_dir": str(tmp_path / "site")})
    errors, _warnings = config.validate()
    assert not errors
    config.plugins._current_plugin = "beliefbase"  # as while MkDocs runs our hook
    return config


def test_added_only_where_no_page_has_its_source_or_url(tmp_path: Path) -> None:
    config = _config(tmp_path)
    own = [File("tags/a.md", config.docs_dir, config.site_dir, True),
           File("tags/b/index.md", config.docs_dir, config.site_dir, True)]
    files = Files(list(own))
    pages = GeneratedPages(files, config)

    index, added = pages.add("tags/index.md", listed=True)
    assert added and index.inclusion == InclusionLevel.INCLUDED
    same_src, added = pages.add("tags/a.md")
    assert not added and same_src.url == "tags/a/"
    same_url, added = pages.add("tags/b.md")  # tags/b/ is the site's tags/b/index.md
    assert not added and same_url.url == "tags/b/"
    c, added = pages.add("tags/c.md")
    assert added and c.inclusion == InclusionLevel.NOT_IN_NAV
    assert [f.src_uri for f in files] == ["tags/a.md", "tags/b/index.md", "tags/index.md",
                                          "tags/c.md"]
    assert dest_uris(["tags/index.md", "tags/c.md"], True) == {"tags/index.html",
                                                               "tags/c/index.html"}
    assert dest_uris(["tags/c.md"], False) == {"tags/c.html"}
