"""grade_documents (CRAG): keep the passages that help answer the question, all graded at once."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, step
from graph.ports import GraphServices
from graph.state import AuraState


def build(services: GraphServices):
    @step("grade_documents")
    def grade_documents(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        docs = state.get("documents") or []
        can_rewrite = (state.get("rewrite_count") or 0) < runtime.context.max_rewrites
        if not docs:
            return {"documents": [], "needs_rewrite": can_rewrite}, StepInfo("nothing to grade")
        decided = services.policies.grade(state["question"], docs)
        by_index = {g.index: g for g in decided.value.grades}
        kept = []
        for i, doc in enumerate(docs, start=1):
            grade = by_index.get(i)
            if grade is not None and grade.relevant:
                kept.append({**doc, "relevance": round(grade.score, 3)})
        needs_rewrite = not kept and can_rewrite
        then = "; rewriting the query" if needs_rewrite else ("; rewrite cap reached" if not kept else "")
        return {"documents": kept, "needs_rewrite": needs_rewrite}, StepInfo(f"{len(kept)} of {len(docs)} passages relevant{then}", decided)

    return grade_documents
