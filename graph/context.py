"""Per-run knobs, passed as LangGraph runtime context (``context=RunContext(...)``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RunContext:
    max_rewrites: int = 2
    """Query rewrites per turn (CRAG loop and the utility loop share this cap)."""
    max_regenerations: int = 2
    """Answer regenerations per turn after a failed hallucination check."""
    top_k: int = 8
    """Evidence passages retrieved per search."""
    sop_k: int = 3
    history_turns: int = 3
    """Turns of chat history the policies see, besides the running summary."""

    @property
    def recursion_limit(self) -> int:
        """An explicit LangGraph step limit that the loop caps fit inside, with room to spare."""
        loop_steps = 3 * self.max_rewrites + 2 * self.max_regenerations * (1 + self.max_rewrites)
        return 12 + 2 * loop_steps
