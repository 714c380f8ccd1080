"""Upload jobs: files saved under ``<data_dir>/uploads/<job>/``, ingested by one background
thread, one job at a time. The job row is updated after each file, so a poller sees progress.
Jobs still queued or running when the process stopped are run again at start-up (ingestion is
idempotent: a file already stored is 'unchanged')."""

from __future__ import annotations

import logging
import queue
import threading
import uuid
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.api.metrics import Metrics
from app.db.models import IngestJob
from app.ingest.pipeline import FileResult, Ingestor, IngestSummary, report_id_for

log = logging.getLogger("aura.api.jobs")


def upload_dir(data_dir: Path, job_id: str) -> Path:
    return data_dir / "uploads" / job_id


def new_job_id() -> str:
    return uuid.uuid4().hex


class IngestWorker:
    """``ingestor`` is called for each file (not at start-up): the app starts, and a job's files
    fail one by one with the reason, while Milvus cannot be reached."""

    def __init__(self, sessions: sessionmaker[Session], ingestor: Callable[[], Ingestor], data_dir: Path, metrics: Metrics) -> None:
        self.sessions, self.ingestor, self.data_dir, self.metrics = sessions, ingestor, data_dir, metrics
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self, resume: bool = True) -> None:
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            self._thread = threading.Thread(target=self._run, name="aura-ingest", daemon=True)
            self._thread.start()
        if resume:
            with self.sessions() as s:
                pending = s.scalars(
                    select(IngestJob.id).where(IngestJob.status.in_(("queued", "running"))).order_by(IngestJob.created_at)
                ).all()
            for job_id in pending:
                self._queue.put(job_id)

    def submit(self, job_id: str) -> None:
        self.start(resume=False)
        self._queue.put(job_id)

    def stop(self, timeout: float = 30.0) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout)

    def wait_idle(self) -> None:
        """Block until every submitted job has been processed (tests)."""
        self._queue.join()

    def _run(self) -> None:
        while True:
            job_id = self._queue.get()
            try:
                if job_id is None:
                    return
                self.run_job(job_id)
            except Exception:
                log.exception("ingest job %s failed", job_id)
                self._set(job_id, status="failed", error="the ingest worker failed; see the server log")
            finally:
                self._queue.task_done()

    def run_job(self, job_id: str) -> None:
        with self.sessions() as s:
            job = s.get(IngestJob, job_id)
            if job is None or job.status in ("done", "failed"):
                return
            files = [dict(f) for f in job.files]
        self._set(job_id, status="running")
        folder = upload_dir(self.data_dir, job_id)
        summary = IngestSummary()
        for i, entry in enumerate(files):
            result = self._ingest(folder / entry["file"])
            summary.add(result)
            self.metrics.ingest_files.labels(status=result.status).inc()
            files[i] = asdict(result)
            self._set(job_id, files=[*files])
        self._set(job_id, status="done", summary=summary.as_dict())

    def _ingest(self, path: Path) -> FileResult:
        try:
            ingestor = self.ingestor()
        except Exception as exc:  # e.g. Milvus unreachable
            first = (str(exc).strip().splitlines() or [""])[0]
            return FileResult(path.name, "error", report_id_for(path), error=f"could not store the document: {type(exc).__name__}: {first[:200]}")
        return ingestor.ingest_file(path)

    def _set(self, job_id: str, **values) -> None:  # noqa: ANN003
        with self.sessions() as s:
            job = s.get(IngestJob, job_id)
            if job is None:
                return
            for k, v in values.items():
                setattr(job, k, v)
            job.updated_at = datetime.now(UTC)
            s.commit()
