"""Offline Self-RAG verification.

Hallucination: each sentence must be supported by a passage it cites: its quote found
verbatim (whitespace-insensitive, footnote marks the quote left out aside) in the passage or what is shown beside it (heading, titles,
institutions, dispositions), or, failing a quote, most of its key terms present there.
Utility: the answer and its cited evidence cover the question's problem pattern (its key
terms), and give what the kind of question asks for (legal basis: a 관계 법령·판단기준 passage or
a law article; actions: a 조치할 사항 passage; disposition level: a disposition named).
Confidence is support x utility x the relevance the grader gave the cited findings, so quotes
that match an unrelated finding do not score high.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from app.policies.offline.intent import enumerated, question_kind
from app.policies.offline.lexicon import (
    FACET_TERMS,
    FUNCTION_WORDS,
    REBUTTAL_TERMS,
    coverage,
    key_terms,
    topical,
)
from app.policies.offline.quotes import fold
from app.text.footnotes import without_footnote_marks
from graph.schemas import AnalystAnswer, Verification
from graph.state import Doc, from_manual
from graph.vocab import DISPOSITIONS

SUPPORT_MIN = 0.6
UTILITY_MIN = 0.5


def shown_with(d: Doc) -> str:
    """What the answer shows beside a passage: finding and report titles, institutions,
    dispositions (a card's '과학기술정보통신부' is checked against these)."""
    meta = [d.get("finding_title") or "", d.get("report_title") or ""]
    return "\n".join([*meta, *(d.get("institutions") or []), *(d.get("dispositions") or [])])


def support(sentence_text: str, quote: str, cited: list[Doc]) -> float:
    """1.0 when the sentence's quote is in a cited passage (its heading and text) or beside it
    (``shown_with``); else the best share of the sentence's key terms found there."""
    passages = [(f"{d.get('heading') or ''}\n{d['text']}", shown_with(d)) for d in cited]
    if quote and any(fold(quote) in fold(p) or fold(quote) in fold(beside) for p, beside in passages):
        return 1.0
    if quote and any(fold(quote) in fold(without_footnote_marks(p)) for p, _ in passages):  # '않아12) 환자가' quoted as '않아 환자가'
        return 1.0
    terms = key_terms(re.sub(r"\[\d+\]", "", sentence_text))
    return max((coverage(terms, key_terms(p) | key_terms(beside)) for p, beside in passages), default=0.0)


def verify(question: str, answer: AnalystAnswer, docs: list[Doc], terms: set[str] | None = None,
           passage_terms: Callable[[str], frozenset[str] | None] | None = None) -> Verification:
    """``terms``: the question's key terms as the search weighed them (an English question's
    mapped to Korean, the institutions it names added); by default its plain key terms.
    ``passage_terms``: a stored passage's morphemes by chunk id (else each passage is read again)."""
    if not docs:
        return Verification(reasoning="no evidence to check against", grounded=True, useful=False, unsupported=[], confidence=0.0)
    scores, unsupported = [], []
    for s in answer.sentences:
        cited = [docs[n - 1] for n in s.citations if 0 < n <= len(docs)]
        score = support(s.text, s.quote, cited) if cited else 0.0
        scores.append(score)
        if score < SUPPORT_MIN:
            unsupported.append(s.text)
    q_terms = (key_terms(question) if terms is None else terms) - FACET_TERMS - REBUTTAL_TERMS - FUNCTION_WORDS  # the facet asked for is checked below
    cited_docs = [docs[n - 1] for s in answer.sentences for n in s.citations if 0 < n <= len(docs)]
    utility = coverage(q_terms, covered(q_terms, question, answer, docs, passage_terms)) if q_terms else (1.0 if cited_docs else 0.0)
    missing = None if from_manual(cited_docs) else missing_facet(question, answer, cited_docs)  # the manual answers what it is asked, not a finding's facet
    grounded = not unsupported
    mean_support = sum(scores) / len(scores) if scores else 0.0
    relevance = max((float(d.get("relevance", 1.0)) for d in cited_docs), default=0.0)
    why = f"mean support {mean_support:.2f}, question-term coverage {utility:.2f}, relevance {relevance:.2f}"
    return Verification(
        reasoning=why + (f"; the answer lacks {missing}" if missing else ""),
        grounded=grounded,
        useful=utility >= UTILITY_MIN and bool(cited_docs) and not missing,
        unsupported=unsupported,
        confidence=round(mean_support * min(1.0, utility / UTILITY_MIN) * relevance, 3),
    )


def covered(q_terms: set[str], question: str, answer: AnalystAnswer, docs: list[Doc],
            passage_terms: Callable[[str], frozenset[str] | None] | None = None) -> set[str]:
    """The key terms the answer covers the question (``q_terms``) with: those of the one cited
    finding that covers most of them (its passages, title and institutions: '곡성군의회 지적사항'
    is answered by its findings; its report's title when the question names a report; and the
    answer's sentences that cite it alone), or of all of them when
    the question lists several cases ('A 건이랑 B 건'). A question's pattern is one finding's
    problem: three findings that each share a word with it do not answer it together."""
    groups: dict[str, set[str]] = {}
    read: set[int] = set()  # passage numbers whose terms are in their group already
    for s in answer.sentences:
        cited = [docs[n - 1] for n in s.citations if 0 < n <= len(docs)]
        for n in {n for n in s.citations if 0 < n <= len(docs)} - read:
            d = docs[n - 1]
            report = (d.get("report_title") or "") if _NAMES_REPORT.search(question) else ""  # '그 강원도 감사에서 …': its title answers that
            beside = key_terms(f"{d.get('finding_title') or ''}\n{report}\n{' '.join(d.get('institutions') or [])}")
            stored = passage_terms(d["chunk_id"]) if passage_terms and d.get("chunk_id") else None
            body = (topical(stored) if stored is not None
                    else key_terms(f"{d.get('heading') or ''}\n{d.get('text') or ''}"))  # as the index read it, or read again
            groups.setdefault(_case(d), set()).update(beside | body)
            read.add(n)
        if len({_case(d) for d in cited}) == 1:  # a lead that cites several findings names the first one's title: not theirs
            groups[_case(cited[0])] |= key_terms(s.text)
    if enumerated(question) or len(groups) <= 1:
        return set().union(*groups.values())
    return max(groups.values(), key=lambda t: len(q_terms & t))


_NAMES_REPORT = re.compile(r"감사(?!원|관)|보고서|\baudit|\breport", re.I)
"""A question that names the report it asks about: the title on the card counts."""


def _case(d: Doc) -> str:
    return d.get("finding_id") or d.get("chunk_id") or d.get("text") or ""


_ARTICLE = re.compile(r"제\s*\d+\s*조")


def missing_facet(question: str, answer: AnalystAnswer, cited: list[Doc]) -> str | None:
    """What the kind of question asks for and the answer does not give, if anything."""
    kind = question_kind(question)
    sections = {d.get("section") for d in cited}
    text = " ".join(s.text for s in answer.sentences)
    if kind == "legal_basis" and "criteria" not in sections and not _ARTICLE.search(text):
        return "the legal basis"
    if kind == "actions" and "actions" not in sections:
        return "the required actions"
    if kind == "disposition" and not any(d in text for d in DISPOSITIONS):
        return "a disposition"
    return None
