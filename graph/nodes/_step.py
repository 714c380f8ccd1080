"""Instrumentation shared by every node: timing, the step log, and live stream events."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.ports import Decided, Turn
from graph.state import AuraState, Doc, Step

log = logging.getLogger("aura.graph")

NodeFn = Callable[[AuraState, Runtime[RunContext]], dict[str, Any]]


@dataclass
class StepInfo:
    summary: str
    decided: Decided[Any] | None = None


def step(name: str) -> Callable[[Callable[..., tuple[dict[str, Any], StepInfo]]], NodeFn]:
    """Wrap a node body that returns (state update, StepInfo). The wrapper appends a Step to the
    turn's log (a body that returns ``steps`` itself starts a new log: ``route`` does, once per
    turn) and emits ``step`` events on the custom stream when the node starts and ends."""

    def deco(body: Callable[..., tuple[dict[str, Any], StepInfo]]) -> NodeFn:
        @functools.wraps(body)
        def node(state: AuraState, runtime: Runtime[RunContext]) -> dict[str, Any]:
            emit = runtime.stream_writer
            emit({"event": "step", "node": name, "status": "started"})
            t0 = time.perf_counter()
            update, info = body(state, runtime)
            entry: Step = {"node": name, "summary": info.summary, "ms": round((time.perf_counter() - t0) * 1000, 1)}
            if info.decided is not None:
                entry["policy"] = info.decided.policy
                entry["llm_calls"] = info.decided.llm_calls
                if info.decided.error:
                    entry["error"] = info.decided.error
                    log.debug("%s fell back to the offline policy: %s", name, info.decided.error)
            base = update.pop("steps", state.get("steps") or [])
            update["steps"] = [*base, entry]
            emit({"event": "step", "status": "finished", **entry})
            return update

        return node

    return deco


def findings_of(docs: list[Doc]) -> tuple[list[str], list[str]]:
    """(finding titles, their dispositions), each once, in the passages' order: what the SOP
    clauses that apply to these findings are chosen by (``GraphServices.sop_for_findings``)."""
    titled = [d for d in docs if d.get("finding_title")]
    titles = list(dict.fromkeys(d["finding_title"] for d in titled))
    return titles, list(dict.fromkeys(x for d in titled for x in d.get("dispositions") or []))


def standalone(state: AuraState) -> str:
    """What the turn asks, on its own (``AuraState.standalone``)."""
    return state.get("standalone") or state["question"]


def history(state: AuraState, turns: int) -> list[Turn]:
    """The last ``turns`` completed exchanges before this turn's question."""
    msgs = state.get("messages") or []
    pairs: list[Turn] = []
    pending: str | None = None
    for m in msgs[:-1]:  # the last message is this turn's question
        if isinstance(m, HumanMessage):
            pending = str(m.content)
        elif isinstance(m, AIMessage) and pending is not None:
            meta = m.response_metadata or {}
            pairs.append(Turn(pending, str(m.content), meta.get("track"), meta.get("source"), meta.get("coverage")))
            pending = None
    return pairs[-turns:] if turns else []


def reworkable(state: AuraState) -> bool:
    """Whether a rewritten query or another draft can change this turn's answer: not for a
    question about the audit manual, whose clauses are searched with the question itself and
    quoted as they stand."""
    return state.get("source") != "manual"
