"""Findings as retrieval units. A chunk is a window of text; what an auditor asks about is a
finding: its title (the problem in one line), what went wrong, and what was demanded. This index
holds one profile per finding (title + the opening of 문제점 + the opening of 조치할 사항) with a
dense vector, its title vector and its key terms, and scores every finding against a question:

- ``cos_profile`` / ``cos_title``: e5 cosine of the question with the profile / the title;
- ``hub``: the finding's mean cosine with the other findings' titles (its "hubness"): a profile
  written in generic audit vocabulary is close to every question (CSLS, Conneau et al. 2018),
  so relevance uses ``cos_profile - hub``;
- ``lex_title`` / ``lex_body`` / ``lex_full``: share of the question's key terms (IDF-weighted)
  found in the title / the profile / anything the finding says (all its chunks' stored BM25
  terms);
- ``absent`` (per question, not per finding): the share of its key terms no finding uses at all:
  a question about a topic the reports never mention scores high;
- ``unmatched`` (per finding, for the answer): the question's distinctive nouns the finding never
  uses, which the answer names so a near miss is not presented as the case asked about.

The relevance model that combines these (and the chunk-level evidence) is in
``app/retrieval/finding_rank.py`` (ranking) and ``app/policies/offline/grader.py`` (answerable or not). Profiles are rebuilt when the store changes (the corpus
version); vectors come from the passage cache, so a rebuild embeds only new findings.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload, sessionmaker

from app.db.models import Chunk, Finding, org_names
from app.embeddings.interface import Embedder
from app.text.korean import (
    is_noun,
    join_broken_lines,
    morphemes_batch,
    only_nouns,
    shortening,
)

PROFILE_CHARS = 400
"""Characters of 문제점 and of 조치할 사항 in a profile (the title always comes first)."""
HUB_NEIGHBOURS = 10
UNMATCHED_MAX_FINDINGS = 3
UNMATCHED_MAX_SHARE = 0.05
"""A question's noun is distinctive when at most this many findings use it, and at most this share
of them (or none): three of the 12 reports' 69 findings; in a store of one report, none."""
_HANGUL = re.compile(r"[가-힣]")
_SPACE = re.compile(r"\s+")
UNKNOWN_MEMO = 4096
"""How many words ``_unknown_noun`` remembers before it starts again."""
_HANGUL_RUN = re.compile(r"[가-힣]+")


@dataclass(frozen=True)
class FindingProfile:
    id: str
    report_id: str
    title: str
    institutions: tuple[str, ...]
    """Its own (responsible, then action organisations), then its report's."""
    own_institutions: frozenset[str]
    """Its own only: what the finding is about, not every institution its report names."""
    dispositions: tuple[str, ...]
    year: int | None
    audit_type: str | None
    """Its own, else its report's ('성과감사')."""
    text: str
    title_terms: frozenset[str]
    terms: frozenset[str]
    full_terms: frozenset[str]


@dataclass(frozen=True)
class FindingScore:
    finding_id: str
    cos_profile: float
    cos_title: float
    hub: float
    lex_title: float
    lex_body: float
    lex_full: float


def profile_text(f: Finding) -> str:
    parts = [f.title, join_broken_lines(f.problems)[:PROFILE_CHARS], join_broken_lines(f.actions)[:PROFILE_CHARS]]
    return "\n".join(p for p in parts if p)


class ChunkTerms(Protocol):
    """The lexical index the profiles take each finding's chunk terms from (``SqlCorpus``)."""

    def current_version(self) -> object: ...

    def finding_terms(self) -> dict[str, frozenset[str]]: ...


@dataclass(frozen=True)
class _Build:
    """One build of the index, swapped in whole: a reader that takes it once sees one store version."""

    profiles: tuple[FindingProfile, ...]
    by_id: dict[str, FindingProfile]
    df: dict[str, int]
    vectors: np.ndarray
    title_vectors: np.ndarray
    hub: np.ndarray
    written: str
    """Every finding's chunks and profile, whitespace removed (``_unknown_noun``)."""
    runs: str
    """Their runs of Hangul, each once, a line each."""


