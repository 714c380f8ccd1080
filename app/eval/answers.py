"""``aura eval answers``: score the answer an auditor reads, over a gold set written blind
(``data/eval/answers/``, see its README).

Each single-turn question runs through the whole graph in a fresh thread; each conversation
runs turn by turn in one thread. Per answer (checks in ``answer_checks``):

- phase 1, citation: precision (cited passages that belong to a gold finding or contain a gold
  nugget phrase), recall (gold findings cited), top-1 (the first finding presented is gold),
  any-gold (at least one gold finding cited); a fast-track answer, which cites no passage,
  presents the findings its SQL rows list by title (``listed_findings``);
- phase 2, nuggets: share of gold nuggets the answer states (proof phrase present, spacing
  aside; an embedding match above a calibrated threshold counts half), all and vital;
- phase 3, groundedness: share of cited sentences supported by the passages they cite;
- phase 4, next steps: each suggested question, run as a follow-up forked from the answer's
  checkpoint, returns evidence and is not a repeat of the question;
- abstention: precision / recall / F1 of "the reports hold no answer" (the turn's
  ``coverage`` is ``none``, or, where a graph reports no coverage, it cites nothing);
- readability: answers with PDF debris, main-text length;
- kind-specific: the recommended disposition matches the precedents' (disposition questions),
  gold law references recalled (legal-basis questions);
- SOP (deep answers): of the clauses shown under "적용 기준(SOP)", the share that apply to a gold
  finding (``data/eval/sop/findings_sop.jsonl``: each finding's violation-type, disposition and
  other clauses, labelled blind), and the share of those clauses shown (at most ``SOP_SHOWN``);
  the violation-type clauses apart (most of the rest follow from the dispositions by name):
  shown ones that are labelled, and labelled ones shown;
- latency p50/p95 and LLM calls per turn.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from app.agent.runner import Agent
from app.container import Container
from app.db.models import Chunk, Finding
from app.eval import answer_checks as chk
from app.ingest.chunking import sentence_spans
from app.retrieval.sop import VIOLATION_DOCUMENT
from graph.context import RunContext
from graph.vocab import DISPOSITIONS

SPLITS = ("dev", "test", "all")
SOP_GOLD = Path("sop") / "findings_sop.jsonl"
"""The SOP labels per finding, beside the gold directories (``data/eval/sop/``)."""
SOP_SHOWN = RunContext().sop_k
"""Clauses an answer shows at most: SOP recall counts at most this many."""



class GoldError(ValueError):
    """The gold set is missing or malformed; the message names the file and line."""


@dataclass
class Gold:
    questions: list[dict[str, Any]]
    conversations: list[dict[str, Any]]
    sop: dict[str, SopLabels] = field(default_factory=dict)
    """Finding id -> the SOP clauses that apply to it (empty: SOP not scored)."""


def _jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise GoldError(f"{path}:{n}: not JSON ({exc.msg})") from exc
    return rows


@dataclass(frozen=True)
class SopLabels:
    """The SOP clauses labelled for one finding."""

    applies: frozenset[str]
    """Every one: violation type, disposition, other."""
    violation: frozenset[str]
    """Its violation types (``SOP-VIO``) alone."""


def load_sop_gold(path: str | Path) -> dict[str, SopLabels]:
    """Finding id -> its labels."""
    out: dict[str, SopLabels] = {}
    for row in _jsonl(Path(path)):
        if "finding" not in row:
            raise GoldError(f"{path}: a row lacks 'finding'")
        if row["finding"] in out:
            raise GoldError(f"{path}: {row['finding']} is labelled twice")
        if any(not isinstance(row.get(k) or [], list) for k in ("violation", "disposition", "other")):
            raise GoldError(f"{path}: {row['finding']}: violation, disposition and other must be lists")
        out[row["finding"]] = SopLabels(frozenset(c for k in ("violation", "disposition", "other") for c in row.get(k) or []),
                                        frozenset(row.get("violation") or []))
    return out


def load_gold(directory: str | Path, split: str = "all") -> Gold:
    """questions.jsonl and conversations.jsonl of a gold directory (either may be absent, not
    both; ``data/eval/followups`` holds conversations only), limited to one split, with the SOP
    labels beside it (``SOP_GOLD``) when they exist."""
    if split not in SPLITS:
        raise GoldError(f"unknown split {split!r} (use dev, test or all)")
    root = Path(directory)
    qpath, cpath = root / "questions.jsonl", root / "conversations.jsonl"
    if not qpath.is_file() and not cpath.is_file():
        raise GoldError(f"neither {qpath} nor {cpath} found")
    questions = _jsonl(qpath) if qpath.is_file() else []
    conversations = _jsonl(cpath) if cpath.is_file() else []
    for q in questions:
        missing = [k for k in ("id", "kind", "question", "answerable", "split") if k not in q]
        if missing:
            raise GoldError(f"{qpath}: {q.get('id', '?')} lacks {', '.join(missing)}")
        if q["answerable"] and not q.get("gold_findings"):
            raise GoldError(f"{qpath}: {q['id']} is answerable but has no gold_findings")
    keep = (lambda r: True) if split == "all" else (lambda r: r.get("split") == split)
    sop = root.parent / SOP_GOLD
    labels = load_sop_gold(sop) if sop.is_file() else {}
    return Gold([q for q in questions if keep(q)], [c for c in conversations if keep(c)], labels)


# ---------------------------------------------------------------- running turns


class Runner:
    """Runs turns through one compiled graph with an in-memory checkpointer."""

    def __init__(self, services: Container) -> None:
        self.agent = Agent(services, checkpointer=InMemorySaver())

    def turn(self, thread: str, text: str, checkpoint: str | None = None) -> tuple[dict[str, Any], float, str]:
        """(final state, milliseconds, checkpoint id after the turn)."""
        config = self.agent._config(thread)
        if checkpoint:
            config["configurable"]["checkpoint_id"] = checkpoint
        t0 = time.perf_counter()
        self.agent.graph.invoke({"messages": [HumanMessage(text)], "mode": "auto"}, config, context=self.agent.context)
        ms = (time.perf_counter() - t0) * 1000
        snap = self.agent.graph.get_state(self.agent._config(thread))
        return snap.values, ms, snap.config["configurable"]["checkpoint_id"]


def abstained(state: dict[str, Any]) -> bool:
    if "coverage" in state and state["coverage"]:
        return state["coverage"] == "none"
    rows = (state.get("sql") or {}).get("rows") or []
    return not state.get("citations") and not rows


def has_evidence(state: dict[str, Any]) -> bool:
    return bool(state.get("citations")) or bool((state.get("sql") or {}).get("rows"))


def listed_findings(state: dict[str, Any], text: str) -> list[str]:
    """The findings a fast-track (SQL) answer lists by title, in the order shown: such an answer
    cites no passage, so its rows say which findings it presents."""
    sql = state.get("sql") or {}
    columns = list(sql.get("columns") or [])
    if "id" not in columns or "title" not in columns:
        return []
    i, t = columns.index("id"), columns.index("title")
    return [str(row[i]) for row in sql.get("rows") or [] if row[t] and chk.contains(text, str(row[t]))]


def score_turn(item: dict[str, Any], state: dict[str, Any], ms: float, sop: dict[str, SopLabels] | None = None) -> dict[str, Any]:
    """Every per-answer figure for one gold item and the graph's final state (``sop``: the SOP
    labels per finding, ``Gold.sop``)."""
    docs = state.get("documents") or []
    suggestions = list(state.get("suggestions") or [])
    text = chk.main_text(state.get("answer") or "", suggestions)
    cited = chk.cited_docs(text, docs)
    listed = listed_findings(state, text)
    gold = set(item.get("gold_findings") or [])
    nuggets = item.get("nuggets") or []
    rec: dict[str, Any] = {
        "id": item["id"], "kind": item.get("kind"), "lang": item.get("lang"), "split": item.get("split"),
        "answerable": bool(item.get("answerable")), "question": item["question"],
        "unanswerable_type": item.get("unanswerable_type"),
        "track": state.get("track"), "source": state.get("source"), "abstained": abstained(state), "coverage": state.get("coverage"),
        "first_finding": chk.first_finding(text, docs) or next(iter(listed), None),
        "cited_findings": list(dict.fromkeys(d.get("finding_id") for d in cited if d.get("finding_id"))) or listed,
        "chars": len(text), "ms": round(ms, 1),
        "llm_calls": sum(s.get("llm_calls", 0) for s in state.get("steps") or []),
        "suggestions": suggestions, "answer": text,
        "verification": state.get("verification"),
    }
    n_cited, unsupported, uncited = chk.groundedness(text, docs, item["question"])
    rec.update(cited_sentences=n_cited, unsupported=unsupported, uncited_sentences=uncited)
    rec["artefacts"] = chk.artefacts(text, cited)
    if not rec["answerable"]:
        return rec
    phrases = [n["phrase"] for n in nuggets]
    relevant = [d for d in cited if d.get("finding_id") in gold or any(chk.contains(d.get("text") or "", p) for p in phrases)]
    rec["citation_precision"] = len(relevant) / len(cited) if cited else None
    rec["citation_recall"] = len(gold & set(rec["cited_findings"])) / len(gold)
    rec["any_gold"] = bool(gold & set(rec["cited_findings"]))
    rec["top1"] = rec["first_finding"] in gold
    hits = chk.nugget_hits(text, nuggets)
    rec["nugget_hits"] = hits
    if item.get("kind") == "disposition" and item.get("precedent_dispositions"):
        got = chk.recommended_disposition(text, DISPOSITIONS)
        rec["recommended"] = got
        rec["disposition_match"] = got in set(item["precedent_dispositions"])
    if item.get("law_refs"):
        rec["law_recall"] = sum(chk.law_recalled(text, r) for r in item["law_refs"]) / len(item["law_refs"])
    labelled = [sop[f] for f in gold if sop and f in sop]
    if labelled and not rec["abstained"] and rec["track"] == "deep":  # the fast track lists no SOP
        applies = set().union(*(x.applies for x in labelled))
        violation = set().union(*(x.violation for x in labelled))
        shown = [c["id"] for c in state.get("sop") or []]
        types = [c for c in shown if c.startswith(f"{VIOLATION_DOCUMENT}-")]  # any clause of that document: a wrong one counts
        rec["sop_shown"] = shown
        rec["sop_precision"] = sum(c in applies for c in shown) / len(shown) if shown else None
        rec["sop_recall"] = len(applies & set(shown)) / min(len(applies), SOP_SHOWN) if applies else None
        rec["sop_violation_precision"] = sum(c in violation for c in types) / len(types) if types else None
        rec["sop_violation_recall"] = float(bool(violation & set(types))) if violation else None
    return rec


def _partial_nuggets(services: Container, recs: list[dict[str, Any]], items: dict[str, dict[str, Any]], threshold: float) -> None:
    """Nugget scores: 1 for a verbatim hit, 0.5 when an answer sentence is within the calibrated
    cosine of the nugget's fact, else 0."""
    for rec in recs:
        if not rec.get("answerable") or "nugget_hits" not in rec:
            continue
        nuggets = items[rec["id"]].get("nuggets") or []
        scores = [1.0 if h else 0.0 for h in rec["nugget_hits"]]
        misses = [i for i, h in enumerate(rec["nugget_hits"]) if not h]
        sents = chk.sentences(rec["answer"])
        if misses and sents:
            facts = services.embedder.embed_queries([nuggets[i]["fact"] for i in misses])
            sv = services.embedder.embed_queries(sents)
            best = (facts @ sv.T).max(axis=1)
            for i, cos in zip(misses, best, strict=True):
                if cos >= threshold:
                    scores[i] = 0.5
        rec["nugget_scores"] = scores
        rec["nuggets"] = sum(scores) / len(scores) if scores else None
        vital = [s for s, n in zip(scores, nuggets, strict=True) if n.get("vital")]
        rec["nuggets_vital"] = sum(vital) / len(vital) if vital else None


