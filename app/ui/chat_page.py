"""The chat page: threads in the sidebar (new, switch, delete), the track selector, the
conversation, and the report drafting panel when a turn made a draft."""

from __future__ import annotations

import uuid
from typing import Any

import streamlit as st

from app.ui import errors, report_panel, workbench
from app.ui.citations import STYLE
from app.ui.client import ApiClient, ApiError
from app.ui.i18n import current_lang, t
from app.ui.turn_view import render_turn, stream_turn
from graph import vocab

MODES = tuple(m for m in vocab.MODES if m != "chat")
"""The modes the UI offers (chat is reached through auto)."""


def _new_thread_id() -> str:
    return uuid.uuid4().hex


def active_thread() -> str:
    if "thread_id" not in st.session_state:
        st.session_state.thread_id = st.query_params.get("thread") or _new_thread_id()
    st.query_params["thread"] = st.session_state.thread_id
    return st.session_state.thread_id


def _switch(thread_id: str) -> None:
    st.session_state.thread_id = thread_id
    st.session_state.active_report = None


def _delete(client: ApiClient, thread_id: str) -> None:
    try:
        client.delete_thread(thread_id)
    except ApiError as exc:
        st.session_state.flash_error = errors.describe(exc, current_lang())
        return
    st.session_state.get("turns", {}).pop(thread_id, None)
    st.session_state.flash_info = t("thread_deleted")
    if st.session_state.get("thread_id") == thread_id:
        _switch(_new_thread_id())


def thread_sidebar(client: ApiClient, current: str) -> None:
    with st.sidebar:
        st.subheader(t("threads"))
        st.button(t("new_thread"), icon=":material/add_comment:", key="new-thread", width="stretch",
                  on_click=_switch, args=(_new_thread_id(),))
        try:
            threads = client.threads()
        except ApiError as exc:
            errors.show(exc)
            return
        if not threads:
            st.caption(t("no_threads"))
        for th in threads:
            left, right = st.columns([6, 1], vertical_alignment="center")
            left.button(th["title"], key=f"thread-{th['id']}", width="stretch",
                        type="primary" if th["id"] == current else "tertiary",
                        on_click=_switch, args=(th["id"],))
            right.button("", icon=":material/delete:", key=f"delete-{th['id']}", help=t("delete"),
                         type="tertiary", on_click=_delete, args=(client, th["id"]))


def _history(client: ApiClient, thread_id: str) -> list[dict[str, Any]]:
    """The thread's turns with their evidence and steps, read back from the API (a thread from
    an earlier session shows its citations again); plain messages if those cannot be read."""
    turns = st.session_state.setdefault("turns", {})
    if thread_id not in turns:
        try:
            recorded = client.turns(thread_id)
            turns[thread_id] = [e for r in recorded for e in (
                {"role": "user", "text": r["question"], "turn": None},
                {"role": "assistant", "text": r["answer"], "turn": r})]
            return turns[thread_id]
        except ApiError as exc:
            if exc.status != 404:
                errors.show(exc)
        try:
            messages = client.thread(thread_id)["messages"]
        except ApiError as exc:
            if exc.status != 404:
                errors.show(exc)
            messages = []
        turns[thread_id] = [{"role": m["role"], "text": _text(m["content"]), "turn": None} for m in messages]
    return turns[thread_id]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(c.get("text", "") if isinstance(c, dict) else str(c) for c in content)
    return str(content)


def _flash() -> None:
    if msg := st.session_state.pop("flash_error", None):
        st.error(msg, icon="⚠️")
    if msg := st.session_state.pop("flash_info", None):
        st.toast(msg)


def render(client: ApiClient) -> None:
    st.markdown(STYLE, unsafe_allow_html=True)
    thread_id = active_thread()
    thread_sidebar(client, thread_id)
    _flash()
    mode = st.segmented_control(
        t("track"), MODES, format_func=lambda m: t(f"track_{m}"), key="mode", default="auto", required=True,
    ) or "auto"

    prompt = st.chat_input(t("ask"), key="prompt", submit_mode="disable", max_chars=4000)  # pinned to the bottom
    history = _history(client, thread_id)
    if not history and not prompt:
        st.info(t("welcome"), icon=":material/info:")
    elif any(e["turn"] is None and e["role"] == "assistant" for e in history):
        st.caption(t("history_plain"))
    for i, entry in enumerate(history):
        with st.chat_message(entry["role"]):
            if entry["turn"] is not None:
                render_turn(client, entry["turn"], key=f"{thread_id[:8]}-{i}")
            else:
                st.markdown(entry["text"])

    if history:
        workbench.thread_tools(client, thread_id, next((e["text"] for e in history if e["role"] == "user"), thread_id))
    if report_id := st.session_state.get("active_report"):
        report_panel.render(client, report_id)

    if prompt:
        with st.chat_message("user"):
            st.markdown(prompt)
        with st.chat_message("assistant"):
            turn = stream_turn(client, prompt, thread_id, mode)
        if turn is None:
            return
        history += [{"role": "user", "text": prompt, "turn": None},
                    {"role": "assistant", "text": turn.get("answer", ""), "turn": turn}]
        if turn.get("report_id"):
            st.session_state.active_report = turn["report_id"]
        st.rerun()
