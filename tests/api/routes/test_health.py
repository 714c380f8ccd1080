"""/healthz, /readyz and /metrics (open, no key)."""

from __future__ import annotations

from app.vectorstore.milvus import VectorStoreUnavailable


def test_healthz_and_readyz(client):
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.get("/readyz")
    assert r.status_code == 200
    assert r.json() == {"ready": True, "checks": {"sql": "ok", "sop": "ok", "vectors": "ok", "embedder": "ok"}}


def test_readyz_names_the_part_that_failed(client, api_services, monkeypatch):
    def down():
        raise VectorStoreUnavailable("Milvus at x is unavailable: gone")

    monkeypatch.setattr(api_services.vectors, "count", down)
    r = client.get("/readyz")
    assert r.status_code == 503
    body = r.json()
    assert body["ready"] is False and body["checks"]["sql"] == "ok"
    assert body["checks"]["vectors"].startswith("VectorStoreUnavailable: Milvus at x is unavailable")


def test_metrics_count_requests_turns_and_ingests(client, app, alice):
    client.get("/healthz")
    client.get("/v1/threads/missing-thread", headers=alice)
    client.post("/v1/chat", json={"message": "안녕하세요"}, headers=alice)
    text = client.get("/metrics").text
    assert 'aura_http_requests_total{method="GET",route="/healthz",status="200"}' in text
    assert 'aura_http_requests_total{method="GET",route="/v1/threads/{thread_id}",status="404"}' in text
    assert 'aura_http_request_duration_seconds_count{method="POST",route="/v1/chat"}' in text
    assert 'aura_turns_total{track="chat"}' in text
    assert "# TYPE aura_llm_fallbacks_total counter" in text
    assert "# TYPE aura_ingest_files_total counter" in text  # counted in test_documents (own app)
    assert "# TYPE aura_turn_errors_total counter" in text
