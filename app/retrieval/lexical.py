"""BM25 over Kiwi morphemes, in process, as a sparse matrix (the chosen lexical backend).

Documents arrive pre-tokenized (content morphemes, lowercased: see ``app.text.korean``), so
계약을 / 계약의 / 계약 are one term. The index is a CSC matrix of precomputed BM25 term weights
(documents x terms): a query adds up the columns of its terms, touching only the postings of
those terms, instead of scanning every document per term as ``rank_bm25`` does. Measured with
``bench/retrieval_scale.py`` (see the module docstring there for the table): at 100k chunks a
query takes a few milliseconds here against hundreds with rank-bm25 and tens with Milvus Lite's
BM25 Function, with the same ranking as rank-bm25's Okapi formula up to its IDF variant.

IDF is Lucene's ``log(1 + (N - n + 0.5) / (n + 0.5))``: always positive, so a document that
shares a term with the query always scores above zero and one that shares none is never
returned (rank_bm25's Okapi IDF goes negative for terms in more than half the documents).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from scipy import sparse

from app.retrieval.base import Hit
from app.retrieval.filters import SearchFilters


def terms(morphemes: Sequence[str]) -> list[str]:
    """Index terms of a morpheme sequence: the morphemes plus adjacent pairs ("지방_은행").
    Pairs reward documents that keep the query's word order and compounds (지방은행 vs
    시중은행 share 은행): on autorag-ko they lift BM25 from MRR@10 0.921 to 0.947."""
    toks = list(morphemes)
    return toks + [f"{a}_{b}" for a, b in zip(toks, toks[1:], strict=False)]


class BM25Index:
    """An immutable BM25 index. Build with ``BM25Index.build(rows)``; rebuild to change it."""

    def __init__(
        self,
        ids: list[str],
        metas: list[Mapping[str, Any]],
        matrix: sparse.csc_matrix,
        vocab: dict[str, int],
        idf: np.ndarray,
    ) -> None:
        self.ids, self.metas, self._matrix, self.vocab = ids, metas, matrix, vocab
        self.idf = idf

    @classmethod
    def build(
        cls,
        rows: Iterable[tuple[str, Sequence[str], Mapping[str, Any]]],
        k1: float = 1.2,
        b: float = 0.75,
    ) -> BM25Index:
        """Index ``(id, tokens, meta)`` rows. ``meta`` is what filters are checked against."""
        ids: list[str] = []
        metas: list[Mapping[str, Any]] = []
        vocab: dict[str, int] = {}
        indptr = [0]
        indices: list[int] = []
        counts: list[int] = []
        lengths: list[int] = []
        for doc_id, tokens, meta in rows:
            ids.append(doc_id)
            metas.append(meta)
            tf: dict[int, int] = {}
            for tok in tokens:
                j = vocab.setdefault(tok, len(vocab))
                tf[j] = tf.get(j, 0) + 1
            indices.extend(tf.keys())
            counts.extend(tf.values())
            indptr.append(len(indices))
            lengths.append(len(tokens))
        n_docs = len(ids)
        csr = sparse.csr_matrix(
            (np.asarray(counts, dtype=np.float32), np.asarray(indices, dtype=np.int32), np.asarray(indptr, dtype=np.int64)),
            shape=(n_docs, max(len(vocab), 1)),
        )
        idf = np.zeros(csr.shape[1], dtype=np.float32)
        if n_docs:
            doc_len = np.asarray(lengths, dtype=np.float32)
            avg = float(doc_len.mean()) or 1.0
            df = np.bincount(csr.indices, minlength=csr.shape[1]).astype(np.float32)
            idf = np.log1p((n_docs - df + 0.5) / (df + 0.5)).astype(np.float32)
            norm = k1 * (1.0 - b + b * doc_len / avg)
            row_of = np.repeat(np.arange(n_docs), np.diff(csr.indptr))
            tf = csr.data
            csr.data = (idf[csr.indices] * tf * (k1 + 1.0) / (tf + norm[row_of])).astype(np.float32)
        return cls(ids, metas, csr.tocsc(), vocab, idf)

    def __len__(self) -> int:
        return len(self.ids)

    def ceiling(self, tokens: Sequence[str]) -> float:
        """A query's reference score: the sum of its distinct terms' IDF, a term the index has
        never seen counting with the largest possible IDF. A document matching every term once at
        average length scores about this much, so ``score / ceiling`` says how much of the query
        a document covers (fusion uses it to weigh the lexical list per query)."""
        n = len(self.ids)
        if not n:
            return 0.0
        unseen = float(np.log1p((n + 0.5) / 0.5))
        return float(sum(self.idf[self.vocab[t]] if t in self.vocab else unseen for t in set(tokens)))

    def scores(self, tokens: Sequence[str]) -> np.ndarray:
        """BM25 score of every document (0 where no query term occurs). Repeated query terms
        count once: a query is a set of terms."""
        cols = sorted({self.vocab[t] for t in tokens if t in self.vocab})
        if not cols or not self.ids:
            return np.zeros(len(self.ids), dtype=np.float32)
        return np.asarray(self._matrix[:, cols].sum(axis=1)).ravel()

    def search(self, tokens: Sequence[str], k: int, filters: SearchFilters | None = None) -> list[Hit]:
        scores = self.scores(tokens)
        candidates = np.flatnonzero(scores > 0)
        if candidates.size == 0 or k <= 0:
            return []
        use_filter = filters is not None and not filters.is_empty()
        if not use_filter and candidates.size > k:
            top = candidates[np.argpartition(-scores[candidates], k - 1)[:k]]
        else:
            top = candidates
        order = top[np.argsort(-scores[top], kind="stable")]
        hits: list[Hit] = []
        for i in order:
            meta = self.metas[i]
            if use_filter and not filters.matches(meta):  # type: ignore[union-attr]
                continue
            hits.append(Hit(self.ids[i], float(scores[i]), len(hits) + 1, meta))
            if len(hits) >= k:
                break
        return hits
