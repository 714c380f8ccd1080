import pytest

from app.retrieval.base import Hit, pool_max
from app.retrieval.corpus import IndexedChunk, MemoryCorpus
from app.retrieval.fusion import RRF, AgreementFusion, CoverageFusion, default_fusion, dense_deficit
from app.retrieval.hybrid import HybridRetriever
from app.retrieval.lexical import BM25Index, terms
from app.text.korean import morphemes, morphemes_batch


def _hits(*pairs):
    return [Hit(i, s, r + 1) for r, (i, s) in enumerate(pairs)]


def test_a_part_that_matched_nothing_gets_no_vote():
    dense = _hits(("d1", 0.9), ("d2", 0.8), ("d3", 0.7))
    for fusion in (AgreementFusion(), CoverageFusion(), RRF()):
        fused = fusion.fuse({"dense": dense, "lexical": []}, 3, {"lexical": 10.0})
        assert [f.id for f in fused] == ["d1", "d2", "d3"]
        assert all("lexical" not in f.parts for f in fused)


def test_keyword_question_follows_lexical_and_dense_breaks_near_ties():
    lexical = _hits(("a", 10.0), ("b", 9.8), ("c", 4.0))
    dense = _hits(("b", 0.90), ("c", 0.89), ("a", 0.70))
    # the best lexical match covers the whole query (10 of a ceiling of 10): lexical leads,
    # but a and b are a near-tie, and dense prefers b
    fused = CoverageFusion().fuse({"lexical": lexical, "dense": dense}, 3, {"lexical": 10.0})
    assert [f.id for f in fused][:2] == ["b", "a"]
    # a clear lexical lead is not overturned by the dense vote
    clear = _hits(("a", 10.0), ("b", 5.0))
    fused = CoverageFusion().fuse({"lexical": clear, "dense": dense}, 3, {"lexical": 10.0})
    assert fused[0].id == "a"


def test_low_coverage_hands_the_order_to_dense():
    lexical = _hits(("a", 1.0), ("b", 0.5))
    dense = _hits(("b", 0.9), ("c", 0.85), ("a", 0.6))
    # the best lexical match covers 5% of the query (a paraphrase): dense order wins
    fused = CoverageFusion().fuse({"lexical": lexical, "dense": dense}, 3, {"lexical": 20.0})
    assert [f.id for f in fused] == ["b", "c", "a"]
    assert fused[0].parts["lexical"].rank == 2 and fused[0].parts["dense"].rank == 1


def test_fused_hits_keep_each_parts_rank_and_score():
    fused = RRF(k=60).fuse({"lexical": _hits(("a", 3.0)), "dense": _hits(("b", 0.9), ("a", 0.8))}, 5)
    a = next(f for f in fused if f.id == "a")
    assert a.parts["lexical"].rank == 1 and a.parts["dense"].rank == 2
    assert a.score > next(f for f in fused if f.id == "b").score


def test_pool_max_keeps_the_best_chunk_per_parent():
    hits = [Hit("c1", 0.5, 1, {"finding_id": "F1"}), Hit("c2", 0.9, 2, {"finding_id": "F1"}), Hit("c3", 0.7, 3, {"finding_id": ""})]
    pooled = pool_max(hits, "finding_id")
    assert [(h.id, h.meta["chunk_id"], h.rank) for h in pooled] == [("F1", "c2", 1), ("c3", "c3", 2)]
    assert pool_max(hits, None) == hits


def _top_with_share(hits, share):
    """The lexical list with ``idf_share`` on its top hit, as ``HybridRetriever.runs`` sets it."""
    top = hits[0]
    return [Hit(top.id, top.score, top.rank, {"idf_share": share}), *hits[1:]]


def test_default_fusion_is_the_agreement_fusion():
    assert isinstance(default_fusion(), AgreementFusion)


def test_a_lexical_match_sharing_only_generic_words_hands_the_order_to_dense():
    # BM25's coverage is 0.5 (10 of a ceiling of 20): CoverageFusion trusts the lexical top
    lexical = _hits(("a", 10.0), ("b", 8.0))
    dense = _hits(("x", 0.90), ("y", 0.89), ("a", 0.80), ("z", 0.70))
    runs = {"lexical": _top_with_share(lexical, 0.15), "dense": dense}
    assert CoverageFusion().fuse(runs, 4, {"lexical": 20.0})[0].id == "a"
    # ... but a holds only 15% of the query words' IDF (a paraphrase's generic words): dense leads
    assert AgreementFusion().fuse(runs, 4, {"lexical": 20.0})[0].id == "x"
    # the same lists when the match holds the query's rare words too: lexical leads
    runs = {"lexical": _top_with_share(lexical, 0.9), "dense": dense}
    assert AgreementFusion().fuse(runs, 4, {"lexical": 20.0})[0].id == "a"


