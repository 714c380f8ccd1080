"""Cited-page rendering: ``GET /v1/chunks/{id}/page`` on the 12 real reports, a quoted span per
cited passage. 'warm': the process has rendered before (pdfium loaded) but the page is not in
the disk cache; 'cached': the same request again (a file read). Through the API app in
process (TestClient: routing, key check, SQL lookups included; no network)."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.api import create_app
from app.bench.common import load1, pctl
from app.db.models import Chunk, Report
from app.keys import create_key

if TYPE_CHECKING:
    from app.container import Container


def _span(text: str) -> tuple[int, int]:
    """A quote as the analyst cites one: the passage's second sentence, else its first 120 characters."""
    ends = [m.end() for m in re.finditer(r"다\.", text)]
    if len(ends) >= 2:
        return ends[0] + 1, ends[1]
    return 0, min(len(text), 120)


def bench_pages(services: Container, passages: int = 60) -> Iterator[dict]:


    with services.sessions() as s:
        rows = s.execute(select(Chunk.id, Chunk.text).join(Report).where(Report.format == "pdf", Chunk.finding_id.is_not(None))
                         .order_by(Chunk.report_id, Chunk.finding_id, Chunk.id)).all()
    step = max(1, len(rows) // passages)
    picked = [(cid, *_span(text)) for cid, text in rows[::step][:passages]]
    shutil.rmtree(services.settings.data_dir / "pages", ignore_errors=True)
    client = TestClient(create_app(services))  # no lifespan: the upload worker is not started
    headers = {"Authorization": f"Bearer {create_key(services.sessions, 'bench-pages')[1]}"}

    def get(cid: str, a: int, b: int) -> tuple[float, str]:
        t0 = time.perf_counter()
        r = client.get(f"/v1/chunks/{cid}/page", params={"start": a, "end": b}, headers=headers)
        ms = (time.perf_counter() - t0) * 1000
        assert r.status_code == 200, r.text
        return ms, r.headers["x-aura-located"]

    warm_up = rows[-1]
    get(warm_up[0], *_span(warm_up[1]))
    warm, located = [], []
    for cid, a, b in picked:
        ms, where = get(cid, a, b)
        warm.append(ms)
        located.append(where)
    cached = [get(cid, a, b)[0] for cid, a, b in picked]
    client.app.state.page_renderer.close()
    base = {"figure": "page_render", "passages": len(picked), "load1": load1(), "command": "aura bench pages"}
    yield {**base, "cache": "warm", "p50_ms": pctl(warm, 50), "p95_ms": pctl(warm, 95),
           "located_full": located.count("full"), "located_partial": located.count("partial"), "not_located": located.count("none")}
    yield {**base, "cache": "cached", "p50_ms": pctl(cached, 50), "p95_ms": pctl(cached, 95)}
