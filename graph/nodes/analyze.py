"""analyze: the audit analyst. Writes the answer from the evidence, SOP clauses and SQL rows,
each sentence with [n] citations; on a regeneration it gets the verifier's feedback. An answer
from the audit manual (``source``) says what the manual is and is not retained for follow-ups. With no
evidence (nothing relevant after the capped rewrites, or a question about years or
organisations the store does not cover) the turn declines: coverage 'none', the nearest
findings set aside by grading cited as references only."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from graph.context import RunContext
from graph.memory import finding_order, remembered
from graph.nodes._step import StepInfo, history, standalone, step
from graph.ports import GraphServices
from graph.schemas import AnalystAnswer
from graph.state import AuraState, Doc, has_rows
from graph.vocab import MANUAL_SECTION, language, section_label

FOLLOW_UP_HEADER = {"ko": "이어서 확인할 질문", "en": "You could ask next"}
SOP_HEADER = {"ko": "적용 기준(SOP)", "en": "Applicable criteria (SOP)"}
MANUAL_NOTE = {
    "ko": f"※ {section_label(MANUAL_SECTION, 'ko')}은 AURA가 공개 감사보고서와 관계 법령을 참고해 작성한 실무 참고자료이며, 감사원의 공식 규정이 아닙니다.",
    "en": f"Note: the {section_label(MANUAL_SECTION, 'en')} is practice guidance AURA wrote from public audit reports and laws; "
          "it is not an official BAI rule.",
}
"""Shown under an answer from the manual: what the manual is (``sop/README.md``)."""
UNMATCHED_NOTE = {
    "ko": "※ 질문에 쓴 {words} 같은 말은 이 지적사항에 나오지 않습니다. 질문한 사안과 같은 건인지 확인하세요.",
    "en": "Note: this finding never mentions {words} from your question; check that it is the case you asked about.",
}
"""Shown under the lead when the first finding presented never uses a distinctive word of the
question (the retriever's ``unmatched``: '음주' asked of the 기상특보 출항 finding); the turn's
coverage is then 'partial'."""


def render(answer: AnalystAnswer, sop: list[dict[str, Any]], lang: str, manual: bool = False, unmatched: list[str] | None = None) -> str:
    lines = [s.text for s in answer.sentences]
    if unmatched:  # right under the lead
        lines.insert(1, UNMATCHED_NOTE[lang].format(words=", ".join(f"'{w}'" for w in unmatched)))
    parts = ["\n".join(lines)]
    if manual:
        parts.append(MANUAL_NOTE[lang])
    if sop:
        parts.append(f"{SOP_HEADER[lang]}:\n" + "\n".join(f"- [{c['id']}] {c['title']}" for c in sop))
    if answer.follow_up_questions:
        parts.append(f"{FOLLOW_UP_HEADER[lang]}:\n" + "\n".join(f"- {q}" for q in answer.follow_up_questions))
    return "\n\n".join(p for p in parts if p.strip())


_QUOTE_MARKS = "“”‘’\"'"
_FOLD = str.maketrans({c: "'" for c in _QUOTE_MARKS})
_GAP = r"(?:\s|(?<=[^\s\d(])\d{1,3}\))*"
"""What may lie between two characters of a quote in its passage: whitespace (a display quote joins
words a PDF line break split) and footnote references ('않아12) 환자가' quoted as '않아 환자가')."""


def locate(quote: str, text: str) -> list[int] | None:
    """[start, end) of ``quote`` in ``text``: whitespace, footnote references and the kind of quote
    mark aside (a display quote shows a passage's “ ” as ‘ ’); None when it is not there."""
    chars = "".join(quote.split())
    if not chars or not text:
        return None
    index = [i for i, ch in enumerate(text) if not ch.isspace()]
    pos = "".join(text[i] for i in index).translate(_FOLD).find(chars.translate(_FOLD))
    if pos >= 0:  # the common case, quickly: only whitespace differs
        return [index[pos], index[pos + len(chars) - 1] + 1]
    pattern = _GAP.join(f"[{re.escape(_QUOTE_MARKS)}]" if ch in _QUOTE_MARKS else re.escape(ch) for ch in chars)
    m = re.search(pattern, text)
    return [m.start(), m.end()] if m else None


def citations(answer: AnalystAnswer, docs: list[Doc]) -> list[dict[str, Any]]:
    """One entry per cited passage. A sentence's quote belongs to its first citation; a passage
    first cited without a quote takes the quote of a later sentence that has one."""
    out: dict[int, dict[str, Any]] = {}
    for s in answer.sentences:
        for j, n in enumerate(s.citations):
            quote = s.quote if j == 0 else ""
            if 0 < n <= len(docs) and (n not in out or (quote and not out[n]["quote"])):
                d = docs[n - 1]
                out[n] = {
                    "n": n,
                    "chunk_id": d["chunk_id"],
                    "report": d["report_title"],
                    "report_id": d["report_id"],
                    "finding_id": d.get("finding_id"),
                    "section": d["section"],
                    "page": d["page"],
                    "quote": quote,
                    "span": locate(quote, d["text"]),
                    "score": round(float(d.get("relevance", d.get("score", 0.0))), 4),
                }
    return [out[n] for n in sorted(out)]


def build(services: GraphServices):
    @step("analyze")
    def analyze(state: AuraState, runtime: Runtime[RunContext]) -> tuple[dict[str, Any], StepInfo]:
        docs = state.get("documents") or []
        sql = state.get("sql")
        feedback = state.get("feedback") or ""
        regenerations = (state.get("regeneration_count") or 0) + (1 if feedback else 0)
        gaps = state.get("scope_gaps") or []
        manual = state.get("source") == "manual"
        if (not docs and sql is None) or (gaps and not has_rows(sql)):
            docs = state.get("set_aside") or _one_per_finding(docs)
            decided = services.policies.decline(state["question"], gaps, docs)
            coverage = "none"
        else:
            decided = services.policies.analyze(
                state["question"], docs, state.get("sop") or [], sql, feedback, history(state, runtime.context.history_turns)
            )
            coverage = "full" if docs or has_rows(sql) else "none"
        answer = decided.value
        presented = presented_findings(answer, docs) or _listed_findings(sql)
        unmatched = _unmatched(presented, docs, f"{state['question']} {standalone(state)}") if coverage == "full" and not manual else []
        if unmatched:
            coverage = "partial"
        cites = citations(answer, docs)
        if cites:
            runtime.stream_writer({"event": "evidence", "stage": "cited", "items": cites})
        update: dict[str, Any] = {
            "answer": render(answer, state.get("sop") or [], language(state["question"]), manual=coverage != "none" and manual,
                             unmatched=unmatched),
            "sentences": [s.model_dump() for s in answer.sentences],
            "citations": cites,
            "suggestions": list(answer.follow_up_questions),
            "regeneration_count": regenerations,
            "feedback": "",
            "coverage": coverage,
        }
        if coverage != "none" and (len(presented) >= 2 or not set(presented) <= set(state.get("listed") or [])):
            update["listed"] = presented if len(presented) >= 2 else []  # a follow-up narrowing to one of them keeps the list
        if coverage == "none":
            update["documents"] = docs  # the references the [n] markers point at
            if state.get("earlier_documents") and not state.get("retained_documents"):
                update["retained_documents"] = state["earlier_documents"]  # the pivot found nothing: back to what was shown
        elif docs and not manual:  # the manual's clauses are no case a follow-up could point at
            update["retained_documents"] = [{k: v for k, v in d.items() if k != "unmatched"} for d in docs]  # this question's
        elif listed := _listed_findings(sql):  # '두 번째 건' after a list resolves against the list
            update["retained_documents"] = _one_per_finding(services.finding_docs(listed, ["problems"]), len(listed))
        if "retained_documents" in update or state.get("earlier_documents"):
            # the cases no longer retained (replaced, or cleared by a pivot) are set aside, for a question going back to them
            kept = set(finding_order(update.get("retained_documents", state.get("retained_documents") or [])))
            before = state.get("retained_documents") or state.get("earlier_documents") or []
            gone = [d for d in before if d.get("finding_id") not in kept]
            update["past_documents"] = remembered(gone, [d for d in state.get("past_documents") or [] if d.get("finding_id") not in kept])
        what = f"regeneration {regenerations}: " if feedback else ""
        return update, StepInfo(f"{what}{len(answer.sentences)} sentences, {len(cites)} sources cited; coverage {coverage}", decided)

    return analyze


RETAIN_LISTED = 10
"""Findings of a fast-track list kept for follow-ups ('두 번째 건'), in the order shown."""


def _listed_findings(sql: dict[str, Any] | None) -> list[str]:
    """The finding ids a fast-track list showed (its ``id`` column), in order."""
    cols = (sql or {}).get("columns") or []
    if "id" not in cols or (sql or {}).get("error"):
        return []
    i = cols.index("id")
    return [str(r[i]) for r in (sql or {}).get("rows") or []][:RETAIN_LISTED]


def _unmatched(presented: list[str], docs: list[Doc], question: str) -> list[str]:
    """The distinctive words of the question the first finding presented never uses: those the
    user wrote, or the question the router restated for them ('비슷한 거라도 없어?' after a decline);
    not an English question's glossary Korean."""
    first = next((d for d in docs if presented and d.get("finding_id") == presented[0]), None)
    asked = re.sub(r"\s+", "", question).lower()
    return [w for w in (first or {}).get("unmatched") or [] if re.sub(r"\s+", "", w).lower() in asked][:3]


def presented_findings(answer: AnalystAnswer, docs: list[Doc]) -> list[str]:
    """The findings the answer presents, in reading order (each once)."""
    return list(dict.fromkeys(
        docs[n - 1]["finding_id"] for s in answer.sentences for n in s.citations if 0 < n <= len(docs) and docs[n - 1].get("finding_id")
    ))


def _one_per_finding(docs: list[Doc], n: int = 3) -> list[Doc]:
    out: dict[str, Doc] = {}
    for d in docs:
        out.setdefault(d.get("finding_id") or d["chunk_id"], d)
    return list(out.values())[:n]
