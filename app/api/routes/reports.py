"""Report drafts made by report turns: read, replace after editing, export."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Response
from sqlalchemy.orm import Session

from app.api.deps import CurrentKey, SessionDep, not_found
from app.api.errors import NOT_FOUND, UNAUTHORIZED
from app.api.export import MEDIA_TYPES, content_disposition, to_docx, to_markdown
from app.api.schemas import ReportIn, ReportOut
from app.db.models import ReportDraft
from app.keys import KeyInfo
from app.reports.hwpx_export import MEDIA_TYPE as HWPX_MEDIA_TYPE
from app.reports.hwpx_export import draft_hwpx

router = APIRouter(prefix="/v1/reports", tags=["reports"])

ReportId = Annotated[str, Path(max_length=64)]
ERRORS = {**UNAUTHORIZED, **NOT_FOUND}


def _owned(session: Session, report_id: str, key: KeyInfo) -> ReportDraft:
    draft = session.get(ReportDraft, report_id)
    if draft is None or draft.owner_key_id != key.id:
        raise not_found("report", report_id)
    return draft


def _out(d: ReportDraft) -> dict[str, Any]:
    return {
        "id": d.id, "thread_id": d.thread_id, "title": d.title, "findings": d.findings, "sections": d.sections,
        "created_at": d.created_at, "updated_at": d.updated_at,
    }


@router.get("/{report_id}", response_model=ReportOut, responses=ERRORS)
def get_report(report_id: ReportId, key: CurrentKey, session: SessionDep) -> dict[str, Any]:
    return _out(_owned(session, report_id, key))


@router.put("/{report_id}", response_model=ReportOut, responses=ERRORS)
def put_report(report_id: ReportId, body: ReportIn, key: CurrentKey, session: SessionDep) -> dict[str, Any]:
    """Replace the title and the sections (the auditor's edits); the findings stay."""
    draft = _owned(session, report_id, key)
    draft.title = body.title
    draft.sections = [s.model_dump() for s in body.sections]
    draft.updated_at = datetime.now(UTC)
    session.commit()
    return _out(draft)


@router.get(
    "/{report_id}/export",
    response_class=Response,
    responses={
        **ERRORS,
        200: {
            "description": "The draft as a file (Content-Disposition: attachment).",
            "content": {MEDIA_TYPES["docx"]: {"schema": {"type": "string", "format": "binary"}},
                        HWPX_MEDIA_TYPE: {"schema": {"type": "string", "format": "binary"}},
                        "text/markdown": {"schema": {"type": "string"}}},
        },
    },
)
def export_report(
    report_id: ReportId, key: CurrentKey, session: SessionDep,
    format: Annotated[Literal["docx", "md", "hwpx"], Query(description="docx | md | hwpx")] = "docx",
) -> Response:
    """DOCX (a heading per section, citations listed), Markdown, or HWPX (Hancom Office) in the
    usual 감사보고서 order: 제목, 대상 기관, 감사 개요, 지적 사항 (문제점 / 관계 법령·판단기준 /
    관계기관 의견 / 조치할 사항 and each finding's disposition), 근거 목록."""
    draft = _owned(session, report_id, key)
    if format == "hwpx":
        body = draft_hwpx(session, draft)
    elif format == "docx":
        body = to_docx(draft.title, draft.sections)
    else:
        body = to_markdown(draft.title, draft.sections).encode()
    return Response(
        body, media_type=HWPX_MEDIA_TYPE if format == "hwpx" else MEDIA_TYPES[format],
        headers={"Content-Disposition": content_disposition(draft.title, draft.id, format)},
    )
