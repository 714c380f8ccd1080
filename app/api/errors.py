"""Every error is JSON ``{"detail": ...}``; the responses each route can give are declared here
so that they appear in the OpenAPI document."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from pymilvus.exceptions import MilvusException

from app.vectorstore.milvus import VectorStoreUnavailable

log = logging.getLogger("aura.api")


class ErrorOut(BaseModel):
    detail: str


def _doc(description: str) -> dict[str, Any]:
    return {"model": ErrorOut, "description": description}


BAD_REQUEST = {400: _doc("The input is unusable (for example an empty message); detail says why.")}
UNAUTHORIZED = {401: _doc("Missing, invalid or revoked API key (send `Authorization: Bearer <key>`).")}
NOT_FOUND = {404: _doc("No such resource for this API key (resources of other keys are not revealed).")}
CONFLICT = {409: _doc("Another turn on this thread is running; send the message again when it is done.")}
TOO_LARGE = {413: _doc("The upload is larger than AURA_MAX_UPLOAD_MB.")}
UNSUPPORTED = {415: _doc("A file type that AURA cannot read; nothing was stored.")}
GONE = {410: _doc("The document's source file was moved, deleted or changed after it was ingested; detail says which file and what to do.")}
UNAVAILABLE = {503: _doc("The vector store (Milvus) is unavailable; the turn was not saved.")}

def as_json(responses: dict[int, dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The same errors, declared as application/json for a route whose own responses are not
    JSON (the SSE route: FastAPI would list its errors under text/event-stream)."""
    ref = {"$ref": "#/components/schemas/ErrorOut"}
    return {code: {"description": r["description"], "content": {"application/json": {"schema": ref}}} for code, r in responses.items()}


VECTOR_ERRORS: tuple[type[BaseException], ...] = (VectorStoreUnavailable, MilvusException, ConnectionError)
"""What the retriever raises when Milvus cannot be reached."""


def vector_detail(exc: BaseException) -> str:
    return f"vector store unavailable: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"


def install_handlers(app: FastAPI) -> None:
    @app.exception_handler(VectorStoreUnavailable)
    @app.exception_handler(MilvusException)
    async def _vectors(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": vector_detail(exc)}, status_code=503)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse({"detail": f"internal error: {type(exc).__name__}"}, status_code=500)
