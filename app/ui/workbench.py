"""The auditor's workbench in the chat: a citation's original page beside its passage, 👍/👎
with a comment per answer, the thread's report drafts and its working paper (감사 조서)."""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from app.ui import errors
from app.ui.client import ApiClient, ApiError
from app.ui.i18n import t


def _page(client: ApiClient, chunk_id: str, span: list[int] | None) -> dict[str, Any]:
    cache = st.session_state.setdefault("page_cache", {})
    key = (chunk_id, tuple(span or ()))
    if key not in cache:
        cache[key] = client.chunk_page(chunk_id, span)
    return cache[key]


def page_view(client: ApiClient, e: dict[str, Any]) -> None:
    """The cited page (PDF sources) with the quote highlighted, or why there is none."""
    try:
        page = _page(client, e["chunk_id"], e.get("span"))
    except ApiError as exc:
        if exc.status == 410:
            st.warning(errors.describe(exc, st.session_state.get("lang", "ko")), icon=":material/find_in_page:")
        else:
            errors.show(exc)
        return
    if page["kind"] != "png":
        st.caption(t("page_text_only", fmt=str(page.get("format", "")).upper()))
        return
    st.image(page["png"], caption=t("page_view", page=page["page"]), width="stretch", alt="cited-page")
    if page["located"] == "partial":
        st.caption(t("page_partial"))
    elif page["located"] == "none":
        st.caption(t("page_not_located"))


def _send(client: ApiClient, thread_id: str, turn_id: str, key: str) -> None:
    choice = st.session_state.get(f"{key}-rating")
    if choice is None:
        st.session_state[f"{key}-flash"] = ("error", t("feedback_pick"))
        return
    rating = "up" if choice == 1 else "down"
    try:
        client.send_feedback(thread_id, turn_id, rating, st.session_state.get(f"{key}-comment", ""))
    except ApiError as exc:
        st.session_state[f"{key}-flash"] = ("error", errors.describe(exc, st.session_state.get("lang", "ko")))
        return
    st.session_state.setdefault("feedback_given", {})[turn_id] = rating
    st.session_state[f"{key}-flash"] = ("success", t("feedback_sent"))


def feedback(client: ApiClient, turn: dict[str, Any], key: str) -> None:
    """👍/👎 and an optional comment, sent with the turn's id."""
    if not turn.get("turn_id") or not turn.get("thread_id"):
        return
    key = f"fb-{key}"
    given = st.session_state.setdefault("feedback_given", {}).get(turn["turn_id"]) or (turn.get("feedback") or {}).get("rating")
    with st.container(key=key):
        rate, comment, send = st.columns([2, 5, 2], vertical_alignment="bottom")
        with rate:
            st.caption(t("feedback_label"))
            st.feedback("thumbs", key=f"{key}-rating")
        comment.text_input(t("feedback_comment"), key=f"{key}-comment", max_chars=4000)
        send.button(t("feedback_send"), key=f"{key}-send", icon=":material/send:", width="stretch",
                    on_click=_send, args=(client, turn["thread_id"], turn["turn_id"], key))
        if flash := st.session_state.pop(f"{key}-flash", None):
            (st.success if flash[0] == "success" else st.error)(flash[1])
        elif given:
            st.caption(t("feedback_given", rating="👍" if given == "up" else "👎"))


def _file(title: str, fmt: str) -> str:
    safe = re.sub(r"[\\/:*?\"<>|\r\n]+", "_", title).strip() or "thread"
    return f"조서-{safe[:60]}.{fmt}"


def _fetch(client: ApiClient, thread_id: str, fmt: str):  # noqa: ANN202
    def fetch() -> bytes:
        return client.export_thread(thread_id, fmt)

    return fetch


MIMES = {"docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
         "hwpx": "application/hwp+zip", "json": "application/json"}


def thread_tools(client: ApiClient, thread_id: str, title: str) -> None:
    """The working paper downloads and the thread's report drafts (to open in the panel)."""
    with st.expander(t("workpaper"), icon=":material/fact_check:", key="workpaper"):
        st.caption(t("workpaper_help"))
        cols = st.columns(3)
        for col, fmt in zip(cols, ("docx", "hwpx", "json"), strict=True):
            col.download_button(
                t(f"workpaper_{fmt}"), data=_fetch(client, thread_id, fmt), file_name=_file(title, fmt), mime=MIMES[fmt],
                key=f"workpaper-{fmt}", on_click="ignore", width="stretch", icon=":material/download:",
            )
        try:
            drafts = client.thread_reports(thread_id)
        except ApiError as exc:
            if exc.status != 404:
                errors.show(exc)
            drafts = []
        if drafts:
            st.caption(t("thread_drafts"))
            for d in drafts:
                st.button(d["title"], key=f"draft-{d['id']}", icon=":material/edit_document:", type="tertiary",
                          on_click=st.session_state.__setitem__, args=("active_report", d["id"]))
