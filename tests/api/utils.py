"""Helpers for the API tests."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select


def parse_sse(lines: Iterable[str]) -> list[tuple[str, Any]]:
    """(event, JSON data) per event of a text/event-stream (comments and ids ignored)."""
    events: list[tuple[str, Any]] = []
    name, data = "message", []
    for line in lines:
        if line == "":
            if data:
                events.append((name, json.loads("\n".join(data))))
            name, data = "message", []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
    if data:
        events.append((name, json.loads("\n".join(data))))
    return events


def stream_turn(client, headers: dict[str, str], **body: Any) -> list[tuple[str, Any]]:
    with client.stream("POST", "/v1/chat/stream", json=body, headers=headers) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("text/event-stream")
        return parse_sse(r.iter_lines())


def count(services, model) -> int:
    with services.sessions() as s:
        return s.scalar(select(func.count()).select_from(model)) or 0


def has_checkpoint(app, thread_id: str) -> bool:
    return app.state.turns.latest_checkpoint(thread_id) is not None
