"""One chat model behind a concurrency limit and a deadline: a decision asked for as
structured output (json_schema, function calling, JSON mode or JSON in the prompt), parsed and
validated against its pydantic schema, and every malformed reply diagnosed in a short
``PolicyError``. Counts the calls each thread makes."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from app.llm.errors import PolicyError
from app.llm.providers import CallGuard, structured_method
from app.llm.structured import field_list, parse_reply, short, strip_think, text_of, validated
from app.policies.llm.prompts import JSON_REPLY

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

_JSON_ERROR = re.compile(r"JSONDecodeError:? ([^\n]{1,80})")


class LlmTransport:
    def __init__(self, model: BaseChatModel, timeout_s: float, *, method: str = "auto", max_concurrency: int = 4) -> None:
        self.model = model
        self.method = structured_method(model, method)
        self.guard = CallGuard(timeout_s, max_concurrency)
        self._runnables: dict[type[BaseModel], Any] = {}
        self._local = threading.local()

    @property
    def calls(self) -> int:
        """LLM calls started from the current thread so far (failed ones included)."""
        return getattr(self._local, "calls", 0)

    def call(self, fn: Callable[[], T]) -> T:
        self._local.calls = self.calls + 1
        return self.guard.run(fn)

    def text(self, system: str, user: str) -> str:
        """A free-text reply (``<think>`` blocks removed)."""
        messages = [SystemMessage(system), HumanMessage(user)]
        return strip_think(text_of(self.call(lambda: self.model.invoke(messages)))).strip()

    def ask(self, schema: type[M], system: str, user: str) -> M:
        """One call for one decision, parsed and validated against ``schema``."""
        if self.method in ("prompt", "json_mode"):
            system += JSON_REPLY.format(fields=field_list(schema))
        messages: list[BaseMessage] = [SystemMessage(system), HumanMessage(user)]
        if self.method == "prompt":
            return parse_reply(schema, text_of(self.call(lambda: self.model.invoke(messages))))
        runnable = self._runnables.get(schema)
        if runnable is None:
            runnable = self.model.with_structured_output(schema, method=self.method, include_raw=True)
            self._runnables[schema] = runnable
        out = self.call(lambda: runnable.invoke(messages))
        parsed = out.get("parsed") if isinstance(out, dict) else out
        if isinstance(parsed, schema):
            return parsed
        if isinstance(parsed, dict):
            return validated(schema, parsed)
        raw = out.get("raw") if isinstance(out, dict) else None
        return _from_raw(schema, raw, out.get("parsing_error") if isinstance(out, dict) else None)


def _from_raw(schema: type[M], raw: Any, error: Any) -> M:
    """The decision from a raw reply the client could not parse, or why there is none."""
    if (getattr(raw, "response_metadata", None) or {}).get("finish_reason") == "length":
        raise PolicyError("the reply was cut off at the output token limit (AURA_LLM_MAX_TOKENS)")
    for call in getattr(raw, "tool_calls", None) or []:
        return validated(schema, call.get("args") or {})
    for call in getattr(raw, "invalid_tool_calls", None) or []:
        # Arguments that are not JSON (llama-cpp-python reports a tool call cut at the
        # token limit with finish_reason "tool_calls", so the cut shows only here).
        m = _JSON_ERROR.search(call.get("error") or "")
        tokens = ((raw.response_metadata or {}).get("token_usage") or {}).get("completion_tokens")
        raise PolicyError(
            "malformed tool-call arguments"
            + (f": {m.group(1)}" if m else "")
            + (f" after {tokens} output tokens" if tokens else "")
        )
    if raw is not None and text_of(raw).strip():
        return parse_reply(schema, text_of(raw))
    raise PolicyError(f"no structured output ({short(str(error)) if error else 'empty reply'})")
