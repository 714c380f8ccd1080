"""The UI tests' store: the fictional samples and the SOP ingested into a temporary data dir
(embeddings from the shared cache), with an API key written to a key file like `make run`
does."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.sop import ingest_sop_dir
from app.keys import ensure_key_file
from app.services import Services
from app.settings import Settings
from tests.conftest import EMBED_CACHE, SAMPLES, SOP_DIR


def build_store(data_dir: Path) -> Path:
    """Ingest samples + SOP into DATA_DIR, write a key to DATA_DIR/ui.key; the store is closed
    afterwards (another process may open it). Returns the key file."""
    services = Services(Settings(data_dir=data_dir, embedding_cache_path=EMBED_CACHE))
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
    """(data dir, key file) of a closed store for a server process."""
    data_dir = tmp_path_factory.mktemp("ui-store")
    return data_dir, build_store(data_dir)
