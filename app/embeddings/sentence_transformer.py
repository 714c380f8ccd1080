"""Any sentence-transformers model from a local path (or a hub id where a hub is reachable),
e.g. bge-m3 for deployments that can download weights."""

from __future__ import annotations

import numpy as np

from app.embeddings.interface import normalise


class SentenceTransformerEmbedder:
    """A sentence-transformers model. E5-style models want prefixes; pass them if so."""

    def __init__(
        self, model: str, batch_size: int = 32, query_prefix: str = "", passage_prefix: str = ""
    ) -> None:
        # Imported on use: sentence-transformers pulls in torch (seconds, hundreds of MB).
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
        return normalise(out)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._run([self._qp + t for t in texts])

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._run([self._pp + t for t in texts])
