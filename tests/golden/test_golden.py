"""Golden files: the rendered HTML of wikilinks, embeds, blocks and tags.

Run ``pytest tests/golden --update-golden`` to rewrite ``expected/`` from the
current output, then review the diff in git.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import BuildResult, build_copy

HERE = Path(__file__).parent
CASES = ["links", "embeds", "blocks-and-tags"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    return build_copy(HERE / "vault", tmp_path_factory.mktemp("golden"))


def normalize(article: str) -> str:
    body = article[article.index(">") + 1:]
    body = re.sub(r'data-bb-target="[0-9a-f-]+"', 'data-bb-target="…"', body)
    # the dates under the title are the files' times here: they change with every copy
    body = re.sub(r'<p class="bb-note-meta">.*?</p>', "", body)
    body = body.split('<section class="bb-panel bb-backlinks"')[0]
    return "\n".join(line.rstrip() for line in body.strip().splitlines() if line.strip()) + "\n"


@pytest.mark.parametrize("case", CASES)
def test_golden(built: BuildResult, case: str, request: pytest.FixtureRequest) -> None:
    url = "blocks%20and%20tags/" if case == "blocks-and-tags" else f"{case}/"
    page = built.site / url.replace("%20", " ") / "index.html"
    article = page.read_text(encoding="utf-8")
    start = article.index("<article")
    got = normalize(article[start: article.index("</article>", start)])
    expected_file = HERE / "expected" / f"{case}.html"
    if request.config.getoption("--update-golden") or not expected_file.exists():
        expected_file.write_text(got, encoding="utf-8")
    assert got == expected_file.read_text(encoding="utf-8")
