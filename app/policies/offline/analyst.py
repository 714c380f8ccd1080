"""Offline analyst: an extractive answer that leads with what was asked, by kind of question
(``intent.question_kind``), then one compact card per finding, then the quoted evidence. Every
sentence cites a passage; every quote is a sentence of the passage it cites, repaired for
display only (``quotes``).

- similar cases: how many matching findings, each with what went wrong;
- disposition level: the precedents' dispositions (counts), a recommendation marked as such;
- actions: the 조치할 사항 (who must do what) and the problem behind it;
- institution / report: the findings found for it;
- legal basis: the laws and articles of the 관계 법령·판단기준 and the sentences that apply them;
- summary: per finding, the problem and the demand.

Findings are numbered in evidence order, so '2번 항목' in the next turn means the second card.
The fast track's SQL answer is ``analyze_sql``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from app.policies.offline import quotes
from app.policies.offline.english_names import korean_names
from app.policies.offline.fields import PROVINCE_ALIASES
from app.policies.offline.intent import (
    asks_for_mentions,
    asks_for_one,
    asks_for_several,
    named_organisations,
    question_kind,
)
from app.policies.offline.lexicon import AGENCY_ALIASES, key_terms, squash
from app.sql.planner import DIMENSION_LABELS
from graph.schemas import AnalystAnswer, AnswerSentence
from graph.state import Doc, has_rows
from graph.vocab import SECTION_KINDS, language, section_label

MAX_CARDS = 5
QUOTED_FINDINGS = 2
"""Findings whose evidence is quoted in the main text (the rest: card only)."""


@dataclass
class Case:
    """One finding's passages: the first is its card's citation."""

    key: str
    docs: list[tuple[int, Doc]] = field(default_factory=list)

    @property
    def head(self) -> tuple[int, Doc]:
        return self.docs[0]

    def section(self, kind: str) -> list[tuple[int, Doc]]:
        return [(i, d) for i, d in self.docs if d["section"] == kind]


def cases(docs: list[Doc]) -> list[Case]:
    out: dict[str, Case] = {}
    for i, d in enumerate(docs, start=1):
        key = d.get("finding_id") or f"report:{d['report_id']}"
        out.setdefault(key, Case(key)).docs.append((i, d))
    return list(out.values())


def _title(d: Doc) -> str:
    return d.get("finding_title") or f"「{d['report_title']}」 {section_label(d['section'], 'ko')}"


def card(rank: int, case: Case, lang: str) -> AnswerSentence:
    n, d = case.head
    inst = (d.get("institutions") or [""])[0]
    disp = ", ".join(d.get("dispositions") or [])
    year = f"({d['year']})" if d.get("year") else ""
    if lang == "ko":
        parts = [inst, f"「{d['report_title']}」{year}", f"처분: {disp}" if disp else "", f"p.{d['page']}"]
    else:
        parts = [inst, f"「{d['report_title']}」{year}", f"disposition: {disp}" if disp else "", f"p.{d['page']}"]
    meta = " · ".join(p for p in parts if p)
    return AnswerSentence(text=f"{rank}. \"{_title(d)}\" — {meta} [{n}]", citations=[n], quote=d.get("finding_title") or d["report_title"])


BEYOND_NAMED = 5
"""Findings kept beyond the cards that are named by title; the rest are counted ('외 N건')."""


def beyond_cards(rest: list[Case], lang: str) -> AnswerSentence:
    """The findings kept beyond ``MAX_CARDS`` in one line, the first ``BEYOND_NAMED`` by title, so
    the lead's count ('N건을 찾았습니다') is accounted for."""
    named = rest[:BEYOND_NAMED]
    at = [c.head[0] for c in named]
    titles = "; ".join(f"\"{_title(c.head[1])}\"" for c in named)
    more = len(rest) - len(named)
    marks = "".join(f"[{n}]" for n in at)
    if lang == "ko":
        text = f"이 밖에 관련 지적사항 {len(rest)}건: {titles}" + (f" 외 {more}건" if more else "") + f" {marks}"
    else:
        text = f"{len(rest)} more related finding(s): {titles}" + (f" and {more} more" if more else "") + f" {marks}"
    return AnswerSentence(text=text, citations=at, quote=rest[0].head[1].get("finding_title") or "")


