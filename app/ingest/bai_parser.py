"""Parse a 감사원 (Board of Audit and Inspection) 감사보고서 into findings and sections.

Input is a LoadedDocument (one text string per PDF page); output a ParsedReport.

What the reports look like
--------------------------
Cover: audit type ('국민제안감사', '기관정기감사', ...), '감 사 보 고 서', the title (often between
dashes, sometimes over two lines), the date ('2025. 9.') and '감 사 원'. Then a 목차, which in
some reports lists every finding with its dispositions ('2. 해운대구의 ... 부적정(주의) · 3').
The body opens with 'Ⅰ. 감사실시 개요' (or '제1장 감사실시 개요'), then 'Ⅱ. 감사대상 ... 현황',
then 'Ⅲ. 감사결과' whose first part is the 총괄 ('1 총괄', '1. 감사결과 총괄', '제1절 총괄').

Findings come in two layouts, and both can be nested under chapters (분야, 절):

* Layout A, numbered sections: a heading ('2 해운대구의 ... 부적정', '가-1 ...', '-가-2) ...',
  '3. 문제점: ① ...', '나 ...[통보2·주의]') followed by subsections such as '1. 업무 개요',
  '가. 관계 법령과 판단기준', '나. 감사결과 확인된 문제점', a paragraph opening with
  '관계기관 의견' and one opening with '조치할 사항' whose clauses end in disposition tags
  ('...바랍니다.(주의)', '...마련하며(통보)').
* Layout B, disposition forms: '감 사 원' / '주 의 요 구' (or '주의요구 및 통보', ...) /
  '제 목 ...' / '소 관 기 관 ...' / '조 치 기 관 ...' / '내 용', then '1. 업무 개요',
  '2. 관계법령 및 판단기준', '3. 감사결과 확인된 문제점', '4. 관계기관 의견', '5. 조치할 사항'.
  A form whose text is withheld (비공개) still counts as a finding: title and dispositions
  come from the form header, and it has no actions section.

How the parser works
--------------------
Lines are normalised first (app.ingest.bai_layout): page furniture removed, glued markers
split, and every comparison made on a whitespace-free key, so '조치할사항' and
'조 치 할 사 항' match alike. Forms are found by their '감사원' + '제목' header. In layout A the
'조치할 사항' marker anchors each finding: the finding ends at the last action clause with a
disposition tag; its title is the heading just above its first subsection ('업무 개요', '관계
법령 ... 판단기준', ...) found after the previous finding's end, or, when that subsection does
not follow the heading directly, the nearest title-like heading above it. A small state
machine then cuts the finding into sections by their headings (app.ingest.bai_findings).
"""

from __future__ import annotations

from app.ingest.bai_findings import find_findings
from app.ingest.bai_layout import (
    normalise_pages,
    squash,
)
from app.ingest.bai_meta import (
    body_start,
    clean_space,
    cover_metadata,
    declared_counts,
    report_sections,
    toc_entries,
    year_month,
)
from app.ingest.parsed import LoadedDocument, ParsedReport

__all__ = ["looks_like_audit_report", "parse_report"]


def looks_like_audit_report(doc: LoadedDocument) -> bool:
    """True for 감사원-style 감사보고서 text: the cover names both, the body has findings' markers."""
    head = squash(" ".join(doc.pages[:3]))
    if "감사보고서" not in head or "감사원" not in head:
        return False
    body = squash(" ".join(doc.pages))
    return "조치할사항" in body or ("감사결과" in body and "감사실시개요" in body)


def parse_report(
    doc: LoadedDocument,
    *,
    title: str | None = None,
    audit_type: str | None = None,
    report_date: str | None = None,
) -> ParsedReport:
    """Parse an audit report; keyword arguments (e.g. from a manifest) override the cover."""
    lines = normalise_pages(doc.pages)
    cover = cover_metadata(lines)
    start = body_start(lines)
    toc = toc_entries(lines[:start])
    sections, summary_range = report_sections(lines, start)
    findings_from = summary_range[0] + 1 if summary_range else start
    findings = find_findings(lines, findings_from, toc)
    if summary_range and findings:
        # the 총괄 never runs into the first finding
        first = findings[0].page_start
        sections = [s for s in sections if s.kind != "report_summary" or s.page <= first]

    date = report_date or cover.get("date")
    year, month = year_month(date)
    institutions: list[str] = []
    for f in findings:
        for org in ([f.responsible_org] if f.responsible_org else []) + f.action_orgs:
            for name in org.split(", "):
                if name and name not in institutions:
                    institutions.append(name)
    return ParsedReport(
        title=clean_space(title or cover.get("title") or ""),
        audit_type=audit_type or cover.get("audit_type"),
        report_date=date,
        year=year,
        month=month,
        institutions=institutions,
        findings=findings,
        sections=sections,
        declared_counts=declared_counts(lines, toc, summary_range),
    )
