"""Thumbs-down answers as gold-set candidates.

``aura feedback export --jsonl`` writes one ``aura-feedback`` record per line. Each 👎 record
becomes a candidate question in the format of ``data/eval/answers/questions.jsonl`` (see its
README) with what the auditor disliked kept beside it, and ``answerable: null`` and empty gold
until a person labels it. ``aura eval answers --dataset EXPORT.jsonl`` runs the candidates
through the graph again and says, per question, whether the answer changed since the 👎.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from app.policies.offline.intent import question_kind

KIND = "aura-feedback"
_HANGUL = re.compile(r"[가-힣]")
_LATIN = re.compile(r"[A-Za-z]")


class FeedbackFileError(ValueError):
    """The file is not a feedback export; the message names the line."""


def is_feedback_export(path: Path) -> bool:
    """Whether PATH is a file whose first record is an ``aura-feedback`` record."""
    if not path.is_file():
        return False
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                try:
                    return json.loads(line).get("kind") == KIND
                except (ValueError, AttributeError):
                    return False
    return False


def read_export(path: Path) -> list[dict[str, Any]]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise FeedbackFileError(f"{path}:{n}: not JSON") from exc
        if not isinstance(row, dict) or row.get("kind") != KIND or not row.get("question"):
            raise FeedbackFileError(f"{path}:{n}: not an aura-feedback record with a question")
        rows.append(row)
    return rows


def candidates(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One candidate per 👎 record (the latest per question), in questions.jsonl format."""
    latest: dict[str, dict[str, Any]] = {}
    for r in records:
        if r.get("rating") == "down":
            latest[r["question"].strip()] = r
    out = []
    for r in latest.values():
        q = r["question"].strip()
        out.append({
            "id": f"fb-{r['id']}", "split": "dev", "kind": question_kind(q),
            "lang": "ko" if len(_HANGUL.findall(q)) >= len(_LATIN.findall(q)) / 2 else "en", "question": q,
            "answerable": None, "gold_findings": [], "nuggets": [],
            "notes": f"👎 by {r.get('owner', '?')} on {r.get('updated_at', '?')}: {r.get('comment') or '(no comment)'}; to be labelled",
            "disliked": {"answer": r.get("answer", ""), "coverage": r.get("coverage"),
                         "cited_findings": r.get("cited_findings") or [], "thread_id": r.get("thread_id"),
                         "turn_id": r.get("turn_id")},
        })
    return out


def compare(cands: list[dict[str, Any]], recs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per candidate: the answer now against the one disliked (coverage, cited findings)."""
    by_id = {r["id"]: r for r in recs}
    rows = []
    for c in cands:
        now = by_id.get(c["id"], {})
        before = c["disliked"]
        rows.append({
            "id": c["id"], "question": c["question"], "kind": c["kind"],
            "coverage_before": before["coverage"], "coverage_now": now.get("coverage"),
            "findings_before": before["cited_findings"], "findings_now": now.get("cited_findings", []),
            "changed": (now.get("answer") or "").strip() != (before["answer"] or "").strip(),
        })
    return {
        "candidates": len(rows), "answers_changed": sum(r["changed"] for r in rows),
        "coverage_now": dict(Counter(str(r["coverage_now"]) for r in rows)), "questions": rows,
    }
