"""Conditional edges. Each reads only state (nodes record the caps' verdicts) and raises on a
state it does not know, so an unreachable branch is a loud error, not a silent default."""

from __future__ import annotations

from typing import Literal

from graph.state import AuraState


class RoutingError(RuntimeError):
    pass


def route_after_route(state: AuraState) -> Literal["chat", "retrieve_sql", "select_fields", "manage_report"]:
    track = state.get("track")
    if track == "chat":
        return "chat"
    if track == "report":
        return "manage_report"
    if track in ("fast", "deep"):
        if state.get("references") or (track == "fast" and state.get("sql_intent")):
            return "retrieve_sql"
        return "select_fields"
    raise RoutingError(f"unknown track {track!r}")


def route_after_sql(state: AuraState) -> Literal["analyze", "grade_documents"]:
    """Fast: answer from the rows. Deep: the loaded findings go through grading like search hits."""
    track = state.get("track")
    if track == "fast":
        return "analyze"
    if track == "deep":
        return "grade_documents"
    raise RoutingError(f"retrieve_sql on track {track!r}")


def route_after_retrieve(state: AuraState) -> Literal["grade_documents", "analyze"]:
    """Deep: CRAG grading. Fast (a lookup SQL cannot express): straight to a short answer."""
    track = state.get("track")
    if track == "deep":
        return "grade_documents"
    if track == "fast":
        return "analyze"
    raise RoutingError(f"retrieve on track {track!r}")


def route_after_grade(state: AuraState) -> Literal["expand_evidence", "rewrite_query"]:
    return "rewrite_query" if state.get("needs_rewrite") else "expand_evidence"


def route_after_analyze(state: AuraState) -> Literal["verify_answer", "summarize"]:
    """Deep answers are verified; a declining answer (coverage 'none') claims nothing to verify."""
    track = state.get("track")
    if track == "deep":
        return "summarize" if state.get("coverage") == "none" else "verify_answer"
    if track == "fast":
        return "summarize"
    raise RoutingError(f"analyze on track {track!r}")


def route_after_verify(state: AuraState) -> Literal["analyze", "rewrite_query", "summarize"]:
    action = (state.get("verification") or {}).get("action")
    if action == "regenerate":
        return "analyze"
    if action == "rewrite":
        return "rewrite_query"
    if action == "finish":
        return "summarize"
    raise RoutingError(f"unknown verification action {action!r}")
