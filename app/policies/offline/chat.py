"""Offline chat: greetings, help, thanks, and questions about the conversation itself."""

from __future__ import annotations

import re

from graph.ports import Turn
from graph.vocab import language

_NAME_SAID = re.compile(r"(?:내|제)\s*이름은\s*([가-힣A-Za-z]{1,20}?)(?:이야|야|입니다|이에요|예요|라고|$|[.!\s])|my name is ([A-Za-z가-힣]{1,20})", re.I)
_NAME_ASKED = re.compile(r"(내|제)\s*이름(이|은)?\s*(뭐|무엇|기억)|what'?s my name|remember my name", re.I)
_ASKED_BEFORE = re.compile(r"(아까|처음|방금|전에).*(물어|질문)|what did i ask", re.I)
_THANKS = re.compile(r"고마|감사해|감사합니다|thank", re.I)
_HELP = re.compile(r"도움말|사용법|뭘 할 수|무엇을 (할|도와)|what can you do|help|누구|who are you", re.I)

HELP = {
    "ko": ("저는 감사 보조 AI AURA입니다. 실제 감사보고서를 근거로 답합니다.\n"
           "- 지적사항 분석: 예) '해운대구 위원 제척 문제 분석해줘'\n"
           "- 빠른 조회: 예) '2025년 주의 처분 건수', '처분 종류별 건수'\n"
           "- 보고서 초안: 사례를 찾은 뒤 '보고서 초안 작성해줘'\n"
           "답변의 [번호]는 근거 문서를 가리킵니다."),
    "en": ("I am AURA, an audit assistant that answers from real audit reports.\n"
           "- Analysis: e.g. 'why was the Haeundae committee exclusion improper?'\n"
           "- Quick lookups: e.g. 'how many findings got a caution in 2025?'\n"
           "- Report drafts: find a case, then 'draft a report'.\n"
           "Numbers in brackets [n] point to the evidence."),
}


def reply(question: str, history: list[Turn], summary: str) -> str:
    lang = language(question) if question.strip() else "ko"
    if m := _NAME_SAID.search(question):
        name = m.group(1) or m.group(2)
        return f"반갑습니다, {name}님. 기억해 두겠습니다." if lang == "ko" else f"Nice to meet you, {name}."
    if _NAME_ASKED.search(question):
        for t in reversed(history):
            if m := _NAME_SAID.search(t.question):
                name = m.group(1) or m.group(2)
                return f"{name}님이라고 하셨습니다." if lang == "ko" else f"You told me your name is {name}."
        return "아직 이름을 알려 주지 않으셨습니다." if lang == "ko" else "You haven't told me your name yet."
    if _ASKED_BEFORE.search(question):
        if not history:
            return "이 대화에서 아직 질문하신 내용이 없습니다." if lang == "ko" else "You haven't asked anything yet in this conversation."
        asked = "\n".join(f"- {t.question}" for t in history)
        return f"이 대화에서 물어보신 내용입니다:\n{asked}" if lang == "ko" else f"In this conversation you asked:\n{asked}"
    if _THANKS.search(question):
        return "천만에요. 더 필요한 것이 있으면 말씀해 주세요." if lang == "ko" else "You're welcome. Anything else?"
    if _HELP.search(question) or not question.strip():
        return HELP[lang]
    greeting = "안녕하세요, 감사 보조 AI AURA입니다." if lang == "ko" else "Hello, I'm AURA, your audit assistant."
    recap = ""
    if summary:
        recap = f" 지금까지의 대화: {summary.splitlines()[-1]}" if lang == "ko" else f" So far: {summary.splitlines()[-1]}"
    ask = (" 감사 지적사항, 기관, 규정이나 보고서 작성에 대해 물어보세요." if lang == "ko"
           else " Ask me about audit findings, institutions, regulations or report writing.")
    return greeting + recap + ask


def summarize(summary: str, turns: list[Turn], max_lines: int = 6) -> str:
    """A running summary: one line per exchange, the newest last, bounded."""
    lines = [ln for ln in summary.splitlines() if ln.strip()]
    if turns:
        t = turns[-1]
        answer = re.sub(r"\s+", " ", t.answer)[:120]
        lines.append(f"Q: {t.question[:120]} → A: {answer}")
    return "\n".join(lines[-max_lines:])
