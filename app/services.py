"""The services a graph and the surfaces are given, built once from Settings.

Heavy parts (embedding model, Milvus) are created on first use, so commands that need only
SQL (``aura findings``) start fast and never open the Milvus Lite directory.
"""

from __future__ import annotations

from functools import cached_property

from sqlalchemy.orm import Session, sessionmaker

from app.db.session import make_engine, make_session_factory
from app.embeddings.base import Embedder, make_embedder
from app.ingest.pipeline import Ingestor
from app.settings import Settings
from app.vectorstore.milvus import MilvusVectorStore


class Services:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.settings.ensure_dirs()
        self.engine = make_engine(self.settings.resolved_database_url)
        self.sessions: sessionmaker[Session] = make_session_factory(self.engine)

    @cached_property
    def embedder(self) -> Embedder:
        return make_embedder(self.settings)

    @cached_property
    def vectors(self) -> MilvusVectorStore:
        s = self.settings
        return MilvusVectorStore(
            s.resolved_milvus_uri,
            s.milvus_collection,
            self.embedder.dim,
            s.milvus_token.get_secret_value() if s.milvus_token else None,
        )

    @cached_property
    def ingestor(self) -> Ingestor:
        s = self.settings
        return Ingestor(self.sessions, self.embedder, self.vectors, s.chunk_chars, s.chunk_overlap)

    def close(self) -> None:
        if "vectors" in self.__dict__:
            self.vectors.close()
        self.engine.dispose()
