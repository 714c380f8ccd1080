"""The reranker slot: a cross-encoder rescoring the fused top candidates.

Offline there is no usable cross-encoder (no model ships in a wheel), so the default is none.
With ``AURA_RERANKER_MODEL=<local path>`` (Settings.reranker_model) a sentence-transformers ``CrossEncoder``
(e.g. a Korean bge-reranker) rescores the top ``pool`` fused results.
"""

from __future__ import annotations

from typing import Protocol

from app.retrieval.evidence import Evidence


class Reranker(Protocol):
    pool: int
    """How many fused candidates to rescore."""

    def rerank(self, query: str, evidence: list[Evidence]) -> list[Evidence]: ...


class CrossEncoderReranker:
    """sentence-transformers CrossEncoder over (query, heading + text) pairs."""

    def __init__(self, model: str, pool: int = 30, batch_size: int = 16) -> None:
        # Imported on use: torch loads only when a reranker is configured.
        from sentence_transformers import CrossEncoder

        self._model = CrossEncoder(model, device="cpu")
        self.pool, self._batch = pool, batch_size

    def rerank(self, query: str, evidence: list[Evidence]) -> list[Evidence]:
        head, tail = evidence[: self.pool], evidence[self.pool :]
        if not head:
            return evidence
        pairs = [(query, f"{e.heading}\n{e.text}" if e.heading else e.text) for e in head]
        scores = self._model.predict(pairs, batch_size=self._batch, show_progress_bar=False)
        rescored = []
        for e, s in zip(head, scores, strict=True):
            e = e.model_copy()
            e.score = float(s)
            rescored.append(e)
        rescored.sort(key=lambda e: -e.score)
        return rescored + tail


def make_reranker(model: str | None, pool: int = 30) -> Reranker | None:
    """A CrossEncoder when a model is given (``Settings.reranker_model``), else None (the
    offline default)."""
    return CrossEncoderReranker(model, pool) if model else None
