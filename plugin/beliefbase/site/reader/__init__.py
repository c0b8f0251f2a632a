"""Reader features: the graph page's data, unlinked mentions, tags, folders, dates,
recent notes, the search indexes."""
