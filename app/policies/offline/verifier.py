"""Offline Self-RAG verification.

Hallucination: each sentence must be supported by a passage it cites: its quote found
verbatim (whitespace-insensitive) in the passage text or heading, or, failing a quote, most
of its key terms present in the cited passage. Utility: the answer and its cited evidence
cover the question's key terms.
"""

from __future__ import annotations

import re

from app.policies.offline.lexicon import coverage, key_terms
from graph.schemas import AnalystAnswer, Verification
from graph.state import Doc

SUPPORT_MIN = 0.6
UTILITY_MIN = 0.5


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", text)


def support(sentence_text: str, quote: str, cited: list[Doc]) -> float:
    best = 0.0
    for d in cited:
        if quote and _norm(quote) in _norm(f"{d.get('heading', '')}{d['text']}"):
            return 1.0
        terms = key_terms(re.sub(r"\[\d+\]", "", sentence_text))
        best = max(best, coverage(terms, key_terms(f"{d.get('heading', '')}\n{d['text']}")))
    return best


def verify(question: str, answer: AnalystAnswer, docs: list[Doc]) -> Verification:
    if not docs:
        return Verification(reasoning="no evidence to check against", grounded=True, useful=False, unsupported=[], confidence=0.0)
    scores, unsupported = [], []
    for s in answer.sentences:
        cited = [docs[n - 1] for n in s.citations if 0 < n <= len(docs)]
        score = support(s.text, s.quote, cited) if cited else 0.0
        scores.append(score)
        if score < SUPPORT_MIN:
            unsupported.append(s.text)
    q_terms = key_terms(question)
    cited_docs = [docs[n - 1] for s in answer.sentences for n in s.citations if 0 < n <= len(docs)]
    evidence_terms = key_terms(" ".join(s.text for s in answer.sentences))
    for d in cited_docs:
        evidence_terms |= key_terms(f"{d.get('heading', '')}\n{d['text']}")
    utility = coverage(q_terms, evidence_terms) if q_terms else (1.0 if cited_docs else 0.0)
    grounded = not unsupported
    mean_support = sum(scores) / len(scores) if scores else 0.0
    return Verification(
        reasoning=f"mean support {mean_support:.2f}, question-term coverage {utility:.2f}",
        grounded=grounded,
        useful=utility >= UTILITY_MIN and bool(cited_docs),
        unsupported=unsupported,
        confidence=round(mean_support * min(1.0, utility / UTILITY_MIN), 3),
    )
