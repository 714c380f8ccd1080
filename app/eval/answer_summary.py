"""The figures of ``aura eval answers`` from its per-turn records (``answers.score_turn``):
per group of questions, per kind of question, unanswerable by type, abstention P/R/F1, and the
conversations' turn decisions."""

from __future__ import annotations

import statistics
from typing import Any

from app.eval.metrics import percentile
from graph.vocab import QUESTION_KINDS as KINDS


def _mean(values: list[Any]) -> float | None:
    vals = [float(v) for v in values if v is not None]
    return round(sum(vals) / len(vals), 4) if vals else None


def _block(recs: list[dict[str, Any]]) -> dict[str, Any]:
    """Figures for a group of single-turn records (answerable and not)."""
    ans = [r for r in recs if r["answerable"]]
    una = [r for r in recs if not r["answerable"]]
    steps = [s for r in recs for s in r.get("next_steps") or []]
    cited = sum(r["cited_sentences"] for r in ans)
    bad = sum(len(r["unsupported"]) for r in ans)
    out: dict[str, Any] = {
        "questions": len(recs), "answerable": len(ans), "unanswerable": len(una),
        "top1": _mean([r["top1"] for r in ans]),
        "any_gold": _mean([r["any_gold"] for r in ans]),
        "citation_recall": _mean([r["citation_recall"] for r in ans]),
        "citation_precision": _mean([r["citation_precision"] for r in ans]),
        "nuggets": _mean([r.get("nuggets") for r in ans]),
        "nuggets_vital": _mean([r.get("nuggets_vital") for r in ans]),
        "groundedness": round(1 - bad / cited, 4) if cited else None,
        "false_abstention": _mean([r["abstained"] for r in ans]),
        "abstained_unanswerable": _mean([r["abstained"] for r in una]),
        "partial_answerable": _mean([r["coverage"] == "partial" if r.get("coverage") else None for r in ans]),
        "full_unanswerable": _mean([r["coverage"] == "full" if r.get("coverage") else None for r in una]),
        "next_steps_evidence": _mean([s["evidence"] and not s["repeat"] for s in steps]),
        "artefact_answers": _mean([bool(r["artefacts"]) for r in recs]),
        "chars_median": statistics.median([r["chars"] for r in recs]) if recs else None,
        "ms_p50": round(percentile([r["ms"] for r in recs], 50), 1) if recs else None,
        "ms_p95": round(percentile([r["ms"] for r in recs], 95), 1) if recs else None,
        "llm_calls": _mean([r["llm_calls"] for r in recs]),
    }
    disp = [r["disposition_match"] for r in ans if "disposition_match" in r]
    if disp:
        out["disposition_match"] = _mean(disp)
    laws = [r["law_recall"] for r in ans if "law_recall" in r]
    if laws:
        out["law_recall"] = _mean(laws)
    if any("sop_shown" in r for r in ans):
        for k in ("sop_precision", "sop_recall", "sop_violation_precision", "sop_violation_recall"):
            out[k] = _mean([r.get(k) for r in ans])
    return out


def abstention(recs: list[dict[str, Any]]) -> dict[str, Any]:
    """Positive class: the reports hold no answer."""
    tp = sum(1 for r in recs if r["abstained"] and not r["answerable"])
    fp = sum(1 for r in recs if r["abstained"] and r["answerable"])
    fn = sum(1 for r in recs if not r["abstained"] and not r["answerable"])
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f1, 4),
            "false_abstentions": [x["id"] for x in recs if x["abstained"] and x["answerable"]]}


def summarize(recs: list[dict[str, Any]]) -> dict[str, Any]:
    single = [r for r in recs if "conversation" not in r]
    turns = [r for r in recs if "conversation" in r]
    out: dict[str, Any] = {
        "overall": _block(single),
        "by_kind": {k: _block([r for r in single if r["kind"] == k and r["answerable"]]) for k in KINDS},
        "unanswerable": _block([r for r in single if not r["answerable"]]),
        "abstention": abstention(single),
    }
    by_type: dict[str, list[bool]] = {}
    for r in single:
        if not r["answerable"]:
            by_type.setdefault(r.get("unanswerable_type") or "?", []).append(r["abstained"])
    out["unanswerable"]["by_type"] = {k: _mean(v) for k, v in sorted(by_type.items())}
    if turns:
        labelled = [r for r in turns if r.get("expect")]
        later = [r for r in labelled if not r["id"].endswith("#1")]
        out["conversations"] = {
            "conversations": len({r["conversation"] for r in turns}), "turns": len(turns),
            "decision_accuracy": _mean([r["expect"] == r["got"] for r in labelled]),
            "decision_accuracy_later_turns": _mean([r["expect"] == r["got"] for r in later]),
            "follow_up_accuracy": _mean([r["got"] == "follow_up" for r in later if r["expect"] == "follow_up"]),
            "pivot_accuracy": _mean([r["got"] == "new" for r in later if r["expect"] == "new"]),
            **{k: v for k, v in _block(turns).items() if k in ("top1", "any_gold", "nuggets", "false_abstention", "abstained_unanswerable")},
            "decision_errors": [{"id": r["id"], "question": r["question"], "expect": r["expect"], "got": r["got"]}
                                for r in labelled if r["expect"] != r["got"]],
        }
    return out
