"""API errors as sentences for the auditor (never a traceback)."""

from __future__ import annotations

import streamlit as st

from app.ui.client import ApiError
from app.ui.i18n import current_lang, translate


def describe(exc: ApiError, lang: str = "ko") -> str:
    if exc.status is None:
        return translate(lang, "err_connect", detail=exc.detail)
    if exc.status in (401, 404, 409, 410, 413, 415, 503):
        return translate(lang, f"err_{exc.status}", detail=exc.detail)
    key = "err_5xx" if exc.status >= 500 else "err_4xx"
    return translate(lang, key, status=exc.status, detail=exc.detail)


def show(exc: ApiError) -> None:
    st.error(describe(exc, current_lang()), icon="⚠️")
