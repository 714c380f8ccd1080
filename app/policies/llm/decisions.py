"""``LlmPolicies``: the ``graph.ports.Policies`` decisions made by a chat model, one
structured-output call per decision (``transport``), validated against the schema and then
against the inputs (``checks``). Junk raises ``PolicyError``; ``FallbackPolicies`` turns every
LLM failure into the offline decision.

Some decisions make no call and are not ``"llm"`` unless noted:

- ``select_fields``: the router already extracted institutions, years, dispositions and a
  standalone query; when the turn's route was decided by the LLM (the graph passes it from its
  state), they fill the gaps of the offline selection (which keeps what it knows better:
  catalog names, sections, audit types) and replace its query (``"llm"``, 0 calls). Otherwise
  the offline selection as it is.
- ``summarize`` calls the model only when a turn is about to leave the prompt window
  (``len(turns) > 3``: the window is the last 3 turns); before that the offline summary.
- ``grade`` with no passages (``"llm"``, 0 calls).
- ``grade`` and ``analyze`` of the audit manual's clauses (a question about the manual itself):
  the offline policies keep the clauses by their search score and quote them as they stand (the
  prompts are about findings); such a deep turn makes 2 calls (route, verify).

The offline policies for these come from the constructor or, when none was given, from the
``FallbackPolicies`` this object is put behind.

LLM calls per turn on the happy path: chat 2 (route, chat); report 2 (route, check_report);
fast 2 (route, analyze) or 3 with SQL (route, plan_sql, analyze); deep 4 (route, grade,
analyze, verify). Each rewrite adds 2 (rewrite, grade), each regeneration 2 (analyze, verify);
summarize adds 1 once the conversation outgrows the window.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.language_models import BaseChatModel

from app.llm.errors import PolicyError
from app.llm.providers import make_chat_model
from app.policies.llm import checks
from app.policies.llm import prompts as P
from app.policies.llm.transport import LlmTransport
from app.policies.offline.intent import question_kind
from app.sql.schema import SCHEMA_DESCRIPTION
from graph import schemas as S
from graph.ports import Decided, Policies, Turn
from graph.state import Doc, from_manual

if TYPE_CHECKING:
    from app.settings import Settings

T = TypeVar("T")

SUMMARY_WINDOW = 3
"""Turns the prompts show verbatim (RunContext.history_turns); older ones live in the summary."""
MAX_SUMMARY_CHARS = 1500
MAX_CHAT_CHARS = 2000


class LlmPolicies:
    """One chat model behind the Policies decisions (see the module docstring)."""

    def __init__(
        self,
        model: BaseChatModel,
        timeout_s: float,
        *,
        method: str = "auto",
        max_concurrency: int = 4,
        schema_description: str = SCHEMA_DESCRIPTION,
        offline: Policies | None = None,
    ) -> None:
        self.transport = LlmTransport(model, timeout_s, method=method, max_concurrency=max_concurrency)
        self.schema_description = schema_description
        self.offline = offline

    @classmethod
    def from_settings(cls, settings: Settings, offline: Policies | None = None) -> LlmPolicies | None:
        """None when no LLM is configured; ``ValueError`` when its configuration is incomplete."""
        model = make_chat_model(settings)
        if model is None:
            return None
        return cls(
            model,
            settings.llm_timeout_s,
            method=settings.llm_structured_output,
            max_concurrency=settings.llm_max_concurrency,
            offline=offline,
        )

    @property
    def model(self) -> BaseChatModel:
        return self.transport.model

    @property
    def method(self) -> str:
        return self.transport.method

    @property
    def calls(self) -> int:
        """LLM calls started from the current thread so far (failed ones included)."""
        return self.transport.calls

    def _llm(self, decide: Callable[[], T]) -> Decided[T]:
        before = self.calls
        value = decide()
        return Decided(value, "llm", self.calls - before)

    def _offline(self) -> Policies:
        if self.offline is None:
            raise RuntimeError("LlmPolicies has no offline policies for the decisions it leaves to them")
        return self.offline

    # -- decisions ---------------------------------------------------------------------------

    def route(self, question: str, history: list[Turn], summary: str, retained: list[Doc]) -> Decided[S.RouteDecision]:
        user = P.ROUTER_USER.format(
            summary=summary or P.NONE,
            history=P.format_history(history),
            retained=P.format_retained(retained),
            question=question,
        )
        return self._llm(lambda: checks.checked_route(self.transport.ask(S.RouteDecision, P.ROUTER_SYSTEM, user)))

    def select_fields(
        self, question: str, hints: dict[str, Any], retained: list[Doc], route: Decided[S.RouteDecision] | None = None
    ) -> Decided[S.FieldSelection]:
        base = self._offline().select_fields(question, hints, retained, route)
        if route is None or route.policy != "llm":
            return base
        return Decided(checks.fields_over(base.value, route.value, hints), "llm", base.llm_calls)

    def plan_sql(self, question: str, fields: S.FieldSelection) -> Decided[S.SqlQuery]:
        user = P.SQL_USER.format(
            question=question,
            fields=json.dumps(fields.model_dump(exclude={"reasoning"}, exclude_defaults=True), ensure_ascii=False),
        )
        system = P.SQL_SYSTEM.format(schema=self.schema_description)
        return self._llm(lambda: checks.checked_sql(self.transport.ask(S.SqlQuery, system, user)))

    def grade(self, question: str, docs: list[Doc], asked: str = "") -> Decided[S.GradeBatch]:
        if from_manual(docs):  # the manual's clauses: kept by their search score (the prompts are about findings)
            return self._offline().grade(question, docs, asked)
        if not docs:
            return Decided(S.GradeBatch(grades=[]), "llm")
        user = P.GRADER_USER.format(question=question, asked=P.GRADER_ASKED.format(asked=asked) if asked and asked != question else "",
                                    passages=P.format_passages(docs))
        return self._llm(lambda: checks.checked_grades(self.transport.ask(S.GradeBatch, P.GRADER_SYSTEM, user), len(docs)))

    def rewrite(self, question: str, query: str, tried: list[str], filters: dict[str, Any]) -> Decided[S.QueryRewrite]:
        user = P.REWRITE_USER.format(
            question=question,
            query=query,
            tried=" | ".join(tried) or P.NONE,
            filters=json.dumps(filters, ensure_ascii=False, default=str) if filters else P.NONE,
        )
        return self._llm(lambda: checks.checked_rewrite(self.transport.ask(S.QueryRewrite, P.REWRITE_SYSTEM, user), query, tried))

    def analyze(
        self, question: str, docs: list[Doc], sop: list[dict[str, Any]], sql: dict[str, Any] | None, feedback: str, history: list[Turn]
    ) -> Decided[S.AnalystAnswer]:
        if from_manual(docs):  # an answer from the manual quotes its clauses as they stand: no model needed
            return self._offline().analyze(question, docs, sop, sql, feedback, history)
        kind = question_kind(question)
        user = P.ANALYST_USER.format(
            history=P.format_history(history),
            question=question,
            kind=kind,
            guidance=P.ANALYST_BY_KIND[kind],
            passages=P.format_passages(docs, unmatched=True),
            sop=P.format_sop(sop),
            sql=P.format_sql(sql),
            feedback=P.ANALYST_FEEDBACK.format(feedback=feedback) if feedback else "",
        )
        return self._llm(lambda: checks.checked_answer(self.transport.ask(S.AnalystAnswer, P.ANALYST_SYSTEM, user), docs))

    def decline(self, question: str, gaps: list[str], nearest: list[Doc]) -> Decided[S.AnalystAnswer]:
        """Saying that the reports hold no answer needs no model: the offline wording, so an
        LLM cannot turn a refusal into an invented answer."""
        return self._offline().decline(question, gaps, nearest)

    def verify(self, question: str, answer: S.AnalystAnswer, docs: list[Doc]) -> Decided[S.Verification]:
        texts = [s.text for s in answer.sentences]
        user = P.VERIFIER_USER.format(
            question=question,
            passages=P.format_passages(docs),
            sentences="\n".join(f"{i}. {t}" for i, t in enumerate(texts, start=1)) or P.NONE,
        )
        return self._llm(lambda: checks.checked_verification(self.transport.ask(S.Verification, P.VERIFIER_SYSTEM, user), texts))

    def check_report(self, question: str, history: list[Turn], docs: list[Doc]) -> Decided[S.ReportReadiness]:
        user = P.REPORT_USER.format(history=P.format_history(history), passages=P.format_passages(docs), question=question)
        return self._llm(lambda: checks.checked_readiness(self.transport.ask(S.ReportReadiness, P.REPORT_SYSTEM, user)))

    def chat(self, question: str, history: list[Turn], summary: str) -> Decided[str]:
        user = P.CHAT_USER.format(summary=summary or P.NONE, history=P.format_history(history), question=question)

        def reply() -> str:
            text = self.transport.text(P.CHAT_SYSTEM, user)
            if not text:
                raise PolicyError("empty reply")
            return text[:MAX_CHAT_CHARS]

        return self._llm(reply)

    def summarize(self, summary: str, turns: list[Turn]) -> Decided[S.ConversationSummary]:
        if len(turns) <= SUMMARY_WINDOW:
            return self._offline().summarize(summary, turns)
        user = P.SUMMARY_USER.format(summary=summary or P.NONE, turns=P.format_history(turns))

        def summarised() -> S.ConversationSummary:
            text = self.transport.ask(S.ConversationSummary, P.SUMMARY_SYSTEM, user).summary.strip()
            if not text:
                raise PolicyError("empty summary")
            return S.ConversationSummary(summary=text[:MAX_SUMMARY_CHARS])

        return self._llm(summarised)
