"""Where the UI finds the API and its key (environment only; the UI reads no stores)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_API_URL = "http://127.0.0.1:8000"


@dataclass(frozen=True)
class UiConfig:
    api_url: str
    api_key: str | None
    key_file: Path
    """Where the key was looked for when AURA_API_KEY is not set (shown when it is missing)."""


def key_file_path(env: Mapping[str, str]) -> Path:
    if path := env.get("AURA_API_KEY_FILE"):
        return Path(path)
    return Path(env.get("AURA_DATA_DIR") or "var") / "ui.key"


def load_config(env: Mapping[str, str] | None = None) -> UiConfig:
    """``AURA_API_URL``; the key from ``AURA_API_KEY``, else the first line of the key file
    (``AURA_API_KEY_FILE``, default ``<AURA_DATA_DIR>/ui.key``)."""
    env = os.environ if env is None else env
    path = key_file_path(env)
    key = (env.get("AURA_API_KEY") or "").strip() or None
    if key is None:
        try:
            key = path.read_text(encoding="utf-8").strip().splitlines()[0].strip() or None
        except (OSError, IndexError):
            key = None
    return UiConfig(api_url=(env.get("AURA_API_URL") or DEFAULT_API_URL).rstrip("/"), api_key=key, key_file=path)
