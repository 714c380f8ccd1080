"""Korean text handling with one shared Kiwi instance: content morphemes and spacing repair.

Kiwi takes seconds and ~0.5 GB to load, so the process keeps exactly one (``get_kiwi``).
Search keys are content morphemes, lowercased: nouns, numbers, foreign words, roots and
verb/adjective stems. Particles and endings are dropped, so 계약을 / 계약의 / 계약 match.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache

from kiwipiepy import Kiwi

CONTENT_TAGS = frozenset(
    {"NNG", "NNP", "NR", "SL", "SH", "SN", "XR", "VV", "VA", "VV-R", "VV-I", "VA-R", "VA-I", "W_HASHTAG"}
)

_lock = threading.Lock()
_kiwi: Kiwi | None = None
_user_words: set[str] = set()
_HANGUL_RUN = re.compile(r"[가-힣]{12,}")


def get_kiwi() -> Kiwi:
    """The process-wide Kiwi instance, created on first use."""
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                _kiwi = Kiwi()
    return _kiwi


def add_user_words(words: Iterable[str], tag: str = "NNP") -> int:
    """Register proper nouns (institution names) so they stay one morpheme. Returns how many
    were new. Clears the morpheme cache when the dictionary changes."""
    kiwi = get_kiwi()
    added = 0
    with _lock:
        for word in words:
            word = word.strip()
            if len(word) < 2 or " " in word or word in _user_words:
                continue
            if kiwi.add_user_word(word, tag, 0.0):
                added += 1
            _user_words.add(word)
    if added:
        _morphemes_cached.cache_clear()
    return added


def _content_forms(tokens) -> list[str]:  # noqa: ANN001 - kiwipiepy Token list
    """Content morphemes; a negating prefix stays on its noun (부적정 is not 적정)."""
    forms: list[str] = []
    prefix = ""
    for tok in tokens:
        if tok.tag == "XPN":
            prefix = tok.form
            continue
        if tok.tag in CONTENT_TAGS:
            forms.append((prefix + tok.form).lower())
        prefix = ""
    return forms


@lru_cache(maxsize=4096)
def _morphemes_cached(text: str) -> tuple[str, ...]:
    return tuple(_content_forms(get_kiwi().tokenize(text)))


def morphemes(text: str) -> list[str]:
    """Content morphemes of ``text``, lowercased, in order (duplicates kept)."""
    if not text or not text.strip():
        return []
    return list(_morphemes_cached(text))


def morphemes_batch(texts: list[str]) -> list[list[str]]:
    """Content morphemes for many texts, using Kiwi's multi-threaded batch tokenizer."""
    kiwi = get_kiwi()
    return [_content_forms(tokens) for tokens in kiwi.tokenize(texts)]


def needs_spacing(text: str) -> bool:
    """True when the text has long runs of Hangul with no space (lost in PDF extraction)."""
    return _HANGUL_RUN.search(text) is not None


def restore_spacing(text: str) -> str:
    """Re-insert spaces between Korean words where extraction lost them; other text unchanged."""
    if not needs_spacing(text):
        return text
    return "\n".join(get_kiwi().space(line) if needs_spacing(line) else line for line in text.split("\n"))
