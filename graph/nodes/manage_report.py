"""manage_report: ask for what a 감사 보고서 draft still needs, or hand the frontend a
structured draft (a report trigger event) built from the evidence."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.nodes._step import StepInfo, findings_of, history, step
from graph.ports import GraphServices
from graph.state import AuraState

FIELD_QUESTIONS = {
    "institution": "어느 기관(대상 기관)에 대한 보고서인가요?",
    "period": "감사 기간이나 배경을 알려 주세요.",
    "findings": "어떤 지적사항을 다룰까요? 먼저 관련 사례를 검색해 보시겠어요?",
    "criteria": "적용할 관계 법령·판단기준을 알려 주세요.",
    "actions": "조치할 사항(처분 종류)을 알려 주세요.",
}


def build(services: GraphServices):
    @step("manage_report")
    def manage_report(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        question = state["question"]
        docs = state.get("retained_documents") or []
        if not docs and (state.get("filters") or {}).get("institutions"):
            docs = services.search(question, runtime.context.top_k, state["filters"])
        decided = services.policies.check_report(question, history(state, runtime.context.history_turns), docs)
        readiness = decided.value
        if not readiness.ready:
            asks = [FIELD_QUESTIONS.get(m, m) for m in readiness.missing]
            answer = "보고서 초안을 만들려면 다음 정보가 더 필요합니다.\n" + "\n".join(f"- {a}" for a in asks)
            report = {"status": "needs_info", "missing": readiness.missing}
            summary = f"missing: {', '.join(readiness.missing)}"
        else:
            titles, dispositions = findings_of(docs)
            sop = (services.sop_for_findings(question, titles, dispositions, runtime.context.sop_k, state.get("query") or question)
                   if titles  # the criteria of the findings drafted, chosen as the answer's are
                   else services.search_sop("보고서 작성 조치할 사항", runtime.context.sop_k))
            draft = services.draft_report(docs, sop, readiness)
            report = {"status": "ready", "draft": draft}
            runtime.stream_writer({"event": "report_trigger", "draft": draft})
            answer = f"'{draft['title']}' 보고서 초안을 작성했습니다. 편집 창에서 각 항목을 확인·수정한 뒤 내보내기(DOCX/Markdown)할 수 있습니다."
            summary = f"draft ready: {len(draft['sections'])} sections"
        update = {"answer": answer, "report": report, "messages": [AIMessage(answer, response_metadata={"track": "report"})], "retained_documents": docs}
        return update, StepInfo(summary, decided)

    return manage_report
