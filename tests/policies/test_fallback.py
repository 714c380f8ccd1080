"""FallbackPolicies: LLM decisions when they are valid, the offline decision (marked
'offline-fallback', with the cause) on every kind of failure; the LLM-call budget per track."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import httpx
import openai
import pytest

from app.policies.fallback import FallbackPolicies
from app.policies.llm import LlmPolicies
from app.settings import Settings
from graph.ports import Decided, Turn
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
from graph.state import Doc
from tests.policies.test_llm_policies import DOCS, GOOD, SCHEMA, ScriptedChatModel, smart_reply


class StubOffline:
    """A tiny offline Policies: fixed, valid decisions marked 'offline'."""

    def route(self, question, history, summary, retained) -> Decided[RouteDecision]:
        return Decided(
            RouteDecision(reasoning="offline", track="fast", follow_up=False, pivot=False),
            "offline",
        )

    def select_fields(self, question, hints, retained, route=None) -> Decided[FieldSelection]:
        return Decided(
            FieldSelection(
                reasoning="offline", sections=["actions"], search_query=question, **hints
            ),
            "offline",
        )

    def plan_sql(self, question, fields) -> Decided[SqlQuery]:
        return Decided(SqlQuery(sql="SELECT COUNT(*) FROM findings"), "offline")

    def grade(self, question, docs, asked="") -> Decided[GradeBatch]:
        grades = [DocumentGrade(index=i, relevant=True, score=0.5) for i in range(1, len(docs) + 1)]
        return Decided(GradeBatch(grades=grades), "offline")

    def rewrite(self, question, query, tried, filters) -> Decided[QueryRewrite]:
        return Decided(QueryRewrite(reasoning="offline", query=query + " 감사"), "offline")

    def analyze(self, question, docs, sop, sql, feedback, history) -> Decided[AnalystAnswer]:
        return Decided(AnalystAnswer(sentences=[AnswerSentence(text="offline answer")]), "offline")

    def verify(self, question, answer, docs) -> Decided[Verification]:
        return Decided(Verification(grounded=True, useful=True), "offline")

    def check_report(self, question, history, docs) -> Decided[ReportReadiness]:
        return Decided(ReportReadiness(ready=False, missing=["institution"]), "offline")

    def chat(self, question, history, summary) -> Decided[str]:
        return Decided("offline hello", "offline")

    def summarize(self, summary, turns) -> Decided[ConversationSummary]:
        return Decided(ConversationSummary(summary="offline summary"), "offline")


OFFLINE = StubOffline()
ANSWER = AnalystAnswer(sentences=[AnswerSentence(text="수의계약 [1].", citations=[1])])
FOUR_TURNS = [Turn(f"q{i}", f"a{i}") for i in range(4)]

# Each decision with arguments the LLM handles (summarize: a turn is leaving the window).
CALLS: dict[str, tuple[Any, ...]] = {
    "route": ("질문", [], "", []),
    "plan_sql": ("기관별 건수", FieldSelection()),
    "grade": ("질문", DOCS),
    "rewrite": ("질문", "수의계약", ["질문"], {}),
    "analyze": ("질문", DOCS, [], None, "", []),
    "verify": ("질문", ANSWER, DOCS),
    "check_report": ("보고서", [], DOCS),
    "chat": ("안녕", [], ""),
    "summarize": ("", FOUR_TURNS),
}


def fallback(model: ScriptedChatModel | None, timeout_s: float = 5.0) -> FallbackPolicies:
    llm = LlmPolicies(model, timeout_s, schema_description=SCHEMA) if model is not None else None
    return FallbackPolicies(OFFLINE, llm)


def offline_value(name: str) -> Any:
    return getattr(OFFLINE, name)(*CALLS[name]).value


def response(status: int) -> httpx.Response:
    return httpx.Response(
        status, request=httpx.Request("POST", "http://llm.test/v1/chat/completions")
    )


# -- who decides ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*CALLS, "select_fields"])
def test_without_llm_every_decision_is_offline(name):
    args = CALLS.get(name, ("질문", {}, []))
    d = getattr(fallback(None), name)(*args)
    assert (d.policy, d.llm_calls, d.error) == ("offline", 0, None)


@pytest.mark.parametrize("name", list(CALLS))
def test_valid_llm_decisions_are_used(name):
    model = ScriptedChatModel(default=smart_reply)
    d = getattr(fallback(model), name)(*CALLS[name])
    assert (d.policy, d.llm_calls, d.error) == ("llm", 1, None)
    assert d.value != offline_value(name)
    assert model.calls == 1


def test_decisions_left_to_offline_make_no_call():
    model = ScriptedChatModel(default=smart_reply)
    p = fallback(model)
    summary = p.summarize("", [Turn("q", "a"), Turn("q2", "a2")])
    fields = p.select_fields("처음 보는 질문", {}, [])  # no LLM route for this question
    assert summary.policy == fields.policy == "offline"
    assert summary.llm_calls == fields.llm_calls == 0
    assert model.calls == 0


def test_select_fields_lays_the_routers_fields_over_the_offline_selection():
    model = ScriptedChatModel(default=smart_reply)
    p = fallback(model)
    route = p.route("작년 도로공사 수의계약", [], "", [])
    d = p.select_fields("작년 도로공사 수의계약", {}, [], route)
    assert (d.policy, d.llm_calls) == ("llm", 0)
    assert d.value.institutions == ["한국도로공사"] and d.value.year_from == 2023
    assert d.value.search_query == GOOD["route"]["search_query"]
    assert d.value.sections == ["actions"]  # what only the offline selector knows
    assert model.calls == 1


def test_select_fields_after_a_failed_route_is_offline():
    model = ScriptedChatModel(script=[json.dumps(GOOD["route"]), "junk"])
    p = fallback(model)
    p.route("같은 질문", [], "", [])
    route = p.route("같은 질문", [], "", [])
    assert route.policy == "offline-fallback"
    d = p.select_fields("같은 질문", {}, [], route)
    assert d.policy == "offline" and d.value.search_query == "같은 질문"


# -- failures fall back -----------------------------------------------------------------------------

FAILURES = {
    "junk": ("네, 알겠습니다! 분석해 드릴게요.", "invalid output: no JSON object"),
    "malformed json": ('{"track": "deep",', "invalid output: malformed JSON"),
    "wrong types": (
        json.dumps({**GOOD["route"], "ordinals": "first"}),
        "invalid output: schema violation",
    ),
    "missing fields": (json.dumps({"reasoning": "x"}), "invalid output: schema violation"),
    "unknown track": (
        json.dumps({**GOOD["route"], "track": "search"}),
        "invalid output: schema violation",
    ),
    "exception": (RuntimeError("model crashed"), "error: RuntimeError: model crashed"),
    "5xx": (
        openai.InternalServerError("overloaded", response=response(503), body=None),
        "http: HTTP 503",
    ),
    "5xx httpx": (
        httpx.HTTPStatusError("x", request=response(502).request, response=response(502)),
        "http: HTTP 502",
    ),
    "401": (
        openai.AuthenticationError("invalid api key", response=response(401), body=None),
        "auth: HTTP 401",
    ),
    "403 httpx": (
        httpx.HTTPStatusError("x", request=response(403).request, response=response(403)),
        "auth: HTTP 403",
    ),
    "connection": (httpx.ConnectError("connection refused"), "connection: cannot reach"),
}


@pytest.mark.parametrize("case", list(FAILURES))
def test_route_failure_falls_back(case, caplog):
    reply, cause = FAILURES[case]
    with caplog.at_level(logging.WARNING, logger="aura.policies"):
        d = fallback(ScriptedChatModel(script=[reply])).route(*CALLS["route"])
    assert (d.policy, d.llm_calls) == ("offline-fallback", 1)
    assert d.value == offline_value("route")
    assert d.error.startswith(cause), d.error
    assert any("route" in r.message and cause in r.message for r in caplog.records)
    assert not any(r.exc_info for r in caplog.records)  # a readable line, no stack trace


def test_auth_error_names_the_api_key_setting():
    d = fallback(ScriptedChatModel(script=[FAILURES["401"][0]])).analyze(*CALLS["analyze"])
    assert d.policy == "offline-fallback" and "AURA_LLM_API_KEY" in d.error


@pytest.mark.parametrize(
    ("name", "reply", "cause"),
    [
        (
            "grade",
            {"grades": [{"index": 9, "relevant": True, "score": 0.9}]},
            "grade index 9 out of range 1-3",
        ),
        (
            "analyze",
            {"sentences": [{"text": "사실 [4].", "citations": [4]}]},
            "citation [4] but there are 3 passages",
        ),
        ("verify", {"grounded": "yes-ish", "useful": True}, "schema violation"),
        ("plan_sql", {"sql": "UPDATE findings SET year = 0"}, "not a single SELECT"),
        ("rewrite", {"reasoning": "", "query": "수의계약"}, "repeats a tried query"),
        ("check_report", {"ready": False, "missing": ["budget"]}, "unknown report field"),
        ("summarize", {"summary": 3}, "schema violation"),
        ("chat", "", "empty reply"),
    ],
)
def test_invalid_decisions_fall_back(name, reply, cause):
    model = ScriptedChatModel(script=[reply if isinstance(reply, str) else json.dumps(reply)])
    d = getattr(fallback(model), name)(*CALLS[name])
    assert (d.policy, d.llm_calls) == ("offline-fallback", 1)
    assert d.value == offline_value(name)
    assert cause in d.error, d.error


@pytest.mark.parametrize("name", list(CALLS))
def test_every_decision_falls_back_on_a_server_error(name):
    model = ScriptedChatModel(
        default=lambda _: openai.InternalServerError("down", response=response(500), body=None)
    )
    d = getattr(fallback(model), name)(*CALLS[name])
    assert (d.policy, d.llm_calls, d.value) == ("offline-fallback", 1, offline_value(name))
    assert d.error.startswith("http: HTTP 500")


# -- timeouts -------------------------------------------------------------------------------------

TIMEOUT = 0.5
SLACK = 0.5


@pytest.mark.parametrize("streaming", [False, True], ids=["slow reply", "slow stream"])
def test_a_slow_model_is_cut_at_the_timeout(streaming):
    model = ScriptedChatModel(default=smart_reply, delay_s=3.0, streaming=streaming)
    t0 = time.monotonic()
    d = fallback(model, timeout_s=TIMEOUT).route(*CALLS["route"])
    elapsed = time.monotonic() - t0
    assert elapsed < TIMEOUT + SLACK
    assert (d.policy, d.llm_calls, d.value) == ("offline-fallback", 1, offline_value("route"))
    assert d.error == f"timeout: no answer within {TIMEOUT:g} s"


def test_a_stream_that_finishes_in_time_is_used():
    model = ScriptedChatModel(default=smart_reply, delay_s=0.001, streaming=True)
    d = fallback(model, timeout_s=TIMEOUT).route(*CALLS["route"])
    assert d.policy == "llm" and d.value.track == "deep"


def test_nothing_listening_fails_fast_with_a_connection_error():
    settings = Settings(
        _env_file=None,
        llm_provider="openai",
        llm_model="test-model",
        llm_base_url="http://127.0.0.1:9/v1",
        llm_timeout_s=2.0,
        llm_max_retries=0,
    )
    p = FallbackPolicies.from_settings(settings, OFFLINE)
    t0 = time.monotonic()
    d = p.route(*CALLS["route"])
    assert time.monotonic() - t0 < 2.0 + SLACK
    assert (d.policy, d.llm_calls, d.value) == ("offline-fallback", 1, offline_value("route"))
    assert d.error.startswith(("connection:", "timeout:")), d.error
    assert d.error.startswith("connection: cannot reach the LLM endpoint"), d.error


def test_from_settings_without_model_is_a_clear_error():
    with pytest.raises(ValueError, match="AURA_LLM_MODEL"):
        FallbackPolicies.from_settings(Settings(_env_file=None, llm_provider="openai"), OFFLINE)
    assert FallbackPolicies.from_settings(Settings(_env_file=None), OFFLINE).llm is None


# -- the LLM-call budget per track --------------------------------------------------------------


def run_deep(p: FallbackPolicies, question: str, history: list[Turn]) -> list[Decided[Any]]:
    route = p.route(question, history, "", [])
    fields = p.select_fields(question, {}, [], route)
    grades = p.grade(question, DOCS)
    kept: list[Doc] = [DOCS[g.index - 1] for g in grades.value.grades if g.relevant]
    answer = p.analyze(question, kept, [], None, "", history)
    verdict = p.verify(question, answer.value, kept)
    summary = p.summarize("", [*history, Turn(question, "answer")])
    return [route, fields, grades, answer, verdict, summary]


def test_deep_happy_path_costs_four_calls():
    model = ScriptedChatModel(default=smart_reply)
    steps = run_deep(fallback(model), "수의계약 문제를 분석해 줘", [Turn("안녕", "안녕하세요")])
    assert sum(d.llm_calls for d in steps) == model.calls == 4
    assert [d.policy for d in steps] == ["llm", "llm", "llm", "llm", "llm", "offline"]


def test_summarize_adds_one_call_once_a_turn_leaves_the_window():
    model = ScriptedChatModel(default=smart_reply)
    steps = run_deep(fallback(model), "수의계약 문제를 분석해 줘", FOUR_TURNS[:3])
    assert sum(d.llm_calls for d in steps) == model.calls == 5
    assert steps[-1].policy == "llm"


def test_fast_sql_path_costs_three_calls():
    model = ScriptedChatModel(default=smart_reply)
    p = fallback(model)
    q = "기관별 지적 건수"
    steps = [route := p.route(q, [], "", []), fields := p.select_fields(q, {}, [], route)]
    steps.append(p.plan_sql(q, fields.value))
    sql = {
        "query": steps[-1].value.sql,
        "columns": ["institution", "n"],
        "rows": [["한국도로공사", 3]],
        "row_count": 1,
    }
    model.default = lambda _: json.dumps(
        {"sentences": [{"text": "한국도로공사 3건.", "citations": []}]}
    )
    steps.append(p.analyze(q, [], [], sql, "", []))
    steps.append(p.summarize("", [Turn(q, "a")]))
    assert sum(d.llm_calls for d in steps) == model.calls == 3
    assert [d.policy for d in steps] == ["llm", "llm", "llm", "llm", "offline"]


def test_fast_lookup_and_chat_cost_two_calls():
    model = ScriptedChatModel(default=smart_reply)
    p = fallback(model)
    route = p.route("q", [], "", [])
    lookup = [
        route,
        p.select_fields("q", {}, [], route),
        p.analyze("q", DOCS, [], None, "", []),
    ]
    assert sum(d.llm_calls for d in lookup) == 2
    chat = [p.route("안녕", [], "", []), p.chat("안녕", [], "")]
    assert sum(d.llm_calls for d in chat) == 2
    assert model.calls == 4


def test_failed_calls_count_too():
    model = ScriptedChatModel(script=["junk", "junk", "junk"], default=smart_reply)
    steps = run_deep(fallback(model), "q", [])
    assert [d.policy for d in steps] == [
        "offline-fallback",
        "offline",
        "offline-fallback",
        "offline-fallback",
        "llm",
        "offline",
    ]
    assert sum(d.llm_calls for d in steps) == model.calls == 4


# -- the real ChatOpenAI client against a mock OpenAI-compatible server ---------------------------


def openai_model(handler: Any) -> Any:
    from langchain_openai import ChatOpenAI

    client = httpx.Client(transport=httpx.MockTransport(handler))
    return ChatOpenAI(
        model="test-model",
        base_url="http://llm.test/v1",
        api_key="k",
        max_retries=0,
        http_client=client,
    )


def completion(content: str) -> dict[str, Any]:
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": content},
            }
        ],
    }


def test_chat_openai_json_schema_round_trip():
    sent: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=completion(json.dumps(GOOD["route"], ensure_ascii=False)))

    llm = LlmPolicies(openai_model(handler), 5.0)
    d = FallbackPolicies(OFFLINE, llm).route(*CALLS["route"])
    assert (d.policy, d.llm_calls, d.value.track) == ("llm", 1, "deep")
    assert sent[0]["response_format"]["type"] == "json_schema"
    assert sent[0]["response_format"]["json_schema"]["name"] == "RouteDecision"


def test_chat_openai_wrong_key_is_a_readable_auth_error():
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            401,
            json={
                "error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}
            },
        )

    d = FallbackPolicies(OFFLINE, LlmPolicies(openai_model(handler), 5.0)).route(*CALLS["route"])
    assert (d.policy, d.llm_calls) == ("offline-fallback", 1)
    assert d.error.startswith(
        "auth: HTTP 401: the LLM endpoint rejected the API key; check AURA_LLM_API_KEY"
    ), d.error


def test_chat_openai_junk_content_falls_back():
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=completion("I cannot help with that."))

    d = FallbackPolicies(OFFLINE, LlmPolicies(openai_model(handler), 5.0)).grade(*CALLS["grade"])
    assert (d.policy, d.llm_calls) == ("offline-fallback", 1)
    assert d.error.startswith("invalid output"), d.error


# -- a bug is not an LLM failure ------------------------------------------------------------------


def test_a_programming_error_propagates_instead_of_falling_back(monkeypatch):
    """Only LLM and validation errors are remedied offline; a bug in the decision code (here a
    KeyError in the output checks) must surface, not be logged as an LLM fallback."""
    from app.policies.llm import checks

    def broken(answer, docs):
        raise KeyError("bug")

    monkeypatch.setattr(checks, "checked_answer", broken)
    with pytest.raises(KeyError, match="bug"):
        fallback(ScriptedChatModel(default=smart_reply)).analyze(*CALLS["analyze"])


def test_an_invalid_decision_still_falls_back():
    d = fallback(ScriptedChatModel(default=lambda _: "junk")).analyze(*CALLS["analyze"])
    assert d.policy == "offline-fallback" and d.error.startswith("invalid output")
