"""Fusion: one ranked list from the dense and lexical lists (docstring finished after measurement)."""

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
    """Lexical score as a share of the query it covers, plus a bounded dense bonus.

    fused(d) = bm25(d) / ceiling(q)  +  w * minmax_dense(d)

    ``ceiling(q)`` is the summed IDF of the query's terms (``BM25Index.ceiling``), so the lexical
    term is large only when a document covers much of the query; a paraphrase or an English
    question that shares few terms with the text gets small lexical values and the dense order
    decides. Dense scores are min-max normalised over the dense list, so the dense part can lift a
    document by at most ``w``: it reorders lexical near-ties and adds what lexical missed, but
    cannot overturn a clear lexical match. A part votes only for documents it returned (lexical
    returns only documents sharing a term). Parts other than 'lexical' and 'dense' are min-max
    normalised with weight 1. Without a ceiling the lexical list is divided by its top score.
    """

    def __init__(self, dense_weight: float = 0.1, lexical_part: str = "lexical", dense_part: str = "dense") -> None:
        self.w, self.lexical_part, self.dense_part = dense_weight, lexical_part, dense_part

    def fuse(
        self, runs: Mapping[str, Sequence[Hit]], k: int, ceilings: Mapping[str, float] | None = None
    ) -> list[Fused]:
        scores: dict[str, dict[str, float]] = {}
        for part, hits in runs.items():
            if part == self.lexical_part:
                ceiling = (ceilings or {}).get(part) or (hits[0].score if hits else 1.0)
                scores[part] = {h.id: h.score / ceiling for h in hits} if ceiling > 0 else {}
            elif part == self.dense_part:
                scores[part] = {i: self.w * v for i, v in minmax(hits).items()}
            else:
                scores[part] = minmax(hits)
        return _collect(runs, scores)[:k]


def default_fusion() -> Fusion:
    """The fusion ``HybridRetriever`` uses unless given another (see the module docstring)."""
    return CoverageFusion()
