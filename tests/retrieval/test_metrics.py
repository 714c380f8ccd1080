import math

from app.eval.metrics import dedupe, mrr_at, ndcg_at, percentile, recall_at, summarize


def test_recall_mrr_ndcg_on_hand_computed_examples():
    ranked = ["x", "g1", "y", "g2"]
    gold = {"g1", "g2"}
    assert recall_at(ranked, gold, 1) == 0.0
    assert recall_at(ranked, gold, 2) == 0.5
    assert recall_at(ranked, gold, 4) == 1.0
    assert mrr_at(ranked, gold, 10) == 0.5
    assert mrr_at(ranked, gold, 1) == 0.0
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    ideal = 1 + 1 / math.log2(3)
    assert math.isclose(ndcg_at(ranked, gold, 10), dcg / ideal)
    assert ndcg_at(["g1"], {"g1"}, 10) == 1.0


def test_dedupe_counts_a_unit_once():
    assert dedupe(["F1", "F1", "F2", "F1"]) == ["F1", "F2"]


def test_summarize_and_percentile():
    s = summarize([["a"], ["x", "b"]], [{"a"}, {"b"}])
    assert s["recall@1"] == 0.5 and s["mrr@10"] == 0.75 and s["recall@5"] == 1.0
    assert percentile([1, 2, 3, 4], 50) == 2.5 and percentile([], 95) == 0.0
