"""Bodies of the auditor's workbench routes: a thread's recorded turns and drafts, feedback."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.api.schemas import THREAD_ID, EvidenceOut, Timestamp, TurnOut

Rating = Literal["up", "down"]


class EvidenceRecordOut(EvidenceOut):
    report_id: str | None = None


class TurnFeedbackOut(BaseModel):
    rating: Rating
    comment: str = ""


class TurnRecordOut(TurnOut):
    """A turn as the chat returned it, read back from the thread's checkpoints."""

    turn_id: str
    n: int = Field(description="1-based position in the thread.")
    question: str
    started_at: str = Field(description="When the turn's input was recorded (ISO 8601, UTC).")
    finished_at: str = Field(description="When its last step finished (ISO 8601, UTC).")
    evidence: list[EvidenceRecordOut] = []
    sop: list[dict[str, Any]] = Field([], description="SOP clauses listed with the turn's answer: {id, title, score}; score is the search score, 0 for a clause chosen by a finding's disposition (its definition).")
    loops: dict[str, Any] = Field({}, description="{rewrites, rewritten_queries, regenerations}.")
    feedback: TurnFeedbackOut | None = Field(None, description="The caller's feedback on this turn, if any.")


class DraftSummaryOut(BaseModel):
    id: str
    title: str
    findings: list[str]
    created_at: Timestamp
    updated_at: Timestamp


class FeedbackIn(BaseModel):
    thread_id: str = Field(pattern=THREAD_ID)
    turn_id: str = Field(min_length=1, max_length=64, description="The turn's id (`turn_id` of the chat response).")
    rating: Rating = Field(description="up (👍) or down (👎).")
    comment: str = Field("", max_length=4000, description="Optional: what was wrong or right.")


class FeedbackOut(BaseModel):
    id: int
    thread_id: str
    turn_id: str
    rating: Rating
    comment: str
    question: str
    answer: str
    coverage: str | None = None
    cited_findings: list[str] = []
    created_at: Timestamp
    updated_at: Timestamp
