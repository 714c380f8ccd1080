"""analyze: the audit analyst. Writes the answer from the evidence, SOP clauses and SQL rows,
each sentence with [n] citations; on a regeneration it gets the verifier's feedback."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, history, step
from graph.ports import GraphServices
from graph.schemas import AnalystAnswer
from graph.state import AuraState, Doc
from graph.vocab import language

FOLLOW_UP_HEADER = {"ko": "이어서 확인할 질문", "en": "You could ask next"}
SOP_HEADER = {"ko": "적용 기준(SOP)", "en": "Applicable criteria (SOP)"}


def render(answer: AnalystAnswer, sop: list[dict[str, Any]], lang: str) -> str:
    parts = ["\n".join(s.text for s in answer.sentences)]
    if sop:
        parts.append(f"{SOP_HEADER[lang]}:\n" + "\n".join(f"- [{c['id']}] {c['title']}" for c in sop))
    if answer.follow_up_questions:
        parts.append(f"{FOLLOW_UP_HEADER[lang]}:\n" + "\n".join(f"- {q}" for q in answer.follow_up_questions))
    return "\n\n".join(p for p in parts if p.strip())


def citations(answer: AnalystAnswer, docs: list[Doc]) -> list[dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for s in answer.sentences:
        for n in s.citations:
            if 0 < n <= len(docs) and n not in out:
                d = docs[n - 1]
                out[n] = {
                    "n": n,
                    "chunk_id": d["chunk_id"],
                    "report": d["report_title"],
                    "report_id": d["report_id"],
                    "finding_id": d.get("finding_id"),
                    "section": d["section"],
                    "page": d["page"],
                    "quote": s.quote,
                    "score": round(float(d.get("relevance", d.get("score", 0.0))), 4),
                }
    return [out[n] for n in sorted(out)]


def build(services: GraphServices):
    @step("analyze")
    def analyze(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        docs = state.get("documents") or []
        feedback = state.get("feedback") or ""
        regenerations = (state.get("regeneration_count") or 0) + (1 if feedback else 0)
        decided = services.policies.analyze(
            state["question"], docs, state.get("sop") or [], state.get("sql"), feedback, history(state, runtime.context.history_turns)
        )
        answer = decided.value
        cites = citations(answer, docs)
        if cites:
            runtime.stream_writer({"event": "evidence", "stage": "cited", "items": cites})
        update: dict[str, Any] = {
            "answer": render(answer, state.get("sop") or [], language(state["question"])),
            "sentences": [s.model_dump() for s in answer.sentences],
            "citations": cites,
            "suggestions": list(answer.follow_up_questions),
            "regeneration_count": regenerations,
            "feedback": "",
        }
        if docs:
            update["retained_documents"] = docs
        what = f"regeneration {regenerations}: " if feedback else ""
        return update, StepInfo(f"{what}{len(answer.sentences)} sentences, {len(cites)} sources cited", decided)

    return analyze
