"""grade_documents (CRAG): keep the passages whose finding answers the question, all graded at
once. What is rejected is set aside (best passage per finding) so a declining answer can name
the nearest findings as references. A question about what the store does not cover (``scope_gaps``:
years, fiscal years, organisations, a subject a follow-up asks the case shown about in words no report
uses) has nothing relevant and is not rewritten: no query can fix it."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, reworkable, standalone, step
from graph.ports import GraphServices
from graph.state import AuraState, Doc

SET_ASIDE = 3
"""Nearest findings kept as references for a declining answer."""


def set_aside(rejected: list[Doc]) -> list[Doc]:
    out: dict[str, Doc] = {}
    for d in rejected:
        key = d.get("finding_id") or d["chunk_id"]
        if key not in out and len(out) < SET_ASIDE:
            out[key] = d
    return list(out.values())


def build(services: GraphServices):
    @step("grade_documents")
    def grade_documents(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        docs = state.get("documents") or []
        gaps = state.get("scope_gaps") or []
        # no query can fix a scope the store does not cover; the manual is searched by the question itself
        can_rewrite = (state.get("rewrite_count") or 0) < runtime.context.max_rewrites and not gaps and reworkable(state)
        if not docs:
            return {"documents": [], "needs_rewrite": can_rewrite}, StepInfo("nothing to grade")
        if gaps:
            return ({"documents": [], "set_aside": set_aside(docs), "needs_rewrite": False},
                    StepInfo(f"0 of {len(docs)} passages relevant: the reports do not cover {', '.join(gaps)}"))
        question, asked = standalone(state), state["question"]
        decided = services.policies.grade(question, docs, asked if asked != question else "")
        by_index = {g.index: g for g in decided.value.grades}
        kept, rejected = [], []
        for i, doc in enumerate(docs, start=1):
            grade = by_index.get(i)
            if grade is not None and grade.relevant:
                kept.append({**doc, "relevance": round(grade.score, 3)})
            else:
                rejected.append(doc)
        needs_rewrite = not kept and can_rewrite
        then = "; rewriting the query" if needs_rewrite else ("; rewrite cap reached" if not kept else "")
        update: dict[str, Any] = {"documents": kept, "needs_rewrite": needs_rewrite}
        if not kept:
            update["set_aside"] = set_aside(rejected)
        findings = len({d.get("finding_id") for d in kept if d.get("finding_id")})
        return update, StepInfo(f"{len(kept)} of {len(docs)} passages relevant ({findings} findings){then}", decided)

    return grade_documents
