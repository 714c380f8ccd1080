"""Helpers for the API tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select

from app.ui.client import parse_sse as client_parse_sse


def parse_sse(lines: Iterable[str]) -> list[tuple[str, Any]]:
    """(event, JSON data) per event of a text/event-stream: the UI client's parser, so the API
    tests and the UI read the stream the same way."""
    return [(e.name, e.data) for e in client_parse_sse(iter(lines))]


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
