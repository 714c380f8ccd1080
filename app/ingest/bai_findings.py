"""The findings of a 감사원 report (see ``bai_parser`` for the two layouts): disposition forms
found by their '감사원' + '제목' header (layout B); in layout A each '조치할 사항' marker anchors a
finding that ends at its last action clause with a disposition tag, titled by the heading just
above its first subsection. A small state machine then cuts each finding into sections."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from app.ingest.bai_entities import addressees, amounts_in, institution_of, split_orgs
from app.ingest.bai_layout import (
    DISPOSITION_TAG,
    FIRST_SUBSECTION_KINDS,
    LETTER,
    Line,
    disposition_words,
    dispositions_in,
    heading_parts,
    is_title_candidate,
    section_kind,
    spaced,
    squash,
    strip_disposition_suffix,
)
from app.ingest.bai_meta import (
    clean_space,
)
from app.ingest.parsed import ParsedFinding, ParsedSection


@dataclass
class _Raw:
    """A finding located in the line list, before it is cut into sections."""

    start: int
    body: int
    end: int
    title: str
    header_dispositions: list[str] = field(default_factory=list)
    responsible: list[str] = field(default_factory=list)
    action_orgs: list[str] = field(default_factory=list)


_ACTION_TAG_LINE = re.compile(
    r"(?:다\.|고|며|편|하여|하되|바라며|하시고)\s*" + DISPOSITION_TAG.pattern
)


def _has_action_tag(lines: list[Line], i: int) -> bool:
    prev = lines[i - 1].text[-12:] if i > 0 else ""
    return bool(
        _ACTION_TAG_LINE.search(lines[i].text)
        or (DISPOSITION_TAG.match(lines[i].text.strip()) and re.search(r"(?:다\.|고|며)\s*$", prev))
    )


_MAX_ACTION_GAP = 25
"""Lines allowed between two disposition-tagged clauses of one 조치할 사항 (page breaks, footnotes)."""


def _actions_end(lines: list[Line], marker: int, limit: int) -> int:
    """Last line of the action paragraph that opens at ``marker`` (exclusive ``limit``)."""
    last = None
    for i in range(marker, limit):
        if _has_action_tag(lines, i):
            last = i
        elif i - (marker if last is None else last) > _MAX_ACTION_GAP:
            break
    if last is not None:
        return last
    for i in range(marker + 1, limit):
        if is_title_candidate(lines[i]) or re.match(
            r"^(?:제\d+[장절]|[ⅠⅡⅢⅣⅤ]|\[별표)", lines[i].key
        ):
            return i - 1
    return limit - 1


def _form_starts(lines: list[Line], lo: int) -> list[int]:
    starts = []
    for i in range(lo, len(lines)):
        if lines[i].key == "감사원" and any(
            ln.key.startswith("제목") for ln in lines[i + 1 : i + 4]
        ):
            starts.append(i)
    return starts


def _after(text: str, word: str) -> str:
    m = re.match(r"^\s*" + spaced(word) + r"\s*", text)
    return text[m.end() :].strip() if m else text.strip()


def _form(lines: list[Line], start: int, region_end: int) -> _Raw:
    """One disposition form (layout B) from its '감 사 원' line."""
    i = start + 1
    header: list[str] = []
    while i < region_end and not lines[i].key.startswith("제목"):
        header.append(lines[i].text)
        i += 1
    title = _after(lines[i].text, "제목")
    i += 1
    while (
        i < region_end
        and i < start + 8
        and not lines[i].key.startswith(("소관기관", "조치기관", "내용"))
    ):
        title = f"{title} {lines[i].text}".strip()
        i += 1
    responsible: list[str] = []
    action_orgs: list[str] = []
    while i < region_end and lines[i].key.startswith(("소관기관", "조치기관")):
        if lines[i].key.startswith("소관기관"):
            responsible = split_orgs(_after(lines[i].text, "소관기관"))
        else:
            action_orgs = split_orgs(_after(lines[i].text, "조치기관"))
        i += 1
    if i < region_end and lines[i].key.startswith("내용"):
        rest = _after(lines[i].text, "내용")
        i += 0 if rest else 1
    marker = next(
        (k for k in range(i, region_end) if (sk := section_kind(lines[k])) and sk[0] == "actions"),
        None,
    )
    end = _actions_end(lines, marker, region_end) if marker is not None else region_end - 1
    header_disps = disposition_words(" ".join(header).replace("요구", ""))
    return _Raw(start, i, end, title, header_disps, responsible, action_orgs)


_EMBEDDED_CODE = re.compile(r"\s(-?(?:\d{1,2}-)?L-\d{1,2}\)?\.?\s+\S.{3,})$".replace("L", LETTER))


def _find_title(lines: list[Line], lo: int, hi: int) -> tuple[int, str] | None:
    """(line index, title) of the finding whose actions marker is at ``hi``, searching from ``lo``."""
    first = next(
        (
            i
            for i in range(lo, hi)
            if (sk := section_kind(lines[i])) and sk[0] in FIRST_SUBSECTION_KINDS
        ),
        None,
    )
    if first is None:
        candidates = [i for i in range(lo, hi) if is_title_candidate(lines[i])]
        return (candidates[-1], _title_text(lines[candidates[-1]].text)) if candidates else None
    embedded = _EMBEDDED_CODE.search(lines[first - 1].text) if first > lo else None
    if embedded and not is_title_candidate(lines[first - 1]):
        # text extraction sometimes glues hidden text before the heading ('... 4980 -나-1) 제목')
        return first - 1, _title_text(embedded.group(1))
    for j in range(first - 1, max(lo, first - 4) - 1, -1):
        if is_title_candidate(lines[j]):
            continuation = [ln.text for ln in lines[j + 1 : first]]
            if all(len(t) < 45 and not t.endswith("다.") for t in continuation):
                return j, _title_text(" ".join([lines[j].text, *continuation]))
            break
    for j in range(first - 1, lo - 1, -1):
        if is_title_candidate(lines[j]):
            return j, _title_text(lines[j].text)
    return None


def _title_text(text: str) -> str:
    parts = heading_parts(text)
    title = parts[1] if parts else text
    title = re.sub(r"^문제점\s*[:：]\s*[①-⑳]?\s*", "", title)
    title, _ = strip_disposition_suffix(clean_space(title))
    return title


def find_findings(lines: list[Line], lo: int, toc: list[str]) -> list[ParsedFinding]:
    raws: list[_Raw] = []
    forms = _form_starts(lines, lo)
    form_regions = [
        (s, forms[k + 1] if k + 1 < len(forms) else len(lines)) for k, s in enumerate(forms)
    ]
    for s, e in form_regions:
        raws.append(_form(lines, s, e))

    def in_form(i: int) -> bool:
        return any(s <= i < e for s, e in form_regions)

    markers = [
        i
        for i in range(lo, len(lines))
        if not in_form(i) and (sk := section_kind(lines[i])) and sk[0] == "actions"
    ]
    prev_end = lo - 1
    for k, marker in enumerate(markers):
        limit = markers[k + 1] if k + 1 < len(markers) else len(lines)
        limit = min([limit] + [s for s, _ in form_regions if s > marker])
        found = _find_title(lines, prev_end + 1, marker)
        end = _actions_end(lines, marker, limit)
        if found is None:
            start, title = prev_end + 1, ""
        else:
            start, title = found
        raws.append(_Raw(start, start + 1 if found else start, end, title))
        prev_end = end
    raws.sort(key=lambda r: r.start)

    toc_titles = [strip_disposition_suffix(e) for e in toc]
    return [_build(lines, raw, n, toc_titles) for n, raw in enumerate(raws, start=1)]


def _toc_dispositions(title: str, toc_titles: list[tuple[str, list[str]]]) -> list[str]:
    key = squash(title)
    for entry, words in toc_titles:
        entry_key = squash(re.sub(r"^\s*(?:\(\d+\)|\d+\.|[가-힣]\.)\s*", "", entry))
        if words and key and (entry_key.endswith(key) or key.startswith(entry_key[-20:] or "\0")):
            return words
    return []


def _build(
    lines: list[Line], raw: _Raw, number: int, toc_titles: list[tuple[str, list[str]]]
) -> ParsedFinding:
    sections: list[ParsedSection] = []
    kind, buf, page = (
        "overview",
        [],
        lines[raw.body].page if raw.body <= raw.end else lines[raw.start].page,
    )

    def flush() -> None:
        text = "\n".join(buf).strip()
        if text:
            sections.append(ParsedSection(kind=kind, text=text, page=page))

    for ln in lines[raw.body : raw.end + 1]:
        sk = section_kind(ln)
        if sk:
            flush()
            kind, buf, page = sk[0], [sk[1]] if sk[1] else [], ln.page
        else:
            buf.append(ln.text)
    flush()

    actions = "\n".join(s.text for s in sections if s.kind == "actions")
    title_tags = strip_disposition_suffix(lines[raw.start].text)[1] if raw.start != raw.body else []
    dispositions = dispositions_in(actions)
    for word in raw.header_dispositions + title_tags + _toc_dispositions(raw.title, toc_titles):
        if word not in dispositions:
            dispositions.append(word)

    action_orgs = list(raw.action_orgs)
    if not action_orgs:
        for line_text in actions.split("\n"):
            for who in addressees(line_text):
                org = institution_of(who)
                if org and org not in action_orgs:
                    action_orgs.append(org)
    responsible = (
        ", ".join(raw.responsible) if raw.responsible else (action_orgs[0] if action_orgs else None)
    )
    all_text = raw.title + "\n" + "\n".join(s.text for s in sections)
    return ParsedFinding(
        number=number,
        title=raw.title,
        dispositions=dispositions,
        responsible_org=responsible,
        action_orgs=action_orgs,
        sections=sections,
        amounts_krw=amounts_in(all_text),
        page_start=lines[raw.start].page,
        page_end=lines[raw.end].page,
    )
