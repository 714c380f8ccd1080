"""Chat-model providers and the guards every LLM call goes through."""

from app.llm.errors import (
    LlmAuthError,
    LlmConnectionError,
    LlmError,
    LlmHttpError,
    LlmTimeout,
    PolicyError,
)
from app.llm.providers import CallGuard, make_chat_model, structured_method, to_llm_error

__all__ = [
    "CallGuard",
    "LlmAuthError",
    "LlmConnectionError",
    "LlmError",
    "LlmHttpError",
    "LlmTimeout",
    "PolicyError",
    "make_chat_model",
    "structured_method",
    "to_llm_error",
]
