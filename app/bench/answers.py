"""Answer quality rows for ``make bench``: ``aura eval answers`` over the blind gold set
(``data/eval/answers``), one JSON row per split and kind of question, plus abstention and
conversation rows. ``bench/results/answers-baseline.jsonl`` holds the same rows measured once
before any tuning (``aura bench answers --out bench/results/answers-baseline.jsonl``), so
BENCHMARKS.md shows what each change did."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.bench.common import ROOT, load1
from app.container import Container
from app.eval.answer_summary import KINDS, summarize
from app.eval.answers import load_gold, run

GOLD = ROOT / "data" / "eval" / "answers"
FOLLOWUPS = ROOT / "data" / "eval" / "followups"
"""The blind multi-turn set for follow-up / pivot decisions (written after the router rules)."""
COMMAND = "aura eval answers --dataset data/eval/answers --json"


def answer_rows(services: Container, gold_dir: Path = GOLD) -> Iterator[dict[str, Any]]:
    recs = run(services, load_gold(gold_dir, "all"))
    yield from summary_rows({split: summarize([r for r in recs if r.get("split") == split]) for split in ("dev", "test")})
    if (FOLLOWUPS / "conversations.jsonl").is_file():
        yield from followup_rows(run(services, load_gold(FOLLOWUPS, "all"), next_steps=False))


def followup_rows(recs: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Follow-up / pivot decisions and answers on the blind multi-turn set, per split."""
    for split in ("dev", "test"):
        conv = summarize([r for r in recs if r.get("split") == split]).get("conversations")
        if conv:
            yield {"figure": "answer_followups", "split": split, "load1": load1(),
                   "command": "aura eval answers --dataset data/eval/followups --no-next-steps",
                   **{k: v for k, v in conv.items() if k != "decision_errors"}, "decision_errors": len(conv["decision_errors"])}


def summary_rows(by_split: dict[str, dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Bench rows from ``aura eval answers --json`` output (a summary per split)."""
    for split in ("dev", "test"):
        s = by_split.get(split)
        if not s:
            continue
        base = {"figure": "answer_quality", "split": split, "load1": load1(), "command": COMMAND}
        for kind in KINDS:
            yield {**base, "kind": kind, **s["by_kind"][kind]}
        yield {**base, "kind": "unanswerable", **s["unanswerable"]}
        yield {**base, "kind": "overall", **s["overall"]}
        yield {**base, "figure": "answer_abstention", **s["abstention"]}
        if "conversations" in s:
            conv = {k: v for k, v in s["conversations"].items() if k != "decision_errors"}
            yield {**base, "figure": "answer_conversations", **conv, "decision_errors": len(s["conversations"]["decision_errors"])}
