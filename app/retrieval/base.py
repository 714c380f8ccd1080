"""Small shared types of the retrieval parts: a ranked ``Hit`` and the part interfaces.

Every part (dense, lexical) returns ``Hit`` lists ranked best first; the fusion step combines
them and ``HybridRetriever`` turns the fused ids into ``Evidence``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.retrieval.filters import SearchFilters


@dataclass(frozen=True)
class Hit:
    """One result of one retrieval part."""

    id: str
    score: float
    rank: int
    """1-based position in the part's result list."""
    meta: Mapping[str, Any] = field(default_factory=dict)


class LexicalIndex(Protocol):
    """A keyword index over pre-tokenized documents."""

    def search(self, tokens: list[str], k: int, filters: SearchFilters | None = None) -> list[Hit]:
        """At most ``k`` documents that share at least one token with the query (score > 0),
        best first. A query that matches nothing returns []."""
        ...

    def __len__(self) -> int: ...


class DensePart(Protocol):
    """A vector index searched with a query text."""

    def search(self, query: str, k: int, filters: SearchFilters | None = None) -> list[Hit]: ...


def rerank_positions(hits: list[Hit]) -> list[Hit]:
    """The same hits with ranks renumbered 1..n in list order."""
    return [Hit(h.id, h.score, i + 1, h.meta) for i, h in enumerate(hits)]


def pool_max(hits: list[Hit], key: str | None) -> list[Hit]:
    """Chunk-to-parent max pooling: one hit per ``meta[key]`` (the chunk id when the key is
    missing or empty) with the best chunk's score, re-ranked. The pooled hit's id is the parent
    id; ``meta["chunk_id"]`` names the best chunk, so evidence stays quotable. ``key=None``
    returns the hits unchanged."""
    if key is None:
        return hits
    seen: set[str] = set()
    out: list[Hit] = []
    for h in sorted(hits, key=lambda h: -h.score):
        parent = str(h.meta.get(key) or h.id)
        if parent in seen:
            continue
        seen.add(parent)
        out.append(Hit(parent, h.score, len(out) + 1, {**h.meta, "chunk_id": h.id}))
    return out


def chunk_of(hit: Hit) -> str:
    """The chunk a (possibly pooled) hit stands for."""
    return str(hit.meta.get("chunk_id") or hit.id)
