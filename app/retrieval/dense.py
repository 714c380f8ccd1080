"""Dense search: the query embedding against chunk vectors in Milvus, filters applied in Milvus.

Query vectors come from the embedder's own LRU (``CachedEmbedder``), so a repeated or
multi-query rewrite is embedded once.
"""

from __future__ import annotations

import numpy as np

from app.embeddings.interface import Embedder
from app.retrieval.base import Hit
from app.retrieval.filters import SearchFilters
from app.vectorstore.milvus import MilvusVectorStore


class DenseRetriever:
    def __init__(self, embedder: Embedder, store: MilvusVectorStore) -> None:
        self.embedder, self.store = embedder, store

    def embed(self, query: str) -> np.ndarray:
        return self.embedder.embed_queries([query])[0]

    def search(self, query: str, k: int, filters: SearchFilters | None = None) -> list[Hit]:
        return self.search_vector(self.embed(query), k, filters)

    def search_vector(self, vector: np.ndarray, k: int, filters: SearchFilters | None = None) -> list[Hit]:
        hits = self.store.search(vector, k, filters if filters and not filters.is_empty() else None)
        return [Hit(h.id, h.score, i + 1, h.meta) for i, h in enumerate(hits)]
