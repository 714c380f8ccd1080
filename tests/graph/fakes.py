"""Scripted GraphServices and Policies: each decision is whatever the test says it is, so the
graph's wiring (edges, loop caps, state hand-offs) is tested apart from any policy logic."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graph.ports import Decided, SqlRejected
from graph.schemas import (
    AnalystAnswer,
    AnswerSentence,
    ConversationSummary,
    DocumentGrade,
    FieldSelection,
    GradeBatch,
    QueryRewrite,
    ReportReadiness,
    RouteDecision,
    SqlQuery,
    Verification,
)


def doc(n: int, finding: str | None = None, inst: str = "가람시", text: str | None = None) -> dict[str, Any]:
    return {
        "chunk_id": f"c{n}", "report_id": "r1", "finding_id": finding, "section": "problems", "page": n,
        "text": text or f"가람시는 계약을 부당하게 체결하였다 {n}.", "heading": f"보고서 > 지적 {finding} > 문제점",
        "report_title": "가람시 감사", "finding_title": f"지적 {finding}" if finding else None,
        "dispositions": ["주의"], "institutions": [inst], "year": 2025, "score": 0.5,
    }


@dataclass
class ScriptedPolicies:
    track: str = "deep"
    follow_up: bool = False
    pivot: bool = False
    sql_intent: bool = False
    ordinals: list[int] = field(default_factory=list)
    ordinals_in_list: bool = False
    other_cases: bool = False
    search_query: str = ""
    """The router's standalone query; empty: the question as asked."""
    goes_back: bool = False
    same_report: bool = False
    institutions: list[str] = field(default_factory=list)
    """The institutions the route names (the field selector's hint)."""
    ordinals_by_call: list[list[int]] = field(default_factory=list)
    """Ordinals for the next route calls, one list per call (then ``ordinals``)."""
    follow_up_on: set[str] | None = None
    """When set: the route follows up (and points at the first such finding) only when the documents
    it is given hold one of these findings, else it pivots; as a router reads what was shown."""
    relevant: list[bool] | None = None
    """Per passage; None = all relevant."""
    grounded: list[bool] = field(default_factory=lambda: [True])
    """Verifier verdicts in order; the last one repeats."""
    useful: list[bool] = field(default_factory=lambda: [True])
    ready: bool = True
    calls: list[str] = field(default_factory=list)
    graded: list[tuple[str, str]] = field(default_factory=list)
    """(standalone question, the user's own words when they differ) per grading."""

    def _d(self, name: str, value: Any) -> Decided[Any]:
        self.calls.append(name)
        return Decided(value, "offline")

    histories: list[list[Any]] = field(default_factory=list)
    """The history each route call was given."""

    def route(self, question, history, summary, retained):
        self.histories.append(list(history))
        follow_up, pivot, goes_back = self.follow_up, self.pivot, self.goes_back
        ordinals = self.ordinals_by_call.pop(0) if self.ordinals_by_call else self.ordinals
        if self.follow_up_on is not None:  # as the offline router: going back only while no case given is named
            order = list(dict.fromkeys(d["finding_id"] for d in retained))
            hit = next((n for n, f in enumerate(order, 1) if f in self.follow_up_on), None)
            follow_up, pivot, ordinals, goes_back = hit is not None, hit is None, [hit] if hit else [], goes_back and hit is None
        return self._d("route", RouteDecision(reasoning="scripted", track=self.track, follow_up=follow_up, pivot=pivot,
                                              sql_intent=self.sql_intent, ordinals=ordinals, search_query=self.search_query or question,
                                              ordinals_in_list=self.ordinals_in_list,
                                              other_cases=self.other_cases, goes_back=goes_back, institutions=self.institutions,
                                              same_report=self.same_report))

    def select_fields(self, question, hints, retained, route=None):
        return self._d("select_fields", FieldSelection(institutions=list(hints.get("institutions", [])), sections=["actions"] if "조치" in question else []))

    def plan_sql(self, question, fields):
        return self._d("plan_sql", SqlQuery(sql="SELECT COUNT(*) FROM findings"))

    def grade(self, question, docs, asked=""):
        self.graded.append((question, asked))
        flags = self.relevant if self.relevant is not None else [True] * len(docs)
        return self._d("grade", GradeBatch(grades=[DocumentGrade(index=i + 1, relevant=flags[i] if i < len(flags) else False, score=0.9) for i in range(len(docs))]))

    def rewrite(self, question, query, tried, filters):
        return self._d("rewrite", QueryRewrite(reasoning="scripted", query=f"{question} 재작성{len(tried)}", relax_filter="institutions"))

    def analyze(self, question, docs, sop, sql, feedback, history):
        if sql is not None and not docs:
            return self._d("analyze", AnalystAnswer(sentences=[AnswerSentence(text=f"rows={sql.get('row_count')}")]))
        sentences = [AnswerSentence(text=f"근거 {i} [{i}]", citations=[i], quote=d["text"]) for i, d in enumerate(docs, 1)]
        sentences.append(AnswerSentence(text="근거 없는 주장", citations=[]))
        if feedback:
            sentences = [s for s in sentences if s.text not in feedback]
        return self._d("analyze", AnalystAnswer(sentences=sentences))

    def decline(self, question, gaps, nearest):
        text = f"없음: {', '.join(gaps) or '일치하는 사례'}"
        refs = [AnswerSentence(text=f"참고 [{i}]", citations=[i]) for i in range(1, len(nearest) + 1)]
        return self._d("decline", AnalystAnswer(sentences=[AnswerSentence(text=text), *refs]))

    def verify(self, question, answer, docs):
        n = self.calls.count("verify")
        grounded = self.grounded[min(n, len(self.grounded) - 1)]
        useful = self.useful[min(n, len(self.useful) - 1)]
        unsupported = [] if grounded else [s.text for s in answer.sentences if not s.citations] or [answer.sentences[0].text]
        return self._d("verify", Verification(grounded=grounded, useful=useful, unsupported=unsupported, confidence=0.5))

    def check_report(self, question, history, docs):
        if self.ready:
            return self._d("check_report", ReportReadiness(ready=True, institution="가람시"))
        return self._d("check_report", ReportReadiness(ready=False, missing=["institution", "findings"]))

    def chat(self, question, history, summary):
        return self._d("chat", f"안녕하세요 (이전 질문 {len(history)}개)")

    def summarize(self, summary, turns):
        return self._d("summarize", ConversationSummary(summary=f"{summary}|{turns[-1].question}"))


