"""The ``aura bench`` commands. Each prints one JSON line per figure.

Each command imports its benchmark on use (they load the container, Milvus Lite, Kiwi and the
embedder), so ``aura --help`` stays fast.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results"


def _emit(row: dict) -> None:
    sys.stdout.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()


def register(bench_app: typer.Typer) -> None:
    @bench_app.command("ingest")
    def ingest(
        paths: Annotated[list[Path], typer.Argument(help="Files or directories to ingest.")],
        cold: Annotated[bool, typer.Option("--cold", help="Empty embedding cache: embed every passage (~10 min for the 12 reports on 2 cores).")] = False,
        out: Annotated[Path | None, typer.Option(help="Also append the JSON lines to this file.")] = None,
    ) -> None:
        """Parse-only pages/s, then ingest into a fresh temporary store: pages/s and chunks/s.
        Warm by default (the shared embedding cache, AURA_EMBEDDING_CACHE_PATH)."""
        from app.bench.ingest import bench_ingest

        for row in bench_ingest(paths, cold=cold):
            row["command"] = "aura bench ingest " + " ".join(map(str, paths)) + (" --cold" if cold else "")
            _emit(row)
            if out:
                with out.open("a") as fh:
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")

    @bench_app.command("latency")
    def latency(
        runs: Annotated[int, typer.Option(min=1, help="Passes over each question set.")] = 3,
        saver: Annotated[list[str], typer.Option(help="Checkpointer(s): memory, sqlite.")] = ["memory", "sqlite"],  # noqa: B006
    ) -> None:
        """Per-track turn latency (offline, fresh threads) and the retrieval floor, on the 12 real
        reports ingested into a temporary store (warm embedding cache)."""
        from app.bench.common import real_store
        from app.bench.latency import bench_latency

        with tempfile.TemporaryDirectory(prefix="aura-bench-") as tmp:
            services, _ = real_store(Path(tmp) / "var")
            for row in bench_latency(services, Path(tmp), runs=runs, savers=tuple(saver)):
                _emit(row)
            services.close()

    @bench_app.command("llm-budget")
    def llm_budget() -> None:
        """LLM calls per track and per loop iteration (counting fake model, real policies and graph)."""
        from app.bench.common import real_store
        from app.bench.llm_budget import bench_llm_budget

        with tempfile.TemporaryDirectory(prefix="aura-bench-") as tmp:
            services, _ = real_store(Path(tmp) / "var")
            for row in bench_llm_budget(services):
                _emit(row)
            services.close()

    @bench_app.command("answers")
    def answers(
        out: Annotated[Path | None, typer.Option(help="Also write the JSON lines to this file (replaced), e.g. bench/results/answers-baseline.jsonl.")] = None,
    ) -> None:
        """Answer quality over the blind gold set (data/eval/answers), per split and kind, on the 12
        real reports ingested into a temporary store."""
        from app.bench.answers import answer_rows
        from app.bench.common import real_store

        rows = []
        with tempfile.TemporaryDirectory(prefix="aura-bench-") as tmp:
            services, _ = real_store(Path(tmp) / "var")
            for row in answer_rows(services):
                _emit(row)
                rows.append(row)
            services.close()
        if out:
            out.write_text("".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in rows), encoding="utf-8")

    @bench_app.command("pages")
    def pages(passages: Annotated[int, typer.Option(min=1, help="Cited passages to render.")] = 60) -> None:
        """Cited-page rendering (GET /v1/chunks/{id}/page) p50/p95, warm and cached, on the 12
        real reports ingested into a temporary store."""
        from app.bench.common import real_store
        from app.bench.pages import bench_pages

        with tempfile.TemporaryDirectory(prefix="aura-bench-") as tmp:
            services, _ = real_store(Path(tmp) / "var")
            for row in bench_pages(services, passages):
                _emit(row)
            services.close()

    @bench_app.command("api-memory")
    def api_memory() -> None:
        """Resident memory of `aura serve` after start-up on the 12-report store."""
        from app.bench.api_memory import bench_api_memory
        from app.bench.common import close_store, real_store

        with tempfile.TemporaryDirectory(prefix="aura-bench-") as tmp:
            services, _ = real_store(Path(tmp) / "var")
            close_store(services)
            _emit(bench_api_memory(Path(tmp) / "var"))

    @bench_app.command("all")
    def all_(
        out: Annotated[Path, typer.Option(help="Results file (JSON lines), replaced.")] = RESULTS / "latest.jsonl",
        runs: Annotated[int, typer.Option(min=1)] = 3,
        scale: Annotated[list[str], typer.Option(help="BACKEND:CHUNKS runs of bench/retrieval_scale.py ('none': skip).")] = ["scipy:10000", "scipy:100000", "dense:10000"],  # noqa: B006
    ) -> None:
        """Every `make bench` figure in one run (one store ingested once); JSON lines to stdout and OUT."""
        from app.bench.run import bench_all

        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w") as fh:

            def emit(row: dict) -> None:
                _emit(row)
                fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
                fh.flush()

            bench_all(runs=runs, scale=[s for s in scale if s != "none"], emit=emit)

    @bench_app.command("report")
    def report(
        results: Annotated[Path, typer.Option(help="Directory of results files.")] = RESULTS,
        out: Annotated[Path, typer.Option(help="Markdown file to write.")] = RESULTS.parent.parent / "BENCHMARKS.md",
    ) -> None:
        """Write BENCHMARKS.md from bench/results/*.jsonl and bench/reliability.md."""
        from app.bench.report import write_report

        write_report(results, out)
        typer.echo(f"wrote {out}")
