"""Metadata filters shared by every retriever: one definition, two renderings.

``to_milvus_expr`` renders a Milvus boolean expression (values escaped here, because Milvus
Lite's filter templating does not work); ``matches`` applies the same logic in-process to a
chunk's metadata, for the lexical index.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field


def quote_value(value: str) -> str:
    """A Milvus string literal."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _quote_list(values: list[str]) -> str:
    return "[" + ", ".join(quote_value(v) for v in values) + "]"


class SearchFilters(BaseModel):
    """All fields optional; lists mean 'any of'. Empty filters match everything."""

    institutions: list[str] = Field(default_factory=list, description="Any of these institutions.")
    year_from: int | None = None
    year_to: int | None = None
    audit_types: list[str] = Field(default_factory=list)
    dispositions: list[str] = Field(default_factory=list)
    sections: list[str] = Field(default_factory=list)
    report_ids: list[str] = Field(default_factory=list)
    finding_ids: list[str] = Field(default_factory=list)
    exclude_finding_ids: list[str] = Field(default_factory=list, description="None of these findings (cases already shown).")

    def is_empty(self) -> bool:
        return not any(self.model_dump(exclude_none=True, exclude_defaults=True).values())

    def to_milvus_expr(self) -> str:
        parts: list[str] = []
        if self.institutions:
            parts.append(f"array_contains_any(institutions, {_quote_list(self.institutions)})")
        if self.year_from is not None:
            parts.append(f"year >= {int(self.year_from)}")
        if self.year_to is not None:
            parts.append(f"year <= {int(self.year_to)}")
        if self.audit_types:
            parts.append(f"audit_type in {_quote_list(self.audit_types)}")
        if self.dispositions:
            parts.append(f"array_contains_any(dispositions, {_quote_list(self.dispositions)})")
        if self.sections:
            parts.append(f"section in {_quote_list(self.sections)}")
        if self.report_ids:
            parts.append(f"report_id in {_quote_list(self.report_ids)}")
        if self.finding_ids:
            parts.append(f"finding_id in {_quote_list(self.finding_ids)}")
        if self.exclude_finding_ids:
            parts.append(f"finding_id not in {_quote_list(self.exclude_finding_ids)}")
        return " and ".join(parts)

    def matches(self, meta: Mapping[str, Any]) -> bool:
        if self.institutions and not set(self.institutions) & set(meta.get("institutions") or ()):
            return False
        year = meta.get("year")
        if self.year_from is not None and (not year or year < self.year_from):
            return False
        if self.year_to is not None and (not year or year > self.year_to):
            return False
        if self.audit_types and meta.get("audit_type") not in self.audit_types:
            return False
        if self.dispositions and not set(self.dispositions) & set(meta.get("dispositions") or ()):
            return False
        if self.sections and meta.get("section") not in self.sections:
            return False
        if self.report_ids and meta.get("report_id") not in self.report_ids:
            return False
        if self.exclude_finding_ids and meta.get("finding_id") in self.exclude_finding_ids:
            return False
        return not (self.finding_ids and meta.get("finding_id") not in self.finding_ids)
