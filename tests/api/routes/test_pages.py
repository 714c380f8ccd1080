"""GET /v1/chunks/{id}/page: a real 감사원 report's page as PNG with the cited span highlighted
where it is on the page; the passage as text for a source without fixed pages; a clear 410
when the source file was moved, deleted or changed after ingestion."""

from __future__ import annotations

import io
import json
import re
import shutil

import pypdfium2 as pdfium
import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import select

from app.api import create_app
from app.container import Container
from app.db.models import Chunk, Report
from app.keys import create_key
from app.pages.render import HIGHLIGHT, SCALE
from app.settings import Settings
from tests.conftest import BAI_REPORTS, EMBED_CACHE, SAMPLES, require_shared

REPORT = "jj20250925_091048"  # 11 pages, 2 findings: the smallest real report


@pytest.fixture(scope="module")
def pdf_store(tmp_path_factory):
    """A copy of one real report (so the test can move it) and a sample TXT, ingested."""
    require_shared()
    src = tmp_path_factory.mktemp("sources")
    shutil.copy(BAI_REPORTS / f"{REPORT}.pdf", src / f"{REPORT}.pdf")
    services = Container(Settings(data_dir=tmp_path_factory.mktemp("page-store"), embedding_cache_path=EMBED_CACHE))
    summary = services.ingestor.ingest([src / f"{REPORT}.pdf", SAMPLES / "sample_numbered.txt"])
    assert summary.errors == [] and summary.reports == 2, summary
    yield services, src / f"{REPORT}.pdf"
    services.close()


@pytest.fixture(scope="module")
def pdf_client(pdf_store):
    with TestClient(create_app(pdf_store[0])) as c:
        yield c


@pytest.fixture(scope="module")
def auth(pdf_store) -> dict[str, str]:
    return {"Authorization": f"Bearer {create_key(pdf_store[0].sessions, 'carol')[1]}"}


def _chunk(services, report_id: str, section: str = "problems") -> Chunk:
    with services.sessions() as s:
        return s.scalars(select(Chunk).where(Chunk.report_id == report_id, Chunk.section == section)
                         .order_by(Chunk.finding_id, Chunk.ordinal)).first()


def _sentence(text: str) -> tuple[int, int]:
    """A span of the passage: its second sentence (a quote as the analyst would cite it)."""
    ends = [m.end() for m in re.finditer(r"다\.", text)]
    return ends[0] + 1, ends[1]


def _squash(text: str) -> str:
    return re.sub(r"[\s\ue000-\uf8ff]", "", text)


def test_source_path_is_recorded_absolute(pdf_store):
    services, path = pdf_store
    with services.sessions() as s:
        report = s.get(Report, REPORT)
        assert report.source_path == str(path.resolve()) and report.source_file == f"{REPORT}.pdf"


def test_page_png_highlights_the_span_on_the_page(pdf_client, auth, pdf_store):
    services, path = pdf_store
    chunk = _chunk(services, REPORT)
    a, b = _sentence(chunk.text)
    r = pdf_client.get(f"/v1/chunks/{chunk.id}/page", params={"start": a, "end": b}, headers=auth)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "image/png" and r.headers["x-aura-located"] == "full"
    page_no, boxes = int(r.headers["x-aura-page"]), json.loads(r.headers["x-aura-highlight"])
    assert page_no >= chunk.page and boxes
    image = Image.open(io.BytesIO(r.content)).convert("RGB")
    pdf = pdfium.PdfDocument(str(path))
    page = pdf[page_no - 1]
    w_pt, h_pt = page.get_size()
    assert abs(image.width - w_pt * SCALE) <= 1 and abs(image.height - h_pt * SCALE) <= 1
    tinted = 0
    for left, top, right, bottom in boxes:  # the highlight is on the page, over the span's text
        assert 0 <= left < right <= image.width and 0 <= top < bottom <= image.height
        inner = image.crop((left + 3, top + 3, right - 3, bottom - 3))
        pixels = list(inner.getdata())
        tinted += sum(1 for p in pixels if abs(p[0] - HIGHLIGHT[0]) < 12 and abs(p[1] - HIGHLIGHT[1]) < 12 and abs(p[2] - HIGHLIGHT[2]) < 12)
        assert sum(1 for p in pixels if max(p) < 120) > 20, "no text under a highlighted line"
    assert tinted > 1000
    assert all(p[2] > 200 for p in image.crop((0, 0, image.width, 40)).getdata()), "tint outside the highlight"
    text = page.get_textpage()
    under = "".join(text.get_text_bounded(left / SCALE, h_pt - bottom / SCALE, right / SCALE, h_pt - top / SCALE)
                    for left, top, right, bottom in boxes)
    assert _squash(chunk.text[a:b]) in _squash(under)
    pdf.close()

    again = pdf_client.get(f"/v1/chunks/{chunk.id}/page", params={"start": a, "end": b}, headers=auth)
    assert again.headers["x-aura-cache"] == "hit" and again.content == r.content
    assert r.headers["x-aura-cache"] == "miss"


