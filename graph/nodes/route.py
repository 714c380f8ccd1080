"""route: pick the track, detect a topic pivot, resolve ordinal references; start the turn."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.memory import finding_order, remembered
from graph.nodes._step import StepInfo, history, step
from graph.ports import Decided, GraphServices
from graph.schemas import RouteDecision
from graph.state import AuraState, Doc


def _recall(d: RouteDecision, past: list[Doc]) -> tuple[RouteDecision, list[Doc]] | None:
    """The earlier cases a second route decision (made against ``past``) points at, and that
    decision numbered against them alone; None when it points at none."""
    order = finding_order(past)
    picked = [order[n - 1] for n in d.ordinals if 0 < n <= len(order)]
    if not (d.follow_up and not d.pivot and picked):  # it points at none of them either (one its words match counts, though
        return None  # none names it: '강릉 건으로 돌아가서, 택시 한 대당 보상금은?'; no case it merely led with)
    docs = [p for p in past if p.get("finding_id") in picked]
    return d.model_copy(update={"ordinals": [finding_order(docs).index(f) + 1 for f in picked], "ordinals_in_list": False}), docs


def _reports_of(docs: list[Doc]) -> list[str]:
    """The report of the case the last answer led with (the first in the order shown)."""
    lead = finding_order(docs)[:1]
    return next(([d["report_id"]] for d in docs if lead and d.get("finding_id") == lead[0] and d.get("report_id")), [])


def route_decision(state: AuraState) -> Decided[RouteDecision] | None:
    """This turn's route decision, as the route node stored it."""
    stored = dict(state.get("route") or {})
    policy = stored.pop("policy", None)
    return Decided(RouteDecision.model_validate(stored), policy) if policy else None


def restates(d: RouteDecision, question: str, retained: list[Doc], state: AuraState) -> bool:
    """The router's search query stands for the question: the question follows a turn that found
    nothing (no documents to follow, or the last turn declined: '연도 상관없이 찾아줘') and the
    router restated the question it follows. Otherwise the question itself is judged, so the
    facet it asks for ('뭐 하라고 했어') is not lost in a search query."""
    declined = not retained or state.get("coverage") == "none"  # the last turn's coverage, before this turn resets it
    return declined and bool(d.search_query) and d.search_query.strip() != question


def last_question(state: AuraState) -> str:
    for m in reversed(state.get("messages") or []):
        if isinstance(m, HumanMessage):
            return str(m.content).strip()
    return ""


def build(services: GraphServices):
    @step("route")
    def route(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        question = last_question(state)
        retained = list(state.get("retained_documents") or [])
        past = list(state.get("past_documents") or [])
        turns = history(state, runtime.context.history_turns)
        decided = services.policies.route(question, turns, state.get("summary", ""), retained)
        d, recalled = decided.value, False
        mode = state.get("mode") or "auto"
        if d.goes_back and past and (d.track if mode == "auto" else mode) != "chat":
            # '아까 상수도 관망 건은': routed again against the cases set aside earlier; the case it names is retained
            # again and the last answer's cases are set aside in turn
            again = services.policies.route(question, turns, state.get("summary", ""), past)
            if recall := _recall(again.value, past):
                d, back = recall
                past = remembered(retained, [p for p in past if p not in back])
                retained, recalled = back, True
                decided = Decided(d, again.policy, decided.llm_calls + again.llm_calls, again.error or decided.error)
        track = d.track if mode == "auto" else mode
        follow_up = d.follow_up and (bool(retained) or bool(turns))  # documents kept, or the last question
        pivot = d.pivot and not follow_up
        earlier = retained if pivot else []
        if pivot:
            retained = []  # set aside by the analyst once it knows what this turn retains (``past_documents``)
        order = finding_order(retained)
        shown = finding_order(earlier) if pivot else order
        numbered = (state.get("listed") if d.ordinals_in_list else None) or shown  # '두 번째 건': in the last list the user saw
        pointed = [numbered[n - 1] for n in d.ordinals if 0 < n <= len(numbered)] if follow_up or pivot else []
        other_cases = d.other_cases and (follow_up or pivot) and bool(shown)  # the case pointed at (else the first) is not the answer
        references = [] if other_cases or not follow_up or (d.goes_back and not recalled) else pointed  # not the case just shown
        filters = {
            k: v
            for k, v in {
                "institutions": d.institutions,
                "year_from": d.year_from,
                "year_to": d.year_to,
                "dispositions": d.dispositions,
                "exclude_finding_ids": shown if d.same_report and pivot else (pointed or shown[:1]) if other_cases else [],
                "report_ids": _reports_of(earlier) if d.same_report and pivot else [],
            }.items()
            if v
        }
        query = d.search_query or question
        if d.refines_previous and turns:  # '그중 시정은?': the last lookup, with what changed
            filters = {**(state.get("filters") or {}), **filters}
            query = f"{turns[-1].question} {question}"
        update: dict[str, Any] = {
            "question": question,
            "track": track,
            "route": {**d.model_dump(), "policy": decided.policy},
            "follow_up": follow_up,
            "pivot": pivot,
            "references": references,
            "sql_intent": d.sql_intent,
            "filters": filters,
            "query": query,
            "standalone": d.search_query if follow_up and (other_cases or restates(d, question, retained, state)) else question,
            "rewrites": [],
            "rewrite_count": 0,
            "regeneration_count": 0,
            "documents": [],
            "set_aside": [],
            "scope_gaps": [],
            "coverage": None,
            "retained_documents": retained,
            "earlier_documents": earlier,
            "past_documents": past,
            "source": "reports",
            "sop": [],
            "sql": None,
            "answer": "",
            "sentences": [],
            "citations": [],
            "suggestions": [],
            "feedback": "",
            "verification": None,
            "report": None,
            "steps": [],
        }
        how = "forced" if mode != "auto" else d.reasoning
        flags = "pivot: retained documents cleared" if pivot else (
            "follow-up to an earlier case" if recalled else "follow-up" if follow_up else "new topic")
        refs = f", refers to {', '.join(references)}" if references else ""
        return update, StepInfo(f"track={track} ({how}); {flags}{refs}", decided)

    return route
