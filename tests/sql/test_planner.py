"""The offline planner: each example question plans SQL that validates and returns the numbers
computed here from the fixture rows (independently of the planner)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.sql import OfflineSqlPlanner, ReadOnlySql, validate_sql
from app.sql.planner import detect_intent, quote
from graph.schemas import FieldSelection, SqlQuery

from .conftest import Row, Store


def _mentions(row: Row, name: str) -> bool:
    return any(name in (v or "") for v in (row.institution, row.responsible_org, row.action_orgs))


def _select(rows: list[Row], *, institution: str | None = None, year: int | None = None,
            disposition: str | None = None, audit_type: str | None = None) -> list[Row]:
    return [
        r for r in rows
        if (institution is None or _mentions(r, institution))
        and (year is None or r.year == year)
        and (disposition is None or disposition in r.dispositions)
        and (audit_type is None or audit_type in r.audit_type)
    ]


@pytest.fixture
def run(store: Store):
    executor = ReadOnlySql(store.url)
    planner = OfflineSqlPlanner()

    def _run(question: str, fields: FieldSelection) -> dict:
        plan = planner.plan(question, fields)
        assert isinstance(plan, SqlQuery) and plan.reasoning
        validate_sql(plan.sql)  # raises if the template is not valid
        return executor.run(plan.sql)

    return _run


def test_count_with_year_and_disposition(store: Store, run) -> None:
    result = run("2025년 주의 처분 건수", FieldSelection(year_from=2025, year_to=2025, dispositions=["주의"]))
    assert result["rows"] == [[len(_select(store.rows, year=2025, disposition="주의"))]]
    assert result["rows"] == [[3]]


def test_list_for_an_institution(store: Store, run) -> None:
    result = run("경찰청 지적사항 목록", FieldSelection(institutions=["경찰청"]))
    expected = {r.id for r in _select(store.rows, institution="경찰청")}
    assert {row[result["columns"].index("id")] for row in result["rows"]} == expected
    assert "report_title" in result["columns"] and len(expected) == 3  # includes 서울특별시경찰청 (LIKE)
    assert {row[result["columns"].index("total_count")] for row in result["rows"]} == {3}  # every match counted, in each row


def test_group_by_disposition(store: Store, run) -> None:
    result = run("처분 종류별 건수", FieldSelection())
    expected = Counter(d for r in store.rows for d in r.dispositions)
    assert result["columns"] == ["disposition", "finding_count"]
    assert {d: n for d, n in result["rows"]} == dict(expected)
    assert [n for _, n in result["rows"]] == sorted(expected.values(), reverse=True)


def test_top_institutions_with_a_disposition(store: Store, run) -> None:
    result = run("통보가 가장 많은 기관 5곳", FieldSelection(dispositions=["통보"]))
    counts = Counter(r.institution for r in _select(store.rows, disposition="통보") if r.institution)
    expected = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    assert [tuple(row) for row in result["rows"]] == expected
    assert expected[0] == ("행정안전부", 2)


def test_english_count(store: Store, run) -> None:
    result = run("How many findings got a 통보?", FieldSelection(dispositions=["통보"]))
    assert result["rows"] == [[len(_select(store.rows, disposition="통보"))]]
    assert result["rows"] == [[6]]


def test_group_by_institution(store: Store, run) -> None:
    result = run("기관별 지적 건수", FieldSelection())
    expected = Counter(r.institution for r in store.rows)
    assert {inst: n for inst, n in result["rows"]} == dict(expected)
    assert sum(n for _, n in result["rows"]) == len(store.rows)


def test_count_with_institution_and_audit_type(store: Store, run) -> None:
    fields = FieldSelection(institutions=["해양수산부"], audit_types=["기관정기감사"])
    result = run("해양수산부 정기감사 지적사항 수", fields)
    expected = _select(store.rows, institution="해양수산부", audit_type="기관정기감사")
    assert result["rows"] == [[len(expected)]]
    assert result["rows"] == [[3]]  # r2024's three (one via action_orgs), not the 성과감사 one


def test_group_by_year_is_ordered_by_year(store: Store, run) -> None:
    result = run("연도별 지적 건수", FieldSelection())
    expected = sorted(Counter(r.year for r in store.rows).items())
    assert [tuple(row) for row in result["rows"]] == expected


def test_top_n_with_year_filter(store: Store, run) -> None:
    result = run("2025년 상위 2개 기관", FieldSelection(year_from=2025, year_to=2025))
    counts = Counter(r.institution for r in _select(store.rows, year=2025) if r.institution)
    assert [tuple(row) for row in result["rows"]] == sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:2]


def test_question_without_intent_gets_a_filtered_list(store: Store, run) -> None:
    result = run("해양수산부 관련 내용", FieldSelection(institutions=["해양수산부"], year_from=2024, year_to=2024))
    expected = {r.id for r in _select(store.rows, institution="해양수산부", year=2024)}
    assert {row[0] for row in result["rows"]} == expected


def test_a_topic_keeps_the_findings_or_reports_that_hold_every_word(store: Store, run) -> None:
    by_report = {r.id for r in store.rows if r.id.startswith("r2025b")}  # '재난안전 관리실태 성과감사'
    ids = lambda result: {row[result["columns"].index("id")] for row in result["rows"]}  # noqa: E731
    assert ids(run("재난안전 관련 지적 목록", FieldSelection(topic=["재난 안전"]))) == by_report  # spaces aside
    assert ids(run("경찰청 관련 지적 목록", FieldSelection(topic=["경찰청"]))) == {"r2025a-F01", "r2025a-F02", "r2025a-F03"}  # finding titles
    assert run("재난안전 경찰청 지적 몇 건", FieldSelection(topic=["재난안전", "경찰청"]))["rows"] == [[0]]  # every word
    assert run("건수", FieldSelection(topic=["재난안전"], dispositions=["주의"]))["rows"] == [[1]]  # with the filters
    assert run("목록", FieldSelection(topic=["%"]))["rows"] == []  # a wildcard matches itself only


def test_quoted_values_cannot_break_out(store: Store, run) -> None:
    hostile = "x' OR 1=1); DROP TABLE findings; --"
    before = store.sha256()
    result = run("경찰청 목록", FieldSelection(institutions=[hostile], dispositions=["주의' OR '1'='1"]))
    assert result["rows"] == []
    assert store.sha256() == before
    # A real name with a quote, and LIKE wildcards that must match literally.
    assert len(run("목록", FieldSelection(institutions=["O'Neil 재단"]))["rows"]) == 1
    assert run("목록", FieldSelection(institutions=["%"]))["rows"] == []
    assert run("목록", FieldSelection(institutions=["_"]))["rows"] == []


@pytest.mark.parametrize(
    ("question", "kind", "dimension", "n"),
    [
        ("2025년 주의 처분 건수", "count", None, None),
        ("경찰청 지적사항 목록", "list", None, None),
        ("경찰청 지적사항 보여줘", "list", None, None),
        ("처분 종류별 건수", "group", "disposition", None),
        ("처분별 현황", "group", "disposition", None),
        ("통보가 가장 많은 기관 5곳", "top", "institution", 5),
        ("상위 3개 기관", "top", "institution", 3),
        ("top 5 institutions by findings", "top", "institution", 5),
        ("How many findings got a 통보?", "count", None, None),
        ("count of findings in 2024", "count", None, None),
        ("기관별 지적 건수", "group", "institution", None),
        ("findings by year", "group", "year", None),
        ("breakdown by disposition", "group", "disposition", None),
        ("해양수산부 정기감사 지적사항 수", "count", None, None),
        ("해양수산부 지적은 몇 건이야?", "count", None, None),
        ("가장 많은 처분 종류", "top", "disposition", 5),
        ("해수부 정기감사, 몇 건이나 지적됐고 각각 뭔지 한 줄씩", "list", None, None),  # the count and what each is
        ("How many findings did LH get, and what were they?", "list", None, None),
        ("처분 종류는 몇 건이야?", "count", None, None),
        ("뭔지 몰라도 몇 건이야", "count", None, None),  # '뭔지' of no finding
        ("2023년이랑 2024년 각각 몇 건이야?", "count", None, None),
    ],
)
def test_intent_detection(question: str, kind: str, dimension: str | None, n: int | None) -> None:
    intent = detect_intent(question)
    assert (intent.kind, intent.dimension, intent.n) == (kind, dimension, n)


def test_quote_doubles_quotes_and_drops_control_characters() -> None:
    assert quote("O'Neil") == "'O''Neil'"
    assert quote("a\x00b\nc") == "'abc'"