def test_whole_passage_by_default(pdf_client, auth, pdf_store):
    chunk = _chunk(pdf_store[0], REPORT, "criteria")
    r = pdf_client.get(f"/v1/chunks/{chunk.id}/page", headers=auth)
    assert r.status_code == 200 and r.headers["x-aura-located"] in ("full", "partial")
    assert json.loads(r.headers["x-aura-highlight"])


def test_bad_span_unknown_chunk_and_no_key(pdf_client, auth, pdf_store):
    chunk = _chunk(pdf_store[0], REPORT)
    for params in ({"start": 5, "end": 5}, {"start": 0, "end": len(chunk.text) + 1}, {"start": 10}):
        if params.get("start") == 10:
            params = {"start": len(chunk.text)}
        r = pdf_client.get(f"/v1/chunks/{chunk.id}/page", params=params, headers=auth)
        assert r.status_code == 400 and "not inside the passage" in r.json()["detail"], params
    assert pdf_client.get(f"/v1/chunks/{chunk.id}/page", params={"start": -1}, headers=auth).status_code == 422
    r = pdf_client.get("/v1/chunks/nope/page", headers=auth)
    assert r.status_code == 404 and r.json() == {"detail": "chunk 'nope' not found"}
    assert pdf_client.get(f"/v1/chunks/{chunk.id}/page").status_code == 401


def test_text_view_for_a_source_without_pages(pdf_client, auth, pdf_store):
    chunk = _chunk(pdf_store[0], "sample_numbered")
    r = pdf_client.get(f"/v1/chunks/{chunk.id}/page", params={"start": 0, "end": 10}, headers=auth)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    body = r.json()
    assert body["paged"] is False and body["format"] == "txt" and body["span"] == [0, 10]
    assert body["text"] == chunk.text and "no fixed pages" in body["message"]


def test_moved_changed_or_unknown_source_is_410_and_reingest_repairs(pdf_client, auth, pdf_store):
    services, path = pdf_store
    chunk = _chunk(services, REPORT)
    url = f"/v1/chunks/{chunk.id}/page"
    assert pdf_client.get(url, headers=auth).status_code == 200
    moved = path.with_name("moved.pdf")
    path.rename(moved)
    try:
        r = pdf_client.get(url, headers=auth)  # also when the page is in the cache
        assert r.status_code == 410
        assert "moved or deleted" in r.json()["detail"] and str(path) in r.json()["detail"]
    finally:
        moved.rename(path)
    assert pdf_client.get(url, headers=auth).status_code == 200

    elsewhere = path.parent / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(path, elsewhere / path.name)
    path.rename(path.with_suffix(".bak"))
    try:  # ingesting the unchanged file from its new place points the report there
        assert services.ingestor.ingest_file(elsewhere / path.name).status == "unchanged"
        assert pdf_client.get(url, params={"start": 1}, headers=auth).status_code == 200
        (elsewhere / path.name).write_bytes(b"%PDF-1.4 changed")
        r = pdf_client.get(url, headers=auth)
        assert r.status_code == 410 and "has changed since it was ingested" in r.json()["detail"]
        with services.sessions() as s:  # a store made before source paths were kept
            s.get(Report, REPORT).source_path = None
            s.commit()
        r = pdf_client.get(url, headers=auth)
        assert r.status_code == 410 and "ingest it again" in r.json()["detail"]
    finally:
        path.with_suffix(".bak").rename(path)
        services.ingestor.ingest_file(path)
    assert pdf_client.get(url, headers=auth).status_code == 200
