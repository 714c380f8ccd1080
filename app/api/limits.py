"""Refuse an oversize upload from its Content-Length, before the body is read, with the JSON
error every route gives. (Bodies without a length are cut off by the route's ``max_body_size``
while they are read; FastAPI answers that with a JSON 413 too.)"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send


class UploadSizeGuard:
    def __init__(self, app: ASGIApp, path: str, max_bytes: int, detail: str) -> None:
        self.app, self.path, self.max_bytes, self.detail = app, path, max_bytes, detail

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"].rstrip("/") == self.path:
            length = Headers(scope=scope).get("content-length", "")
            if length.isdigit() and int(length) > self.max_bytes:
                await JSONResponse({"detail": self.detail}, status_code=413)(scope, receive, send)
                return
        await self.app(scope, receive, send)
