"""GET/DELETE /v1/threads: the caller's threads only."""

from __future__ import annotations

from app.db.models import ThreadRecord
from tests.api.utils import count, has_checkpoint


def test_list_get_delete(client, app, api_services, alice, bob):
    first = "새솔시 시간외근무수당 부당 지급 문제가 뭐였는지 자세히 알려줘, 조치할 사항과 관계기관 의견까지 모두 포함해서 항목별로 정리 부탁해"
    r = client.post("/v1/chat", json={"message": first, "thread_id": "th-1"}, headers=alice)
    assert r.status_code == 200
    listed = client.get("/v1/threads", headers=alice).json()
    mine = next(t for t in listed if t["id"] == "th-1")
    assert mine["title"].endswith("…") and first.startswith(mine["title"][:-1]) and len(mine["title"]) == 60
    assert mine["created_at"] <= mine["updated_at"]
    assert listed[0]["id"] == "th-1"  # most recent first
    assert all(t["id"] != "th-1" for t in client.get("/v1/threads", headers=bob).json())

    detail = client.get("/v1/threads/th-1", headers=alice).json()
    assert [m["role"] for m in detail["messages"]] == ["user", "assistant"]
    assert detail["messages"][0]["content"] == first and detail["title"] == mine["title"]
    assert "summary" in detail and isinstance(detail["retained_documents"], list)

    assert client.get("/v1/threads/th-1", headers=bob).status_code == 404
    assert client.delete("/v1/threads/th-1", headers=bob).status_code == 404
    assert has_checkpoint(app, "th-1")

    before = count(api_services, ThreadRecord)
    assert client.delete("/v1/threads/th-1", headers=alice).status_code == 204
    assert count(api_services, ThreadRecord) == before - 1
    assert not has_checkpoint(app, "th-1")
    assert client.get("/v1/threads/th-1", headers=alice).status_code == 404
    assert client.delete("/v1/threads/th-1", headers=alice).status_code == 404


def test_unknown_thread_is_404_with_json_detail(client, alice):
    r = client.get("/v1/threads/nope", headers=alice)
    assert r.status_code == 404 and r.json() == {"detail": "thread 'nope' not found"}
