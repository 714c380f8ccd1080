"""What every retriever returns: evidence a node can cite."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Evidence(BaseModel):
    """One retrieved chunk with where it came from and how each retriever scored it. The graph
    carries it as ``graph.state.Doc`` (this model's ``model_dump`` plus the grader's relevance)."""

    chunk_id: str
    report_id: str
    finding_id: str | None = None
    section: str
    page: int
    ordinal: int = 0
    """The chunk's place in its finding's section (0: the section opens with it)."""
    text: str
    heading: str = ""
    """Report title > finding > section."""
    report_title: str = ""
    finding_title: str | None = None
    dispositions: list[str] = Field(default_factory=list)
    institutions: list[str] = Field(default_factory=list)
    year: int | None = None
    dense_rank: int | None = None
    """1-based rank in the dense result list; None when dense search did not return it."""
    dense_score: float | None = None
    lexical_rank: int | None = None
    lexical_score: float | None = None
    score: float = 0.0
    """The fused score used for the final order (higher is better)."""
    finding_score: float | None = None
    """The probability that this chunk's finding answers the question (``finding_rank``)."""
    signals: dict[str, float] = Field(default_factory=dict)
    """The features behind ``finding_score``, plus the question-level ``absent`` share (and ``scoped``,
    ``about``: ``finding_rank``)."""
    unmatched: list[str] = Field(default_factory=list)
    """The question's distinctive nouns this chunk's finding never uses ('음주' asked of the
    기상특보 출항 finding): the answer says so (``graph/nodes/analyze.py``)."""
