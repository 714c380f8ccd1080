"""LLM faults through the whole graph: a chat model that times out, streams too slowly, answers
HTTP 5xx or 401, cannot be reached, or replies with malformed JSON or schema-violating output,
wired through the real FallbackPolicies + LlmPolicies + OfflinePolicies and the real Agent on
the samples store. Every turn (chat, fast, deep, report) completes; the steps whose decision
the LLM failed are marked ``offline-fallback`` with the cause, and the turn equals the offline
turn for the same question."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from langchain_core.messages import BaseMessage

from app.policies.llm import LlmPolicies
from tests.policies.test_llm_policies import ScriptedChatModel, smart_reply
from tests.reliability.conftest import agent_with

TIMEOUT_S = 0.3
"""The deadline for the models that are too slow; the others get ``GENEROUS_S`` so that a busy
machine cannot turn their fault into a timeout."""
GENEROUS_S = 20.0

QUESTIONS = {
    "chat": "안녕하세요",
    "fast": "주의 처분은 모두 몇 건이야?",
    "deep": "가람시 검수 소홀로 납품되지 않은 물품 대금 지급 문제는?",
    "report": "가람시 감사보고서 초안을 작성해 줘",
}
"""One question per track, each routed to that track by the offline router."""

LLM_NODES = {"route", "chat", "retrieve_sql", "grade_documents", "rewrite_query", "analyze", "verify_answer", "manage_report"}
"""Steps whose decision is asked of the LLM (select_fields and summarize make no call here:
the LLM route failed, and the conversation is shorter than the summary window)."""


def is_chat_prompt(messages: list[BaseMessage]) -> bool:
    return "You are AURA, an audit assistant" in str(messages[0].content)


def output_fault(bad: str) -> Callable[[list[BaseMessage]], str]:
    """Structured decisions get ``bad``; the chat reply is free text, so it gets a greeting
    (there is no JSON to break in it)."""
    return lambda messages: "안녕하세요, 무엇을 도와드릴까요?" if is_chat_prompt(messages) else bad


SCHEMA_VIOLATION = json.dumps(
    {"reasoning": 7, "track": "search", "grades": "all", "sentences": "none", "sql": 3, "grounded": "maybe",
     "ready": "soon", "missing": "x", "query": None, "summary": []}
)


class HttpModel:
    """The real ChatOpenAI client against an in-process transport that always fails the same way."""

    def __init__(self, fail: Callable[[httpx.Request], httpx.Response]) -> None:
        from langchain_openai import ChatOpenAI

        self.requests = 0
        self._lock = threading.Lock()

        def handler(request: httpx.Request) -> httpx.Response:
            with self._lock:
                self.requests += 1
            return fail(request)

        self.model = ChatOpenAI(
            model="test-model", base_url="http://llm.test/v1", api_key="k", max_retries=0,
            http_client=httpx.Client(transport=httpx.MockTransport(handler)),
        )

    @property
    def calls(self) -> int:
        return self.requests


def _status(code: int) -> Callable[[httpx.Request], httpx.Response]:
    return lambda request: httpx.Response(code, json={"error": {"message": f"status {code}", "type": "server_error"}})


def _refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


FAULTS: dict[str, tuple[Callable[[], Any], str]] = {
    # name: (model factory, expected error prefix in every fallen-back step)
    "timeout": (lambda: ScriptedChatModel(default=smart_reply, delay_s=2.0), "timeout: no answer within"),
    "slow-stream": (lambda: ScriptedChatModel(default=smart_reply, delay_s=0.2, streaming=True), "timeout: no answer within"),
    "http-503": (lambda: HttpModel(_status(503)), "http: HTTP 503"),
    "http-500": (lambda: HttpModel(_status(500)), "http: HTTP 500"),
    "http-401": (lambda: HttpModel(_status(401)), "auth: HTTP 401"),
    "connection-refused": (lambda: HttpModel(_refused), "connection: cannot reach the LLM endpoint"),
    "malformed-json": (lambda: ScriptedChatModel(default=output_fault('{"track": "deep", "sentences": [')), "invalid output: malformed JSON"),
    "not-json": (lambda: ScriptedChatModel(default=output_fault("네, 알겠습니다. 바로 분석해 드릴게요!")), "invalid output: no JSON object"),
    "schema-violation": (lambda: ScriptedChatModel(default=output_fault(SCHEMA_VIOLATION)), "invalid output: schema violation"),
}
OUTPUT_FAULTS = {"malformed-json", "not-json", "schema-violation"}


def llm_for(fault: str) -> tuple[LlmPolicies, Any]:
    factory, _ = FAULTS[fault]
    fake = factory()
    model = fake.model if isinstance(fake, HttpModel) else fake
    timeout = TIMEOUT_S if fault in ("timeout", "slow-stream") else GENEROUS_S
    return LlmPolicies(model, timeout, max_concurrency=4), fake


@pytest.fixture(scope="module")
def offline_turns(rel_services) -> dict[str, dict[str, Any]]:
    """The offline turn for each question (fresh thread each), and a second run of each to check
    that offline turns are deterministic."""
    first = {track: agent_with(rel_services, None).ask(q) for track, q in QUESTIONS.items()}
    again = {track: agent_with(rel_services, None).ask(q) for track, q in QUESTIONS.items()}
    for track in QUESTIONS:
        assert comparable(first[track]) == comparable(again[track]), track
    return first


def comparable(turn: dict[str, Any]) -> dict[str, Any]:
    """What must not depend on whether the LLM was tried: everything but timings and policies."""
    return {
        "track": turn["track"],
        "answer": turn["answer"],
        "evidence": turn["evidence"],
        "sql": turn["sql"],
        "report": turn["report"],
        "verification": turn["verification"],
        "steps": [(s["node"], s["summary"]) for s in turn["steps"]],
    }


def check_fallback_turn(turn: dict[str, Any], offline: dict[str, Any], cause: str, chat_by_llm: bool = False) -> None:
    assert turn["track"] == offline["track"]
    fell_back = [s for s in turn["steps"] if s.get("policy") == "offline-fallback"]
    assert turn["fallbacks"] == [s["node"] for s in fell_back]
    expected = [s["node"] for s in offline["steps"] if s["node"] in LLM_NODES and not (chat_by_llm and s["node"] == "chat")]
    assert turn["fallbacks"] == expected, (turn["fallbacks"], expected)
    assert "route" in turn["fallbacks"]
    for s in fell_back:
        assert s["error"].startswith(cause), (s["node"], s["error"])
        assert "Traceback" not in s["error"] and len(s["error"]) < 300
    for s in turn["steps"]:
        if s["node"] not in turn["fallbacks"] and s.get("policy"):
            assert s["policy"] in ("offline", "llm") and not s.get("error"), s
    if chat_by_llm:
        assert turn["answer"] == "안녕하세요, 무엇을 도와드릴까요?"
        assert [s["node"] for s in turn["steps"]] == [s["node"] for s in offline["steps"]]
    else:
        assert comparable(turn) == comparable(offline)
    assert turn["answer"].strip()


@pytest.mark.parametrize("track", list(QUESTIONS))
@pytest.mark.parametrize("fault", list(FAULTS))
def test_every_turn_completes_through_the_offline_fallback(rel_services, offline_turns, fault, track):
    llm, fake = llm_for(fault)
    agent = agent_with(rel_services, llm)
    before = fake.calls
    turn = agent.ask(QUESTIONS[track])
    chat_by_llm = fault in OUTPUT_FAULTS and track == "chat"
    check_fallback_turn(turn, offline_turns[track], FAULTS[fault][1], chat_by_llm)
    # One call per decision asked, failed ones included; the fakes agree (a model cut at the
    # deadline is still sleeping, so it has not counted its call yet).
    assert turn["llm_calls"] == len(turn["fallbacks"]) + chat_by_llm
    if fault not in ("timeout", "slow-stream"):
        assert fake.calls - before == turn["llm_calls"]


@pytest.mark.parametrize("fault", ["slow-stream", "http-503", "malformed-json"])
def test_streamed_turns_end_with_the_offline_answer(rel_services, offline_turns, fault):
    """Agent.stream (what the SSE route sends): 'done' is last and carries the offline turn."""
    llm, _ = llm_for(fault)
    agent = agent_with(rel_services, llm)
    for track in ("fast", "deep"):
        events = list(agent.stream(QUESTIONS[track]))
        assert events[-1]["event"] == "done" and sum(e["event"] == "done" for e in events) == 1
        done = {k: v for k, v in events[-1].items() if k != "event"}
        check_fallback_turn(done, offline_turns[track], FAULTS[fault][1])
        finished = [e for e in events if e["event"] == "step" and e["status"] == "finished"]
        assert [e["node"] for e in finished] == [s["node"] for s in done["steps"]]
        assert [e["node"] for e in finished if e.get("policy") == "offline-fallback"] == done["fallbacks"]


def test_a_conversation_survives_an_llm_that_recovers(rel_services, offline_turns):
    """Fails for the first turn, then answers well: the thread keeps both turns, the second by LLM."""
    model = ScriptedChatModel(default=RuntimeError("model down"))
    agent = agent_with(rel_services, LlmPolicies(model, GENEROUS_S))
    first = agent.ask(QUESTIONS["fast"], thread_id="recovering")
    assert first["answer"] == offline_turns["fast"]["answer"] and "route" in first["fallbacks"]
    model.default = smart_reply
    second = agent.ask("고마워요", thread_id="recovering", mode="chat")
    assert second["fallbacks"] == [] and second["llm_calls"] >= 1
    messages = agent.thread("recovering")["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]


def test_an_abandoned_stream_sends_no_tokens_after_its_node_finished(rel_services):
    """A streaming call cut at the deadline keeps streaming in its worker thread; none of its
    tokens may reach the client once its node has fallen back and finished (they used to arrive
    during the next nodes, as raw JSON of a discarded reply)."""
    model = ScriptedChatModel(default=smart_reply, delay_s=0.05, streaming=True)
    agent = agent_with(rel_services, LlmPolicies(model, TIMEOUT_S))
    events = list(agent.stream(QUESTIONS["deep"]))
    assert events[-1]["fallbacks"] == ["route", "grade_documents", "analyze", "verify_answer"]
    running: set[str] = set()
    for e in events:
        if e["event"] == "step":
            (running.add if e["status"] == "started" else running.discard)(e["node"])
        elif e["event"] == "token":
            assert e["node"] in running, f"token of {e['node']} while {running or 'nothing'} runs"
