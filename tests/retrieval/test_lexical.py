from app.retrieval.filters import SearchFilters
from app.retrieval.lexical import BM25Index, terms
from app.text.korean import morphemes


def _index():
    docs = {
        "a": ("수의계약을 체결하면서 계약 금액을 분할하였다", {"institutions": ["누리시"], "year": 2024, "dispositions": ["주의"]}),
        "b": ("시간외근무수당을 부당하게 지급하였다", {"institutions": ["가람군"], "year": 2025, "dispositions": ["시정"]}),
        "c": ("계약의 해지 사유를 검토하지 않았다", {"institutions": ["가람군"], "year": 2025, "dispositions": ["통보"]}),
    }
    return BM25Index.build((i, terms(morphemes(t)), m) for i, (t, m) in docs.items())


def test_particles_do_not_block_a_match():
    idx = _index()
    hits = idx.search(terms(morphemes("계약을")), 5)
    assert {h.id for h in hits} == {"a", "c"}
    assert [h.rank for h in hits] == [1, 2]
    assert all(h.score > 0 for h in hits)


def test_a_query_that_matches_nothing_returns_nothing():
    assert _index().search(terms(morphemes("항공기 운항 안전")), 5) == []
    assert _index().search([], 5) == []


def test_filters_are_honoured():
    idx = _index()
    hits = idx.search(terms(morphemes("계약 지급")), 5, SearchFilters(institutions=["가람군"]))
    assert {h.id for h in hits} == {"b", "c"}
    assert idx.search(terms(morphemes("계약")), 5, SearchFilters(year_to=2024))[0].id == "a"
    assert idx.search(terms(morphemes("계약")), 5, SearchFilters(dispositions=["시정"])) == []


def test_bigrams_reward_word_order_and_ceiling_measures_coverage():
    idx = BM25Index.build([("x", terms(["지방", "은행", "전환"]), {}), ("y", terms(["은행", "지방", "전환"]), {})])
    hits = idx.search(terms(["지방", "은행"]), 2)
    assert hits[0].id == "x" and hits[0].score > hits[1].score
    full = idx.ceiling(terms(["지방", "은행"]))
    assert full > 0 and idx.ceiling(terms(["지방", "은행", "없는말"])) > full


def test_empty_index_is_searchable():
    idx = BM25Index.build([])
    assert idx.search(["계약"], 3) == [] and len(idx) == 0
