"""The UI end to end in headless Chromium: `aura serve` on a store with the fictional samples,
`aura ui` on it, and an auditor's path through both: a deep question, its citations, a report
draft edited, saved and exported; then the workbench on a real report (the cited page, HWPX,
feedback, the working paper). Screenshots of each stage go to tests/artifacts/.

Needs Debian's Chromium (never a downloaded browser):
    apt-get install -y chromium fonts-nanum fonts-droid-fallback
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin

import httpx
import pytest
from docx import Document
from PIL import Image
from playwright.sync_api import expect

from app.ingest.loaders import load_document
from app.pages.render import HIGHLIGHT
from tests.conftest import BAI_REPORTS, EMBED_CACHE, ROOT, SAMPLES, require_shared

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


# -- the auditor's workbench (last: it adds a real report to the store the tests above count) ---
REAL_REPORT = "jj20250925_091048"
REAL_QUESTION = "해운대구 도시건축공동위원회 위원 제척 문제 분석해줘"
COMMENT = "처분 수위 근거를 더 보여줄 것 (브라우저 확인)"


def _api(servers, ui_store) -> httpx.Client:
    key = ui_store[1].read_text().strip()
    return httpx.Client(base_url=servers["api"], headers={"Authorization": f"Bearer {key}"}, timeout=120)


def _upload_real_report(api: httpx.Client) -> None:
    path = BAI_REPORTS / f"{REAL_REPORT}.pdf"
    job = api.post("/v1/documents", files=[("files", (path.name, path.read_bytes(), "application/pdf"))]).json()
    deadline = time.monotonic() + TURN_TIMEOUT_MS / 1000
    while (state := api.get(f"/v1/documents/{job['job_id']}").json())["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline, state
        time.sleep(0.5)
    assert state["status"] == "done" and state["files"][0]["status"] == "ingested", state


def _tinted_in_boxes(png: bytes, boxes: list[list[int]]) -> float:
    """Share of the pixels inside the highlight boxes that carry the highlight's yellow."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    inside = tinted = 0
    for left, top, right, bottom in boxes:
        for r, g, b in image.crop((left + 3, top + 3, right - 3, bottom - 3)).getdata():
            inside += 1
            tinted += abs(r - HIGHLIGHT[0]) < 16 and abs(g - HIGHLIGHT[1]) < 16 and abs(b - HIGHLIGHT[2]) < 16
    return tinted / max(inside, 1)


