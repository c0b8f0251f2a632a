"""Python-Markdown extensions: Obsidian's syntax rendered as its reading view."""
