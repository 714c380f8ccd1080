"""Errors an LLM call can end in. Every message is short and safe to show in a step log."""

from __future__ import annotations


class LlmError(RuntimeError):
    """Base class; ``kind`` names the cause in one word (timeout, auth, http, connection ...)."""

    kind = "error"

    def __str__(self) -> str:
        return f"{self.kind}: {super().__str__()}"


class LlmTimeout(LlmError):
    kind = "timeout"


class LlmAuthError(LlmError):
    """HTTP 401/403: a wrong, expired or missing API key. Retrying will not help."""

    kind = "auth"


class LlmHttpError(LlmError):
    """Another HTTP error status (429, 5xx, 404 for an unknown model ...)."""

    kind = "http"

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class LlmConnectionError(LlmError):
    kind = "connection"


class PolicyError(LlmError):
    """The model answered, but not with a valid decision (junk, malformed JSON, schema violation,
    a citation or index that points at nothing)."""

    kind = "invalid output"