def quote_line(label: str, n: int, q: quotes.Quote) -> AnswerSentence:
    return AnswerSentence(text=f"   - {label}: \"{quotes.displayed(q)}\" [{n}]", citations=[n], quote=q.text)


def section_quotes(case: Case, kind: str, terms: set[str], k: int, first: bool = False) -> list[tuple[int, quotes.Quote]]:
    """The k sentences of this section (over all its passages, in the section's order) most
    worth quoting, in order: in 문제점 and 업무 개요 by ``quotes.narrative_weight``, their long
    sentences shown by their end; elsewhere by ``quotes.weight``."""
    topic = key_terms(case.head[1].get("finding_title") or "")
    narrative = kind in quotes.NARRATIVE
    passages = sorted(case.section(kind), key=lambda p: p[1].get("ordinal", 0))
    known = any("ordinal" in d for _, d in passages)  # evidence from before chunks carried their place: the first passage

    def opens_section(i: int, d: Doc) -> bool:
        return d.get("ordinal") == 0 if known else i == 0

    found = [(n, j == 0 and opens_section(i, d), q) for i, (n, d) in enumerate(passages)
             for j, q in enumerate(quotes.sentences(d["text"], tail=narrative))]
    cands = [(quotes.narrative_weight(terms, topic, q, opening) if narrative else quotes.weight(terms, topic, q, kind), -i, n, q)
             for i, (n, opening, q) in enumerate(found)]
    if first:
        demands = [c for c in cands if kind == "actions" and quotes.weight(set(), set(), c[3], kind) >= 0.5]
        cands = demands or cands
        picked = sorted(cands, key=lambda c: -c[1])[:k] if not demands else sorted(demands, key=lambda c: (c[0], c[1]), reverse=True)[:k]
    else:
        picked = sorted(cands, key=lambda c: (c[0], c[1]), reverse=True)[:k]
    return [(n, q) for _, _, n, q in sorted(picked, key=lambda c: -c[1])]


def demand_quotes(case: Case, question: str = "") -> list[tuple[int, quotes.Quote, str | None]]:
    """The finding's 조치할 사항 item by item (who must do what, and its disposition), each cut
    only past ``DEMAND_CHARS``, with whom it is addressed to: the items addressed to an
    institution the question names first ('보건복지부한테 뭘 하라고 했어?'), then in order, until
    ``DEMANDS_BUDGET`` characters are shown."""
    found, who = [], None
    for n, d in case.section("actions"):
        for w, q in quotes.demands(d["text"], DEMAND_CHARS):
            who = w or who  # a chunk that opens mid-block continues the last one's addressee
            if quotes.is_demand(q.text):
                found.append((n, q, who))
        marks = quotes.addressees(d["text"])
        who = marks[-1][1] if marks else who  # an addressee closing the chunk opens the next one's block
    found.sort(key=lambda item: not addressed_in(item[2], question))
    items, used = [], 0
    for n, q, w in found:
        if not items or used + len(q.text) <= DEMANDS_BUDGET:
            items.append((n, q, w))
            used += len(q.text)
    return items


_TITLE = re.compile(r"\s*(?:" + quotes.TITLES + r")$")


def addressed_in(who: str | None, question: str) -> bool:
    """Whether the question names the addressee's institution, as written or by a short form
    ('보건복지부장관' by '보건복지부' or '복지부', '병무청장' by '병무청', '한국토지주택공사 사장' by 'LH', '전라남도지사' by '전남도청')."""
    if not who or not question:
        return False
    q = squash(question).lower()
    for part in re.split(r"\s*(?:과|와|및)\s+", who):
        org = squash(_TITLE.sub("", part)) + ("청" if part.endswith("청장") else "")
        forms = {org, *(short for full, shorts in [*AGENCY_ALIASES.items(), *PROVINCE_ALIASES.items()] if squash(full) == org for short in shorts)}
        title = _TITLE.search(part)
        whole = squash(part)
        if title:  # its title with the last syllables of its name: '연구소장' for 선박해양플랜트연구소장
            forms.add(whole[-max(4, len(title.group().strip()) + 2):])
        if any(len(f) >= 2 and squash(f).lower() in q for f in forms):
            return True
    return False


