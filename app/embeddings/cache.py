"""Caching around an Embedder.

Passages: a small SQLite key-value file keyed by (model name, sha256 of the text), so
re-ingesting, re-indexing and test runs reuse vectors instead of recomputing them (embedding
the 12 real reports from scratch takes minutes on two cores). Queries: an in-memory LRU
(``app.cache``).
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

import numpy as np

from app.cache import LRUCache
from app.embeddings.interface import Embedder


def text_key(text: str) -> str:
    """The content address of a passage: sha256 of its UTF-8 text (the model is the other key)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CachedEmbedder:
    def __init__(self, inner: Embedder, cache_path: Path | None, query_cache_size: int = 1024) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self._lock = threading.Lock()
        self._queries: LRUCache[np.ndarray] = LRUCache(query_cache_size)
        self._db: sqlite3.Connection | None = None
        if cache_path is not None:
            cache_path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(cache_path), check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vectors (model TEXT, key TEXT, vec BLOB, PRIMARY KEY (model, key))"
            )

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        missing = []
        for i, t in enumerate(texts):
            hit = self._queries.get(t)
            if hit is None:
                missing.append(i)
            else:
                out[i] = hit
        if missing:
            vecs = self.inner.embed_queries([texts[i] for i in missing])
            for i, v in zip(missing, vecs, strict=True):
                out[i] = v
                self._queries.put(texts[i], v)
        return out

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if self._db is None:
            return self.inner.embed_passages(texts)
        keys = [text_key(t) for t in texts]
        found = self._lookup(set(keys))
        todo = list({k: i for i, k in enumerate(keys) if k not in found}.values())
        if todo:
            vecs = self.inner.embed_passages([texts[i] for i in todo])
            fresh = {keys[i]: v for i, v in zip(todo, vecs, strict=True)}
            self._store(fresh)
            found.update(fresh)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.vstack([found[k] for k in keys]).astype(np.float32)

    def add_vectors(self, vectors: dict[str, np.ndarray]) -> int:
        """Insert vectors by content key, keeping entries already cached; returns how many were new."""
        if self._db is None or not vectors:
            return 0
        with self._lock:
            before = self._db.total_changes
            self._db.executemany(
                "INSERT OR IGNORE INTO vectors (model, key, vec) VALUES (?, ?, ?)",
                [(self.name, k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in vectors.items()],
            )
            self._db.commit()
            return self._db.total_changes - before

    def cached_count(self, texts: list[str]) -> int:
        keys = {text_key(t) for t in texts}
        return len(self._lookup(keys)) if self._db is not None else 0

    def _lookup(self, keys: set[str]) -> dict[str, np.ndarray]:
        assert self._db is not None
        found: dict[str, np.ndarray] = {}
        key_list = list(keys)
        with self._lock:
            for i in range(0, len(key_list), 500):
                part = key_list[i : i + 500]
                rows = self._db.execute(
                    f"SELECT key, vec FROM vectors WHERE model=? AND key IN ({','.join('?' * len(part))})",
                    [self.name, *part],
                ).fetchall()
                for key, blob in rows:
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def _store(self, vectors: dict[str, np.ndarray]) -> None:
        assert self._db is not None
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors (model, key, vec) VALUES (?, ?, ?)",
                [(self.name, k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in vectors.items()],
            )
            self._db.commit()
