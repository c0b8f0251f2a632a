"""Vocabulary and prose for generated vaults: titles, headings, sentences.

Everything here draws from a ``random.Random`` it is handed, never from the
global generator, so a vault is a pure function of its seed.  The word lists are
plain tuples (not sets) because iteration order must not depend on hashing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


def _words(text: str, sep: str | None = None) -> tuple[str, ...]:
    """Word lists are kept as text: compact, and stable under formatters."""
    return tuple(word.strip() for word in text.split(sep))


ADJECTIVES = _words(
    """
    adaptive asynchronous automated balanced bounded canonical cached centralised composable
    concurrent consistent continuous declarative deferred distributed durable dynamic
    elastic embedded encrypted eventual experimental federated hierarchical immutable
    incremental indexed isolated layered lazy lightweight linear local modular nested
    offline optimistic ordered parallel partial persistent pessimistic pluggable portable
    predictive private probabilistic reactive recursive redundant remote replicated
    resilient scalable sharded shared sparse stateless static streaming structured synthetic
    temporal transactional typed unified versioned weighted
    """
)

NOUNS = _words(
    """
    access adapter agent alert allocation archive audit backlog backup baseline batch
    benchmark billing boundary broker budget buffer cache calendar catalog channel
    checkpoint cluster compiler compliance config contract cursor dashboard dataset
    deployment directory discovery dispatch editor encoding endpoint experiment export
    feature feedback filter forecast gateway graph handoff heuristic hiring import index
    inventory invoice journal kernel ledger lifecycle locking logging mailbox manifest
    mapping meeting migration model monitor network notebook onboarding parser partition
    pipeline planner policy pricing profile protocol queue quota registry release renderer
    replica report retention review roadmap router runtime sampling scheduler schema search
    session snapshot storage strategy survey sync taxonomy telemetry template tenant
    timeline token topology tracing vendor workflow workspace
    """
)

HEADINGS = _words(
    """
    Overview | Background | Context | Motivation | Goals | Non-goals | Design | Architecture
    | Data Model | Interfaces | Implementation Notes | Open Questions | Trade-offs | Risks |
    Alternatives Considered | Rollout Plan | Migration Path | Testing Strategy | Metrics |
    Performance | Security Considerations | Failure Modes | Operations | Monitoring | Costs
    | Timeline | Decisions | Action Items | Follow-ups | References | Glossary | Examples |
    Edge Cases | Known Issues | Lessons Learned | Stakeholders | Dependencies | Constraints
    | Assumptions | Summary | What's Next | Prior Art | Pros and Cons | Status | History
    """,
    "|",
)

TAGS = _words(
    """
    project meeting idea reference howto decision research draft review ops design retro
    people reading todo archive spec incident roadmap question
    """
)

_COMMON = _words(
    """
    the a of to and in for on with by from that this we it is are was be can should will not
    when each every which also only still then after before because while team system
    service request response user client server node latency throughput error retry timeout
    version change issue decision question reason result value record field table file
    folder page link note draft review owner cost risk plan week quarter month budget
    estimate target limit threshold measure improve reduce increase avoid keep move split
    merge resolve track ship test deploy observe compare document explain simple complex
    fast slow stable fragile clear unclear small large early late new old internal external
    manual automatic probably usually rarely already roughly mostly carefully quickly
    """
)

WORDS = _COMMON + NOUNS[::3] + ADJECTIVES[::4]

_CONNECTIVES = (
    "However,",
    "In practice,",
    "For now,",
    "As a result,",
    "Meanwhile,",
    "In short,",
    "Historically,",
    "Note that",
    "Ideally,",
    "So far,",
)

_CODE_LANGS = ("python", "yaml", "bash", "json", "text")


def title_case(words: Sequence[str]) -> str:
    """``("adaptive", "cache")`` -> ``"Adaptive Cache"``."""
    return " ".join(w[:1].upper() + w[1:] for w in words)


def sentence(rng: random.Random, inserts: Sequence[str] = ()) -> str:
    """One sentence of 8-20 words with ``inserts`` (links, code) placed among them."""
    words = rng.choices(WORDS, k=rng.randint(8, 20))
    for item in inserts:
        words.insert(rng.randint(1, len(words)), item)
    if rng.random() < 0.08:
        i = rng.randrange(len(words))
        words[i] = f"**{words[i]}**" if rng.random() < 0.5 else f"*{words[i]}*"
    if rng.random() < 0.12:
        words.insert(0, rng.choice(_CONNECTIVES))
    words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words) + ("." if rng.random() < 0.93 else rng.choice("?!"))


def paragraph(rng: random.Random, inserts: Sequence[str] = (), sentences: int = 0) -> str:
    """A paragraph of 3-6 sentences (or ``sentences``); ``inserts`` spread over them."""
    count = sentences or rng.randint(3, 6)
    buckets: list[list[str]] = [[] for _ in range(count)]
    for item in inserts:
        buckets[rng.randrange(count)].append(item)
    return " ".join(sentence(rng, bucket) for bucket in buckets)


def list_item(rng: random.Random, inserts: Sequence[str] = ()) -> str:
    """A short list item (one clause, no final period most of the time)."""
    words = rng.choices(WORDS, k=rng.randint(4, 12))
    for item in inserts:
        words.insert(rng.randint(0, len(words)), item)
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def code_block(rng: random.Random, fake_links: Sequence[str]) -> str:
    """A fenced code block whose text contains wikilink syntax that is NOT a link."""
    lang = rng.choice(_CODE_LANGS)
    lines = [f"# example {rng.randint(1, 999)}" if lang != "json" else "{"]
    for target in fake_links:
        if lang == "json":
            lines.append(f'  "see": "[[{target}]]",')
        else:
            lines.append(f'see = "[[{target}]]"  # {" ".join(rng.choices(WORDS, k=4))}')
    lines.append(f"{rng.choice(NOUNS)}_{rng.choice(NOUNS)} = {rng.randint(0, 10_000)}")
    if lang == "json":
        lines.append('  "ok": true\n}')
    return "\n".join([f"```{lang}", *lines, "```"])


def table(rng: random.Random) -> str:
    """A small Markdown table of plain text."""
    cols = rng.sample(NOUNS, 3)
    rows = [f"| {' | '.join(title_case([c]) for c in cols)} |", "|---|---|---|"]
    for _ in range(rng.randint(2, 5)):
        rows.append("| " + " | ".join(" ".join(rng.choices(WORDS, k=2)) for _ in cols) + " |")
    return "\n".join(rows)
