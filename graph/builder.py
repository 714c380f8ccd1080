"""The one place the graph is assembled."""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graph.context import RunContext
from graph.nodes import (
    analyze,
    chat,
    expand_evidence,
    grade_documents,
    manage_report,
    retrieve,
    retrieve_sop,
    retrieve_sql,
    rewrite_query,
    route,
    select_fields,
    summarize,
    verify_answer,
)
from graph.ports import GraphServices
from graph.routing import (
    route_after_analyze,
    route_after_grade,
    route_after_retrieve,
    route_after_route,
    route_after_sql,
    route_after_verify,
)
from graph.state import AuraState, InputState


def build_graph(services: GraphServices, checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    g = StateGraph(AuraState, context_schema=RunContext, input_schema=InputState)
    for module in (route, chat, retrieve_sql, select_fields, retrieve, grade_documents, rewrite_query,
                   expand_evidence, retrieve_sop, analyze, verify_answer, manage_report, summarize):
        name = module.__name__.rsplit(".", 1)[-1]
        g.add_node(name, module.build(services))

    g.add_edge(START, "route")
    g.add_conditional_edges("route", route_after_route)
    g.add_edge("chat", "summarize")
    g.add_conditional_edges("retrieve_sql", route_after_sql)
    g.add_edge("select_fields", "retrieve")
    g.add_conditional_edges("retrieve", route_after_retrieve)
    g.add_conditional_edges("grade_documents", route_after_grade)
    g.add_edge("rewrite_query", "retrieve")
    g.add_edge("expand_evidence", "retrieve_sop")
    g.add_edge("retrieve_sop", "analyze")
    g.add_conditional_edges("analyze", route_after_analyze)
    g.add_conditional_edges("verify_answer", route_after_verify)
    g.add_edge("manage_report", END)
    g.add_edge("summarize", END)
    return g.compile(checkpointer=checkpointer, name="aura")
