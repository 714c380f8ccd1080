"""Offline text-to-SQL: four intent templates over findings, filtered by the selected fields.

Intents, tried in this order (first match wins):

- top-N    "통보가 가장 많은 기관 5곳", "상위 3개", "top 5 institutions": counts per dimension,
           largest first, N rows (default 5, at most 50);
- group-by "처분 종류별 건수", "기관별", "연도별", "유형별", "by disposition/institution/year":
           finding counts per dimension;
- count    "몇 건", "건수", "개수", "지적사항 수", "how many", "count": one number, unless the
           question also asks what each one is ("몇 건이고 각각 뭔지", "뭐뭐야", "and what are
           they"): then the list, whose answer states the count too;
- list     everything else ("목록", "보여줘", or no intent word at all): the matching findings
           with their report title and how many match in all (``total_count``), newest first,
           at most 50.

The filters come only from ``fields`` (select_fields has already read the question):
institutions match findings.institution, responsible_org or action_orgs (LIKE, any of
them); years bound findings.year; dispositions require a finding_dispositions row (EXISTS,
so a finding with two dispositions is counted once); audit types match findings.audit_type
(LIKE); a topic (``FieldSelection.topic``, '감정평가 관련 지적 몇 건') keeps the findings whose
title, overview, problems or report title holds each of its words, spaces and line breaks
aside. Values are
written as quoted literals (quotes doubled, LIKE wildcards escaped); the
text of the question itself never reaches the SQL. The result still goes through
validate_sql before it runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from graph.schemas import FieldSelection, SqlQuery

IntentKind = Literal["top", "group", "count", "list"]
Dimension = Literal["institution", "disposition", "year", "audit_type"]

_DIMENSION_SQL: dict[Dimension, str] = {
    "institution": "f.institution",
    "disposition": "d.disposition",
    "year": "f.year",
    "audit_type": "f.audit_type",
}

DIMENSION_LABELS: dict[Dimension, tuple[str, str]] = {
    "institution": ("기관", "institution"), "disposition": ("처분", "disposition"), "year": ("연도", "year"), "audit_type": ("감사 유형", "audit type"),
}
"""Each dimension in Korean and English, for the answer that reads the grouped rows."""

TOP_RANK = r"상위(?!\s*(?:법|규정|규범|지침|계획|부처|부서|직급|기관\s*(?:의|승인|지시|지침|보고|에|과|와|이|가|을|를)))"
"""'상위' as a rank ('상위 3개 기관', '상위 기관 어디야'), not a higher law or body ('상위법', '상위기관 승인')."""

_TOP = re.compile(r"가장\s*많|최다|" + TOP_RANK + r"|많은\s*순|\btop\b|\bmost\b", re.IGNORECASE)
_TOP_N = re.compile(r"(?:\btop|상위)\s*(\d{1,3})|(\d{1,3})\s*(?:곳|개|위|군데|대)", re.IGNORECASE)
_GROUP = re.compile(
    r"(종류|처분|기관|연도|년도|유형)\s*별|\b(?:by|per)\s+(disposition|institution|agenc|organi|year|audit\s*type|type)",
    re.IGNORECASE,
)
_COUNT = re.compile(
    r"몇\s*[건개]|건수|개수|총\s*몇|얼마나\s*많|(?<![가-힣])수(?:는|가|를)?(?![가-힣])|how\s+many|\bcount\b|number\s+of",
    re.IGNORECASE,
)
_EACH_ONE = re.compile(
    r"각각\s*(?:뭔지|뭐|무엇|무슨|어떤)|하나씩|한\s*줄씩|건별로|뭐뭐|무엇무엇|뭐였는지|무엇이었는지|어떤\s*(?:건|것|거)들?(?:이었|이|인)지|"
    r"\bwhat (?:are|were) they\b|\b(?:list|name) them\b|\bwhich (?:ones|were they)\b",
    re.IGNORECASE,
)
"""A count that also asks what each finding is: the list answers both."""
_GROUP_WORDS: dict[str, Dimension] = {
    "종류": "disposition", "처분": "disposition", "disposition": "disposition",
    "기관": "institution", "institution": "institution", "agenc": "institution", "organi": "institution",
    "연도": "year", "년도": "year", "year": "year",
    "유형": "audit_type", "audit type": "audit_type", "audittype": "audit_type", "type": "audit_type",
}
_TOP_DIMENSIONS: tuple[tuple[re.Pattern[str], Dimension], ...] = (
    (re.compile(r"기관|institution|agenc|organi", re.IGNORECASE), "institution"),
    (re.compile(r"연도|년도|\byears?\b", re.IGNORECASE), "year"),
    (re.compile(r"유형|audit\s*type", re.IGNORECASE), "audit_type"),
    (re.compile(r"처분|종류|disposition", re.IGNORECASE), "disposition"),
)

DEFAULT_TOP_N = 5
MAX_TOP_N = 50
LIST_LIMIT = 50


@dataclass(frozen=True)
class Intent:
    kind: IntentKind
    dimension: Dimension | None = None
    n: int | None = None


def detect_intent(question: str) -> Intent:
    if _TOP.search(question):
        m = _TOP_N.search(question)
        n = int(m.group(1) or m.group(2)) if m else DEFAULT_TOP_N
        dimension = next((d for rx, d in _TOP_DIMENSIONS if rx.search(question)), "institution")
        return Intent("top", dimension, max(1, min(n, MAX_TOP_N)))
    if m := _GROUP.search(question):
        word = re.sub(r"\s+", " ", (m.group(1) or m.group(2)).lower())
        return Intent("group", _GROUP_WORDS.get(word, _GROUP_WORDS.get(word.replace(" ", ""), "institution")))
    if _COUNT.search(question) and not _EACH_ONE.search(question):
        return Intent("count")
    return Intent("list")


def quote(value: str) -> str:
    """A SQLite string literal: control characters dropped, single quotes doubled."""
    cleaned = "".join(ch for ch in str(value) if ch >= " " or ch == "\t")
    return "'" + cleaned.replace("'", "''") + "'"


def _like(value: str) -> str:
    """``LIKE '%value%'`` with the LIKE wildcards in ``value`` escaped."""
    escaped = value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"LIKE {quote(f'%{escaped}%')}" + (" ESCAPE '\\'" if escaped != value else "")


def _like_any(columns: tuple[str, ...], values: list[str]) -> str:
    return "(" + " OR ".join(f"{col} {_like(value)}" for value in values for col in columns) + ")"


def _mentions(word: str) -> str:
    """Findings whose title, overview, problems or report title holds ``word``, spaces and line
    breaks aside (PDF text splits and joins words at random)."""
    like = _like("".join(word.split()))
    columns = [f"replace(replace({c}, ' ', ''), '\n', '') {like}" for c in ("f.title", "f.overview", "f.problems")]
    columns.append(f"f.report_id IN (SELECT r2.id FROM reports r2 WHERE replace(replace(r2.title, ' ', ''), '\n', '') {like})")
    return "(" + " OR ".join(columns) + ")"


class OfflineSqlPlanner:
    """``plan(question, fields) -> SqlQuery`` from intent templates (no model)."""

    def plan(self, question: str, fields: FieldSelection) -> SqlQuery:
        intent = detect_intent(question)
        join_dispositions = intent.dimension == "disposition"
        where = self._where(fields, join_dispositions)
        if intent.kind == "list":
            sql = self._list(where)
        elif intent.kind == "count":
            sql = f"SELECT COUNT(*) AS finding_count FROM findings f{_where_sql(where)}"
        else:
            sql = self._grouped(intent, where)
        return SqlQuery(reasoning=self._reasoning(intent, fields), sql=sql)

    @staticmethod
    def _where(fields: FieldSelection, join_dispositions: bool) -> list[str]:
        where: list[str] = []
        institutions = [i.strip() for i in fields.institutions if i and i.strip()]
        if institutions:
            where.append(_like_any(("f.institution", "f.responsible_org", "f.action_orgs"), institutions))
        if fields.year_from is not None:
            where.append(f"f.year >= {int(fields.year_from)}")
        if fields.year_to is not None:
            where.append(f"f.year <= {int(fields.year_to)}")
        dispositions = [d.strip() for d in fields.dispositions if d and d.strip()]
        if dispositions:
            values = ", ".join(quote(d) for d in dispositions)
            if join_dispositions:
                where.append(f"d.disposition IN ({values})")
            else:
                where.append(
                    "EXISTS (SELECT 1 FROM finding_dispositions fd WHERE fd.finding_id = f.id "
                    f"AND fd.disposition IN ({values}))"
                )
        audit_types = [a.strip() for a in fields.audit_types if a and a.strip()]
        if audit_types:
            where.append(_like_any(("f.audit_type",), audit_types))
        report_ids = [r for r in fields.report_ids if r]
        if report_ids:
            where.append(f"f.report_id IN ({', '.join(quote(r) for r in report_ids)})")
        where += [_mentions(word) for word in fields.topic if word and word.strip()]
        return where

    @staticmethod
    def _list(where: list[str]) -> str:
        return (
            "SELECT f.id, f.title, f.institution, f.year, f.disposition, f.audit_type, r.title AS report_title, "
            f"(SELECT COUNT(*) FROM findings f JOIN reports r ON r.id = f.report_id{_where_sql(where)}) AS total_count "
            "FROM findings f JOIN reports r ON r.id = f.report_id"
            f"{_where_sql(where)} ORDER BY f.year DESC, f.id LIMIT {LIST_LIMIT}"
        )

    @staticmethod
    def _grouped(intent: Intent, where: list[str]) -> str:
        assert intent.dimension is not None
        column = _DIMENSION_SQL[intent.dimension]
        source = "findings f"
        if intent.dimension == "disposition":
            source += " JOIN finding_dispositions d ON d.finding_id = f.id"
        if intent.kind == "top":
            where = [*where, f"{column} IS NOT NULL"]
        order = f"{column}" if intent.kind == "group" and intent.dimension == "year" else f"finding_count DESC, {column}"
        sql = (
            f"SELECT {column} AS {intent.dimension}, COUNT(DISTINCT f.id) AS finding_count "
            f"FROM {source}{_where_sql(where)} GROUP BY {column} ORDER BY {order}"
        )
        return sql + (f" LIMIT {intent.n}" if intent.kind == "top" else "")

    @staticmethod
    def _reasoning(intent: Intent, fields: FieldSelection) -> str:
        what = {
            "top": f"top {intent.n} by {intent.dimension}",
            "group": f"finding counts by {intent.dimension}",
            "count": "a count of findings",
            "list": "a list of findings (no count, group or top-N wording)",
        }[intent.kind]
        named = [k for k, v in fields.model_dump(include={"institutions", "year_from", "year_to", "dispositions", "audit_types", "topic"}).items() if v]
        return f"offline template: {what}; filters: {', '.join(named) or 'none'}"


def _where_sql(where: list[str]) -> str:
    return " WHERE " + " AND ".join(where) if where else ""
