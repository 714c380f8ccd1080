"""The AURA audit graph: orchestration only. The caller gives its data services (the
GraphServices port, graph/ports.py) and policies."""

from graph.builder import build_graph
from graph.context import RunContext

__all__ = ["RunContext", "build_graph"]
