"""AURA's HTTP API (FastAPI)."""

from app.api.main import create_app

__all__ = ["create_app"]
