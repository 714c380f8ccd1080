"""HWPX (the Hancom Office format Korean public bodies write in) with python-hwpx: any list of
blocks, and a report draft arranged in the usual 감사보고서 order:

제목 · 대상 기관 · 감사 개요 · 지적 사항 (문제점 / 관계 법령·판단기준 / 관계기관 의견 /
조치할 사항, and each finding's disposition) · any section the auditor added · 적용 기준(SOP) ·
근거 목록 (every citation, numbered).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

from hwpx import HwpxDocument
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Finding, Report, ReportDraft
from app.reports.blocks import Block, text_blocks
from graph.vocab import section_label

MEDIA_TYPE = "application/hwp+zip"

FINDING_PARTS = (
    ("findings", "문제점"),
    ("criteria", section_label("criteria")),
    ("opinion", section_label("opinion")),
    ("actions", section_label("actions")),
)
"""The draft sections written under 지적 사항, in order, with the subheading each gets."""
LEADING = (("institution", "대상 기관"), ("background", "감사 개요"))


def to_hwpx(blocks: Iterable[Block]) -> bytes:
    """The blocks as an HWPX package: the title in large bold type, headings as outline levels
    (개요 1-3), each line of a paragraph its own paragraph, list items with a bullet."""
    doc = HwpxDocument.new()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        title_style = doc.ensure_run_style(bold=True, size=16)
        bold = doc.ensure_run_style(bold=True)
    first = True
    for b in blocks:
        lines = [ln.strip() for ln in b.text.splitlines() if ln.strip()] or [""]
        for i, line in enumerate(lines):
            if first:  # the new document's first paragraph carries the section properties
                doc.paragraphs[0].text = line
                first = False
                if b.kind == "title":
                    doc.paragraphs[0].char_pr_id_ref = title_style
                continue
            if b.kind in ("h1", "h2", "h3") and i == 0:
                doc.add_heading(line, level=int(b.kind[1]))
            elif b.kind == "title":
                doc.add_paragraph(line, char_pr_id_ref=title_style)
            elif b.kind == "label":
                doc.add_paragraph(line, char_pr_id_ref=bold)
            elif b.kind == "item" and i == 0:
                doc.add_paragraph(f"· {line}")
            else:
                doc.add_paragraph(line)
    return doc.to_bytes()


def citation_line(c: dict[str, Any], report_titles: dict[str, str]) -> str:
    """'finding id · 「report title」 · pp.a-b' or 'SOP id'."""
    if c.get("sop_id"):
        return f"SOP {c['sop_id']}"
    parts = [str(c.get("finding_id") or c.get("report_id") or "")]
    if (title := report_titles.get(c.get("report_id") or "")):
        parts.append(f"「{title}」")
    pages = [p for p in c.get("pages") or [] if p]
    if pages:
        lo, hi = min(pages), max(pages)
        parts.append(f"p.{lo}" if lo == hi else f"pp.{lo}-{hi}")
    return " · ".join(p for p in parts if p)


def report_blocks(draft: dict[str, Any], findings: list[dict[str, Any]], report_titles: dict[str, str]) -> list[Block]:
    """A report draft ({title, sections: [{key, title, text, citations}]}) in 감사보고서 order.
    ``findings``: the draft's findings as {id, title, dispositions}, for the 처분 lines."""
    sections = {s["key"]: s for s in draft.get("sections") or []}
    out = [Block("title", draft.get("title") or "감사결과 보고서(초안)")]
    for key, label in LEADING:
        out += [Block("h1", label), *_body(sections.get(key))]
    out.append(Block("h1", "지적 사항"))
    for key, label in FINDING_PARTS:
        out += [Block("h2", label), *_body(sections.get(key))]
    out.append(Block("h2", "처분"))
    out += [Block("item", f"{f['title']} ({f['id']}): {', '.join(f['dispositions']) or '처분 없음'}") for f in findings] or [Block("para", "—")]
    known = {k for k, _ in (*LEADING, *FINDING_PARTS)} | {"sop"}
    for s in draft.get("sections") or []:
        if s["key"] not in known:
            out += [Block("h1", s.get("title") or s["key"]), *_body(s)]
    if "sop" in sections:
        out += [Block("h1", sections["sop"].get("title") or "적용 기준(SOP)"), *_body(sections["sop"])]
    out.append(Block("h1", "근거 목록"))
    cites = list(dict.fromkeys(citation_line(c, report_titles) for s in draft.get("sections") or [] for c in s.get("citations") or []))
    out += [Block("item", f"[{i}] {c}") for i, c in enumerate(cites, start=1)] or [Block("para", "—")]
    return out


def _body(section: dict[str, Any] | None) -> list[Block]:
    blocks = text_blocks((section or {}).get("text") or "")
    return blocks or [Block("para", "—")]


def draft_hwpx(session: Session, draft: ReportDraft) -> bytes:
    """A stored draft as HWPX, its findings' titles and dispositions and its reports' titles
    read from the store (a finding no longer stored is listed by id)."""
    ids = list(draft.findings or [])
    rows = {f.id: f for f in session.scalars(select(Finding).where(Finding.id.in_(ids)))} if ids else {}
    findings = [{"id": i, "title": rows[i].title if i in rows else i,
                 "dispositions": rows[i].disposition_list if i in rows else []} for i in ids]
    report_ids = {c.get("report_id") for s in draft.sections or [] for c in s.get("citations") or [] if c.get("report_id")}
    titles = dict(session.execute(select(Report.id, Report.title).where(Report.id.in_(report_ids))).tuples().all()) if report_ids else {}
    body = {"title": draft.title, "sections": draft.sections}
    return to_hwpx(report_blocks(body, findings, titles))
