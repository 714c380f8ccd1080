"""API keys on the wire: 401 with WWW-Authenticate for a missing, wrong or revoked key; the
health endpoints are open."""

from __future__ import annotations

import pytest

from app.keys import create_key, revoke_key

PROTECTED = [
    ("POST", "/v1/chat"),
    ("POST", "/v1/chat/stream"),
    ("GET", "/v1/threads"),
    ("GET", "/v1/threads/x"),
    ("DELETE", "/v1/threads/x"),
    ("GET", "/v1/documents/x"),
    ("GET", "/v1/findings"),
    ("GET", "/v1/reports/x"),
    ("PUT", "/v1/reports/x"),
    ("GET", "/v1/reports/x/export"),
]
BODIES = {"/v1/chat": {"message": "안녕"}, "/v1/chat/stream": {"message": "안녕"}, "/v1/reports/x": {"title": "t", "sections": [{"key": "a", "title": "A"}]}}


@pytest.mark.parametrize(("method", "path"), PROTECTED)
@pytest.mark.parametrize(
    ("header", "needle"),
    [
        (None, "missing API key"),
        ("Bearer aura_0000000000000000000000000000000000000000000", "invalid API key"),
        ("Bearer not-a-key", "invalid API key"),
        ("Basic dXNlcjpwYXNz", "missing API key"),
    ],
)
def test_without_a_valid_key_401(client, method, path, header, needle):
    headers = {"Authorization": header} if header else {}
    body = BODIES.get(path) if method in ("POST", "PUT") else None
    r = client.request(method, path, headers=headers, json=body)
    assert r.status_code == 401, r.text
    assert needle in r.json()["detail"]
    assert r.headers["www-authenticate"] == "Bearer"


def test_upload_without_key_401(client):
    r = client.post("/v1/documents", files=[("files", ("a.txt", b"x", "text/plain"))])
    assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"


def test_revoked_key_401(client, api_services):
    _, key = create_key(api_services.sessions, "temp-auditor")
    headers = {"Authorization": f"Bearer {key}"}
    assert client.get("/v1/threads", headers=headers).status_code == 200
    assert revoke_key(api_services.sessions, "temp-auditor") == 1
    r = client.get("/v1/threads", headers=headers)
    assert r.status_code == 401 and "revoked" in r.json()["detail"]


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics", "/openapi.json"])
def test_open_endpoints(client, path):
    assert client.get(path).status_code == 200
