"""Text checks behind ``aura eval answers``: what an answer presents first, which nuggets it
states, whether each cited sentence is supported by the passages it cites, and whether the text
an auditor reads carries PDF extraction debris.

These checks are independent of the analyst and verifier policies they measure: they read the
answer text, the cited passages and the gold, nothing else.

Thresholds (documented here, used below):
- ``SUPPORT_MIN_COVERAGE`` 0.6: a cited sentence without a verbatim quote is supported when at
  least 60% of its content morphemes (those not already in the question) occur in the cited
  passages and their headings (finding title, report, institutions, dispositions).
- ``NUGGET_PARTIAL_MIN_COS``: a nugget whose proof phrase is not in the answer counts 0.5 when an
  answer sentence is this close (cosine, multilingual-e5) to the nugget's fact. Calibrated on the
  dev split (``calibrate_partial``): the lowest threshold at which >= 95% of the matches it admits
  are sentences that do contain the nugget's phrase.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from app.text.footnotes import footnote_marks, without_footnote_marks
from app.text.korean import (
    AUXILIARY,
    BARE_PARTICLE,
    brackets_open,
    broken_words,
    cuts_word,
    ends_clause,
    morphemes,
)

SUPPORT_MIN_COVERAGE = 0.6
NUGGET_PARTIAL_MIN_COS = 0.96
"""``aura eval answers --split dev --calibrate`` on 2026-11-23: 0.9603 over 18,076 (fact, report
sentence) pairs of the dev gold, 404 of them sentences containing the nugget's phrase."""

CITE = re.compile(r"\[(\d{1,3})\]")
QUOTE = re.compile(r"[\"“]([^\"”]{8,}?)[\"”]")
_WS = re.compile(r"\s+")
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)])\s*")
_HANGUL = re.compile(r"[가-힣]")
_FOOTNOTE_OPEN = re.compile(r"^\s*\d{1,3}\)\s*\S")
_MASK_DEBRIS = re.compile(r"○\s+○|[가-힣]○\s+[가-힣]|○{4,}")
_SENTENCE_END_BEFORE = set(".?!:;)]」』>○□■●◦▪-·※")
_ITEM_START = re.compile(r"^\s*(?:[①-⑳㉑-㉟○□■●◦▪·※\-]|[가-하]\.|\(\d{1,2}\)|\d{1,2}\.\s)")
_SOFT_ENDS = set("다음함임됨요")
_CONNECTIVE_BEFORE = re.compile(r"(?:[고며여나서데만아어도]|,)$")
"""The syllable (or comma) that closes a clause before an elided quote: '…않았고', '…하여', '…한데도'.
Kiwi reads '검토하지 / 않았다' and '사용하게 / 되었다' as endings too, but those are one predicate."""
_SOURCE_LINE = re.compile(r"자료\s*:[^\n]{0,80}재구성$")
"""A table's source line ('자료: 행정안전부 제출자료 재구성'): what follows it opens a unit."""
_SENTENCE_START = re.compile(r"(?:[.?!]|[다음함임됨])\s+(?=\S)")


_QUOTE_MARKS = str.maketrans({c: "'" for c in "“”‘’\"'"})


def squash(text: str) -> str:
    """Text without any whitespace or footnote reference marks, lowercased, every quote mark one
    character: PDF text loses or adds spaces at random, an answer may show a passage's “ ” as ‘ ’
    and leave out its footnote references ('않아12) 환자가')."""
    return _WS.sub("", without_footnote_marks(text or "")).lower().translate(_QUOTE_MARKS)


def contains(haystack: str, needle: str) -> bool:
    n = squash(needle)
    return bool(n) and n in squash(haystack)


# ---------------------------------------------------------------- answer structure


def main_text(answer: str, suggestions: Sequence[str]) -> str:
    """The answer without its list of suggested next questions (and that list's header)."""
    lines = answer.split("\n")
    drop: set[int] = set()
    wanted = {f"- {s}".strip() for s in suggestions}
    for i, line in enumerate(lines):
        if line.strip() in wanted:
            drop.add(i)
    if drop:
        first = min(drop)
        if first > 0 and lines[first - 1].rstrip().endswith(":"):
            drop.add(first - 1)
    return "\n".join(line for i, line in enumerate(lines) if i not in drop).strip()


def sentences(text: str) -> list[str]:
    """Display units: each non-empty line, split further at Korean/English sentence ends."""
    out: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        # do not split inside quotes: split only where the text outside quotes ends a sentence
        parts, depth, start = [], False, 0
        for i, ch in enumerate(line):
            if ch in "\"“”":
                depth = not depth if ch == '"' else ch == "“"
            elif not depth and ch in ".?!" and i + 1 < len(line) and line[i + 1] == " " and i > start + 10:
                nxt = line[i + 2 : i + 3]
                if nxt and not nxt.isdigit():
                    parts.append(line[start : i + 1])
                    start = i + 2
        parts.append(line[start:])
        out.extend(p.strip() for p in parts if p.strip())
    return out


