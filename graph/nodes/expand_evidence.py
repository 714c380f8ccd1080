"""expand_evidence: the relevant findings' own sections (문제점, 관계 법령·판단기준, 조치할
사항, 관계기관 의견) join the passages search found, so the answer can say what was wrong, under
which rule and what was demanded, whichever passage the search happened to hit."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, step
from graph.ports import GraphServices
from graph.state import AuraState, Doc
from graph.vocab import SECTION_KINDS

MAX_FINDINGS = 3
"""Findings expanded (the best first; the rest keep only their searched passages)."""
PER_SECTION = {kind: n for kind, n in zip(SECTION_KINDS, (1, 4, 3, 1, 2), strict=True) if n}
"""Stored chunks added per section of an expanded finding: overview 1, criteria 4, problems 3,
opinion 1, actions 2. The overview's first chunk names laws a legal-basis answer lists (dev law
recall 0.841 -> 0.862, answer length unchanged); more criteria and problems chunks (6, 4) moved
nothing."""


def expand(docs: list[Doc], stored: list[Doc]) -> list[Doc]:
    """``docs`` grouped by finding (first-seen order), each expanded finding followed by its
    stored section chunks not already present."""
    order: list[str] = []
    groups: dict[str, list[Doc]] = {}
    for d in docs:
        key = d.get("finding_id") or f"report:{d['report_id']}"
        if key not in groups:
            order.append(key)
            groups[key] = []
        groups[key].append(d)
    have = {d["chunk_id"] for d in docs}
    added: dict[str, dict[str, int]] = {}
    for c in stored:
        fid = c.get("finding_id")
        n = added.setdefault(fid or "", {})
        if fid in groups and c["chunk_id"] not in have and n.get(c["section"], 0) < PER_SECTION.get(c["section"], 0):
            n[c["section"]] = n.get(c["section"], 0) + 1
            score = max((float(x.get("relevance", 0.0)) for x in groups[fid]), default=0.0)
            groups[fid].append({**c, "relevance": score, "finding_score": groups[fid][0].get("finding_score")})
            have.add(c["chunk_id"])
    return [d for key in order for d in groups[key]]


def build(services: GraphServices):
    @step("expand_evidence")
    def expand_evidence(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        docs = state.get("documents") or []
        ids = list(dict.fromkeys(d["finding_id"] for d in docs if d.get("finding_id")))[:MAX_FINDINGS]
        if not ids:
            return {}, StepInfo("no finding to expand")
        out = expand(docs, services.finding_docs(ids, list(PER_SECTION)))
        return {"documents": out}, StepInfo(f"{len(out) - len(docs)} section passages added for {len(ids)} findings")

    return expand_evidence