def asked_institution(question: str, found: list[Case], items: list[tuple[int, quotes.Quote, str | None]]) -> str:
    """The institution an institution question asks about, as the findings write it: the longest
    of their institutions and of the 조치할 사항 addressees that the question names, by any of its
    forms ('LH', '국토부'; '한국공항공사 관련 지적사항' -> 한국공항공사, whose 사장 a 국토교통부 finding
    addresses; '곡성군의회' over '곡성군'), else the first finding's institution."""
    named = [i for c in found for i in c.head[1].get("institutions") or [] if addressed_in(i, question)]
    q = squash(question).lower()
    for who in dict.fromkeys(w for _, _, w in items if addressed_in(w, question)):
        part = next(p for p in re.split(r"\s*(?:과|와|및)\s+", who) if addressed_in(p, question))
        flat = squash(part).lower()
        n = next((k for k in range(len(flat), 2, -1) if flat[:k] in q), 0)  # '한국지역정보개발원장' asked as …개발원
        written = _prefix(part, n) if n else part
        named.append(_TITLE.sub("", written).strip() or written)
    return max(named, key=lambda n: len(squash(n)), default=(found[0].head[1].get("institutions") or [""])[0])


def mentioned_only(question: str, found: list[Case], items: list[tuple[int, quotes.Quote, str | None]]) -> str | None:
    """An organisation a question about where one appears names that the findings shown mention in
    their text but are not about ('전남 장흥군이 언급된 지적' over a 해양수산부 finding whose demand
    names 장흥군), if any; not one they are about by a longer name ('광산구' for 광주광역시 광산구). An
    English name counts by the Korean one it is the official name of ('KEPCO': 한국전력공사)."""
    if not asks_for_mentions(question):
        return None
    about = [squash(a) for a in [i for c in found for i in c.head[1].get("institutions") or []] + addressees(items)]
    texts = [squash(" ".join(d.get("text") or "" for _, d in c.docs)) for c in found]
    asked = (n for name in named_organisations(question) for n in ([name] if re.search(r"[가-힣]", name) else korean_names(name)))
    for name in asked:
        flat = squash(name)  # every case shown names it: the count and the lead are of cases that do
        if all(flat in t for t in texts) and not any(flat in a or a in flat for a in about):
            return name
    return None


def _prefix(text: str, n: int) -> str:
    """The shortest start of ``text`` that holds ``n`` characters other than whitespace."""
    seen = 0
    for i, ch in enumerate(text):
        seen += not ch.isspace()
        if seen == n:
            return text[: i + 1]
    return text


def addressees(items: list[tuple[int, quotes.Quote, str | None]]) -> list[str]:
    return list(dict.fromkeys(w for _, _, w in items if w))


WHOLE = 0
"""In a plan, instead of a number of sentences: the 조치할 사항 items whole (``demand_quotes``;
the best two sentences when the section has no items)."""
DEMAND_CHARS = 320
DEMANDS_BUDGET = 700
"""The first finding's 조치할 사항 are shown whole, not as the best two sentences cut at 170
characters: the demand (and its disposition mark) closes the sentence, so the cut lost it. Gold
nuggets of the first gold finding stated by its quoted evidence (dev): 0.33 before; all items,
170 / 250 / 320 characters each: 0.38 / 0.45 / 0.48; 320 each within 500 / 700 characters in
all: 0.45 / 0.47 (the evidence's median length 450 -> 564 characters)."""


