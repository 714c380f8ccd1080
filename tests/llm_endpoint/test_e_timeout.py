"""(d) A deadline the real server cannot meet (AURA_LLM_TIMEOUT_S=0.05): every LLM step falls
back with a timeout, the turn still completes with the offline answer, and the wall time stays
bounded. Runs last: calls abandoned at the deadline may keep the server busy for a moment."""

from __future__ import annotations

import time

import pytest

from tests.llm_endpoint.conftest import RECORDER, RecordingPolicies, agent_on, llm_policies
from tests.llm_endpoint.test_c_turns import CONTEXT, LLM_NODES

pytestmark = pytest.mark.llm_endpoint

TINY_S = 0.05
QUESTIONS = [
    ("chat", "안녕하세요"),
    ("fast", "주의 처분은 모두 몇 건이야?"),
    ("deep", "가람시 검수 소홀로 납품되지 않은 물품 대금 지급 문제는?"),
]


@pytest.mark.parametrize(("mode", "question"), QUESTIONS, ids=[m for m, _ in QUESTIONS])
def test_every_llm_step_times_out_and_the_turn_completes(endpoint, store, tmp_path, recorder, mode, question):
    offline = agent_on(store, RecordingPolicies(store.policies.offline, None, "offline"))
    offline.context = CONTEXT
    t0 = time.perf_counter()
    expected = offline.ask(question, mode=mode)
    offline_s = time.perf_counter() - t0

    # The project's default client retries (2) stay on: they run in the abandoned worker, never
    # past the caller's deadline.
    llm = llm_policies(endpoint, tmp_path, llm_timeout_s=TINY_S, llm_max_retries=2, llm_max_concurrency=4)
    agent = agent_on(store, RecordingPolicies(store.policies.offline, llm, "timeout"))
    agent.context = CONTEXT
    t0 = time.perf_counter()
    turn = agent.ask(question, mode=mode)
    seconds = time.perf_counter() - t0
    RECORDER.turns.append(
        {"suite": f"timeout {TINY_S:g} s", "mode": mode, "question": question, "track": turn["track"],
         "llm_calls": turn["llm_calls"], "fallbacks": turn["fallbacks"], "seconds": seconds}
    )

    assert turn["track"] == mode and turn["answer"].strip()
    # Every step that asks the LLM (the offline turn's decision steps on LLM nodes) fell back.
    # (summarize makes no call while the conversation fits the prompt window.)
    asked = [s["node"] for s in expected["steps"] if s["node"] in LLM_NODES - {"summarize"} and s.get("policy")]
    assert asked and asked[0] == "route"
    assert turn["fallbacks"] == asked, (turn["fallbacks"], asked)
    assert turn["llm_calls"] == len(asked)
    for s in turn["steps"]:
        if s["node"] in turn["fallbacks"]:
            assert s["error"] == f"timeout: no answer within {TINY_S:g} s", s
    # The offline decisions stand in: same answer and steps as the offline turn.
    assert turn["answer"] == expected["answer"]
    assert [s["node"] for s in turn["steps"]] == [s["node"] for s in expected["steps"]]
    # Bounded: the offline turn's time plus one deadline per LLM step, with room for a busy machine.
    assert seconds < offline_s + TINY_S * turn["llm_calls"] + 5.0, (seconds, offline_s, turn["llm_calls"])
