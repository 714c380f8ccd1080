"""app.keys and the `aura keys` commands."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from app.cli import app as cli
from app.db.models import ApiKey
from app.keys import KeyCommandError, create_key, list_keys, revoke_key, verify_key
from app.sql.validator import SqlRejected


def test_only_the_hash_is_stored(services):
    info, key = create_key(services.sessions, "auditor")
    assert key.startswith("aura_") and len(key) == 5 + 43 and info.prefix == key[:12]
    with services.sessions() as s:
        row = s.scalars(select(ApiKey)).one()
        assert row.key_hash == hashlib.sha256(key.encode()).hexdigest()
        assert key not in (row.key_hash, row.prefix, row.name)
    assert verify_key(services.sessions, key)[0].name == "auditor"
    assert verify_key(services.sessions, key[:-1] + ("A" if key[-1] != "A" else "B")) == (None, "invalid API key")


def test_names_revoke_and_reuse(services):
    create_key(services.sessions, "team")
    with pytest.raises(KeyCommandError, match="active key named 'team'"):
        create_key(services.sessions, "team")
    assert revoke_key(services.sessions, "team") == 1
    assert revoke_key(services.sessions, "team") == 0
    _, key = create_key(services.sessions, "team")
    assert verify_key(services.sessions, key)[0] is not None
    assert [k.revoked_at is None for k in list_keys(services.sessions)] == [False, True]


def test_cli(tmp_path, monkeypatch):
    monkeypatch.setenv("AURA_DATA_DIR", str(tmp_path / "var"))
    runner = CliRunner()
    created = runner.invoke(cli, ["keys", "create", "alice"])
    assert created.exit_code == 0, created.output
    key = created.stdout.strip().splitlines()[-1]
    assert key.startswith("aura_")
    listed = runner.invoke(cli, ["keys", "list", "--json"])
    assert '"name": "alice"' in listed.stdout and key not in listed.stdout
    assert runner.invoke(cli, ["keys", "create", "alice"]).exit_code == 1
    assert runner.invoke(cli, ["keys", "revoke", "alice"]).exit_code == 0
    assert runner.invoke(cli, ["keys", "revoke", "alice"]).exit_code == 1


def test_sql_fast_track_cannot_read_the_api_tables(api_services, alice):
    """Key hashes, thread owners, jobs and drafts are not on the read-only SQL allow-list."""
    for table in ("api_credentials", "api_threads", "api_ingest_jobs", "api_report_drafts"):
        with pytest.raises(SqlRejected):
            api_services.sql.run(f"SELECT * FROM {table}")
