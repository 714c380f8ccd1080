"""(c) Whole turns through the real graph (Agent on the samples store) with the real model over
HTTP: every turn completes with an answer, the LLM was called, and every step that fell back is
listed in ``fallbacks`` with its cause. The track is forced (``mode``) so that each track's LLM
steps run whatever this tiny model's router says; the router is still asked every turn."""

from __future__ import annotations

import time
from typing import Any

import pytest

from graph import RunContext
from tests.llm_endpoint.conftest import (
    RECORDER,
    RecordingPolicies,
    agent_on,
    llm_policies,
)
from tests.llm_endpoint.test_b_structured import CAUSES

pytestmark = pytest.mark.llm_endpoint

METHOD = "function_calling"
"""How the turns ask for decisions (see test_b_structured: the one this server decodes under the
schema's grammar)."""

CONTEXT = RunContext(top_k=3, max_rewrites=0, max_regenerations=0)
"""Three passages keep the prompts inside the 4096-token window; no rewrite and no regeneration
bound a deep turn to four calls (route, grade, analyze, verify): each costs 10-30 s here."""

TURNS = [
    ("chat", "안녕하세요, 무엇을 할 수 있나요?"),
    ("fast", "주의 처분은 모두 몇 건이야?"),
    ("deep", "가람시 검수 소홀로 납품되지 않은 물품 대금 지급 문제는?"),
]

LLM_NODES = {"route", "chat", "retrieve_sql", "grade_documents", "rewrite_query", "analyze", "verify_answer", "manage_report", "summarize"}


def check_turn(turn: dict[str, Any], mode: str) -> None:
    assert turn["track"] == mode
    assert turn["answer"].strip(), "empty answer"
    assert turn["llm_calls"] > 0
    steps = turn["steps"]
    assert steps[0]["node"] == "route"
    fell_back = [s["node"] for s in steps if s.get("policy") == "offline-fallback"]
    assert turn["fallbacks"] == fell_back
    for s in steps:
        if s.get("policy") == "offline-fallback":
            assert s["node"] in LLM_NODES, s
            assert s.get("error") and s["error"].split(":", 1)[0] in CAUSES, s
        elif s.get("policy"):
            assert s["policy"] in ("llm", "offline") and not s.get("error"), s


@pytest.fixture(scope="module")
def agent(endpoint, store, tmp_path_factory):
    llm = llm_policies(endpoint, tmp_path_factory.mktemp("turns"), llm_structured_output=METHOD)
    a = agent_on(store, RecordingPolicies(store.policies.offline, llm, f"turns:{METHOD}"))
    a.context = CONTEXT
    return a


@pytest.mark.parametrize(("mode", "question"), TURNS, ids=[f"{m}-{i}" for i, (m, _) in enumerate(TURNS)])
def test_turn_completes(agent, recorder, mode, question):
    t0 = time.perf_counter()
    turn = agent.ask(question, mode=mode)
    seconds = time.perf_counter() - t0
    RECORDER.turns.append(
        {"suite": f"turns:{METHOD}", "mode": mode, "question": question, "track": turn["track"],
         "llm_calls": turn["llm_calls"], "fallbacks": turn["fallbacks"], "seconds": seconds}
    )
    check_turn(turn, mode)
    if mode == "deep":
        nodes = [s["node"] for s in turn["steps"]]
        assert turn["coverage"] in ("full", "partial", "none")
        # a turn whose grading kept nothing declines, and a refusal is not verified
        verified = {"verify_answer"} if turn["coverage"] != "none" else set()
        assert {"grade_documents", "analyze"} | verified <= set(nodes), nodes
        assert ("verify_answer" in nodes) == (turn["coverage"] != "none"), nodes


def test_a_streamed_chat_turn(agent, recorder):
    """Agent.stream (what the SSE route sends) against the real server: step events, then one
    'done' event carrying the turn."""
    events = list(agent.stream("안녕하세요", mode="chat"))
    assert events[-1]["event"] == "done" and sum(e["event"] == "done" for e in events) == 1
    done = {k: v for k, v in events[-1].items() if k != "event"}
    check_turn(done, "chat")
    finished = [e["node"] for e in events if e["event"] == "step" and e["status"] == "finished"]
    assert finished == [s["node"] for s in done["steps"]]
    tokens = "".join(e["text"] for e in events if e["event"] == "token")
    if "chat" not in done["fallbacks"]:
        assert tokens.strip(), "the chat reply was not streamed"
