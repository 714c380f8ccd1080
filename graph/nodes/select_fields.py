"""select_fields: metadata filters (institution, years, disposition, section) and the query."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, step
from graph.nodes.route import route_decision
from graph.ports import GraphServices
from graph.state import AuraState


def build(services: GraphServices):
    @step("select_fields")
    def select_fields(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        decided = services.policies.select_fields(
            state["question"], state.get("filters") or {}, state.get("retained_documents") or [], route_decision(state)
        )
        fields = decided.value
        filters = fields.model_dump(exclude={"reasoning", "search_query", "source"}, exclude_defaults=True)
        if excluded := (state.get("filters") or {}).get("exclude_finding_ids"):
            filters["exclude_finding_ids"] = excluded  # other cases than the one shown (the route node's)
        if (reports := (state.get("filters") or {}).get("report_ids")) and not filters.get("report_ids"):
            filters["report_ids"] = reports  # another finding of the report shown (the route node's)
        mentioned = services.mentioned(state["question"], filters)
        if mentioned:  # a name the reports mention in passing: the findings that mention it, not a filter no finding has
            filters["finding_ids"] = sorted({f for ids in mentioned.values() for f in ids})
            filters.pop("institutions", None)  # none the store holds (else nothing is mentioned): an LLM's '전남 장흥군' as written
        query = fields.search_query or state.get("query") or state["question"]
        gaps = services.scope_gaps(state["question"], filters)
        shown = ", ".join(f"{k}={v}" for k, v in filters.items()) or "none"
        outside = f"; not in the reports: {', '.join(gaps)}" if gaps else ""
        outside += f"; mentioned in passing: {', '.join(mentioned)}" if mentioned else ""
        source = f"; source: {fields.source}" if fields.source != "reports" else ""
        update = {"filters": filters, "query": query, "scope_gaps": gaps, "source": fields.source}
        return update, StepInfo(f"filters: {shown}; query: {query}{outside}{source}", decided)

    return select_fields
