"""Every built-in view in a projects-and-people vault written the way Dataview users
write it (about 100 notes: people, projects, meetings, Query notes, a NodeType,
dashboards with queries in callouts and list items), looked at in Chromium on a
desktop and a phone, in both palettes (issue 18).

``BB_SCREENSHOTS=some/folder pytest tests/browser/test_query_vault.py`` keeps the
screenshots (``vault-<page>-<size>-<scheme>.png``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.browser.conftest import BOTH_PALETTES, open_watched  # noqa: E402
from tests.conftest import BASE_CONFIG, Project  # noqa: E402

pytestmark = pytest.mark.browser

PEOPLE = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Barbara Liskov", "Edsger Dijkstra",
          "Margaret Hamilton", "Donald Knuth", "Frances Allen", "Ken Thompson", "Radia Perlman",
          "Tim Berners-Lee", "Hedy Lamarr", "Claude Shannon", "Katherine Johnson",
          "John McCarthy", "Sophie Wilson", "Dennis Ritchie", "Annie Easley", "Linus Torvalds",
          "Karen Spärck Jones"]
PROJECTS = ["Apollo", "Borealis", "Cassini", "Dawn", "Europa", "Fermi", "Galileo", "Hubble",
            "Ion", "Juno", "Kepler", "Luna", "Magellan", "New Horizons", "Orion", "Pioneer",
            "Quasar", "Rosetta", "Skylab", "Tiangong", "Ulysses", "Voyager", "WISE", "XMM",
            "Yohkoh", "Zond", "Ariel", "Beagle", "Chandra", "Deep Impact"]
STATUS = ["active", "active", "active", "paused", "done", "idea"]
LONG = ("A long description that goes on and on, to see how cards and tables wrap long "
        "text in narrow columns on a phone")
DASHBOARD = """\
# Dashboard

> [!info] At a glance
> We have {{query:active-projects | view:count}} active projects.
> ```query view=count
> MATCH (p:Project) RETURN count(*)
> ```

## Active

{{query:active-projects}}

## Every project

```query view=table
MATCH (p:Project)
RETURN p AS project, p.status AS status, p.priority AS priority, p.due AS due,
       p.owner AS owner, p.team AS team, p.summary AS summary
ORDER BY priority DESC, project.title
```

## Per person

- Projects by owner
  ```query view=table
  MATCH (p:Project)-[:owner]->(who:Person)
  RETURN who AS person, count(p) AS projects, collect(p.title) AS titles
  ORDER BY projects DESC, person.title LIMIT 6
  ```
- Recent meetings
  {{query:recent-meetings}}

## Nothing yet

```query view=cards
MATCH (p:Project {status: 'cancelled'}) RETURN p
```

```query view=timeline
MATCH (p:Project {status: 'cancelled'}) RETURN p
```

## Broken

