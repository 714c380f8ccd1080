"""Hostile SQL, through validate_sql and through ReadOnlySql.run: every input is refused or made
harmless; the database file never changes and nothing outside the allow-list is ever read."""

from __future__ import annotations

import json
import sqlite3

import pytest

from app.sql import ReadOnlySql, validate_sql
from graph.ports import SqlRejected

from .conftest import SECRET, Store

REJECT = "reject"  # validate_sql refuses it, so run() does too
CLAMP = "clamp"  # validates with LIMIT <= max_rows; runs and returns at most max_rows rows
RUNTIME = "runtime"  # validates, then the executor stops it (timeout, size limit)

MAX_ROWS = 200
CARTESIAN = ", ".join(f"findings t{i}" for i in range(9))

HOSTILE: list[tuple[str, str, str]] = [
    # stacked statements and comment tricks
    ("stacked-drop", "SELECT 1; DROP TABLE findings", REJECT),
    ("two-selects", "SELECT * FROM findings; SELECT * FROM reports", REJECT),
    ("trailing-line-comment", "SELECT 1; -- DROP TABLE findings", REJECT),
    ("block-comment-then-drop", "SELECT 1 /* */; DROP TABLE findings", REJECT),
    ("line-comment-newline-delete", "SELECT 1 -- harmless\n; DELETE FROM findings", REJECT),
    ("comment-hides-keyword", "SELECT 1 --\n; DROP TABLE reports --", REJECT),
    ("comment-disguised-drop", "/* SELECT */ DROP TABLE findings", REJECT),
    ("begin-delete-commit", "BEGIN; DELETE FROM findings; COMMIT", REJECT),
    ("nul-byte", "SELECT 1\x00; DROP TABLE findings", REJECT),
    # writes hidden in CTEs and subqueries
    ("cte-delete", "WITH x AS (DELETE FROM findings RETURNING *) SELECT * FROM x", REJECT),
    ("cte-insert", "WITH x AS (INSERT INTO findings (id) VALUES ('x') RETURNING id) SELECT * FROM x", REJECT),
    ("cte-update", "WITH x AS (UPDATE findings SET title = 'p' RETURNING id) SELECT * FROM x", REJECT),
    ("subquery-delete", "SELECT * FROM findings WHERE id IN (DELETE FROM findings RETURNING id)", REJECT),
    ("scalar-update", "SELECT (UPDATE findings SET title = 'x' RETURNING 1)", REJECT),
    # plain writes and DDL
    ("insert", "INSERT INTO findings (id) VALUES ('x')", REJECT),
    ("update", "UPDATE findings SET title = 'pwned'", REJECT),
    ("delete", "DELETE FROM findings", REJECT),
    ("drop", "DROP TABLE findings", REJECT),
    ("create", "CREATE TABLE evil (x)", REJECT),
    ("create-view", "CREATE VIEW v AS SELECT * FROM chunks", REJECT),
    ("alter", "ALTER TABLE findings ADD COLUMN evil TEXT", REJECT),
    ("replace", "REPLACE INTO findings (id) VALUES ('x')", REJECT),
    ("insert-or-replace", "INSERT OR REPLACE INTO reports (id) VALUES ('x')", REJECT),
    ("explain", "EXPLAIN SELECT 1", REJECT),
    # attach, pragma, extensions, files
    ("attach", "ATTACH DATABASE '/tmp/aura-evil.db' AS evil", REJECT),
    ("detach", "DETACH DATABASE main", REJECT),
    ("pragma-writable-schema", "PRAGMA writable_schema = ON", REJECT),
    ("pragma-query-only-off", "PRAGMA query_only = OFF", REJECT),
    ("pragma-table-info", "PRAGMA table_info(findings)", REJECT),
    ("load-extension", "SELECT load_extension('/tmp/evil.so')", REJECT),
    ("readfile", "SELECT readfile('/etc/passwd')", REJECT),
    ("writefile", "SELECT writefile('/tmp/aura-x', 'y')", REJECT),
    ("vacuum-into", "VACUUM INTO '/tmp/aura-copy.db'", REJECT),
    ("vacuum", "VACUUM", REJECT),
    ("randomblob", "SELECT randomblob(1000000000)", REJECT),
    ("zeroblob", "SELECT zeroblob(1000000000)", REJECT),
    ("printf-bomb", "SELECT printf('%.*c', 1000000000, 'x')", REJECT),
    ("sqlite-version", "SELECT sqlite_version()", REJECT),
    ("json-extract", "SELECT json_extract('{}', '$')", REJECT),
    ("json-each", "SELECT * FROM json_each('[1]')", REJECT),
    ("fts-match", "SELECT * FROM findings WHERE findings MATCH 'x'", REJECT),
    ("fts-highlight", "SELECT highlight(chunks_fts, 0, '[', ']') FROM chunks_fts", REJECT),
    # schema and tables outside the allow-list
    ("sqlite-master", "SELECT name, sql FROM sqlite_master", REJECT),
    ("sqlite-schema", "SELECT * FROM sqlite_schema", REJECT),
    ("sqlite-temp-master", "SELECT * FROM findings WHERE EXISTS (SELECT 1 FROM sqlite_temp_master)", REJECT),
    ("pragma-table-info-fn", "SELECT * FROM pragma_table_info('chunks')", REJECT),
    ("chunks", "SELECT * FROM chunks", REJECT),
    ("api-keys", "SELECT * FROM api_keys", REJECT),
    ("chunks-in-scalar-subquery", "SELECT f.id, (SELECT text FROM chunks LIMIT 1) FROM findings f", REJECT),
    ("union-api-keys", "SELECT id FROM findings UNION SELECT secret FROM api_keys", REJECT),
    ("cte-shadowing-chunks", "WITH chunks AS (SELECT * FROM chunks) SELECT * FROM chunks", REJECT),
    ("inner-cte-scope", "SELECT * FROM chunks WHERE EXISTS (WITH chunks AS (SELECT 1) SELECT 1 FROM chunks)", REJECT),
    ("schema-qualified", "SELECT * FROM main.chunks", REJECT),
    ("temp-schema", "SELECT * FROM temp.findings", REJECT),
    ("rowid", "SELECT rowid FROM findings", REJECT),
    ("double-quoted-unknown", 'SELECT "secret" FROM findings', REJECT),
    ("placeholder", "SELECT * FROM findings WHERE id = ?", REJECT),
    # limits and offsets
    ("enormous-limit", "SELECT * FROM findings LIMIT 99999999999999999999", CLAMP),
    ("negative-limit", "SELECT * FROM findings LIMIT -1", CLAMP),
    ("limit-comma-form", "SELECT * FROM findings LIMIT 0, 100000", CLAMP),
    ("union-enormous-limit", "SELECT id FROM findings UNION ALL SELECT id FROM reports LIMIT 1000000", CLAMP),
    ("negative-offset", "SELECT * FROM findings LIMIT 1 OFFSET -5", REJECT),
    ("enormous-offset", "SELECT * FROM findings LIMIT 10 OFFSET 99999999999", REJECT),
    ("subquery-limit", "SELECT * FROM findings LIMIT (SELECT count(*) FROM chunks)", REJECT),
    ("expression-limit", "SELECT * FROM findings LIMIT 1 + 1", REJECT),
    ("string-limit", "SELECT * FROM findings LIMIT '5'", REJECT),
    # runaway work
    ("recursive-forever", "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c", RUNTIME),
    ("cartesian-count", f"SELECT count(*) FROM {CARTESIAN}", RUNTIME),
    ("cartesian-rows", "SELECT * FROM findings a, findings b, findings c", CLAMP),
    ("string-doubling", "WITH RECURSIVE c(s, n) AS (SELECT 'ab', 0 UNION ALL SELECT s || s, n + 1 FROM c WHERE n < 40) "
                        "SELECT max(length(s)) FROM c", RUNTIME),
    # unicode homoglyphs
    ("fullwidth-select", "ＳＥＬＥＣＴ * FROM findings", REJECT),
    ("cyrillic-e-select", "SЕLECT * FROM findings", REJECT),
    ("cyrillic-i-table", "SELECT * FROM fіndings", REJECT),
    ("cyrillic-o-drop", "SELECT * FROM findings; DRОP TABLE findings", REJECT),
    # degenerate input
    ("empty", "", REJECT),
    ("whitespace", "   \n\t ", REJECT),
    ("only-comment", "-- nothing here", REJECT),
    ("only-semicolon", ";", REJECT),
    ("10k-expression", "SELECT " + "1+" * 5000 + "1", REJECT),
    ("10k-literal", "SELECT * FROM findings WHERE title = '" + "a" * 10_000 + "'", REJECT),
    ("deep-parentheses", "SELECT " + "(" * 1500 + "1" + ")" * 1500, REJECT),
]


