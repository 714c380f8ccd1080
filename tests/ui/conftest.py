"""The UI tests' store: the fictional samples and the SOP ingested into a temporary data dir
(embeddings from the shared cache), with an API key written to a key file like `make run`
does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.container import Container
from app.ingest.sop import ingest_sop_dir
from app.keys import ensure_key_file
from app.settings import Settings
from tests.conftest import EMBED_CACHE, SAMPLES, SOP_DIR


def build_store(data_dir: Path) -> Path:
    """Ingest samples + SOP into DATA_DIR, write a key to DATA_DIR/ui.key; the store is closed
    afterwards (another process may open it). Returns the key file."""
    services = Container(Settings(data_dir=data_dir, embedding_cache_path=EMBED_CACHE))
    try:
        summary = services.ingestor.ingest([SAMPLES])
        assert summary.errors == [] and summary.findings > 0, summary
        ingest_sop_dir(SOP_DIR, services.sessions)
        key_file = data_dir / "ui.key"
        ensure_key_file(services.sessions, "ui", key_file)
    finally:
        services.close()
    return key_file


@pytest.fixture(scope="session")
def ui_store(tmp_path_factory) -> tuple[Path, Path]:
    """(data dir, key file) of a store for a server process, made the way `make run` makes it:
    by `aura` subprocesses (Milvus Lite stays locked by a process that opened it)."""
    data_dir = tmp_path_factory.mktemp("ui-store")
    key_file = data_dir / "ui.key"
    env = {**os.environ, "AURA_DATA_DIR": str(data_dir), "AURA_EMBEDDING_CACHE_PATH": str(EMBED_CACHE), "HF_HUB_OFFLINE": "1"}
    for args in (["ingest", str(SAMPLES)], ["sop", "ingest", str(SOP_DIR)], ["keys", "ensure", "ui", "--file", str(key_file)]):
        done = subprocess.run([sys.executable, "-m", "app.cli", *args], env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"aura {' '.join(args)}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    return data_dir, key_file
