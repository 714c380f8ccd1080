"""Conversation turns for the API: thread ownership, running the agent, and saving nothing of a
turn that failed.

A turn runs first; the thread's ownership row and the report draft are written only after it
succeeded. LangGraph checkpoints every step, so a failed turn is rolled back in the
checkpointer too: a new thread is deleted, an existing one loses the checkpoints written
after the one it had before the turn (its history is as before the failed question).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from sqlalchemy.orm import Session, sessionmaker

from app.agent.runner import Agent, validate_message
from app.api.errors import VECTOR_ERRORS, vector_detail
from app.api.metrics import Metrics
from app.db.models import ReportDraft, ThreadRecord, TurnLog
from app.keys import KeyInfo
from app.workpaper.versions import current_versions

log = logging.getLogger("aura.api")


class ThreadNotFound(LookupError):
    pass


class ThreadBusy(RuntimeError):
    """Another turn on the thread is running, or ran since this one was prepared."""


@dataclass(frozen=True)
class PreparedTurn:
    thread_id: str
    is_new: bool
    before_checkpoint: str | None
    message: str
    mode: str


class Turns:
    def __init__(self, sessions: sessionmaker[Session], agent: Agent, metrics: Metrics, title_chars: int = 60) -> None:
        self.sessions, self.agent, self.metrics, self.title_chars = sessions, agent, metrics, title_chars
        self._busy: set[str] = set()
        self._busy_lock = threading.Lock()

    @property
    def checkpointer(self) -> BaseCheckpointSaver:
        return self.agent.checkpointer

    def latest_checkpoint(self, thread_id: str) -> str | None:
        t = self.checkpointer.get_tuple({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}})
        return t.config["configurable"]["checkpoint_id"] if t else None

    def owned(self, session: Session, thread_id: str, key: KeyInfo) -> ThreadRecord:
        rec = session.get(ThreadRecord, thread_id)
        if rec is None or rec.owner_key_id != key.id:
            raise ThreadNotFound(thread_id)
        return rec

    def prepare(self, message: str, thread_id: str | None, mode: str, key: KeyInfo) -> PreparedTurn:
        """Validate the message (BadRequest) and the thread (ThreadNotFound when it belongs to
        another key, or exists in the checkpointer without an owner, e.g. made by ``aura ask``)."""
        text = validate_message(message, mode)
        if thread_id is None:
            return PreparedTurn(uuid.uuid4().hex, True, None, text, mode)
        with self.sessions() as s:
            rec = s.get(ThreadRecord, thread_id)
        if rec is not None and rec.owner_key_id != key.id:
            raise ThreadNotFound(thread_id)
        before = self.latest_checkpoint(thread_id)
        if rec is None and before is not None:
            raise ThreadNotFound(thread_id)
        return PreparedTurn(thread_id, rec is None, before, text, mode)

    # -- running ---------------------------------------------------------------------------------
    @contextmanager
    def _claim(self, turn: PreparedTurn) -> Iterator[None]:
        """One turn per thread at a time; the thread must still be as ``prepare`` saw it (so two
        callers racing for one new thread id cannot both write to it)."""
        with self._busy_lock:
            if turn.thread_id in self._busy:
                raise ThreadBusy(f"thread '{turn.thread_id}' is busy with another turn")
            self._busy.add(turn.thread_id)
        try:
            if self.latest_checkpoint(turn.thread_id) != turn.before_checkpoint:
                raise ThreadBusy(f"thread '{turn.thread_id}' changed while this turn waited; send it again")
            yield
        finally:
            with self._busy_lock:
                self._busy.discard(turn.thread_id)

    def ask(self, turn: PreparedTurn, key: KeyInfo) -> dict[str, Any]:
        with self._claim(turn):
            try:
                result = self.agent.ask(turn.message, turn.thread_id, turn.mode)
            except BaseException as exc:
                self.rollback(turn)
                self.metrics.turn_errors.labels(cause=_cause(exc)).inc()
                raise
            draft_id, turn_id = self._record(turn, key, _ready_draft(result))
        self.metrics.record_turn(result)
        return {**result, "report_id": draft_id, "turn_id": turn_id}

    def stream(self, turn: PreparedTurn, key: KeyInfo) -> Iterator[tuple[str, dict[str, Any]]]:
        """(event name, data) pairs; the last is 'done' or 'error'."""
        try:
            with self._claim(turn):
                yield from self._stream(turn, key)
        except ThreadBusy as exc:
            yield "error", {"message": str(exc)}

    def _stream(self, turn: PreparedTurn, key: KeyInfo) -> Iterator[tuple[str, dict[str, Any]]]:
        draft_id: str | None = None
        finished = False
        try:
            for ev in self.agent.stream(turn.message, turn.thread_id, turn.mode):
                data = dict(ev)
                name = data.pop("event")
                if name == "report_trigger":
                    draft_id = self._store_draft(data["draft"], turn.thread_id, key)
                    data["report_id"] = draft_id
                elif name == "done":
                    _, data["turn_id"] = self._record(turn, key, None)
                    self.metrics.record_turn(data)
                    data["report_id"] = draft_id
                    finished = True
                yield name, data
        except Exception as exc:  # the response has started: report the error as the last event
            self.metrics.turn_errors.labels(cause=_cause(exc)).inc()
            if not isinstance(exc, VECTOR_ERRORS):
                log.exception("turn failed on thread %s", turn.thread_id)
            yield "error", {"message": vector_detail(exc) if isinstance(exc, VECTOR_ERRORS) else f"turn failed: {type(exc).__name__}"}
        finally:  # also when the client went away mid-stream (GeneratorExit)
            if not finished:
                self.rollback(turn)
                if draft_id:
                    self._delete_draft(draft_id)

    # -- storage ---------------------------------------------------------------------------------
    def _record(self, turn: PreparedTurn, key: KeyInfo, draft: dict[str, Any] | None) -> tuple[str | None, str | None]:
        """Own the thread, store the draft, log the turn (its id: the checkpoint that ends it,
        and the versions that answered it). (draft id, turn id)."""
        now = datetime.now(UTC)
        turn_id = self.latest_checkpoint(turn.thread_id)
        with self.sessions() as s:
            rec = s.get(ThreadRecord, turn.thread_id)
            if rec is None:
                title = turn.message if len(turn.message) <= self.title_chars else turn.message[: self.title_chars - 1] + "…"
                s.add(ThreadRecord(thread_id=turn.thread_id, owner_key_id=key.id, title=title, created_at=now, updated_at=now))
            else:
                rec.updated_at = now
            draft_id = _add_draft(s, draft, turn.thread_id, key) if draft else None
            if turn_id:
                s.merge(TurnLog(turn_id=turn_id, thread_id=turn.thread_id, owner_key_id=key.id,
                                versions=current_versions(self.agent.services.settings), created_at=now))
            s.commit()
        return draft_id, turn_id

    def _store_draft(self, draft: dict[str, Any], thread_id: str, key: KeyInfo) -> str:
        with self.sessions() as s:
            draft_id = _add_draft(s, draft, thread_id, key)
            s.commit()
        return draft_id

    def _delete_draft(self, draft_id: str) -> None:
        with self.sessions() as s:
            if (row := s.get(ReportDraft, draft_id)) is not None:
                s.delete(row)
                s.commit()

    def rollback(self, turn: PreparedTurn) -> None:
        """Remove what a failed turn left in the checkpointer."""
        try:
            if turn.is_new or turn.before_checkpoint is None:
                self.checkpointer.delete_thread(turn.thread_id)
            else:
                _delete_after(self.checkpointer, turn.thread_id, turn.before_checkpoint)
        except Exception:
            log.exception("could not roll back the checkpoints of thread %s", turn.thread_id)

    def delete_thread(self, thread_id: str) -> None:
        self.checkpointer.delete_thread(thread_id)


def _add_draft(s: Session, draft: dict[str, Any], thread_id: str, key: KeyInfo) -> str:
    draft_id = uuid.uuid4().hex
    s.add(
        ReportDraft(
            id=draft_id, owner_key_id=key.id, thread_id=thread_id, title=draft.get("title") or "보고서 초안",
            sections=list(draft.get("sections") or []), findings=list(draft.get("findings") or []),
        )
    )
    return draft_id


def _ready_draft(result: dict[str, Any]) -> dict[str, Any] | None:
    report = result.get("report") or {}
    return report.get("draft") if report.get("status") == "ready" else None


def _cause(exc: BaseException) -> str:
    return "vector_store" if isinstance(exc, VECTOR_ERRORS) else type(exc).__name__


def _delete_after(cp: BaseCheckpointSaver, thread_id: str, checkpoint_id: str) -> None:
    """Delete the thread's checkpoints (and their writes) newer than ``checkpoint_id``. Checkpoint
    ids are uuid6, ordered by time, which is how the savers find the latest one."""
    if isinstance(cp, SqliteSaver):
        with cp.cursor() as cur:
            for table in ("checkpoints", "writes"):
                cur.execute(f"DELETE FROM {table} WHERE thread_id = ? AND checkpoint_id > ?", (thread_id, checkpoint_id))
    elif isinstance(cp, InMemorySaver):
        for by_id in cp.storage.get(thread_id, {}).values():
            for cid in [c for c in by_id if c > checkpoint_id]:
                del by_id[cid]
        for k in [k for k in cp.writes if k[0] == thread_id and k[2] > checkpoint_id]:
            del cp.writes[k]
    else:
        log.warning("cannot roll back a failed turn in %s; thread %s keeps it", type(cp).__name__, thread_id)
