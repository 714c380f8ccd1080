"""The caller's conversation threads."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Response, status
from sqlalchemy import delete, select

from app.api.deps import AgentDep, CurrentKey, SessionDep, TurnsDep, not_found
from app.api.errors import NOT_FOUND, UNAUTHORIZED
from app.api.schemas import THREAD_ID, ThreadDetailOut, ThreadOut
from app.api.turns import ThreadNotFound
from app.db.models import ThreadRecord, TurnLog

router = APIRouter(prefix="/v1/threads", tags=["threads"])

ThreadId = Annotated[str, Path(pattern=THREAD_ID)]


@router.get("", response_model=list[ThreadOut], responses=UNAUTHORIZED)
def list_threads(key: CurrentKey, session: SessionDep) -> list[dict[str, Any]]:
    """The caller's threads, most recently used first."""
    rows = session.scalars(
        select(ThreadRecord).where(ThreadRecord.owner_key_id == key.id).order_by(ThreadRecord.updated_at.desc())
    )
    return [{"id": r.thread_id, "title": r.title, "created_at": r.created_at, "updated_at": r.updated_at} for r in rows]


@router.get("/{thread_id}", response_model=ThreadDetailOut, responses={**UNAUTHORIZED, **NOT_FOUND})
def get_thread(thread_id: ThreadId, key: CurrentKey, session: SessionDep, turns: TurnsDep, agent: AgentDep) -> dict[str, Any]:
    """Messages, running summary and the documents the thread keeps as context."""
    try:
        rec = turns.owned(session, thread_id, key)
    except ThreadNotFound as exc:
        raise not_found("thread", thread_id) from exc
    state = agent.thread(thread_id) or {"messages": [], "summary": "", "retained_documents": []}
    return {**state, "thread_id": thread_id, "title": rec.title, "created_at": rec.created_at, "updated_at": rec.updated_at}


@router.delete("/{thread_id}", status_code=status.HTTP_204_NO_CONTENT, responses={**UNAUTHORIZED, **NOT_FOUND})
def delete_thread(thread_id: ThreadId, key: CurrentKey, session: SessionDep, turns: TurnsDep) -> Response:
    """Delete the thread's checkpoints, its turn log and its ownership row (its report drafts and
    the feedback given on it stay)."""
    try:
        rec = turns.owned(session, thread_id, key)
    except ThreadNotFound as exc:
        raise not_found("thread", thread_id) from exc
    turns.delete_thread(thread_id)
    session.execute(delete(TurnLog).where(TurnLog.thread_id == thread_id))
    session.delete(rec)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
