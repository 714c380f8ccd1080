"""POST /v1/chat and /v1/chat/stream: turns, SSE order, bad input, ownership, failures."""

from __future__ import annotations

import pytest

from app.api.turns import ThreadBusy
from app.db.models import ReportDraft, ThreadRecord
from app.keys import verify_key
from app.vectorstore.milvus import VectorStoreUnavailable
from tests.api.utils import count, has_checkpoint, stream_turn


def test_chat_turn_json(client, alice):
    r = client.post("/v1/chat", json={"message": "주의 처분은 모두 몇 건이야?"}, headers=alice)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["track"] == "fast" and body["sql"]["rows"] and body["answer"]
    assert body["report_id"] is None and body["thread_id"]
    assert {"evidence", "steps", "verification", "llm_calls", "fallbacks"} <= body.keys()


def test_new_thread_id_creates_thread_owned_by_caller(client, alice, bob, api_services):
    r = client.post("/v1/chat", json={"message": "안녕하세요", "thread_id": "chat-new-1"}, headers=alice)
    assert r.status_code == 200 and r.json()["thread_id"] == "chat-new-1"
    with api_services.sessions() as s:
        assert s.get(ThreadRecord, "chat-new-1").title == "안녕하세요"
    again = client.post("/v1/chat", json={"message": "고마워요", "thread_id": "chat-new-1"}, headers=alice)
    assert again.status_code == 200
    stolen = client.post("/v1/chat", json={"message": "안녕", "thread_id": "chat-new-1"}, headers=bob)
    assert stolen.status_code == 404 and "not found" in stolen.json()["detail"]
    stolen = client.post("/v1/chat/stream", json={"message": "안녕", "thread_id": "chat-new-1"}, headers=bob)
    assert stolen.status_code == 404


def test_thread_made_outside_the_api_is_not_adopted(client, app, alice):
    app.state.agent.ask("안녕하세요", "cli-thread")
    r = client.post("/v1/chat", json={"message": "안녕", "thread_id": "cli-thread"}, headers=alice)
    assert r.status_code == 404


@pytest.mark.parametrize(
    ("body", "status", "needle"),
    [
        ({"message": ""}, 422, "at least 1"),
        ({"message": "   "}, 400, "empty"),
        ({"message": "가" * 4001}, 422, "4000"),
        ({"message": "안녕", "mode": "turbo"}, 422, "auto"),
        ({"message": "안녕", "thread_id": "bad id/!"}, 422, "pattern"),
        ({}, 422, "message"),
    ],
)
@pytest.mark.parametrize("path", ["/v1/chat", "/v1/chat/stream"])
def test_bad_input_is_refused_and_stores_nothing(client, app, api_services, alice, body, status, needle, path):
    threads, drafts = count(api_services, ThreadRecord), count(api_services, ReportDraft)
    body = {**body, "thread_id": body.get("thread_id", "bad-input")} if body else body
    r = client.post(path, json=body, headers=alice)
    assert r.status_code == status, r.text
    assert needle in str(r.json()["detail"])
    assert (count(api_services, ThreadRecord), count(api_services, ReportDraft)) == (threads, drafts)
    assert not has_checkpoint(app, "bad-input")


def test_stream_events_in_order(client, alice):
    events = stream_turn(client, alice, message="가람시 검수 소홀로 납품되지 않은 물품 대금 지급 문제는?", mode="deep")
    names = [n for n, _ in events]
    assert names[0] == "step" and names[-1] == "done"
    assert set(names) <= {"step", "token", "evidence", "sql_result", "report_trigger", "done"}
    assert "evidence" in names
    assert events[0][1] == {"node": "route", "status": "started"}
    done = events[-1][1]
    assert done["track"] == "deep" and done["evidence"] and done["report_id"] is None
    finished = [d["node"] for n, d in events if n == "step" and d["status"] == "finished"]
    assert finished == [s["node"] for s in done["steps"]]


def test_stream_sql_turn_emits_sql_result(client, alice):
    events = stream_turn(client, alice, message="2025년 시정 처분 건수는?", mode="fast")
    names = [n for n, _ in events]
    assert "sql_result" in names and names.index("sql_result") < names.index("done")
    sql = dict(events)["sql_result"]
    assert sql["rows"] and sql["query"].lower().startswith(("select", "with"))


