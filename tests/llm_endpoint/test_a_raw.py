"""(a) The server itself, over plain HTTP: /v1/models and one chat completion."""

from __future__ import annotations

import time

import httpx
import pytest

pytestmark = pytest.mark.llm_endpoint


def test_models_lists_the_served_model(endpoint, recorder):
    r = httpx.get(f"{endpoint.base_url}/models", timeout=10)
    assert r.status_code == 200, r.text
    ids = [m["id"] for m in r.json()["data"]]
    assert endpoint.model in ids, ids


def test_a_chat_completion_answers(endpoint, recorder):
    t0 = time.perf_counter()
    r = httpx.post(
        f"{endpoint.base_url}/chat/completions",
        json={
            "model": endpoint.model,
            "messages": [{"role": "user", "content": "Say hello in one short sentence."}],
            "max_tokens": 32,
            "temperature": 0,
        },
        timeout=60,
    )
    seconds = time.perf_counter() - t0
    assert r.status_code == 200, r.text
    body = r.json()
    choice = body["choices"][0]
    assert choice["message"]["role"] == "assistant"
    assert choice["message"]["content"].strip()
    assert choice["finish_reason"] in ("stop", "length")
    usage = body["usage"]
    assert usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    recorder.notes["Raw chat completion"] = (
        f"{usage['prompt_tokens']} prompt + {usage['completion_tokens']} completion tokens in {seconds:.2f} s: "
        f"{choice['message']['content'].strip()[:120]!r}"
    )
