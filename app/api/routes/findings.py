"""The findings of the ingested reports (a shared, read-only corpus; a key is still needed)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.api.deps import CurrentKey, SessionDep
from app.api.errors import UNAUTHORIZED
from app.api.schemas import FindingPage
from app.db.queries import finding_summary, list_findings
from graph.vocab import DISPOSITIONS

router = APIRouter(prefix="/v1/findings", tags=["findings"])


@router.get("", response_model=FindingPage, responses=UNAUTHORIZED)
def findings(
    _: CurrentKey,
    session: SessionDep,
    institution: Annotated[str | None, Query(max_length=128, description="Part of the 소관/조치 기관 name.")] = None,
    year: Annotated[int | None, Query(ge=1900, le=2100)] = None,
    disposition: Annotated[str | None, Query(max_length=16, description="One of: " + ", ".join(DISPOSITIONS))] = None,
    report_id: Annotated[str | None, Query(max_length=128)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """Findings matching every given filter, with the total before paging."""
    rows, total = list_findings(session, institution, year, disposition, report_id, limit, offset)
    return {"total": total, "items": [finding_summary(f) for f in rows]}