> [!warning] A typo
> ```query
> MATCH (p:Projekt) RETURN p
> ```
"""
PAGES = {"Dashboard/": 8, "People/": 2, "Timeline/": 1, "Queries/Active%20projects/": 1,
         "Types/Project/": 1}


def write_vault(project: Project) -> None:
    for i, name in enumerate(PEOPLE):
        project.write(f"People/{name}.md", f"---\nschema: Person\nrole: "
                      f"{['engineer', 'designer', 'manager'][i % 3]}\njoined: 20{18 + i % 8}-0"
                      f"{1 + i % 9}-1{i % 9}\n---\n# {name}\n", dedent=False)
    for i, word in enumerate(PROJECTS):
        team = ", ".join(f'"[[{PEOPLE[(i + k) % 20]}]]"' for k in (1, 3, 5)[: 1 + i % 3])
        project.write(f"Projects/{word}.md", (
            f"---\nschema: Project\nstatus: {STATUS[i % 6]}\npriority: {1 + (i * 7) % 10}\n"
            f"due: 2026-{1 + i % 12:02d}-{1 + (i * 3) % 27:02d}\n"
            f'owner: "[[{PEOPLE[i % 20]}]]"\nteam: [{team}]\n'
            + ("label: flagship\n" if i % 7 == 0 else "")
            + f'summary: "{LONG if i % 9 == 0 else "Short."}"\ntags: [project]\n---\n'
            f"# {word}\n\nOwned by [[{PEOPLE[i % 20]}]].\n"), dedent=False)
    for i in range(45):
        day = f"2026-{1 + i % 11:02d}-{1 + (i * 5) % 27:02d}"
        name = PROJECTS[(i * 7) % 30]
        project.write(f"Meetings/{day} {name}.md", (
            f'---\nschema: Meeting\ndate: {day}\nproject: "[[{name}]]"\nattendees: '
            f'["[[{PEOPLE[i % 20]}]]", "[[{PEOPLE[(i * 3) % 20]}]]"]\n---\n'
            f"# {name} sync {day}\n\n- [ ] follow up with [[{PEOPLE[i % 20]}]]\n"), dedent=False)
    project.write("Queries/Active projects.md", (
        "---\nschema: Query\nid: active-projects\nview: cards\nquery: \"MATCH (p:Project "
        "{status: 'active'}) RETURN p ORDER BY p.priority DESC, p.title\"\n---\n"
        "# Active projects\n"), dedent=False)
    project.write("Queries/Recent meetings.md", (
        "---\nschema: Query\nid: recent-meetings\nview: timeline\nquery: \"MATCH (m:Meeting) "
        "RETURN m ORDER BY m.date DESC LIMIT 6\"\n---\n# Recent meetings\n"), dedent=False)
    project.write("Types/Project.md", (
        "---\nschema: NodeType\nname: Project\nproperties:\n"
        "  - {name: status, type: string, required: true}\n"
        "  - {name: owner, type: link}\n---\n# Project (type)\n"), dedent=False)
    project.write("Dashboard.md", DASHBOARD, dedent=False)
    project.write("People.md", "# People\n\n```query view=cards\nMATCH (p:Person) RETURN p "
                  "ORDER BY p.title\n```\n\n```query view=list\nMATCH (p:Person)<-[:owner]-"
                  "(x:Project) RETURN DISTINCT p ORDER BY p.title\n```\n", dedent=False)
    project.write("Timeline.md", "# Timeline\n\n```query view=timeline\nMATCH (p:Project) "
                  "WHERE p.status <> 'done' RETURN p, p.owner AS owner\n```\n", dedent=False)
    project.write("index.md", "# Vault\n\nSee the [[Dashboard]], [[People]], [[Timeline]].\n")


@pytest.fixture(scope="module")
def vault_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from graph_site import serve

    root = tmp_path_factory.mktemp("vault") / "kb"
    (root / "docs").mkdir(parents=True)
    project = Project(root, dict(BASE_CONFIG))
    write_vault(project)
    result = project.build(site_name="Vault",
                           theme={"name": "material", "font": False, "palette": BOTH_PALETTES})
    assert result.error is None, result.error
    assert sum(1 for _ in (root / "docs").rglob("*.md")) >= 100
    with serve(result.site) as url:
        yield url


@pytest.mark.parametrize(("size", "scheme"), [("phone", "light"), ("phone", "dark"),
                                              ("desktop", "light"), ("desktop", "dark")])
def test_every_view(browser: Any, vault_url: str, shots: Path, size: str, scheme: str) -> None:
    context, page, problems = open_watched(browser, size, scheme)
    try:
        for path, count in PAGES.items():
            page.goto(f"{vault_url}{path}")
            width = page.evaluate("window.innerWidth")
            # nothing widens the page: a wide table scrolls in Material's wrapper
            assert page.evaluate("document.documentElement.scrollWidth") <= width, path
            views = page.locator("article .bb-query, article .bb-query-error")
            assert views.count() == count, path
            for box in (v.bounding_box() for v in views.all()):
                assert box is not None and box["width"] > 0 and box["height"] > 0, path
                assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, path
            name = path.strip("/").replace("/", "-").replace("%20", "-")
            page.screenshot(path=str(shots / f"vault-{name}-{size}-{scheme}.png"),
                            full_page=True)
        page.goto(f"{vault_url}Dashboard/")
        callout = page.locator(".admonition.info")
        assert callout.locator(".bb-query-inline").inner_text() == "15"
        assert callout.locator("p.bb-query-count").inner_text() == "30"
        row = page.locator(".bb-query-table tbody tr", has_text="Beagle")
        assert row.locator("td.bb-query-long").count() == 1
        assert row.locator("a.bb-link").first.inner_text() == "Frances Allen"
        assert page.locator(".bb-query-empty").count() == 2
        assert problems == []
    finally:
        context.close()
