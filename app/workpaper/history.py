"""A thread's turns as they were answered, read back from the LangGraph checkpoints.

Per-turn fields (answer, citations, steps, coverage ...) are reset at the start of each turn,
but every turn's final checkpoint (the one with nothing left to run) keeps them. So each such
checkpoint is one turn, and its checkpoint id is the turn's id (``turn_id``): stable, unique,
and available for threads made before turns were recorded anywhere else.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph.state import CompiledStateGraph

from app.agent.runner import turn_result


def _config(thread_id: str, checkpoint_id: str | None = None) -> dict[str, Any]:
    conf: dict[str, Any] = {"thread_id": thread_id, "checkpoint_ns": ""}
    if checkpoint_id:
        conf["checkpoint_id"] = checkpoint_id
    return {"configurable": conf}


def turn_view(thread_id: str, turn_id: str, values: dict[str, Any]) -> dict[str, Any]:
    """One turn as the API returns a turn (``turn_result``), plus what the working paper needs:
    the SOP clauses, the loops taken, the question, and the report ids of the evidence."""
    out = turn_result(thread_id, values)
    by_n = {c.get("n"): c for c in values.get("citations") or []}
    for e in out["evidence"]:
        c = by_n.get(e.get("n")) or {}
        e["report_id"] = c.get("report_id")
    steps = values.get("steps") or []
    out.update(
        turn_id=turn_id,
        question=values.get("question") or "",
        coverage=values.get("coverage"),  # absent on threads made before coverage existed
        sop=[{k: c.get(k) for k in ("id", "title", "score")} for c in values.get("sop") or []],
        loops={
            "rewrites": int(values.get("rewrite_count") or 0),
            "rewritten_queries": list(values.get("rewrites") or []),
            "regenerations": int(values.get("regeneration_count") or 0),
        },
        steps=[{k: s.get(k) for k in ("node", "summary", "ms", "policy", "llm_calls", "error") if k in s} for s in steps],
    )
    return out


def thread_turns(graph: CompiledStateGraph, thread_id: str) -> list[dict[str, Any]]:
    """Every finished turn of the thread, oldest first, with ``started_at`` (the turn's input
    checkpoint) and ``finished_at`` (its final one)."""
    snapshots = list(graph.get_state_history(_config(thread_id)))
    snapshots.reverse()
    turns: list[dict[str, Any]] = []
    started: str | None = None
    for snap in snapshots:
        if (snap.metadata or {}).get("source") == "input":
            started = snap.created_at
            continue
        if snap.next or not snap.values.get("messages"):
            continue
        turn = turn_view(thread_id, snap.config["configurable"]["checkpoint_id"], snap.values)
        turn.update(n=len(turns) + 1, started_at=started or snap.created_at, finished_at=snap.created_at)
        turns.append(turn)
        started = None
    return turns


def find_turn(graph: CompiledStateGraph, thread_id: str, turn_id: str) -> dict[str, Any] | None:
    """The turn ending at checkpoint ``turn_id`` of the thread; None when there is no such
    checkpoint or it is not the end of a turn."""
    try:
        snap = graph.get_state(_config(thread_id, turn_id))
    except Exception:  # a malformed id is simply not a turn
        return None
    if snap is None or snap.next or not snap.values or snap.config["configurable"].get("checkpoint_id") != turn_id:
        return None
    return turn_view(thread_id, turn_id, snap.values)
