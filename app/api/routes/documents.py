"""Uploads: files are checked, saved and queued; the ingest worker processes them."""

from __future__ import annotations

import shutil
from pathlib import Path as FsPath
from typing import Annotated, Any

from fastapi import APIRouter, File, HTTPException, Path, UploadFile, status

from app.api.deps import CurrentKey, ServicesDep, SessionDep, SettingsDep, WorkerDep, not_found
from app.api.errors import BAD_REQUEST, NOT_FOUND, TOO_LARGE, UNAUTHORIZED, UNSUPPORTED
from app.api.jobs import new_job_id, upload_dir
from app.api.schemas import JobAccepted, JobOut
from app.db.models import IngestJob
from app.ingest.loaders import supported_suffixes

router = APIRouter(prefix="/v1/documents", tags=["documents"])

MULTIPART_OVERHEAD = 64 * 1024
"""Body allowance on top of AURA_MAX_UPLOAD_MB for multipart headers and boundaries."""


def _safe_name(name: str | None, seen: set[str]) -> str:
    base = FsPath((name or "").replace("\\", "/")).name.strip() or "upload"
    stem, suffix = FsPath(base).stem, FsPath(base).suffix
    candidate, n = base, 1
    while candidate.lower() in seen:
        n += 1
        candidate = f"{stem}_{n}{suffix}"
    seen.add(candidate.lower())
    return candidate


def _check(files: list[UploadFile], limit_bytes: int, limit_mb: float) -> None:
    if not files:
        raise HTTPException(status.HTTP_400_BAD_REQUEST, "no files in the upload")
    allowed = set(supported_suffixes())
    for f in files:
        suffix = FsPath(f.filename or "").suffix.lower()
        if suffix not in allowed:
            raise HTTPException(
                status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
                f"unsupported file type '{suffix or f.filename}' in '{f.filename}' (supported: {', '.join(sorted(allowed))})",
            )
        if not f.size:
            raise HTTPException(status.HTTP_400_BAD_REQUEST, f"'{f.filename}' is empty")
    if sum(f.size or 0 for f in files) > limit_bytes:
        raise HTTPException(status.HTTP_413_CONTENT_TOO_LARGE, f"upload is larger than {limit_mb:g} MB (AURA_MAX_UPLOAD_MB)")


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=JobAccepted,
    responses={**BAD_REQUEST, **UNAUTHORIZED, **TOO_LARGE, **UNSUPPORTED},
)
def upload(
    files: Annotated[list[UploadFile], File(min_length=1, description="One or more PDF, HWP, HWPX, DOCX, TXT or MD files.")],
    key: CurrentKey,
    services: ServicesDep,
    session: SessionDep,
    worker: WorkerDep,
    api: SettingsDep,
) -> dict[str, Any]:
    """Queue files for ingestion. Every file is checked first (type, size, not empty): a bad one
    refuses the whole upload and nothing is stored. Poll `GET /v1/documents/{job_id}`."""
    _check(files, api.max_upload_bytes, api.max_upload_mb)
    job_id = new_job_id()
    folder = upload_dir(services.settings.data_dir, job_id)
    folder.mkdir(parents=True)
    seen: set[str] = set()
    entries = []
    try:
        for f in files:
            name = _safe_name(f.filename, seen)
            with (folder / name).open("wb") as out:
                shutil.copyfileobj(f.file, out)
            entries.append({"file": name, "status": "queued", "findings": 0, "chunks": 0, "error": None})
        session.add(IngestJob(id=job_id, owner_key_id=key.id, status="queued", files=entries))
        session.commit()
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    worker.submit(job_id)
    return {"job_id": job_id, "status": "queued"}


@router.get("/{job_id}", response_model=JobOut, responses={**UNAUTHORIZED, **NOT_FOUND})
def get_job(job_id: Annotated[str, Path(max_length=64)], key: CurrentKey, session: SessionDep) -> dict[str, Any]:
    """The job's status and each file's result (an unreadable file shows its error; the others
    are still ingested)."""
    job = session.get(IngestJob, job_id)
    if job is None or job.owner_key_id != key.id:
        raise not_found("job", job_id)
    return {
        "job_id": job.id, "status": job.status, "files": job.files, "summary": job.summary,
        "error": job.error, "created_at": job.created_at, "updated_at": job.updated_at,
    }
