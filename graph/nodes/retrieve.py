"""retrieve: hybrid search (dense + Korean BM25, fused) with the selected filters. After a
rewrite, the original and the latest query are searched together (multi-query fusion). A question
about the audit manual itself (``source``) is searched in the manual's clauses instead."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, standalone, step
from graph.ports import GraphServices
from graph.state import AuraState


def build(services: GraphServices):
    @step("retrieve")
    def retrieve(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        k = runtime.context.top_k
        filters = state.get("filters") or {}
        rewrites = state.get("rewrites") or []
        if state.get("source") == "manual":  # a question about the audit manual: its clauses are the evidence
            docs = services.search_manual(standalone(state), k)
            runtime.stream_writer({"event": "evidence", "stage": "retrieved", "items": [_brief(d) for d in docs]})
            return {"documents": docs}, StepInfo(f"{len(docs)} manual clauses" + (f"; top: {docs[0]['heading']}" if docs else ""))
        if rewrites:
            queries = list(dict.fromkeys([standalone(state), rewrites[-1]]))
            docs = services.search_many(queries, k, filters)
        else:
            docs = services.search(state.get("query") or standalone(state), k, filters)
        runtime.stream_writer({"event": "evidence", "stage": "retrieved", "items": [_brief(d) for d in docs]})
        top = f"; top: {docs[0]['report_title']} p.{docs[0]['page']}" if docs else ""
        return {"documents": docs}, StepInfo(f"{len(docs)} passages{top}")

    return retrieve


def _brief(d: dict[str, Any]) -> dict[str, Any]:
    return {k: d.get(k) for k in ("chunk_id", "report_id", "finding_id", "section", "page", "score")}
