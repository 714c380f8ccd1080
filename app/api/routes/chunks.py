"""One passage of the shared corpus with its context, so a client can show a citation's quote
inside the passage it was taken from."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from app.api.deps import CurrentKey, SessionDep, not_found
from app.api.errors import NOT_FOUND, UNAUTHORIZED
from app.api.schemas import ChunkOut
from app.db.models import Chunk, Finding, SopClause, SopDocument
from graph.vocab import MANUAL_CHUNK_PREFIX, MANUAL_SECTION, manual_heading, manual_title

router = APIRouter(prefix="/v1/chunks", tags=["chunks"])


@router.get("/{chunk_id}", response_model=ChunkOut, responses={**UNAUTHORIZED, **NOT_FOUND})
def get_chunk(chunk_id: Annotated[str, Path(max_length=64)], _: CurrentKey, session: SessionDep) -> dict[str, Any]:
    """The passage's full text, its heading, and the report and finding it belongs to (with the
    finding's dispositions). Evidence items name their passage by `chunk_id`."""
    if chunk_id.startswith(MANUAL_CHUNK_PREFIX):  # a clause of the audit manual, cited by an answer from it
        return _clause(session, chunk_id)
    chunk = session.get(Chunk, chunk_id)
    if chunk is None:
        raise not_found("chunk", chunk_id)
    finding = session.get(Finding, chunk.finding_id) if chunk.finding_id else None
    return {
        "chunk_id": chunk.id, "report_id": chunk.report_id, "report_title": chunk.report.title,
        "finding_id": chunk.finding_id, "finding_title": finding.title if finding else None,
        "section": chunk.section, "page": chunk.page, "text": chunk.text, "heading": chunk.heading,
        "dispositions": finding.disposition_list if finding else [],
    }


def _clause(session: SessionDep, chunk_id: str) -> dict[str, Any]:
    clause = session.get(SopClause, chunk_id[len(MANUAL_CHUNK_PREFIX):])
    if clause is None:
        raise not_found("chunk", chunk_id)
    document = session.get(SopDocument, clause.document_id)
    return {
        "chunk_id": chunk_id, "report_id": clause.document_id,
        "report_title": manual_title(document.title if document else clause.document_id),
        "finding_id": None, "finding_title": None, "section": MANUAL_SECTION, "page": 0,
        "text": clause.text, "heading": manual_heading(clause.id, clause.title), "dispositions": [],
    }
