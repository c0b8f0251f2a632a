"""Dashboards the way people write them: a reading list, a projects board, a
daily-notes index and a task roll-up, over notes written as in real vaults."""

from __future__ import annotations

import datetime as dt

from beliefbase.dataview import build_index, format_html, run
from beliefbase.dataview.view import view_context

from .vaults import NOW, page

VAULT = build_index([
    page("Books/Dune.md", """\
        # Dune
        Author:: [[Frank Herbert]]
        Rating:: 5
        Finished:: 2022-03-14
        Genre:: "sci-fi", "classic"
        #book/read
        """, {"type": "book", "cover": "dune.jpg"}),
    page("Books/Piranesi.md", """\
        Author:: [[Susanna Clarke]]
        Rating:: 4
        Finished:: 2022-10-02
        Genre:: "fantasy"
        #book/read
        """, {"type": "book"}),
    page("Books/The Dispossessed.md", "Author:: [[Ursula K. Le Guin]]\n#book/to-read\n",
         {"type": "book"}),
    page("People/Frank Herbert.md", "", {"born": 1920}),
    page("Projects/Website.md", """\
        ---
        - [ ] Pick a theme [due:: 2022-11-20] #web
        - [x] Buy domain ✅ 2022-11-01
        - [ ] Write about page 📅 2022-12-01
            - [ ] draft
        """, {"status": "active", "priority": 2, "deadline": dt.date(2022, 12, 15)}),
    page("Projects/Garden.md", "- [x] Plant bulbs\n", {"status": "done", "priority": 1}),
    page("Projects/Move.md", "- [ ] Boxes [due:: 2022-11-30]\n",
         {"status": "active", "priority": 3, "deadline": dt.date(2023, 1, 31)}),
    page("Daily/2022-11-21.md", "Mood:: 7\nSleep:: 6.5\n[[Website]] progress.\n"),
    page("Daily/2022-11-22.md", "Mood:: 5\nSleep:: 8\n- [ ] call mom\n"),
    page("Daily/2022-11-23.md", "Mood:: 8\n"),
])


def test_reading_list() -> None:
    r = run('TABLE Author, Rating, dateformat(Finished, "yyyy-MM") AS "Read", join(Genre) AS '
            'Genres\nFROM #book/read\nSORT Rating DESC', VAULT, None, now=NOW)
    assert [row.id.file_name() for row in r.rows] == ["Dune", "Piranesi"]
    assert r.rows[0].values[1:] == (5, "2022-03", "sci-fi, classic")
    assert r.rows[0].values[0].file_name() == "Frank Herbert"
    unread = run("LIST Author FROM #book AND -#book/read", VAULT, None, now=NOW)
    assert [row.id.file_name() for row in unread.rows] == ["The Dispossessed"]
    born = run("LIST WITHOUT ID Author.born FROM #book/read", VAULT, None, now=NOW)
    assert [row.values[0] for row in born.rows] == [1920, None]


def test_projects_board() -> None:
    r = run('TABLE status, priority, deadline - date(today) AS "Left", '
            'length(filter(file.tasks, (t) => !t.completed)) AS "Open"\n'
            'FROM "Projects"\nWHERE status != "done"\nSORT priority DESC',
            VAULT, None, now=NOW)
    assert [row.id.file_name() for row in r.rows] == ["Move", "Website"]
    assert [format_html(row.values[2]) for row in r.rows] == [
        '<span class="dataview-duration">2 months, 1 week, 1 day</span>',
        '<span class="dataview-duration">3 weeks, 1 day</span>']
    assert [row.values[3] for row in r.rows] == [1, 3]
    grouped = run("TABLE rows.file.link AS Projects GROUP BY status", VAULT, None, now=NOW)
    assert [row.id for row in grouped.rows] == [None, "active", "done"]


def test_daily_notes_index() -> None:
    r = run('TABLE WITHOUT ID file.link AS "Day", Mood, Sleep\nFROM "Daily"\n'
            "WHERE file.day >= date(today) - dur(2 days)\nSORT file.day DESC", VAULT, None,
            now=NOW)
    assert [(row.values[0].file_name(), row.values[1], row.values[2]) for row in r.rows] == [
        ("2022-11-23", 8, None), ("2022-11-22", 5, 8), ("2022-11-21", 7, 6.5)]
    avg = run('LIST WITHOUT ID "Average mood: " + round(average(rows.Mood), 1)\n'
              'FROM "Daily"\nGROUP BY true', VAULT, None, now=NOW)
    assert avg.rows[0].values == ("Average mood: 6.7",)
    context = view_context(r)
    assert context["columns"] == ["Day", "Mood", "Sleep"]


def test_task_rollup() -> None:
    overdue = run("TASK\nWHERE !completed AND due AND due <= date(today)\nGROUP BY file.link",
                  VAULT, None, now=NOW)
    assert [(g.key.file_name(), [e.item.text for e in g.tasks]) for g in overdue.tasks] == [
        ("Website", ["Pick a theme [due:: 2022-11-20] #web"])]
    open_tasks = run('TASK FROM "Projects" OR "Daily" WHERE !completed', VAULT, None, now=NOW)
    texts = [e.item.text for e in open_tasks.tasks[0].tasks]
    assert texts == ["call mom", "Boxes [due:: 2022-11-30]", "Pick a theme [due:: 2022-11-20] #web",
                     "Write about page 📅 2022-12-01"]
    assert open_tasks.count == 4
    done = run("TASK WHERE completion", VAULT, None, now=NOW)
    assert [e.item.text for e in done.tasks[0].tasks] == ["Buy domain ✅ 2022-11-01"]
