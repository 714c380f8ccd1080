"""The FastAPI application: ``create_app(services, agent)`` builds it on the given stores (tests
pass a Container on a temporary data dir); ``aura serve`` runs it with uvicorn, one worker (the
process owns the embedded Milvus Lite directory)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.agent.runner import Agent
from app.api.errors import install_handlers
from app.api.jobs import IngestWorker
from app.api.limits import UploadSizeGuard
from app.api.metrics import Metrics, MetricsMiddleware
from app.api.routes import (
    chat,
    chunks,
    documents,
    feedback,
    findings,
    health,
    pages,
    reports,
    thread_records,
    threads,
)
from app.api.turns import Turns
from app.container import Container
from app.settings import Settings

log = logging.getLogger("aura.api")

DESCRIPTION = """AURA answers audit questions from ingested 감사원 reports, with evidence.

Every `/v1` route needs `Authorization: Bearer <key>` (keys: `aura keys create NAME`).
Threads, upload jobs and report drafts belong to the key that created them; other keys get
404. Errors are JSON `{"detail": ...}`."""


def create_app(services: Container | None = None, agent: Agent | None = None, settings: Settings | None = None) -> FastAPI:
    """``settings`` (default: the container's) sets the API's limits."""
    owns_services = services is None
    services = services or Container()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            log.info("warm-up: %s", await asyncio.to_thread(services.warm_up))
        except Exception as exc:  # e.g. Milvus down: serve anyway, /readyz says what is wrong
            log.warning("warm-up failed: %s", exc)
        app.state.worker.start(resume=True)
        yield
        app.state.worker.stop()
        if (pages_renderer := getattr(app.state, "page_renderer", None)) is not None:
            pages_renderer.close()
        if owns_services:
            services.close()

    app = FastAPI(title="AURA API", version="0.1.0", description=DESCRIPTION, lifespan=lifespan)
    agent = agent or Agent(services)
    metrics = Metrics()
    app.state.services = services
    app.state.agent = agent
    app.state.settings = settings = settings or services.settings
    app.state.metrics = metrics
    app.state.turns = Turns(services.sessions, agent, metrics, settings.thread_title_chars)
    app.state.worker = IngestWorker(services.sessions, lambda: services.ingestor, services.settings.data_dir, metrics)

    install_handlers(app)
    body_limit = settings.max_upload_bytes + documents.MULTIPART_OVERHEAD
    app.add_middleware(
        UploadSizeGuard, path="/v1/documents", max_bytes=body_limit,
        detail=f"upload is larger than {settings.max_upload_mb:g} MB (AURA_MAX_UPLOAD_MB)",
    )
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    app.include_router(health.router)
    app.include_router(chat.router)
    app.include_router(threads.router)
    app.include_router(documents.router, max_body_size=body_limit)
    app.include_router(findings.router)
    app.include_router(reports.router)
    app.include_router(chunks.router)
    for extra in (pages, thread_records, feedback):  # the auditor's workbench
        app.include_router(extra.router)
    return app


def serve_app() -> FastAPI:
    """The app on the configured stores (for ``aura serve``)."""
    return create_app()
