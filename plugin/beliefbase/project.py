"""From an MkDocs configuration to what the compiler needs (plugin and CLI share this)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markdown.extensions.toc import slugify as toc_slugify

from .builder import Compiled, CompileOptions, Compiler, SourceFile, discover
from .config import BeliefbaseConfig


def compile_options(config: Any, plugin_config: BeliefbaseConfig) -> CompileOptions:
    """CompileOptions for an MkDocs config (mkdocs.yml already loaded)."""
    project_dir = Path(config.config_file_path or ".").resolve().parent
    toc = dict(config.mdx_configs.get("toc", {}))
    slugify = toc.get("slugify") or toc_slugify
    names = {_extension_name(e) for e in config.markdown_extensions}
    return CompileOptions(
        docs_dir=Path(config.docs_dir).resolve(),
        project_dir=project_dir,
        use_directory_urls=bool(config.use_directory_urls),
        slugify=slugify,
        slug_separator=str(toc.get("separator", "-")),
        heading_attr_ids="attr_list" in names,
        embed_depth=int(plugin_config.embed_depth),
        site_name=str(config.site_name or ""),
        raw_dir=(project_dir / plugin_config.raw_dir).resolve(),
        tags_page=str(plugin_config.tags_page),
    )


def _extension_name(ext: object) -> str:
    if isinstance(ext, str):
        return ext.rsplit(".", 1)[-1]
    return type(ext).__module__.rsplit(".", 1)[-1]


def load_config(config_file: str | Path | None = None) -> Any:
    """Load mkdocs.yml like ``mkdocs build`` does (plugins included)."""
    from mkdocs.config import load_config as mkdocs_load_config

    return mkdocs_load_config(str(config_file) if config_file else None)


def plugin_config(config: Any) -> BeliefbaseConfig:
    """Our plugin's options from a loaded config (defaults if it is not enabled)."""
    plugin = config.plugins.get("beliefbase")
    if plugin is not None:
        return plugin.config  # type: ignore[no-any-return]
    defaults = BeliefbaseConfig()
    defaults.load_dict({})
    defaults.validate()
    return defaults


def load_project(config_file: str | Path | None = None) -> tuple[list[SourceFile], CompileOptions]:
    """Sources and options of the project whose mkdocs.yml is ``config_file``."""
    config = load_config(config_file)
    options = compile_options(config, plugin_config(config))
    sources = _sources(config, options)
    return sources, options


def _sources(config: Any, options: CompileOptions) -> list[SourceFile]:
    from mkdocs.structure.files import get_files

    from .builder import make_sources

    try:
        files = get_files(config)
        return make_sources(options.docs_dir, [f.src_uri for f in files])
    except Exception:  # noqa: BLE001 - fall back to a plain walk of docs_dir
        return discover(options.docs_dir)


def cache_dir(config: Any) -> Path:
    return (Path(config.config_file_path or ".").resolve().parent
            / plugin_config(config).cache_dir)


def compile_from_config(config_file: str | Path | None = None, *, use_cache: bool = False) -> (
    Compiled
):
    """Compile the project of ``config_file`` (what ``beliefbase check`` does)."""
    config = load_config(config_file)
    options = compile_options(config, plugin_config(config))
    compiler = Compiler(options, cache_dir(config) if use_cache else None)
    return compiler.compile(_sources(config, options))


def page_facts(compiled: Compiled) -> dict[str, Any]:
    """What the belief verifier needs to know about each page of a compile."""
    from .beliefs import PageFacts

    facts = {}
    for doc in compiled.documents.values():
        parsed = doc.parsed
        facts[doc.path] = PageFacts(
            path=doc.path,
            display=compiled.options.display(doc.path),
            url=doc.url,
            network=doc.network.id,
            published=doc.published,
            anchors=frozenset(s.anchor for s in doc.sections),
            footnote_refs=tuple((f.id, f.line, f.column) for f in parsed.footnote_refs),
            footnote_defs=tuple((f.id, f.line, f.column) for f in parsed.footnote_defs),
        )
    return facts


def belief_context(config_file: str | Path | None = None) -> Any:
    """A ``ProjectContext`` for the belief commands (compiles the project first)."""
    from .beliefs import ProjectContext

    config = load_config(config_file)
    options = compile_options(config, plugin_config(config))
    compiled = Compiler(options, cache_dir(config)).compile(_sources(config, options))
    return ProjectContext(
        root=options.project_dir,
        docs_dir=options.docs_dir,
        raw_dir=options.raw_dir or options.project_dir / "raw",
        cache_dir=cache_dir(config),
        pages=page_facts(compiled),
        sidecars=tuple(s.abs_path for s in compiled.sidecars),
    )
