"""Chat models from Settings, and the guard every call goes through.

``make_chat_model`` validates the configuration on construction (a clear ``ValueError`` naming
the missing ``AURA_LLM_*`` variable) and returns ``None`` when the LLM is off. Retries with
exponential backoff on connection errors, 429 and 5xx are the client's own (``max_retries``:
the OpenAI SDK for ``openai``, tenacity for ``clovax``). ``CallGuard`` adds what the clients do
not: a concurrency limit shared by all sessions, a hard deadline per call (a slow stream or a
retry storm cannot hold a turn past ``timeout_s``) and readable errors (HTTP 401/403 becomes
``LlmAuthError`` naming the API key, not a stack trace).

Providers:

- ``openai``: ``ChatOpenAI`` against the OpenAI API or any OpenAI-compatible server (vLLM,
  Ollama, llama.cpp ``--jinja``, CLOVA Studio's OpenAI-compatible endpoint
  ``https://clovastudio.stream.ntruss.com/v1/openai`` for HyperCLOVA X HCX-005/HCX-007).
- ``clovax``: langchain-community's ``ChatClovaX`` (CLOVA Studio's v1 chat-completions API,
  HCX-003 and tuned tasks). It has no tool calling, so decisions come back as JSON text.
"""

from __future__ import annotations

import contextvars
import json
import math
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import httpx
from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from pydantic import ValidationError

from app.llm.errors import (
    LlmAuthError,
    LlmConnectionError,
    LlmError,
    LlmHttpError,
    LlmTimeout,
    PolicyError,
)

if TYPE_CHECKING:
    from app.settings import Settings

T = TypeVar("T")

CLOVAX_MAX_TOKENS = 4096
LOCAL_SERVER_KEY = "EMPTY"
"""Sent to OpenAI-compatible servers that need no key, so an ``OPENAI_API_KEY`` from the
environment is never forwarded to a server it was not meant for."""


def make_chat_model(settings: Settings) -> BaseChatModel | None:
    """The configured chat model, or ``None`` for ``llm_provider == "none"``."""
    provider = settings.llm_provider
    if provider == "none":
        return None
    key = settings.llm_api_key.get_secret_value().strip() if settings.llm_api_key else ""
    base_url = (settings.llm_base_url or "").strip().rstrip("/")
    if not (settings.llm_model or "").strip():
        raise ValueError(
            f"AURA_LLM_MODEL is required for AURA_LLM_PROVIDER={provider} "
            "(e.g. gpt-4o-mini, Qwen/Qwen2.5-7B-Instruct, HCX-005)."
        )
    if base_url and not base_url.startswith(("http://", "https://")):
        raise ValueError(
            f"AURA_LLM_BASE_URL must start with http:// or https://, got {base_url!r}."
        )
    if settings.llm_timeout_s <= 0:
        raise ValueError("AURA_LLM_TIMEOUT_S must be positive.")
    if provider == "openai":
        return _openai(settings, base_url, key)
    if provider == "clovax":
        return _clovax(settings, base_url, key)
    raise ValueError(f"unknown AURA_LLM_PROVIDER {provider!r}: use none, openai or clovax.")


def _openai(settings: Settings, base_url: str, key: str) -> BaseChatModel:
    # Imported on use: only the configured provider's client loads (langchain-openai: 1.5 s).
    from langchain_openai import ChatOpenAI

    if not base_url and not key:
        raise ValueError(
            "AURA_LLM_API_KEY is required for the OpenAI API. For a local OpenAI-compatible "
            "server (vLLM, Ollama, llama.cpp) set AURA_LLM_BASE_URL instead."
        )
    kwargs: dict[str, Any] = {
        "model": settings.llm_model,
        "base_url": base_url or None,
        "api_key": key or LOCAL_SERVER_KEY,
        "timeout": settings.llm_timeout_s,
        "max_retries": settings.llm_max_retries,
    }
    if _is_openai_api(base_url):
        kwargs["max_tokens"] = settings.llm_max_tokens  # sent as max_completion_tokens
    else:
        # ChatOpenAI sends its max_tokens as `max_completion_tokens`, which OpenAI-compatible
        # servers such as llama-cpp-python's ignore: the budget was lost and a rambling model
        # generated until its context was full (minutes per call on a CPU). Every compatible
        # server understands the classic `max_tokens`.
        kwargs["extra_body"] = {"max_tokens": settings.llm_max_tokens}
    if settings.llm_temperature is not None:
        kwargs["temperature"] = settings.llm_temperature
    return ChatOpenAI(**kwargs)


def _is_openai_api(base_url: str) -> bool:
    """No base URL (the OpenAI API itself) or one on api.openai.com."""
    return not base_url or httpx.URL(base_url).host == "api.openai.com"


