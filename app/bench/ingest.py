"""Benchmarks that print figures (``aura bench ...``)."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from app.ingest.loaders import load_document
from app.ingest.pipeline import expand_paths


def bench_ingest(paths: list[Path], cached: bool = False) -> Iterator[dict]:
    """Parse-only and full-ingest throughput on a fresh store (embedding cache off unless asked)."""
    from app.ingest.documents import parse_document
    from app.services import Services
    from app.settings import Settings

    files = list(expand_paths(paths))
    t0 = time.perf_counter()
    pages = 0
    for f in files:
        doc = load_document(f)
        pages += len(doc.pages)
        parse_document(doc)
    parse_s = time.perf_counter() - t0
    yield {"figure": "parse", "files": len(files), "pages": pages, "seconds": round(parse_s, 2), "pages_per_s": round(pages / parse_s, 1)}

    with tempfile.TemporaryDirectory(prefix="aura-bench-") as tmp:
        settings = Settings(data_dir=Path(tmp), embedding_cache=cached)
        services = Services(settings)
        services.embedder.embed_queries(["warm-up"])
        t0 = time.perf_counter()
        summary = services.ingestor.ingest(files)
        secs = time.perf_counter() - t0
        services.close()
    yield {
        "figure": "ingest",
        "embedding_cache": cached,
        "files": summary.files,
        "reports": summary.reports,
        "findings": summary.findings,
        "chunks": summary.chunks,
        "errors": len(summary.errors),
        "pages": pages,
        "seconds": round(secs, 1),
        "pages_per_s": round(pages / secs, 2),
        "chunks_per_s": round(summary.chunks / secs, 2),
    }
