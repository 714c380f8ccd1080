"""The findings explorer: filters (institution, year, disposition), the matching findings, and
counts by disposition, institution and year."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pandas as pd
import streamlit as st

from app.ui import errors
from app.ui.client import ApiClient, ApiError
from app.ui.i18n import t


def counts(items: list[dict[str, Any]]) -> dict[str, Counter]:
    """Findings per disposition (a finding with two counts twice), institution and year."""
    return {
        "disposition": Counter(d for f in items for d in f.get("dispositions") or []),
        "institution": Counter(f.get("institution") or "—" for f in items),
        "year": Counter(str(f["year"]) for f in items if f.get("year")),
    }


def _chart(title: str, counter: Counter, sort_by_key: bool = False) -> None:
    st.markdown(f"**{title}**")
    if not counter:
        st.caption("—")
        return
    pairs = sorted(counter.items()) if sort_by_key else counter.most_common(12)
    df = pd.DataFrame(pairs, columns=["label", t("count")])
    st.bar_chart(df, x="label", y=t("count"), x_label="", horizontal=not sort_by_key, sort=False if sort_by_key else f"-{t('count')}", height=260)


def table(items: list[dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {t("col_id"): f["id"], t("col_title"): f["title"], t("col_institution"): f.get("institution") or "",
             t("col_year"): f.get("year"), t("col_dispositions"): ", ".join(f.get("dispositions") or []),
             t("col_amount"): f.get("amount_krw"), t("col_report"): f.get("report_title") or f["report_id"],
             t("col_pages"): "-".join(str(p) for p in dict.fromkeys(f.get("pages") or []))}
            for f in items
        ]
    )


def render(client: ApiClient) -> None:
    st.header(t("findings_title"), anchor=False)
    try:
        everything = client.all_findings()
    except ApiError as exc:
        errors.show(exc)
        return
    every = counts(everything)
    years = sorted({int(y) for y in every["year"]}, reverse=True)
    dispositions = [d for d, _ in every["disposition"].most_common()]

    c1, c2, c3 = st.columns(3)
    institution = c1.text_input(t("filter_institution"), key="f-institution", placeholder=t("any"))
    year = c2.selectbox(t("filter_year"), [None, *years], format_func=lambda y: t("any") if y is None else str(y), key="f-year")
    disposition = c3.selectbox(t("filter_disposition"), [None, *dispositions],
                               format_func=lambda d: t("any") if d is None else d, key="f-disposition")
    try:
        items = client.all_findings(institution=institution.strip() or None, year=year, disposition=disposition)
    except ApiError as exc:
        errors.show(exc)
        return

    st.markdown(f"**{t('findings_total', n=len(items))}**")
    if not items:
        st.info(t("no_findings"))
        return
    by = counts(items)
    a, b, c = st.columns(3)
    with a:
        _chart(t("by_disposition"), by["disposition"])
    with b:
        _chart(t("by_institution"), by["institution"])
    with c:
        _chart(t("by_year"), by["year"], sort_by_key=True)
    st.dataframe(table(items), hide_index=True, width="stretch",
                 column_config={t("col_amount"): st.column_config.NumberColumn(format="localized")})
