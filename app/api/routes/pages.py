"""The original page of a cited passage: a PDF page as PNG with the passage (or a quoted span
of it) highlighted; documents without fixed pages (HWP, HWPX, DOCX, TXT, MD) get the passage
as text instead, and say so."""

from __future__ import annotations

import json
import threading
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request, Response, status
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.api.deps import CurrentKey, SessionDep, not_found
from app.api.errors import BAD_REQUEST, GONE, NOT_FOUND, UNAUTHORIZED
from app.db.models import Chunk, Finding
from app.pages.render import PageRenderer
from app.pages.source import SourceUnavailable

router = APIRouter(prefix="/v1/chunks", tags=["chunks"])
_lock = threading.Lock()

HEADERS = {
    "X-Aura-Page": {"description": "The 1-based page number shown.", "schema": {"type": "integer"}},
    "X-Aura-Highlight": {"description": "JSON list of the highlighted lines, [left, top, right, bottom] in pixels.",
                         "schema": {"type": "string"}},
    "X-Aura-Located": {"description": "'full', 'partial' (the span runs onto another page) or 'none' (not found; "
                       "the page is shown unmarked).", "schema": {"type": "string"}},
    "X-Aura-Cache": {"description": "'hit' when served from the page cache.", "schema": {"type": "string"}},
}


class PageTextOut(BaseModel):
    """The passage as text, for a document without fixed pages."""

    chunk_id: str
    report_id: str
    format: str = Field(description="The source's format: hwp, hwpx, docx, txt or md.")
    paged: bool = Field(False, description="Always false here: the PNG page view is only for PDF sources.")
    message: str
    page: int = Field(description="The page as the loader counted it (explicit page breaks; 1 when none).")
    text: str
    span: list[int] = Field(description="[start, end) of the highlighted span in text.")


def renderer(request: Request) -> PageRenderer:
    state = request.app.state
    with _lock:
        if getattr(state, "page_renderer", None) is None:
            state.page_renderer = PageRenderer(state.services.settings.data_dir / "pages")
    return state.page_renderer


def _last_page(session: Session, chunk: Chunk) -> int:
    """Where the chunk's text may end: its finding's last page, else the page before the next
    report-level section starts, else the report's last page."""
    if chunk.finding_id and (finding := session.get(Finding, chunk.finding_id)) is not None:
        return finding.page_end
    nxt = session.scalar(select(func.min(Chunk.page)).where(Chunk.report_id == chunk.report_id, Chunk.page > chunk.page))
    return nxt or chunk.report.page_count


@router.get(
    "/{chunk_id}/page",
    response_class=Response,
    responses={
        **UNAUTHORIZED, **NOT_FOUND, **BAD_REQUEST, **GONE,
        200: {
            "description": "A PDF source: the page as PNG, the span highlighted (headers say where). Any other "
                           "source: the passage as text (JSON).",
            "content": {"image/png": {"schema": {"type": "string", "format": "binary"}},
                        "application/json": {"schema": PageTextOut.model_json_schema()}},
            "headers": HEADERS,
        },
    },
)
def chunk_page(
    request: Request,
    chunk_id: Annotated[str, Path(max_length=64)],
    _: CurrentKey,
    session: SessionDep,
    start: Annotated[int | None, Query(ge=0, description="Start of the span in the chunk's text (evidence[].span[0]).")] = None,
    end: Annotated[int | None, Query(ge=0, description="End of the span (evidence[].span[1]); default: the whole passage.")] = None,
) -> Response:
    """The cited passage's original page. Like the passage itself (`GET /v1/chunks/{id}`) it is
    part of the shared corpus, readable with any valid key. Cached on disk: a page seen before
    is a file read. A source file that was moved, deleted or changed since it was ingested is
    answered 410 with what to do."""
    chunk = session.get(Chunk, chunk_id)
    if chunk is None:
        raise not_found("chunk", chunk_id)
    size = len(chunk.text)
    a = 0 if start is None else start
    b = size if end is None else end
    if not a < b <= size:
        raise HTTPException(status.HTTP_400_BAD_REQUEST,
                            f"span [{a}, {b}) is not inside the passage ({size} characters): need start < end <= {size}")
    report = chunk.report
    if report.format != "pdf":
        return Response(json.dumps(_text_view(chunk, report.format, a, b), ensure_ascii=False), media_type="application/json")
    try:
        page = renderer(request).render(report, chunk, a, b, _last_page(session, chunk))
    except SourceUnavailable as exc:
        raise HTTPException(status.HTTP_410_GONE, str(exc)) from exc
    located = "none" if not page.located else ("full" if page.complete else "partial")
    return Response(page.png, media_type="image/png", headers={
        "X-Aura-Page": str(page.page), "X-Aura-Highlight": json.dumps(page.boxes), "X-Aura-Located": located,
        "X-Aura-Cache": "hit" if page.cached else "miss", "Cache-Control": "private, max-age=3600",
    })


def _text_view(chunk: Chunk, fmt: str, a: int, b: int) -> dict[str, Any]:
    return PageTextOut(
        chunk_id=chunk.id, report_id=chunk.report_id, format=fmt, page=chunk.page, text=chunk.text, span=[a, b],
        message=f"a {fmt.upper()} document has no fixed pages to show: this is the passage as stored, the span marked by 'span'",
    ).model_dump()
