"""The Streamlit script without a browser (streamlit.testing): what an auditor sees when the
key is missing or the API is down: sentences, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import app.ui

SCRIPT = str(Path(app.ui.__file__).with_name("streamlit_app.py"))


@pytest.fixture
def env(monkeypatch, tmp_path):
    for name in ("AURA_API_KEY", "AURA_API_KEY_FILE", "AURA_API_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AURA_DATA_DIR", str(tmp_path))
    return monkeypatch


def _run() -> AppTest:
    at = AppTest.from_file(SCRIPT, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_missing_key_says_how_to_make_one(env, tmp_path):
    at = _run()
    assert [e.value for e in at.error] == [
        f"API 키가 없습니다. `AURA_API_KEY`를 설정하거나 `aura keys ensure ui --file {tmp_path / 'ui.key'}`로 키 파일을 만드세요."
    ]


def test_api_down_is_a_sentence(env):
    env.setenv("AURA_API_KEY", "aura_" + "k" * 43)
    env.setenv("AURA_API_URL", "http://127.0.0.1:9")
    at = _run()
    messages = [e.value for e in at.error]
    assert messages and all(m.startswith("API 서버에 연결할 수 없습니다 (ConnectError (http://127.0.0.1:9))") for m in messages)
    assert at.chat_input  # the page still renders