def _evidence(
    case: Case, kinds: list[tuple[str, int, bool]], terms: set[str], lang: str, demands: list[tuple[int, quotes.Quote, str | None]],
    seen: set[str],
) -> list[AnswerSentence]:
    """The quoted evidence of one finding by ``kinds``; ``demands``: its 조치할 사항 items
    (``demand_quotes``), shown whole where a plan says ``WHOLE``; ``seen``: the quotes already
    shown (folded), by this finding or an earlier one, which are not shown again (overlapping
    chunks hold the same sentence; findings of one report share a closing formula)."""
    out = []
    for kind, k, first in kinds:
        label = section_label(kind, lang)
        picked = (demands if k == WHOLE else []) or [
            (n, q, None) for n, q in section_quotes(case, kind, terms, k or 2, first)
        ]
        last = None
        for n, q, who in picked:
            if quotes.fold(q.text) not in seen:
                seen.add(quotes.fold(q.text))
                out.append(quote_line(f"{label}({who})" if who and who != last else label, n, q))
                last = who or last
    if not out:  # a finding whose sections were not loaded, or whose quotes were all shown already: its searched passage
        n, d = case.head
        for q in quotes.best(terms, d["text"], 1):
            if quotes.fold(q.text) not in seen:
                seen.add(quotes.fold(q.text))
                out.append(quote_line(section_label(d["section"], lang), n, q))
    return out


