"""Quotes an auditor can read and a verifier can check: a sentence of a stored chunk, repaired for
display (line-break word splits joined with Kiwi's spacing, footnote markers and list marks cut
from its start, masked-name debris closed up), cut at a clause boundary when long. Every repair
only removes whitespace or trims the ends, so the quote still occurs in the chunk (whitespace
aside) and ``span`` gives its exact place there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.ingest.chunking import sentence_spans
from app.policies.offline.lexicon import coverage, key_terms
from app.text.korean import join_broken_lines

MAX_CHARS = 170
"""A longer sentence is cut at the last clause boundary before this many characters."""
MIN_CHARS = 15
_LEAD = re.compile(r"^(?:\d{1,3}\)\s*|[①-⑳○□■●◦▪·※\-]\s*|[가-하]\.\s*|\(\d{1,2}\)\s*|\d{1,2}\.\s+)+")
_MASK_GAP = re.compile(r"(?<=[○OＯ])\s+(?=[○OＯ])|(?<=[가-힣])\s+(?=○)")
_CLAUSE_END = re.compile(r"(?:고|며|여|나|서|는데|으나|지만|하여|되어),?\s|,\s")
_LAW = re.compile(r"[「｢][^「」｢｣]{2,40}[」｣]\s*(?:제\s*\d+\s*조(?:\s*의\s*\d+)?(?:\s*제\s*\d+\s*항)?(?:\s*제\s*\d+\s*호)?)?")
_LAW_ARTICLE = re.compile(r"[「｢][^「」｢｣]{2,40}[」｣]\s*제\s*\d+\s*조")
_TABLE = re.compile(r"\[\s*(?:표|그림)\s*\d+|\(단위")


@dataclass(frozen=True)
class Quote:
    text: str
    """As displayed."""
    start: int
    end: int
    """The quoted span in the chunk text (before display repairs)."""


def clean(text: str) -> str:
    text = join_broken_lines(text)
    text = _MASK_GAP.sub("", text)
    return re.sub(r"\s+", " ", text).strip()


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    seg = text[start:end]
    lead = _LEAD.match(seg)
    if lead:
        start += lead.end()
    if end - start > MAX_CHARS:
        cut = [m.start() + 1 for m in _CLAUSE_END.finditer(text, start + 40, start + MAX_CHARS)]
        if cut:
            end = cut[-1]
        else:
            end = start + MAX_CHARS
            while end > start and not text[end - 1].isspace():
                end -= 1
        end = len(text[:end].rstrip(" ,"))
    return start, end


def sentences(text: str) -> list[Quote]:
    """The chunk's sentences as display quotes, in order (short fragments skipped)."""
    out = []
    for s, e in sentence_spans(text):
        s, e = _trim(text, s, e)
        shown = clean(text[s:e])
        digits = sum(ch.isdigit() for ch in shown)
        if len(shown) >= MIN_CHARS and re.search(r"[가-힣A-Za-z]", shown) and not _TABLE.search(shown) and digits <= len(shown) * 0.2:
            out.append(Quote(shown, s, e))
    return out


def best(question_terms: set[str], text: str, n: int = 1, first: bool = False) -> list[Quote]:
    """The n sentences sharing most key terms with the question (ties: earlier first), in text
    order; ``first``: the opening sentences instead."""
    cands = sentences(text)
    if first:
        return cands[:n]
    scored = sorted(((coverage(question_terms, key_terms(q.text)), -i, q) for i, q in enumerate(cands)), key=lambda t: (t[0], t[1]), reverse=True)
    return sorted((q for _, _, q in scored[:n]), key=lambda q: q.start)


def laws(text: str) -> list[str]:
    """Law references (「…법」 제N조 제M항) in order of first mention, each once."""
    out: list[str] = []
    for m in _LAW.finditer(text):
        ref = clean(m.group(0))
        if _LAW_ARTICLE.match(ref) and ref not in out:
            out.append(ref)
    return out


def law_sentences(text: str, k: int = 2) -> list[Quote]:
    """Sentences that cite a law article, in order."""
    return [q for q in sentences(text) if _LAW_ARTICLE.search(q.text)][:k]
