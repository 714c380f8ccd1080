"""API resident memory after start-up: ``aura serve`` on a free loopback port with the 12-report
store, wait for /readyz (warm-up done: embedder, Kiwi, Milvus, lexical and SOP indexes,
policies), then read VmRSS of the server process (milvus-lite 3 serves the embedded Milvus from a
thread of this process, so its memory is included) and of any child processes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from app.bench.common import rss_mb


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int(next(ln for ln in (entry / "status").read_text().splitlines() if ln.startswith("PPid:")).split()[1])
        except (OSError, StopIteration, ValueError):
            continue
        if ppid == pid:
            out.append(int(entry.name))
            out.extend(children(int(entry.name)))
    return out


def bench_api_memory(data_dir: Path, timeout_s: float = 300) -> dict[str, Any]:
    port = free_port()
    env = {**os.environ, "AURA_DATA_DIR": str(data_dir), "AURA_LLM_PROVIDER": "none", "HF_HUB_OFFLINE": "1"}
    env.pop("AURA_DATABASE_URL", None)
    env.pop("AURA_MILVUS_URI", None)
    t0 = time.perf_counter()
    log = open(data_dir / "serve.log", "w")  # noqa: SIM115 - a pipe nobody reads would block the server's logging
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
    )
    try:
        ready = False
        while time.perf_counter() - t0 < timeout_s and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as r:
                    if r.status == 200:
                        ready = True
                        break
            except OSError:
                pass
            time.sleep(0.25)
        ready_s = time.perf_counter() - t0
        if not ready:
            err = (data_dir / "serve.log").read_text()[-500:]
            return {"figure": "api_memory", "error": f"not ready after {ready_s:.0f} s {err}"}
        time.sleep(1.0)
        kids = {pid: rss_mb(pid) for pid in children(proc.pid)}
        main = rss_mb(proc.pid)
        return {
            "figure": "api_memory",
            "ready_s": round(ready_s, 1),
            "api_rss_mb": main,
            "child_rss_mb": round(sum(kids.values()), 1),
            "children": len(kids),
            "total_rss_mb": round(main + sum(kids.values()), 1),
        }
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