def _break_vectors(monkeypatch, api_services):
    def boom(*args, **kwargs):
        raise VectorStoreUnavailable("Milvus at test is unavailable: connection refused")

    monkeypatch.setattr(api_services.retriever, "search", boom)
    monkeypatch.setattr(api_services.retriever, "search_many", boom)


def test_vector_store_down_gives_503_and_saves_no_new_thread(client, app, api_services, alice, monkeypatch):
    _break_vectors(monkeypatch, api_services)
    threads = count(api_services, ThreadRecord)
    r = client.post("/v1/chat", json={"message": "보조금 정산 문제 분석해줘", "mode": "deep", "thread_id": "down-new"}, headers=alice)
    assert r.status_code == 503
    assert r.json()["detail"].startswith("vector store unavailable: ")
    assert count(api_services, ThreadRecord) == threads
    assert not has_checkpoint(app, "down-new")


def test_vector_store_down_leaves_an_existing_thread_as_it_was(client, app, api_services, alice, monkeypatch):
    assert client.post("/v1/chat", json={"message": "안녕하세요", "thread_id": "down-old"}, headers=alice).status_code == 200
    before = client.get("/v1/threads/down-old", headers=alice).json()
    checkpoint = app.state.turns.latest_checkpoint("down-old")
    _break_vectors(monkeypatch, api_services)
    r = client.post("/v1/chat", json={"message": "보조금 정산 문제 분석해줘", "mode": "deep", "thread_id": "down-old"}, headers=alice)
    assert r.status_code == 503
    assert app.state.turns.latest_checkpoint("down-old") == checkpoint
    after = client.get("/v1/threads/down-old", headers=alice).json()
    assert after["messages"] == before["messages"] and len(after["messages"]) == 2
    monkeypatch.undo()
    r = client.post("/v1/chat", json={"message": "고마워요", "thread_id": "down-old"}, headers=alice)
    assert r.status_code == 200
    assert len(client.get("/v1/threads/down-old", headers=alice).json()["messages"]) == 4


def test_vector_store_down_mid_stream_ends_with_error_event(client, app, api_services, alice, monkeypatch):
    _break_vectors(monkeypatch, api_services)
    threads = count(api_services, ThreadRecord)
    events = stream_turn(client, alice, message="보조금 정산 문제 분석해줘", mode="deep", thread_id="down-stream")
    names = [n for n, _ in events]
    assert names[0] == "step" and names[-1] == "error" and "done" not in names
    assert events[-1][1]["message"].startswith("vector store unavailable")
    assert count(api_services, ThreadRecord) == threads
    assert not has_checkpoint(app, "down-stream")


def test_one_turn_per_thread_at_a_time(client, app, api_services, alice):
    turns = app.state.turns
    turns._busy.add("busy-1")
    try:
        r = client.post("/v1/chat", json={"message": "안녕하세요", "thread_id": "busy-1"}, headers=alice)
        assert r.status_code == 409 and "busy" in r.json()["detail"]
        events = stream_turn(client, alice, message="안녕하세요", thread_id="busy-1")
        assert events == [("error", {"message": "thread 'busy-1' is busy with another turn"})]
    finally:
        turns._busy.discard("busy-1")
    assert not has_checkpoint(app, "busy-1")


def test_two_keys_racing_for_one_new_thread_id(client, app, api_services, alice, bob):
    """Bob's turn was prepared (thread unknown) before Alice's turn created the thread: it is
    refused when it starts, and Alice's thread is untouched."""
    bob_key = verify_key(api_services.sessions, bob["Authorization"].split()[1])[0]
    stale = app.state.turns.prepare("안녕", "race-1", "auto", bob_key)
    assert client.post("/v1/chat", json={"message": "안녕하세요", "thread_id": "race-1"}, headers=alice).status_code == 200
    with pytest.raises(ThreadBusy):
        app.state.turns.ask(stale, bob_key)
    assert len(client.get("/v1/threads/race-1", headers=alice).json()["messages"]) == 2
