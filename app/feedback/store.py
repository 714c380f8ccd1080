"""Feedback rows: one per (key, turn), replaced when the auditor changes their mind. The
question, answer, coverage and cited findings are copied in, so an export stands on its own
(a thread may be deleted later)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import ApiKey, Feedback


def save_feedback(session: Session, owner_key_id: int, thread_id: str, turn: dict[str, Any], rating: str, comment: str) -> Feedback:
    """Create or replace the key's feedback on the turn (``turn``: ``history.find_turn``)."""
    row = session.scalar(select(Feedback).where(Feedback.owner_key_id == owner_key_id, Feedback.turn_id == turn["turn_id"]))
    now = datetime.now(UTC)
    if row is None:
        row = Feedback(owner_key_id=owner_key_id, thread_id=thread_id, turn_id=turn["turn_id"], created_at=now)
        session.add(row)
    row.rating, row.comment, row.updated_at = rating, comment.strip(), now
    row.question, row.answer, row.coverage = turn.get("question") or "", turn.get("answer") or "", turn.get("coverage")
    row.cited_findings = list(dict.fromkeys(e["finding_id"] for e in turn.get("evidence") or [] if e.get("finding_id")))
    session.commit()
    return row


def feedback_out(row: Feedback) -> dict[str, Any]:
    return {k: getattr(row, k) for k in ("id", "thread_id", "turn_id", "rating", "comment", "question", "answer",
                                         "coverage", "cited_findings", "created_at", "updated_at")}


def list_feedback(session: Session, owner_key_id: int, thread_id: str | None = None) -> list[Feedback]:
    q = select(Feedback).where(Feedback.owner_key_id == owner_key_id)
    if thread_id:
        q = q.where(Feedback.thread_id == thread_id)
    return list(session.scalars(q.order_by(Feedback.updated_at.desc(), Feedback.id.desc())))


def export_records(session: Session, rating: str | None = None) -> list[dict[str, Any]]:
    """Every key's feedback, oldest first, as JSON-ready records naming the key (``aura
    feedback export``)."""
    q = select(Feedback, ApiKey.name).join(ApiKey, ApiKey.id == Feedback.owner_key_id)
    if rating:
        q = q.where(Feedback.rating == rating)
    out = []
    for row, owner in session.execute(q.order_by(Feedback.created_at, Feedback.id)):
        rec = feedback_out(row)
        rec["owner"] = owner
        rec["created_at"], rec["updated_at"] = _iso(row.created_at), _iso(row.updated_at)
        out.append({"kind": "aura-feedback", **rec})
    return out


def _iso(d: datetime) -> str:
    return (d if d.tzinfo else d.replace(tzinfo=UTC)).isoformat()
