"""The one in-memory cache helper: a thread-safe LRU (``cachetools.LRUCache`` behind a lock)
with hit counts. Used for repeated searches (keys include the index version, so a new ingest
never serves stale hits) and for query embeddings."""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Generic, TypeVar

import cachetools

V = TypeVar("V")


class LRUCache(Generic[V]):
    def __init__(self, maxsize: int = 256) -> None:
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._data: cachetools.LRUCache[Hashable, V] = cachetools.LRUCache(max(maxsize, 1))
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._data.get(key)
            if value is None:
                self.misses += 1
            else:
                self.hits += 1
            return value

    def put(self, key: Hashable, value: V) -> None:
        if self.maxsize <= 0:
            return
        with self._lock:
            self._data[key] = value

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data
