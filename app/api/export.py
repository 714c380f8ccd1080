"""A report draft as Markdown or DOCX: the title, a heading per section, its text, and the
citations listed under it."""

from __future__ import annotations

import io
import re
from typing import Any
from urllib.parse import quote

from docx import Document

MEDIA_TYPES = {
    "md": "text/markdown; charset=utf-8",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}


def citation_text(c: dict[str, Any]) -> str:
    if c.get("sop_id"):
        return f"SOP {c['sop_id']}"
    parts = [str(c.get("finding_id") or c.get("report_id") or "")]
    pages = [p for p in c.get("pages") or [] if p]
    if c.get("report_id") and c.get("finding_id"):
        parts.append(f"보고서 {c['report_id']}")
    if pages:
        lo, hi = min(pages), max(pages)
        parts.append(f"p.{lo}" if lo == hi else f"pp.{lo}-{hi}")
    return ", ".join(p for p in parts if p) or str(c)


def _citations(section: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(citation_text(c) for c in section.get("citations") or []))


def to_markdown(title: str, sections: list[dict[str, Any]]) -> str:
    lines = [f"# {title}", ""]
    for s in sections:
        lines += [f"## {s['title']}", ""]
        if s.get("text"):
            lines += [s["text"].strip(), ""]
        if cites := _citations(s):
            lines += ["근거:", *(f"- {c}" for c in cites), ""]
    return "\n".join(lines).rstrip() + "\n"


def to_docx(title: str, sections: list[dict[str, Any]]) -> bytes:
    doc = Document()
    doc.add_heading(title, level=0)
    for s in sections:
        doc.add_heading(s["title"], level=1)
        for para in re.split(r"\n\s*\n", (s.get("text") or "").strip()):
            if para:
                doc.add_paragraph(para)
        if cites := _citations(s):
            doc.add_paragraph("근거:")
            for c in cites:
                doc.add_paragraph(c, style="List Bullet")
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def content_disposition(title: str, report_id: str, fmt: str) -> str:
    """An ASCII fallback name and the UTF-8 title (RFC 6266 / 5987)."""
    safe = re.sub(r"[\\/:*?\"<>|\r\n]+", "_", title).strip() or "report"
    return f"attachment; filename=\"report-{report_id}.{fmt}\"; filename*=UTF-8''{quote(safe[:120])}.{fmt}"
