"""``KeptTexts`` for the site (the search index); defined below the site, in
``beliefbase.kept_texts``, as the graph viewer's data uses it too."""

from __future__ import annotations

from ..kept_texts import KeptTexts as KeptTexts
