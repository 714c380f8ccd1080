"""The policies the graph is given: the LLM where it is configured and answers well, the offline
policies everywhere else.

Every decision goes through ``FallbackPolicies._decide``:

- no LLM -> the offline decision (``policy="offline"``);
- the LLM decided (or left the decision to the offline policies, see ``app.policies.llm``)
  -> its ``Decided``;
- the LLM failed with an ``LlmError`` (timeout, connection error, HTTP 5xx/429, 401/403) or an
  invalid decision (``PolicyError``: malformed JSON, schema violation, a citation to nothing;
  a pydantic ``ValidationError``) -> the offline decision as ``"offline-fallback"`` with a short
  ``error`` naming the cause, logged as a warning (no stack trace).

Anything else is a bug and propagates. ``llm_calls`` counts the calls actually made, failed
ones included.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import ValidationError

from app.llm.errors import LlmError
from app.llm.providers import to_llm_error
from app.policies.llm import LlmPolicies
from graph.ports import Decided, Policies, Turn
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

if TYPE_CHECKING:
    from app.settings import Settings

log = logging.getLogger("aura.policies")

T = TypeVar("T")

LLM_FAILURES = (LlmError, ValidationError)
"""What an LLM decision can fail with that deciding offline remedies."""


class FallbackPolicies:
    """``graph.ports.Policies``: LLM decisions with the offline policies as the safety net."""

    def __init__(self, offline: Policies, llm: LlmPolicies | None) -> None:
        self.offline = offline
        self.llm = llm
        if llm is not None and llm.offline is None:
            llm.offline = offline

    @classmethod
    def from_settings(cls, settings: Settings, offline: Policies) -> FallbackPolicies:
        """Raises ``ValueError`` with a readable message when the LLM configuration is incomplete."""
        return cls(offline, LlmPolicies.from_settings(settings, offline))

    def _decide(self, name: str, decide: Callable[[Policies], Decided[T]]) -> Decided[T]:
        llm = self.llm
        if llm is None:
            return decide(self.offline)
        before = llm.calls
        try:
            return decide(llm)
        except LLM_FAILURES as exc:  # every LLM failure has the same remedy: decide offline
            reason = str(to_llm_error(exc))
            calls = llm.calls - before
            log.warning("%s: the LLM failed (%s); using the offline policy", name, reason)
            fallback = decide(self.offline)
            return Decided(fallback.value, "offline-fallback", calls + fallback.llm_calls, reason)

    def route(self, question: str, history: list[Turn], summary: str, retained: list[Doc]) -> Decided[RouteDecision]:
        return self._decide("route", lambda p: p.route(question, history, summary, retained))

    def select_fields(
        self, question: str, hints: dict[str, Any], retained: list[Doc], route: Decided[RouteDecision] | None = None
    ) -> Decided[FieldSelection]:
        return self._decide("select_fields", lambda p: p.select_fields(question, hints, retained, route))

    def plan_sql(self, question: str, fields: FieldSelection) -> Decided[SqlQuery]:
        return self._decide("plan_sql", lambda p: p.plan_sql(question, fields))

    def grade(self, question: str, docs: list[Doc], asked: str = "") -> Decided[GradeBatch]:
        return self._decide("grade", lambda p: p.grade(question, docs, asked))

    def rewrite(self, question: str, query: str, tried: list[str], filters: dict[str, Any]) -> Decided[QueryRewrite]:
        return self._decide("rewrite", lambda p: p.rewrite(question, query, tried, filters))

    def analyze(
        self, question: str, docs: list[Doc], sop: list[dict[str, Any]], sql: dict[str, Any] | None, feedback: str, history: list[Turn]
    ) -> Decided[AnalystAnswer]:
        return self._decide("analyze", lambda p: p.analyze(question, docs, sop, sql, feedback, history))

    def decline(self, question: str, gaps: list[str], nearest: list[Doc]) -> Decided[AnalystAnswer]:
        return self._decide("decline", lambda p: p.decline(question, gaps, nearest))

    def verify(self, question: str, answer: AnalystAnswer, docs: list[Doc]) -> Decided[Verification]:
        return self._decide("verify", lambda p: p.verify(question, answer, docs))

    def check_report(self, question: str, history: list[Turn], docs: list[Doc]) -> Decided[ReportReadiness]:
        return self._decide("check_report", lambda p: p.check_report(question, history, docs))

    def chat(self, question: str, history: list[Turn], summary: str) -> Decided[str]:
        return self._decide("chat", lambda p: p.chat(question, history, summary))

    def summarize(self, summary: str, turns: list[Turn]) -> Decided[ConversationSummary]:
        return self._decide("summarize", lambda p: p.summarize(summary, turns))
