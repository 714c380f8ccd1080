"""retrieve_sop: the audit procedures and criteria (SOP clauses) that apply to the question."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, step
from graph.ports import GraphServices
from graph.state import AuraState


def build(services: GraphServices):
    @step("retrieve_sop")
    def retrieve_sop(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        docs = state.get("documents") or []
        dispositions = sorted({d for doc in docs for d in doc.get("dispositions") or []})
        query = " ".join([state["question"], *dispositions])
        clauses = services.search_sop(query, runtime.context.sop_k)
        return {"sop": clauses}, StepInfo(", ".join(c["id"] for c in clauses) or "no clauses")

    return retrieve_sop
