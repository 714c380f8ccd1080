"""chat: greetings, help and small talk, with the conversation's memory."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, history, step
from graph.ports import GraphServices
from graph.state import AuraState


def build(services: GraphServices):
    @step("chat")
    def chat(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        decided = services.policies.chat(state["question"], history(state, runtime.context.history_turns), state.get("summary", ""))
        return {"answer": decided.value}, StepInfo("replied", decided)

    return chat