def _next_steps(runner: Runner, rec: dict[str, Any], thread: str, checkpoint: str) -> None:
    out = []
    for s in rec["suggestions"]:
        state, _, _ = runner.turn(thread, s, checkpoint)
        out.append({"question": s, "evidence": has_evidence(state), "repeat": chk.is_repeat(s, rec["question"])})
    rec["next_steps"] = out


def run(services: Container, gold: Gold, *, next_steps: bool = True, partial_threshold: float = chk.NUGGET_PARTIAL_MIN_COS) -> list[dict[str, Any]]:
    """Every gold question and conversation turn through the graph, scored."""
    return list(iter_run(services, gold, next_steps=next_steps, partial_threshold=partial_threshold))


def iter_run(services: Container, gold: Gold, *, next_steps: bool = True, partial_threshold: float = chk.NUGGET_PARTIAL_MIN_COS) -> Iterator[dict[str, Any]]:
    runner = Runner(services)
    items: dict[str, dict[str, Any]] = {}
    for q in gold.questions:
        thread = f"eval-{q['id']}"
        state, ms, cp = runner.turn(thread, q["question"])
        rec = score_turn(q, state, ms, gold.sop)
        items[q["id"]] = q
        if next_steps:
            _next_steps(runner, rec, thread, cp)
        _partial_nuggets(services, [rec], items, partial_threshold)
        yield rec
    for conv in gold.conversations:
        thread = f"eval-{conv['id']}"
        for i, turn in enumerate(conv["turns"], start=1):
            item = {"id": f"{conv['id']}#{i}", "split": conv.get("split"), "kind": turn.get("kind"),
                    "answerable": turn.get("answerable", True), **turn}
            state, ms, _ = runner.turn(thread, turn["question"])
            rec = score_turn(item, state, ms, gold.sop)
            rec["conversation"] = conv["id"]
            rec["expect"] = turn.get("expect")
            rec["got"] = "follow_up" if state.get("follow_up") else "new"
            items[item["id"]] = item
            if item["answerable"] and item.get("gold_findings"):
                _partial_nuggets(services, [rec], items, partial_threshold)
            yield rec


