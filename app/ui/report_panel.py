"""The report drafting panel: the draft's sections prefilled with their citations, editable,
saved with PUT /v1/reports/{id}, exported as DOCX, HWPX and Markdown from the saved draft."""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from app.ui import errors
from app.ui.client import ApiClient, ApiError
from app.ui.i18n import t


def citation_label(c: dict[str, Any]) -> str:
    if c.get("sop_id"):
        return f"SOP {c['sop_id']}"
    pages = [p for p in c.get("pages") or [] if p]
    where = ""
    if pages:
        lo, hi = min(pages), max(pages)
        where = f" p.{lo}" if lo == hi else f" pp.{lo}-{hi}"
    return f"{c.get('finding_id') or c.get('report_id') or '?'}{where}"


def file_name(title: str, fmt: str) -> str:
    safe = re.sub(r"[\\/:*?\"<>|\r\n]+", "_", title).strip() or "report"
    return f"{safe[:80]}.{fmt}"


def _draft(client: ApiClient, report_id: str) -> dict[str, Any] | None:
    drafts = st.session_state.setdefault("drafts", {})
    if report_id not in drafts:
        try:
            drafts[report_id] = client.report(report_id)
        except ApiError as exc:
            errors.show(exc)
            return None
    return drafts[report_id]


def _keys(report_id: str, draft: dict[str, Any]) -> tuple[str, list[str]]:
    return f"rtitle-{report_id}", [f"rsec-{report_id}-{i}" for i in range(len(draft["sections"]))]


def _edited(report_id: str, draft: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    title_key, section_keys = _keys(report_id, draft)
    title = st.session_state.get(title_key, draft["title"])
    sections = [
        {**s, "text": st.session_state.get(k, s.get("text") or "")}
        for s, k in zip(draft["sections"], section_keys, strict=True)
    ]
    return title, sections


def _save(client: ApiClient, report_id: str) -> None:
    draft = st.session_state["drafts"][report_id]
    title, sections = _edited(report_id, draft)
    if not title.strip():
        st.session_state.report_flash = ("error", t("empty_title"))
        return
    try:
        st.session_state["drafts"][report_id] = client.save_report(report_id, title.strip(), sections)
    except ApiError as exc:
        st.session_state.report_flash = ("error", errors.describe(exc, st.session_state.get("lang", "ko")))
        return
    st.session_state.report_flash = ("success", t("saved"))


def _exporter(client: ApiClient, report_id: str, fmt: str):  # noqa: ANN202
    def fetch() -> bytes:
        return client.export_report(report_id, fmt)

    return fetch


def render(client: ApiClient, report_id: str) -> None:
    draft = _draft(client, report_id)
    if draft is None:
        return
    title_key, section_keys = _keys(report_id, draft)
    with st.container(border=True, key="report-panel"):
        head, close = st.columns([8, 1], vertical_alignment="center")
        head.subheader(t("report_panel"), anchor=False)
        close.button("", icon=":material/close:", key="report-close", help=t("close"), type="tertiary",
                     on_click=st.session_state.__setitem__, args=("active_report", None))
        st.text_input(t("report_title"), value=draft["title"], key=title_key, max_chars=512)
        for section, key in zip(draft["sections"], section_keys, strict=True):
            text = section.get("text") or ""
            st.text_area(section["title"], value=text, key=key, height=max(80, min(320, 26 * (text.count("\n") + 2))))
            if cites := section.get("citations"):
                st.caption(f"{t('citations')}: " + ", ".join(dict.fromkeys(citation_label(c) for c in cites)))

        if flash := st.session_state.pop("report_flash", None):
            (st.success if flash[0] == "success" else st.error)(flash[1])
        saved_title, saved_sections = draft["title"], [s.get("text") or "" for s in draft["sections"]]
        title, edited = _edited(report_id, draft)
        if title != saved_title or [s["text"] for s in edited] != saved_sections:
            st.caption(t("unsaved"))

        save, docx, hwpx, md = st.columns(4)
        save.button(t("save"), key="report-save", type="primary", icon=":material/save:", width="stretch",
                    on_click=_save, args=(client, report_id))
        docx.download_button(
            t("export_docx"), data=_exporter(client, report_id, "docx"), file_name=file_name(draft["title"], "docx"),
            mime="application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            key="report-docx", icon=":material/description:", on_click="ignore", width="stretch",
        )
        hwpx.download_button(
            t("export_hwpx"), data=_exporter(client, report_id, "hwpx"), file_name=file_name(draft["title"], "hwpx"),
            mime="application/hwp+zip", key="report-hwpx", icon=":material/description:", on_click="ignore", width="stretch",
        )
        md.download_button(
            t("export_md"), data=_exporter(client, report_id, "md"), file_name=file_name(draft["title"], "md"),
            mime="text/markdown", key="report-md", icon=":material/article:", on_click="ignore", width="stretch",
        )
