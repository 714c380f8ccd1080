"""Static checks for model-written SQL: one read-only SELECT over the allow-listed tables.

The SQL is parsed with sqlglot (SQLite dialect) and every node of the tree must be of an
allow-listed kind, so anything the checks do not know is refused rather than passed. What
runs is the SQL regenerated from the checked tree (comments dropped, LIMIT injected or
clamped), never the text as written. The executor adds a SQLite authorizer behind this.
"""

from __future__ import annotations

from sqlglot import errors as sqlglot_errors
from sqlglot import exp, parse

from graph.ports import SqlRejected

ALLOWED_COLUMNS: dict[str, frozenset[str]] = {
    "reports": frozenset(
        {
            "id", "kind", "source_file", "source_path", "sha256", "format", "title", "audit_type",
            "report_date", "year", "month", "institutions", "page_count", "ingested_at",
        }
    ),
    "findings": frozenset(
        {
            "id", "report_id", "number", "title", "disposition", "institution",
            "responsible_org", "action_orgs", "year", "audit_type", "overview", "criteria",
            "problems", "opinion", "actions", "amount_krw", "page_start", "page_end",
        }
    ),
    "finding_dispositions": frozenset({"id", "finding_id", "disposition", "ordinal"}),
}
"""Every column of the three fast-track tables (none is secret); spelled out so a column
added to the models is only queryable once it is added here."""

ALLOWED_TABLES: frozenset[str] = frozenset(ALLOWED_COLUMNS)

ALLOWED_FUNCTIONS: frozenset[str] = frozenset(
    {
        "count", "sum", "avg", "min", "max", "lower", "upper", "length", "substr",
        "substring", "trim", "coalesce", "ifnull", "nullif", "iif", "round", "abs",
        "strftime", "date", "instr", "replace", "group_concat", "like", "glob",
    }
)
"""SQLite function names a query may call (also what the executor's authorizer allows;
``like``/``glob`` are the operators, ``iif`` is how CASE-like IF is written back)."""

MAX_SQL_CHARS = 4000
MAX_OFFSET = 1_000_000
_MAX_INNER_LIMIT = 1_000_000

_FUNCTION_NODES: tuple[type[exp.Expression], ...] = (
    exp.Count, exp.Sum, exp.Avg, exp.Min, exp.Max, exp.Lower, exp.Upper, exp.Length,
    exp.Substring, exp.Trim, exp.Coalesce, exp.Nullif, exp.If, exp.Round, exp.Abs,
    exp.TimeToStr, exp.TsOrDsToTimestamp, exp.Date, exp.StrPosition, exp.Replace,
    exp.GroupConcat, exp.Cast,
)
"""sqlglot's typed nodes for the allowed functions (sqlglot maps ifnull -> Coalesce,
substr -> Substring, instr -> StrPosition, strftime -> TimeToStr)."""

_STRUCTURE_NODES: tuple[type[exp.Expression], ...] = (
    exp.Select, exp.Union, exp.Intersect, exp.Except, exp.With, exp.CTE, exp.Subquery,
    exp.From, exp.Join, exp.Table, exp.TableAlias, exp.Identifier, exp.Column, exp.Star,
    exp.Alias, exp.Where, exp.Group, exp.Having, exp.Order, exp.Ordered, exp.Limit,
    exp.Offset, exp.Distinct, exp.Literal, exp.Null, exp.Boolean, exp.Paren, exp.DataType,
    exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Is, exp.And, exp.Or, exp.Not,
    exp.Neg, exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.DPipe, exp.Like, exp.Glob,
    exp.Escape, exp.Between, exp.In, exp.Exists, exp.Case,
)

_WRITE_NODES: tuple[type[exp.Expression], ...] = tuple(
    getattr(exp, name)
    for name in (
        "Insert", "Update", "Delete", "Merge", "Create", "Drop", "Alter", "AlterTable",
        "Command", "Pragma", "Attach", "Detach", "Transaction", "Commit", "Rollback", "Set",
        "Use", "Copy", "Vacuum", "TruncateTable", "LoadData", "Analyze", "Describe", "Grant",
        "Revoke", "Cache", "Uncache", "Refresh", "Kill",
    )
    if hasattr(exp, name)
)
"""Named only to give a precise reason; the node allow-list already refuses them."""

_ROOTS = (exp.Select, exp.Union, exp.Intersect, exp.Except)


def validate_sql(sql: str, max_rows: int = 200) -> str:
    """The SQLite text to run for ``sql``, or SqlRejected saying why it is refused."""
    return checked_tree(sql, max_rows).sql(dialect="sqlite", comments=False)


def checked_tree(sql: str, max_rows: int = 200) -> exp.Expression:
    """The validated sqlglot tree with its LIMIT set (for executors that transpile it)."""
    if max_rows < 1:
        raise ValueError("max_rows must be at least 1")
    root = _parse_one(sql)
    _check_nodes(root)
    _check_tables(root)
    _check_columns(root)
    _check_limits(root, max_rows)
    return root


def _parse_one(sql: str) -> exp.Expression:
    if not isinstance(sql, str) or not sql.strip():
        raise SqlRejected("empty SQL")
    if len(sql) > MAX_SQL_CHARS:
        raise SqlRejected(f"SQL longer than {MAX_SQL_CHARS} characters")
    if "\x00" in sql:
        raise SqlRejected("SQL contains a NUL character")
    try:
        statements = parse(sql, read="sqlite")
    except (sqlglot_errors.SqlglotError, RecursionError, ValueError) as exc:
        raise SqlRejected("could not parse the SQL as one SQLite SELECT") from exc
    statements = [s for s in statements if s is not None]
    if len(statements) != 1:
        # A comment after the separator parses as its own (Semicolon) statement: refused too.
        raise SqlRejected("exactly one statement is allowed")
    root = statements[0]
    if isinstance(root, _WRITE_NODES) or not isinstance(root, _ROOTS):
        raise SqlRejected(f"only SELECT is allowed, not {_kind(root)}")
    return root


