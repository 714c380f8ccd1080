"""retrieve_sop: the audit procedures and criteria (SOP clauses) that apply: to the findings the
answer is given (kept by grading; the first one's dispositions come first), to the question when
only report-level passages were kept, none when nothing was (the turn declines)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, findings_of, standalone, step
from graph.ports import GraphServices
from graph.state import AuraState


def build(services: GraphServices):
    @step("retrieve_sop")
    def retrieve_sop(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        docs = state.get("documents") or []
        if state.get("source") == "manual":  # the manual's clauses are the evidence itself
            return {"sop": []}, StepInfo("no clauses: the evidence is the manual")
        if not docs:  # the turn declines: no case, so no criteria of one (the question's words matched hubs: '표지와 목차')
            return {"sop": []}, StepInfo("no clauses: nothing relevant was found")
        titles, dispositions = findings_of(docs)
        if titles:  # the criteria of the findings the answer presents, not whatever the question's words match
            clauses = services.sop_for_findings(standalone(state), titles, dispositions, runtime.context.sop_k,
                                                state.get("query") or standalone(state))
        else:  # report-level passages only
            clauses = services.search_sop(standalone(state), runtime.context.sop_k)
        return {"sop": clauses}, StepInfo(", ".join(c["id"] for c in clauses) or "no clauses")

    return retrieve_sop