def _leaks(result: object) -> bool:
    return SECRET in json.dumps(result, ensure_ascii=False)


def _counts(store: Store) -> dict[str, int]:
    conn = sqlite3.connect(f"file:{store.path}?mode=ro", uri=True)
    try:
        tables = ("reports", "findings", "finding_dispositions", "chunks", "api_keys")
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}  # noqa: S608
    finally:
        conn.close()


@pytest.fixture(scope="module")
def baseline(store: Store) -> tuple[str, dict[str, int]]:
    return store.sha256(), _counts(store)


def test_there_are_enough_hostile_inputs() -> None:
    assert len(HOSTILE) >= 40
    assert len({name for name, _, _ in HOSTILE}) == len(HOSTILE)


@pytest.mark.parametrize(("sql", "outcome"), [(s, o) for _, s, o in HOSTILE], ids=[n for n, _, _ in HOSTILE])
def test_validator(sql: str, outcome: str) -> None:
    if outcome == REJECT:
        with pytest.raises(SqlRejected) as info:
            validate_sql(sql, max_rows=MAX_ROWS)
        assert str(info.value) and SECRET not in str(info.value)
        return
    safe = validate_sql(sql, max_rows=MAX_ROWS)
    assert f"LIMIT {MAX_ROWS}" in safe or outcome == RUNTIME
    assert ";" not in safe and "--" not in safe and "/*" not in safe


