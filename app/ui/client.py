"""The HTTP client the UI uses: one method per API route, JSON in and out, errors raised as
``ApiError`` with the status and the API's ``detail`` (never a traceback)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx

DEFAULT_TIMEOUT = httpx.Timeout(10.0, read=300.0)
"""Connecting fails fast; a deep or report turn may take minutes on two cores."""


class ApiError(Exception):
    """A failed call. ``status`` is None when the API could not be reached."""

    def __init__(self, status: int | None, detail: str) -> None:
        super().__init__(f"{status or 'no connection'}: {detail}")
        self.status, self.detail = status, detail


@dataclass(frozen=True)
class Event:
    """One Server-Sent Event of ``POST /v1/chat/stream``."""

    name: str
    data: dict[str, Any]


def _detail(response: httpx.Response) -> str:
    try:
        detail = response.json().get("detail")
    except (ValueError, AttributeError):
        return response.text[:300] or response.reason_phrase
    if isinstance(detail, list):  # FastAPI's 422: [{loc, msg, ...}]
        return "; ".join(
            f"{'.'.join(str(p) for p in d.get('loc', [])[1:]) or 'input'}: {d.get('msg', '')}" for d in detail
        )
    return str(detail or response.reason_phrase)


def _check(response: httpx.Response) -> httpx.Response:
    if response.is_error:
        response.read()
        raise ApiError(response.status_code, _detail(response))
    return response


def parse_sse(lines: Iterator[str]) -> Iterator[Event]:
    """Events from the lines of an SSE stream (``event:`` and ``data:`` fields, a blank line ends
    an event; ``data`` is JSON)."""
    name, data = "message", []
    for line in lines:
        if not line:
            if data:
                yield Event(name, json.loads("\n".join(data)))
            name, data = "message", []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
    if data:
        yield Event(name, json.loads("\n".join(data)))


class ApiClient:
    """AURA's API over HTTP. Pass ``http`` to use another client (tests pass a TestClient)."""

    def __init__(self, base_url: str, api_key: str | None, http: httpx.Client | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.http = http or httpx.Client(base_url=self.base_url, timeout=DEFAULT_TIMEOUT)
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

    def close(self) -> None:
        self.http.close()

    def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            return _check(self.http.request(method, path, headers=self.headers, **kwargs))
        except httpx.TransportError as exc:
            raise ApiError(None, f"{type(exc).__name__} ({self.base_url})") from exc

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        return self._request(method, path, **kwargs).json()

    # -- health ------------------------------------------------------------------------------
    def ready(self) -> dict[str, Any]:
        """``/readyz`` as JSON, also when it answers 503 (``checks`` says what is wrong)."""
        try:
            response = self.http.get("/readyz")
        except httpx.TransportError as exc:
            raise ApiError(None, f"{type(exc).__name__} ({self.base_url})") from exc
        if response.status_code not in (200, 503):
            _check(response)
        return response.json()

    # -- chat --------------------------------------------------------------------------------
    @staticmethod
    def _turn_body(message: str, thread_id: str | None, mode: str) -> dict[str, Any]:
        return {"message": message, "mode": mode, **({"thread_id": thread_id} if thread_id else {})}

    def chat(self, message: str, thread_id: str | None = None, mode: str = "auto") -> dict[str, Any]:
        return self._json("POST", "/v1/chat", json=self._turn_body(message, thread_id, mode))

    def chat_stream(self, message: str, thread_id: str | None = None, mode: str = "auto") -> Iterator[Event]:
        """The turn's events as they arrive; the last is ``done`` or ``error``. A refusal before
        the stream starts (400, 401, 404, 422) raises ApiError."""
        body = self._turn_body(message, thread_id, mode)
        try:
            with self.http.stream("POST", "/v1/chat/stream", json=body, headers=self.headers) as response:
                _check(response)
                yield from parse_sse(response.iter_lines())
        except httpx.TransportError as exc:
            raise ApiError(None, f"{type(exc).__name__} ({self.base_url})") from exc

    # -- threads -----------------------------------------------------------------------------
    def threads(self) -> list[dict[str, Any]]:
        return self._json("GET", "/v1/threads")

    def thread(self, thread_id: str) -> dict[str, Any]:
        return self._json("GET", f"/v1/threads/{thread_id}")

    def delete_thread(self, thread_id: str) -> None:
        self._request("DELETE", f"/v1/threads/{thread_id}")

    # -- documents ---------------------------------------------------------------------------
    def upload(self, files: list[tuple[str, bytes]]) -> dict[str, Any]:
        """Queue (name, content) pairs for ingestion; poll ``job``."""
        return self._json("POST", "/v1/documents", files=[("files", (name, data)) for name, data in files])

    def job(self, job_id: str) -> dict[str, Any]:
        return self._json("GET", f"/v1/documents/{job_id}")

    # -- corpus ------------------------------------------------------------------------------
    def findings(self, limit: int = 50, offset: int = 0, **filters: Any) -> dict[str, Any]:
        params = {k: v for k, v in filters.items() if v not in (None, "")}
        return self._json("GET", "/v1/findings", params={**params, "limit": limit, "offset": offset})

    def all_findings(self, cap: int = 2000, **filters: Any) -> list[dict[str, Any]]:
        """Every finding matching the filters, page by page (at most ``cap``)."""
        items: list[dict[str, Any]] = []
        while len(items) < cap:
            page = self.findings(limit=200, offset=len(items), **filters)
            items += page["items"]
            if not page["items"] or len(items) >= page["total"]:
                break
        return items[:cap]

    def chunk(self, chunk_id: str) -> dict[str, Any]:
        return self._json("GET", f"/v1/chunks/{chunk_id}")

    # -- reports -----------------------------------------------------------------------------
    def report(self, report_id: str) -> dict[str, Any]:
        return self._json("GET", f"/v1/reports/{report_id}")

    def save_report(self, report_id: str, title: str, sections: list[dict[str, Any]]) -> dict[str, Any]:
        return self._json("PUT", f"/v1/reports/{report_id}", json={"title": title, "sections": sections})

    def export_report(self, report_id: str, fmt: str) -> bytes:
        return self._request("GET", f"/v1/reports/{report_id}/export", params={"format": fmt}).content

    # -- the auditor's workbench -------------------------------------------------------------
    def chunk_page(self, chunk_id: str, span: list[int] | None = None) -> dict[str, Any]:
        """The cited page: {kind: 'png', png, page, boxes, located} for a PDF source, or
        {kind: 'text', ...the API's text view} for a source without fixed pages."""
        params = {"start": span[0], "end": span[1]} if span and len(span) == 2 else None
        r = self._request("GET", f"/v1/chunks/{chunk_id}/page", params=params)
        if r.headers.get("content-type", "").startswith("image/png"):
            return {"kind": "png", "png": r.content, "page": int(r.headers.get("x-aura-page", "0")),
                    "boxes": json.loads(r.headers.get("x-aura-highlight") or "[]"),
                    "located": r.headers.get("x-aura-located", "none")}
        return {"kind": "text", **r.json()}

    def turns(self, thread_id: str) -> list[dict[str, Any]]:
        return self._json("GET", f"/v1/threads/{thread_id}/turns")

    def thread_reports(self, thread_id: str) -> list[dict[str, Any]]:
        return self._json("GET", f"/v1/threads/{thread_id}/reports")

    def export_thread(self, thread_id: str, fmt: str) -> bytes:
        return self._request("GET", f"/v1/threads/{thread_id}/export", params={"format": fmt}).content

    def send_feedback(self, thread_id: str, turn_id: str, rating: str, comment: str = "") -> dict[str, Any]:
        body = {"thread_id": thread_id, "turn_id": turn_id, "rating": rating, "comment": comment}
        return self._json("POST", "/v1/feedback", json=body)

    def my_feedback(self) -> list[dict[str, Any]]:
        return self._json("GET", "/v1/feedback")