def test_dense_disagreement_cuts_the_lexical_weight():
    # the lexical top "a" holds every query word, "b" is a near-tie
    lexical = _top_with_share(_hits(("a", 10.0), ("b", 9.5)), 1.0)
    # dense ranks a second, just under b: agreement, lexical order stands (bai-019's shape)
    agree = _hits(("b", 0.90), ("a", 0.89), ("x", 0.80), ("z", 0.70))
    assert [f.id for f in AgreementFusion().fuse({"lexical": lexical, "dense": agree}, 2)] == ["a", "b"]
    # dense never returned a: the lexical weight is halved and dense's favourite wins (bai-082's)
    disagree = _hits(("b", 0.90), ("x", 0.85), ("y", 0.80), ("z", 0.70))
    assert AgreementFusion().fuse({"lexical": lexical, "dense": disagree}, 2)[0].id == "b"


def test_dense_disagreement_never_removes_the_lexical_say():
    # an exact-match question (an id, a rare name) that only the lexical index finds
    lexical = _top_with_share(_hits(("a", 10.0)), 1.0)
    dense = _hits(("x", 0.9), ("y", 0.8), ("z", 0.7))
    fused = AgreementFusion().fuse({"lexical": lexical, "dense": dense}, 4)
    assert [f.id for f in fused][:2] == ["x", "a"]
    without_floor = AgreementFusion(floor=0.0).fuse({"lexical": lexical, "dense": dense}, 4)
    assert without_floor[-1].id == "a"


def test_dense_deficit_is_the_lexical_tops_place_on_the_dense_scale():
    dense = _hits(("x", 0.9), ("y", 0.8), ("z", 0.7))
    assert dense_deficit(_hits(("x", 5.0)), dense) == 0.0
    assert dense_deficit(_hits(("y", 5.0)), dense) == pytest.approx(0.5)
    assert dense_deficit(_hits(("z", 5.0)), dense) == 1.0
    assert dense_deficit(_hits(("q", 5.0)), dense) == 1.0  # dense did not return it
    assert dense_deficit(_hits(("q", 5.0)), []) == 0.0  # no dense part: no evidence
    assert dense_deficit([], dense) == 0.0


def test_without_idf_share_the_gate_falls_back_to_bm25_coverage():
    lexical = _hits(("a", 10.0), ("b", 9.0))
    dense = _hits(("b", 0.9), ("a", 0.89), ("z", 0.7))
    fusion = AgreementFusion()
    assert fusion.gate({"lexical": lexical, "dense": dense}, 10.0) == 1.0
    assert fusion.gate({"lexical": lexical, "dense": dense}, 100.0) == pytest.approx(0.1 / 0.6)
    assert fusion.gate({"lexical": [], "dense": dense}, 10.0) == 0.0


def test_idf_share_counts_the_query_words_a_document_holds():
    rows = [
        ("x", ["섬", "비행장", "이용객", "추정"]),
        ("y", ["이용객", "수", "일"]),
        ("z", ["수", "일", "사업"]),
        ("w", ["사업", "대상"]),
    ]
    idx = BM25Index.build((i, terms(t), {}) for i, t in rows)
    query = ["섬", "비행장", "이용객", "수"]
    assert idx.idf_share(query, "x") > idx.idf_share(query, "y") > idx.idf_share(query, "z") > 0
    assert idx.idf_share(query, "w") == 0.0 and idx.idf_share(query, "nope") == 0.0
    assert idx.idf_share(["섬", "비행장"], "x") == pytest.approx(1.0)
    # a word no document has counts with the largest IDF, as in ``ceiling``
    assert idx.idf_share(["섬", "비행장", "없는말"], "x") < 0.7


def test_hybrid_runs_put_the_idf_share_on_the_lexical_top():
    texts = {"a": "섬 지역 비행장 이용객 수를 추정했다", "b": "사업 대상 수를 정했다"}
    docs = [IndexedChunk(i, t, {}) for i, t in texts.items()]
    corpus = MemoryCorpus(docs, morphemes_batch(list(texts.values())))
    retriever = HybridRetriever(None, corpus, corpus)
    query = "비행장 이용객 수를 부풀린 일"
    runs, ceilings = retriever.runs(query)
    top = runs["lexical"][0]
    assert top.id == "a" and ceilings["lexical"] > 0
    assert top.meta["idf_share"] == pytest.approx(corpus.idf_share(morphemes(query), "a"))
    assert 0 < top.meta["idf_share"] < 1
    assert "idf_share" not in runs["lexical"][1].meta
