"""The graph's typed state. Values are plain JSON-like data so every checkpointer can store them.

Per-turn fields (question, documents, answer, counters, steps ...) are reset by ``route`` at the
start of each turn; ``messages``, ``retained_documents`` and ``summary`` live across turns.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from graph.vocab import MANUAL_SECTION, Coverage, Mode, Source, Track


class Doc(TypedDict):
    """A piece of evidence: the retrievers' ``Evidence`` as JSON (``model_dump``), plus the
    grader's ``relevance``. The state holds dicts so every checkpointer can store them; a test
    (tests/retrieval/test_evidence_shape.py) keeps the two field lists identical."""

    chunk_id: str
    report_id: str
    finding_id: str | None
    section: str
    page: int
    ordinal: NotRequired[int]
    """The chunk's place in its finding's section (0: the section opens with it)."""
    text: str
    heading: str
    report_title: str
    finding_title: str | None
    dispositions: list[str]
    institutions: list[str]
    year: int | None
    score: float
    dense_rank: NotRequired[int | None]
    dense_score: NotRequired[float | None]
    lexical_rank: NotRequired[int | None]
    lexical_score: NotRequired[float | None]
    finding_score: NotRequired[float | None]
    """The retriever's probability that this chunk's finding answers the question."""
    signals: NotRequired[dict[str, float]]
    """The retriever's relevance features for the chunk's finding (offline grading reads them)."""
    unmatched: NotRequired[list[str]]
    """The question's distinctive words the chunk's finding never uses: the answer names them."""
    relevance: NotRequired[float]
    """Set by grade_documents: the grader's relevance score in [0, 1]."""


class Step(TypedDict):
    node: str
    summary: str
    ms: float
    policy: NotRequired[str]
    """Which implementation decided: 'offline', 'llm', or 'offline-fallback' (LLM failed)."""
    llm_calls: NotRequired[int]
    error: NotRequired[str]


class InputState(TypedDict):
    """What a caller passes for one turn."""

    messages: Annotated[list[AnyMessage], add_messages]
    """Chat history; the caller appends the user's message."""
    mode: NotRequired[Mode]
    """'auto' lets the router choose; anything else forces that track."""


class AuraState(InputState, total=False):
    question: str
    """The user's message of this turn, as text."""
    track: Track
    route: dict[str, Any]
    """This turn's route decision: RouteDecision fields plus ``policy`` (who decided). Later
    decisions of the turn (select_fields) read the router's extraction from here."""
    follow_up: bool
    """True when this turn refers back to the retained documents ('1번 항목', 'that one')."""
    pivot: bool
    """True when the router saw a new topic and cleared the retained documents."""
    references: list[str]
    """Finding ids the question points at ('첫 번째 지적사항' -> the first retained finding)."""
    sql_intent: bool
    """Fast track: answerable with SQL over the findings table (count, list, group, top-N)."""
    filters: dict[str, Any]
    """SearchFilters as a dict (institutions, year range, dispositions, sections ...)."""
    scope_gaps: list[str]
    """What the question names that the store does not cover (years, organisations): the turn
    declines, listing the nearest findings only as references."""
    standalone: str
    """The question as it stands on its own: the question itself, or, for a follow-up of a turn that
    found nothing ('연도 상관없이 찾아줘', '그 농업법인은?' after a declined turn), the router's
    search query (the offline router restates the last question there). Searching, grading,
    rewriting and verifying judge against it."""
    query: str
    """The current search query (the question, or its latest rewrite)."""
    rewrites: list[str]
    """Queries tried after the first, in order."""
    rewrite_count: int
    needs_rewrite: bool
    """Set by grade_documents: nothing relevant was found and the rewrite cap allows another try."""
    regeneration_count: int
    documents: list[Doc]
    """Evidence for this turn (after grading: the relevant ones)."""
    set_aside: list[Doc]
    """The best passages grading rejected (one per finding): shown only as references, never
    as the answer's evidence, when the turn declines."""
    coverage: Coverage | None
    """How far the reports answer the question: 'full', 'partial' (the answer misses part of
    what was asked, or the case it leads with never uses a distinctive word of the question) or
    'none' (nothing in the reports answers it; the turn declined). None on the chat and report
    tracks."""
    retained_documents: list[Doc]
    """Evidence kept across turns so follow-ups can resolve references."""
    listed: list[str]
    """The findings of the last answer that presented several, in the order shown: numbers the
    user writes ('첫 번째 건', ``RouteDecision.ordinals_in_list``) count in this list until an
    answer presents another list or a case outside it, also after a follow-up that narrowed to one
    of them ('두 번째 거 자세히' -> '첫 번째 건 근거 법령은')."""
    earlier_documents: list[Doc]
    """The documents this turn's pivot cleared: retained again when the turn declines, so the
    conversation can come back to them ('2016년 건은?' finds nothing; '그럼 이번 건에서…')."""
    past_documents: list[Doc]
    """The cases no longer retained (a pivot cleared them, or a later answer replaced them), the most
    recent first (``memory.PAST_FINDINGS`` findings at most): a question that goes back past the last
    answer ('아까 상수도 관망 건은', ``RouteDecision.goes_back``) is routed again against them."""
    source: Source
    """Where this turn's evidence comes from (``select_fields``): the reports, or the audit manual."""
    sop: list[dict[str, Any]]
    """SOP clauses for this turn: {id, title, text, score}."""
    sql: dict[str, Any] | None
    """{query, columns, rows, row_count} when the SQL fast-track ran."""
    answer: str
    sentences: list[dict[str, Any]]
    """The analyst's answer as AnswerSentence dicts (text, citations, quote), for verification."""
    citations: list[dict[str, Any]]
    """[{n, chunk_id, report_id, finding_id, quote, score}] for the answer's [n] markers."""
    suggestions: list[str]
    """Questions the user could ask next (also rendered at the end of ``answer``)."""
    feedback: str
    """Verifier feedback for a regeneration: the unsupported sentences."""
    verification: dict[str, Any] | None
    """{grounded, useful, unsupported: [...], confidence}."""
    report: dict[str, Any] | None
    """Report track: {status: 'needs_info', missing: [...]} or {status: 'ready', draft: {...}}."""
    summary: str
    """Running conversation summary written by ``summarize``."""
    steps: list[Step]
    """What ran this turn, in order."""


def from_manual(docs: list[Doc]) -> bool:
    """The evidence is clauses of the audit manual (a question about the manual itself)."""
    return bool(docs) and all(d.get("section") == MANUAL_SECTION for d in docs)


def has_rows(sql: dict[str, Any] | None) -> bool:
    """SQL rows that answer: not an error, not empty, not a zero count."""
    rows = (sql or {}).get("rows") or []
    if not rows or (sql or {}).get("error"):
        return False
    return not (len(rows) == 1 and len(rows[0]) == 1 and rows[0][0] in (0, None))

