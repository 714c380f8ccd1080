"""Read queries shared by the CLI, the API and the graph."""

from __future__ import annotations

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, selectinload

from app.db.models import Chunk, Finding, FindingDisposition, Report


def list_findings(
    session: Session,
    institution: str | None = None,
    year: int | None = None,
    disposition: str | None = None,
    report_id: str | None = None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[list[Finding], int]:
    """Findings matching every given filter (institution: substring of 소관/조치 기관), and the
    total count before paging."""
    q = select(Finding)
    if institution:
        like = f"%{institution.strip()}%"
        q = q.where(or_(Finding.institution.like(like), Finding.responsible_org.like(like), Finding.action_orgs.like(like)))
    if year is not None:
        q = q.where(Finding.year == year)
    if disposition:
        q = q.where(Finding.id.in_(select(FindingDisposition.finding_id).where(FindingDisposition.disposition == disposition)))
    if report_id:
        q = q.where(Finding.report_id == report_id)
    total = session.scalar(select(func.count()).select_from(q.subquery())) or 0
    rows = session.scalars(
        q.options(selectinload(Finding.dispositions), selectinload(Finding.report))
        .order_by(Finding.report_id, Finding.number)
        .limit(limit)
        .offset(offset)
    ).all()
    return list(rows), total


def finding_summary(f: Finding) -> dict:
    return {
        "id": f.id,
        "report_id": f.report_id,
        "report_title": f.report.title if f.report else None,
        "number": f.number,
        "title": f.title,
        "dispositions": f.disposition_list,
        "institution": f.institution,
        "action_orgs": f.action_orgs,
        "year": f.year,
        "amount_krw": f.amount_krw,
        "pages": [f.page_start, f.page_end],
    }


def chunk_ids_by_report(session: Session) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for rid, cid in session.execute(select(Chunk.report_id, Chunk.id)):
        out.setdefault(rid, set()).add(cid)
    return out


def report_ids(session: Session) -> list[str]:
    return list(session.scalars(select(Report.id).order_by(Report.id)))
