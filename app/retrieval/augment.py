"""Query augmentation hooks for graph nodes: multi-query rewrites and HyDE.

Both need an LLM; without one (the offline default) multi-query falls back to rule-based
rewrites from the audit glossary (``sop/glossary.tsv``: 시정 -> 회수, 환수, ...) and HyDE is off.
Use with ``HybridRetriever.search_many(rewrites(q))`` and
``HybridRetriever.search(q, hyde_passage=hyde(q))``.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

Generate = Callable[[str], str]
"""A text-in, text-out LLM call (prompt -> completion)."""

MULTI_QUERY_PROMPT = (
    "다음 감사 관련 질문을 검색에 쓰도록 서로 다른 표현으로 {n}가지 다시 쓰세요. "
    "기관명과 핵심 용어는 유지하고, 한 줄에 하나씩, 번호 없이 쓰세요.\n질문: {query}"
)
HYDE_PROMPT = (
    "다음 질문에 답하는 감사원 감사보고서의 한 단락을 사실처럼 써 보세요 "
    "(기관, 관계 법령, 확인된 문제점, 조치할 사항의 문체로 3~5문장).\n질문: {query}"
)


@lru_cache(maxsize=4)
def load_glossary(path: str) -> dict[str, list[str]]:
    """term -> synonyms from a glossary TSV (``term<TAB>syn1,syn2<TAB>note``)."""
    p = Path(path)
    if not p.is_file():
        return {}
    out: dict[str, list[str]] = {}
    with p.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            term = (row.get("term") or "").strip()
            if term:
                out[term] = [s.strip() for s in (row.get("synonyms") or "").split(",") if s.strip()]
    return out


def glossary_rewrites(query: str, glossary: dict[str, list[str]], limit: int = 2) -> list[str]:
    """Rewrites that add glossary synonyms of the terms found in the query."""
    out = []
    for term, syns in glossary.items():
        if term in query and syns:
            out.append(f"{query} {' '.join(syns[:3])}")
        if len(out) >= limit:
            break
    return out


def llm_rewrites(query: str, generate: Generate, n: int = 3) -> list[str]:
    text = generate(MULTI_QUERY_PROMPT.format(n=n, query=query))
    lines = [re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", ln).strip() for ln in text.splitlines()]
    return [ln for ln in lines if ln][:n]


def rewrites(query: str, generate: Generate | None = None, glossary_path: str | Path = "sop/glossary.tsv", n: int = 3) -> list[str]:
    """The query first, then up to ``n`` rewrites (LLM when given, else glossary-based)."""
    extra = llm_rewrites(query, generate, n) if generate else glossary_rewrites(query, load_glossary(str(glossary_path)), n)
    return list(dict.fromkeys([query, *extra]))


def hyde(query: str, generate: Generate | None) -> str | None:
    """A hypothetical answer passage for the dense side, or None without an LLM."""
    if generate is None:
        return None
    text = generate(HYDE_PROMPT.format(query=query)).strip()
    return text or None