def _clovax(settings: Settings, base_url: str, key: str) -> BaseChatModel:
    from langchain_community.chat_models import ChatClovaX  # on use, like ChatOpenAI above

    if not key:
        raise ValueError(
            "AURA_LLM_API_KEY is required for AURA_LLM_PROVIDER=clovax (a CLOVA Studio API key)."
        )
    kwargs: dict[str, Any] = {
        "model": settings.llm_model,
        "api_key": key,
        "timeout": max(1, math.ceil(settings.llm_timeout_s)),  # ChatClovaX takes whole seconds
        "max_retries": max(1, settings.llm_max_retries),  # ... and at least one attempt
        "max_tokens": min(settings.llm_max_tokens, CLOVAX_MAX_TOKENS),
        # ChatClovaX requires 0 < temperature <= 1.
        "temperature": min(max(settings.llm_temperature or 0.0, 0.01), 1.0),
    }
    if base_url:
        kwargs["base_url"] = base_url
    try:
        return ChatClovaX(**kwargs)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "configuration"
        raise ValueError(f"invalid ClovaX configuration ({where}): {first['msg']}") from None


def structured_method(model: BaseChatModel, configured: str = "auto") -> str:
    """How to ask ``model`` for a decision: ``json_schema`` (ChatOpenAI), ``function_calling``
    (other models with tool calling), or ``prompt`` (JSON text in the reply, parsed here)."""
    if configured != "auto":
        return configured
    if type(model).__module__.startswith("langchain_openai"):
        return "json_schema"
    if type(model).bind_tools is not BaseChatModel.bind_tools:
        return "function_calling"
    return "prompt"


class CallGuard:
    """Concurrency limit + hard deadline + readable errors for blocking LLM calls.

    The call runs in a daemon worker thread (with the caller's context variables, so LangChain
    callbacks and LangGraph streaming still see it); the caller waits at most ``timeout_s``.
    A call that misses the deadline is abandoned: the client's own timeout ends it, and it
    gives its slot back then. A worker still waiting for a slot when the deadline passes never
    makes its call.
    """

    def __init__(self, timeout_s: float, max_concurrency: int = 4) -> None:
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        self.timeout_s = timeout_s
        self._slots = threading.BoundedSemaphore(max_concurrency)

    def run(self, fn: Callable[[], T]) -> T:
        box: dict[str, Any] = {}
        done = threading.Event()
        abandoned = threading.Event()
        ctx = contextvars.copy_context()

        def work() -> None:
            try:
                if not self._slots.acquire(timeout=self.timeout_s):
                    return
                try:
                    if not abandoned.is_set():
                        box["value"] = ctx.run(fn)
                finally:
                    self._slots.release()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                box["error"] = exc
            finally:
                done.set()

        threading.Thread(target=work, name="aura-llm-call", daemon=True).start()
        if not done.wait(self.timeout_s) or not ("value" in box or "error" in box):
            abandoned.set()
            raise LlmTimeout(f"no answer within {self.timeout_s:g} s")
        if "error" in box:
            exc = box["error"]
            raise to_llm_error(exc) from exc
        return box["value"]


def to_llm_error(exc: BaseException) -> LlmError:
    """Map a client exception (openai, httpx, socket) to a short, readable ``LlmError``."""
    if isinstance(exc, LlmError):
        return exc
    try:
        import openai  # for its exception types; loaded only once a provider is in use
    except ImportError:  # pragma: no cover - langchain-openai depends on it
        openai = None  # type: ignore[assignment]
    if openai is not None:
        if isinstance(exc, openai.APITimeoutError):
            return LlmTimeout("the LLM endpoint did not answer in time")
        if isinstance(exc, openai.APIConnectionError):
            return LlmConnectionError(f"cannot reach the LLM endpoint ({_cause(exc)})")
        if isinstance(exc, openai.APIStatusError):
            return _from_status(exc.status_code, _short(getattr(exc, "message", "") or str(exc)))
    if isinstance(exc, ValidationError):
        # Clients that parse structured output themselves (ChatOpenAI json_schema) raise this.
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or exc.title
        return PolicyError(
            f"schema violation ({exc.error_count()} error(s)), {where}: {_short(first['msg'], 80)}"
        )
    if isinstance(exc, OutputParserException | json.JSONDecodeError):
        return PolicyError(f"malformed output: {_short(str(exc), 120)}")
    if openai is not None and isinstance(exc, openai.LengthFinishReasonError):
        return PolicyError("the reply was cut off at the output token limit (AURA_LLM_MAX_TOKENS)")
    if openai is not None and isinstance(exc, openai.ContentFilterFinishReasonError):
        return PolicyError("the endpoint's content filter blocked the reply")
    if isinstance(exc, httpx.HTTPStatusError):
        return _from_status(exc.response.status_code, _short(exc.response.text))
    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        return LlmTimeout("the LLM endpoint did not answer in time")
    if isinstance(exc, httpx.TransportError | ConnectionError):
        return LlmConnectionError(
            f"cannot reach the LLM endpoint ({_short(str(exc)) or type(exc).__name__})"
        )
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return _from_status(status, _short(str(exc)))
    return LlmError(f"{type(exc).__name__}: {_short(str(exc))}")


def _from_status(status: int, detail: str) -> LlmError:
    if status in (401, 403):
        return LlmAuthError(
            f"HTTP {status}: the LLM endpoint rejected the API key; check AURA_LLM_API_KEY"
            + (f" ({detail})" if detail else "")
        )
    return LlmHttpError(
        f"HTTP {status} from the LLM endpoint" + (f": {detail}" if detail else ""), status
    )


def _cause(exc: BaseException) -> str:
    inner = exc.__cause__ or exc.__context__
    return _short(str(inner)) if inner and str(inner) else type(exc).__name__


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
