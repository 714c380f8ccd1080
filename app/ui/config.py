"""Where the UI finds the API and its key (from app.settings.Settings; the UI reads no stores)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.settings import Settings


@dataclass(frozen=True)
class UiConfig:
    api_url: str
    api_key: str | None
    key_file: Path
    """Where the key was looked for when AURA_API_KEY is not set (shown when it is missing)."""


def load_config(settings: Settings | None = None) -> UiConfig:
    """``AURA_API_URL``; the key from ``AURA_API_KEY``, else the first line of the key file
    (``AURA_API_KEY_FILE``, default ``<AURA_DATA_DIR>/ui.key``)."""
    settings = settings or Settings()
    path = settings.resolved_api_key_file
    key = (settings.api_key.get_secret_value() if settings.api_key else "").strip() or None
    if key is None:
        try:
            key = path.read_text(encoding="utf-8").strip().splitlines()[0].strip() or None
        except (OSError, IndexError):
            key = None
    return UiConfig(api_url=settings.api_url.rstrip("/"), api_key=key, key_file=path)