def _lead(
    kind: str, found: list[Case], terms: set[str], lang: str, question: str,
    items: list[tuple[int, quotes.Quote, str | None]], total: int,
) -> list[AnswerSentence]:
    """The answer's opening sentence(s) by kind of question; ``items``: the first finding's
    조치할 사항 (``demand_quotes``); ``total``: the findings kept, shown as cards or not."""
    top_n, top = found[0].head
    cites = [c.head[0] for c in found]
    marks = "".join(f"[{n}]" for n in cites[:3])
    title = f"\"{_title(top)}\""
    ko = lang == "ko"
    if kind == "disposition":
        rec = (top.get("dispositions") or [None])[0]
        caveat = ("권고이며, 최종 판단은 감사인이 합니다" if ko else "a recommendation; the decision is the auditor's")
        if len(found) == 1 and rec:  # one precedent: what it received and the recommendation, one sentence
            given = ", ".join(top.get("dispositions") or [])
            return [AnswerSentence(text=(f"유사한 선례 {title}에서 내려진 처분은 {given}이며, 이에 비추어 '{rec}' 처분이 적절해 보입니다 — {caveat} [{top_n}]."
                                         if ko else f"The similar precedent {title} received {given}; on that basis '{rec}' would be appropriate — {caveat} [{top_n}]."),
                                   citations=[top_n], quote=top.get("finding_title") or "")]
        counts = Counter(d for c in found for d in (c.head[1].get("dispositions") or [])[:1])
        listed = ", ".join(f"{d} {k}건" if ko else f"{d} ({k})" for d, k in counts.most_common()) or ("기록 없음" if ko else "none recorded")
        named = ", ".join(f"\"{_title(c.head[1])}\"" for c in found[:2]) + ((" 등" if ko else ", …") if len(found) > 2 else "")
        upto = (f" 중 {len(found)}건" if ko else f", {len(found)} shown,") if total > len(found) else ""
        out = [AnswerSentence(text=(f"유사한 선례 {total}건{upto}({named})에서 내려진 처분은 {listed}입니다 {marks}." if ko
                                    else f"The {total} similar precedent(s){upto} ({named}) received: {listed} {marks}."), citations=cites[:3],
                              quote=_title(top))]
        if rec:
            out.append(AnswerSentence(text=(f"가장 가까운 선례({title})에 비추어 '{rec}' 처분이 적절해 보입니다 — {caveat} [{top_n}]."
                                            if ko else f"Based on the closest precedent ({title}), '{rec}' would be appropriate — {caveat} [{top_n}]."),
                                      citations=[top_n], quote=top.get("finding_title") or ""))
        return out
    if kind == "actions":
        asked = [w for w in addressees(items) if addressed_in(w, question)]
        whom = asked or addressees(items)
        at = sorted({n for n, _, w in items if w in whom}) or [top_n]
        marks = "".join(f"[{n}]" for n in at)
        if whom and ko:
            text = f"{title} 건에서 감사원은 {', '.join(whom)}에게 아래 '조치할 사항'을 요구했습니다 {marks}."
        elif whom:
            text = f"In {title}, the auditors demanded the actions quoted below of {', '.join(whom)} {marks}."
        else:
            text = (f"{title} 건에서 감사원이 요구한 조치는 아래 '조치할 사항'과 같습니다 {marks}." if ko
                    else f"In {title}, the auditors demanded the actions quoted below {marks}.")
        return [AnswerSentence(text=text, citations=at, quote=top.get("finding_title") or "")]
    if kind == "legal_basis":
        refs: list[tuple[str, int]] = []
        seen: set[str] = set()
        passages = [p for kind_ in LAW_SECTIONS for p in found[0].section(kind_)] or [found[0].head]
        for n, d in passages:
            for r in quotes.laws(d["text"]):
                if squash(r) not in seen:
                    seen.add(squash(r))
                    refs.append((r, n))
        if refs:
            shown = quotes.grouped_laws([r for r, _ in refs[:MAX_LAWS]])
            at = sorted({n for _, n in refs[:MAX_LAWS]})
            marks = "".join(f"[{n}]" for n in at)
            return [AnswerSentence(text=(f"{title} 건의 판단기준으로 인용된 규정은 {shown}입니다 {marks}." if ko
                                         else f"{title} relies on {shown} {marks}."), citations=at)]
        return [AnswerSentence(text=(f"{title} 건의 관계 법령·판단기준은 아래와 같습니다 [{top_n}]." if ko
                                     else f"The criteria of {title} are quoted below [{top_n}]."), citations=[top_n], quote=top.get("finding_title") or "")]
    if kind == "institution":
        inst = asked_institution(question, found, items)
        more = total - 1
        if name := mentioned_only(question, found, items):
            text = (f"{name} 관련 내용이 나오는 지적사항 {total}건을 찾았습니다: {title}({inst} 대상)" + (f" 외 {more}건" if more else "") + f" {marks}."
                    if ko else f"{total} finding(s) mention {name}: {title} (about {inst})" + (f" and {more} more" if more else "") + f" {marks}.")
        elif ko:
            text = f"{inst} 관련 지적사항 {total}건을 찾았습니다: {title}" + (f" 외 {more}건" if more else "") + f" {marks}."
        else:
            text = f"{total} finding(s) concern {inst}: {title}" + (f" and {more} more" if more else "") + f" {marks}."
        return [AnswerSentence(text=text, citations=cites[:3], quote=top.get("finding_title") or "")]
    if kind == "summary" and len(found) > 1 and asks_for_several(question):
        more = total - 1
        return [AnswerSentence(text=(f"{total}건({title} 외 {more}건)의 요지는 다음과 같습니다 {marks}." if ko
                                     else f"Summary of {total} findings ({title} and {more} more) {marks}."),
                               citations=cites[:3], quote=top.get("finding_title") or "")]
    if kind == "summary":
        return [AnswerSentence(text=(f"{title} 건의 요지는 다음과 같습니다 [{top_n}]." if ko else f"Summary of {title} [{top_n}]."),
                               citations=[top_n], quote=top.get("finding_title") or "")]
    if any(w in squash(question) for w in top.get("unmatched") or []):  # a near miss, which the graph notes: no 'same type'
        return [AnswerSentence(text=(f"질문과 가장 가까운 사례는 {title}입니다" + (f"(관련 사례 {total}건)" if total > 1 else "") + f" {marks}." if ko
                                     else f"The closest case is {title}" + (f" ({total} related)" if total > 1 else "") + f" {marks}."),
                               citations=cites[:3], quote=top.get("finding_title") or "")]
    return [AnswerSentence(text=(f"질문과 같은 유형의 사례 {total}건을 찾았습니다. 가장 가까운 것은 {title}입니다 {marks}." if ko
                                 else f"{total} matching case(s); the closest is {title} {marks}."), citations=cites[:3], quote=top.get("finding_title") or "")]


LAW_SECTIONS = sorted((k for k in SECTION_KINDS if k != "opinion"), key=lambda k: (k != "criteria", k == "overview"))
"""Where a finding's law references are looked for, in order: its 관계 법령·판단기준 first, then
the articles its problems and actions apply (disciplinary rules, penalties), then its overview."""
MAX_LAWS = 12
"""Law references listed in a legal-basis answer's lead, one sentence citing the passages they
come from, articles grouped under their law (criteria only and 6 references: dev law recall
0.71; these sections and 8: 0.72; grouped, 12: see BENCHMARKS.md)."""


