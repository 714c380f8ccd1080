"""The import structure ARCHITECTURE.md promises: graph imports no app code, module-level imports
form no cycle, and an import inside a function is either a command's lazily loaded body (the
CLI modules) or says why on its line or the line above."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAZY_COMMAND_MODULES = {"app/cli.py", "app/bench/cli.py", "app/eval/cli.py", "app/feedback/cli.py"}
"""Their docstrings say why: each command imports what it runs, so `aura --help` starts fast."""


def _modules() -> dict[str, Path]:
    out = {}
    for d in ("app", "graph"):
        for path in sorted((ROOT / d).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _module_level_imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """Project modules imported when ``path`` is imported (module level, TYPE_CHECKING aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for st in body:
            if isinstance(st, ast.If) and not _is_type_checking(st):
                visit(st.body)
                visit(st.orelse)
            elif isinstance(st, ast.Try):
                visit(st.body)
            elif isinstance(st, ast.Import):
                found.update(a.name for a in st.names)
            elif isinstance(st, ast.ImportFrom) and st.module and st.level == 0:
                found.add(st.module)
                found.update(f"{st.module}.{a.name}" for a in st.names)

    visit(tree.body)
    return {m for m in found if m in modules}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _module_level_imports(path, modules) - {name} for name, path in modules.items()}


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := dfs(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := dfs(node)):
            return found
    return None


def test_no_import_cycles() -> None:
    edges = _graph()
    # a package's __init__ importing its own submodules is the package, not a cycle
    edges = {m: {t for t in ts if not (m.count(".") < t.count(".") and t.startswith(m + "."))} for m, ts in edges.items()}
    assert _cycle(edges) is None, " -> ".join(_cycle(edges) or [])


def test_cycle_finder_sees_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_graph_imports_no_app_code() -> None:
    offenders = {m: sorted(t for t in ts if t.startswith("app")) for m, ts in _graph().items() if m.startswith("graph")}
    assert not {m: ts for m, ts in offenders.items() if ts}


def test_function_level_imports_say_why() -> None:
    silent = []
    for name, path in _modules().items():
        rel = str(path.relative_to(ROOT))
        if rel in LAZY_COMMAND_MODULES:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    here, above = lines[inner.lineno - 1], lines[inner.lineno - 2]
                    if "#" not in here and not above.strip().startswith("#"):
                        silent.append(f"{rel}:{inner.lineno}: {here.strip()} ({name})")
    assert not silent, "hoist these to module level or say why in a comment:\n" + "\n".join(silent)
