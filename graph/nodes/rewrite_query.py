"""rewrite_query: a better query (glossary expansion, noise dropped) and, if the filters were
too narrow, one filter relaxed. Counts against the rewrite cap."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, standalone, step
from graph.ports import GraphServices
from graph.state import AuraState
from graph.vocab import RELAXABLE_FILTER_KEYS as RELAXABLE


def build(services: GraphServices):
    @step("rewrite_query")
    def rewrite_query(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        asked = standalone(state)
        tried = [asked, *(state.get("rewrites") or [])]
        filters = dict(state.get("filters") or {})
        decided = services.policies.rewrite(asked, state.get("query") or asked, tried, filters)
        rw = decided.value
        relaxed = ""
        if rw.relax_filter in RELAXABLE and any(filters.get(k) for k in RELAXABLE[rw.relax_filter]):
            for key in RELAXABLE[rw.relax_filter]:
                filters.pop(key, None)
            relaxed = f"; dropped the {rw.relax_filter} filter"
        count = (state.get("rewrite_count") or 0) + 1
        update = {
            "query": rw.query,
            "rewrites": [*(state.get("rewrites") or []), rw.query],
            "rewrite_count": count,
            "filters": filters,
        }
        return update, StepInfo(f"rewrite {count}/{runtime.context.max_rewrites}: {rw.query}{relaxed}", decided)

    return rewrite_query
