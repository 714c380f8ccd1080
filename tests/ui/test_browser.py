"""The UI end to end in headless Chromium: `aura serve` on a store with the fictional samples,
`aura ui` on it, and an auditor's path through both: a deep question, its citations, a report
draft edited, saved and exported. Screenshots of each stage go to tests/artifacts/.

Needs Debian's Chromium (never a downloaded browser):
    apt-get install -y chromium fonts-nanum fonts-droid-fallback
"""

from __future__ import annotations

import io
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from docx import Document
from playwright.sync_api import expect

from tests.conftest import EMBED_CACHE, ROOT, SAMPLES

pytestmark = pytest.mark.browser

CHROMIUM = Path(os.environ.get("AURA_CHROMIUM", "/usr/bin/chromium"))
SETUP = "apt-get update && apt-get install -y chromium fonts-nanum fonts-droid-fallback"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = ROOT / "tests" / "artifacts"
TURN_TIMEOUT_MS = 240_000  # a deep turn on two cold cores
UI_TIMEOUT_MS = 30_000
QUESTION = "가람시 수의계약 분할 문제 분석해줘"
EDIT = "감사인 검토 의견: 분할 수의계약 재발 방지를 위한 교육 계획을 확인할 것 (UI 편집 확인)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(log: Path, lines: int = 40) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:]) if log.exists() else ""


def _wait_http(url: str, proc: subprocess.Popen, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"{url}: the process exited with {proc.returncode}\n{_tail(log)}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    pytest.fail(f"{url} not ready after {timeout:.0f} s\n{_tail(log)}")


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the process group the test started (uvicorn's Milvus Lite server included),
    SIGKILL if it does not stop."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    except ProcessLookupError:
        pass


@pytest.fixture(scope="module")
def chromium() -> Path:
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: the browser test needs Debian's Chromium. Run the setup: {SETUP}")
    return CHROMIUM


@pytest.fixture(scope="module")
def servers(chromium, ui_store, tmp_path_factory) -> Iterator[dict[str, str]]:
    """`aura serve` and `aura ui` on free loopback ports; both stopped at teardown."""
    data_dir, key_file = ui_store
    logs = tmp_path_factory.mktemp("ui-logs")
    env = {**os.environ, "AURA_DATA_DIR": str(data_dir), "AURA_EMBEDDING_CACHE_PATH": str(EMBED_CACHE),
           "AURA_API_KEY_FILE": str(key_file), "HF_HUB_OFFLINE": "1"}
    env.pop("AURA_API_KEY", None)
    api_url, ui_port = f"http://127.0.0.1:{_free_port()}", _free_port()
    procs: list[subprocess.Popen] = []

    def start(args: list[str], log: Path) -> subprocess.Popen:
        with log.open("wb") as out:
            proc = subprocess.Popen([sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=env, stdout=out,
                                    stderr=subprocess.STDOUT, start_new_session=True)
        procs.append(proc)
        return proc

    try:
        api = start(["serve", "--host", "127.0.0.1", "--port", api_url.rsplit(":", 1)[1]], logs / "api.log")
        _wait_http(f"{api_url}/readyz", api, logs / "api.log", timeout=240)
        ui = start(["ui", "--api", api_url, "--host", "127.0.0.1", "--port", str(ui_port)], logs / "ui.log")
        _wait_http(f"http://127.0.0.1:{ui_port}/_stcore/health", ui, logs / "ui.log", timeout=90)
        yield {"api": api_url, "ui": f"http://127.0.0.1:{ui_port}/", "logs": str(logs)}
    finally:
        for proc in reversed(procs):
            _stop(proc)


@pytest.fixture
def page(chromium, servers, tmp_path, request):
    from playwright.sync_api import sync_playwright

    expect.set_options(timeout=UI_TIMEOUT_MS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(chromium), args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1360, "height": 1100}, accept_downloads=True, locale="ko-KR",
        )
        context.set_default_timeout(UI_TIMEOUT_MS)
        page = context.new_page()
        try:
            yield page
        finally:
            try:  # the last state, for a failure
                page.screenshot(path=ARTIFACTS / f"ui-last-{request.node.name}.png", timeout=10_000)
            finally:
                context.close()


def _ask(page, text: str) -> None:
    box = page.get_by_test_id("stChatInput").locator("textarea")
    box.wait_for(state="visible")
    box.fill(text)
    box.press("Enter")


def _settled(page) -> None:
    """Wait until the script run is over: no 'running' indicator, no stale elements left from the
    run before (a rerun keeps them until it replaces them)."""
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=stStatusWidget] [data-testid=stStatusWidgetRunningIcon],"
        " [data-testid=stStatusWidgetRunningManIcon]') && !document.querySelector('[data-stale=true]')",
        timeout=TURN_TIMEOUT_MS,
    )


