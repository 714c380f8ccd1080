"""The lexical side's dictionary and tokens: institution names as Kiwi user words, and the
BM25 terms of a chunk.

Kiwi splits a long institution name differently alone and inside a sentence
(인천국제공항공사 -> 인천국제공항 + 공사), so every name the store knows (reports'
institutions, findings' 소관/조치 기관) is registered as a user word before any chunk or query is
tokenized. A chunk's terms depend on the dictionary only through the user words that occur in
its text; each chunk therefore stores the terms (``Chunk.lexical``) together with the user
words found in its text when it was tokenized (``Chunk.lexical_words``). When the dictionary
grows, exactly the chunks whose text contains a new word get a different word set and are
re-tokenized; all others are reused as stored.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Chunk, Finding, Report
from app.text.korean import TOKENIZER_VERSION, add_user_words, morphemes_batch

_SPLIT = re.compile(r"[,·;/\n]+")
_WS = re.compile(r"\s+")
_TRAILING_ROLE = re.compile(r"(장관|청장|시장|군수|구청장|도지사|사장|원장|이사장|위원장|총장|회장)$")


def split_names(raw: str | None) -> list[str]:
    """Institution names from a '·' or ','-joined field, stripped; very short ones dropped."""
    if not raw:
        return []
    out = []
    for part in _SPLIT.split(raw):
        name = part.strip().strip("()[]「」")
        if len(name) >= 2:
            out.append(name)
    return out


def name_variants(name: str) -> list[str]:
    """The user word for a name: space-free (a user word cannot hold spaces) and without a
    trailing head-of-office title (해양수산부장관 -> 해양수산부), so that 해양수산부장관 in a
    text still yields the term 해양수산부 that a question about the ministry has."""
    compact = _WS.sub("", name)
    base = _TRAILING_ROLE.sub("", compact)
    word = base if len(base) >= 3 else compact
    return [word] if len(word) >= 2 else []


def institution_names(session: Session, extra: Iterable[str] = ()) -> list[str]:
    """Every institution name the store knows (plus ``extra``), as user-word candidates."""
    raw: list[str] = list(extra)
    for (insts,) in session.execute(select(Report.institutions)):
        raw.extend(insts or [])
    for inst, resp, orgs in session.execute(select(Finding.institution, Finding.responsible_org, Finding.action_orgs)):
        raw.extend([inst or "", resp or ""])
        raw.extend(split_names(orgs))
    names: set[str] = set()
    for r in raw:
        for name in split_names(r):
            names.update(name_variants(name))
    return sorted(names)


def register(names: Iterable[str]) -> int:
    """Register names as Kiwi proper nouns (process-wide). Returns how many were new."""
    return add_user_words(names, "NNP")


def words_in(text: str, words: Sequence[str]) -> str:
    """The user words that occur in ``text`` (spaces ignored), sorted and '|'-joined, after the tokenizer's version:
    terms read by another version are read again."""
    compact = _WS.sub("", text)
    return f"v{TOKENIZER_VERSION}|" + "|".join(sorted(w for w in words if w in compact))


def tokenize(texts: Sequence[str]) -> list[str]:
    """BM25 terms of each text, space-joined (content morphemes, lowercased)."""
    return [" ".join(toks) for toks in morphemes_batch(list(texts))] if texts else []


def fill_lexical(session: Session, chunks: Sequence[Chunk]) -> None:
    """Set ``lexical`` / ``lexical_words`` on new chunks (called by the ingestor inside its
    transaction, after the report and findings are flushed so their names are registered)."""
    if not chunks:
        return
    names = institution_names(session)
    register(names)
    texts = [c.index_text for c in chunks]
    for c, terms, text in zip(chunks, tokenize(texts), texts, strict=True):
        c.lexical = terms
        c.lexical_words = words_in(text, names)
