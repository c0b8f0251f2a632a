"""The page features of a build, in the order MkDocs gets their files.

Adding a feature: write its ``SiteFeature`` (``feature.py``) in a module of its
own and add its ``make`` here.  The order is the order of the pages in MkDocs'
files (the sitemap's, the search index's); a feature made later may read an
earlier one while it is made (``FeatureContext.feature``), and any may read
any other while pages render.
"""

from __future__ import annotations

from collections.abc import Callable

from .beliefs.pages import BeliefSite
from .feature import FeatureContext, SiteFeature
from .home_page import HomePage
from .navigation import NavigationSite
from .node_pages import NodePages
from .panels import Panels
from .properties import PropertiesBlock
from .query_pages import QueryPages
from .reader.entity_pages import EntitySite
from .reader.folders import FolderSite
from .reader.reader import ReaderSite
from .reader.recent import RecentSite
from .reader.tags import TagSite
from .wanted_page import WantedPage

#: each returns the feature of one build, or None when it is switched off
FEATURES: tuple[Callable[[FeatureContext], SiteFeature | None], ...] = (
    NodePages.make,  # a page per TOML node
    WantedPage.make,  # every dangling link's target
    BeliefSite.make,  # belief pages, panels, footnote links
    ReaderSite.make,  # graph page, aliases, local graph, unlinked mentions
    NavigationSite.make,  # the explorer and "All notes"
    TagSite.make,  # tag pages and rows
    HomePage.make,  # the site root's page
    EntitySite.make,  # entity pages (the highlights: entity_overlay.py)
    RecentSite.make,  # dates, reading time, recent notes, the feed
    FolderSite.make,  # breadcrumbs, folder pages and listings
    Panels.make,  # backlinks ("Linked from")
    PropertiesBlock.make,  # a note's frontmatter under its title
    QueryPages.make,  # the pages showing a query's result
)
