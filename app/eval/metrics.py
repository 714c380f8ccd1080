"""Ranking metrics with binary relevance. ``ranked`` is a list of unit ids, best first, with
duplicates already removed (several chunks of one gold unit count once: see ``dedupe``)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


def dedupe(ids: Iterable[str]) -> list[str]:
    """Ids in first-seen order without repeats (chunks -> their finding or page)."""
    return list(dict.fromkeys(ids))


def recall_at(ranked: Sequence[str], gold: set[str], k: int) -> float:
    """Share of the gold ids found in the top ``k``."""
    if not gold:
        return 0.0
    return len(gold & set(ranked[:k])) / len(gold)


def mrr_at(ranked: Sequence[str], gold: set[str], k: int = 10) -> float:
    """1 / rank of the first gold id within the top ``k``, else 0."""
    for i, doc in enumerate(ranked[:k]):
        if doc in gold:
            return 1.0 / (i + 1)
    return 0.0


def ndcg_at(ranked: Sequence[str], gold: set[str], k: int = 10) -> float:
    """Binary-relevance nDCG: sum of 1/log2(rank+1) over gold hits, over the ideal sum."""
    if not gold:
        return 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i, doc in enumerate(ranked[:k]) if doc in gold)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(gold), k)))
    return dcg / ideal


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100); 0 for no values."""
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarize(rankings: Sequence[Sequence[str]], golds: Sequence[set[str]]) -> dict[str, float]:
    """Mean recall@1/5/10, MRR@10 and nDCG@10 over questions."""
    n = len(rankings) or 1
    out = {
        "recall@1": sum(recall_at(r, g, 1) for r, g in zip(rankings, golds, strict=True)) / n,
        "recall@5": sum(recall_at(r, g, 5) for r, g in zip(rankings, golds, strict=True)) / n,
        "recall@10": sum(recall_at(r, g, 10) for r, g in zip(rankings, golds, strict=True)) / n,
        "mrr@10": sum(mrr_at(r, g, 10) for r, g in zip(rankings, golds, strict=True)) / n,
        "ndcg@10": sum(ndcg_at(r, g, 10) for r, g in zip(rankings, golds, strict=True)) / n,
    }
    return {k: round(v, 4) for k, v in out.items()}
