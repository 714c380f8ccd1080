"""One store for the API tests: the fictional samples and the SOP ingested once per session
(embeddings from the shared cache), an app on it, and two API keys."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.api import create_app
from app.container import Container
from app.ingest.sop import ingest_sop_dir
from app.keys import create_key
from app.settings import Settings
from tests.conftest import EMBED_CACHE, SAMPLES, SOP_DIR


@pytest.fixture(scope="session")
def api_services(tmp_path_factory):
    settings = Settings(data_dir=tmp_path_factory.mktemp("api-store"), embedding_cache_path=EMBED_CACHE)
    services = Container(settings)
    summary = services.ingestor.ingest([SAMPLES])
    assert summary.errors == [] and summary.findings > 0, summary
    ingest_sop_dir(SOP_DIR, services.sessions)
    yield services
    services.close()


@pytest.fixture(scope="session")
def app(api_services):
    return create_app(api_services)


@pytest.fixture(scope="session")
def client(app):
    with TestClient(app) as c:
        yield c


def _headers(services: Container, name: str) -> dict[str, str]:
    _, key = create_key(services.sessions, name)
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="session")
def alice(api_services) -> dict[str, str]:
    """Headers with the key of one auditor."""
    return _headers(api_services, "alice")


@pytest.fixture(scope="session")
def bob(api_services) -> dict[str, str]:
    """Headers with another auditor's key."""
    return _headers(api_services, "bob")
