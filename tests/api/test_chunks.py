"""GET /v1/chunks/{id}: a cited passage with its report, finding and dispositions."""

from __future__ import annotations

from sqlalchemy import select

from app.db.models import Chunk


def _chunk_id(services, with_finding: bool) -> str:
    with services.sessions() as s:
        cond = Chunk.finding_id.is_not(None) if with_finding else Chunk.finding_id.is_(None)
        return s.scalars(select(Chunk.id).where(cond).order_by(Chunk.id).limit(1)).one()


def test_chunk_of_a_finding(client, alice, api_services):
    cid = _chunk_id(api_services, with_finding=True)
    r = client.get(f"/v1/chunks/{cid}", headers=alice)
    assert r.status_code == 200, r.text
    body = r.json()
    with api_services.sessions() as s:
        chunk = s.get(Chunk, cid)
        assert body["text"] == chunk.text and body["page"] == chunk.page and body["finding_id"] == chunk.finding_id
    assert body["report_title"] and body["finding_title"] and body["dispositions"]
    assert set(body) == {"chunk_id", "report_id", "report_title", "finding_id", "finding_title", "section", "page", "text", "heading", "dispositions"}


def test_cited_chunk_contains_the_quote(client, alice):
    turn = client.post("/v1/chat", json={"message": "가람시 수의계약 분할 문제 분석해줘", "mode": "deep"}, headers=alice).json()
    cited = [e for e in turn["evidence"] if e["chunk_id"]]
    assert cited
    for e in cited:
        chunk = client.get(f"/v1/chunks/{e['chunk_id']}", headers=alice).json()
        assert chunk["report_title"] == e["report"] and chunk["page"] == e["page"]
        squash = "".join
        assert squash(e["quote"].split()) in squash((chunk["heading"] + chunk["text"]).split())


def test_report_level_chunk_has_no_finding(client, alice, api_services):
    body = client.get(f"/v1/chunks/{_chunk_id(api_services, with_finding=False)}", headers=alice).json()
    assert body["finding_id"] is None and body["finding_title"] is None and body["dispositions"] == []


def test_unknown_chunk_and_missing_key(client, alice):
    r = client.get("/v1/chunks/nope", headers=alice)
    assert r.status_code == 404 and r.json() == {"detail": "chunk 'nope' not found"}
    assert client.get("/v1/chunks/nope").status_code == 401


def test_a_cited_manual_clause_is_served_as_a_chunk(client, alice):
    turn = client.post("/v1/chat", json={"message": "통보랑 주의 차이가 뭐야?"}, headers=alice).json()
    cited = [e for e in turn["evidence"] if e["chunk_id"].startswith("sop:")]
    assert cited and turn["coverage"] == "full"
    body = client.get(f"/v1/chunks/{cited[0]['chunk_id']}", headers=alice).json()
    assert body["section"] == "manual" and body["report_title"] == cited[0]["report"] and body["finding_id"] is None
    assert "".join(cited[0]["quote"].split()) in "".join(body["text"].split())
    assert client.get("/v1/chunks/sop:SOP-XXX-99", headers=alice).status_code == 404
