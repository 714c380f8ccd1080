"""👍/👎 and a comment on an answer, per turn, stored with the caller's key."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.api.deps import AgentDep, CurrentKey, SessionDep, TurnsDep, not_found
from app.api.errors import NOT_FOUND, UNAUTHORIZED
from app.api.schemas import THREAD_ID
from app.api.turns import ThreadNotFound
from app.api.workbench_schemas import FeedbackIn, FeedbackOut
from app.feedback.store import feedback_out, list_feedback, save_feedback
from app.workpaper.history import find_turn

router = APIRouter(prefix="/v1/feedback", tags=["feedback"])


@router.post("", response_model=FeedbackOut, responses={**UNAUTHORIZED, **NOT_FOUND})
def give_feedback(body: FeedbackIn, key: CurrentKey, session: SessionDep, turns: TurnsDep, agent: AgentDep) -> dict[str, Any]:
    """Rate one answer: the turn `turn_id` of the caller's thread `thread_id` (both from the chat
    response or `GET /v1/threads/{id}/turns`). Sending again replaces the rating and comment.
    The question, answer, coverage and cited findings are kept with it for evaluation
    (`aura feedback export --jsonl`)."""
    try:
        turns.owned(session, body.thread_id, key)
    except ThreadNotFound as exc:
        raise not_found("thread", body.thread_id) from exc
    turn = find_turn(agent.graph, body.thread_id, body.turn_id)
    if turn is None:
        raise not_found("turn", body.turn_id)
    return feedback_out(save_feedback(session, key.id, body.thread_id, turn, body.rating, body.comment))


@router.get("", response_model=list[FeedbackOut], responses=UNAUTHORIZED)
def my_feedback(
    key: CurrentKey, session: SessionDep,
    thread_id: Annotated[str | None, Query(pattern=THREAD_ID, description="Only this thread's.")] = None,
) -> list[dict[str, Any]]:
    """The caller's own feedback, most recent first (other keys' is never shown)."""
    return [feedback_out(r) for r in list_feedback(session, key.id, thread_id)]
