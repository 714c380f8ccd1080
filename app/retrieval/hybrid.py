"""``HybridRetriever``: dense + lexical search, fused, as Evidence. The graph's entry point.

    retriever.search("계약 부적정 사례", k=8, filters=SearchFilters(year_from=2025))
    retriever.search_many(["원 질문", "다시 쓴 질문"], k=8)        # multi-query, fused by RRF
    retriever.search(q, hyde_passage=llm_written_answer)           # HyDE: dense side only

Both parts get the same filters (Milvus expression for dense, ``SearchFilters.matches`` for
lexical) so every returned hit honours them. Each part retrieves ``depth`` candidates; with
``group_by`` (e.g. ``"finding_id"``) chunk hits are max-pooled to their parent before fusion,
so a long finding or page counts once and is represented by its best chunk. Results are
cached in a small LRU keyed by the query, filters and the corpus version.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal, Protocol

from app.cache import LRUCache
from app.retrieval.base import DensePart, Hit, LexicalIndex, chunk_of, pool_max
from app.retrieval.evidence import Evidence
from app.retrieval.filters import SearchFilters
from app.retrieval.fusion import RRF, Fused, Fusion, default_fusion
from app.retrieval.lexical import terms
from app.retrieval.rerank import Reranker
from app.text.korean import morphemes

Mode = Literal["hybrid", "dense", "lexical"]


class EvidenceSource(Protocol):
    """Turns chunk ids into Evidence (text, source, metadata) and knows its version."""

    def evidence(self, ids: Sequence[str]) -> Mapping[str, Evidence]: ...

    def refresh(self, force: bool = False) -> bool: ...

    def version(self) -> object: ...


class HybridRetriever:
    def __init__(
        self,
        dense: DensePart | None,
        lexical: LexicalIndex | None,
        source: EvidenceSource,
        fusion: Fusion | None = None,
        *,
        group_by: str | None = None,
        depth: int = 50,
        tokenize: Callable[[str], list[str]] | None = None,
        reranker: Reranker | None = None,
        cache_size: int = 256,
    ) -> None:
        self.dense, self.lexical, self.source = dense, lexical, source
        self.fusion = fusion or default_fusion()
        self.group_by, self.depth = group_by, depth
        self.tokenize = tokenize or (lambda q: terms(morphemes(q)))
        # the query's words (no pairs), for the fusion's term-share gate; a custom tokenizer's
        # terms stand for themselves
        self.words: Callable[[str], list[str]] = morphemes if tokenize is None else tokenize
        self.reranker = reranker
        self.cache: LRUCache[list[Evidence]] = LRUCache(cache_size)

    # -- the parts -----------------------------------------------------------------------------
    def _dense_hits(self, text: str, filters: SearchFilters | None) -> list[Hit]:
        if self.dense is None:
            return []
        # several chunks of one parent may crowd the list: fetch more before pooling
        n = self.depth * (3 if self.group_by else 1)
        return pool_max(self.dense.search(text, n, filters), self.group_by)

    def _lexical_hits(self, tokens: list[str], filters: SearchFilters | None) -> list[Hit]:
        if self.lexical is None or not tokens:
            return []
        n = self.depth * (3 if self.group_by else 1)
        return pool_max(self.lexical.search(tokens, n, filters), self.group_by)

    def runs(
        self, query: str, filters: SearchFilters | None = None, mode: Mode = "hybrid", hyde_passage: str | None = None
    ) -> tuple[dict[str, list[Hit]], dict[str, float]]:
        """Each part's ranked, pooled hits, and per-part score ceilings for this query."""
        self.source.refresh()  # registers new user words before the query is tokenized
        runs: dict[str, list[Hit]] = {}
        ceilings: dict[str, float] = {}
        if mode in ("hybrid", "dense"):
            runs["dense"] = self._dense_hits(hyde_passage or query, filters)[: self.depth]
        if mode in ("hybrid", "lexical"):
            tokens = self.tokenize(query)
            lexical = self._lexical_hits(tokens, filters)[: self.depth]
            ceiling = getattr(self.lexical, "ceiling", None)
            if ceiling is not None and tokens:
                ceilings["lexical"] = ceiling(tokens)
            # the share of the query words' IDF that the best lexical match contains: the
            # fusion's gate (app/retrieval/fusion.py, AgreementFusion) reads it from the top hit
            share = getattr(self.lexical, "idf_share", None)
            if share is not None and lexical:
                top = lexical[0]
                idf_share = share(self.words(query), chunk_of(top))
                lexical[0] = Hit(top.id, top.score, top.rank, {**top.meta, "idf_share": idf_share})
            runs["lexical"] = lexical
        return runs, ceilings

    def _fuse(self, runs: dict[str, list[Hit]], ceilings: dict[str, float], k: int, mode: Mode) -> list[Fused]:
        if mode != "hybrid":
            (name, hits), = runs.items()
            return [Fused(h.id, h.score, {name: h}) for h in hits[:k]]
        return self.fusion.fuse(runs, k, ceilings)

    # -- public API ----------------------------------------------------------------------------
    def search(
        self,
        query: str,
        k: int = 8,
        filters: SearchFilters | None = None,
        *,
        mode: Mode = "hybrid",
        hyde_passage: str | None = None,
    ) -> list[Evidence]:
        """The ``k`` best chunks for ``query`` under ``filters``, best first, each with both
        parts' ranks and scores and the fused score. ``mode`` runs one part alone;
        ``hyde_passage`` (a hypothetical answer written by an LLM) replaces the query on the
        dense side only."""
        if not query.strip():
            return []
        key = (query, k, filters.model_dump_json() if filters else "", mode, hyde_passage, self.source.version())
        cached = self.cache.get(key)
        if cached is not None:
            return [e.model_copy() for e in cached]
        runs, ceilings = self.runs(query, filters, mode, hyde_passage)
        fused = self._fuse(runs, ceilings, max(k, self._rerank_pool(k)), mode)
        out = self._evidence(fused)
        if self.reranker is not None and out:
            out = self.reranker.rerank(query, out)
        out = out[:k]
        self.cache.put((query, k, filters.model_dump_json() if filters else "", mode, hyde_passage, self.source.version()), out)
        return [e.model_copy() for e in out]

    def search_many(
        self, queries: Sequence[str], k: int = 8, filters: SearchFilters | None = None, *, mode: Mode = "hybrid"
    ) -> list[Evidence]:
        """Multi-query: search each rewrite, fuse the result lists by RRF (a document several
        rewrites agree on rises), keep each document's best per-part ranks."""
        queries = [q for q in dict.fromkeys(queries) if q.strip()]
        if len(queries) <= 1:
            return self.search(queries[0], k, filters, mode=mode) if queries else []
        lists = {f"q{i}": self.search(q, max(k, self.depth // 2), filters, mode=mode) for i, q in enumerate(queries)}
        runs = {
            name: [Hit(self._unit(e), e.score, r + 1) for r, e in enumerate(evs)] for name, evs in lists.items()
        }
        best: dict[str, Evidence] = {}
        for evs in lists.values():
            for e in evs:
                u = self._unit(e)
                if u not in best or e.score > best[u].score:
                    best[u] = e
        out = []
        for f in RRF(k=60).fuse(runs, k):
            e = best[f.id].model_copy()
            e.score = f.score
            out.append(e)
        return out

    # -- helpers -------------------------------------------------------------------------------
    def _rerank_pool(self, k: int) -> int:
        return 0 if self.reranker is None else max(k, self.reranker.pool)

    def _unit(self, e: Evidence) -> str:
        if self.group_by == "finding_id":
            return e.finding_id or e.chunk_id
        if self.group_by == "report_id":
            return e.report_id or e.chunk_id
        return e.chunk_id

    def _evidence(self, fused: list[Fused]) -> list[Evidence]:
        # the representative chunk of a pooled unit: the part hit with the better rank
        chosen = {f.id: chunk_of(min(f.parts.values(), key=lambda h: h.rank)) for f in fused}
        docs = self.source.evidence(list(chosen.values()))
        out: list[Evidence] = []
        for f in fused:
            ev = docs.get(chosen[f.id])
            if ev is None:
                continue
            ev = ev.model_copy()
            d, lx = f.parts.get("dense"), f.parts.get("lexical")
            ev.dense_rank, ev.dense_score = (d.rank, d.score) if d else (None, None)
            ev.lexical_rank, ev.lexical_score = (lx.rank, lx.score) if lx else (None, None)
            ev.score = f.score
            out.append(ev)
        return out
