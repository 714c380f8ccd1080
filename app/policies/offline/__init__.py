"""The offline policies: every decision by rules, lexical and embedding scores. Deterministic
for a given store, no LLM; the default, and the fallback when an LLM fails."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.embeddings.interface import Embedder
from app.policies.offline import analyst, chat, grader, report, rewriter, verifier
from app.policies.offline.decline import decline
from app.policies.offline.english_names import korean_names
from app.policies.offline.fields import Catalog, anaphoric, select_fields
from app.policies.offline.intent import named_organisations, pattern
from app.policies.offline.lexicon import SCOPE_FRAME, key_terms, squash
from app.policies.offline.lookup import MAX_TOPIC_WORDS, topic_words
from app.policies.offline.manual import answer_from_manual, asks_about_manual
from app.policies.offline.rewriter import Glossary
from app.policies.offline.router import OfflineRouter
from app.sql import OfflineSqlPlanner
from graph.ports import Decided, Turn
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
from graph.state import Doc, from_manual
from graph.vocab import language


def _offline(value: Any) -> Decided[Any]:
    return Decided(value, "offline")


class OfflinePolicies:
    def __init__(
        self, embedder: Embedder, catalog: Callable[[], Catalog], glossary: Glossary, idf: Callable[[str], float | None] | None = None,
        best_findings: Callable[[str], list[tuple[str, str, float]]] | None = None,
        manual_vocabulary: Callable[[], frozenset[str]] | None = None,
        passage_terms: Callable[[str], frozenset[str] | None] | None = None,
    ) -> None:
        """``catalog`` is called per decision so newly ingested institutions are seen; ``idf``
        gives a term's IDF in the ingested corpus (None when absent); ``best_findings`` ranks
        findings for a question (the router tells a follow-up from a pivot with it);
        ``manual_vocabulary`` the terms the audit manual's clauses use; ``passage_terms`` a stored
        passage's morphemes by its chunk id (the verifier reads them instead of tokenising the passage again)."""
        self._catalog = catalog
        self._passage_terms = passage_terms
        self._idf = idf or (lambda _term: None)
        self._manual_vocabulary = manual_vocabulary or frozenset
        self.glossary = glossary
        self.router = OfflineRouter(
            embedder, catalog(), glossary.all_terms(), idf, best_findings, lambda q: glossary.checkable_terms(q, self._idf),
            self._manual_vocabulary,
        )
        self.sql_planner = OfflineSqlPlanner()

    def route(self, question: str, history: list[Turn], summary: str, retained: list[Doc]) -> Decided[RouteDecision]:
        self.router.catalog = self._catalog()
        return _offline(self.router.route(question, history, retained))

    def select_fields(
        self, question: str, hints: dict[str, Any], retained: list[Doc], route: Decided[RouteDecision] | None = None
    ) -> Decided[FieldSelection]:
        retained_institutions = [i for d in retained for i in (d.get("institutions") or [])[:1]]
        retained_reports = [d["report_id"] for d in retained]
        fields = select_fields(question, hints, retained_institutions, self._catalog(), retained_reports)
        asked = route.value.search_query if route else ""
        if route and route.value.sql_intent:  # a lookup: what it is about beyond its filters ('감정평가 관련 지적 몇 건')
            fields.topic = topic_words(question, self._catalog(), self.glossary.terms_in(question) if language(question) == "en" else None)
            if route.value.refines_previous and (not fields.topic or anaphoric(question)):
                # '그중 시정은?', '그중 보조금 관련은?': the last lookup's subject, narrowed ('그럼 보조금 관련은?' names its own)
                fields.topic = list(dict.fromkeys([*(hints.get("topic") or []), *fields.topic]))[:MAX_TOPIC_WORDS]
        if asked and squash(asked) != squash(question):  # the router restated the question (a scope dropped)
            fields.search_query = pattern(asked)
        if self._about_manual(question, fields, route.value if route else None):
            fields.source = "manual"
            fields.reasoning += "; asks what the audit manual says"
        return _offline(fields)

    def _about_manual(self, question: str, fields: FieldSelection, route: RouteDecision | None) -> bool:
        """A new deep question, with no scope, about the manual itself (``manual.asks_about_manual``)."""
        if route is not None and (route.track != "deep" or route.follow_up or route.ordinals or route.sql_intent):
            return False
        if fields.institutions or fields.year_from or fields.year_to or fields.report_ids:
            return False
        terms = key_terms(self.glossary.in_korean(question))
        return asks_about_manual(question, self._manual_vocabulary(), terms, reports_use=lambda t: self._idf(t) is not None)

    def plan_sql(self, question: str, fields: FieldSelection) -> Decided[SqlQuery]:
        return _offline(self.sql_planner.plan(question, fields))

    def grade(self, question: str, docs: list[Doc], asked: str = "") -> Decided[GradeBatch]:
        return _offline(grader.grade(question, docs, asked))

    def rewrite(self, question: str, query: str, tried: list[str], filters: dict[str, Any]) -> Decided[QueryRewrite]:
        return _offline(rewriter.rewrite(question, query, tried, filters, self.glossary))

    def analyze(
        self, question: str, docs: list[Doc], sop: list[dict[str, Any]], sql: dict[str, Any] | None, feedback: str, history: list[Turn]
    ) -> Decided[AnalystAnswer]:
        if sql is not None and not docs:
            return _offline(analyst.analyze_sql(question, sql))
        if from_manual(docs):
            return _offline(answer_from_manual(question, docs))
        return _offline(analyst.analyze_documents(question, docs, feedback))  # the SOP list is rendered beside the answer

    def decline(self, question: str, gaps: list[str], nearest: list[Doc]) -> Decided[AnalystAnswer]:
        return _offline(decline(question, gaps, nearest))

    def verify(self, question: str, answer: AnalystAnswer, docs: list[Doc]) -> Decided[Verification]:
        text = SCOPE_FRAME.sub(" ", self._catalog().canonical(question))  # '전남도청' is answered by 전라남도's findings; '…을 상대로' frames it
        named: set[str] = set()
        if language(question) == "en":  # 'Ministry of the Interior and Safety' is answered by 행정안전부's findings, not by its English words
            for name in named_organisations(question):
                if self._catalog().find(name) or korean_names(name):  # a body it knows; not 'Local Tax Administration'
                    text = text.replace(name, " ")
                    named |= key_terms(" ".join(korean_names(name)))
            named |= key_terms(" ".join(self._catalog().find(question)))
        terms = self.glossary.checkable_terms(text, self._idf) | named
        return _offline(verifier.verify(question, answer, docs, terms, self._passage_terms))

    def check_report(self, question: str, history: list[Turn], docs: list[Doc]) -> Decided[ReportReadiness]:
        return _offline(report.check(question, docs, self._catalog().find(question)))

    def chat(self, question: str, history: list[Turn], summary: str) -> Decided[str]:
        return _offline(chat.reply(question, history, summary))

    def summarize(self, summary: str, turns: list[Turn]) -> Decided[ConversationSummary]:
        return _offline(ConversationSummary(summary=chat.summarize(summary, turns)))
