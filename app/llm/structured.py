"""Structured output without trusting the model: JSON found in a reply (code fences and
``<think>`` blocks ignored), validated against a pydantic schema; every failure is a
``PolicyError`` with a short reason. ``field_list`` describes a schema for prompts that ask for
JSON text (models without tool calling or JSON-schema decoding)."""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from app.llm.errors import PolicyError

M = TypeVar("M", bound=BaseModel)

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
_FENCE = re.compile(r"```(?:json|sql)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


def parse_reply(schema: type[M], text: str) -> M:
    """The first JSON object in a reply (code fences and <think> blocks ignored), validated."""
    text = strip_fences(strip_think(text))
    start = text.find("{")
    if start < 0:
        raise PolicyError(f"no JSON object in the reply: {short(text, 80)!r}")
    try:
        obj, _ = json.JSONDecoder().raw_decode(text[start:])
    except json.JSONDecodeError as exc:
        raise PolicyError(f"malformed JSON: {exc.msg} at char {exc.pos}") from None
    return validated(schema, obj)


def validated(schema: type[M], obj: Any) -> M:
    try:
        return schema.model_validate(obj)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or schema.__name__
        raise PolicyError(
            f"schema violation ({exc.error_count()} error(s)), {where}: {first['msg']}"
        ) from None


def field_list(schema: type[BaseModel]) -> str:
    """The fields of ``schema`` as an indented list, for prompts that ask for JSON text."""
    js = schema.model_json_schema()
    defs = js.get("$defs", {})

    def kind(p: dict[str, Any]) -> str:
        if "$ref" in p:
            return "object"
        if "enum" in p:
            return " | ".join(json.dumps(v, ensure_ascii=False) for v in p["enum"])
        if "anyOf" in p:
            return " or ".join(kind(a) for a in p["anyOf"])
        if p.get("type") == "array":
            return f"list of {kind(p.get('items', {}))}"
        return str(p.get("type", "any"))

    def render(obj: dict[str, Any], indent: str) -> list[str]:
        lines = []
        required = set(obj.get("required", []))
        for name, p in obj.get("properties", {}).items():
            note = p.get("description", "")
            lines.append(
                f"{indent}- {name}: {kind(p)}{'' if name in required else ' (optional)'}{': ' + note if note else ''}"
            )
            ref = p.get("$ref") or p.get("items", {}).get("$ref")
            if ref:
                lines += render(defs[ref.rsplit("/", 1)[-1]], indent + "  ")
        return lines

    return "\n".join(render(js, ""))


def text_of(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, list):
        return "".join(c if isinstance(c, str) else str(c.get("text", "")) for c in content)
    return str(content or "")


def strip_think(text: str) -> str:
    return _THINK.sub("", text)


def strip_fences(text: str) -> str:
    m = _FENCE.search(text)
    return m.group(1) if m else text


def short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
