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
