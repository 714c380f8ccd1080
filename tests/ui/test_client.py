"""The UI's API client against the real FastAPI app (a TestClient is an httpx.Client), and the
UI's pure helpers: SSE parsing, configuration, error sentences, quote highlighting, strings."""

from __future__ import annotations

import io
import string
import time

import httpx
import pytest
from docx import Document
from fastapi.testclient import TestClient

from app.api import create_app
from app.container import Container
from app.settings import Settings
from app.ui.citations import highlight_html, locate, passage_html
from app.ui.client import ApiClient, ApiError, Event, parse_sse
from app.ui.config import load_config
from app.ui.errors import describe
from app.ui.i18n import NODES, SECTIONS, STRINGS
from tests.conftest import EMBED_CACHE, SAMPLES
from tests.ui.conftest import build_store

QUESTION = "가람시 수의계약 분할 문제 분석해줘"


@pytest.fixture(scope="module")
def http(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("client-store")
    key_file = build_store(data_dir)
    services = Container(Settings(data_dir=data_dir, embedding_cache_path=EMBED_CACHE))
    with TestClient(create_app(services)) as tc:
        yield tc, key_file.read_text().strip()
    services.close()


@pytest.fixture(scope="module")
def api(http) -> ApiClient:
    tc, key = http
    return ApiClient("http://testserver", key, http=tc)


@pytest.fixture(scope="module")
def deep_turn(api) -> dict:
    return api.chat(QUESTION, "client-deep", "deep")


# -- against the app -----------------------------------------------------------------------------
def test_ready(api):
    assert api.ready() == {"ready": True, "checks": {"sql": "ok", "sop": "ok", "vectors": "ok", "embedder": "ok"}}


def test_deep_answer_quotes_are_found_in_their_chunks(api, deep_turn):
    assert deep_turn["track"] == "deep" and "[1]" in deep_turn["answer"]
    assert deep_turn["verification"]["grounded"] is True
    for e in deep_turn["evidence"]:
        chunk = api.chunk(e["chunk_id"])
        assert chunk["report_title"] == e["report"] and chunk["page"] == e["page"]
        html, found = passage_html(chunk, e["quote"])
        assert found and '<mark class="aura-quote"' in html, e


def test_stream_then_report_draft_edit_and_export(api):
    events = list(api.chat_stream(QUESTION, "client-stream", "auto"))
    names = [e.name for e in events]
    assert names[0] == "step" and names[-1] == "done" and "evidence" in names
    done = events[-1].data
    assert done["evidence"] and done["thread_id"] == "client-stream"
    finished = [e.data["node"] for e in events if e.name == "step" and e.data["status"] == "finished"]
    assert finished == [s["node"] for s in done["steps"]]

    events = list(api.chat_stream("보고서 초안 작성해줘", "client-stream"))
    trigger = next(e for e in events if e.name == "report_trigger")
    assert events[-1].name == "done" and events[-1].data["report_id"] == trigger.data["report_id"]
    report_id = trigger.data["report_id"]

    draft = api.report(report_id)
    assert draft["sections"] == trigger.data["draft"]["sections"]
    sections = [dict(s) for s in draft["sections"]]
    sections[-1]["text"] += "\n\n감사인 추가 의견: 분할계약 재발 방지 교육 필요"
    saved = api.save_report(report_id, draft["title"] + " (수정)", sections)
    assert saved["sections"][-1]["text"].endswith("교육 필요") and saved["title"].endswith("(수정)")

    md = api.export_report(report_id, "md").decode()
    assert md.startswith(f"# {saved['title']}") and "감사인 추가 의견: 분할계약 재발 방지 교육 필요" in md
    docx = Document(io.BytesIO(api.export_report(report_id, "docx")))
    assert any("감사인 추가 의견" in p.text for p in docx.paragraphs)


def test_threads_list_detail_delete(api, deep_turn):
    assert "client-deep" in [t["id"] for t in api.threads()]
    detail = api.thread("client-deep")
    assert [m["role"] for m in detail["messages"]][:2] == ["user", "assistant"]
    api.delete_thread("client-deep")
    with pytest.raises(ApiError) as exc:
        api.thread("client-deep")
    assert exc.value.status == 404
    assert describe(exc.value) == "찾을 수 없습니다: thread 'client-deep' not found"


def test_upload_job_results(api):
    accepted = api.upload([("sample_numbered.txt", (SAMPLES / "sample_numbered.txt").read_bytes())])
    deadline = time.monotonic() + 60
    while (job := api.job(accepted["job_id"]))["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline, job
        time.sleep(0.2)
    assert job["status"] == "done"
    assert [(f["file"], f["status"]) for f in job["files"]] == [("sample_numbered.txt", "unchanged")]

    with pytest.raises(ApiError) as exc:
        api.upload([("tool.exe", b"MZ")])
    assert exc.value.status == 415 and describe(exc.value, "en").startswith("Unsupported file type: unsupported file type '.exe'")


def test_findings_filters_and_paging(api):
    garam = api.findings(institution="가람시", year=None, disposition="")
    assert garam["total"] == 3 and {f["institution"] for f in garam["items"]} == {"가람시"}
    everything = api.all_findings()
    assert len(everything) == api.findings(limit=1)["total"] >= 9
    assert api.all_findings(cap=2) == everything[:2]


def test_errors_are_sentences(api, http):
    tc, _ = http
    bad = ApiClient("http://testserver", "aura_" + "x" * 43, http=tc)
    with pytest.raises(ApiError) as exc:
        bad.threads()
    assert exc.value.status == 401 and describe(exc.value) == "API 키가 거부되었습니다: invalid API key"

    with pytest.raises(ApiError) as exc:
        list(api.chat_stream("", None))
    assert exc.value.status == 422 and exc.value.detail.startswith("message: ")

    with pytest.raises(ApiError) as exc:
        api.report("no-such-draft")
    assert exc.value.status == 404

    with pytest.raises(ApiError) as exc:
        api.chunk("no-such-chunk")
    assert describe(exc.value, "en") == "Not found: chunk 'no-such-chunk' not found"


def test_unreachable_api():
    client = ApiClient("http://127.0.0.1:9", "aura_key", http=httpx.Client(base_url="http://127.0.0.1:9", timeout=2))
    for call in (client.threads, client.ready, lambda: list(client.chat_stream("안녕", None))):
        with pytest.raises(ApiError) as exc:
            call()
        assert exc.value.status is None
        assert describe(exc.value).startswith("API 서버에 연결할 수 없습니다 (ConnectError (http://127.0.0.1:9))")


def test_error_sentences_by_status():
    assert describe(ApiError(503, "vector store unavailable: down")) == "검색 저장소를 사용할 수 없습니다: vector store unavailable: down"
    assert describe(ApiError(400, "empty message"), "en") == "The request was refused (400): empty message"
    assert describe(ApiError(500, "internal error: KeyError")) == "서버 오류 (500): internal error: KeyError"


# -- pure helpers --------------------------------------------------------------------------------
def test_parse_sse():
    lines = [": keep-alive", "event: step", 'data: {"node": "route",', 'data: "status": "started"}', "",
             "event: done", 'data: {"answer": "네"}', "", "", 'data: {"x": 1}']
    assert list(parse_sse(iter(lines))) == [
        Event("step", {"node": "route", "status": "started"}), Event("done", {"answer": "네"}), Event("message", {"x": 1}),
    ]


def test_config_key_sources(tmp_path):
    key_file = tmp_path / "ui.key"
    key_file.write_text("aura_from_file\n")
    def config(**env: str):
        with pytest.MonkeyPatch.context() as mp:
            for name in ("AURA_API_KEY", "AURA_API_KEY_FILE", "AURA_API_URL", "AURA_DATA_DIR"):
                mp.delenv(name, raising=False)
            for name, value in env.items():
                mp.setenv(name, value)
            return load_config(Settings(_env_file=None))

    assert config(AURA_API_KEY="aura_env", AURA_API_KEY_FILE=str(key_file)).api_key == "aura_env"
    assert config(AURA_API_KEY_FILE=str(key_file)).api_key == "aura_from_file"
    default = config(AURA_DATA_DIR=str(tmp_path), AURA_API_URL="http://h:1/")
    assert (default.api_key, default.api_url, default.key_file) == ("aura_from_file", "http://h:1", key_file)
    missing = config(AURA_DATA_DIR=str(tmp_path / "none"))
    assert missing.api_key is None and missing.api_url == "http://127.0.0.1:8000"


def test_locate_quotes():
    text = "또한 ｢지침｣은 같은 사업의 물품을\n여러 건으로 나누어 수의계약 한도 이하로 낮추는 것을 금지하고 있다."
    exact = locate(text, "같은 사업의 물품을")
    assert text[exact.start:exact.end] == "같은 사업의 물품을"
    joined = locate(text, "물품을 여러 건으로 나누어")  # the analyst joined the lines
    assert joined.found and text[joined.start:joined.end] == "물품을\n여러 건으로 나누어"
    assert not locate(text, "전혀 없는 문장").found and not locate(text, "").found
    html, found = highlight_html("<b>A</b> & 감사", "& 감사")
    assert found and html == '&lt;b&gt;A&lt;/b&gt; <mark class="aura-quote" id="quote">&amp; 감사</mark>'
    html, found = passage_html({"heading": "보고서 > 지적 제목", "text": "본문"}, "지적 제목")
    assert found and '<div class="aura-heading">보고서 &gt; <mark' in html


def test_strings_match_in_both_languages():
    fields = {lang: {k: {f for _, f, _, _ in string.Formatter().parse(v) if f} for k, v in s.items()} for lang, s in STRINGS.items()}
    assert fields["ko"] == fields["en"]
    assert NODES["ko"].keys() == NODES["en"].keys() and SECTIONS["ko"].keys() == SECTIONS["en"].keys()


def test_the_ui_imports_no_store_code():
    """The UI reaches the stores only through the API (it reads its own settings from the one
    settings class)."""
    import ast
    from pathlib import Path

    import app.ui

    for path in Path(app.ui.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert not name.startswith("app.") or name.startswith(("app.ui", "app.settings")), (path.name, name)
