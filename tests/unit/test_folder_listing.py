"""The folder listing's pieces: a note's first sentence, the date hook's output."""

from __future__ import annotations

from beliefbase.codecs.snippet import snippet_parts
from beliefbase.site.previews import first_sentence
from beliefbase.site.templates import Templates


def test_first_sentence() -> None:
    assert first_sentence("Alpha is first. Then more.") == "Alpha is first."
    assert first_sentence("Beta, e.g. this one. Two.") == "Beta, e.g. this one."
    assert first_sentence('He said "stop." Then left.') == 'He said "stop."'
    assert first_sentence("No end at all") == "No end at all"
    assert first_sentence("Why? Because.") == "Why?"
    assert first_sentence("") == ""
    assert first_sentence("你好。世界。") == "你好。"
    assert first_sentence("v1.2 is out! Yes.") == "v1.2 is out!"


def test_listing_shows_a_date_when_the_hook_gives_one() -> None:
    html = Templates().render(
        "folder-listing.html", folders=[], count=2,
        notes=[{"title": "A <b>", "href": "a/", "date": {"iso": "2024-05-01", "text": "1 May 2024"}, "description": snippet_parts("x")},
               {"title": "B", "href": "b/", "date": None, "description": []}])
    assert ('<a href="a/">A &lt;b&gt;</a> <time class="bb-folder__meta" datetime="2024-05-01">'
            '1 May 2024</time>') in html
    assert html.count("<time") == 1 and html.count("bb-folder__description") == 1
