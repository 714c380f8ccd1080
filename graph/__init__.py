"""The AURA audit graph: orchestration only. Services and policies are given by the caller."""

from graph.builder import build_graph
from graph.context import RunContext

__all__ = ["RunContext", "build_graph"]
