"""``aura bench all``: every figure of ``make bench`` in one process (one 12-report store ingested
once, warm cache), each printed as a JSON line and appended to a results file that
``aura bench report`` turns into BENCHMARKS.md."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from app.bench.answers import answer_rows
from app.bench.api_memory import bench_api_memory
from app.bench.common import (
    BAI_REPORTS,
    ROOT,
    SHARED_EMBED_CACHE,
    SOP_DIR,
    close_store,
    load1,
    machine,
)
from app.bench.ingest import ingest_row, parse_only
from app.bench.latency import bench_latency, milvus_search_ms, question_sets, summarize
from app.bench.llm_budget import bench_llm_budget
from app.bench.pages import bench_pages
from app.container import Container
from app.ingest.pipeline import expand_paths
from app.ingest.sop import ingest_sop_dir
from app.settings import Settings

SCALE_SCRIPT = ROOT / "bench" / "retrieval_scale.py"


def scale_rows(plan: list[str]) -> Iterator[dict]:
    """bench/retrieval_scale.py (the retrieval engineer's) for each BACKEND:SIZE of ``plan``,
    one JSON line each."""
    for item in plan:
        backend, size = item.split(":")
        cmd = [sys.executable, str(SCALE_SCRIPT), "--sizes", size, "--backends", backend]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        for line in proc.stdout.splitlines():
            if line.startswith("{"):
                row = json.loads(line)
                yield {"figure": "scale", **row, "load1": load1(),
                       "command": f"python bench/retrieval_scale.py --sizes {size} --backends {backend}"}


def bench_all(runs: int = 3, savers: tuple[str, ...] = ("memory", "sqlite"), scale: list[str] | None = None,
              emit: Callable[[dict], None] = print) -> None:
    t_start = time.perf_counter()
    emit({**machine(), "command": "aura bench all"})
    files = list(expand_paths([BAI_REPORTS]))
    row, pages = parse_only(files)
    emit({**row, "command": "aura bench ingest ../shared/data/bai-reports"})

    with tempfile.TemporaryDirectory(prefix="aura-bench-") as tmp_s:
        tmp = Path(tmp_s)
        data_dir = tmp / "var"
        settings = Settings(_env_file=None, data_dir=data_dir, embedding_cache_path=SHARED_EMBED_CACHE, llm_provider="none")
        services = Container(settings)
        services.embedder.embed_queries(["warm-up"])
        t0 = time.perf_counter()
        summary = services.ingestor.ingest(files)
        secs = time.perf_counter() - t0
        emit({**ingest_row(summary, pages, secs, False, SHARED_EMBED_CACHE), "command": "aura bench ingest ../shared/data/bai-reports"})
        ingest_sop_dir(SOP_DIR, services.sessions)

        emit({"figure": "milvus_after_ingest", "load1": load1(), "command": "aura bench all",
              **summarize(milvus_search_ms(services, question_sets()["deep"]))})

        for row in bench_latency(services, tmp, runs=runs, savers=savers):
            emit({**row, "command": f"aura bench latency --runs {runs}"})
        for row in bench_llm_budget(services):
            emit({**row, "command": "aura bench llm-budget"})
        for row in answer_rows(services):
            emit(row)
        for row in bench_pages(services):
            emit(row)
        close_store(services)  # Milvus Lite: one process per data dir; the API gets it next

        emit({**bench_api_memory(data_dir), "load1": load1(), "command": "aura bench api-memory"})

    for row in scale_rows(scale or []):
        emit(row)
    emit({"figure": "total", "seconds": round(time.perf_counter() - t_start, 1), "load1": load1()})
