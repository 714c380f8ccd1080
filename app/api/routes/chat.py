"""Conversation turns: one JSON answer, or the same turn as Server-Sent Events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, status
from fastapi.sse import EventSourceResponse, ServerSentEvent

from app.agent.runner import BadRequest
from app.api.deps import CurrentKey, TurnsDep, not_found
from app.api.errors import (
    BAD_REQUEST,
    CONFLICT,
    NOT_FOUND,
    UNAUTHORIZED,
    UNAVAILABLE,
    VECTOR_ERRORS,
    as_json,
    vector_detail,
)
from app.api.schemas import ChatIn, TurnOut
from app.api.turns import PreparedTurn, ThreadBusy, ThreadNotFound

router = APIRouter(prefix="/v1/chat", tags=["chat"])

ERRORS: dict[int | str, dict[str, Any]] = {**BAD_REQUEST, **UNAUTHORIZED, **NOT_FOUND}

STREAM_DOC = """Runs one turn and streams it as Server-Sent Events. The SSE `event:` field is the event
name and every `data:` is JSON:

| event | data |
|---|---|
| `step` | `{node, status: started}` then `{node, status: finished, summary, ms, policy?, error?}` |
| `token` | `{node, text}`: answer text as an LLM writes it (none when offline) |
| `evidence` | `{stage: retrieved or cited, items: [...]}` |
| `sql_result` | `{query, columns, rows, error}` |
| `report_trigger` | `{draft: {title, findings, sections}, report_id}`: the stored draft |
| `done` | the full turn, as `POST /v1/chat` returns it (with `report_id`) |
| `error` | `{message}`: the turn failed (or the thread was busy) and nothing of it was saved |

`step` comes first; `done` or `error` is the last event. Bad input, an unknown thread and a
missing key are refused with a JSON error before the stream starts.
"""


def prepared_turn(body: ChatIn, key: CurrentKey, turns: TurnsDep) -> PreparedTurn:
    try:
        return turns.prepare(body.message, body.thread_id, body.mode, key)
    except BadRequest as exc:
        raise HTTPException(status.HTTP_400_BAD_REQUEST, str(exc)) from exc
    except ThreadNotFound as exc:
        raise not_found("thread", str(exc)) from exc


Turn = Annotated[PreparedTurn, Depends(prepared_turn)]


@router.post("", response_model=TurnOut, responses={**ERRORS, **CONFLICT, **UNAVAILABLE})
def chat(turn: Turn, key: CurrentKey, turns: TurnsDep) -> dict[str, Any]:
    """One turn: the answer with its evidence, SQL result, report draft and steps. A turn that
    fails saves nothing (a new thread is not created)."""
    try:
        return turns.ask(turn, key)
    except BadRequest as exc:
        raise HTTPException(status.HTTP_400_BAD_REQUEST, str(exc)) from exc
    except ThreadBusy as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from exc
    except VECTOR_ERRORS as exc:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, vector_detail(exc)) from exc


@router.post(
    "/stream",
    response_class=EventSourceResponse,
    responses={200: {"description": "The turn as a stream of events (see the table)."}, **as_json(ERRORS)},
    description=STREAM_DOC,
    summary="Chat (Server-Sent Events)",
)
def chat_stream(turn: Turn, key: CurrentKey, turns: TurnsDep) -> Iterator[ServerSentEvent]:
    for name, data in turns.stream(turn, key):
        yield ServerSentEvent(event=name, data=data)
