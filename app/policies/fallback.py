"""The policies the graph is given: the LLM where it is configured and answers well, the offline
policies everywhere else.

Every decision goes through ``FallbackPolicies._decide``:

- no LLM, or the LLM leaves this decision to offline (its method returned ``None``)
  -> the offline decision (``policy="offline"``);
- the LLM answered with a valid decision -> ``Decided(value, "llm", calls)``;
- the call failed (timeout, connection error, HTTP 5xx/429, 401/403, malformed JSON, schema
  violation, ``PolicyError``) -> the offline decision as ``"offline-fallback"`` with a short
  ``error`` naming the cause, logged as a warning (no stack trace).

``llm_calls`` counts the calls actually made, failed ones included.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

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


class FallbackPolicies:
    """``graph.ports.Policies``: LLM decisions with the offline policies as the safety net."""

    def __init__(self, offline: Policies, llm: LlmPolicies | None) -> None:
        self.offline = offline
        self.llm = llm

    @classmethod
    def from_settings(cls, settings: Settings, offline: Policies) -> FallbackPolicies:
        """Raises ``ValueError`` with a readable message when the LLM configuration is incomplete."""
        return cls(offline, LlmPolicies.from_settings(settings))

    def _decide(
        self, name: str, offline: Callable[[], Decided[T]], ask: Callable[[LlmPolicies], T | None]
    ) -> Decided[T]:
        llm = self.llm
        if llm is None:
            return offline()
        before = llm.calls
        try:
            value = ask(llm)
        except Exception as exc:  # every LLM failure has the same remedy: decide offline
            reason = str(to_llm_error(exc))
            calls = llm.calls - before
            log.warning("%s: the LLM failed (%s); using the offline policy", name, reason)
            fallback = offline()
            return Decided(fallback.value, "offline-fallback", calls + fallback.llm_calls, reason)
        calls = llm.calls - before
        if value is None:
            decided = offline()
            return (
                Decided(decided.value, decided.policy, calls + decided.llm_calls, decided.error)
                if calls
                else decided
            )
        return Decided(value, "llm", calls)

    def route(
        self, question: str, history: list[Turn], summary: str, retained: list[Doc]
    ) -> Decided[RouteDecision]:
        return self._decide(
            "route",
            lambda: self.offline.route(question, history, summary, retained),
            lambda llm: llm.route(question, history, summary, retained),
        )

    def select_fields(
        self, question: str, hints: dict[str, Any], retained: list[Doc]
    ) -> Decided[FieldSelection]:
        # The offline selection runs first: the LLM router's fields are laid over it (no call).
        base = self.offline.select_fields(question, hints, retained)
        return self._decide(
            "select_fields",
            lambda: base,
            lambda llm: llm.select_fields(question, hints, retained, base=base.value),
        )

    def plan_sql(self, question: str, fields: FieldSelection) -> Decided[SqlQuery]:
        return self._decide(
            "plan_sql",
            lambda: self.offline.plan_sql(question, fields),
            lambda llm: llm.plan_sql(question, fields),
        )

    def grade(self, question: str, docs: list[Doc]) -> Decided[GradeBatch]:
        return self._decide(
            "grade",
            lambda: self.offline.grade(question, docs),
            lambda llm: llm.grade(question, docs),
        )

    def rewrite(
        self, question: str, query: str, tried: list[str], filters: dict[str, Any]
    ) -> Decided[QueryRewrite]:
        return self._decide(
            "rewrite",
            lambda: self.offline.rewrite(question, query, tried, filters),
            lambda llm: llm.rewrite(question, query, tried, filters),
        )

    def analyze(
        self,
        question: str,
        docs: list[Doc],
        sop: list[dict[str, Any]],
        sql: dict[str, Any] | None,
        feedback: str,
        history: list[Turn],
    ) -> Decided[AnalystAnswer]:
        return self._decide(
            "analyze",
            lambda: self.offline.analyze(question, docs, sop, sql, feedback, history),
            lambda llm: llm.analyze(question, docs, sop, sql, feedback, history),
        )

    def verify(
        self, question: str, answer: AnalystAnswer, docs: list[Doc]
    ) -> Decided[Verification]:
        return self._decide(
            "verify",
            lambda: self.offline.verify(question, answer, docs),
            lambda llm: llm.verify(question, answer, docs),
        )

    def check_report(
        self, question: str, history: list[Turn], docs: list[Doc]
    ) -> Decided[ReportReadiness]:
        return self._decide(
            "check_report",
            lambda: self.offline.check_report(question, history, docs),
            lambda llm: llm.check_report(question, history, docs),
        )

    def chat(self, question: str, history: list[Turn], summary: str) -> Decided[str]:
        return self._decide(
            "chat",
            lambda: self.offline.chat(question, history, summary),
            lambda llm: llm.chat(question, history, summary),
        )

    def summarize(self, summary: str, turns: list[Turn]) -> Decided[ConversationSummary]:
        return self._decide(
            "summarize",
            lambda: self.offline.summarize(summary, turns),
            lambda llm: llm.summarize(summary, turns),
        )
