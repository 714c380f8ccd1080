"""verify_answer (Self-RAG): is every sentence supported by what it cites (hallucination
check), and does the answer address the question (utility)? Decides the next step within the
caps; when a cap stops a loop, the answer says so instead of pretending.

A rewrite the utility check asks for may find nothing relevant, and the turn then declines (the
answer set's "Self-RAG can say no"). Tried on 2026-11-26, not kept: putting the first answer's
evidence back instead (coverage partial). Dev: false abstentions .075 -> .065, but unanswerable
questions declined .701 -> .626 (eight near misses the loop had declined were answered); blind g6:
one case found again ('비행기에 제일 유리한 시나리오'), one near miss answered."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, reworkable, standalone, step
from graph.ports import GraphServices
from graph.schemas import AnalystAnswer, AnswerSentence
from graph.state import AuraState

UNVERIFIED_MARK = "⚠"
NOTES = {
    "unsupported": "⚠ 표시한 문장은 인용한 근거로 확인되지 않았습니다(재생성 한도 도달). / Sentences marked ⚠ are not supported by their sources.",
    "not_useful": "질문의 일부에 대해서는 충분한 근거를 찾지 못했습니다(재검색 한도 도달). / Parts of the question found no sufficient evidence.",
    "manual_not_useful": "질문의 일부는 매뉴얼 조항에서 찾지 못했습니다. / The manual's clauses do not answer every part of the question.",
}


def build(services: GraphServices):
    @step("verify_answer")
    def verify_answer(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        ctx = runtime.context
        answer = AnalystAnswer(sentences=[AnswerSentence(**s) for s in state.get("sentences") or []])
        decided = services.policies.verify(standalone(state), answer, state.get("documents") or [])
        v = decided.value
        can_regenerate = (state.get("regeneration_count") or 0) < ctx.max_regenerations and reworkable(state)
        # a question about findings the user pointed at ('그 건', '2번') is not searched again
        can_rewrite = (state.get("rewrite_count") or 0) < ctx.max_rewrites and not state.get("references") and reworkable(state)
        text = state.get("answer") or ""
        update: dict[str, Any] = {}
        if not v.grounded and can_regenerate:  # (not for the manual's clauses: quoted as they stand, the same again)
            action = "regenerate"
            update["feedback"] = "Unsupported sentences (remove or fix them): " + " | ".join(v.unsupported)
        elif v.grounded and not v.useful and can_rewrite:
            action = "rewrite"
        else:
            action = "finish"
            notes = []
            if not v.grounded:
                for sentence in v.unsupported:
                    text = text.replace(sentence, f"{UNVERIFIED_MARK} {sentence}", 1)
                notes.append(NOTES["unsupported"])
            if not v.useful:
                notes.append(NOTES["not_useful" if reworkable(state) else "manual_not_useful"])
                update["coverage"] = "partial"
            if notes:
                text = text + "\n\n" + "\n".join(notes)
            update["answer"] = text
        update["verification"] = {**v.model_dump(exclude={"reasoning"}), "action": action}
        summary = f"grounded={v.grounded} useful={v.useful} confidence={v.confidence:.2f} -> {action}"
        if v.unsupported:
            summary += f"; {len(v.unsupported)} unsupported"
        return update, StepInfo(summary, decided)

    return verify_answer
