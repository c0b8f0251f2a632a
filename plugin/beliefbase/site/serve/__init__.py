"""``mkdocs serve --dirty``: which pages show something of a change, and removing
their output so MkDocs re-renders them."""
