"""Report-level parts of a 감사원 report: cover metadata, 목차, report sections, declared counts.

Used by app.ingest.bai_parser (see its docstring for the layouts).
"""

from __future__ import annotations

import re

from app.ingest.bai_layout import Line, strip_disposition_suffix
from app.ingest.parsed import ParsedSection
from graph.vocab import DISPOSITIONS


def clean_space(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def cover_metadata(lines: list[Line]) -> dict[str, str]:
    """Title, audit type and date from the cover page (page 1)."""
    cover = [ln for ln in lines if ln.page == 1]
    out: dict[str, str] = {}
    title_parts: list[str] = []
    in_title = False
    for ln in cover:
        key = ln.key
        m = re.match(r"^(\d{4})\.(\d{1,2})\.?$", key)
        if m:
            out.setdefault("date", f"{m.group(1)}. {int(m.group(2))}.")
            in_title = False
            continue
        rest = key.replace("감사보고서", "").replace("감사원", "")
        if re.fullmatch(r"[가-힣]{2,12}감사", rest):
            out.setdefault("audit_type", rest)
        if re.fullmatch(r"(?:[가-힣]{2,12}감사)?감사보고서", key):  # the heading line itself, not a
            in_title = True  # sentence that mentions 감사보고서 (e.g. a sample's fictional-data notice)
            continue
        if in_title and key and "date" not in out:
            title_parts.append(ln.text)
    title = " ".join(title_parts)
    title = re.sub(r"^\s*-\s*|\s*-\s*$", "", title.strip())
    title = re.sub(r"\s+-\s+(?=\()", " ", title)
    if title:
        out["title"] = clean_space(title)
    return out


def is_toc_entry(ln: Line) -> bool:
    return bool(re.search(r"(?:·|…|ㆍ|\.{3,}|·{3,}|\s)\s*\d{1,3}$", ln.text)) or bool(
        re.search(r"/\s*\d{1,3}$", ln.text)
    )


def body_start(lines: list[Line]) -> int:
    """Index of the '감사실시 개요' heading that opens the body (not its 목차 entry)."""
    for i, ln in enumerate(lines):
        if re.match(r"^(?:Ⅰ\.?|제1장)감사실시개요", ln.key) and not is_toc_entry(ln):
            return i
    return 0


def toc_entries(lines: list[Line]) -> list[str]:
    """목차 entries (text without the page number), wrapped entries joined."""
    entries: list[str] = []
    pending = ""
    started = False
    for ln in lines:
        if ln.key.startswith("목차"):
            started = True
            continue
        if not started or re.match(r"^(?:표|그림|도표|별표)목차", ln.key):
            if started and ln.key.endswith("목차"):
                break
            continue
        text = (pending + " " + ln.text).strip() if pending else ln.text
        if is_toc_entry(ln):
            text = re.sub(r"\s*(?:[·…ㆍ]+|\.{3,}|/)?\s*\d{1,3}$", "", text).strip(" ·")
            entries.append(clean_space(text))
            pending = ""
        else:
            pending = text
    return entries


def _find(lines: list[Line], pattern: str, lo: int, hi: int | None = None) -> int | None:
    rx = re.compile(pattern)
    for i in range(lo, len(lines) if hi is None else hi):
        if rx.match(lines[i].key) and not is_toc_entry(lines[i]):
            return i
    return None


def report_sections(
    lines: list[Line], body_start: int
) -> tuple[list[ParsedSection], tuple[int, int] | None]:
    """report_overview / report_subject / report_summary, and the 총괄's line range."""
    sections: list[ParsedSection] = []
    subject = _find(lines, r"^(?:Ⅱ\.?|제2장)", body_start + 1)
    results = _find(lines, r"^(?:Ⅲ\.?|제3장)", (subject or body_start) + 1)
    summary = _find(lines, r"^(?:\d\.?|제\d절|Ⅲ\.?|제\d장)?(?:감사결과)?총괄$", body_start + 1)
    summary_range: tuple[int, int] | None = None
    if summary is not None:
        end = len(lines)
        for i in range(summary + 1, len(lines)):
            ln = lines[i]
            if len(ln.text) < 45 and re.match(r"^(?:2\.?(?![\d.])\D|제2절|Ⅳ|제4장)", ln.key):
                end = i
                break
        summary_range = (summary, end)
    spans = [
        ("report_overview", body_start, subject if subject is not None else results),
        ("report_subject", subject, results if results is not None else summary),
        ("report_summary", summary, summary_range[1] if summary_range else None),
    ]
    for kind, lo, hi in spans:
        if lo is None or hi is None or hi <= lo:
            continue
        text = "\n".join(ln.text for ln in lines[lo:hi])
        sections.append(ParsedSection(kind=kind, text=text, page=lines[lo].page))
    return sections, summary_range


def year_month(date: str | None) -> tuple[int | None, int | None]:
    m = re.match(r"^\s*(\d{4})\.\s*(\d{1,2})", date or "")
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def declared_counts(
    lines: list[Line], toc: list[str], summary_range: tuple[int, int] | None
) -> dict[str, int]:
    """What the report itself declares. Keys filled (each only when stated):

    * 'findings': the number of findings the report lists: 목차 entries that end in a
      disposition tag ('...부적정(주의)'), else '총 N개 사항' / 'N개 사항에 대하여' in the 총괄.
    * 'items': the 총괄's '총 N건' (disposition items; reports count these per addressee or
      disposition, so it is usually larger than the number of findings).
    * one key per disposition word of DISPOSITIONS ('주의', '통보', ...): counts stated in the
      총괄 text ('주의(1건)', '주의 6건', '통보 6건') or, failing that, in a one-row summary table
      ('구분 합계 주의 통보' / '건수 6 2 4'). Statements about withheld (비공개) items are ignored.
    """
    counts: dict[str, int] = {}
    toc_findings = [e for e in toc if strip_disposition_suffix(e)[1]]
    if toc_findings:
        counts["findings"] = len(toc_findings)
    if not summary_range:
        return counts
    block = lines[summary_range[0] : summary_range[1]]
    text = " ".join(ln.text for ln in block)
    text = " ".join(s for s in re.split(r"(?<=다\.)|(?<=\))\s", text) if "비공개" not in s)
    if "findings" not in counts:
        m = re.search(r"(\d+)\s*개\s*사항", text)
        if m:
            counts["findings"] = int(m.group(1))
    m = re.search(r"총\s*(\d+)\s*건", text)
    if m:
        counts["items"] = int(m.group(1))
        # per-disposition counts from the sentence that states the total
        text = next((s for s in re.split(r"(?<=다\.)", text) if m.group(0) in s), text)
    for word, number in re.findall(
        r"(" + "|".join(DISPOSITIONS) + r")(?:\s*요구)?\s*\(?\s*(\d+)\s*건", text
    ):
        counts.setdefault(word, int(number))
    if not any(w in counts for w in DISPOSITIONS):
        _table_counts(block, counts)
    return counts


def _table_counts(block: list[Line], counts: dict[str, int]) -> None:
    """Disposition counts from a simple '합계 주의 통보' header followed by a row of numbers."""
    for i, ln in enumerate(block):
        tokens = ln.text.split()
        if "합계" not in tokens:
            continue
        words = [re.sub(r"\(.*\)$", "", t) for t in tokens[tokens.index("합계") + 1 :]]
        if not words or any(w not in DISPOSITIONS for w in words):
            continue
        for row in block[i + 1 : i + 3]:
            numbers = [t for t in row.text.split() if re.fullmatch(r"\d+|-", t)]
            if len(numbers) == len(words) + 1 and numbers[0].isdigit():
                counts.setdefault("items", int(numbers[0]))
                for word, value in zip(words, numbers[1:], strict=True):
                    counts[word] = int(value) if value.isdigit() else 0
                return
