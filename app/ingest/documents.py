"""Turn a loaded file into a ParsedReport: a 감사원 report through the report parser, any other
document as one 'body' section per page. Metadata may come from a manifest.csv beside the file."""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

from app.ingest.bai_parser import looks_like_audit_report, parse_report
from app.ingest.parsed import LoadedDocument, ParsedReport, ParsedSection

_PAGE_FOOTER = re.compile(r"^\s*-\s*\d{1,4}\s*-\s*$", re.MULTILINE)
_YEAR_MONTH = re.compile(r"(20\d\d)\s*[.년]\s*(\d{1,2})")


@lru_cache(maxsize=64)
def _manifest(directory: str) -> dict[str, dict[str, str]]:
    path = Path(directory) / "manifest.csv"
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    out: dict[str, dict[str, str]] = {}
    for row in rows:
        name = row.get("pdf") or row.get("file") or ""
        if name:
            out[Path(name).name] = row
    return out


def manifest_metadata(path: str | Path) -> dict[str, str]:
    """title / audit_type / report_date for this file from a manifest.csv beside it, if any."""
    path = Path(path)
    row = _manifest(str(path.parent.resolve())).get(path.name, {})
    return {k: row[k].strip() for k in ("title", "audit_type", "report_date") if row.get(k, "").strip()}


def generic_document(doc: LoadedDocument, title: str | None = None) -> ParsedReport:
    """A document that is not an audit report: searchable text, no findings."""
    first_line = next((ln.strip() for p in doc.pages for ln in p.splitlines() if ln.strip()), Path(doc.path).stem)
    sections = [
        ParsedSection(kind="body", text=_PAGE_FOOTER.sub("", page).strip(), page=i + 1)
        for i, page in enumerate(doc.pages)
        if page.strip()
    ]
    head = "\n".join(doc.pages[:1])
    ym = _YEAR_MONTH.search(head)
    return ParsedReport(
        title=(title or first_line)[:500],
        audit_type=None,
        report_date=None,
        year=int(ym.group(1)) if ym else None,
        month=int(ym.group(2)) if ym else None,
        institutions=[],
        findings=[],
        sections=sections,
    )


def parse_document(doc: LoadedDocument) -> tuple[str, ParsedReport]:
    """('audit_report' | 'document', parsed). The report parser's errors propagate."""
    meta = manifest_metadata(doc.path)
    if looks_like_audit_report(doc):
        return "audit_report", parse_report(doc, **meta)
    return "document", generic_document(doc, meta.get("title"))
