"""Settings of the HTTP API (environment prefix AURA_, like app.settings.Settings)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class ApiSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="AURA_", env_file=".env", extra="ignore")

    max_upload_mb: float = Field(50, gt=0, description="Largest upload (all files of one request together), in MB.")
    thread_title_chars: int = Field(60, ge=10, le=128, description="Thread titles: the first message, cut to this length.")

    @property
    def max_upload_bytes(self) -> int:
        return int(self.max_upload_mb * 1024 * 1024)
