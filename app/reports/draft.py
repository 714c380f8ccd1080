"""A structured audit report draft from the evidence of a conversation: the findings it cites
(at most three), their stored sections, and the SOP clauses, each section with citations."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload, sessionmaker

from app.db.models import Finding, Report
from graph.schemas import ReportReadiness
from graph.state import Doc
from graph.vocab import section_label

DRAFT_SECTIONS = (
    ("institution", "대상 기관"),
    ("background", "감사 배경 및 기간"),
    ("findings", "지적 사항"),
    ("criteria", section_label("criteria")),
    ("opinion", section_label("opinion")),
    ("actions", section_label("actions")),
    ("sop", "적용 기준(SOP)"),
)
MAX_DRAFT_FINDINGS = 3


def draft_report(
    sessions: sessionmaker[Session], docs: list[Doc], sop: list[dict[str, Any]], readiness: ReportReadiness
) -> dict[str, Any]:
    """{title, findings: [ids], sections: [{key, title, text, citations}]}."""
    ids = list(dict.fromkeys(d["finding_id"] for d in docs if d.get("finding_id")))[:MAX_DRAFT_FINDINGS]
    texts: dict[str, list[str]] = {key: [] for key, _ in DRAFT_SECTIONS}
    cites: dict[str, list[dict[str, Any]]] = {key: [] for key, _ in DRAFT_SECTIONS}
    with sessions() as s:
        rows = s.scalars(
            select(Finding).where(Finding.id.in_(ids)).options(selectinload(Finding.report), selectinload(Finding.dispositions))
        ).all()
        by_id = {f.id: f for f in rows}
        findings = [by_id[i] for i in ids if i in by_id]
        for f in findings:
            ref = {"finding_id": f.id, "report_id": f.report_id, "pages": [f.page_start, f.page_end]}
            r: Report = f.report
            texts["institution"].append(f"{f.institution or ', '.join(r.institutions)}")
            texts["background"].append(f"「{r.title}」({r.audit_type or '감사'}, {r.report_date or r.year or ''})")
            disp = ", ".join(f.disposition_list)
            texts["findings"].append(f"{f.title}({disp})\n{excerpt(f.problems or f.overview)}")
            for key, value in (("criteria", f.criteria), ("opinion", f.opinion), ("actions", f.actions)):
                if value:
                    texts[key].append(excerpt(value))
            for key in ("institution", "background", "findings", "criteria", "opinion", "actions"):
                cites[key].append(ref)
        first_institution = findings[0].institution if findings else ""
    for c in sop:
        texts["sop"].append(f"[{c['id']}] {c['title']}")
        cites["sop"].append({"sop_id": c["id"]})
    title = f"{readiness.institution or first_institution} 감사결과 보고서(초안)".strip()
    return {
        "title": title,
        "findings": ids,
        "sections": [
            {"key": key, "title": label, "text": "\n\n".join(dict.fromkeys(texts[key])), "citations": cites[key]}
            for key, label in DRAFT_SECTIONS
        ],
    }


def excerpt(text: str, limit: int = 1200) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit].rsplit("\n", 1)[0] + " …"