def cited_numbers(text: str) -> list[int]:
    """[n] markers in reading order, each once."""
    return list(dict.fromkeys(int(n) for n in CITE.findall(text)))


def first_finding(text: str, docs: Sequence[dict[str, Any]]) -> str | None:
    """The finding the answer presents first: the first [n] in reading order whose passage
    belongs to a finding."""
    for n in cited_numbers(text):
        if 0 < n <= len(docs) and docs[n - 1].get("finding_id"):
            return docs[n - 1]["finding_id"]
    return None


def cited_docs(text: str, docs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [docs[n - 1] for n in cited_numbers(text) if 0 < n <= len(docs)]


def doc_context(doc: dict[str, Any]) -> str:
    """A passage with everything shown beside it: heading, finding title, report, institutions,
    dispositions."""
    meta = [doc.get("heading") or "", doc.get("finding_title") or "", doc.get("report_title") or ""]
    meta += list(doc.get("institutions") or []) + list(doc.get("dispositions") or [])
    return "\n".join([*meta, doc.get("text") or ""])


# ---------------------------------------------------------------- phase 2: nuggets


def nugget_hits(text: str, nuggets: Sequence[dict[str, Any]]) -> list[bool]:
    """Whether the answer text states each nugget verbatim (its proof phrase, spacing aside)."""
    return [contains(text, n["phrase"]) for n in nuggets]


# ---------------------------------------------------------------- phase 3: groundedness


def _strip_markup(sentence: str) -> str:
    s = CITE.sub(" ", sentence)
    s = _BULLET.sub("", s)
    return s.strip()


def quoted(text: str) -> list[str]:
    """The verbatim quotes in an answer's text, without the ellipsis that marks a cut sentence."""
    return [q.strip("…") for q in QUOTE.findall(text)]


def supported(sentence: str, docs: Sequence[dict[str, Any]], question: str) -> bool:
    """A cited sentence is supported when every verbatim quote in it occurs in the cited
    passages, or (no quote) when most of its new content words occur there."""
    context = "\n".join(doc_context(d) for d in docs)
    quotes = quoted(sentence)
    if quotes:
        return all(contains(context, q) for q in quotes)
    asked = set(morphemes(question))
    terms = {t for t in morphemes(_strip_markup(sentence)) if t not in asked}
    if not terms:
        return True
    have = set(morphemes(context))
    return len(terms & have) / len(terms) >= SUPPORT_MIN_COVERAGE


def groundedness(text: str, docs: Sequence[dict[str, Any]], question: str) -> tuple[int, list[str], int]:
    """(cited sentences, the unsupported ones, sentences with no citation)."""
    cited, bad, uncited = 0, [], 0
    for s in sentences(text):
        nums = [int(n) for n in CITE.findall(s)]
        sources = [docs[n - 1] for n in nums if 0 < n <= len(docs)]
        if not sources:
            uncited += 1
            continue
        cited += 1
        if not supported(s, sources, question):
            bad.append(s)
    return cited, bad, uncited


# ---------------------------------------------------------------- readability


def split_words(doc_text: str) -> list[tuple[str, str]]:
    """Words that a line break in the PDF text cuts in two, as (left part, right part)
    (``app.text.korean.broken_words``)."""
    out = []
    doc_text = without_footnote_marks(doc_text)  # '인정89) / 하였다' is shown as one word too
    for s, e in broken_words(doc_text):
        left = re.findall(r"[가-힣]{1,8}$", doc_text[max(0, s - 8) : s])
        right = re.findall(r"^[가-힣]{1,8}", doc_text[e : e + 8])
        if left and right:
            out.append((left[0], right[0]))
    return out


def _preceding(quote: str, doc_text: str) -> tuple[str, bool, int] | None:
    """Where the whole quote occurs in the passage (its opening words may occur earlier in
    another sentence): the text before it, whether a line break lies between, and the quote's
    start; None when the quote opens the passage or is not found. Footnote marks are not text:
    the text before '…환자가 없자' in '않아12) 환자가 없자' ends at '않아'."""
    q = squash(quote)
    if not q:
        return None
    flat, index = [], []
    marks = {i for s, e in footnote_marks(doc_text) for i in range(s, e)}
    for i, ch in enumerate(doc_text):
        if not ch.isspace() and i not in marks:
            flat.append(ch.lower().translate(_QUOTE_MARKS))  # marks are skipped already: no need for squash per character
            index.append(i)
    pos = "".join(flat).find(q)
    if pos <= 0:
        return None
    j = index[pos] - 1
    newline = False
    while j >= 0 and (doc_text[j].isspace() or j in marks):
        newline |= doc_text[j] == "\n"
        j -= 1
    return (doc_text[: j + 1], newline, index[pos]) if j >= 0 else None


def _starts_mid_sentence(quote: str, doc_text: str) -> bool:
    """The quote opens inside a sentence of its passage (e.g. '중 폴조회 및…')."""
    if _ITEM_START.match(quote):
        return False
    before = _preceding(quote, doc_text)
    if before is None:
        return False
    prev = before[0][-1]
    if prev in _SENTENCE_END_BEFORE or (before[1] and _SOURCE_LINE.search(before[0])):  # after a table's source line
        return False
    return not (before[1] and prev in _SOFT_ENDS)


def _elided_at_clause(quote: str, doc_text: str) -> bool:
    """A quote shown after an ellipsis ('…선정기준에 적합한지 검토하지 않았고, …') opens at a clause
    boundary of its sentence: Kiwi reads a connective or final ending or punctuation before it
    (…하고, …하며, …하여, …하는데, …되어, …않아), not a noun ('국고 / 보조금이'); it does not open
    with a particle whose noun was cut off ('와 위·수탁 …'), with an auxiliary verb that continues
    the predicate ('되어 / 있는'), or with the rest of a word a line break cut ('고 / 려해')."""
    if BARE_PARTICLE.match(quote) or AUXILIARY.match(quote):
        return False
    before = _preceding(quote, doc_text)
    if before is None:
        return True
    text, _, start = before
    if cuts_word(doc_text, len(text), start):  # the line break before the quote cut a word ('고 / 려해')
        return False
    if brackets_open(text[max((m.end() for m in _SENTENCE_START.finditer(text)), default=0):]):  # its sentence so far
        return False
    text = without_footnote_marks(text)  # '…100개72)이나, ' ends a clause at '이나', its footnote mark aside
    if not _CONNECTIVE_BEFORE.search(text):
        return False
    return ends_clause(text[-40:-1] if text.endswith(",") else text[-40:])


def artefacts(text: str, docs: Iterable[dict[str, Any]]) -> list[str]:
    """PDF extraction debris in the displayed text: words split by a line break, a footnote
    marker opening a quote, a footnote reference inside the text ('않아12) 환자가'), a quote that
    starts mid-sentence unmarked (or marked by an ellipsis but not at a clause boundary),
    masked-name debris."""
    found: list[str] = []
    docs = list(docs)
    for d in docs:
        for left, right in split_words(d.get("text") or ""):
            if f"{left} {right}" in text:
                found.append(f"split word: '{left} {right}'")
    for raw in QUOTE.findall(text):
        q = raw.strip("…")
        holding = [d.get("text") or "" for d in docs if contains(d.get("text") or "", q[:30])]
        if _FOOTNOTE_OPEN.match(q):
            found.append(f"footnote opens quote: '{q[:20]}'")
        elif raw.startswith("…") and holding and not any(_elided_at_clause(q, t) for t in holding):
            found.append(f"elision not at a clause: '{q[:20]}'")
        elif not raw.startswith("…") and _HANGUL.search(q[:3]) and (BARE_PARTICLE.match(q) or any(_starts_mid_sentence(q, t) for t in holding)):
            found.append(f"mid-sentence quote: '{q[:20]}'")
    for s, e in footnote_marks(text):
        found.append(f"footnote reference: '{text[max(0, s - 6) : e]}'")
    for m in _MASK_DEBRIS.finditer(text):
        found.append(f"mask debris: '{m.group(0)}'")
    return list(dict.fromkeys(found))


# ---------------------------------------------------------------- kind-specific checks

RECOMMEND_MARKERS = ("적절", "추천", "권장", "바람직", "타당", "recommend", "appropriate", "suggest")


def recommended_disposition(text: str, dispositions: Sequence[str]) -> str | None:
    """The disposition the answer recommends: in the first sentence that carries a
    recommendation marker, the disposition word nearest before the marker (else the first after)."""
    for s in sentences(text):
        low = s.lower()
        marks = [low.find(m) for m in RECOMMEND_MARKERS if m in low]
        if not marks:
            continue
        at = min(marks)
        found = [(s.rfind(d, 0, at), d) for d in dispositions if s.rfind(d, 0, at) >= 0]
        if found:
            return max(found)[1]
        after = sorted((s.find(d, at), d) for d in dispositions if s.find(d, at) >= 0)
        if after:
            return after[0][1]
    return None


_LAW = re.compile(r"「?([^「」]+?)」?\s*(제\s*\d+\s*조(?:\s*의\s*\d+)?)")


def law_recalled(text: str, law_ref: str) -> bool:
    """The answer names the law and the article of a gold reference like 「지방공무원법」 제48조."""
    m = _LAW.search(law_ref)
    if not m:
        return contains(text, law_ref)
    return contains(text, m.group(1)) and contains(text, m.group(2))


def is_repeat(suggestion: str, question: str) -> bool:
    a, b = set(morphemes(suggestion)), set(morphemes(question))
    if squash(suggestion) == squash(question):
        return True
    return bool(a | b) and len(a & b) / len(a | b) >= 0.8
