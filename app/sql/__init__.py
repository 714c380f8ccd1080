"""The SQL fast-track: validation, read-only execution and the offline planner."""

from __future__ import annotations

from app.sql.executor import ReadOnlySql
from app.sql.planner import OfflineSqlPlanner
from app.sql.schema import SCHEMA_DESCRIPTION
from app.sql.validator import ALLOWED_COLUMNS, ALLOWED_FUNCTIONS, ALLOWED_TABLES, validate_sql

__all__ = [
    "ALLOWED_COLUMNS",
    "ALLOWED_FUNCTIONS",
    "ALLOWED_TABLES",
    "SCHEMA_DESCRIPTION",
    "OfflineSqlPlanner",
    "ReadOnlySql",
    "validate_sql",
]
