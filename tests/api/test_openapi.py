"""The OpenAPI document lists every route with the errors it can answer."""

from __future__ import annotations

EXPECTED = {
    ("post", "/v1/chat"): {"400", "401", "404", "409", "422", "503"},
    ("post", "/v1/chat/stream"): {"400", "401", "404", "422"},
    ("get", "/v1/threads"): {"401"},
    ("get", "/v1/threads/{thread_id}"): {"401", "404", "422"},
    ("delete", "/v1/threads/{thread_id}"): {"401", "404", "422"},
    ("post", "/v1/documents"): {"400", "401", "413", "415", "422"},
    ("get", "/v1/documents/{job_id}"): {"401", "404", "422"},
    ("get", "/v1/findings"): {"401", "422"},
    ("get", "/v1/reports/{report_id}"): {"401", "404", "422"},
    ("put", "/v1/reports/{report_id}"): {"401", "404", "422"},
    ("get", "/v1/reports/{report_id}/export"): {"401", "404", "422"},
    ("get", "/v1/chunks/{chunk_id}"): {"401", "404", "422"},
    ("get", "/v1/chunks/{chunk_id}/page"): {"400", "401", "404", "410", "422"},
    ("get", "/v1/threads/{thread_id}/turns"): {"401", "404", "422"},
    ("get", "/v1/threads/{thread_id}/reports"): {"401", "404", "422"},
    ("get", "/v1/threads/{thread_id}/export"): {"401", "404", "422"},
    ("post", "/v1/feedback"): {"401", "404", "422"},
    ("get", "/v1/feedback"): {"401", "422"},
    ("get", "/healthz"): set(),
    ("get", "/readyz"): {"503"},
    ("get", "/metrics"): set(),
}


def test_every_route_and_its_errors(client):
    doc = client.get("/openapi.json").json()
    ops = {(m, p): op for p, item in doc["paths"].items() for m, op in item.items()}
    assert set(ops) == set(EXPECTED)
    for key, errors in EXPECTED.items():
        responses = ops[key]["responses"]
        assert errors <= set(responses), (key, set(responses))
        for code in errors - {"422"}:
            schema = responses[code]["content"]["application/json"]["schema"]
            assert schema["$ref"].rsplit("/", 1)[-1] in ("ErrorOut", "ReadyOut"), (key, code)
        if key[1].startswith("/v1/"):
            assert ops[key]["security"] == [{"HTTPBearer": []}], key


def test_contract_details(client):
    doc = client.get("/openapi.json").json()
    stream = doc["paths"]["/v1/chat/stream"]["post"]
    assert "text/event-stream" in stream["responses"]["200"]["content"]
    assert all(f"`{e}`" in stream["description"] for e in ("step", "token", "evidence", "sql_result", "report_trigger", "done", "error"))
    assert doc["paths"]["/v1/documents"]["post"]["responses"]["202"]
    chat_in = doc["components"]["schemas"]["ChatIn"]["properties"]
    assert chat_in["message"]["maxLength"] == 4000
    assert chat_in["mode"]["enum"] == ["auto", "chat", "fast", "deep", "report"] or "auto" in str(chat_in["mode"])
    assert "report_id" in doc["components"]["schemas"]["TurnOut"]["properties"]
    export = doc["paths"]["/v1/reports/{report_id}/export"]["get"]["responses"]["200"]["content"]
    assert {"application/vnd.openxmlformats-officedocument.wordprocessingml.document", "text/markdown"} <= set(export)


def test_workbench_contracts(client):
    doc = client.get("/openapi.json").json()
    page = doc["paths"]["/v1/chunks/{chunk_id}/page"]["get"]["responses"]["200"]
    assert {"image/png", "application/json"} <= set(page["content"]) and "X-Aura-Highlight" in page["headers"]
    report = doc["paths"]["/v1/reports/{report_id}/export"]["get"]["responses"]["200"]["content"]
    assert "application/hwp+zip" in report
    paper = doc["paths"]["/v1/threads/{thread_id}/export"]["get"]["responses"]["200"]["content"]
    assert {"application/hwp+zip", "application/json",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document"} <= set(paper)
    assert "turn_id" in doc["components"]["schemas"]["TurnOut"]["properties"]
