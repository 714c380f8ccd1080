"""One assistant turn: the live step timeline while it streams, then the answer with numbered
citations (each expands to its quote marked in the passage), the SQL table, the verification
and the steps."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pandas as pd
import streamlit as st

from app.ui import errors, workbench
from app.ui.citations import passage_html
from app.ui.client import ApiClient, ApiError
from app.ui.i18n import node_name, section_name, t
from graph.vocab import MANUAL_SECTION


def _md(text: str) -> str:
    """Answer text as Markdown: '$' would start LaTeX, '~' strikethrough."""
    return text.replace("$", r"\$").replace("~", r"\~")


# -- steps ---------------------------------------------------------------------------------
def _step_label(step: dict[str, Any], k: int) -> str:
    label = node_name(step.get("node", "?"))
    if k > 1:
        label += f" · {t('loop', k=k)}"
    if step.get("ms") is not None:
        label += f" · {step['ms']:.0f} ms"
    return label


def step_entry(step: dict[str, Any], k: int = 1) -> None:
    """One node in the timeline: what ran, what it found, and whether a fallback decided."""
    failed = bool(step.get("error"))
    icon = ":material/error:" if failed else ":material/check_circle:"
    with st.expander(_step_label(step, k), icon=icon, type="step"):
        st.markdown(_md(step.get("summary") or "—"))
        if step.get("policy"):
            st.caption(f"policy: {step['policy']}")
        if failed:
            st.caption(f"error: {step['error']}")


def steps_timeline(steps: list[dict[str, Any]]) -> None:
    seen: Counter[str] = Counter()
    for step in steps:
        seen[step.get("node", "?")] += 1
        step_entry(step, seen[step.get("node", "?")])


# -- citations -----------------------------------------------------------------------------
def _chunk(client: ApiClient, chunk_id: str) -> dict[str, Any]:
    cache = st.session_state.setdefault("chunk_cache", {})
    if chunk_id not in cache:
        cache[chunk_id] = client.chunk(chunk_id)
    return cache[chunk_id]


def _evidence_label(e: dict[str, Any]) -> str:
    where = e.get("finding_id") or section_name(e.get("section"))
    page = f" · p.{e['page']}" if e.get("page") else ""
    return f"[{e.get('n')}] {e.get('report') or ''} · {where}{page}"


def citation(client: ApiClient, e: dict[str, Any], key: str) -> None:
    with st.expander(_evidence_label(e), key=key):
        if not e.get("chunk_id"):
            st.markdown(f"> {_md(e.get('quote') or '')}")
            return
        try:
            chunk = _chunk(client, e["chunk_id"])
        except ApiError as exc:
            errors.show(exc)
            return
        body, found = passage_html(chunk, e.get("quote") or "", mark_id=f"{key}-mark")
        manual = chunk.get("section") == MANUAL_SECTION  # a manual clause has no report page
        meta = [
            f"**{t('report')}** {chunk.get('report_title') or ''}",
            *([] if manual else [f"**{t('page')}** {chunk.get('page')}"]),
            f"**{t('section')}** {section_name(chunk.get('section'))}",
        ]
        if chunk.get("finding_title"):
            meta.insert(1, f"**{t('finding')}** {chunk['finding_title']} ({chunk.get('finding_id')})")
        if chunk.get("dispositions"):
            meta.append(f"**{t('dispositions')}** " + " ".join(f":orange-badge[{d}]" for d in chunk["dispositions"]))
        st.markdown("  \n".join(_md(m) for m in meta))
        if manual:
            st.markdown(body, unsafe_allow_html=True)
            return
        page, passage = st.columns([1, 1], gap="medium")
        with page:
            workbench.page_view(client, e)
        with passage:
            if not found:
                st.caption(t("quote_not_located"))
                st.markdown(f"> {_md(e.get('quote') or '')}")
            st.markdown(body, unsafe_allow_html=True)


# -- the whole turn ------------------------------------------------------------------------
def _sql(sql: dict[str, Any]) -> None:
    if sql.get("error"):
        st.warning(t("sql_error", error=sql["error"]))
    if sql.get("columns"):
        st.dataframe(pd.DataFrame(sql.get("rows") or [], columns=sql["columns"]), hide_index=True)
    if sql.get("query"):
        with st.expander(t("sql_query"), icon=":material/database:"):
            st.code(sql["query"], language="sql")


def _coverage(coverage: str, source: str | None = None) -> None:
    """How far the reports (or, for a question about it, the audit manual) answer: the first thing
    an auditor should see about an answer."""
    color = {"full": "green", "partial": "orange", "none": "red"}[coverage]
    label = t("coverage_manual") if source == "manual" and coverage == "full" else t("coverage_" + coverage)
    st.markdown(f":{color}-badge[{label}]")


def _verification(v: dict[str, Any], coverage: str | None) -> None:
    if coverage == "none":  # nothing was claimed: no grounded/useful badges on a refusal
        return

    def badge(ok: bool | None, name: str) -> str:
        if ok is None:
            return f":gray-badge[{name}: —]"
        color = "green" if ok else "red"
        return f":{color}-badge[{name}: {t('yes') if ok else t('no')}]"

    line = [f"**{t('verification')}**", badge(v.get("grounded"), t("grounded")), badge(v.get("useful"), t("useful"))]
    if v.get("confidence") is not None:
        line.append(f":blue-badge[{t('confidence', value=v['confidence'])}]")
    st.markdown(" ".join(line))
    if v.get("unsupported"):
        st.warning(t("unsupported") + "\n" + "\n".join(f"- {_md(s)}" for s in v["unsupported"]))


def render_turn(client: ApiClient, turn: dict[str, Any], key: str) -> None:
    if turn.get("coverage"):
        _coverage(turn["coverage"], turn.get("source"))
    st.markdown(_md(turn.get("answer") or ""))
    report = turn.get("report") or {}
    if report.get("status") == "needs_info":
        st.info(t("needs_info", missing=", ".join(map(str, report.get("missing") or []))))
    if turn.get("sql"):
        _sql(turn["sql"])
    if turn.get("evidence"):
        st.markdown(f"**{t('evidence')}**")
        for e in turn["evidence"]:
            citation(client, e, key=f"cite-{key}-{e.get('n')}")
    if turn.get("verification"):
        _verification(turn["verification"], turn.get("coverage"))
    if turn.get("report_id"):
        st.button(
            t("open_report"), key=f"open-report-{key}", icon=":material/edit_document:",
            on_click=st.session_state.__setitem__, args=("active_report", turn["report_id"]),
        )
    workbench.feedback(client, turn, key)
    if turn.get("steps"):
        total = sum(s.get("ms") or 0 for s in turn["steps"]) / 1000
        with st.expander(f"{t('steps')} · {t('done_steps', n=len(turn['steps']), sec=total)} · {t('track_label', track=turn.get('track'))}", icon=":material/timeline:"):
            steps_timeline(turn["steps"])


def stream_turn(client: ApiClient, message: str, thread_id: str, mode: str) -> dict[str, Any] | None:
    """Run a turn over SSE, showing each step as it finishes; the finished turn, or None after
    showing why it failed."""
    status = st.status(t("working"), expanded=True)
    answer = st.empty()
    tokens, seen, started = "", Counter(), time.monotonic()
    turn: dict[str, Any] | None = None
    try:
        for ev in client.chat_stream(message, thread_id, mode):
            data = ev.data
            if ev.name == "step" and data.get("status") == "started":
                status.update(label=t("running_node", node=node_name(data.get("node", ""))))
            elif ev.name == "step":
                seen[data.get("node", "?")] += 1
                with status:
                    step_entry(data, seen[data.get("node", "?")])
            elif ev.name == "token":
                tokens += data.get("text", "")
                answer.markdown(_md(tokens))
            elif ev.name == "evidence":
                key = "evidence_cited" if data.get("stage") == "cited" else "evidence_found"
                status.caption(t(key, n=len(data.get("items") or [])))
            elif ev.name == "sql_result":
                status.caption(t("sql_rows", n=len(data.get("rows") or [])))
            elif ev.name == "report_trigger":
                status.caption(t("report_ready"))
            elif ev.name == "done":
                turn = data
            elif ev.name == "error":
                status.update(label=t("err_turn", detail=data.get("message", "")), state="error")
                st.error(t("err_turn", detail=data.get("message", "")), icon="⚠️")
                return None
    except ApiError as exc:
        status.update(label=t("err_turn", detail=exc.detail), state="error")
        errors.show(exc)
        return None
    if turn is not None:
        status.update(label=t("done_steps", n=sum(seen.values()), sec=time.monotonic() - started), state="complete", expanded=False)
    return turn
