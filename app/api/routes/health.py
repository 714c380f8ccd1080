"""Liveness, readiness and metrics (open: no key needed)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import func, select, text

from app.api.deps import MetricsDep, ServicesDep
from app.api.schemas import ReadyOut
from app.db.models import SopClause

router = APIRouter(tags=["health"])


def _brief(exc: BaseException) -> str:
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first[:200]}"


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get("/readyz", response_model=ReadyOut, responses={503: {"model": ReadyOut, "description": "A part is not ready; checks says which."}})
def readyz(services: ServicesDep) -> Any:
    """SQL reachable, Milvus reachable, embedder loaded, SOP clauses loaded."""
    checks: dict[str, str] = {}
    try:
        with services.sessions() as s:
            s.execute(text("SELECT 1"))
            sop = s.scalar(select(func.count()).select_from(SopClause)) or 0
        checks["sql"] = "ok"
        checks["sop"] = "ok" if sop else "no SOP clauses loaded (aura sop ingest sop)"
    except Exception as exc:
        checks["sql"] = checks["sop"] = _brief(exc)
    try:
        services.vectors.count()
        checks["vectors"] = "ok"
    except Exception as exc:
        checks["vectors"] = _brief(exc)
    try:
        checks["embedder"] = "ok" if services.embedder.dim > 0 else "embedder has no dimension"
    except Exception as exc:
        checks["embedder"] = _brief(exc)
    ready = all(v == "ok" for v in checks.values())
    return JSONResponse({"ready": ready, "checks": checks}, status_code=200 if ready else 503)


@router.get("/metrics", response_class=Response, responses={200: {"content": {CONTENT_TYPE_LATEST: {}}, "description": "Prometheus text format."}})
def metrics(m: MetricsDep) -> Response:
    """Request counts and latency by route and status, turns by track, LLM fallbacks, ingested files by status."""
    return Response(generate_latest(m.registry), media_type=CONTENT_TYPE_LATEST)
