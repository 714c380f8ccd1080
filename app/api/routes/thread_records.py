"""What a thread has produced: its turns with their evidence (so an old thread shows its
citations again), its report drafts, and its working paper (감사 조서) as DOCX, HWPX or JSON."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Response

from app.api.deps import AgentDep, CurrentKey, ServicesDep, SessionDep, TurnsDep, not_found
from app.api.errors import NOT_FOUND, UNAUTHORIZED
from app.api.export import MEDIA_TYPES, content_disposition
from app.api.schemas import THREAD_ID
from app.api.turns import ThreadNotFound
from app.api.workbench_schemas import DraftSummaryOut, TurnRecordOut
from app.db.models import Feedback, ThreadRecord
from app.keys import KeyInfo
from app.reports.blocks import to_docx
from app.reports.hwpx_export import MEDIA_TYPE as HWPX_MEDIA_TYPE
from app.reports.hwpx_export import to_hwpx
from app.workpaper.history import thread_turns
from app.workpaper.paper import build_paper, paper_blocks, thread_drafts
from app.workpaper.versions import current_versions

router = APIRouter(prefix="/v1/threads", tags=["threads"])

ThreadId = Annotated[str, Path(pattern=THREAD_ID)]
ERRORS = {**UNAUTHORIZED, **NOT_FOUND}
PAPER_TYPES = {"docx": MEDIA_TYPES["docx"], "hwpx": HWPX_MEDIA_TYPE, "json": "application/json"}


def _owned(turns: TurnsDep, session: SessionDep, thread_id: str, key: KeyInfo) -> ThreadRecord:
    try:
        return turns.owned(session, thread_id, key)
    except ThreadNotFound as exc:
        raise not_found("thread", thread_id) from exc


@router.get("/{thread_id}/turns", response_model=list[TurnRecordOut], responses=ERRORS)
def list_turns(thread_id: ThreadId, key: CurrentKey, session: SessionDep, turns: TurnsDep, agent: AgentDep) -> list[dict[str, Any]]:
    """Every answered turn, oldest first, as the chat returned it (answer, coverage, evidence,
    SQL, verification, steps), with its `turn_id`, times, and the caller's feedback on it."""
    _owned(turns, session, thread_id, key)
    out = thread_turns(agent.graph, thread_id)
    notes = {f.turn_id: f for f in session.query(Feedback).filter(Feedback.owner_key_id == key.id, Feedback.thread_id == thread_id)}
    for t in out:
        note = notes.get(t["turn_id"])
        t["feedback"] = {"rating": note.rating, "comment": note.comment} if note else None
    return out


@router.get("/{thread_id}/reports", response_model=list[DraftSummaryOut], responses=ERRORS)
def list_thread_reports(thread_id: ThreadId, key: CurrentKey, session: SessionDep, turns: TurnsDep) -> list[dict[str, Any]]:
    """The report drafts this thread made, oldest first (open one with `GET /v1/reports/{id}`)."""
    _owned(turns, session, thread_id, key)
    return [{"id": d.id, "title": d.title, "findings": d.findings, "created_at": d.created_at, "updated_at": d.updated_at}
            for d in thread_drafts(session, thread_id, key.id)]


@router.get(
    "/{thread_id}/export",
    response_class=Response,
    responses={
        **ERRORS,
        200: {
            "description": "The working paper as a file (Content-Disposition: attachment).",
            "content": {PAPER_TYPES["docx"]: {"schema": {"type": "string", "format": "binary"}},
                        HWPX_MEDIA_TYPE: {"schema": {"type": "string", "format": "binary"}},
                        "application/json": {"schema": {"type": "object"}}},
        },
    },
)
def export_thread(
    thread_id: ThreadId, key: CurrentKey, session: SessionDep, turns: TurnsDep, agent: AgentDep, services: ServicesDep,
    format: Annotated[Literal["docx", "hwpx", "json"], Query(description="docx | hwpx | json")] = "docx",
) -> Response:
    """The thread's working paper (감사 조서): every turn's question, answer, coverage, cited
    passages with report / finding / page, SOP clauses, the step log (nodes, policies, loops
    taken, fallbacks), timestamps and the versions that answered it (app, embedding model,
    LLM if any); then the thread's report drafts."""
    rec = _owned(turns, session, thread_id, key)
    paper = build_paper(session, rec, thread_turns(agent.graph, thread_id), key.id, key.name,
                        current_versions(services.settings))
    if format == "json":
        body = json.dumps(paper, ensure_ascii=False, indent=1).encode()
    elif format == "hwpx":
        body = to_hwpx(paper_blocks(paper))
    else:
        body = to_docx(paper_blocks(paper))
    name = f"조서-{rec.title or thread_id}"
    return Response(body, media_type=PAPER_TYPES[format],
                    headers={"Content-Disposition": content_disposition(name, thread_id, format).replace("report-", "workpaper-", 1)})