def _kind(node: exp.Expression) -> str:
    if isinstance(node, exp.Command):
        return str(node.this).upper()[:20]
    return type(node).__name__.upper()


def _check_nodes(root: exp.Expression) -> None:
    for node in root.walk():
        if isinstance(node, _WRITE_NODES):
            raise SqlRejected(f"{_kind(node)} is not allowed (read-only)")
        if isinstance(node, exp.Anonymous):
            name = node.name.lower()
            if name.startswith("pragma_") or name.startswith("sqlite_"):
                raise SqlRejected(f"{name[:40]} is not available")
            if name not in ALLOWED_FUNCTIONS:
                raise SqlRejected(f"function {name[:40]}() is not allowed")
            continue
        if isinstance(node, _FUNCTION_NODES) or isinstance(node, _STRUCTURE_NODES):
            continue
        if isinstance(node, exp.Func):
            raise SqlRejected(f"function {node.sql_name()[:40].lower()}() is not allowed")
        raise SqlRejected(f"{type(node).__name__} is not allowed in the fast-track SQL")


def _cte_names_in_scope(node: exp.Expression) -> set[str]:
    """CTE names visible at ``node``: those of every enclosing WITH (SQLite lets a CTE see
    its siblings, before or after it). Inside a non-recursive CTE its own name is not in
    scope, so ``WITH chunks AS (SELECT * FROM chunks)`` is checked as the real table."""
    names: set[str] = set()
    own: set[str] = set()
    current = node.parent
    while current is not None:
        if isinstance(current, exp.CTE) and not (current.parent and current.parent.args.get("recursive")):
            own.add(current.alias.lower())
        with_ = current.args.get("with_") or current.args.get("with")
        if isinstance(with_, exp.With):
            names.update(cte.alias.lower() for cte in with_.expressions if cte.alias)
        current = current.parent
    return names - own


def _check_tables(root: exp.Expression) -> None:
    for cte in root.find_all(exp.CTE):
        name = cte.alias.lower()
        if not name or name.startswith(("sqlite_", "pragma_")):
            raise SqlRejected("invalid CTE name")
    for table in root.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier):
            raise SqlRejected("only tables may appear in FROM (no table-valued functions)")
        if table.args.get("db") or table.args.get("catalog"):
            raise SqlRejected("schema-qualified table names are not allowed")
        name = table.name.lower()
        if name in _cte_names_in_scope(table):
            continue
        if name not in ALLOWED_TABLES:
            raise SqlRejected(f"table {table.name[:40]} is not available; use {', '.join(sorted(ALLOWED_TABLES))}")


def _defined_names(root: exp.Expression) -> set[str]:
    """Names the query itself defines: table and CTE names, aliases and CTE column lists."""
    names = set(ALLOWED_TABLES)
    for alias in root.find_all(exp.Alias):
        names.add(alias.alias.lower())
    for table_alias in root.find_all(exp.TableAlias):
        names.add(table_alias.name.lower())
        names.update(col.name.lower() for col in table_alias.columns)
    return names


def _check_columns(root: exp.Expression) -> None:
    allowed = set().union(*ALLOWED_COLUMNS.values())
    defined = _defined_names(root)
    for column in root.find_all(exp.Column):
        qualifier = column.table.lower()
        if column.args.get("db") or column.args.get("catalog"):
            raise SqlRejected("schema-qualified column names are not allowed")
        if qualifier and qualifier not in defined:
            raise SqlRejected(f"unknown table or alias {column.table[:40]}")
        if isinstance(column.this, exp.Star):
            continue
        name = column.name.lower()
        if name not in allowed and name not in defined:
            hint = " (write text values in single quotes)" if column.this.quoted else ""
            raise SqlRejected(f"unknown column {column.name[:40]}{hint}")


def _int_literal(node: exp.Expression | None, what: str) -> int:
    negative = False
    if isinstance(node, exp.Neg):
        negative, node = True, node.this
    if not isinstance(node, exp.Literal) or node.is_string:
        raise SqlRejected(f"{what} must be a whole number")
    try:
        value = int(node.this)
    except ValueError as exc:
        raise SqlRejected(f"{what} must be a whole number") from exc
    return -value if negative else value


def _check_limits(root: exp.Expression, max_rows: int) -> None:
    for offset in root.find_all(exp.Offset):
        value = _int_literal(offset.expression, "OFFSET")
        if not 0 <= value <= MAX_OFFSET:
            raise SqlRejected(f"OFFSET must be between 0 and {MAX_OFFSET}")
    for limit in root.find_all(exp.Limit):
        value = _int_literal(limit.expression, "LIMIT")
        if limit.parent is not root and not 0 <= value <= _MAX_INNER_LIMIT:
            raise SqlRejected(f"an inner LIMIT must be between 0 and {_MAX_INNER_LIMIT}")
    limit = root.args.get("limit")
    if limit is None:
        root.set("limit", exp.Limit(expression=exp.Literal.number(max_rows)))
        return
    value = _int_literal(limit.expression, "LIMIT")
    if value < 0 or value > max_rows:  # a negative LIMIT means "no limit" in SQLite
        limit.set("expression", exp.Literal.number(max_rows))
