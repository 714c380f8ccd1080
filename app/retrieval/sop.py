"""``SopRetriever``: search the audit procedures and criteria (SOP clauses) in SQL.

A small corpus (tens of clauses), so everything is in process: BM25 over Kiwi terms (the same
analyzer as the report index) and, when an embedder is given, exact cosine over the clause
vectors held in a numpy matrix; the two lists are fused with ``CoverageFusion``. The index is
rebuilt when the clauses in SQL change (count and the documents' sha256).
"""

from __future__ import annotations

import hashlib
import threading

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


class SopHit(BaseModel):
    """One SOP clause, citable as ``[clause_id]``."""

    clause_id: str
    document_id: str
    document_title: str = ""
    title: str
    text: str
    score: float


class SopRetriever:
    def __init__(
        self, sessions: sessionmaker[Session], embedder: Embedder | None = None, fusion: Fusion | None = None
    ) -> None:
        self.sessions, self.embedder = sessions, embedder
        self.fusion = fusion or CoverageFusion()
        self._lock = threading.Lock()
        self._version: str | None = None
        self._clauses: list[SopHit] = []
        self._index = BM25Index.build([])
        self._vectors: np.ndarray | None = None

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
            self._index = BM25Index.build(
                (c.clause_id, terms(m), {}) for c, m in zip(clauses, morphemes_batch(texts), strict=True)
            )
            self._vectors = self.embedder.embed_passages(texts) if self.embedder is not None and texts else None
            self._clauses = clauses
            self._version = version
        return True

    def search(self, query: str, k: int = 5) -> list[SopHit]:
        """The ``k`` best clauses for ``query``, best first (empty when nothing matches)."""
        self.refresh()
        if not query.strip() or not self._clauses:
            return []
        tokens = terms(morphemes(query))
        runs: dict[str, list[Hit]] = {"lexical": self._index.search(tokens, len(self._clauses))}
        if self._vectors is not None and self.embedder is not None:
            q = self.embedder.embed_queries([query])[0]
            sims = self._vectors @ q
            order = np.argsort(-sims)[: min(len(sims), 20)]
            runs["dense"] = [Hit(self._clauses[i].clause_id, float(sims[i]), r + 1) for r, i in enumerate(order)]
        fused = self.fusion.fuse(runs, k, {"lexical": self._index.ceiling(tokens)} if tokens else {})
        by_id = {c.clause_id: c for c in self._clauses}
        return [by_id[f.id].model_copy(update={"score": round(f.score, 4)}) for f in fused]
