"""Shared fixtures for the reliability and security tests: the fictional samples and the SOP
ingested once per session, and agents on that store with the policies a test chooses."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from app.agent.runner import Agent
from app.agent.tools import AgentTools
from app.container import Container
from app.ingest.sop import ingest_sop_dir
from app.policies.fallback import FallbackPolicies
from app.policies.llm import LlmPolicies
from app.settings import Settings
from graph import build_graph
from tests.conftest import EMBED_CACHE, SAMPLES, SOP_DIR


def samples_store(data_dir: Path) -> Container:
    """A Container on ``data_dir`` with the samples and the SOP ingested (LLM off)."""
    services = Container(Settings(_env_file=None, data_dir=data_dir, embedding_cache_path=EMBED_CACHE))
    summary = services.ingestor.ingest([SAMPLES])
    assert summary.errors == [] and summary.findings > 0, summary
    ingest_sop_dir(SOP_DIR, services.sessions)
    return services


@pytest.fixture(scope="session")
def rel_services(tmp_path_factory):
    services = samples_store(tmp_path_factory.mktemp("rel-store"))
    yield services
    services.close()


def offline_policies(services: Container) -> Any:
    """The store's OfflinePolicies (one instance: its router embeds its examples once)."""
    return services.policies.offline


def agent_with(services: Container, llm: LlmPolicies | None) -> Agent:
    """An Agent on ``services`` whose policies are the REAL FallbackPolicies over the store's
    OfflinePolicies, with ``llm`` in front (None: offline only); a fresh in-memory checkpointer."""
    agent = Agent(services, checkpointer=InMemorySaver())
    policies = FallbackPolicies(offline_policies(services), llm)
    agent.graph = build_graph(AgentTools(services, policies), checkpointer=agent.checkpointer)
    return agent


def db_digest(services: Container) -> str:
    """sha256 over the SQLite file and its WAL (the store runs in WAL mode: a write that is not
    checkpointed yet changes only the -wal file)."""
    path = Path(services.settings.data_dir) / "aura.db"
    h = hashlib.sha256()
    for p in (path, path.with_name(path.name + "-wal")):
        h.update(p.read_bytes() if p.exists() else b"")
    return h.hexdigest()
