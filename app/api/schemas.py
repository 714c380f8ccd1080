"""Request and response bodies of the HTTP API (the OpenAPI document is built from these)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.agent.runner import MAX_MESSAGE_CHARS
from graph.vocab import DISPOSITIONS, SECTION_KINDS, Coverage, Mode, Source

THREAD_ID = r"^[A-Za-z0-9_.:-]{1,128}$"

Timestamp = Annotated[datetime, AfterValidator(lambda d: d if d.tzinfo else d.replace(tzinfo=UTC))]
"""A UTC time with its offset, as OpenAPI's date-time requires (SQLite returns the stored UTC
times without one)."""


# -- chat ----------------------------------------------------------------------------------------
class ChatIn(BaseModel):
    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS, description="The question (Korean or English).")
    thread_id: str | None = Field(None, pattern=THREAD_ID, description="Continue this thread; a new id starts a thread owned by the caller. Omit for a new one.")
    mode: Mode = Field("auto", description="auto routes by itself; chat | fast (SQL) | deep (evidence) | report force a track.")


class EvidenceOut(BaseModel):
    n: int | None = None
    chunk_id: str | None = None
    report: str | None = None
    finding_id: str | None = None
    quote: str | None = None
    span: list[int] | None = Field(None, description="[start, end) of the quote in the chunk's text; null when the quote is a title.")
    score: float | None = None
    page: int | None = None
    section: str | None = None


class SqlOut(BaseModel):
    query: str | None = None
    columns: list[str] = []
    rows: list[list[Any]] = []
    error: str | None = None


class VerificationOut(BaseModel):
    grounded: bool | None = None
    useful: bool | None = None
    unsupported: list[str] | None = None
    confidence: float | None = None


class StepOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    node: str
    summary: str | None = None
    ms: float | None = None
    policy: str | None = None
    error: str | None = None


class TurnOut(BaseModel):
    """One turn, as ``aura ask --json`` prints it, plus the stored draft's id."""

    model_config = ConfigDict(extra="allow")
    thread_id: str
    track: str | None = Field(None, description="chat | fast | deep | report")
    answer: str
    evidence: list[EvidenceOut] = []
    suggestions: list[str] = Field([], description="Questions the user could ask next, answerable from the store.")
    coverage: Coverage | None = Field(
        None, description="How far the reports answer the question: full | partial (the answer misses part of what was asked, "
        "or the case it leads with never uses a distinctive word of the question, which a note under the lead names) | none "
        "(the reports hold no answer; evidence then lists the nearest findings as references only). Null on chat and report turns.")
    source: Source | None = Field(
        None, description="Deep turns: where the evidence came from: reports | manual (a question about the audit manual itself, "
        "answered from its clauses; their evidence items have section 'manual', page 0 and chunk ids 'sop:<clause id>').")
    sql: SqlOut | None = None
    report: dict[str, Any] | None = Field(None, description="{status: ready, draft} or {status: needs_info, missing}.")
    verification: VerificationOut | None = None
    steps: list[StepOut] = []
    llm_calls: int = 0
    fallbacks: list[str] = Field([], description="Nodes where the LLM failed and the offline policy decided.")
    report_id: str | None = Field(None, description="Id of the stored report draft when this turn made one (GET /v1/reports/{id}).")
    turn_id: str | None = Field(None, description="The turn's id in its thread (feedback, working paper: GET /v1/threads/{id}/turns).")


# -- threads -------------------------------------------------------------------------------------
class ThreadOut(BaseModel):
    id: str
    title: str
    created_at: Timestamp
    updated_at: Timestamp


class MessageOut(BaseModel):
    role: Literal["user", "assistant"]
    content: Any


class ThreadDetailOut(BaseModel):
    thread_id: str
    title: str
    created_at: Timestamp
    updated_at: Timestamp
    messages: list[MessageOut]
    summary: str = ""
    retained_documents: list[dict[str, Any]] = []


# -- documents -----------------------------------------------------------------------------------
JobStatus = Literal["queued", "running", "done", "failed"]


class JobFileOut(BaseModel):
    file: str
    status: str = Field(description="queued | ingested | replaced | unchanged | error")
    report_id: str | None = None
    findings: int = 0
    chunks: int = 0
    error: str | None = None


class JobAccepted(BaseModel):
    job_id: str
    status: JobStatus


class JobOut(BaseModel):
    job_id: str
    status: JobStatus
    files: list[JobFileOut]
    summary: dict[str, Any] | None = Field(None, description="When done: {files, reports, findings, chunks, skipped, errors}.")
    error: str | None = None
    created_at: Timestamp
    updated_at: Timestamp


# -- findings ------------------------------------------------------------------------------------
class FindingOut(BaseModel):
    id: str
    report_id: str
    report_title: str | None = None
    number: int
    title: str
    dispositions: list[str]
    institution: str | None = None
    action_orgs: str | None = None
    year: int | None = None
    amount_krw: int | None = None
    pages: list[int]


class FindingPage(BaseModel):
    total: int
    items: list[FindingOut]


# -- chunks --------------------------------------------------------------------------------------
class ChunkOut(BaseModel):
    chunk_id: str
    report_id: str
    report_title: str
    finding_id: str | None = None
    finding_title: str | None = None
    section: str = Field(description=" | ".join(SECTION_KINDS) + ", a report-level section, or 'manual' (a clause of the audit manual).")
    page: int
    text: str = Field(description="The passage; an evidence quote is a span of it (up to whitespace).")
    heading: str = ""
    dispositions: list[str] = Field([], description="The finding's dispositions, from: " + ", ".join(DISPOSITIONS) + ".")


# -- reports -------------------------------------------------------------------------------------
class Section(BaseModel):
    key: str = Field(min_length=1, max_length=64)
    title: str = Field(min_length=1, max_length=256)
    text: str = Field("", max_length=100_000)
    citations: list[dict[str, Any]] = Field([], description="{finding_id, report_id, pages} or {sop_id}.")


class ReportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, max_length=512)
    sections: list[Section] = Field(min_length=1, max_length=50)


class ReportOut(BaseModel):
    id: str
    thread_id: str | None
    title: str
    findings: list[str]
    sections: list[Section]
    created_at: Timestamp
    updated_at: Timestamp


# -- health --------------------------------------------------------------------------------------
class ReadyOut(BaseModel):
    ready: bool
    checks: dict[str, str] = Field(description="Per part: 'ok' or why it failed (sql, vectors, embedder, sop).")
