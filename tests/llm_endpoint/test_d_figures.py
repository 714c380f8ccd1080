"""(e) Figures: the same inputs for each decision type (route, grade, analyze, verify), asked of
the real model; how often its structured output was valid and used, how often the offline policy
had to decide instead (and why), and the latency per call. Printed at the end of the session and
written to RESULTS.md (see conftest). The assertions are the fallback contract; the figures are
whatever this model does."""

from __future__ import annotations

import os
import time
from collections import Counter

import pytest

from app.agent.tools import AgentTools
from graph.schemas import AnalystAnswer, GradeBatch, RouteDecision, Verification
from tests.llm_endpoint.conftest import RECORDER, RecordingPolicies, llm_policies
from tests.llm_endpoint.test_b_structured import check_contract
from tests.llm_endpoint.test_c_turns import METHOD

pytestmark = pytest.mark.llm_endpoint

BUDGET_S = float(os.environ.get("AURA_LLM_FIGURES_S", "120"))
"""Extra decisions are asked, round-robin, until this much time has gone; one of each always."""

ROUTES = [
    ("chat", "고마워요, 도움이 됐어요"),
    ("fast", "주의 처분은 모두 몇 건이야?"),
    ("deep", "보조금 정산 검토를 소홀히 한 사례의 판단기준은?"),
    ("report", "가람시 감사보고서 초안을 작성해 줘"),
]
EVIDENCE_QUESTIONS = [
    "누리공사 보조사업 관리에서 무엇이 문제였나?",
    "한빛군 공공시설 관리 실태의 지적사항은?",
]
K = 3


@pytest.fixture(scope="module")
def policies(endpoint, store, tmp_path_factory) -> RecordingPolicies:
    llm = llm_policies(endpoint, tmp_path_factory.mktemp("figures"), llm_structured_output=METHOD)
    return RecordingPolicies(store.policies.offline, llm, f"figures:{METHOD}")


def test_decisions_within_a_time_budget(policies, store, recorder):
    g = AgentTools(store, store.policies)
    labels: Counter[tuple[str, str]] = Counter()
    t0 = time.monotonic()
    for i in range(max(len(ROUTES), len(EVIDENCE_QUESTIONS))):
        if i and time.monotonic() - t0 > BUDGET_S:
            break
        expected, q = ROUTES[i % len(ROUTES)]
        d = policies.route(q, [], "", [])
        check_contract(d, RouteDecision)
        labels[(expected, d.value.track if d.policy == "llm" else "fallback")] += 1
        if i and time.monotonic() - t0 > BUDGET_S:
            break
        q = EVIDENCE_QUESTIONS[i % len(EVIDENCE_QUESTIONS)]
        docs = g.search(q, K, {})
        assert docs, q
        gd = policies.grade(q, docs)
        check_contract(gd, GradeBatch)
        a = policies.analyze(q, docs, g.search_sop(q, 2), None, "", [])
        check_contract(a, AnalystAnswer)
        assert a.value.sentences
        v = policies.verify(q, a.value, docs)
        check_contract(v, Verification)
    RECORDER.notes["Route labels in the figures run (expected -> given)"] = ", ".join(
        f"{e}->{g} ×{n}" for (e, g), n in sorted(labels.items())
    )
    decisions = {r.decision for r in RECORDER.rows if r.suite.startswith("figures:")}
    assert {"route", "grade", "analyze", "verify"} <= decisions, decisions