class FindingIndex:
    def __init__(self, sessions: sessionmaker[Session], embedder: Embedder, chunks: ChunkTerms) -> None:
        self._sessions, self._embedder, self._chunks = sessions, embedder, chunks
        self._lock = threading.Lock()
        self._built_for: object = None
        empty = np.zeros((0, embedder.dim), np.float32)
        self._b = _Build((), {}, {}, empty, empty, np.zeros(0, np.float32), "", "")
        self._unknown: dict[str, bool] = {}

    def _ensure(self) -> None:
        version = self._chunks.current_version()
        if version == self._built_for:
            return
        with self._lock:
            if version == self._built_for:
                return
            with self._sessions() as s:
                rows = s.scalars(select(Finding).options(selectinload(Finding.dispositions), selectinload(Finding.report))).all()
                texts = [profile_text(f) for f in rows]
                metas = [
                    (f.id, f.report_id, f.title, tuple(f.institution_names),
                     frozenset([*org_names(f.responsible_org), *org_names(f.action_orgs)]), tuple(f.disposition_list), f.year,
                     f.audit_type or f.report.audit_type)
                    for f in rows
                ]
                written = [t or "" for (t,) in s.execute(select(Chunk.text).where(Chunk.finding_id.isnot(None)))]
            full = self._chunks.finding_terms()
            token_lists = morphemes_batch([f"{m[2]}\n{t}" for m, t in zip(metas, texts, strict=True)]) if rows else []
            title_tokens = morphemes_batch([m[2] for m in metas]) if rows else []
            profiles = [
                FindingProfile(*m, t, frozenset(tt), frozenset(tok), frozenset(full.get(m[0], frozenset()) | set(tok)))
                for m, t, tt, tok in zip(metas, texts, title_tokens, token_lists, strict=True)
            ]
            df: dict[str, int] = {}
            for p in profiles:
                for term in p.full_terms:
                    df[term] = df.get(term, 0) + 1
            written += [f"{p.title}\n{p.text}" for p in profiles]
            empty = np.zeros((0, self._embedder.dim), np.float32)
            vectors, title_vectors, hub = empty, empty, np.zeros(0, np.float32)
            if rows:
                vectors = self._embedder.embed_passages(texts)
                title_vectors = self._embedder.embed_passages([p.title for p in profiles])
                title_queries = self._embedder.embed_queries([p.title for p in profiles])
                sims = vectors @ title_queries.T
                np.fill_diagonal(sims, -1.0)
                k = min(HUB_NEIGHBOURS, max(1, len(rows) - 1))
                hub = np.sort(sims, axis=1)[:, -k:].mean(axis=1)
            # in one assignment, after the slow part: a reader between two builds sees one or the other, not a mix
            self._b = _Build(tuple(profiles), {p.id: p for p in profiles}, df, vectors, title_vectors, hub,
                             "\n".join(_SPACE.sub("", t) for t in written),
                             "\n".join({run for t in written for run in _HANGUL_RUN.findall(t)}))
            self._unknown = {}
            self._built_for = version

    def idf(self, term: str) -> float:
        return self._idf(self._b, term)

    @staticmethod
    def _idf(b: _Build, term: str) -> float:
        n = len(b.profiles)
        return math.log(1 + (n - b.df.get(term, 0) + 0.5) / (b.df.get(term, 0) + 0.5))

    def _weights(self, b: _Build, query_terms: Iterable[str]) -> dict[str, float]:
        return {t: self._idf(b, t) for t in query_terms if len(t) > 1 or t.isdigit()}

    def absent(self, query_terms: Iterable[str]) -> float:
        """IDF-weighted share of the question's key terms that no finding uses."""
        self._ensure()
        b = self._b
        weights = self._weights(b, query_terms)
        total = sum(weights.values())
        return sum(w for t, w in weights.items() if not b.df.get(t)) / total if total else 0.0

    def unmatched(self, query_terms: Iterable[str], finding_id: str) -> tuple[str, ...]:
        """The question's distinctive nouns this finding never uses (``UNMATCHED_MAX_SHARE``):
        Korean nouns a few findings use, or none ('음주' asked of the 기상특보 출항 finding); not
        inside a longer word it uses ('적격자' in its '부적격자', '방비' in '지방비')."""
        b = self._b
        p = b.by_id.get(finding_id)
        if p is None:
            return ()
        most = min(UNMATCHED_MAX_FINDINGS, UNMATCHED_MAX_SHARE * len(b.profiles))
        distinct = [t for t in set(query_terms) if t not in p.full_terms and b.df.get(t, 0) <= most
                    and _HANGUL.search(t) and len(t) > 1 and (is_noun(t) or self._unknown_noun(b, t))]
        return tuple(sorted(t for t in distinct if not any(t in used for used in p.full_terms)))

    def _unknown_noun(self, b: _Build, word: str) -> bool:
        """A noun Kiwi splits when it reads it alone ('글램핑장': 글램 + 핑 + 장) and no finding writes, nor shortens
        (each syllable the first of a word in one run of Hangul, one to three syllables apart: '농취증' for
        농지취득자격증명): a thing of its own the reports do not have, not a compound of words they use ('공유수면')."""
        memo = self._unknown
        known = memo.get(word)
        if known is None:
            flat = _SPACE.sub("", word)
            known = only_nouns(word) and flat not in b.written and shortening(flat[:-1], flat[-1]).search(b.runs) is None
            if len(memo) >= UNKNOWN_MEMO:
                memo.clear()
            memo[word] = known
        return known

    def score(self, query_vector: np.ndarray, query_terms: Iterable[str], allowed: set[str] | None = None) -> list[FindingScore]:
        """Every finding (or those in ``allowed``) scored against the question."""
        self._ensure()
        b = self._b
        if not b.profiles:
            return []
        weights = self._weights(b, query_terms)
        total = sum(weights.values()) or 1.0
        cos_p = b.vectors @ query_vector
        cos_t = b.title_vectors @ query_vector
        out = []
        for i, p in enumerate(b.profiles):
            if allowed is not None and p.id not in allowed:
                continue
            lex_t = sum(w for t, w in weights.items() if t in p.title_terms) / total
            lex_b = sum(w for t, w in weights.items() if t in p.terms) / total
            lex_f = sum(w for t, w in weights.items() if t in p.full_terms) / total
            out.append(FindingScore(p.id, float(cos_p[i]), float(cos_t[i]), float(b.hub[i]), lex_t, lex_b, lex_f))
        return out

    def all_profiles(self) -> tuple[FindingProfile, ...]:
        self._ensure()
        return self._b.profiles

    def profile(self, finding_id: str) -> FindingProfile | None:
        """The finding as the last build read it: ``score`` and ``all_profiles`` rebuild when the store changed, and
        what a turn looks up after them is of that build (no store check per look-up: a turn makes thousands); None
        for one a newer build no longer holds."""
        if self._built_for is None:
            self._ensure()
        return self._b.by_id.get(finding_id)
