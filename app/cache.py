"""The one in-memory cache helper: a thread-safe LRU (``cachetools.LRUCache`` behind a lock)
with hit counts and an optional eviction callback. Used for repeated searches (keys include the
index version, so a new ingest never serves stale hits), query embeddings, and the cited-page
renderer's open PDFs (closed when evicted) and page texts."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

import cachetools

V = TypeVar("V")


class _Evicting(cachetools.LRUCache):
    def __init__(self, maxsize: int, on_evict: Callable[[object], None] | None) -> None:
        super().__init__(maxsize)
        self.on_evict = on_evict

    def popitem(self) -> tuple[Hashable, object]:
        key, value = super().popitem()
        if self.on_evict is not None:
            self.on_evict(value)
        return key, value


class LRUCache(Generic[V]):
    def __init__(self, maxsize: int = 256, on_evict: Callable[[V], None] | None = None) -> None:
        """``on_evict(value)`` runs for each value pushed out by a newer one (not on ``clear``)."""
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._data: _Evicting = _Evicting(max(maxsize, 1), on_evict)
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

    def clear(self) -> list[V]:
        """Empty the cache; returns what it held (e.g. to close it)."""
        with self._lock:
            values = list(self._data.values())
            self._data = _Evicting(max(self.maxsize, 1), self._data.on_evict)  # MutableMapping.clear would evict
            return values

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._data