EVIDENCE_BY_KIND: dict[str, list[tuple[str, int, bool]]] = {
    "similar_cases": [("problems", 2, False), ("actions", WHOLE, True)],
    "disposition": [("problems", 2, False), ("actions", WHOLE, True)],
    "actions": [("actions", WHOLE, True), ("problems", 1, False)],
    "institution": [("problems", 2, False), ("actions", WHOLE, True)],
    "legal_basis": [("criteria", 2, False), ("actions", 1, True)],
    "summary": [("problems", 2, False), ("actions", WHOLE, True)],
}
"""(section, sentences, opening sentences rather than best-matching) quoted for the first finding.
Legal-basis questions quote no 문제점 beside their criteria (dev median answer 898 -> 842
characters, nuggets 0.429 -> 0.426), and actions questions one. Questions about dispositions and
institutions quote two since 문제점 sentences are shown by their end and weighed by
``quotes.narrative_weight``: dev nuggets 0.478 -> 0.487, median answer 823 -> 856 characters."""
EVIDENCE_OTHERS: list[tuple[str, int, bool]] = [("problems", 1, False), ("actions", 1, True)]
"""... and for the second."""
EVIDENCE_SEVERAL: list[tuple[str, int, bool]] = [("actions", 1, True)]
"""... and, when the question asks for several findings (``intent.asks_for_several``), for each
after the second: its demand, one line."""


def analyze_documents(question: str, docs: list[Doc], feedback: str) -> AnalystAnswer:
    lang = language(question)
    if not docs:
        text = ("질문과 관련된 감사 근거를 찾지 못했습니다." if lang == "ko" else "I found no audit evidence for this question.")
        return AnalystAnswer(reasoning="no evidence", sentences=[AnswerSentence(text=text)])
    kind = question_kind(question)
    terms = key_terms(question)
    kept = [c for c in cases(docs) if not c.key.startswith("report:")] or cases(docs)
    found, rest = (kept[:1], []) if asks_for_one(question) else (kept[:MAX_CARDS], kept[MAX_CARDS:])  # '… 건 요약해줘' is about that case alone
    demands = demand_quotes(found[0], question)  # the first finding's, for its lead and its evidence
    sentences = _lead(kind, found, terms, lang, question, demands, len(found) + len(rest))
    if kind == "legal_basis":
        for n, q in [(n, q) for n, d in found[0].section("criteria") for q in quotes.law_sentences(d["text"])][:2]:
            sentences.append(quote_line(section_label("criteria", lang), n, q))
    several = asks_for_several(question)
    seen: set[str] = set()
    for rank, case in enumerate(found, start=1):
        sentences.append(card(rank, case, lang))
        if rank <= QUOTED_FINDINGS or several:
            plan = (EVIDENCE_BY_KIND.get(kind, EVIDENCE_BY_KIND["similar_cases"]) if rank == 1
                    else EVIDENCE_OTHERS if rank <= QUOTED_FINDINGS else EVIDENCE_SEVERAL)
            items = demands if rank == 1 else []  # only the first finding's plans show its 조치할 사항 whole
            sentences.extend(s for s in _evidence(case, plan, terms, lang, items, seen) if s.text not in {x.text for x in sentences})
    if rest:
        sentences.append(beyond_cards(rest, lang))
    if feedback:
        sentences = [s for s in sentences if s.text not in feedback]
    return AnalystAnswer(reasoning=f"{kind}: {len(kept)} findings from {len(docs)} passages", sentences=sentences,
                         follow_up_questions=suggestions(kind, found, lang))


def suggestions(kind: str, found: list[Case], lang: str) -> list[str]:
    """Next questions the store can answer, built from what this answer found."""
    top = found[0].head[1]
    inst = (top.get("institutions") or [None])[0]
    title = top.get("finding_title")
    out: list[str] = []
    if lang == "ko":
        if kind != "actions" and title:
            out.append("1번 지적사항에서 요구한 조치할 사항은?")
        if kind != "legal_basis" and title:
            out.append("1번 지적사항의 근거 법령은?")
        if kind != "disposition" and title:
            out.append("1번 지적사항과 비슷한 다른 기관 사례는?")
        if inst:
            out.append(f"{inst}의 다른 지적사항 목록")
    else:
        if kind != "actions" and title:
            out.append("What actions were required for item 1?")
        if kind != "legal_basis" and title:
            out.append("Which laws does item 1 rely on?")
        if inst:
            out.append(f"List other findings for {inst}")
    return out[:3]


