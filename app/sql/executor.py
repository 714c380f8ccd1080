"""Run one validated SELECT without any way to write: the fast-track's ``run_sql``.

SQLite (the default store) gets a separate connection opened ``mode=ro`` with
``query_only``, connection limits, an authorizer that allows only reads of the allow-listed
tables and calls of the allow-listed functions, and a progress handler that stops the
query after ``timeout_s``. Other databases (PostgreSQL) run the transpiled query inside a
``READ ONLY`` transaction with a ``statement_timeout`` and roll it back; there the table
allow-list rests on the validator, so give the connection a role that can only SELECT.
"""

from __future__ import annotations

import base64
import math
import sqlite3
import time
from datetime import date, datetime
from datetime import time as dtime
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlglot import exp

from app.sql.validator import ALLOWED_COLUMNS, ALLOWED_FUNCTIONS, ALLOWED_TABLES, checked_tree
from graph.ports import SqlRejected

_PROGRESS_STEPS = 1000
"""SQLite VM instructions between two looks at the clock."""

_SQLITE_LIMITS = {
    sqlite3.SQLITE_LIMIT_LENGTH: 4_000_000,
    sqlite3.SQLITE_LIMIT_SQL_LENGTH: 20_000,
    sqlite3.SQLITE_LIMIT_ATTACHED: 0,
    sqlite3.SQLITE_LIMIT_EXPR_DEPTH: 200,
    sqlite3.SQLITE_LIMIT_COMPOUND_SELECT: 20,
    sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH: 500,
}
"""No string over 4 MB (a doubling recursive CTE fails fast), no ATTACH at all, and short
LIKE/GLOB patterns (matching runs inside one VM step, out of the progress handler's reach)."""


class ReadOnlySql:
    """``run(sql) -> {query, columns, rows, row_count}``; raises SqlRejected."""

    def __init__(self, database_url: str, timeout_s: float = 2.0, max_rows: int = 200) -> None:
        if timeout_s <= 0:
            raise ValueError("timeout_s must be positive")
        self.timeout_s = timeout_s
        self.max_rows = max_rows
        url = make_url(database_url)
        self.dialect = url.get_backend_name()
        self._engine: Engine | None = None
        self._sqlite_uri: str | None = None
        if self.dialect == "sqlite":
            if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
                raise ValueError("ReadOnlySql needs a SQLite file path (sqlite:////path/aura.db)")
            self._sqlite_uri = Path(url.database).resolve().as_uri() + "?mode=ro"
        else:
            self._url = url

    def run(self, sql: str) -> dict[str, Any]:
        tree = checked_tree(sql, self.max_rows)
        query = tree.sql(dialect="sqlite", comments=False)
        if self._sqlite_uri is not None:
            ctes = frozenset(cte.alias.lower() for cte in tree.find_all(exp.CTE))
            columns, rows = self._run_sqlite(query, ctes)
        else:
            columns, rows = self._run_other(tree.sql(dialect=self.dialect, comments=False))
        return {
            "query": query,
            "columns": columns,
            "rows": [[_json_safe(v) for v in row] for row in rows],
            "row_count": len(rows),
        }

    # --- SQLite -----------------------------------------------------------------------

    def _run_sqlite(self, query: str, ctes: frozenset[str] = frozenset()) -> tuple[list[str], list[tuple]]:
        """``ctes``: the query's CTE names, whose rows SQLite reports as reads of a table of
        that name (``count(*)`` over a CTE); refused when a real table has that name."""
        assert self._sqlite_uri is not None
        try:
            conn = sqlite3.connect(self._sqlite_uri, uri=True, timeout=self.timeout_s, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise SqlRejected("the database is not available") from exc
        denied: list[str] = []
        try:
            conn.execute("PRAGMA query_only=ON")
            for limit, value in _SQLITE_LIMITS.items():
                conn.setlimit(limit, value)
            if ctes:
                tables = {r[0].lower() for r in conn.execute("SELECT name FROM sqlite_master")}
                if clash := sorted((ctes & tables) - ALLOWED_TABLES):
                    raise SqlRejected(f"the CTE name {clash[0][:40]} is taken by a table; rename it")
            conn.set_authorizer(_authorizer(denied, ctes))
            deadline = time.monotonic() + self.timeout_s
            conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
            try:
                cursor = conn.execute(query)
                rows = cursor.fetchmany(self.max_rows)
            except sqlite3.Error as exc:
                raise SqlRejected(_sqlite_reason(exc, denied, time.monotonic() > deadline)) from exc
            except (OverflowError, ValueError) as exc:
                raise SqlRejected("a value in the result cannot be read") from exc
            columns = [d[0] for d in cursor.description or ()]
            return columns, rows
        finally:
            conn.close()

    # --- PostgreSQL and others --------------------------------------------------------

    def _run_other(self, query: str) -> tuple[list[str], list[tuple]]:
        if self._engine is None:
            self._engine = create_engine(self._url, pool_pre_ping=True)
        dbapi_error = self._engine.dialect.dbapi.Error
        raw = self._engine.raw_connection()
        try:
            cursor = raw.cursor()
            cursor.execute("SET TRANSACTION READ ONLY")
            cursor.execute(f"SET LOCAL statement_timeout = {max(1, int(self.timeout_s * 1000))}")
            cursor.execute(query)  # no parameters: the driver leaves '%' in LIKE patterns alone
            rows = [tuple(r) for r in cursor.fetchmany(self.max_rows)]
            columns = [d[0] for d in cursor.description or ()]
            return columns, rows
        except dbapi_error as exc:
            raise SqlRejected(f"the database refused the query ({type(exc).__name__})") from exc
        finally:
            raw.rollback()
            raw.close()


def _authorizer(denied: list[str], ctes: frozenset[str] = frozenset()):
    read_ok = {(t, c) for t, cols in ALLOWED_COLUMNS.items() for c in cols}
    read_ok |= {(t, "") for t in ALLOWED_TABLES | ctes}  # "SELECT count(*) FROM t" reads no column

    def authorize(action: int, arg1: str | None, arg2: str | None, db: str | None, _inner: str | None) -> int:
        if action in (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_RECURSIVE):
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_READ and db in (None, "main"):
            if ((arg1 or "").lower(), (arg2 or "").lower()) in read_ok:
                return sqlite3.SQLITE_OK
            denied.append(f"reading {arg1}")
            return sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_FUNCTION and (arg2 or "").lower() in ALLOWED_FUNCTIONS:
            return sqlite3.SQLITE_OK
        denied.append(f"function {arg2}" if action == sqlite3.SQLITE_FUNCTION else "this operation")
        return sqlite3.SQLITE_DENY

    return authorize


def _sqlite_reason(exc: sqlite3.Error, denied: list[str], timed_out: bool) -> str:
    message = str(exc)
    if timed_out or "interrupted" in message:
        return "the query took too long and was stopped"
    if denied or "not authorized" in message:
        return f"not allowed: {denied[0] if denied else 'this operation'}"
    if "pattern too complex" in message:
        return "a LIKE or GLOB pattern is too long"
    if "too big" in message:
        return "a value in the query grew too large"
    if message.startswith(("no such column", "no such table", "no such function", "ambiguous column")):
        return message[:120]
    return "the database could not run the query"


def _json_safe(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Decimal):
        if not value.is_finite():
            return None
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (datetime, date, dtime)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    return str(value)
