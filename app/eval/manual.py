"""``aura eval manual``: questions about the audit manual itself, answered from its clauses.

Gold: ``data/eval/manual/questions.jsonl`` (written blind, its README says how). A ``manual``
question names the clauses that answer it (best first) and a phrase of the first; a ``reports``
question uses the manual's words but asks for cases, and must be answered from the reports.
Scored per split:

- ``detected``: manual questions answered from the manual; ``kept_on_reports``: reports
  questions answered from the reports (not from the manual);
- ``top1``: the first clause cited is the gold's first; ``any``: some gold clause cited;
- ``precision``: the cited clauses that are gold; ``phrase``: the first clause's phrase quoted
  (whitespace and the kind of quote mark aside); ``declined``: manual questions the turn declined (coverage 'none').
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.container import Container
from app.eval.answers import Runner
from app.policies.offline.quotes import fold
from graph.vocab import MANUAL_CHUNK_PREFIX


def load(path: Path, split: str) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if split == "all" or r["split"] == split]


def clauses_cited(state: dict[str, Any]) -> list[str]:
    ids = [c["chunk_id"][len(MANUAL_CHUNK_PREFIX):] for c in state.get("citations") or [] if c.get("chunk_id", "").startswith(MANUAL_CHUNK_PREFIX)]
    return list(dict.fromkeys(ids))


def run(services: Container, questions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    runner = Runner(services)
    out = []
    for i, q in enumerate(questions):
        state, ms, _ = runner.turn(f"manual-{i}", q["question"])
        cited = clauses_cited(state)
        shown = fold(state.get("answer") or "")  # whitespace aside; a display quote shows “ ” as ‘ ’
        out.append({
            "id": q["id"], "split": q["split"], "source": q["source"], "question": q["question"],
            "answered_from": state.get("source") or "reports", "coverage": state.get("coverage"), "cited": cited,
            "top1": bool(cited) and bool(q["clauses"]) and cited[0] == q["clauses"][0],
            "any": bool(set(cited) & set(q["clauses"])),
            "precision": len(set(cited) & set(q["clauses"])) / len(cited) if cited else None,
            "phrase": bool(q.get("phrase")) and fold(q["phrase"]) in shown,
            "ms": round(ms, 1), "answer": state.get("answer"),
        })
    return out


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def summarize(recs: list[dict[str, Any]]) -> dict[str, Any]:
    manual = [r for r in recs if r["source"] == "manual"]
    reports = [r for r in recs if r["source"] == "reports"]
    return {
        "manual_questions": len(manual),
        "reports_questions": len(reports),
        "detected": _mean([r["answered_from"] == "manual" for r in manual]),
        "kept_on_reports": _mean([r["answered_from"] == "reports" for r in reports]),
        "top1": _mean([r["top1"] for r in manual]),
        "any": _mean([r["any"] for r in manual]),
        "precision": _mean([r["precision"] for r in manual if r["precision"] is not None]),
        "phrase": _mean([r["phrase"] for r in manual]),
        "declined": _mean([r["coverage"] == "none" for r in manual]),
    }
