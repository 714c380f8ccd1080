"""The graph's ports: decision policies (``Policies``) and data services (``GraphServices``),
implemented in ``app`` (app/policies, app/agent/tools.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from graph.schemas import (
    AnalystAnswer,
    ConversationSummary,
    FieldSelection,
    GradeBatch,
    QueryRewrite,
    ReportReadiness,
    RouteDecision,
    SqlQuery,
    Verification,
)
from graph.state import Doc

T = TypeVar("T")


@dataclass(frozen=True)
class Decided(Generic[T]):
    """A decision and who made it."""

    value: T
    policy: str
    """'offline', 'llm', or 'offline-fallback' (the LLM failed; see error)."""
    llm_calls: int = 0
    error: str | None = None


@dataclass(frozen=True)
class Turn:
    """One past exchange, for prompts and offline policies."""

    question: str
    answer: str
    track: str | None = None
    """The track the turn took (chat, fast, deep, report), when known."""
    source: str | None = None
    """Where the turn's evidence came from ('manual' for an answer from the audit manual, else
    'reports'; every turn is recorded, chat and fast ones as 'reports'), when known."""
    coverage: str | None = None
    """How much of the question the turn's answer covered (``full``, ``partial``, ``none``), when known."""


class Policies(Protocol):
    def route(self, question: str, history: list[Turn], summary: str, retained: list[Doc]) -> Decided[RouteDecision]: ...

    def select_fields(
        self, question: str, hints: dict[str, Any], retained: list[Doc], route: Decided[RouteDecision] | None = None
    ) -> Decided[FieldSelection]:
        """Metadata filters and a search query; ``hints`` are the router's filters, ``retained``
        resolves anaphora such as '그 기관', ``route`` is this turn's route decision (from the
        graph state) whose extraction an implementation may reuse."""

    def plan_sql(self, question: str, fields: FieldSelection) -> Decided[SqlQuery]: ...

    def grade(self, question: str, docs: list[Doc], asked: str = "") -> Decided[GradeBatch]:
        """``question``: what the turn asks, on its own (the standalone question); ``asked``: the
        user's own words when they differ ('비슷한 다른 사례들은?'): how many findings they ask for."""

    def rewrite(self, question: str, query: str, tried: list[str], filters: dict[str, Any]) -> Decided[QueryRewrite]: ...

    def analyze(
        self, question: str, docs: list[Doc], sop: list[dict[str, Any]], sql: dict[str, Any] | None, feedback: str, history: list[Turn]
    ) -> Decided[AnalystAnswer]: ...

    def decline(self, question: str, gaps: list[str], nearest: list[Doc]) -> Decided[AnalystAnswer]:
        """The answer when the reports hold none: says so, names what was searched and the
        ``gaps`` (what the store does not cover), lists ``nearest`` as references only."""

    def verify(self, question: str, answer: AnalystAnswer, docs: list[Doc]) -> Decided[Verification]: ...

    def check_report(self, question: str, history: list[Turn], docs: list[Doc]) -> Decided[ReportReadiness]: ...

    def chat(self, question: str, history: list[Turn], summary: str) -> Decided[str]: ...

    def summarize(self, summary: str, turns: list[Turn]) -> Decided[ConversationSummary]: ...


class SqlRejected(ValueError):
    """The SQL failed validation or execution; the message says why (safe to show)."""


class GraphServices(Protocol):
    policies: Policies

    def search(self, query: str, k: int, filters: dict[str, Any]) -> list[Doc]:
        """Hybrid retrieval over report chunks, filters as SearchFilters fields."""

    def search_many(self, queries: list[str], k: int, filters: dict[str, Any]) -> list[Doc]:
        """Several queries fused (multi-query)."""

    def scope_gaps(self, question: str, filters: dict[str, Any]) -> list[str]:
        """What the question names that the store does not cover ('2019년', '한국도로공사'); empty
        when the reports could hold an answer."""

    def untold(self, question: str) -> list[str]:
        """What the question asks whether the reports also told of, in words no report uses ('그 해변에서 해파리 …
        것도 지적됐어?' -> ['해파리']); empty when they could hold it."""

    def mentioned(self, question: str, filters: dict[str, Any]) -> dict[str, list[str]]:
        """Organisations the question names that the reports mention but no finding is about
        ('장흥군'): the ids of the findings that mention each; empty when the filters name one."""

    def search_manual(self, question: str, k: int) -> list[Doc]:
        """The audit manual's clauses that answer a question about the manual itself, best first,
        as evidence (section ``MANUAL_SECTION``)."""

    def search_sop(self, query: str, k: int) -> list[dict[str, Any]]:
        """SOP clauses: {id, title, text, score}."""

    def sop_for_findings(self, question: str, titles: list[str], dispositions: list[str], k: int, query: str = "") -> list[dict[str, Any]]:
        """The SOP clauses that apply to the findings an answer is given (``titles`` best first,
        their ``dispositions`` in order): their violation type when clear, the dispositions'
        definitions. ``query``: the turn's search query (its meaning, as the search read it)."""

    def run_sql(self, sql: str) -> dict[str, Any]:
        """Validate and run one read-only SELECT: {query, columns, rows, row_count}. Raises SqlRejected."""

    def finding_rows(self, finding_ids: list[str]) -> dict[str, Any]:
        """These findings' id, title, disposition, institution and year, as ``run_sql`` returns rows."""

    def finding_docs(self, finding_ids: list[str], sections: list[str] | None = None) -> list[Doc]:
        """The stored chunks of these findings (optionally only some sections), in finding order."""

    def draft_report(self, docs: list[Doc], sop: list[dict[str, Any]], readiness: ReportReadiness) -> dict[str, Any]:
        """A structured report draft (sections with text and citations) from the evidence."""
