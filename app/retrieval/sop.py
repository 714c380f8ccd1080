"""``SopRetriever``: search the audit procedures and criteria (SOP clauses) in SQL.

A small corpus (tens of clauses), so everything is in process: BM25 over Kiwi terms (the same
analyzer as the report index) and, when an embedder is given, exact cosine over the clause
vectors held in a numpy matrix; the two lists are fused with ``CoverageFusion``. The index is
rebuilt when the clauses in SQL change (count and the documents' sha256).

Next to findings (``applicable``) a search of the whole manual by the question shows hubs: the
wording examples of 고발 and 통보 (SOP-CLS-18, -13) came up for half the dev answers, and 17.5% of
the clauses shown applied to a gold finding (``data/eval/sop``, labelled blind). A finding's
criteria are instead the clauses that define its dispositions (found by title: '주의 요구의 정의와
적용') and, when the question and the finding's title match one clearly, its violation type
(``VIOLATION_DOCUMENT``, fused score at least ``VIOLATION_MIN``).
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import SopClause, SopDocument
from app.embeddings.interface import Embedder
from app.retrieval.base import Hit
from app.retrieval.fusion import CoverageFusion, Fusion
from app.retrieval.lexical import BM25Index, terms
from app.text.korean import morphemes, morphemes_batch

VIOLATION_DOCUMENT = "SOP-VIO"
"""The manual's document of violation types (``sop/03_violation_types.md``): per type, the criteria
an auditor checks. A type's title names its field first ('계약: 수의계약 요건'); the document's other
clauses ('이 문서의 사용 방법') are no type."""
VIOLATION_MIN = 1.1
"""Fused score (question + finding title) a violation-type clause needs to be shown. With the
default fusion (``CoverageFusion``: lexical coverage plus a dense vote, at most 1.15) this means the
clause leads both the lexical and the dense list; without an embedder (at most 1.0) no violation
clause is shown. On the dev answers (145 answered, first finding as presented) the best violation
clause was right for 28 and wrong for 12 at 1.1; for 36 and 66 at 0.7; 40 and 105 with no floor.
Half the findings fit no violation type of the manual (the gold's 34 of 69)."""
DEFINES = re.compile(r"^(.+?)(?:\s*요구)?의 정의")
"""A clause that defines a disposition names it before '의 정의': '주의 요구의 정의와 적용',
'통보(인사자료)의 정의와 적용', '변상판정과 변상명령의 정의'. A disposition no clause defines is
looked up by a title that names it ('징계 요구의 수위 표시와 문책 요구' for 문책)."""


class SopHit(BaseModel):
    """One SOP clause, citable as ``[clause_id]``."""

    clause_id: str
    document_id: str
    document_title: str = ""
    title: str
    text: str
    score: float


@dataclass(frozen=True)
class _Snapshot:
    """One version of the manual, swapped in whole so a search never mixes two versions."""

    clauses: list[SopHit]
    index: BM25Index
    vectors: np.ndarray | None
    named: list[tuple[str, SopHit]]
    """(the disposition a clause defines, the clause), from the titles (``DEFINES``)."""
    by_id: dict[str, SopHit]
    vocabulary: frozenset[str]
    """Every morpheme the clauses use (titles and texts)."""


class SopRetriever:
    def __init__(
        self, sessions: sessionmaker[Session], embedder: Embedder | None = None, fusion: Fusion | None = None
    ) -> None:
        self.sessions, self.embedder = sessions, embedder
        self.fusion = fusion or CoverageFusion()
        self._lock = threading.Lock()
        self._version: str | None = None
        self._snap = _Snapshot([], BM25Index.build([]), None, [], {}, frozenset())

    def _current_version(self) -> str:
        with self.sessions() as s:
            docs = s.execute(select(SopDocument.id, SopDocument.sha256).order_by(SopDocument.id)).all()
        return hashlib.sha1(repr(docs).encode()).hexdigest()

    def refresh(self, force: bool = False) -> bool:
        version = self._current_version()
        if not force and version == self._version:
            return False
        with self._lock:
            with self.sessions() as s:
                rows = s.execute(
                    select(SopClause, SopDocument.title)
                    .join(SopDocument, SopClause.document_id == SopDocument.id)
                    .order_by(SopClause.document_id, SopClause.ordinal)
                ).all()
                clauses = [
                    SopHit(clause_id=c.id, document_id=c.document_id, document_title=t, title=c.title, text=c.text, score=0.0)
                    for c, t in rows
                ]
            texts = [f"{c.title}\n{c.text}" for c in clauses]
            analysed = morphemes_batch(texts)
            index = BM25Index.build((c.clause_id, terms(m), {}) for c, m in zip(clauses, analysed, strict=True))
            vectors = self.embedder.embed_passages(texts) if self.embedder is not None and texts else None
            named = [(m.group(1), c) for c in clauses if (m := DEFINES.match(c.title))]
            vocabulary = frozenset(m for ms in analysed for m in ms)
            self._snap = _Snapshot(clauses, index, vectors, named, {c.clause_id: c for c in clauses}, vocabulary)
            self._version = version
        return True

    def _current(self) -> _Snapshot:
        self.refresh()
        return self._snap

    def vocabulary(self) -> frozenset[str]:
        """The morphemes the manual's clauses use (a question in only these words is about it)."""
        return self._current().vocabulary

    def defining(self, disposition: str) -> SopHit | None:
        """The clause that defines ``disposition`` ('주의', '인사자료' -> '통보(인사자료)의 정의와
        적용', '변상' -> '변상판정과 변상명령의 정의', '문책' -> the clause titled with it), or None."""
        return _defining(self._current(), disposition)

    def applicable(self, question: str, titles: Sequence[str], dispositions: Sequence[str], k: int = 3, query: str = "") -> list[SopHit]:
        """The clauses that apply to the findings an answer is given (``titles``, best first, and
        their ``dispositions`` in order): the violation type the question and the first title
        match clearly, then the definition of each disposition; at most ``k``. ``query``: the turn's search
        query, whose vector the search made: the dense half is its vector plus the title's (which the finding
        index made), so a turn that searched encodes nothing here (a follow-up that loaded its case did not search and
        encodes its query once; 150 dev questions: the same violation type as encoding
        question and title together for 139; the title alone, 124). A definition
        carries score 0: it was chosen by name, not searched."""
        if k <= 0:
            return []
        snap = self._current()
        out: list[SopHit] = []
        if titles:
            dense = None
            if query and self.embedder is not None:  # the turn's search query and the title, both encoded already: none here
                v = self.embedder.embed_queries([query])[0] + self.embedder.embed_queries([titles[0]])[0]
                dense = v / (np.linalg.norm(v) or 1.0)
            hits = self._search(snap, f"{question} {titles[0]}", 5, dense)
            best = next((h for h in hits if is_violation_type(h)), None)
            if best is not None and best.score >= VIOLATION_MIN:
                out.append(best)
        for d in dispositions:
            clause = _defining(snap, d)
            if clause is not None and clause.clause_id not in {c.clause_id for c in out}:
                out.append(clause)
        return out[:k]

    def answering(self, question: str, dispositions: Sequence[str] = (), k: int = 3) -> list[SopHit]:
        """The clauses that answer a question about the manual itself ('주의 요구는 언제 쓰는
        거야?'), best first: the search, a clause whose title holds the question's words raised
        (``TITLE_WEIGHT``), and the definitions of the ``dispositions`` it names (in its order) first,
        unless it asks for wording ('문안', '어떻게 써'), which other clauses give."""
        if k <= 0:
            return []
        snap = self._current()
        q_terms = set(terms(morphemes(question)))
        hits = self._search(snap, question, max(k, ANSWER_POOL))
        scored = sorted(
            (h.model_copy(update={"score": round(h.score + TITLE_WEIGHT * _title_share(q_terms, h.title), 4)}) for h in hits),
            key=lambda h: -h.score,
        )
        if not WORDING.search(question):
            named = [d for d in dispositions if not re.search(re.escape(d) + r"\s*(?:할|하|해)", question)]  # '주의할 점' names none
            defined = [c for d in named if (c := _defining(snap, d)) is not None]
            top = max((h.score for h in scored), default=0.0)
            first = {c.clause_id: c.model_copy(update={"score": top}) for c in defined}
            scored = [*first.values(), *(h for h in scored if h.clause_id not in first)]
        return scored[:k]

    def search(self, query: str, k: int = 5) -> list[SopHit]:
        """The ``k`` best clauses for ``query``, best first (empty when nothing matches)."""
        return self._search(self._current(), query, k)

    def _search(self, snap: _Snapshot, query: str, k: int, dense: np.ndarray | None = None) -> list[SopHit]:
        """Lexical and dense runs fused; the dense one by the ``dense`` vector when given (else ``query``'s)."""
        if not query.strip() or not snap.clauses:
            return []
        tokens = terms(morphemes(query))
        runs: dict[str, list[Hit]] = {"lexical": snap.index.search(tokens, len(snap.clauses))}
        if snap.vectors is not None and self.embedder is not None:
            q = self.embedder.embed_queries([query])[0] if dense is None else dense
            sims = snap.vectors @ q
            order = np.argsort(-sims)[: min(len(sims), 20)]
            runs["dense"] = [Hit(snap.clauses[i].clause_id, float(sims[i]), r + 1) for r, i in enumerate(order)]
        fused = self.fusion.fuse(runs, k, {"lexical": snap.index.ceiling(tokens)} if tokens else {})
        return [snap.by_id[f.id].model_copy(update={"score": round(f.score, 4)}) for f in fused]


ANSWER_POOL = 8
"""Clauses searched before the title bonus reorders them."""
TITLE_WEIGHT = 0.5
"""Added to a clause's fused score times the share of the question's terms its title holds."""
WORDING = re.compile(r"문안|예시|문장|표기|작성|(?:어떻게|어케)\s*(?:써|쓰|적)|wording|example|\bwrit", re.I)
"""A question about how to word something, which a disposition's definition does not answer."""


def _title_share(q_terms: set[str], title: str) -> float:
    return len(q_terms & set(terms(morphemes(title)))) / len(q_terms) if q_terms else 0.0


def is_violation_type(clause: SopHit) -> bool:
    """A violation type of the manual ('계약: 수의계약 요건'), not another clause of its document."""
    return clause.document_id == VIOLATION_DOCUMENT and ":" in clause.title


def _defining(snap: _Snapshot, disposition: str) -> SopHit | None:
    if not disposition.strip():
        return None
    exact = (c for name, c in snap.named if name == disposition)
    loose = (c for name, c in snap.named if f"({disposition})" in name or name.startswith(disposition))
    titled = (c for c in snap.clauses if disposition in c.title)
    return next(exact, None) or next(loose, None) or next(titled, None)
