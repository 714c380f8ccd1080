"""Plain data produced by loaders and the report parser, before anything is stored."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class LoadedDocument:
    """Text pulled out of one file, page by page (1-based page = index + 1)."""

    path: str
    sha256: str
    pages: list[str]
    format: str
    """One of: pdf, hwp, hwpx, docx, txt, md."""


@dataclass
class ParsedSection:
    """A stretch of report text that becomes one or more chunks."""

    kind: str
    """A finding section kind from ``graph.vocab.SECTION_KINDS``, or a report-level kind from
    ``graph.vocab.REPORT_SECTION_KINDS``."""
    text: str
    page: int
    """1-based page where the section starts."""


@dataclass
class ParsedFinding:
    """One 지적사항 (finding) of an audit report."""

    number: int
    """1-based order of the finding in the report."""
    title: str
    """The finding title without the trailing disposition, e.g. '위원 제척 부적정'."""
    dispositions: list[str]
    """Distinct dispositions in order of first appearance, e.g. ['주의', '통보']."""
    responsible_org: str | None = None
    """소관 기관."""
    action_orgs: list[str] = field(default_factory=list)
    """조치 기관 (the addressees of 조치할 사항)."""
    sections: list[ParsedSection] = field(default_factory=list)
    """The finding's sections, each with a kind from ``graph.vocab.SECTION_KINDS``."""
    amounts_krw: list[int] = field(default_factory=list)
    """Money amounts stated in the finding, in won."""
    page_start: int = 1
    page_end: int = 1

    def section_text(self, kind: str) -> str:
        return "\n".join(s.text for s in self.sections if s.kind == kind)


@dataclass
class ParsedReport:
    """An audit report turned into metadata, findings and report-level sections."""

    title: str
    audit_type: str | None
    """e.g. 기관정기감사, 성과감사, 특정사안감사, 국민제안감사."""
    report_date: str | None
    """As printed, e.g. '2025. 9.'."""
    year: int | None
    month: int | None
    institutions: list[str]
    """Audited institutions (감사대상기관)."""
    findings: list[ParsedFinding]
    sections: list[ParsedSection]
    """Report-level sections (개요, 대상 현황, 총괄)."""
    declared_counts: dict[str, int] = field(default_factory=dict)
    """What the report's own summary table or 목차 says, e.g. {'findings': 2, '주의': 1, '통보': 1};
    empty when the report has no such statement. Used to check the parse."""