def test_workbench(page, servers, ui_store):
    require_shared()
    api = _api(servers, ui_store)
    _upload_real_report(api)

    # 1. a deep question on the real report: a citation opens the original page beside the passage
    page.goto(servers["ui"])
    page.get_by_text("대화 목록").wait_for()
    page.get_by_role("radio", name="심층 분석", exact=True).click()
    _ask(page, REAL_QUESTION)
    answer = page.get_by_test_id("stChatMessage").filter(has_text="근거 일치").last
    expect(answer).to_be_visible(timeout=TURN_TIMEOUT_MS)
    _settled(page)
    # the answer leads: what was found first, then one card per finding, then the quoted evidence
    expect(answer.get_by_text(re.compile(r"질문과 같은 유형의 사례 \d+건을 찾았습니다")).first).to_be_visible()
    expect(answer.get_by_text(re.compile(r"처분: 주의 · p\.\d+")).first).to_be_visible()
    _scroll_to_top_of(answer)
    page.screenshot(path=ARTIFACTS / "ui-real-answer.png")
    thread_id = re.search(r"thread=([0-9a-f]+)", page.url).group(1)
    turn = api.get(f"/v1/threads/{thread_id}/turns").json()[0]
    cited = next(e for e in turn["evidence"] if e["report_id"] == REAL_REPORT and e.get("span"))
    # the exact key the chat page gives this citation (thread prefix, history index of the answer,
    # number): a looser match picks another citation when the thread id itself holds "-<n>"
    cite = answer.locator(f".st-key-cite-{thread_id[:8]}-1-{cited['n']}")
    cite.locator("summary").click()
    image = cite.get_by_role("img", name="cited-page")
    expect(image).to_be_visible()
    expect(cite.locator("mark.aura-quote")).to_be_visible()

    # the image shown is the API's page with the quote highlighted on it (pixel check in the box)
    direct = api.get(f"/v1/chunks/{cited['chunk_id']}/page", params={"start": cited["span"][0], "end": cited["span"][1]})
    assert direct.status_code == 200 and direct.headers["content-type"] == "image/png"
    boxes = json.loads(direct.headers["x-aura-highlight"])
    expect(cite.get_by_text(f"원본 {direct.headers['x-aura-page']}쪽")).to_be_visible()
    shown = page.request.get(urljoin(servers["ui"], image.get_attribute("src"))).body()
    assert Image.open(io.BytesIO(shown)).size == Image.open(io.BytesIO(direct.content)).size
    assert boxes and _tinted_in_boxes(shown, boxes) > 0.5
    assert _tinted_in_boxes(shown, [[0, 0, 200, 60]]) < 0.01  # and nowhere else
    _stable(cite)
    _scroll_to_top_of(cite)
    page.screenshot(path=ARTIFACTS / "ui-7-page.png")
    _no_exception(page)

    # 2. feedback on the answer: 👎 with a comment, stored for this key and turn
    rating = answer.locator("[class*='st-key-fb-']").first
    rating.locator("[class*='-rating'] button[aria-label='Thumbs down']").click()
    rating.get_by_label("의견 (선택)").fill(COMMENT)
    rating.get_by_label("의견 (선택)").press("Enter")
    rating.get_by_role("button", name="평가 보내기").click()
    expect(page.get_by_text("평가를 보냈습니다.")).to_be_visible()
    mine = [f for f in api.get("/v1/feedback").json() if f["turn_id"] == turn["turn_id"]]
    assert [(f["rating"], f["comment"]) for f in mine] == [("down", COMMENT)]

    # 3. a report draft exported as HWPX (re-read with AURA's loader) and DOCX
    page.get_by_role("radio", name="보고서", exact=True).click()
    _ask(page, "보고서 초안 작성해줘")
    panel = page.locator(".st-key-report-panel")
    expect(panel).to_be_visible(timeout=TURN_TIMEOUT_MS)
    _settled(page)
    with page.expect_download(timeout=UI_TIMEOUT_MS) as hwpx_download:
        panel.get_by_role("button", name="HWPX 내보내기").click()
    hwpx = Path(hwpx_download.value.path())
    assert hwpx_download.value.suggested_filename.endswith(".hwpx")
    text = "\n".join(load_document(hwpx.rename(hwpx.with_suffix(".hwpx"))).pages)
    assert "해운대구" in text and "지적 사항" in text and "근거 목록" in text and f"{REAL_REPORT}-F0" in text
    with page.expect_download(timeout=UI_TIMEOUT_MS) as docx_download:
        panel.get_by_role("button", name="DOCX 내보내기").click()
    assert any("해운대구" in p.text for p in Document(io.BytesIO(Path(docx_download.value.path()).read_bytes())).paragraphs)

    # 4. the working paper of the thread: every turn, its evidence and the feedback
    tools = page.locator(".st-key-workpaper")
    tools.locator("summary").click()
    with page.expect_download(timeout=UI_TIMEOUT_MS) as paper_json:
        tools.get_by_role("button", name="조서 JSON").click()
    paper = json.loads(Path(paper_json.value.path()).read_text(encoding="utf-8"))
    assert [t["question"] for t in paper["turns"]] == [REAL_QUESTION, "보고서 초안 작성해줘"]
    assert paper["turns"][0]["feedback"] == {"rating": "down", "comment": COMMENT}
    assert any(e["report_id"] == REAL_REPORT and e["page"] for e in paper["turns"][0]["evidence"])
    with page.expect_download(timeout=UI_TIMEOUT_MS) as paper_docx:
        tools.get_by_role("button", name="조서 DOCX").click()
    paper_text = "\n".join(p.text for p in Document(io.BytesIO(Path(paper_docx.value.path()).read_bytes())).paragraphs)
    assert f"질의 1. {REAL_QUESTION}" in paper_text and "처리 단계" in paper_text
    expect(tools.get_by_role("button", name=re.compile("보고서\\(초안\\)"))).to_be_visible()
    _no_exception(page)

    # 5. the thread opened in a new session shows its evidence again (not plain text)
    page.goto(f"{servers['ui']}?thread={thread_id}")
    old = page.get_by_test_id("stChatMessage").filter(has_text="근거 일치").first
    expect(old).to_be_visible()
    expect(old.locator("[class*='st-key-cite-']").first).to_be_visible()
    expect(page.get_by_text("이전 대화입니다")).to_have_count(0)
    _no_exception(page)
