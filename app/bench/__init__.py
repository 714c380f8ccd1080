"""Benchmarks that print figures (``aura bench ...``); ``make bench`` runs them all and writes
BENCHMARKS.md. Each figure is one JSON line."""

from app.bench.ingest import bench_ingest

__all__ = ["bench_ingest"]
