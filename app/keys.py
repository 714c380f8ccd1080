"""API keys: ``aura_<43 url-safe characters>`` (32 random bytes). Only the sha256 of a key is
stored (the keys are random and high-entropy, so a fast hash is enough); a presented key is
found by its prefix and compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import ApiKey

KEY_PREFIX = "aura_"
PREFIX_CHARS = 12
"""How much of a key is stored in clear: 'aura_' and 7 random characters."""


class KeyCommandError(ValueError):
    """A key command cannot be done (duplicate or unknown name); the message says why."""


@dataclass(frozen=True)
class KeyInfo:
    id: int
    name: str
    prefix: str
    created_at: datetime
    revoked_at: datetime | None


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _info(k: ApiKey) -> KeyInfo:
    return KeyInfo(k.id, k.name, k.prefix, k.created_at, k.revoked_at)


def create_key(sessions: sessionmaker[Session], name: str) -> tuple[KeyInfo, str]:
    """A new key for NAME: (its record, the key itself, which is not stored anywhere)."""
    name = name.strip()
    if not name or len(name) > 64:
        raise KeyCommandError("a key name must be 1-64 characters")
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    with sessions() as s:
        if s.scalar(select(ApiKey.id).where(ApiKey.name == name, ApiKey.revoked_at.is_(None))):
            raise KeyCommandError(f"an active key named '{name}' exists (revoke it first)")
        row = ApiKey(name=name, prefix=key[:PREFIX_CHARS], key_hash=_hash(key))
        s.add(row)
        s.commit()
        return _info(row), key


def list_keys(sessions: sessionmaker[Session]) -> list[KeyInfo]:
    with sessions() as s:
        return [_info(k) for k in s.scalars(select(ApiKey).order_by(ApiKey.created_at, ApiKey.id))]


def revoke_key(sessions: sessionmaker[Session], name: str) -> int:
    """Revoke the active keys named NAME; returns how many were revoked."""
    with sessions() as s:
        rows = s.scalars(select(ApiKey).where(ApiKey.name == name, ApiKey.revoked_at.is_(None))).all()
        for k in rows:
            k.revoked_at = datetime.now(UTC)
        s.commit()
        return len(rows)


def verify_key(sessions: sessionmaker[Session], presented: str) -> tuple[KeyInfo | None, str]:
    """(the key, '') when valid; (None, reason) when unknown or revoked."""
    if not presented.startswith(KEY_PREFIX) or len(presented) < PREFIX_CHARS + 8:
        return None, "invalid API key"
    digest = _hash(presented)
    with sessions() as s:
        candidates = s.scalars(select(ApiKey).where(ApiKey.prefix == presented[:PREFIX_CHARS])).all()
        for k in candidates:
            if hmac.compare_digest(k.key_hash, digest):
                return (None, "API key has been revoked") if k.revoked_at else (_info(k), "")
    return None, "invalid API key"


def ensure_key_file(sessions: sessionmaker[Session], name: str, path: Path) -> bool:
    """Create a key NAME and write it to PATH (mode 0600) unless PATH exists; True when created.
    An active key NAME without its file is revoked first: its value cannot be recovered."""
    if path.exists():
        return False
    revoke_key(sessions, name)
    _, key = create_key(sessions, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return True