@dataclass
class FakeServices:
    policies: ScriptedPolicies
    docs: list[dict[str, Any]] = field(default_factory=lambda: [doc(1, "F1"), doc(2, "F2")])
    searches: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    sop_requests: list[tuple[list[str], list[str]]] = field(default_factory=list)
    sop_queries: list[str] = field(default_factory=list)
    """The search query each sop_for_findings call was given (its vector is the search's)."""
    sql_queries: list[str] = field(default_factory=list)
    reject_sql: bool = False
    gaps: list[str] = field(default_factory=list)
    """What scope_gaps reports (the store lacks these years or organisations)."""
    untold_words: list[str] = field(default_factory=list)
    """What untold reports (words no report uses that the question asks whether they also tell of)."""
    mentions: dict[str, list[str]] = field(default_factory=dict)
    """What mentioned reports (names the reports mention in passing, and the findings that do)."""
    sql_result: dict[str, Any] | None = None
    """What run_sql returns (default: one count row)."""

    def search(self, query, k, filters):
        self.searches.append((query, dict(filters)))
        return [dict(d) for d in self.docs[:k]]

    def search_many(self, queries, k, filters):
        self.searches.append((" | ".join(queries), dict(filters)))
        return [dict(d) for d in self.docs[:k]]

    def scope_gaps(self, question, filters):
        return list(self.gaps)

    def untold(self, question):
        return list(self.untold_words)

    def mentioned(self, question, filters):
        return {k: list(v) for k, v in self.mentions.items()}

    def search_sop(self, query, k):
        return [{"id": "SOP-CLS-01", "title": "주의 요구", "text": "주의는 ...", "score": 1.0}][:k]

    def sop_for_findings(self, question, titles, dispositions, k, query=""):
        self.sop_requests.append((titles, dispositions))
        self.sop_queries.append(query)
        return [{"id": f"SOP-DEF-{d}", "title": f"{d}의 정의", "text": "...", "score": 1.0} for d in dispositions][:k]

    def run_sql(self, sql):
        self.sql_queries.append(sql)
        if self.reject_sql:
            raise SqlRejected("only SELECT is allowed")
        if self.sql_result is not None:
            return {"query": sql, **self.sql_result}
        return {"query": sql, "columns": ["n"], "rows": [[3]], "row_count": 1}

    def finding_rows(self, finding_ids):
        return self.run_sql("SELECT id, title FROM findings WHERE id IN (" + ", ".join(map(repr, finding_ids)) + ")")

    def finding_docs(self, finding_ids, sections=None):
        return [dict(doc(10 + i, fid), section=(sections or ["problems"])[0], score=1.0) for i, fid in enumerate(finding_ids)]

    def draft_report(self, docs, sop, readiness):
        return {"title": "가람시 감사결과 보고서(초안)", "findings": [d["finding_id"] for d in docs if d.get("finding_id")],
                "sections": [{"key": "findings", "title": "지적 사항", "text": "...", "citations": []}]}
