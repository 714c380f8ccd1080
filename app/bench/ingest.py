"""Ingestion throughput: parse-only pages/s, then full ingest (parse, chunk, Kiwi terms, embed,
SQLite + Milvus) pages/s and chunks/s into a fresh temporary store.

Warm (default): passage vectors come from the shared embedding cache (``AURA_EMBEDDING_CACHE_PATH``,
default ``~/.cache/aura/test-embeddings.sqlite``), so the figure is parsing + storage.
Cold (``--cold``): a new empty cache file in the temporary dir, so every passage is embedded.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from app.bench.common import SHARED_EMBED_CACHE, load1
from app.container import Container
from app.ingest.documents import parse_document
from app.ingest.loaders import load_document
from app.ingest.pipeline import expand_paths
from app.settings import Settings


def parse_only(files: list[Path]) -> tuple[dict, int]:
    t0 = time.perf_counter()
    pages = 0
    for f in files:
        doc = load_document(f)
        pages += len(doc.pages)
        parse_document(doc)
    parse_s = time.perf_counter() - t0
    return {"figure": "parse", "files": len(files), "pages": pages, "seconds": round(parse_s, 2),
            "pages_per_s": round(pages / parse_s, 1), "load1": load1()}, pages


def ingest_row(summary, pages: int, secs: float, cold: bool, cache: Path | None) -> dict:  # noqa: ANN001
    return {
        "figure": "ingest",
        "embedding_cache": "cold (new temp file)" if cold else f"warm ({cache})",
        "files": summary.files,
        "reports": summary.reports,
        "findings": summary.findings,
        "chunks": summary.chunks,
        "errors": len(summary.errors),
        "pages": pages,
        "seconds": round(secs, 1),
        "pages_per_s": round(pages / secs, 2),
        "chunks_per_s": round(summary.chunks / secs, 2),
        "load1": load1(),
    }


def bench_ingest(paths: list[Path], cold: bool = False, parse: bool = True) -> Iterator[dict]:
    """Parse-only and full-ingest throughput on a fresh store."""
    files = list(expand_paths(paths))
    if parse:
        row, pages = parse_only(files)
        yield row
    else:
        pages = sum(len(load_document(f).pages) for f in files)
    with tempfile.TemporaryDirectory(prefix="aura-bench-") as tmp:
        cache = Path(tmp) / "embeddings.sqlite" if cold else SHARED_EMBED_CACHE
        settings = Settings(_env_file=None, data_dir=Path(tmp), embedding_cache_path=cache, llm_provider="none")
        services = Container(settings)
        services.embedder.embed_queries(["warm-up"])
        t0 = time.perf_counter()
        summary = services.ingestor.ingest(files)
        secs = time.perf_counter() - t0
        services.close()
    yield ingest_row(summary, pages, secs, cold, cache)
