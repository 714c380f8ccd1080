"""One conversation turn through the graph, as the JSON that ``aura ask --json`` and the API
return, or as a stream of events for SSE."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from app.agent.tools import AgentTools
from app.container import Container
from graph import RunContext, build_graph
from graph.vocab import MODES

MAX_MESSAGE_CHARS = 4000


class BadRequest(ValueError):
    """The caller's input is unusable; the message says why (safe to show)."""


def validate_message(message: str, mode: str = "auto") -> str:
    text = (message or "").strip()
    if not text:
        raise BadRequest("message is empty")
    if len(text) > MAX_MESSAGE_CHARS:
        raise BadRequest(f"message is too long ({len(text)} characters; the limit is {MAX_MESSAGE_CHARS})")
    if mode not in MODES:
        raise BadRequest(f"unknown mode '{mode}' (use one of: {', '.join(MODES)})")
    return text


def sqlite_checkpointer(services: Container) -> SqliteSaver:
    conn = sqlite3.connect(str(services.settings.data_dir / "checkpoints.sqlite"), check_same_thread=False)
    return SqliteSaver(conn)


class Agent:
    def __init__(self, services: Container, checkpointer: BaseCheckpointSaver | None = None, context: RunContext | None = None) -> None:
        self.services = services
        self.context = context or RunContext()
        self.checkpointer = checkpointer if checkpointer is not None else sqlite_checkpointer(services)
        self.graph = build_graph(AgentTools(services, services.policies), checkpointer=self.checkpointer)

    def _config(self, thread_id: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": thread_id}, "recursion_limit": self.context.recursion_limit}

    def ask(self, message: str, thread_id: str | None = None, mode: str = "auto") -> dict[str, Any]:
        text = validate_message(message, mode)
        thread_id = thread_id or uuid.uuid4().hex
        state = self.graph.invoke(
            {"messages": [HumanMessage(text)], "mode": mode}, self._config(thread_id), context=self.context
        )
        return turn_result(thread_id, state)

    def stream(self, message: str, thread_id: str | None = None, mode: str = "auto") -> Iterator[dict[str, Any]]:
        """Events as they happen: the nodes' custom events (step, evidence, sql_result,
        report_trigger), LLM tokens, then one 'done' event with the turn result."""
        text = validate_message(message, mode)
        thread_id = thread_id or uuid.uuid4().hex
        config = self._config(thread_id)
        # Nodes between their 'started' and 'finished' step events. An LLM call abandoned at its
        # deadline keeps streaming in its worker thread: its tokens, arriving after the node fell
        # back and finished, are dropped.
        running: set[str] = set()
        for kind, payload in self.graph.stream(
            {"messages": [HumanMessage(text)], "mode": mode},
            config,
            context=self.context,
            stream_mode=["custom", "messages"],
        ):
            if kind == "custom":
                if payload.get("event") == "step":
                    (running.add if payload.get("status") == "started" else running.discard)(payload.get("node"))
                yield payload
            elif kind == "messages":
                chunk, meta = payload
                content = getattr(chunk, "content", "")
                node = meta.get("langgraph_node")
                if content and node in ("analyze", "chat") and node in running:
                    yield {"event": "token", "node": node, "text": content}
        yield {"event": "done", **turn_result(thread_id, self.graph.get_state(config).values)}

    def thread(self, thread_id: str) -> dict[str, Any] | None:
        """Messages, summary and retained documents of a thread; None when it does not exist."""
        snapshot = self.graph.get_state(self._config(thread_id))
        values = snapshot.values if snapshot else {}
        if not values:
            return None
        return {
            "thread_id": thread_id,
            "messages": [{"role": "user" if m.type == "human" else "assistant", "content": m.content} for m in values.get("messages", [])],
            "summary": values.get("summary", ""),
            "retained_documents": [
                {k: d.get(k) for k in ("chunk_id", "report_id", "finding_id", "finding_title", "section", "page")}
                for d in values.get("retained_documents", [])
            ],
        }


def turn_result(thread_id: str, state: dict[str, Any]) -> dict[str, Any]:
    sql = state.get("sql")
    v = state.get("verification")
    steps = state.get("steps") or []
    return {
        "thread_id": thread_id,
        "track": state.get("track"),
        "answer": state.get("answer", ""),
        "evidence": [{k: c.get(k) for k in ("n", "chunk_id", "report", "finding_id", "quote", "span", "score", "page", "section")} for c in state.get("citations") or []],
        "coverage": state.get("coverage"),
        "source": state.get("source") if state.get("track") == "deep" else None,
        "suggestions": list(state.get("suggestions") or []),
        "sql": {"query": sql.get("query"), "columns": sql.get("columns", []), "rows": sql.get("rows", []), "error": sql.get("error")} if sql else None,
        "report": state.get("report"),
        "verification": {k: v.get(k) for k in ("grounded", "useful", "unsupported", "confidence")} if v else None,
        "steps": [{k: s.get(k) for k in ("node", "summary", "ms", "policy", "error") if k in s} for s in steps],
        "llm_calls": sum(s.get("llm_calls", 0) for s in steps),
        "fallbacks": [s["node"] for s in steps if s.get("policy") == "offline-fallback"],
    }
