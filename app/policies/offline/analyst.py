"""Offline analyst: an extractive, structured answer in the user's language. Every sentence
cites a passage, and every quote is an exact slice of the passage it cites.

Deep/lookup: the most relevant finding first, then each finding (in evidence order, so '1번
항목' in the next turn means the first one listed) with its best evidence sentences, then
suggested next questions. Fast/SQL: one analyst sentence over the rows.
"""

from __future__ import annotations

import re
from typing import Any

from app.ingest.chunking import sentence_spans
from app.policies.offline.lexicon import coverage, key_terms
from graph.schemas import AnalystAnswer, AnswerSentence
from graph.state import Doc
from graph.vocab import language, section_label

MAX_FINDINGS = 5
SENTENCES_PER_FINDING = 2


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def best_sentences(question: str, text: str, n: int) -> list[str]:
    """The n sentences of text sharing most key terms with the question (ties: earlier first),
    returned as exact slices of text, in text order."""
    q = key_terms(question)
    scored = []
    for i, (s, e) in enumerate(sentence_spans(text)):
        sentence = text[s:e]
        if len(sentence) < 15:
            continue
        scored.append((coverage(q, key_terms(sentence)), -i, sentence))
    top = sorted(scored, reverse=True)[:n]
    return [s for _, _, s in sorted(top, key=lambda t: -t[1])]


def _groups(docs: list[Doc]) -> list[tuple[str, list[int]]]:
    """(finding id or report id, 1-based doc indexes) in order of first appearance."""
    order: dict[str, list[int]] = {}
    for i, d in enumerate(docs, start=1):
        order.setdefault(d.get("finding_id") or f"report:{d['report_id']}", []).append(i)
    return list(order.items())


def _label(d: Doc, lang: str) -> tuple[str, str]:
    """(display label, quote that appears in the chunk's heading)."""
    disp = ", ".join(d.get("dispositions") or [])
    if d.get("finding_title"):
        title = d["finding_title"]
        inst = ", ".join((d.get("institutions") or [])[:1])
        extra = ", ".join(x for x in (disp, inst) if x)
        return f"{title}{f' ({extra})' if extra else ''}", title
    section = section_label(d["section"], lang)
    return f"「{d['report_title']}」 {section}", d["report_title"]


def analyze_documents(question: str, docs: list[Doc], feedback: str) -> AnalystAnswer:
    lang = language(question)
    if not docs:
        text = ("질문과 관련된 감사 근거를 찾지 못했습니다. 기관명, 연도나 처분 종류를 넣어 다시 질문해 주세요."
                if lang == "ko" else "I found no audit evidence for this question. Try naming an institution, year or disposition.")
        return AnalystAnswer(reasoning="no evidence", sentences=[AnswerSentence(text=text)])
    groups = _groups(docs)[:MAX_FINDINGS]
    first = docs[groups[0][1][0] - 1]
    label, quote = _label(first, lang)
    head = (f"질문과 가장 관련된 근거는 「{first['report_title']}」의 '{label}'입니다 [{groups[0][1][0]}]."
            if lang == "ko" else f"The most relevant evidence is '{label}' in the report 「{first['report_title']}」 [{groups[0][1][0]}].")
    sentences = [AnswerSentence(text=head, citations=[groups[0][1][0]], quote=quote)]
    # Findings are numbered in evidence order (the order follow-ups such as '2번 항목' resolve
    # against); report-level passages follow, unnumbered.
    findings = [g for g in groups if not g[0].startswith("report:")]
    others = [g for g in groups if g[0].startswith("report:")]
    for rank, (_, idxs) in enumerate([*findings, *others], start=1):
        d = docs[idxs[0] - 1]
        label, quote = _label(d, lang)
        bullet = f"{rank}." if rank <= len(findings) else "-"
        sentences.append(AnswerSentence(text=f"{bullet} {label} [{idxs[0]}]", citations=[idxs[0]], quote=quote))
        picked = 0
        for i in idxs:
            for sentence in best_sentences(question, docs[i - 1]["text"], SENTENCES_PER_FINDING - picked):
                section = section_label(docs[i - 1]["section"], lang)
                sentences.append(AnswerSentence(text=f"   - {section}: \"{_flat(sentence)}\" [{i}]", citations=[i], quote=sentence))
                picked += 1
            if picked >= SENTENCES_PER_FINDING:
                break
    if feedback:
        sentences = [s for s in sentences if s.text not in feedback]
    return AnalystAnswer(reasoning=f"{len(groups)} findings from {len(docs)} passages", sentences=sentences,
                         follow_up_questions=_suggestions(docs, lang))


def _suggestions(docs: list[Doc], lang: str) -> list[str]:
    first = docs[0]
    inst = (first.get("institutions") or [None])[0]
    if lang == "ko":
        out = ["1번 지적사항의 조치할 사항은?", "관계기관은 어떤 의견을 냈어?"]
        if inst:
            out.append(f"{inst}의 다른 지적사항 목록")
    else:
        out = ["What actions were required for item 1?", "How did the agency respond?"]
        if inst:
            out.append(f"List other findings for {inst}")
    return out


def analyze_sql(question: str, sql: dict[str, Any]) -> AnalystAnswer:
    lang = language(question)
    if sql.get("error"):
        text = (f"이 질문은 조회할 수 없습니다: {sql['error']}" if lang == "ko" else f"I could not run that lookup: {sql['error']}")
        return AnalystAnswer(reasoning="sql rejected", sentences=[AnswerSentence(text=text)])
    rows, cols = sql.get("rows") or [], sql.get("columns") or []
    if not rows:
        text = "조건에 맞는 지적사항이 없습니다." if lang == "ko" else "No findings match."
    elif len(rows) == 1 and len(cols) == 1 and isinstance(rows[0][0], int | float):
        text = f"조건에 맞는 지적사항은 총 {rows[0][0]}건입니다." if lang == "ko" else f"{rows[0][0]} findings match."
    elif len(cols) == 2 and all(isinstance(r[1], int | float) for r in rows):
        parts = ", ".join(f"{r[0]} {r[1]}" + ("건" if lang == "ko" else "") for r in rows[:10])
        text = f"{cols[0]}별 건수: {parts}." if lang == "ko" else f"Counts by {cols[0]}: {parts}."
    else:
        title_col = cols.index("title") if "title" in cols else 0
        names = "; ".join(str(r[title_col]) for r in rows[:5])
        more = f" 외 {len(rows) - 5}건" if len(rows) > 5 and lang == "ko" else (f" and {len(rows) - 5} more" if len(rows) > 5 else "")
        text = (f"{len(rows)}건을 찾았습니다: {names}{more}." if lang == "ko" else f"Found {len(rows)}: {names}{more}.")
    return AnalystAnswer(reasoning=f"{len(rows)} rows", sentences=[AnswerSentence(text=text)])
