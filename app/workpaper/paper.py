"""A thread's working paper (감사 조서): for every turn the question, the answer, its coverage, the
cited passages with report / finding / page, the SOP clauses, the step log (nodes, policies,
loops taken, fallbacks), timestamps and the versions that answered; then the thread's report
drafts. As JSON (``build_paper``) and as blocks for DOCX and HWPX (``paper_blocks``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Feedback, Finding, Report, ReportDraft, ThreadRecord, TurnLog
from app.reports.blocks import Block, text_blocks

FORMAT_VERSION = 1
NOT_RECORDED = "not recorded (answered before AURA logged versions per turn)"


def _iso(value: Any) -> str | None:  # noqa: ANN401 - datetime or checkpoint timestamp string
    if value is None:
        return None
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    return str(value)


def thread_drafts(session: Session, thread_id: str, owner_key_id: int) -> list[ReportDraft]:
    return list(session.scalars(
        select(ReportDraft).where(ReportDraft.thread_id == thread_id, ReportDraft.owner_key_id == owner_key_id)
        .order_by(ReportDraft.created_at)
    ))


def build_paper(
    session: Session, thread: ThreadRecord, turns: list[dict[str, Any]], owner_key_id: int,
    exported_by: str, versions_now: dict[str, Any],
) -> dict[str, Any]:
    """The working paper as JSON-ready data (turns from ``history.thread_turns``)."""
    ids = [t["turn_id"] for t in turns]
    logs = {r.turn_id: r for r in session.scalars(select(TurnLog).where(TurnLog.turn_id.in_(ids)))} if ids else {}
    notes = {r.turn_id: r for r in session.scalars(
        select(Feedback).where(Feedback.owner_key_id == owner_key_id, Feedback.turn_id.in_(ids)))} if ids else {}
    finding_ids = {e["finding_id"] for t in turns for e in t["evidence"] if e.get("finding_id")}
    report_ids = {e["report_id"] for t in turns for e in t["evidence"] if e.get("report_id")}
    finding_titles = dict(session.execute(select(Finding.id, Finding.title).where(Finding.id.in_(finding_ids))).tuples().all()) if finding_ids else {}
    sources = dict(session.execute(select(Report.id, Report.source_file).where(Report.id.in_(report_ids))).tuples().all()) if report_ids else {}
    out_turns = []
    for t in turns:
        log, note = logs.get(t["turn_id"]), notes.get(t["turn_id"])
        evidence = [{**e, "finding_title": finding_titles.get(e.get("finding_id") or ""),
                     "source_file": sources.get(e.get("report_id") or "")} for e in t["evidence"]]
        out_turns.append({
            "n": t["n"], "turn_id": t["turn_id"], "started_at": _iso(t.get("started_at")), "finished_at": _iso(t.get("finished_at")),
            "question": t["question"], "track": t.get("track"), "coverage": t.get("coverage"), "answer": t["answer"],
            "evidence": evidence, "sop": t["sop"], "sql": t.get("sql"), "verification": t.get("verification"),
            "steps": t["steps"], "loops": t["loops"], "fallbacks": t["fallbacks"], "llm_calls": t["llm_calls"],
            "report": (t.get("report") or {}).get("status"),
            "versions": log.versions if log else None, "versions_note": None if log else NOT_RECORDED,
            "feedback": {"rating": note.rating, "comment": note.comment} if note else None,
        })
    drafts = thread_drafts(session, thread.thread_id, owner_key_id)
    return {
        "kind": "aura-working-paper", "format_version": FORMAT_VERSION,
        "thread": {"id": thread.thread_id, "title": thread.title, "created_at": _iso(thread.created_at),
                   "updated_at": _iso(thread.updated_at)},
        "exported_at": datetime.now(UTC).isoformat(), "exported_by": exported_by, "versions_now": versions_now,
        "turns": out_turns,
        "reports": [{"id": d.id, "title": d.title, "findings": d.findings, "created_at": _iso(d.created_at),
                     "updated_at": _iso(d.updated_at)} for d in drafts],
    }


def _versions(v: dict[str, Any] | None) -> str:
    if not v:
        return NOT_RECORDED
    return " · ".join(f"{k}: {'none' if val is None else val}" for k, val in v.items())


def evidence_line(e: dict[str, Any]) -> str:
    where = [f"[{e.get('n')}] {e.get('report') or e.get('report_id') or ''}"]
    if e.get("report_id"):
        where.append(f"({e['report_id']}{', ' + e['source_file'] if e.get('source_file') else ''})")
    if e.get("finding_id"):
        where.append(f"· {e['finding_id']} {e.get('finding_title') or ''}".rstrip())
    where.append(f"· p.{e.get('page')} · {e.get('section') or ''}")
    quote = (e.get("quote") or "").strip()
    return " ".join(where) + (f"\n“{quote}”" if quote else "")


def step_line(s: dict[str, Any]) -> str:
    bits = [s.get("node") or "?"]
    if s.get("policy"):
        bits.append(f"[{s['policy']}]")
    if s.get("ms") is not None:
        bits.append(f"{float(s['ms']):.0f} ms")
    line = " ".join(bits) + (f" — {s['summary']}" if s.get("summary") else "")
    return line + (f" (error: {s['error']})" if s.get("error") else "")


def _turn_blocks(t: dict[str, Any]) -> list[Block]:
    loops = t["loops"]
    out = [
        Block("h1", f"질의 {t['n']}. {t['question']}"),
        Block("label", "일시"), Block("para", f"{t['started_at']} – {t['finished_at']} (turn {t['turn_id']})"),
        Block("label", "처리 방식 · 답변 범위"),
        Block("para", f"track: {t.get('track') or '—'} · coverage: {t.get('coverage') or '—'}"),
        Block("label", "답변"), *(text_blocks(t["answer"]) or [Block("para", "—")]),
        Block("label", "근거"),
        *([Block("item", evidence_line(e)) for e in t["evidence"]] or [Block("para", "인용한 근거 없음")]),
    ]
    if t["sop"]:
        out += [Block("label", "적용 기준(SOP)"), *(Block("item", f"{c.get('id')} {c.get('title') or ''}") for c in t["sop"])]
    if (sql := t.get("sql")) and sql.get("query"):
        out += [Block("label", "SQL"), Block("para", sql["query"])]
    out += [Block("label", "처리 단계"), *(Block("item", step_line(s)) for s in t["steps"])]
    rewrites = ", ".join(loops["rewritten_queries"])
    out += [Block("label", "반복 · 대체"), Block("para", (
        f"query rewrites: {loops['rewrites']}{' (' + rewrites + ')' if rewrites else ''} · regenerations: {loops['regenerations']}"
        f" · fallbacks: {', '.join(t['fallbacks']) or 'none'} · LLM calls: {t['llm_calls']}"))]
    if v := t.get("verification"):
        out += [Block("label", "검증"), Block("para", " · ".join(f"{k}: {v.get(k)}" for k in ("grounded", "useful", "confidence")))]
    out += [Block("label", "버전"), Block("para", _versions(t.get("versions")))]
    if fb := t.get("feedback"):
        out += [Block("label", "감사인 평가"), Block("para", f"{'👍' if fb['rating'] == 'up' else '👎'} {fb.get('comment') or ''}".strip())]
    return out


def paper_blocks(paper: dict[str, Any]) -> list[Block]:
    th = paper["thread"]
    out = [
        Block("title", f"감사 조서: {th['title'] or th['id']}"),
        Block("para", f"thread {th['id']} · {th['created_at']} – {th['updated_at']}"),
        Block("para", f"exported {paper['exported_at']} by {paper['exported_by']} · {_versions(paper['versions_now'])}"),
    ]
    for t in paper["turns"]:
        out += _turn_blocks(t)
    out.append(Block("h1", "보고서 초안"))
    out += [Block("item", f"{d['title']} ({d['id']}, {d['updated_at']})") for d in paper["reports"]] or [Block("para", "없음")]
    return out