def _stable(locator) -> None:
    """Wait until the element's height has not changed for five animation frames (an expander
    opening), at most 600 frames."""
    locator.evaluate(
        """e => new Promise(done => { let last = -1, same = 0, frames = 0;
             const tick = () => { const h = e.getBoundingClientRect().height;
               same = h === last ? same + 1 : 0; last = h; frames += 1;
               if (same >= 5 || frames > 600) done(); else requestAnimationFrame(tick); };
             tick(); })"""
    )


def _scroll_to_top_of(locator) -> None:
    """Scroll the element to the top of the view and keep it there until the layout is still
    for ten frames (the chat view may scroll itself while it settles), at most 600 frames."""
    locator.evaluate(
        """e => new Promise(done => { let still = 0, frames = 0;
             const tick = () => { const top = e.getBoundingClientRect().top;
               if (Math.abs(top) > 1) { e.scrollIntoView({block: 'start'}); still = 0; } else { still += 1; }
               frames += 1;
               if (still >= 10 || frames > 600) done(); else requestAnimationFrame(tick); };
             tick(); })"""
    )


def _no_exception(page) -> None:
    """A script error would show a Streamlit exception box (with a traceback)."""
    boxes = page.get_by_test_id("stException")
    assert boxes.count() == 0, boxes.first.inner_text()


def _squash(text: str) -> str:
    return "".join(text.split())


