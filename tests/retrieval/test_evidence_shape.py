"""One evidence shape: the graph's ``Doc`` (JSON in checkpointed state) is the retrievers'
``Evidence`` dumped, plus the grader's ``relevance``; neither can gain a field alone."""

from __future__ import annotations

from typing import get_type_hints

from app.retrieval.evidence import Evidence
from graph.state import Doc


def test_doc_is_evidence_plus_relevance() -> None:
    assert set(get_type_hints(Doc)) == set(Evidence.model_fields) | {"relevance"}


def test_a_dumped_evidence_is_a_doc() -> None:
    e = Evidence(chunk_id="c1", report_id="r1", section="problems", page=3, text="본문", dispositions=["주의"])
    dumped = e.model_dump()
    assert set(dumped) == set(get_type_hints(Doc)) - {"relevance"}
    assert Evidence(**dumped) == e
