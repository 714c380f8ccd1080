"""``AgentTools``: the graph's ``GraphServices`` port (graph/ports.py) on the container's stores,
retrievers and policies. The one place graph requests become searches, SQL and ORM queries."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from app.container import Container
from app.db.models import Chunk, Finding
from app.reports.draft import draft_report
from app.retrieval.filters import SearchFilters
from graph.ports import Policies
from graph.schemas import ReportReadiness
from graph.state import Doc
from graph.vocab import SECTION_KINDS


class AgentTools:
    def __init__(self, container: Container, policies: Policies) -> None:
        self.container = container
        self.policies = policies

    # -- retrieval -------------------------------------------------------------------------------
    def search(self, query: str, k: int, filters: dict[str, Any]) -> list[Doc]:
        hits = self.container.retriever.search(query, k=k, filters=SearchFilters(**filters))
        return [h.model_dump() for h in hits]

    def search_many(self, queries: list[str], k: int, filters: dict[str, Any]) -> list[Doc]:
        hits = self.container.retriever.search_many(queries, k=k, filters=SearchFilters(**filters))
        return [h.model_dump() for h in hits]

    def search_sop(self, query: str, k: int) -> list[dict[str, Any]]:
        return [
            {"id": h.clause_id, "title": h.title, "text": h.text, "score": round(float(h.score), 4)}
            for h in self.container.sop_retriever.search(query, k)
        ]

    # -- SQL -------------------------------------------------------------------------------------
    def run_sql(self, sql: str) -> dict[str, Any]:
        return self.container.sql.run(sql)

    def finding_docs(self, finding_ids: list[str], sections: list[str] | None = None) -> list[Doc]:
        with self.container.sessions() as s:
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

    def finding_rows(self, finding_ids: list[str]) -> dict[str, Any]:
        return self.container.sql.run(
            "SELECT id, title, disposition, institution, year FROM findings"
            f" WHERE id IN ({', '.join(_literal(i) for i in finding_ids)}) ORDER BY id"
        )

    # -- report drafting -------------------------------------------------------------------------
    def draft_report(self, docs: list[Doc], sop: list[dict[str, Any]], readiness: ReportReadiness) -> dict[str, Any]:
        return draft_report(self.container.sessions, docs, sop, readiness)


def _literal(value: str) -> str:
    """A SQL string literal."""
    return "'" + value.replace("'", "''") + "'"


def _section_rank(section: str) -> int:
    return SECTION_KINDS.index(section) if section in SECTION_KINDS else len(SECTION_KINDS)


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