def calibrate_partial(services: Container, gold: Gold, target_precision: float = 0.95) -> dict[str, Any]:
    """The cosine threshold for a partial nugget match, from the gold itself: every sentence of
    each gold finding's text is a candidate; those containing the nugget's phrase are positives.
    Returns the lowest threshold whose admitted matches are >= target_precision positive."""
    with services.sessions() as session:
        rows = session.query(Chunk.finding_id, Chunk.text).filter(Chunk.finding_id.isnot(None)).all()
    texts: dict[str, list[str]] = {}
    for fid, text in rows:
        texts.setdefault(fid, []).extend(text[s:e] for s, e in sentence_spans(text) if e - s >= 15)
    pairs: list[tuple[float, bool]] = []
    for q in gold.questions:
        for n in q.get("nuggets") or []:
            sents = texts.get(n.get("finding"), [])[:60]
            if not sents:
                continue
            f = services.embedder.embed_queries([n["fact"]])
            sv = services.embedder.embed_queries(sents)
            for s, cos in zip(sents, (f @ sv.T)[0], strict=True):
                pairs.append((float(cos), chk.contains(s, n["phrase"])))
    pairs.sort(reverse=True)
    best, tp = 1.0, 0
    for i, (cos, pos) in enumerate(pairs, start=1):
        tp += pos
        if tp / i >= target_precision:
            best = cos
    return {"threshold": round(best, 4), "pairs": len(pairs), "positives": int(np.sum([p for _, p in pairs]))}


def check_store(services: Container, gold: Gold) -> str | None:
    """None when the store holds every gold finding; else what is missing and how to fix it."""
    wanted = {f for q in gold.questions for f in q.get("gold_findings") or []}
    wanted |= {f for c in gold.conversations for t in c["turns"] for f in t.get("gold_findings") or []}
    with services.sessions() as session:
        have = {fid for (fid,) in session.query(Finding.id).all()}
    missing = sorted(wanted - have)
    if missing:
        return (f"the store lacks {len(missing)} gold findings (e.g. {missing[0]}): "
                "ingest ../shared/data/bai-reports first (aura ingest ../shared/data/bai-reports)")
    return None
