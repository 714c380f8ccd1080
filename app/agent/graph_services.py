"""``GraphServices`` for the graph, backed by the app's stores, retrievers and policies."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from app.db.models import Chunk, Finding, Report
from app.retrieval.filters import SearchFilters
from app.services import Services
from graph.ports import Policies
from graph.schemas import ReportReadiness
from graph.state import Doc
from graph.vocab import SECTION_KINDS, section_label

DRAFT_SECTIONS = (
    ("institution", "대상 기관"),
    ("background", "감사 배경 및 기간"),
    ("findings", "지적 사항"),
    ("criteria", "관계 법령·판단기준"),
    ("opinion", section_label("opinion")),
    ("actions", "조치할 사항"),
    ("sop", "적용 기준(SOP)"),
)
MAX_DRAFT_FINDINGS = 3


class AppGraphServices:
    def __init__(self, services: Services, policies: Policies) -> None:
        self.services = services
        self.policies = policies

    # -- retrieval -------------------------------------------------------------------------------
    def search(self, query: str, k: int, filters: dict[str, Any]) -> list[Doc]:
        hits = self.services.retriever.search(query, k=k, filters=SearchFilters(**filters))
        return [h.model_dump() for h in hits]

    def search_many(self, queries: list[str], k: int, filters: dict[str, Any]) -> list[Doc]:
        hits = self.services.retriever.search_many(queries, k=k, filters=SearchFilters(**filters))
        return [h.model_dump() for h in hits]

    def search_sop(self, query: str, k: int) -> list[dict[str, Any]]:
        return [
            {"id": h.clause_id, "title": h.title, "text": h.text, "score": round(float(h.score), 4)}
            for h in self.services.sop_retriever.search(query, k)
        ]

    # -- SQL -------------------------------------------------------------------------------------
    def run_sql(self, sql: str) -> dict[str, Any]:
        return self.services.sql.run(sql)

    def finding_docs(self, finding_ids: list[str], sections: list[str] | None = None) -> list[Doc]:
        with self.services.sessions() as s:
            q = select(Chunk).where(Chunk.finding_id.in_(finding_ids))
            if sections:
                q = q.where(Chunk.section.in_(sections))
            chunks = s.scalars(q).all()
            findings = {
                f.id: f
                for f in s.scalars(
                    select(Finding).where(Finding.id.in_(finding_ids)).options(selectinload(Finding.dispositions), selectinload(Finding.report))
                )
            }
            rank = {fid: i for i, fid in enumerate(finding_ids)}
            chunks = sorted(chunks, key=lambda c: (rank[c.finding_id], _section_rank(c.section), c.ordinal))
            return [_doc(c, findings[c.finding_id]) for c in chunks]

    # -- report drafting -------------------------------------------------------------------------
    def draft_report(self, docs: list[Doc], sop: list[dict[str, Any]], readiness: ReportReadiness) -> dict[str, Any]:
        ids = list(dict.fromkeys(d["finding_id"] for d in docs if d.get("finding_id")))[:MAX_DRAFT_FINDINGS]
        with self.services.sessions() as s:
            rows = s.scalars(select(Finding).where(Finding.id.in_(ids)).options(selectinload(Finding.report), selectinload(Finding.dispositions))).all()
            by_id = {f.id: f for f in rows}
            findings = [by_id[i] for i in ids if i in by_id]
            texts: dict[str, list[str]] = {key: [] for key, _ in DRAFT_SECTIONS}
            cites: dict[str, list[dict[str, Any]]] = {key: [] for key, _ in DRAFT_SECTIONS}
            for f in findings:
                ref = {"finding_id": f.id, "report_id": f.report_id, "pages": [f.page_start, f.page_end]}
                r: Report = f.report
                texts["institution"].append(f"{f.institution or ', '.join(r.institutions)}")
                texts["background"].append(f"「{r.title}」({r.audit_type or '감사'}, {r.report_date or r.year or ''})")
                disp = ", ".join(f.disposition_list)
                texts["findings"].append(f"{f.title}({disp})\n{_excerpt(f.problems or f.overview)}")
                for key, value in (("criteria", f.criteria), ("opinion", f.opinion), ("actions", f.actions)):
                    if value:
                        texts[key].append(_excerpt(value))
                for key in ("institution", "background", "findings", "criteria", "opinion", "actions"):
                    cites[key].append(ref)
            for c in sop:
                texts["sop"].append(f"[{c['id']}] {c['title']}")
                cites["sop"].append({"sop_id": c["id"]})
        title = f"{readiness.institution or (findings[0].institution if findings else '')} 감사결과 보고서(초안)".strip()
        return {
            "title": title,
            "findings": ids,
            "sections": [
                {"key": key, "title": label, "text": "\n\n".join(dict.fromkeys(texts[key])), "citations": cites[key]}
                for key, label in DRAFT_SECTIONS
            ],
        }


def _section_rank(section: str) -> int:
    return SECTION_KINDS.index(section) if section in SECTION_KINDS else len(SECTION_KINDS)


def _excerpt(text: str, limit: int = 1200) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit].rsplit("\n", 1)[0] + " …"


def _doc(c: Chunk, f: Finding) -> Doc:
    r = f.report
    return {
        "chunk_id": c.id,
        "report_id": c.report_id,
        "finding_id": c.finding_id,
        "section": c.section,
        "page": c.page,
        "text": c.text,
        "heading": c.heading,
        "report_title": r.title,
        "finding_title": f.title,
        "dispositions": f.disposition_list,
        "institutions": [i for i in dict.fromkeys([f.responsible_org or "", *(f.action_orgs or "").split(", "), *r.institutions]) if i],
        "year": r.year,
        "score": 1.0,
        "dense_score": None,
        "lexical_score": None,
    }
