"""The answer when the reports hold none: say so plainly, name what was searched (the problem
pattern, the institutions and years asked about, what the store does not cover), and list the
nearest findings only under a separate '참고(직접 관련 없음)' heading, never as the answer."""

from __future__ import annotations

from app.policies.offline.intent import pattern
from app.policies.offline.lexicon import squash
from graph.schemas import AnalystAnswer, AnswerSentence
from graph.state import Doc
from graph.vocab import language

REFERENCE_HEADER = {"ko": "참고(직접 관련 없음)", "en": "For reference (not a match)"}


def decline(question: str, gaps: list[str], nearest: list[Doc]) -> AnalystAnswer:
    """``nearest`` are cited as [1]..[n] in the order given."""
    lang = language(question)
    searched = pattern(question)
    if lang == "ko":
        head = (f"수집된 감사보고서에는 {', '.join(gaps)}에 관한 감사 결과가 없습니다." if gaps
                else f"수집된 감사보고서에서 질문과 일치하는 사례를 찾지 못했습니다(검색한 내용: '{searched}').")
        tail = "다른 표현이나 기관·연도로 다시 질문하거나, 해당 보고서를 먼저 수집해 주세요."
    else:
        head = (f"The ingested reports hold no audit results on {', '.join(gaps)}." if gaps
                else f"The ingested reports hold no case that matches the question (searched for: '{searched}').")
        tail = "Rephrase, name another institution or year, or ingest the report first."
    sentences = [AnswerSentence(text=head)]
    if (lacking := _lacking(question, nearest)) and not gaps:
        words = ", ".join(f"'{w}'" for w in lacking)
        sentences.append(AnswerSentence(text=f"가장 가까운 지적사항들에도 {words}에 관한 내용은 나오지 않습니다." if lang == "ko"
                                        else f"None of the nearest findings mentions {words}."))
    sentences.append(AnswerSentence(text=tail))
    if nearest:
        sentences.append(AnswerSentence(text=f"{REFERENCE_HEADER[lang]}:"))
        for n, d in enumerate(nearest, start=1):
            title = d.get("finding_title") or d["report_title"]
            sentences.append(AnswerSentence(text=f"- {title} (「{d['report_title']}」 p.{d['page']}) [{n}]", citations=[n], quote=title))
    return AnalystAnswer(reasoning=f"declined; gaps: {gaps or 'none'}; {len(nearest)} references", sentences=sentences)


def _lacking(question: str, nearest: list[Doc]) -> list[str]:
    """The question's distinctive words (the retriever's ``unmatched``, in the user's own words:
    '뒷돈', '인명사고') that none of the nearest findings uses."""
    found = [d for d in nearest if d.get("finding_id")]
    asked = squash(question).lower()
    common = [w for w in (found[0].get("unmatched") or []) if squash(w).lower() in asked] if found else []
    return [w for w in common if all(w in (d.get("unmatched") or []) for d in found)][:3]