LISTED_ROWS = 10
"""Findings a fast-track list names by title (the rest: counted; the rows table shows them all).
An institution's or report's findings asked for as a list are rarely more (dev: 7 and 8 were
named as 5 and '외 N건')."""


def _scope(scope: dict[str, Any], lang: str) -> str:
    """The findings a lookup counted, as the answer names them ("해양수산부 · 2025년 · 주의 처분 · '감정평가'
    관련 지적사항(…)", "findings for 해양수산부 about '감정평가' (…)"), or '' when it was not filtered."""
    y0, y1 = scope.get("year_from"), scope.get("year_to")
    years = (f"{y0}" if y0 == y1 or y1 is None else f"{y0 or ''}~{y1}") if (y0 or y1) else ""
    ko = lang == "ko"
    parts = [*(scope.get("institutions") or []), f"{years}년" if years and ko else years, *(scope.get("audit_types") or []),
             *(f"{d} 처분" if ko else f"{d} disposition" for d in scope.get("dispositions") or [])]
    parts = [p for p in parts if p]
    topic = " ".join(scope.get("topic") or [])
    if not parts and not topic:
        return ""
    if ko:
        named = " · ".join([*parts, *([f"'{topic}' 관련"] if topic else [])])
        return f"{named} 지적사항" + ("(제목·개요·문제점·보고서명에 그 말이 나오는 것)" if topic else "")
    return "findings" + (f" for {' · '.join(parts)}" if parts else "") + (
        f" about '{topic}' (the words in their title, overview, problems or report title)" if topic else "")


def analyze_sql(question: str, sql: dict[str, Any]) -> AnalystAnswer:
    lang = language(question)
    if sql.get("error"):
        text = (f"이 질문은 조회할 수 없습니다: {sql['error']}" if lang == "ko" else f"I could not run that lookup: {sql['error']}")
        return AnalystAnswer(reasoning="sql rejected", sentences=[AnswerSentence(text=text)])
    rows, cols = sql.get("rows") or [], sql.get("columns") or []
    named = _scope(sql.get("scope") or {}, lang)
    about = named or ("조건에 맞는 지적사항" if lang == "ko" else "findings")
    if not has_rows(sql):  # nothing, or a zero count ('캐디피 관련 지적 몇 건')
        text = f"{about}은 없습니다." if lang == "ko" else (f"No {about}." if named else "No findings match.")
    elif len(rows) == 1 and len(cols) == 1 and isinstance(rows[0][0], int | float):
        n = rows[0][0]
        text = f"{about}은 총 {n}건입니다." if lang == "ko" else f"{n} {about.replace('findings', 'finding' if n == 1 else 'findings', 1)}."
    elif len(cols) == 2 and all(isinstance(r[1], int | float) for r in rows):
        label = DIMENSION_LABELS.get(cols[0], (cols[0], cols[0]))[lang != "ko"]
        parts = ", ".join(f"{r[0]} {r[1]}" + ("건" if lang == "ko" else "") for r in rows[:10])
        text = f"{about + '의 ' if named else ''}{label}별 건수: {parts}." if lang == "ko" else (
            f"Counts of {about} by {label}: {parts}." if named else f"Counts by {label}: {parts}.")
    else:
        title_col = cols.index("title") if "title" in cols else 0
        total = int(rows[0][cols.index("total_count")]) if "total_count" in cols else len(rows)  # beyond the rows a list shows
        names = "; ".join(str(r[title_col]) for r in rows[:LISTED_ROWS])
        rest = total - LISTED_ROWS
        more = (f" 외 {rest}건" if lang == "ko" else f" and {rest} more") if rest > 0 else ""
        text = (f"{about + ' ' if named else ''}{total}건을 찾았습니다: {names}{more}." if lang == "ko" else
                f"Found {total} {about}: {names}{more}." if named else f"Found {total}: {names}{more}.")
    return AnalystAnswer(reasoning=f"{len(rows)} rows", sentences=[AnswerSentence(text=text)])