@pytest.mark.parametrize(("sql", "outcome"), [(s, o) for _, s, o in HOSTILE], ids=[n for n, _, _ in HOSTILE])
def test_executor(store: Store, baseline: tuple[str, dict[str, int]], sql: str, outcome: str) -> None:
    executor = ReadOnlySql(store.url, timeout_s=0.5, max_rows=MAX_ROWS)
    if outcome in (REJECT, RUNTIME):
        with pytest.raises(SqlRejected) as info:
            executor.run(sql)
        assert SECRET not in str(info.value)
        if outcome == RUNTIME:
            assert "too long" in str(info.value) or "too large" in str(info.value)
    else:
        result = executor.run(sql)
        assert result["row_count"] == len(result["rows"]) <= MAX_ROWS
        assert f"LIMIT {MAX_ROWS}" in result["query"]
        assert not _leaks(result)
    sha, counts = baseline
    assert store.sha256() == sha
    assert _counts(store) == counts


def test_timeout_is_quick(store: Store) -> None:
    import time

    executor = ReadOnlySql(store.url, timeout_s=0.3)
    start = time.monotonic()
    with pytest.raises(SqlRejected, match="too long"):
        executor.run("WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c")
    assert time.monotonic() - start < 2.0


def test_trailing_semicolon_is_allowed_but_two_statements_are_not(store: Store) -> None:
    assert validate_sql("SELECT id FROM findings;") == "SELECT id FROM findings LIMIT 200"
    assert validate_sql("SELECT id FROM findings ;  \n") == "SELECT id FROM findings LIMIT 200"
    with pytest.raises(SqlRejected, match="one statement"):
        validate_sql("SELECT id FROM findings; SELECT id FROM reports")
    assert ReadOnlySql(store.url).run("SELECT count(*) FROM findings;")["rows"] == [[len(store.rows)]]


# --- the second layer on its own: the authorizer and connection limits, validator bypassed ---

RAW_HOSTILE = [
    "SELECT * FROM chunks",
    "SELECT secret FROM api_keys",
    "SELECT name, sql FROM sqlite_master",
    "SELECT * FROM pragma_table_info('findings')",
    "SELECT f.id, c.text FROM findings f JOIN chunks c ON c.finding_id = f.id",
    "SELECT rowid FROM findings",
    "PRAGMA writable_schema = ON",
    "PRAGMA query_only = OFF",
    "ATTACH DATABASE '/tmp/aura-evil.db' AS evil",
    "DELETE FROM findings",
    "UPDATE findings SET title = 'x'",
    "INSERT INTO reports (id) VALUES ('x')",
    "DROP TABLE findings",
    "CREATE TABLE evil (x)",
    "CREATE TEMP TABLE evil (x)",
    "VACUUM INTO '/tmp/aura-copy.db'",
    "SELECT load_extension('/tmp/evil.so')",
    "SELECT randomblob(10)",
    "SELECT sqlite_version()",
    "SELECT 1; DROP TABLE findings",
    "BEGIN IMMEDIATE",
]


@pytest.mark.parametrize("sql", RAW_HOSTILE)
def test_authorizer_alone_refuses(store: Store, baseline: tuple[str, dict[str, int]], sql: str) -> None:
    executor = ReadOnlySql(store.url, timeout_s=0.5)
    with pytest.raises(SqlRejected) as info:
        executor._run_sqlite(sql)  # bypasses validate_sql on purpose
    assert SECRET not in str(info.value)
    sha, counts = baseline
    assert store.sha256() == sha and _counts(store) == counts


def test_authorizer_alone_allows_ordinary_reads(store: Store) -> None:
    columns, rows = ReadOnlySql(store.url)._run_sqlite(
        "SELECT f.institution, count(*) FROM findings f JOIN finding_dispositions d ON d.finding_id = f.id "
        "WHERE f.title LIKE '%지적%' GROUP BY f.institution"
    )
    assert columns == ["institution", "count(*)"] and rows
