"""The words AURA's parts share: tracks, modes, section kinds and their labels, dispositions,
report fields, relaxable filters. Defined once here and imported by the graph, ingest,
policies, SQL, API and UI (``tests/unit/test_vocab.py`` fails when a second list appears).

The graph owns this module because the graph's state and decisions speak these words; it
imports nothing.
"""

from __future__ import annotations

from typing import Literal, get_args

Track = Literal["chat", "fast", "deep", "report"]
"""The path a turn takes: small talk, a quick (SQL) lookup, evidence analysis, a report draft."""
Mode = Literal["auto", "chat", "fast", "deep", "report"]
"""What a caller asks for: 'auto' lets the router choose, anything else forces that track."""
TRACKS: tuple[str, ...] = get_args(Track)
MODES: tuple[str, ...] = get_args(Mode)

SECTION_KINDS = ("overview", "criteria", "problems", "opinion", "actions")
"""Finding section kinds, in report order: 업무 개요 / 관계 법령·판단기준 / 감사결과 확인된
문제점 / 관계기관 의견 (the audited agency's response, not the auditor's opinion) / 조치할 사항."""
REPORT_SECTION_KINDS = ("report_overview", "report_subject", "report_summary", "body")
"""Report-level kinds: 감사실시 개요, 감사대상 현황, 감사결과 총괄, and the text of a
non-감사원 document."""

SECTION_LABELS: dict[str, dict[str, str]] = {
    "ko": {
        "overview": "업무 개요",
        "criteria": "관계 법령·판단기준",
        "problems": "감사결과 확인된 문제점",
        "opinion": "관계기관 의견",
        "actions": "조치할 사항",
        "report_overview": "감사실시 개요",
        "report_subject": "감사대상 현황",
        "report_summary": "감사결과 총괄",
        "body": "본문",
        "manual": "감사 실무 매뉴얼(SOP)",
    },
    "en": {
        "overview": "background",
        "criteria": "criteria",
        "problems": "problems found",
        "opinion": "agency response",
        "actions": "required actions",
        "report_overview": "audit overview",
        "report_subject": "audited subject",
        "report_summary": "summary",
        "body": "text",
        "manual": "audit manual (SOP)",
    },
}
"""Every section kind's label per language (ko is what reports print)."""

DISPOSITIONS = ("징계", "문책", "시정", "주의", "통보", "개선", "권고", "변상", "고발", "훈계", "인사자료")
"""Disposition (처분) words in the order the 감사원 lists them; the values stored per finding."""

QuestionKind = Literal["similar_cases", "disposition", "actions", "institution", "legal_basis", "summary"]
"""The six kinds of question auditors ask (../shared/docs/AUDITOR-QUESTIONS.md): past findings
with the same problem pattern; the disposition a violation deserves; from a demanded action back
to its problem; a named institution's or report's findings; the laws a finding rests on; a
summary."""
QUESTION_KINDS: tuple[str, ...] = get_args(QuestionKind)

REPORT_FIELDS = ("institution", "period", "findings", "criteria", "actions")
"""What a report draft needs; ``ReportReadiness.missing`` names these."""

RELAXABLE_FILTER_KEYS: dict[str, tuple[str, ...]] = {
    "sections": ("sections",),
    "dispositions": ("dispositions",),
    "years": ("year_from", "year_to"),
    "institutions": ("institutions",),
}
"""Filters a rewrite may drop, narrowest first (a section hint excludes most), and the
SearchFilters fields each one clears."""
RELAXABLE_FILTERS = tuple(RELAXABLE_FILTER_KEYS)


def section_label(kind: str | None, lang: str = "ko") -> str:
    """The label of a section kind ('' for none; an unknown kind as itself)."""
    return SECTION_LABELS.get(lang, SECTION_LABELS["ko"]).get(kind or "", kind or "")


def language(text: str) -> str:
    """'ko' when the text is mostly Hangul (a third of the Latin letters is enough), else 'en'."""
    hangul = sum("가" <= ch <= "힣" for ch in text)
    latin = sum(ch.isascii() and ch.isalpha() for ch in text)
    return "ko" if hangul >= latin / 3 else "en"


Source = Literal["reports", "manual"]
"""Where a deep turn finds its evidence: the audit reports' findings, or the audit manual (the SOP
clauses in ``sop/``) when the question asks what the manual says ('주의 요구는 언제 쓰는 거야?')."""
MANUAL_SECTION = "manual"
"""The section kind of a manual clause given as evidence (its ``report_id`` is its document's id,
its ``chunk_id`` ``MANUAL_CHUNK_PREFIX`` + the clause id)."""
MANUAL_CHUNK_PREFIX = "sop:"


def manual_title(document_title: str) -> str:
    """What a manual clause shows in place of a report's title: '감사 실무 매뉴얼(SOP) · 감사 수행 절차'."""
    return f"{SECTION_LABELS['ko'][MANUAL_SECTION]} · {document_title}"


def manual_heading(clause_id: str, title: str) -> str:
    """A manual clause's heading as evidence shows it: '[SOP-CLS-08] 주의 요구의 정의와 적용'."""
    return f"[{clause_id}] {title}"

Coverage = Literal["full", "partial", "none"]
"""How far the ingested reports answer a question (graph state, API, CLI and UI)."""
COVERAGES: tuple[Coverage, ...] = get_args(Coverage)
