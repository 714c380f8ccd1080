"""End-to-end retrieval evaluation on real data (slow: indexing + ~200 queries per set)."""

import pytest

from app.eval.datasets import load_dataset
from app.eval.retrieval import evaluate, passage_retriever, report_retriever
from app.retrieval.filters import SearchFilters
from tests.conftest import AUTORAG, EMBED_CACHE, ROOT, require_shared

pytestmark = pytest.mark.slow


def test_autorag_hybrid_meets_the_bar_and_beats_its_parts():
    ds = load_dataset(AUTORAG)
    with passage_retriever(ds, EMBED_CACHE) as retriever:
        res = {r.method: r.metrics for r in evaluate(retriever, ds, ["bm25", "dense", "hybrid"])}
    hybrid = res["hybrid"]
    # issue 3: MRR@10 >= 0.94, recall@5 >= 0.99, and not below either part on either figure.
    # Measured: bm25 0.947 / 1.000, dense 0.776 / 0.965, hybrid 0.957 / 1.000
    assert hybrid["mrr@10"] >= 0.94 and hybrid["recall@5"] >= 0.99, res
    for part in ("bm25", "dense"):
        assert hybrid["mrr@10"] >= res[part]["mrr@10"], res
        assert hybrid["recall@5"] >= res[part]["recall@5"], res


@pytest.fixture(scope="module")
def audit():
    require_shared()
    ds = load_dataset(ROOT / "data" / "eval" / "bai-audit")
    with report_retriever(ds, EMBED_CACHE) as retriever:
        yield ds, retriever


def test_audit_questions_gold_ids_exist_and_hybrid_beats_both_parts(audit):
    ds, retriever = audit
    with retriever.source.sessions() as s:  # type: ignore[attr-defined]
        from sqlalchemy import select

        from app.db.models import Finding

        known = set(s.scalars(select(Finding.id)))
    assert {g for q in ds.questions for g in q.gold_ids} <= known
    res = {r.method: r.metrics for r in evaluate(retriever, ds, ["bm25", "dense", "hybrid"])}
    hybrid, lexical, dense = res["hybrid"], res["bm25"], res["dense"]
    # issue 3: on this set the hybrid beats both of its parts on MRR@10. Measured: bm25 0.793,
    # dense 0.928, hybrid 0.932 (AgreementFusion; the margin over dense is one question, see
    # app/retrieval/fusion.py)
    assert hybrid["mrr@10"] > lexical["mrr@10"], res
    assert hybrid["mrr@10"] > dense["mrr@10"], res
    assert hybrid["mrr@10"] > lexical["mrr@10"] + 0.05, res
    assert hybrid["recall@5"] > lexical["recall@5"], res


FILTERS = [
    SearchFilters(institutions=["해양수산부"]),
    SearchFilters(dispositions=["징계"]),
    SearchFilters(year_from=2025, year_to=2025, dispositions=["통보"]),
    SearchFilters(institutions=["곡성군"], dispositions=["주의"]),
]


def _honours(f: SearchFilters, e) -> bool:  # noqa: ANN001
    return (
        (not f.institutions or set(f.institutions) & set(e.institutions))
        and (not f.dispositions or set(f.dispositions) & set(e.dispositions))
        and (f.year_from is None or (e.year or 0) >= f.year_from)
        and (f.year_to is None or (e.year or 0) <= f.year_to)
    )


def test_filters_are_honoured_in_every_hit(audit):
    ds, retriever = audit
    questions = [q.question for q in ds.questions[::5]]
    for f in FILTERS:
        returned = 0
        for q in questions:
            for mode in ("hybrid", "lexical"):
                hits = retriever.search(q, 8, f, mode=mode)
                returned += len(hits)
                assert all(_honours(f, e) for e in hits), (f, q, [(e.institutions, e.dispositions, e.year) for e in hits])
        assert returned > 0, f
    for q in ds.questions:
        if q.filters:
            hits = retriever.search(q.question, 8, q.filters)
            assert hits and all(_honours(q.filters, e) for e in hits), q.id
    assert retriever.search("해양수산부 선박", 8, SearchFilters(year_to=2020)) == []
