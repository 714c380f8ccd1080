"""The Streamlit entry point (``aura ui`` runs ``streamlit run`` on this file): language switch,
API connection, and the three pages."""

from __future__ import annotations

import streamlit as st

from app.ui import chat_page, documents_page, findings_page
from app.ui.client import ApiClient
from app.ui.config import load_config
from app.ui.i18n import LANG_NAMES, LANGS, t


@st.cache_resource
def _client(api_url: str, api_key: str | None) -> ApiClient:
    return ApiClient(api_url, api_key)


def main() -> None:
    st.set_page_config(page_title="AURA", page_icon=":material/policy:", layout="wide")
    with st.sidebar:
        st.segmented_control(t("language"), LANGS, format_func=LANG_NAMES.get, key="lang", default="ko",
                             required=True, bind="query-params")
    config = load_config()
    if config.api_key is None:
        st.title(t("app_title"), anchor=False)
        st.error(t("no_key", path=config.key_file), icon="🔑")
        st.stop()
    client = _client(config.api_url, config.api_key)
    pages = [
        st.Page(lambda: chat_page.render(client), title=t("nav_chat"), icon=":material/forum:", url_path="chat", default=True),
        st.Page(lambda: documents_page.render(client), title=t("nav_documents"), icon=":material/upload_file:", url_path="documents"),
        st.Page(lambda: findings_page.render(client), title=t("nav_findings"), icon=":material/query_stats:", url_path="findings"),
    ]
    st.navigation(pages, position="sidebar").run()


main()
