"""`aura keys ensure NAME --file PATH`: the key `make run` hands to the UI."""

from __future__ import annotations

import stat

from typer.testing import CliRunner

from app.cli import app as cli
from app.keys import list_keys, verify_key


def test_ensure_writes_once_with_mode_0600(tmp_path, monkeypatch, services):
    monkeypatch.setenv("AURA_DATA_DIR", str(services.settings.data_dir))
    path = tmp_path / "keys" / "ui.key"
    runner = CliRunner()
    first = runner.invoke(cli, ["keys", "ensure", "ui", "--file", str(path)])
    assert first.exit_code == 0, first.output
    key = path.read_text().strip()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert verify_key(services.sessions, key)[0].name == "ui"

    again = runner.invoke(cli, ["keys", "ensure", "ui", "--file", str(path)])
    assert again.exit_code == 0 and path.read_text().strip() == key
    assert [k.name for k in list_keys(services.sessions)] == ["ui"]


def test_a_lost_file_replaces_the_key(tmp_path, monkeypatch, services):
    monkeypatch.setenv("AURA_DATA_DIR", str(services.settings.data_dir))
    path = tmp_path / "ui.key"
    runner = CliRunner()
    assert runner.invoke(cli, ["keys", "ensure", "ui", "--file", str(path)]).exit_code == 0
    old = path.read_text().strip()
    path.unlink()
    assert runner.invoke(cli, ["keys", "ensure", "ui", "--file", str(path)]).exit_code == 0
    new = path.read_text().strip()
    assert new != old
    assert verify_key(services.sessions, old) == (None, "API key has been revoked")
    assert verify_key(services.sessions, new)[0] is not None
