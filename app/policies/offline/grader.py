"""Offline CRAG grading: a passage is relevant when it shares enough of the question's key
terms, or when the dense retriever found it very similar, or when the user pointed at it.

Relevance = max(term coverage, dense similarity rescaled). Thresholds were chosen on the
audit-report question set (data/eval); see tests/policies for the behaviour they encode.
"""

from __future__ import annotations

from app.policies.offline.lexicon import coverage, key_terms
from graph.schemas import DocumentGrade, GradeBatch
from graph.state import Doc

COVERAGE_MIN = 0.34
"""Share of the question's key terms a passage (with its heading) must contain."""
DENSE_FLOOR, DENSE_FULL = 0.80, 0.90
"""e5 cosine similarities: below the floor counts 0, at 'full' counts 1."""
RELEVANT_MIN = 0.34


def grade(question: str, docs: list[Doc]) -> GradeBatch:
    q_terms = key_terms(question)
    grades = []
    for i, d in enumerate(docs, start=1):
        if d.get("score", 0.0) >= 1.0 and d.get("dense_score") is None and d.get("lexical_score") is None:
            grades.append(DocumentGrade(reasoning="the user referred to this finding", index=i, relevant=True, score=1.0))
            continue
        cov = coverage(q_terms, key_terms(f"{d.get('heading', '')}\n{d['text']}"))
        dense = d.get("dense_score") or 0.0
        dense_part = min(1.0, max(0.0, (dense - DENSE_FLOOR) / (DENSE_FULL - DENSE_FLOOR)))
        score = max(cov, dense_part)
        relevant = score >= RELEVANT_MIN and (cov >= COVERAGE_MIN or dense_part >= RELEVANT_MIN)
        grades.append(
            DocumentGrade(
                reasoning=f"key-term coverage {cov:.2f}, dense {dense:.2f}",
                index=i,
                relevant=relevant,
                score=round(score, 3),
            )
        )
    return GradeBatch(grades=grades)
