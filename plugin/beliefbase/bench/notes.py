"""Planning a vault (folders, titles, aliases, headings) and rendering each note.

``plan_vault`` decides everything other notes may link to, from one seeded
generator; ``render_note`` writes one note's text from its own generator, so
the links in it can point at headings, blocks and aliases that are sure to
exist (or, for the dangling share, sure not to).
"""

from __future__ import annotations

import json
import posixpath
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from markdown.extensions.toc import slugify

from . import prose

#: (kind, weight in percent) of the wikilinks in note bodies.
LINK_MIX: tuple[tuple[str, int], ...] = (
    ("title", 34),  # [[Note Title]]
    ("stem", 15),  # [[note-file-stem]]
    ("display", 15),  # [[Note Title|shown text]]
    ("heading", 12),  # [[Note Title#Some Heading]]
    ("block", 8),  # [[Note Title#^blk-2]]
    ("alias", 10),  # [[Alias]]
    ("dangling", 3),  # [[Nothing Has This Name]]
    ("ambiguous", 3),  # [[stem-that-two-folders-have]]
)
NOTES_PER_FOLDER = 20
TARGET_BYTES = 5000
_AREAS = (
    "projects",
    "areas",
    "resources",
    "archive",
    "journal",
    "research",
    "meetings",
    "people",
    "operations",
    "design",
    "teams",
    "reading",
)
_KINDS = tuple(kind for kind, _ in LINK_MIX)
_WEIGHTS = tuple(weight for _, weight in LINK_MIX)


@dataclass(slots=True)
class NotePlan:
    """What the rest of the vault may know about one note."""

    folder: str
    stem: str
    title: str
    aliases: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    headings: tuple[tuple[int, str], ...] = ()  # (level, text) in order
    blocks: int = 0  # the note has block ids ^blk-1 .. ^blk-<blocks>
    created: str = ""
    shared_stem: bool = field(default=False)  # another folder has a note with this stem

    @property
    def path(self) -> str:
        return f"{self.folder}/{self.stem}.md"


@dataclass(slots=True)
class VaultPlan:
    """Every note's plan, and what link generation looks up in them."""

    seed: int
    notes: list[NotePlan]
    shared_stems: tuple[str, ...] = ()  # sorted: the targets of ambiguous links

    def __len__(self) -> int:
        return len(self.notes)


