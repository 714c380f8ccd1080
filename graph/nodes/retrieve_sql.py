"""retrieve_sql: answer from the findings table (validated, read-only SQL), or load the
findings a follow-up points at so the deep path can analyse them (and what it asks of them that
no report covers: ``scope_gaps``)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, step
from graph.nodes.route import route_decision
from graph.ports import GraphServices, SqlRejected
from graph.state import AuraState


def build(services: GraphServices):
    @step("retrieve_sql")
    def retrieve_sql(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        question = state["question"]
        fields = services.policies.select_fields(
            question, state.get("filters") or {}, state.get("retained_documents") or [], route_decision(state)
        )
        refs = state.get("references") or []
        if refs:
            docs = services.finding_docs(refs, fields.value.sections or None) or services.finding_docs(refs)
            # what the case is asked about that no report covers ('그 행사에 외교부 예산도 …', '그 기관 2020회계연도 결산 때 …',
            # '그 해변에서 해파리 … 것도 지적됐어?'): the case shown does not answer it, and the turn declines (``grade_documents``)
            gaps = list(dict.fromkeys([*services.scope_gaps(question, {"finding_ids": refs}), *services.untold(question)]))
            sql = None if gaps else services.finding_rows(refs)
            if sql is not None:
                runtime.stream_writer({"event": "sql_result", **sql})
            outside = f"; not in the reports: {', '.join(gaps)}" if gaps else ""
            return ({"documents": docs, "sql": sql, "scope_gaps": gaps},
                    StepInfo(f"loaded {len(docs)} passages of {', '.join(refs)}{outside}", fields))
        plan = services.policies.plan_sql(state.get("query") or question, fields.value)
        try:
            sql = services.run_sql(plan.value.sql)
        except SqlRejected as exc:
            sql = {"query": plan.value.sql, "columns": [], "rows": [], "row_count": 0, "error": str(exc)}
        sql["scope"] = fields.value.model_dump(  # what the rows were filtered on: the answer names it
            include={"institutions", "year_from", "year_to", "dispositions", "audit_types", "topic"}, exclude_defaults=True)
        runtime.stream_writer({"event": "sql_result", **sql})
        summary = f"SQL rejected: {sql['error']}" if sql.get("error") else f"{sql['row_count']} rows"
        return {"sql": sql, "filters": fields.value.model_dump(exclude={"reasoning", "search_query", "source"}, exclude_defaults=True)}, StepInfo(summary, plan)

    return retrieve_sql
