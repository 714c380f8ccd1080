"""Storage faults. Milvus unreachable for real (a server URI where nothing listens, not a patched
retriever as in tests/api): the turns that need vectors get 503 or an SSE error with a clear
message and save nothing, the ones that do not still work, an upload fails per file with
nothing half-stored. Ingestion killed with SIGKILL mid-way: a re-run converges to exactly the
store of a clean run, SQLite and Milvus agreeing."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api import create_app
from app.container import Container
from app.db.models import IngestJob, Report, ThreadRecord
from app.keys import create_key
from app.settings import Settings
from tests.api.utils import count, has_checkpoint, parse_sse
from tests.conftest import BAI_REPORTS, EMBED_CACHE, ROOT, SAMPLES, require_shared


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- Milvus unreachable -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def down(rel_services, tmp_path_factory):
    """An app whose SQLite store is a copy of the samples store and whose Milvus URI points at a
    loopback port where nothing listens."""
    data_dir = tmp_path_factory.mktemp("milvus-down")
    src = sqlite3.connect(str(rel_services.settings.data_dir / "aura.db"))
    dst = sqlite3.connect(str(data_dir / "aura.db"))
    src.backup(dst)
    src.close()
    dst.close()
    uri = f"http://127.0.0.1:{free_port()}"
    services = Container(Settings(_env_file=None, data_dir=data_dir, milvus_uri=uri, embedding_cache_path=EMBED_CACHE))
    app = create_app(services)
    with TestClient(app) as client:
        _, key = create_key(services.sessions, "down")
        yield app, client, services, {"Authorization": f"Bearer {key}"}, uri
    services.close()


def test_readyz_names_the_unreachable_milvus(down):
    _, client, _, _, uri = down
    r = client.get("/readyz")
    assert r.status_code == 503
    checks = r.json()["checks"]
    assert checks["sql"] == "ok" and checks["embedder"] == "ok"
    assert checks["vectors"].startswith(f"VectorStoreUnavailable: Milvus at {uri} is unavailable")


@pytest.mark.parametrize("mode", ["deep", "auto"])
def test_a_turn_that_needs_vectors_is_503_and_saves_nothing(down, mode):
    app, client, services, headers, uri = down
    thread = f"down-{mode}"
    threads = count(services, ThreadRecord)
    r = client.post("/v1/chat", json={"message": "가람시 검수 소홀로 납품되지 않은 물품 대금 지급 문제는?", "mode": mode,
                                      "thread_id": thread}, headers=headers)
    assert r.status_code == 503, r.text
    assert r.json()["detail"].startswith(f"vector store unavailable: Milvus at {uri} is unavailable")
    assert count(services, ThreadRecord) == threads
    assert not has_checkpoint(app, thread)
    assert client.get(f"/v1/threads/{thread}", headers=headers).status_code == 404


def test_a_streamed_turn_ends_with_an_error_event_and_saves_nothing(down):
    app, client, services, headers, uri = down
    threads = count(services, ThreadRecord)
    body = {"message": "가람시 계약사무 처리 지침의 견적 기준은 왜 문제야?", "mode": "deep", "thread_id": "down-stream"}
    with client.stream("POST", "/v1/chat/stream", json=body, headers=headers) as r:
        assert r.status_code == 200
        events = parse_sse(r.iter_lines())
    names = [n for n, _ in events]
    assert names[0] == "step" and names[-1] == "error" and "done" not in names
    assert events[-1][1]["message"].startswith(f"vector store unavailable: Milvus at {uri}")
    assert count(services, ThreadRecord) == threads
    assert not has_checkpoint(app, "down-stream")


def test_turns_without_vectors_still_work_and_a_failed_turn_leaves_the_thread_as_it_was(down):
    """Chat and SQL counts need no vectors. A deep turn in the same thread fails with 503 and
    the thread keeps exactly its earlier messages."""
    app, client, _, headers, _ = down
    hello = client.post("/v1/chat", json={"message": "안녕하세요", "thread_id": "down-old"}, headers=headers)
    assert hello.status_code == 200 and hello.json()["track"] == "chat"
    counted = client.post("/v1/chat", json={"message": "주의 처분은 모두 몇 건이야?", "thread_id": "down-old"}, headers=headers)
    assert counted.status_code == 200, counted.text
    assert counted.json()["track"] == "fast" and counted.json()["sql"]["rows"]
    before = client.get("/v1/threads/down-old", headers=headers).json()["messages"]
    checkpoint = app.state.turns.latest_checkpoint("down-old")
    r = client.post("/v1/chat", json={"message": "그 문제를 자세히 분석해 줘", "mode": "deep", "thread_id": "down-old"}, headers=headers)
    assert r.status_code == 503
    assert app.state.turns.latest_checkpoint("down-old") == checkpoint
    assert client.get("/v1/threads/down-old", headers=headers).json()["messages"] == before
    assert len(before) == 4


def test_an_upload_fails_per_file_and_stores_nothing(down):
    app, client, services, headers, uri = down
    reports = count(services, Report)
    text = (SAMPLES / "sample_numbered.txt").read_bytes().replace("가람시".encode(), "나래시".encode())
    r = client.post("/v1/documents", files=[("files", ("down_upload.txt", text, "text/plain"))], headers=headers)
    assert r.status_code == 202, r.text
    app.state.worker.wait_idle()
    job = client.get(f"/v1/documents/{r.json()['job_id']}", headers=headers).json()
    assert job["status"] == "done"
    (entry,) = job["files"]
    assert entry["status"] == "error"
    assert entry["error"].startswith("could not store the document: VectorStoreUnavailable: Milvus at " + uri)
    assert count(services, Report) == reports
    with services.sessions() as s:
        assert s.get(Report, "down_upload") is None
        assert s.get(IngestJob, r.json()["job_id"]).status == "done"


# -- ingestion killed mid-way ---------------------------------------------------------------------

KILL_FILES = ("jj20250925_091048.pdf", "jj20251118_095512.pdf", "jj20251018_133030.pdf")


def aura(data_dir: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=aura_env(data_dir), text=True,
                          capture_output=True, timeout=timeout, check=False)


def aura_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AURA_")}
    env.update(AURA_DATA_DIR=str(data_dir), AURA_EMBEDDING_CACHE_PATH=str(EMBED_CACHE), HF_HUB_OFFLINE="1")
    return env


def ingested_reports(data_dir: Path) -> int:
    db = data_dir / "aura.db"
    if not db.exists():
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return conn.execute("SELECT count(*) FROM reports").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:  # the table is not created yet
        return 0


def store_ids(data_dir: Path) -> dict[str, list[str]]:
    conn = sqlite3.connect(f"file:{data_dir / 'aura.db'}?mode=ro", uri=True)
    try:
        return {t: [r[0] for r in conn.execute(f"SELECT id FROM {t} ORDER BY id")] for t in ("reports", "findings", "chunks")}  # noqa: S608
    finally:
        conn.close()


def status(data_dir: Path) -> dict:
    done = aura(data_dir, "status", "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.heavy
def test_ingestion_killed_mid_way_converges_to_a_clean_run(tmp_path):
    require_shared()
    files = [str(BAI_REPORTS / f) for f in KILL_FILES]
    killed, clean = tmp_path / "killed", tmp_path / "clean"

    proc = subprocess.Popen([sys.executable, "-m", "app.cli", "ingest", *files, "--json"], cwd=ROOT,
                            env=aura_env(killed), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while ingested_reports(killed) < 1:
            assert proc.poll() is None, "the ingest finished before it could be killed"
            assert time.monotonic() < deadline, "no report was ingested within 300 s"
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)  # the first file is in; the second one is under way
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    after_kill = store_ids(killed)
    assert 1 <= len(after_kill["reports"]) < len(files)

    rerun = aura(killed, "ingest", *files, "--json")
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    summary = json.loads(rerun.stdout.strip().splitlines()[-1])
    assert summary["errors"] == [] and summary["skipped"] == len(after_kill["reports"])

    fresh = aura(clean, "ingest", *files, "--json")
    assert fresh.returncode == 0, fresh.stderr[-2000:]

    assert store_ids(killed) == store_ids(clean)
    for data_dir in (killed, clean):
        st = status(data_dir)
        assert st["consistent"] is True and st["mismatched_reports"] == []
        assert st["vectors"] == st["chunks"] == len(store_ids(clean)["chunks"])
        assert st["reports"] == len(files)
    assert status(killed) == status(clean)