def plan_vault(n: int, seed: int = 1) -> VaultPlan:
    """The plan of a vault of ``n`` notes: a pure function of (n, seed)."""
    rng = random.Random(f"beliefbase-bench:{seed}:{n}")
    folders = _plan_folders(rng, max(1, -(-n // NOTES_PER_FOLDER)))
    taken: set[str] = set()  # casefolded titles and aliases
    plans = []
    for i in range(n):
        words = _unique_title_words(rng, taken)
        title = prose.title_case(words)
        taken.add(title.casefold())
        plans.append(
            NotePlan(
                folder=folders[i * len(folders) // n],
                stem="-".join(words),
                title=title,
                tags=_plan_tags(rng, folders[i * len(folders) // n]),
                headings=_plan_headings(rng),
                blocks=0 if rng.random() < 0.4 else rng.randint(1, 3),
                created=_plan_date(rng),
            )
        )
    for plan in plans:
        if rng.random() < 0.3:
            plan.aliases = _plan_aliases(rng, plan, taken)
    _share_stems(rng, plans)
    return VaultPlan(seed, plans, tuple(sorted({p.stem for p in plans if p.shared_stem})))


def render_note(vault: VaultPlan, index: int) -> tuple[str, Counter[str]]:
    """The text of note ``index`` and what it contains (``link:<kind>``, ``embeds``, ...)."""
    rng = random.Random(f"beliefbase-bench:{vault.seed}:{len(vault)}:note:{index}")
    note = _NoteWriter(rng, vault, index)
    return note.render(), note.stats


def _plan_folders(rng: random.Random, count: int) -> list[str]:
    areas = _AREAS[: min(len(_AREAS), max(2, round(count**0.5)))]
    seen: set[str] = set()
    while len(seen) < count:
        path = f"{areas[len(seen) % len(areas)]}/{rng.choice(prose.NOUNS)}"
        if rng.random() < 0.35:
            path += f"/{rng.choice(prose.ADJECTIVES)}"
        seen.add(path)
    return sorted(seen)


def _plan_date(rng: random.Random) -> str:
    return f"20{rng.randint(21, 25)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _unique_title_words(rng: random.Random, taken: set[str]) -> list[str]:
    while True:
        words = [rng.choice(prose.ADJECTIVES), rng.choice(prose.NOUNS)]
        if rng.random() < 0.5:
            words.append(rng.choice(prose.NOUNS))
        if words[-1] != words[-2] and prose.title_case(words).casefold() not in taken:
            return words


def _plan_tags(rng: random.Random, folder: str) -> tuple[str, ...]:
    tags = rng.sample(prose.TAGS, rng.randint(1, 3))
    if rng.random() < 0.5:
        tags.append(f"area/{folder.split('/', 1)[0]}")
    return tuple(tags)


def _plan_headings(rng: random.Random) -> tuple[tuple[int, str], ...]:
    h2_count = rng.randint(3, 5)
    sub_counts = [rng.choice((0, 0, 1, 1, 2)) for _ in range(h2_count)]
    texts = iter(rng.sample(prose.HEADINGS, h2_count + sum(sub_counts)))
    out: list[tuple[int, str]] = []
    for subs in sub_counts:
        out.append((2, next(texts)))
        out.extend((3, next(texts)) for _ in range(subs))
    return tuple(out)


def _plan_aliases(rng: random.Random, plan: NotePlan, taken: set[str]) -> tuple[str, ...]:
    words = plan.stem.split("-")
    candidates = [
        "".join(w[0] for w in words).upper(),  # an acronym: "ACI"
        prose.title_case([words[-1], *words[:-1]]),  # reordered: "Cache Adaptive"
        f"{plan.title} Notes",
    ]
    chosen: list[str] = []
    limit = rng.randint(1, 2)
    for alias in candidates:
        if alias.casefold() not in taken and len(chosen) < limit:
            taken.add(alias.casefold())
            chosen.append(alias)
    return tuple(chosen)


def _share_stems(rng: random.Random, plans: list[NotePlan]) -> None:
    """Give a few notes the file stem of a note in another folder (ambiguous links)."""
    if len({p.folder for p in plans}) < 2:
        return
    paths = {p.path for p in plans}
    wanted = max(2, len(plans) // 250)
    while wanted:
        a, b = rng.sample(plans, 2)
        if a.folder == b.folder or a.shared_stem or b.shared_stem:
            continue
        if f"{b.folder}/{a.stem}.md" in paths:
            continue
        paths.discard(b.path)
        b.stem = a.stem
        paths.add(b.path)
        a.shared_stem = b.shared_stem = True
        wanted -= 1


class _NoteWriter:
    """Renders one note; ``stats`` counts what it wrote."""

    def __init__(self, rng: random.Random, vault: VaultPlan, index: int) -> None:
        self.rng = rng
        self.vault = vault
        self.plans = vault.notes
        self.plan = vault.notes[index]
        self.index = index
        self.stats: Counter[str] = Counter()

    def render(self) -> str:
        rng, plan = self.rng, self.plan
        sections: list[tuple[int, str | None]] = [(1, None), *plan.headings]
        inserts: list[list[str]] = [[] for _ in sections]
        blocks: list[list[str]] = [[] for _ in sections]
        for link in self._links():
            inserts[rng.randrange(len(sections))].append(link)
        if rng.random() < 0.3:
            self.stats["fake:code_span"] += 1
            inserts[rng.randrange(len(sections))].append(f"`[[Code Sample {rng.randint(1, 99)}]]`")
        for b in range(1, plan.blocks + 1):
            blocks[rng.randrange(len(sections))].append(f"^blk-{b}")
        fence_at = rng.randrange(len(sections)) if rng.random() < 0.25 else -1
        table_at = rng.randrange(len(sections)) if rng.random() < 0.15 else -1
        body = [self._frontmatter()]
        target = max(3000, min(8000, int(rng.gauss(TARGET_BYTES, 700))))
        size = len(body[0])
        for i, (level, heading) in enumerate(sections):
            budget = (target - size) // (len(sections) - i)
            parts = [f"{'#' * level} {heading}"] if heading else []
            if heading is None:
                parts.extend(self._intro_extras())
            if i == fence_at:
                parts.append(self._fence())
            if i == table_at:
                parts.append(prose.table(rng))
            parts.extend(self._fill(budget - sum(len(p) + 2 for p in parts), inserts[i], blocks[i]))
            text = "\n\n".join(parts)
            size += len(text) + 2
            body.append(text)
        text = "\n\n".join(p for p in body if p) + "\n"
        self.stats["bytes"] += len(text.encode("utf-8"))
        self.stats["block_ids"] += plan.blocks
        return text

    def _frontmatter(self) -> str:
        plan = self.plan
        lines = ["---", f"title: {json.dumps(plan.title)}", "tags:"]
        lines.extend(f"  - {tag}" for tag in plan.tags)
        if plan.aliases:
            lines.append(f"aliases: [{', '.join(json.dumps(a) for a in plan.aliases)}]")
        lines.extend([f"created: {plan.created}", "---"])
        return "\n".join(lines)

    def _other(self, accept: str = "") -> NotePlan:
        """A random other note; ``accept`` names a property it must have."""
        for _ in range(50):
            other = self.plans[self.rng.randrange(len(self.plans))]
            if other is self.plan:
                continue
            if accept == "blocks" and not other.blocks:
                continue
            if accept == "aliases" and not other.aliases:
                continue
            if accept == "unique_stem" and other.shared_stem:
                continue
            return other
        raise LookupError(f"no note with {accept}")  # only for vaults of a handful of notes

    def _links(self) -> Iterator[str]:
        rng = self.rng
        for kind in rng.choices(_KINDS, _WEIGHTS, k=rng.randint(5, 15)):
            try:
                link = self._link(kind)
            except LookupError:
                kind, link = "title", f"[[{self._other().title}]]"
            self.stats[f"link:{kind}"] += 1
            yield link

    def _link(self, kind: str) -> str:
        rng = self.rng
        if kind == "title":
            return f"[[{self._other().title}]]"
        if kind == "stem":
            return f"[[{self._other('unique_stem').stem}]]"
        if kind == "display":
            shown = " ".join(rng.choices(prose.WORDS, k=rng.randint(1, 3)))
            return f"[[{self._other().title}|{shown}]]"
        if kind == "heading":
            other = self._other()
            return f"[[{other.title}#{rng.choice(other.headings)[1]}]]"
        if kind == "block":
            other = self._other("blocks")
            return f"[[{other.title}#^blk-{rng.randint(1, other.blocks)}]]"
        if kind == "alias":
            return f"[[{rng.choice(self._other('aliases').aliases)}]]"
        if kind == "dangling":
            # "Draft" is in no title or alias, so nothing resolves this.
            words = [rng.choice(prose.ADJECTIVES), rng.choice(prose.NOUNS), "draft"]
            return f"[[{prose.title_case(words)} {rng.randint(1, 999)}]]"
        if not self.vault.shared_stems:
            raise LookupError("no shared stems")
        return f"[[{rng.choice(self.vault.shared_stems)}]]"

    def _intro_extras(self) -> list[str]:
        """Section embeds and standard Markdown links, before the first heading.

        Embeds sit in the intro, which no section embed includes, so embeds
        never nest: the benchmark measures transclusion, not embed chains.
        """
        rng, parts = self.rng, []
        if rng.random() < 0.2:
            other = self._other()
            heading = rng.choice([h for level, h in other.headings if level == 2])
            parts.append(f"![[{other.title}#{heading}]]")
            self.stats["embeds"] += 1
        if rng.random() < 0.2:
            other = self._other()
            href = posixpath.relpath(other.path, self.plan.folder)
            if rng.random() < 0.3:
                href += "#" + slugify(rng.choice(other.headings)[1], "-")
            sentence = prose.sentence(rng, [f"[{other.title}]({href})"])
            parts.append(sentence)
            self.stats["markdown_links"] += 1
        return parts

    def _fence(self) -> str:
        fakes = [f"Code Sample {self.rng.randint(1, 99)}" for _ in range(self.rng.randint(1, 2))]
        self.stats["fake:fence"] += len(fakes)
        return prose.code_block(self.rng, fakes)

    def _fill(self, budget: int, inserts: list[str], blocks: list[str]) -> list[str]:
        """Paragraphs and lists until ``budget`` bytes, holding every insert and block id."""
        rng, used = self.rng, 0
        parts: list[str] = []
        while used + 250 < budget or inserts or blocks or not parts:
            if parts and rng.random() < 0.22:
                items = []
                for _ in range(rng.randint(3, 6)):
                    take = [inserts.pop()] if inserts and rng.random() < 0.5 else []
                    item = f"- {prose.list_item(rng, take)}"
                    if blocks and rng.random() < 0.3:
                        item += f" {blocks.pop()}"
                    items.append(item)
                part = "\n".join(items)
            else:
                take = [inserts.pop() for _ in range(min(len(inserts), rng.randint(1, 3)))]
                room = max(2, min(6, (budget - used) // 90))  # ~90 bytes a sentence
                part = prose.paragraph(rng, take, sentences=rng.randint(2, room))
                if blocks and rng.random() < 0.6:
                    part += f" {blocks.pop()}"
            parts.append(part)
            used += len(part) + 2
        return parts
