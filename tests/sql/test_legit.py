"""Ordinary fast-track SQL passes, comes back normalised with its LIMIT, and runs read-only."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from sqlalchemy import inspect

from app.db.models import Base
from app.db.session import make_engine
from app.sql import ALLOWED_COLUMNS, ALLOWED_TABLES, SCHEMA_DESCRIPTION, ReadOnlySql, validate_sql
from graph.ports import SqlRejected

from .conftest import Store

LEGIT = [
    "SELECT f.id, f.title, r.title AS report_title, d.disposition FROM findings f "
    "JOIN reports r ON r.id = f.report_id JOIN finding_dispositions d ON d.finding_id = f.id "
    "WHERE f.year = 2025 ORDER BY f.id, d.ordinal",
    "SELECT institution, COUNT(*) AS n FROM findings GROUP BY institution HAVING COUNT(*) > 1 ORDER BY n DESC",
    "WITH per_year AS (SELECT year, COUNT(*) AS n FROM findings GROUP BY year) SELECT * FROM per_year ORDER BY year",
    "SELECT d.disposition, COUNT(DISTINCT f.id) AS n FROM finding_dispositions d "
    "LEFT JOIN findings f ON f.id = d.finding_id GROUP BY d.disposition",
    "SELECT id FROM findings WHERE id IN (SELECT finding_id FROM finding_dispositions WHERE disposition IN ('주의', '통보'))",
    "SELECT id FROM findings WHERE EXISTS (SELECT 1 FROM finding_dispositions fd WHERE fd.finding_id = findings.id)",
    "SELECT year FROM findings UNION SELECT year FROM reports ORDER BY year",
    "SELECT CASE WHEN amount_krw >= 2000000 THEN 'large' ELSE 'small' END AS size, COUNT(*) FROM findings GROUP BY size",
    "SELECT * FROM (SELECT institution, SUM(amount_krw) AS total FROM findings GROUP BY institution) t WHERE t.total > 0",
    "SELECT r.title, COUNT(f.id) AS findings FROM reports r LEFT JOIN findings f ON f.report_id = r.id GROUP BY r.id, r.title",
    "SELECT f.* FROM findings AS f WHERE f.action_orgs LIKE '%해양수산부%' ORDER BY f.id LIMIT 5 OFFSET 1",
    "SELECT id FROM findings WHERE title GLOB '*지적*' AND year BETWEEN 2023 AND 2025 AND institution IS NOT NULL",
]

FUNCTIONS = (
    "SELECT COUNT(*), SUM(amount_krw), AVG(amount_krw), MIN(year), MAX(year), LOWER('A'), UPPER(title), "
    "LENGTH(title), SUBSTR(title, 1, 2), TRIM(' x '), COALESCE(institution, '-'), IFNULL(institution, '-'), "
    "NULLIF(1, 2), IIF(year > 2024, 'new', 'old'), ROUND(AVG(amount_krw) / 3.0, 1), ABS(-5), "
    "CAST(year AS TEXT), STRFTIME('%Y', '2025-09-25'), DATE('2025-09-25'), INSTR(title, '지적'), "
    "REPLACE(title, '지적', 'F'), GROUP_CONCAT(DISTINCT institution) FROM findings"
)


@pytest.mark.parametrize("sql", LEGIT)
def test_legit_queries_validate_and_run(store: Store, sql: str) -> None:
    before = store.sha256()
    safe = validate_sql(sql)
    assert "LIMIT" in safe
    assert validate_sql(safe) == safe  # normalisation is stable
    result = ReadOnlySql(store.url).run(sql)
    assert result["query"] == safe
    assert result["row_count"] == len(result["rows"]) > 0
    json.dumps(result, allow_nan=False)
    assert store.sha256() == before


def test_every_allowed_function_passes_the_authorizer(store: Store) -> None:
    result = ReadOnlySql(store.url).run(FUNCTIONS)
    assert result["row_count"] == 1
    row = result["rows"][0]
    assert row[0] == len(store.rows) and row[-5] == "2025" and row[-4] == "2025-09-25"


def test_limit_is_injected_and_clamped_visibly(store: Store) -> None:
    assert validate_sql("SELECT id FROM findings") == "SELECT id FROM findings LIMIT 200"
    assert validate_sql("SELECT id FROM findings LIMIT 3") == "SELECT id FROM findings LIMIT 3"
    assert validate_sql("SELECT id FROM findings LIMIT 5000") == "SELECT id FROM findings LIMIT 200"
    assert validate_sql("SELECT id FROM findings LIMIT 5000", max_rows=10) == "SELECT id FROM findings LIMIT 10"
    result = ReadOnlySql(store.url, max_rows=4).run("SELECT id FROM findings ORDER BY id LIMIT 100")
    assert result["query"].endswith("LIMIT 4") and result["row_count"] == 4


def test_grouped_counts_match_the_fixture(store: Store) -> None:
    result = ReadOnlySql(store.url).run(
        "SELECT d.disposition, COUNT(DISTINCT f.id) FROM findings f JOIN finding_dispositions d "
        "ON d.finding_id = f.id GROUP BY d.disposition"
    )
    assert dict(map(tuple, result["rows"])) == dict(Counter(d for r in store.rows for d in r.dispositions))


def test_comments_are_dropped_from_the_sql_that_runs() -> None:
    assert validate_sql("SELECT id /* note */ FROM findings -- trailing\n") == "SELECT id FROM findings LIMIT 200"


def test_cte_name_taken_by_a_hidden_table_is_refused(store: Store) -> None:
    sql = "WITH api_keys AS (SELECT id FROM findings) SELECT COUNT(*) FROM api_keys"
    assert validate_sql(sql)  # the CTE shadows the table, so the text is fine ...
    with pytest.raises(SqlRejected, match="taken by a table"):
        ReadOnlySql(store.url).run(sql)  # ... but the executor refuses the ambiguity


def test_reads_while_the_application_holds_a_writer(store: Store) -> None:
    engine = make_engine(store.url)  # WAL mode, as the application runs it
    try:
        with engine.connect():
            result = ReadOnlySql(store.url).run("SELECT COUNT(*) FROM findings")
        assert result["rows"] == [[len(store.rows)]]
    finally:
        engine.dispose()


def test_unavailable_database_is_a_rejection(tmp_path) -> None:
    with pytest.raises(SqlRejected, match="not available"):
        ReadOnlySql(f"sqlite:///{tmp_path / 'missing.db'}").run("SELECT id FROM findings")
    assert not (tmp_path / "missing.db").exists()


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_in_memory_sqlite_is_refused(url: str) -> None:
    with pytest.raises(ValueError):
        ReadOnlySql(url)


def test_allow_list_names_real_columns_and_every_column_is_described() -> None:
    for table in ALLOWED_TABLES:
        model_columns = {c.name for c in Base.metadata.tables[table].columns}
        assert ALLOWED_COLUMNS[table] == model_columns, f"review the allow-list for {table}"
        assert table in SCHEMA_DESCRIPTION
        for column in model_columns:
            assert column in SCHEMA_DESCRIPTION


def test_allow_list_matches_the_stored_schema(store: Store) -> None:
    engine = make_engine(store.url)
    try:
        insp = inspect(engine)
        for table in ALLOWED_TABLES:
            assert {c["name"] for c in insp.get_columns(table)} == ALLOWED_COLUMNS[table]
    finally:
        engine.dispose()


def test_long_like_patterns_are_refused(store: Store) -> None:
    pattern = "%a" * 300
    with pytest.raises(SqlRejected, match="pattern is too long"):
        ReadOnlySql(store.url).run(f"SELECT id FROM findings WHERE overview LIKE '{pattern}'")


@pytest.mark.parametrize("sql", LEGIT + [FUNCTIONS])
def test_checked_sql_transpiles_for_postgresql(sql: str) -> None:
    from app.sql.validator import checked_tree

    assert checked_tree(sql).sql(dialect="postgres").startswith(("SELECT", "WITH"))
