"""Dense search in Milvus with filters, and HybridRetriever end to end on a small memory corpus."""

import numpy as np
import pytest

from app.retrieval.corpus import IndexedChunk, MemoryCorpus
from app.retrieval.dense import DenseRetriever
from app.retrieval.filters import SearchFilters
from app.retrieval.hybrid import HybridRetriever
from app.text.korean import morphemes_batch
from app.vectorstore.milvus import MilvusVectorStore

TEXTS = {
    "c1": ("수의계약 분할 발주로 경쟁입찰을 피했다", "R1", "R1-F01", 2024, ["주의"], ["누리시"]),
    "c2": ("시간외근무수당을 출장 중에 부당 지급했다", "R1", "R1-F02", 2024, ["시정"], ["누리시"]),
    "c3": ("위원회 위원의 제척 사유를 잘못 판단했다", "R2", "R2-F01", 2025, ["주의"], ["가람군"]),
    "c4": ("공중보건의사의 근무지 이탈을 방치했다", "R2", "R2-F02", 2025, ["통보", "주의"], ["가람군"]),
}


def _meta(report, finding, year, disp, inst):
    return {"report_id": report, "finding_id": finding, "section": "problems", "kind": "finding",
            "institutions": inst, "year": year, "audit_type": "기관정기감사", "dispositions": disp, "page": 1}


@pytest.fixture(scope="module")
def retriever(tmp_path_factory, embedder):
    docs = [IndexedChunk(i, t, _meta(r, f, y, d, n)) for i, (t, r, f, y, d, n) in TEXTS.items()]
    store = MilvusVectorStore(str(tmp_path_factory.mktemp("m") / "milvus.db"), "t", embedder.dim)
    store.upsert([d.id for d in docs], embedder.embed_passages([d.text for d in docs]), [dict(d.meta) for d in docs])
    corpus = MemoryCorpus(docs, morphemes_batch([d.text for d in docs]))
    yield HybridRetriever(DenseRetriever(embedder, store), corpus, corpus)
    store.close()


def test_dense_search_honours_filters(retriever):
    dense = retriever.dense
    hits = dense.search("근무지를 벗어난 의사", 4)
    assert hits[0].id == "c4" and [h.rank for h in hits] == [1, 2, 3, 4]
    only = dense.search("근무지를 벗어난 의사", 4, SearchFilters(institutions=["누리시"], year_to=2024))
    assert {h.id for h in only} <= {"c1", "c2"} and only
    assert dense.search("의사", 4, SearchFilters(dispositions=["징계"])) == []


@pytest.mark.parametrize("mode", ["hybrid", "dense", "lexical"])
def test_every_hit_honours_filters(retriever, mode):
    f = SearchFilters(institutions=["가람군"], dispositions=["주의"], year_from=2025)
    hits = retriever.search("위원 제척 판단 근무지 이탈 계약", 8, f, mode=mode)
    assert hits
    for e in hits:
        assert "가람군" in e.institutions and "주의" in e.dispositions and e.year >= 2025


def test_hybrid_evidence_carries_both_parts(retriever):
    hits = retriever.search("위원의 제척 사유", 3)
    top = hits[0]
    assert top.chunk_id == "c3" and top.finding_id == "R2-F01" and top.report_id == "R2"
    assert top.lexical_rank == 1 and top.dense_rank is not None and top.score > 0
    assert top.text.startswith("위원회")


def test_english_question_is_answered_by_dense_alone(retriever):
    hits = retriever.search("public health doctors leaving their post", 2)
    assert hits[0].chunk_id == "c4" and hits[0].lexical_rank is None


def test_repeated_searches_hit_the_cache(retriever):
    retriever.cache.clear()
    first = retriever.search("출장 중 수당", 2)
    hits_before = retriever.cache.hits
    again = retriever.search("출장 중 수당", 2)
    assert retriever.cache.hits == hits_before + 1
    assert [e.chunk_id for e in again] == [e.chunk_id for e in first]
    again[0].text = "changed"  # callers get copies
    assert retriever.search("출장 중 수당", 2)[0].text != "changed"


def test_multi_query_fuses_rewrites(retriever):
    hits = retriever.search_many(["분할 발주", "경쟁입찰 회피"], 2)
    assert hits[0].chunk_id == "c1"
    assert len({e.chunk_id for e in hits}) == len(hits)


def test_group_by_finding_returns_one_hit_per_finding(retriever):
    retriever.group_by = "finding_id"
    try:
        hits = retriever.search("주의 위원 의사 계약 수당", 4)
        assert len({e.finding_id for e in hits}) == len(hits)
    finally:
        retriever.group_by = None
        retriever.cache.clear()


def test_vectors_are_unit_length(embedder):
    v = embedder.embed_queries(["계약"])[0]
    assert np.isclose(np.linalg.norm(v), 1.0, atol=1e-3)
