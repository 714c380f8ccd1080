"""Routing evaluation: run labelled conversations through the whole graph (each in a fresh
in-memory thread, so retained documents come from real retrieval) and score the track, pivot
and follow-up decisions against the labels."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

from app.agent.runner import Agent
from app.container import Container
from graph.vocab import TRACKS


def load_conversations(path: str | Path) -> list[dict[str, Any]]:
    rows = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{n}: not JSON ({exc.msg})") from exc
    return rows


def run_turns(services: Container, conversations: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    agent = Agent(services, checkpointer=InMemorySaver())
    for conv in conversations:
        for i, turn in enumerate(conv["turns"]):
            t0 = time.perf_counter()
            state = agent.graph.invoke(
                {"messages": [("user", turn["text"])], "mode": "auto"},
                agent._config(f"eval-{conv['id']}"),
                context=agent.context,
            )
            yield {
                "id": f"{conv['id']}#{i + 1}",
                "text": turn["text"],
                "expected": {k: turn[k] for k in ("track", "pivot", "follow_up") if k in turn},
                "got": {"track": state.get("track"), "pivot": bool(state.get("pivot")), "follow_up": bool(state.get("follow_up"))},
                "ms": round((time.perf_counter() - t0) * 1000, 1),
            }


def score(results: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"turns": len(results)}
    for key in ("track", "pivot", "follow_up"):
        labelled = [r for r in results if key in r["expected"]]
        right = [r for r in labelled if r["expected"][key] == r["got"][key]]
        out[f"{key}_accuracy"] = round(len(right) / len(labelled), 4) if labelled else None
        out[f"{key}_labelled"] = len(labelled)
    per_track: dict[str, Any] = {}
    for track in TRACKS:
        rows = [r for r in results if r["expected"].get("track") == track]
        if rows:
            per_track[track] = round(sum(r["got"]["track"] == track for r in rows) / len(rows), 4)
    out["per_track_accuracy"] = per_track
    out["confusion"] = {f"{a}->{b}": n for (a, b), n in Counter(
        (r["expected"]["track"], r["got"]["track"]) for r in results if r["expected"]["track"] != r["got"]["track"]).most_common()}
    out["errors"] = [
        {"id": r["id"], "text": r["text"], "expected": r["expected"], "got": r["got"]}
        for r in results
        if any(r["expected"][k] != r["got"][k] for k in r["expected"])
    ]
    ms = sorted(r["ms"] for r in results)
    out["turn_ms_p50"] = ms[len(ms) // 2] if ms else None
    return out
