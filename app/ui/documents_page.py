"""Upload files; each upload is a job polled every second until done, shown with its progress
and per-file results."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from app.ui import errors
from app.ui.client import ApiClient, ApiError
from app.ui.i18n import current_lang, t

FILE_TYPES = ["pdf", "hwp", "hwpx", "docx", "txt", "md"]
FINISHED = ("done", "failed")


def _status(s: str) -> str:
    label = t(f"status_{s}")
    return s if label == f"status_{s}" else label


def _uploader_key() -> str:
    return f"upload-{st.session_state.get('upload_round', 0)}"


def _jobs() -> dict[str, dict[str, Any]]:
    """job id -> the job as last polled (newest first)."""
    return st.session_state.setdefault("jobs", {})


def _upload(client: ApiClient) -> None:
    files = st.session_state.get(_uploader_key()) or []
    if not files:
        st.session_state.upload_flash = t("upload_none")
        return
    try:
        accepted = client.upload([(f.name, f.getvalue()) for f in files])
    except ApiError as exc:
        st.session_state.upload_flash = errors.describe(exc, current_lang())
        return
    st.session_state.jobs = {accepted["job_id"]: {**accepted, "files": []}, **_jobs()}
    st.session_state.upload_round = st.session_state.get("upload_round", 0) + 1  # an empty uploader


def job_table(job: dict[str, Any]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {t("file"): f["file"], t("status"): _status(f["status"]), t("findings_n"): f.get("findings", 0),
             t("chunks_n"): f.get("chunks", 0), t("error"): f.get("error") or ""}
            for f in job.get("files") or []
        ]
    )


def _pending() -> bool:
    return any(job["status"] not in FINISHED for job in _jobs().values())


def _poll(client: ApiClient) -> None:
    for job_id, job in list(_jobs().items()):
        if job["status"] in FINISHED:
            continue
        try:
            _jobs()[job_id] = client.job(job_id)
        except ApiError as exc:
            errors.show(exc)
            _jobs()[job_id] = {**job, "status": "failed", "error": errors.describe(exc, current_lang())}


def _show(job: dict[str, Any]) -> None:
    files = job.get("files") or []
    done = sum(f["status"] != "queued" for f in files)
    with st.container(border=True, key=f"job-{job['job_id']}"):
        st.markdown(f"**{t('job', id=job['job_id'][:8])}** · {t('job_status', status=_status(job['status']))}")
        st.progress(done / len(files) if files else 0.0, text=t("job_progress", done=done, total=len(files)))
        if files:
            st.dataframe(job_table(job), hide_index=True, width="stretch")
        if s := job.get("summary"):
            st.caption(t("job_summary", files=s.get("files", 0), reports=s.get("reports", 0), findings=s.get("findings", 0),
                         chunks=s.get("chunks", 0), skipped=s.get("skipped", 0), errors=len(s.get("errors") or [])))
        if job.get("error"):
            st.error(job["error"])


@st.fragment(run_every=1.0)
def _live(client: ApiClient) -> None:
    """Polls while a job runs; once all are finished the page reruns once and the timer stops."""
    _poll(client)
    for job in _jobs().values():
        _show(job)
    if not _pending():
        st.rerun()


def render(client: ApiClient) -> None:
    st.header(t("upload_title"), anchor=False)
    st.caption(t("upload_help"))
    files = st.file_uploader(t("upload_label"), type=FILE_TYPES, accept_multiple_files=True, key=_uploader_key())
    st.button(t("upload_button"), type="primary", icon=":material/upload:", key="upload-button",
              on_click=_upload, args=(client,), disabled=not files)
    if msg := st.session_state.pop("upload_flash", None):
        st.error(msg, icon="⚠️")
    if _pending():
        _live(client)
    else:
        for job in _jobs().values():
            _show(job)