def test_auditor_path(page, servers):
    page.goto(servers["ui"])
    page.get_by_text("대화 목록").wait_for()

    # 1. a deep question (track 심층 분석): the answer with numbered citations, verification and the
    #    step timeline
    page.get_by_role("radio", name="심층 분석", exact=True).click()
    _ask(page, QUESTION)
    answer = page.get_by_test_id("stChatMessage").filter(has_text="근거 일치: 예").last
    expect(answer).to_be_visible(timeout=TURN_TIMEOUT_MS)
    _settled(page)
    expect(answer).to_contain_text("[1]")
    expect(answer).to_contain_text("가람시 체육시설관리사업소")
    citations = answer.locator("[class*='st-key-cite-']")
    expect(citations.first).to_be_visible()
    citations.first.scroll_into_view_if_needed()
    page.screenshot(path=ARTIFACTS / "ui-1-answer.png")

    _no_exception(page)
    timeline = answer.locator("details").filter(has_text="처리 방식: deep").last
    timeline.locator("summary").first.click()
    expect(timeline.get_by_text("근거 검색").first).to_be_visible()
    expect(timeline.get_by_text("답변 검증").first).to_be_visible()
    timeline.locator("summary").first.click()

    # 2. citations expand to their passage with the quote marked, report, page and disposition;
    #    the screenshot shows the first whose quote is marked in the passage body
    assert citations.count() >= 2
    shown = None
    for i in range(citations.count()):
        cite = citations.nth(i)
        cite.locator("summary").click()
        mark = cite.locator("mark.aura-quote")
        expect(mark).to_be_visible()
        assert len(_squash(mark.inner_text())) >= 10
        details = cite.inner_text()
        assert "가람시 공공체육시설 물품·용역 계약 관련" in details and "쪽" in details
        if shown is None and cite.locator(".aura-passage mark").count():
            shown = cite
            assert "처분" in details
            _stable(cite)
            break
        cite.locator("summary").click()
    assert shown is not None, "no citation quote was located in its passage body"
    _scroll_to_top_of(shown)
    page.screenshot(path=ARTIFACTS / "ui-2-citation.png")

    # 3. a report draft (track 보고서) opens the drafting panel, prefilled, with citations under
    #    each section
    page.get_by_role("radio", name="보고서", exact=True).click()
    _ask(page, "보고서 초안 작성해줘")
    panel = page.locator(".st-key-report-panel")
    expect(panel).to_be_visible(timeout=TURN_TIMEOUT_MS)
    _settled(page)
    actions = panel.get_by_label("조치할 사항")
    expect(actions).to_have_value(re.compile("가람시장은"))
    expect(panel.get_by_text("근거: sample_numbered-F01").first).to_be_visible()
    _no_exception(page)
    _scroll_to_top_of(panel)
    page.screenshot(path=ARTIFACTS / "ui-3-report.png")

    # 4. edit a section, save through the API, export: both files carry the edit
    actions.fill(actions.input_value() + "\n\n" + EDIT)
    actions.press("Control+Enter")
    expect(panel.get_by_text("저장하지 않은 수정이 있습니다")).to_be_visible()
    panel.get_by_role("button", name="저장").click()
    expect(panel.get_by_text("저장했습니다.")).to_be_visible()
    expect(panel.get_by_text("저장하지 않은 수정이 있습니다")).to_be_hidden()
    panel.get_by_role("button", name="저장").scroll_into_view_if_needed()
    page.screenshot(path=ARTIFACTS / "ui-4-report-saved.png")

    with page.expect_download(timeout=UI_TIMEOUT_MS) as md_download:
        panel.get_by_role("button", name="Markdown 내보내기").click()
    md = Path(md_download.value.path()).read_text(encoding="utf-8")
    assert EDIT in md and md.startswith("# 가람시")
    with page.expect_download(timeout=UI_TIMEOUT_MS) as docx_download:
        panel.get_by_role("button", name="DOCX 내보내기").click()
    assert md_download.value.suggested_filename.endswith(".md") and docx_download.value.suggested_filename.endswith(".docx")
    docx = Document(io.BytesIO(Path(docx_download.value.path()).read_bytes()))
    assert any(EDIT in p.text for p in docx.paragraphs)

    # 5. the English switch relabels the page; the thread is listed in the sidebar
    page.get_by_role("radio", name="English", exact=True).click()
    expect(page.get_by_text("Conversations")).to_be_visible()
    expect(page.get_by_text("Evidence", exact=True).first).to_be_visible()
    expect(page.locator("[class*='st-key-thread-']").filter(has_text="가람시 수의계약")).to_have_count(1)


def test_documents_and_findings_pages(page, servers):
    # an upload is a job with progress and a row per file (a file already stored is 'unchanged')
    page.goto(servers["ui"] + "documents")
    page.locator("input[type=file]").set_input_files(str(SAMPLES / "sample_numbered.txt"))
    upload = page.get_by_role("button", name="업로드")
    expect(upload).to_be_enabled()  # the file reached the UI server
    upload.click()
    job = page.locator("[class*='st-key-job-']").first
    expect(job.get_by_text("상태: 완료")).to_be_visible(timeout=TURN_TIMEOUT_MS)
    expect(job).to_contain_text("1/1 파일 처리")
    job.get_by_text("변경 없음").first.wait_for(state="attached")  # a cell of the canvas table
    _settled(page)
    _no_exception(page)
    page.screenshot(path=ARTIFACTS / "ui-5-documents.png")

    # the findings explorer: every finding, then a filter, with the three charts
    page.goto(servers["ui"] + "findings")
    page.get_by_text("지적사항 9건").wait_for()
    expect(page.get_by_test_id("stVegaLiteChart")).to_have_count(3)
    institution = page.get_by_label("기관")
    institution.fill("가람시")
    institution.press("Enter")
    expect(page.get_by_text("지적사항 3건")).to_be_visible()
    _settled(page)
    expect(page.get_by_text("sample_regular-F01")).to_have_count(0)  # the table follows the filter
    expect(page.get_by_text("sample_numbered-F01")).to_have_count(1)
    _no_exception(page)
    page.screenshot(path=ARTIFACTS / "ui-6-findings.png")
