"""Report drafts: made by a report turn, read, edited, exported (DOCX and Markdown)."""

from __future__ import annotations

import io
from urllib.parse import unquote

import pytest
from docx import Document

from tests.api.utils import stream_turn

EDITED = "감사인이 직접 고친 지적 사항 문장입니다."


@pytest.fixture(scope="module")
def report(client, alice):
    """A deep turn about a sample finding, then a report request on the same thread (streamed)."""
    r = client.post("/v1/chat", json={"message": "가람시 체육시설 물품 구매계약 분할 수의계약 문제 분석해줘", "mode": "deep"}, headers=alice)
    assert r.status_code == 200 and r.json()["track"] == "deep"
    thread = r.json()["thread_id"]
    events = stream_turn(client, alice, message="보고서 초안 작성해줘", thread_id=thread)
    return thread, events


def test_report_turn_streams_trigger_before_done(report):
    _, events = report
    names = [n for n, _ in events]
    assert names[0] == "step" and names[-1] == "done"
    assert names.index("report_trigger") < names.index("done")
    trigger, done = dict(events)["report_trigger"], events[-1][1]
    assert trigger["report_id"] and trigger["report_id"] == done["report_id"]
    assert done["track"] == "report" and done["report"]["status"] == "ready"
    assert trigger["draft"]["findings"][0].startswith("sample_numbered")


def test_chat_json_returns_report_id(client, alice, report):
    thread, _ = report
    r = client.post("/v1/chat", json={"message": "보고서 초안 다시 작성해줘", "thread_id": thread, "mode": "report"}, headers=alice)
    body = r.json()
    assert body["report"]["status"] == "ready" and body["report_id"]
    assert client.get(f"/v1/reports/{body['report_id']}", headers=alice).json()["thread_id"] == thread


def test_get_put_export(client, alice, bob, report):
    thread, events = report
    rid = events[-1][1]["report_id"]
    got = client.get(f"/v1/reports/{rid}", headers=alice).json()
    assert got["thread_id"] == thread and got["title"].endswith("보고서(초안)")
    keys = [s["key"] for s in got["sections"]]
    assert {"findings", "criteria", "actions"} <= set(keys)

    sections = got["sections"]
    findings = next(s for s in sections if s["key"] == "findings")
    findings["text"] = EDITED
    r = client.put(f"/v1/reports/{rid}", json={"title": "가람시 감사결과 보고서(수정본)", "sections": sections}, headers=alice)
    assert r.status_code == 200, r.text
    assert r.json()["title"] == "가람시 감사결과 보고서(수정본)" and r.json()["findings"] == got["findings"]
    assert r.json()["updated_at"] >= got["updated_at"]

    docx = client.get(f"/v1/reports/{rid}/export", params={"format": "docx"}, headers=alice)
    assert docx.status_code == 200
    assert docx.headers["content-type"] == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    disposition = docx.headers["content-disposition"]
    assert disposition.startswith("attachment;") and f'filename="report-{rid}.docx"' in disposition
    assert "수정본" in unquote(disposition.split("filename*=UTF-8''")[1])
    doc = Document(io.BytesIO(docx.content))
    paragraphs = [(p.style.name, p.text) for p in doc.paragraphs]
    assert ("Title", "가람시 감사결과 보고서(수정본)") in paragraphs
    headings = [t for style, t in paragraphs if style == "Heading 1"]
    assert headings == [s["title"] for s in sections]
    assert any(t == EDITED for _, t in paragraphs)
    assert any(style == "List Bullet" and t.startswith("sample_numbered-F0") for style, t in paragraphs)

    md = client.get(f"/v1/reports/{rid}/export", params={"format": "md"}, headers=alice)
    assert md.status_code == 200 and md.headers["content-type"].startswith("text/markdown")
    assert f'filename="report-{rid}.md"' in md.headers["content-disposition"]
    text = md.text
    assert text.startswith("# 가람시 감사결과 보고서(수정본)\n") and EDITED in text
    assert "## 지적 사항" in text and "- sample_numbered-F01" in text

    for method, url in (("GET", f"/v1/reports/{rid}"), ("GET", f"/v1/reports/{rid}/export"), ("PUT", f"/v1/reports/{rid}")):
        r = client.request(method, url, headers=bob, json={"title": "x", "sections": sections} if method == "PUT" else None)
        assert r.status_code == 404, (method, url)
    assert client.get(f"/v1/reports/{rid}", headers=alice).json()["title"].endswith("(수정본)")


@pytest.mark.parametrize(
    "body",
    [
        {"title": "", "sections": [{"key": "a", "title": "A", "text": "", "citations": []}]},
        {"title": "t", "sections": []},
        {"title": "t", "sections": [{"key": "a", "text": "no title"}]},
        {"title": "t", "sections": [{"key": "a", "title": "A", "citations": "not a list"}]},
        {"title": "t", "sections": [{"key": "a", "title": "A"}], "findings": ["x"]},
    ],
)
def test_put_validates_the_shape(client, alice, report, body):
    rid = report[1][-1][1]["report_id"]
    before = client.get(f"/v1/reports/{rid}", headers=alice).json()
    r = client.put(f"/v1/reports/{rid}", json=body, headers=alice)
    assert r.status_code == 422 and r.json()["detail"]
    assert client.get(f"/v1/reports/{rid}", headers=alice).json() == before


def test_bad_format_and_unknown_report(client, alice, report):
    rid = report[1][-1][1]["report_id"]
    assert client.get(f"/v1/reports/{rid}/export", params={"format": "pdf"}, headers=alice).status_code == 422
    assert client.get("/v1/reports/nope", headers=alice).status_code == 404
