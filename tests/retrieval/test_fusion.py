from app.retrieval.base import Hit, pool_max
from app.retrieval.fusion import RRF, CoverageFusion


def _hits(*pairs):
    return [Hit(i, s, r + 1) for r, (i, s) in enumerate(pairs)]


def test_a_part_that_matched_nothing_gets_no_vote():
    dense = _hits(("d1", 0.9), ("d2", 0.8), ("d3", 0.7))
    for fusion in (CoverageFusion(), RRF()):
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
