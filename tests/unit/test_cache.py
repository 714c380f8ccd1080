from app.cache import LRUCache


def test_lru_evicts_the_least_recently_used_and_counts():
    c: LRUCache[int] = LRUCache(2)
    c.put("a", 1)
    c.put("b", 2)
    assert c.get("a") == 1  # a is now the most recent
    c.put("c", 3)
    assert "b" not in c and c.get("a") == 1 and c.get("c") == 3
    assert c.get("b") is None
    assert (c.hits, c.misses) == (3, 1)


def test_size_zero_caches_nothing():
    c: LRUCache[int] = LRUCache(0)
    c.put("a", 1)
    assert c.get("a") is None and len(c) == 0


def test_eviction_callback_runs_for_pushed_out_values_only():
    """The page renderer closes a PDF when a newer one pushes it out; ``clear`` hands back what
    was held (the caller closes it) without running the callback a second time."""
    closed: list[int] = []
    cache: LRUCache[int] = LRUCache(2, on_evict=closed.append)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache.put("c", 3)
    assert closed == [2] and "b" not in cache
    assert sorted(cache.clear()) == [1, 3]
    assert closed == [2] and len(cache) == 0
    cache.put("d", 4)
    assert cache.get("d") == 4
