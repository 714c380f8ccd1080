"""Fixes the real endpoint exposed, checked without a server (these run in the default suite)."""

from __future__ import annotations

import json

import httpx
import pytest
from langchain_openai import ChatOpenAI

from app.llm import make_chat_model
from app.llm.errors import PolicyError
from app.policies.llm import LlmPolicies
from app.settings import Settings


def _settings(base_url: str | None, **kw) -> Settings:
    return Settings(_env_file=None, llm_provider="openai", llm_model="m", llm_base_url=base_url,
                    llm_api_key="k", llm_max_tokens=128, **kw)


def test_a_compatible_server_gets_the_classic_max_tokens():
    """langchain-openai sends max_tokens as max_completion_tokens, which llama-cpp-python's
    server ignores (a rambling model then writes until its context is full)."""
    payload = make_chat_model(_settings("http://127.0.0.1:8080/v1"))._get_request_payload([("user", "hi")])
    assert payload["extra_body"] == {"max_tokens": 128}
    assert "max_completion_tokens" not in payload and "max_tokens" not in payload


@pytest.mark.parametrize("base_url", [None, "https://api.openai.com/v1"])
def test_the_openai_api_keeps_max_completion_tokens(base_url):
    payload = make_chat_model(_settings(base_url))._get_request_payload([("user", "hi")])
    assert payload["max_completion_tokens"] == 128 and "extra_body" not in payload


def test_max_tokens_reaches_the_wire():
    seen: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        return httpx.Response(200, json={
            "id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
        })

    model = make_chat_model(_settings("http://llm.test/v1"))
    model.client = ChatOpenAI(model="m", base_url="http://llm.test/v1", api_key="k",
                              http_client=httpx.Client(transport=httpx.MockTransport(handler))).client
    model.invoke("hi")
    assert seen[0]["max_tokens"] == 128 and "max_completion_tokens" not in seen[0]


def test_a_tool_call_cut_at_the_token_limit_names_the_cause():
    """llama-cpp-python reports a forced tool call cut at max_tokens with finish_reason
    'tool_calls'; the truncated arguments end up in invalid_tool_calls."""
    cut = '{"reasoning": "x", "track": "report", "dispositions": ["청소", "고발'

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={
            "id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": None,
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "RouteDecision", "arguments": cut}}],
            }}],
            "usage": {"prompt_tokens": 400, "completion_tokens": 128, "total_tokens": 528},
        })

    model = ChatOpenAI(model="m", base_url="http://llm.test/v1", api_key="k", max_retries=0,
                       http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    llm = LlmPolicies(model, 10.0, method="function_calling")
    with pytest.raises(PolicyError, match=r"malformed tool-call arguments: Unterminated string .* after 128 output tokens"):
        llm.route("주의 처분은 몇 건?", [], "", [])
