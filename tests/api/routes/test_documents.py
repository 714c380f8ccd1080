"""POST /v1/documents and GET /v1/documents/{job}: checks before storing, background ingestion,
per-file errors. On a store of their own (uploads change the corpus)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from app.api import create_app
from app.api.jobs import upload_dir
from app.container import Container
from app.db.models import IngestJob, Report
from app.keys import create_key, verify_key
from app.settings import Settings
from tests.api.utils import count
from tests.conftest import EMBED_CACHE, SAMPLES


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    services = Container(Settings(data_dir=tmp_path_factory.mktemp("upload-store"), embedding_cache_path=EMBED_CACHE))
    yield services
    services.close()


@pytest.fixture(scope="module")
def upload_app(store):
    app = create_app(store, settings=store.settings.model_copy(update={"max_upload_mb": 1}))
    with TestClient(app) as c:
        yield app, c


@pytest.fixture(scope="module")
def keys(store):
    return [{"Authorization": f"Bearer {create_key(store.sessions, n)[1]}"} for n in ("up-a", "up-b")]


def _wait(client, job_id, headers, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = client.get(f"/v1/documents/{job_id}", headers=headers).json()
        if job["status"] in ("done", "failed"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still {job['status']}")


def _stored(store) -> tuple[int, int, list]:
    uploads = store.settings.data_dir / "uploads"
    return count(store, IngestJob), count(store, Report), sorted(uploads.iterdir()) if uploads.exists() else []


def test_broken_pdf_fails_alone_and_the_good_file_is_ingested(upload_app, store, keys):
    _, client = upload_app
    good = (SAMPLES / "sample_numbered.txt").read_bytes()
    files = [
        ("files", ("broken.pdf", b"%PDF-1.7\nthis is not really a pdf", "application/pdf")),
        ("files", ("sample_numbered.txt", good, "text/plain")),
    ]
    r = client.post("/v1/documents", files=files, headers=keys[0])
    assert r.status_code == 202, r.text
    accepted = r.json()
    assert accepted["status"] in ("queued", "running") and accepted["job_id"]
    job = _wait(client, accepted["job_id"], keys[0])
    assert job["status"] == "done"
    by_name = {f["file"]: f for f in job["files"]}
    assert by_name["broken.pdf"]["status"] == "error" and "PDF" in by_name["broken.pdf"]["error"]
    assert by_name["sample_numbered.txt"]["status"] == "ingested"
    assert by_name["sample_numbered.txt"]["findings"] == 3 and by_name["sample_numbered.txt"]["chunks"] > 0
    assert job["summary"]["findings"] == 3 and len(job["summary"]["errors"]) == 1
    saved = store.settings.data_dir / "uploads" / accepted["job_id"]
    assert sorted(p.name for p in saved.iterdir()) == ["broken.pdf", "sample_numbered.txt"]
    with store.sessions() as s:
        assert s.get(Report, "sample_numbered") is not None
    metrics = client.get("/metrics").text
    assert 'aura_ingest_files_total{status="error"} 1.0' in metrics
    assert 'aura_ingest_files_total{status="ingested"} 1.0' in metrics

    assert client.get(f"/v1/documents/{accepted['job_id']}", headers=keys[1]).status_code == 404
    assert client.get("/v1/documents/unknown-job", headers=keys[0]).status_code == 404


def test_same_name_twice_in_one_upload_keeps_both(upload_app, store, keys):
    _, client = upload_app
    files = [("files", ("note.md", "# 메모\n\n첫째 문서입니다.".encode(), "text/markdown")),
             ("files", ("note.md", "# 메모\n\n둘째 문서입니다.".encode(), "text/markdown"))]
    r = client.post("/v1/documents", files=files, headers=keys[0])
    job = _wait(client, r.json()["job_id"], keys[0])
    assert [f["file"] for f in job["files"]] == ["note.md", "note_2.md"]
    assert all(f["status"] == "ingested" for f in job["files"])


@pytest.mark.parametrize(
    ("files", "status", "needle"),
    [
        ([("files", ("virus.exe", b"MZ....", "application/octet-stream"))], 415, "unsupported file type '.exe'"),
        ([("files", ("ok.txt", "감사".encode(), "text/plain")), ("files", ("notes", b"no suffix", "text/plain"))], 415, "unsupported"),
        ([("files", ("empty.txt", b"", "text/plain"))], 400, "empty"),
        ([("files", ("big.txt", "가".encode() * 400_000, "text/plain"))], 413, "larger than 1 MB"),
    ],
)
def test_refused_uploads_store_nothing(upload_app, store, keys, files, status, needle):
    _, client = upload_app
    before = _stored(store)
    r = client.post("/v1/documents", files=files, headers=keys[0])
    assert r.status_code == status, r.text
    assert needle in r.json()["detail"]
    assert _stored(store) == before


def test_no_files_is_refused(upload_app, keys):
    _, client = upload_app
    r = client.post("/v1/documents", data={"x": "1"}, headers=keys[0])
    assert r.status_code in (400, 422) and r.json()["detail"]


def test_tiny_limit_from_settings(store, keys):
    """AURA_MAX_UPLOAD_MB: under the limit passes the body check, over it is 413 even when the
    body is far larger than the limit (refused while reading, before parsing)."""
    app = create_app(store, settings=store.settings.model_copy(update={"max_upload_mb": 0.001}))
    before = _stored(store)
    with TestClient(app) as client:
        small = client.post("/v1/documents", files=[("files", ("a.txt", b"x" * 2000, "text/plain"))], headers=keys[0])
        assert small.status_code == 413 and "0.001 MB" in small.json()["detail"]
        huge = client.post("/v1/documents", files=[("files", ("a.txt", b"x" * 300_000, "text/plain"))], headers=keys[0])
        assert huge.status_code == 413 and "0.001 MB" in huge.json()["detail"]
        body = (
            b'--b\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n'
            b"Content-Type: text/plain\r\n\r\n" + b"x" * 300_000 + b"\r\n--b--\r\n"
        )
        chunked = client.post(
            "/v1/documents", content=iter([body[i : i + 65536] for i in range(0, len(body), 65536)]),
            headers={**keys[0], "Content-Type": "multipart/form-data; boundary=b"},
        )
        assert chunked.status_code == 413 and chunked.json()["detail"]
    assert _stored(store) == before


def test_upload_needs_a_key(upload_app, store):
    _, client = upload_app
    before = _stored(store)
    r = client.post("/v1/documents", files=[("files", ("a.txt", "감사".encode(), "text/plain"))])
    assert r.status_code == 401
    assert _stored(store) == before


def test_jobs_left_queued_run_at_start_up(store, keys):
    """A job saved but not ingested (the process stopped) is picked up when the app starts."""
    owner = verify_key(store.sessions, keys[0]["Authorization"].split()[1])[0]
    folder = upload_dir(store.settings.data_dir, "leftover")
    folder.mkdir(parents=True)
    (folder / "left.md").write_text("# 남은 문서\n\n재시작 후 처리됩니다.", encoding="utf-8")
    with store.sessions() as s:
        s.add(IngestJob(id="leftover", owner_key_id=owner.id, status="running",
                        files=[{"file": "left.md", "status": "queued", "findings": 0, "chunks": 0, "error": None}]))
        s.commit()
    with TestClient(create_app(store)) as client:
        job = _wait(client, "leftover", keys[0])
    assert job["status"] == "done" and job["files"][0]["status"] == "ingested"
