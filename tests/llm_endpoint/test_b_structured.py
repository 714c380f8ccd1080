"""(b) Structured decisions over real HTTP: ``make_chat_model`` + ``LlmPolicies`` behind the real
``FallbackPolicies``, for route, grade and verify, with each way of asking for structure.

The contract, whatever this tiny model produces: either the decision is the LLM's
(``policy == "llm"``, a schema-valid value that passed LlmPolicies' own checks), or it is the
offline decision marked ``offline-fallback`` with a short error naming the cause."""

from __future__ import annotations

from typing import Any

import pytest

from app.llm.providers import make_chat_model, structured_method
from graph.ports import Decided
from graph.schemas import GradeBatch, RouteDecision, Verification
from tests.llm_endpoint.conftest import RECORDER, RecordingPolicies, llm_policies

pytestmark = pytest.mark.llm_endpoint

CAUSES = ("timeout", "http", "invalid output", "connection", "auth")
"""LlmError kinds; a bare 'error' would mean an exception nobody mapped to a readable cause."""

METHODS = ["json_schema", "function_calling"]
"""json_schema is what ``auto`` picks for the openai provider (response_format json_schema:
llama-cpp-python's server rejects it, HTTP 500, so every decision falls back at once);
function_calling forces a tool call, which llama-cpp-python decodes under a grammar made from the
tool's JSON schema. (json_mode, any JSON object, is left out: it costs the same time per call as
function_calling and this base model never fills the fields it is not forced to.)"""

ROUTE_QUESTIONS = [
    "안녕하세요",
    "가람시 검수 소홀로 납품되지 않은 물품 대금 지급 문제는?",
]
DOC_QUESTION = "가람시 검수 소홀로 납품되지 않은 물품 대금 지급 문제는?"
K = 3


def check_contract(d: Decided[Any], schema: type) -> None:
    assert d.llm_calls >= 1, "the decision was never asked of the LLM"
    if d.policy == "llm":
        assert isinstance(d.value, schema), type(d.value)
        assert d.error is None
    else:
        assert d.policy == "offline-fallback", d.policy
        assert isinstance(d.value, schema), type(d.value)
        assert d.error, "a fallback without a cause"
        assert d.error.split(":", 1)[0] in CAUSES, d.error
        assert "Traceback" not in d.error and len(d.error) < 300, d.error


@pytest.fixture(scope="module")
def docs(store) -> list[dict[str, Any]]:
    from app.agent.tools import AgentTools

    found = AgentTools(store, store.policies).search(DOC_QUESTION, K, {})
    assert found, "the samples store found nothing"
    return found


def policies_for(endpoint, store, tmp_path, method: str) -> RecordingPolicies:
    llm = llm_policies(endpoint, tmp_path, llm_structured_output=method)
    assert llm.method == method
    return RecordingPolicies(store.policies.offline, llm, f"structured:{method}")


def test_auto_asks_an_openai_compatible_server_for_json_schema(endpoint, tmp_path):
    model = make_chat_model(endpoint.settings(tmp_path))
    assert type(model).__name__ == "ChatOpenAI"
    assert structured_method(model, "auto") == "json_schema"


@pytest.mark.parametrize("method", METHODS)
def test_route(endpoint, store, tmp_path, recorder, method):
    p = policies_for(endpoint, store, tmp_path, method)
    for q in ROUTE_QUESTIONS:
        d = p.route(q, [], "", [])
        check_contract(d, RouteDecision)
        assert d.value.track in ("chat", "fast", "deep", "report")


@pytest.mark.parametrize("method", METHODS)
def test_grade(endpoint, store, tmp_path, recorder, docs, method):
    p = policies_for(endpoint, store, tmp_path, method)
    d = p.grade(DOC_QUESTION, docs)
    check_contract(d, GradeBatch)
    assert d.value.grades
    assert all(1 <= g.index <= len(docs) for g in d.value.grades)


@pytest.mark.parametrize("method", METHODS)
def test_verify(endpoint, store, tmp_path, recorder, docs, method):
    p = policies_for(endpoint, store, tmp_path, method)
    answer = store.policies.offline.analyze(DOC_QUESTION, docs, [], None, "", []).value
    d = p.verify(DOC_QUESTION, answer, docs)
    check_contract(d, Verification)
    texts = {s.text for s in answer.sentences}
    assert all(u in texts for u in d.value.unsupported)


def test_the_http_path_delivers_llm_decisions(recorder):
    """Not everything may fall back: with at least one way of asking, the real model's
    structured output came back valid and was used."""
    rows = [r for r in RECORDER.rows if r.suite.startswith("structured:")]
    assert rows, "no structured decision was recorded (run the whole module)"
    by_method: dict[str, list[str]] = {}
    for r in rows:
        by_method.setdefault(r.suite, []).append(r.policy)
    assert any("llm" in policies for policies in by_method.values()), {
        m: sorted(set(r.error or "" for r in rows if r.suite == m)) for m in by_method
    }
