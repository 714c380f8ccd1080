"""summarize: record the answer in the chat history and update the running summary."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, history, step
from graph.ports import GraphServices, Turn
from graph.state import AuraState


def build(services: GraphServices):
    @step("summarize")
    def summarize(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        answer = state.get("answer") or ""
        turns = [*history(state, runtime.context.history_turns), Turn(state["question"], answer)]
        decided = services.policies.summarize(state.get("summary", ""), turns)
        reply = AIMessage(answer, response_metadata={"track": state.get("track"), "source": state.get("source"), "coverage": state.get("coverage")})
        return {"summary": decided.value.summary, "messages": [reply]}, StepInfo(
            f"summary {len(decided.value.summary)} chars", decided
        )

    return summarize
