"""Prometheus metrics, one registry per app (tests build several apps in one process)."""

from __future__ import annotations

import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "aura_http_requests", "HTTP requests by route template, method and status.",
            ["method", "route", "status"], registry=self.registry,
        )
        self.latency = Histogram(
            "aura_http_request_duration_seconds", "HTTP request latency (until the response ends) by route.",
            ["method", "route"], registry=self.registry,
            buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
        )
        self.turns = Counter("aura_turns", "Completed conversation turns by track.", ["track"], registry=self.registry)
        self.turn_errors = Counter("aura_turn_errors", "Failed conversation turns by cause.", ["cause"], registry=self.registry)
        self.fallbacks = Counter(
            "aura_llm_fallbacks", "Graph steps where the LLM failed and the offline policy decided, by node.",
            ["node"], registry=self.registry,
        )
        self.ingest_files = Counter("aura_ingest_files", "Uploaded files ingested, by result status.", ["status"], registry=self.registry)

    def record_turn(self, result: dict[str, Any]) -> None:
        self.turns.labels(track=result.get("track") or "unknown").inc()
        for node in result.get("fallbacks") or []:
            self.fallbacks.labels(node=node).inc()


class MetricsMiddleware:
    """Counts and times every HTTP request by its route template (``/v1/threads/{thread_id}``)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500
        t0 = time.perf_counter()

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            route = getattr(scope.get("route"), "path", None) or "unmatched"
            method = scope.get("method", "")
            self.metrics.requests.labels(method=method, route=route, status=str(status)).inc()
            self.metrics.latency.labels(method=method, route=route).observe(time.perf_counter() - t0)
