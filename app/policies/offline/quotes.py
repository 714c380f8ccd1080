"""Quotes an auditor can read and a verifier can check: a sentence of a stored chunk, repaired for
display (line-break word splits joined with Kiwi's spacing, footnote markers and list marks cut
from its start, footnote reference marks inside it removed ('않아12) 환자가' shows as '않아 환자가'),
masked-name debris closed up), cut at a clause boundary when long. Every repair only removes
whitespace or a footnote mark or trims the ends, so the quote still occurs in the chunk
(whitespace and footnote marks aside: ``app.text.footnotes``) and ``span`` gives its exact place
there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from app.ingest.chunking import sentence_spans
from app.policies.offline.lexicon import coverage, key_terms, squash
from app.text.footnotes import MASK, masked
from app.text.korean import (
    AUXILIARY,
    BARE_PARTICLE,
    brackets_open,
    cuts_word,
    dictionary_version,
    ends_clause,
    join_broken_lines,
)
from graph.vocab import DISPOSITIONS

MAX_CHARS = 170
"""A longer sentence is shown cut at a clause boundary to at most this many characters (``_trim``)."""
MIN_CHARS = 15
_LEAD = re.compile(r"^(?:\d{1,3}\)\s*)+")
"""Footnote markers ('43) 연구시설…') cut from a quote's start; list marks (①, 가.) are kept."""
_MASK_GAP = re.compile(r"(?<=[○OＯ])\s+(?=[○OＯ])|(?<=[가-힣])\s+(?=○)")
_CLAUSE_END = re.compile(r"(?:고|며|여|나|(?<![에로])서|데|지만|아|어|도)\ue000*,?\s+|,\s+")
"""Where a clause may end: a candidate, confirmed by Kiwi (``app.text.korean.ends_clause``)."""
_ARTICLE_REF = r"제\s*\d+\s*조(?:\s*의\s*\d+)?(?:\s*제\s*\d+\s*항)?(?:\s*제\s*\d+\s*호)?"
_LAW = re.compile(r"[「｢][^「」｢｣]{2,40}[」｣]\s*(?:" + _ARTICLE_REF + r"(?:\s*(?:,|및|와|과|ㆍ|·)\s*" + _ARTICLE_REF + r")*)?")
"""A law and its articles: '｢방송통신발전 기본법｣ 제28조 및 제35조' is one reference."""
_LAW_ARTICLE = re.compile(r"[「｢][^「」｢｣]{2,40}[」｣]\s*제\s*\d+\s*조")
_TABLE = re.compile(r"\[\s*(?:표|그림)\s*\d*\s*\]|\[\s*(?:표|그림)\s*\d+|\(단위|자료\s*:[^.]{0,60}재구성|(?<![\d.,])(?:\d(?:[\d,]*\d)?[ \t]+){3,}\d")
"""A table or its source line in a sentence: '[표 3]', '(단위: 건)', '자료: 행정안전부 제출자료 재구성',
a row of figures ('합계 469 107 27 18')."""
_HEADING = re.compile(r"^(?:\d{1,2}\.|[가-하]\.|\(\d{1,2}\)|\d{1,2}\)|[①-⑳])\s*[^.]{2,60}(?<![다음함임됨)\]고며])$")
"""A numbered heading ('3. 농업법인이 부동산업 불법 영위'): no sentence, nothing to quote."""
_FRAGMENT = re.compile(r"^\d{1,2}\.\s*\d{1,2}\.(?!\d)|(?:및|또는|그리고)$")
"""Table debris: a row opening with a date's tail ('8. 30. 회의결과 보고 …') or a header cut
after a conjunction ('징계요구 양정 … CB, CC와 CD 및')."""


@dataclass(frozen=True)
class Quote:
    text: str
    """As displayed."""
    start: int
    end: int
    """The quoted span in the chunk text (before display repairs)."""
    elided: bool = False
    """The span opens inside its sentence, at a clause boundary (shown after an ellipsis)."""
    footnote: bool = False
    """A footnote's text ('8) ｢한국공항공사법｣ 제4조 …에 따르면 … 되어 있음'): an aside."""


QUOTE_MARKS = str.maketrans({"“": "‘", "”": "’", '"': "'"})
"""Double quote marks inside a quote shown as single ones, so the quote's own marks stay
unambiguous; verification folds quote marks (``fold``)."""


def fold(text: str) -> str:
    """Text without whitespace, every quote mark one character: how quotes are compared."""
    return re.sub(r"\s+", "", text).translate(_FOLD)


_FOLD = str.maketrans({c: "'" for c in "“”‘’\"'"})


_PARTICLE_AFTER_BRACKET = re.compile(r"(?<=[)\]’”」』｣\"'])[ \t]*\n\s*(?=(?:에|의|을|를|은|는|가|과|와|로|으로|에서|에게|까지|부터)[\s,])")
"""'…공고”(2023. 1. 16.) / 에 따르면': a particle a line break moved off its bracket."""


_ARTICLE_GAP = re.compile(r"(?<![가-힣])(제)\s+(?=\d+\s*(?:조|항|호))|(?<![가-힣])(제\d+)\s+(?=(?:조|항|호)(?:[^가-힣]|[의에와과및이을를은는가]|$))")
"""An article number a line break split: '제/19조', '제4/조에' show as '제19조', '제4조에'."""


def clean(text: str) -> str:
    """Display text; footnote marks ``masked`` in ``text`` are dropped first, so a word a line
    break cut after one is joined ('인정89) / 하였다' -> '인정하였다')."""
    text = join_broken_lines(_PARTICLE_AFTER_BRACKET.sub("", text.replace(MASK, ""))).translate(QUOTE_MARKS)
    text = _ARTICLE_GAP.sub(lambda m: m.group(1) or m.group(2), text)
    text = _MASK_GAP.sub("", text)
    return re.sub(r"\s+", " ", text).strip()


def _trim(text: str, start: int, end: int, max_chars: int = MAX_CHARS, tail: bool = False) -> tuple[int, int]:
    """The span to show of a sentence: whole when it fits in ``max_chars``; else its head, cut at
    the last clause boundary that fits ('…하였고,'), or with ``tail`` its end, opened at the first
    clause boundary that leaves ``max_chars`` (a 문제점 sentence states what went wrong in its last
    clauses: '…빵집으로만 사용하게 되었다'), or its head when no clause boundary opens such an end.
    ``text`` has its footnote marks ``masked`` ('않아12) 환자가' ends a clause at '않아')."""
    seg = text[start:end]
    lead = _LEAD.match(seg)
    if lead:
        start += lead.end()
    inside = _FOOTNOTE_INSIDE.search(text, start + 30, end)
    if inside:  # a footnote's text runs into the sentence here: stop before it
        end = len(text[: inside.start()].rstrip())
    if end - start <= max_chars:
        return start, end

    def clause(m: re.Match[str]) -> bool:
        """A clause ends here: not before an auxiliary verb ('되어 / 있는' is one predicate) or a
        particle whose noun was masked ('믿고 / 와 협약을'), not at a line break that cut a word ('고 /
        려해'), and Kiwi reads an ending or punctuation before it, not a noun ('국고', '보고서')."""
        if AUXILIARY.match(text, m.end()) or BARE_PARTICLE.match(text, m.end()):
            return False
        if "\n" in m.group() and cuts_word(text, m.start(), m.end()):
            return False
        if m.group().startswith(","):  # a comma closes a clause only after an ending, not in a list ('강남구, 관악구')
            return ends_clause(text[max(start, m.start() - 40) : m.start()].replace(MASK, ""))
        return ends_clause(text[max(start, m.start() - 40) : m.end()].replace(MASK, ""))

    if tail:
        for m in _CLAUSE_END.finditer(text, max(start, end - max_chars - 8), end - 30):
            if m.end() >= end - max_chars and not brackets_open(text[start : m.end()]) and clause(m):
                return m.end(), end
    cuts = list(_CLAUSE_END.finditer(text, start + 40, start + max_chars))
    cut = next((m for m in reversed(cuts) if not brackets_open(text[start : m.end()]) and clause(m)), None)
    if cut:
        end = cut.end()
    else:
        end = start + max_chars
        while end > start and not text[end - 1].isspace():
            end -= 1
    end = len(text[:end].rstrip(" ,\n\t"))
    return start, end


_ENDS = set(".?!:;)]」』>○□■●◦▪-·※")
_SOFT_ENDS = set("다음함임됨요")
_DATE_REST = re.compile(r"\s*\d{1,2}\.\s*\d{1,2}\.")
_YEAR_MONTH = re.compile(r"(?<!\d)(?:19|20)\d\d\.\s*(?:1[0-2]|0?[1-9])\.$")
_DAY = re.compile(r"(?:3[01]|[12]\d|0?[1-9])\.(?!\d)")
_ITEM = re.compile(r"\s*(?:[①-⑳㉑-㉟○□■●◦▪·※\-]|[가-하]\.|\(\d{1,2}\)|\d{1,2}\.\s)")


def _opens_sentence(text: str, start: int) -> bool:
    """Whether a sentence starts at ``start``: after a sentence end, after a line break that
    follows a finished clause (…다, …함), at a list item, or at the chunk's start."""
    j, newline = start - 1, False
    while j >= 0 and text[j].isspace():
        newline |= text[j] == "\n"
        j -= 1
    after_number = j >= 1 and text[j] == "." and text[j - 1].isdigit()
    if after_number and _DATE_REST.match(text, start):
        return False  # '(위탁기간 3년, 2022. / 10. 24.~…)': a date broken over lines, not an item
    if after_number and _YEAR_MONTH.search(text, max(0, j - 10), j + 1) and _DAY.match(text, start):
        return False  # '2015. 12. / 1. 한국공항공사에': the day, not item 1
    if _ITEM.match(text, start):
        return True
    if not newline and j >= 2 and text[j] in ")]" and text[j - 1] == "." and text[j - 2].isdigit():
        opening = text.rfind("(" if text[j] == ")" else "[", 0, j)
        before = text[:opening].rstrip() if opening > 0 else ""
        if before and not before.endswith((".", "다")):  # not '…교부하였다.(2023. 5. 1.) 그러나 …'
            return False  # '감사기간(2024. 3. 27.~5. 10.) 중 …', '경비함(2023. 5. 1.) 출항 시 …': a date in brackets, the sentence goes on
    if after_number:
        return False  # '2020. 7. 17. ｢택시…｣': a date, not a sentence end
    return j < 0 or text[j] in _ENDS or (newline and text[j] in _SOFT_ENDS)


_FOOTNOTE_LINE = re.compile(r"\d{1,3}\)\s")
_NOMINAL_END = re.compile(r"[음함임됨]\.?\s*$")
"""How a footnote's text ends ('… 되어 있음'); a numbered item of the body ('1) 반응계수 입력 부적정
환경부는 … 하였다.') ends as a sentence."""
_SOURCE_END = re.compile(r"자료\s*:[^\n]{0,80}?재구성[ \t]*\n\s*")
"""A table's source line ('자료: 행정안전부 제출자료 재구성') and the line break after it: the text
after it is body text."""
_FOOTNOTE_END = re.compile(r"[음함임됨다]\.?[ \t]*\n")
_CONTINUES = re.compile(r"(?:되(?:어|었|는|지|고)|하(?:여|였|고|는|지(?!만)|며)|[된한할해]\s|까지|부터)")
"""A line that carries on the one before ('포함 / 되어', '…없음 / 하여 …'), not body text after a footnote."""


def _footnote_end(text: str, start: int, end: int) -> re.Match[str] | None:
    """Where a footnote that opens at ``start`` ends: the first line closing on a finished clause
    that is followed by a line of its own, not by the rest of a word a line break cut ('등 다 /
    양한'), a particle ('…음 / 은 신속하게') or a continuation ('포함 / 되어')."""
    for m in _FOOTNOTE_END.finditer(text, start, end):
        if not (BARE_PARTICLE.match(text, m.end()) or _CONTINUES.match(text, m.end()) or cuts_word(text, m.start(), m.end())):
            return m
    return None


def spans(text: str) -> list[tuple[int, int, bool]]:
    """Sentence spans (start, end, whether it is a footnote's text: '8) … 되어 있음'), a span that continues the
    previous sentence (a PDF line break inside a sentence, '○○시장은 / 앞으로 …', or a particle after
    a closing bracket) joined to it, a table ended at its source line ('자료: … 재구성') and a
    footnote ('8) … 관계가 없음') at its line's finished clause, so the body text after them ('또한
    담양군은 …') is a sentence of its own."""
    out: list[tuple[int, int]] = []
    for s, e in sentence_spans(text):
        if out and (not _opens_sentence(text, s) or BARE_PARTICLE.match(text, s)):  # '…공고”(2023. 1. 16.) / 에 따르면
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    pieces: list[tuple[int, int]] = []
    for s, e in out:  # a table's source line ends what it closes
        while (m := _SOURCE_END.search(text, s, e)) and m.end() < e:
            pieces.append((s, text.rfind("재구성", m.start(), m.end()) + 3))
            s = m.end()
        pieces.append((s, e))
    split: list[tuple[int, int]] = []
    for s, e in pieces:
        while _FOOTNOTE_LINE.match(text, s) and (m := _footnote_end(text, s, e)):
            split.append((s, m.start() + 1))
            s = m.end()
            while s < e and text[s].isspace():
                s += 1
        if s < e:
            split.append((s, e))
    return [(s, e, bool(_FOOTNOTE_LINE.match(text, s) and _NOMINAL_END.search(text, s, e))) for s, e in split]


def sentences(text: str, max_chars: int = MAX_CHARS, tail: bool = False) -> list[Quote]:
    """The chunk's sentences as display quotes, in order (short fragments skipped), each cut at a
    clause boundary to ``max_chars`` (``_trim``: its head, or with ``tail`` its end)."""
    return list(_sentences(text, max_chars, tail, dictionary_version()))


@lru_cache(maxsize=4096)
def _sentences(text: str, max_chars: int, tail: bool, version: int) -> tuple[Quote, ...]:
    """``sentences``, kept: one answer reads a passage for several sections and cards, and a
    thread reads the same passages turn after turn (``version``: Kiwi's dictionary, which decides
    where words were cut)."""
    out = []
    marked = masked(text)
    for s, e, footnote in spans(text):
        s0 = s + (m.end() if (m := _LEAD.match(text[s:e])) else 0)
        s, e = _trim(marked, s, e, max_chars, tail)
        shown = clean(marked[s:e])
        digits = sum(ch.isdigit() for ch in shown)
        if (len(shown) >= MIN_CHARS and re.search(r"[가-힣A-Za-z]", shown) and not _TABLE.search(shown)
                and not _HEADING.match(shown) and not _FRAGMENT.search(shown) and digits <= len(shown) * 0.2):
            out.append(Quote(shown, s, e, elided=s > s0, footnote=footnote and s == s0))  # shown from the footnote's text
    return tuple(out)


_DEMAND = re.compile(r"바랍니다\.?\s*\(([가-힣()]+)\)|바랍니다\.?$|[(\[](?:" + "|".join(DISPOSITIONS) + r")[^)\]]{0,10}[)\]]+\s*$")
_ROUTINE = re.compile(r"관련자.{0,20}(?:주의를\s*촉구|징계처분)|관련\s*업무를\s*철저히\s*하시기")
"""The closing formula every 조치할 사항 has; it says less than the specific demand."""
_FOOTNOTE_INSIDE = re.compile(r"(?<=\s)\d{1,3}\)\s")
_FACT = re.compile(r"(?:였|았|었|했|되었|하지 않았|않았|없었)다\.?$|\d")
_FAILURE = re.compile(r"않고|않은\s*채|않았|없이|소홀|부당|부적정|내버려|방치|잘못|초과|과다|위반|누락|미이행|지연")
_ASIDE = re.compile(r"^(?:[①-⑳]\s*|\(\d{1,2}\)\s*|\d{1,2}\)\s*)?(?:관련자|관계기관)\s*의견|^검토\s*결과|의견을\s*제시|주장|답변하였|밝혀\s*왔|이견이\s*없")


_ITEM_MARK = re.compile(r"^[①-⑳]")


TITLES = "장관|청장|처장|군수|시장|지사|교육감|원장|사장|이사장|총장|위원장|회장|본부장|단장|소장|의장|장"
"""The heads a 조치할 사항 block is addressed to, by title."""
ADDRESSEE = re.compile(r"(?m)^[ \t]*([가-힣A-Za-z·]{1,20}(?:\s[가-힣A-Za-z·]{1,20}){0,2}?(?:" + TITLES + r"))(?:은|는)(?=[\s(]|$)")
"""Whom a block of 조치할 사항 is addressed to, opening a line: '보건복지부장관은', '한국토지주택공사
사장은', '곡성군수는 (‘2항’과 관련하여) …'."""
_BLOCK_END = re.compile(r"(?:[.)\]」』]|다|\([가-힣()]+\))\s*$")


def addressees(text: str) -> list[tuple[int, str]]:
    """(position, addressee) of each block: an addressee line opens the chunk or follows a
    finished sentence or demand ('…바랍니다.(주의)'), not a line a PDF wrapped ('마련하고 보건소 /
    소장은 …'). Over the 69 findings of the shared reports this finds every block and nothing else."""
    return [(m.start(1), m.group(1)) for m in ADDRESSEE.finditer(text)
            if not text[: m.start(1)].strip() or _BLOCK_END.search(text[: m.start(1)])]


def demands(text: str, max_chars: int = MAX_CHARS) -> list[tuple[str | None, Quote]]:
    """A 조치할 사항 chunk's sentences, each with whom it is addressed to (None before the chunk's
    first addressee). An item ends where the next addressee begins, so '…바랍니다.(주의)
    보건복지부장관은' is quoted without the next block's addressee."""
    marks = addressees(text)
    bounds = sorted({0, len(text), *(p for p, _ in marks)})
    out: list[tuple[str | None, Quote]] = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        who = next((name for p, name in reversed(marks) if p <= a), None)
        out.extend((who, replace(q, start=q.start + a, end=q.end + a)) for q in sentences(text[a:b], max_chars))
    return out


def is_demand(text: str) -> bool:
    """A 조치할 사항 item: it closes with a demand and its disposition ('…하시기 바랍니다.(주의)')
    or opens with an item mark (①), not the section's preface ('감사원은 … 다음과 같이')."""
    return bool(_DEMAND.search(text) or _ITEM_MARK.match(text))


_PROVISION = re.compile(r"^\W*[「｢][^」｣]{2,40}[」｣]\s*제\s*\d+\s*조(?:\s*의\s*\d+)?\s*\(")
"""A provision's own text ('- ｢경기도 도시계획 조례｣ 제11조(위원의 제척…) ① …'), quoted inside
문제점 for comparison: the rule, not what went wrong."""
_FINISHED = re.compile(r"(?:[.?!)\]」』]|[다함음임됨요])$")


def displayed(q: Quote) -> str:
    """The quote as the answer shows it: an ellipsis marks a sentence it does not finish (cut at
    a clause or at the passage's end) or does not open (``Quote.elided``), so a cut reads as a
    cut, not as debris."""
    shown = q.text if _FINISHED.search(q.text) else q.text + "…"
    return "…" + shown if q.elided else shown


NARRATIVE = ("problems", "overview")
"""Sections whose sentences tell what happened; their long sentences are shown by their end
(``sentences(tail=True)``) and weighed by ``narrative_weight``."""
_STATED = re.compile(r"다\.?$")


def narrative_weight(question_terms: set[str], topic_terms: set[str], q: Quote, opening: bool) -> float:
    """How likely a 문제점 or 업무 개요 sentence states a fact an auditor asks about: a logistic
    model's score over the share of the question's and the finding title's key terms it states,
    a stated failure ('…하지 않고', '방치'), being the section's opening sentence (it sums the
    finding up), a long sentence shown by its end, a finished statement ('…되었다.'), and a
    rebuttal or an aside (less). Fitted on the dev gold (3,288 sentences of 문제점 of the first gold
    findings, 118 holding a nugget's phrase; grouped 5-fold): a nugget among the two sentences
    chosen 45 times against 38 for ``weight``, and with the sentences' ends shown instead of their
    heads, 48 against 27 before (``sentences(tail=True)``). A provision quoted for comparison ('- ｢…
    조례｣ 제11조(…) ① …') is the rule, not what went wrong: it counts as an aside."""
    terms = key_terms(q.text)
    aside = bool(_ASIDE.search(q.text) or _PROVISION.search(q.text) or q.footnote)
    return (2.0 * coverage(question_terms, terms) + 0.4 * coverage(topic_terms, terms)
            + 0.3 * bool(_FAILURE.search(q.text)) + 1.3 * opening + 0.8 * q.elided
            + 1.1 * bool(_STATED.search(q.text)) - 1.0 * aside)


def weight(question_terms: set[str], topic_terms: set[str], q: Quote, section: str) -> float:
    """How much a sentence of 조치할 사항, 관계 법령·판단기준 or 관계기관 의견 is worth quoting (문제점 and
    업무 개요: ``narrative_weight``): the question's and the finding title's key terms it states, a
    stated fact (a finished clause, a figure), a demand with its disposition mark ('…하시기
    바랍니다.(주의)') in 조치할 사항; an agency's or a person's rebuttal counts less."""
    terms = key_terms(q.text)
    score = coverage(question_terms, terms) + 0.5 * coverage(topic_terms, terms)
    if _FACT.search(q.text):
        score += 0.2
    if section == "actions" and _DEMAND.search(q.text):
        score += 0.5 if not _ROUTINE.search(q.text) else 0.1
    if _ASIDE.search(q.text) or q.footnote:
        score -= 0.5
    return score


def best(question_terms: set[str], text: str, n: int = 1, first: bool = False, topic_terms: set[str] | None = None,
         section: str = "") -> list[Quote]:
    """The n sentences worth quoting most (``weight``; ties: earlier first), in text order;
    ``first``: the opening sentences instead."""
    cands = sentences(text)
    if first:
        return cands[:n]
    topic = topic_terms or set()
    scored = sorted(((weight(question_terms, topic, q, section), -i, q) for i, q in enumerate(cands)), key=lambda t: (t[0], t[1]), reverse=True)
    return sorted((q for _, _, q in scored[:n]), key=lambda q: q.start)


_LAW_NAME = re.compile(r"^([「｢][^「」｢｣]+[」｣])\s*(.*)$")
_SAME_LAW = re.compile(r"같은\s*법(\s*시행령|\s*시행규칙)?\s*(" + _ARTICLE_REF + r"(?:\s*(?:,|및|와|과|ㆍ|·)\s*" + _ARTICLE_REF + r")*)")


def laws(text: str) -> list[str]:
    """Law references (「…법」 제N조 제M항) in order of first mention, each once. '같은 법 제15조'
    (or 같은 법 시행령 …) is the law last named (its 시행령)."""
    out: list[str] = []
    last_law = ""
    found = sorted([*_LAW.finditer(text), *_SAME_LAW.finditer(text)], key=lambda m: m.start())
    for m in found:
        if m.re is _SAME_LAW:
            if not last_law:
                continue
            name = last_law if not m.group(1) else f"{last_law[:-1]} {m.group(1).strip()}{last_law[-1]}"
            ref = f"{name} {clean(m.group(2))}"
        else:
            ref = clean(m.group(0))
            name = _LAW_NAME.match(ref).group(1)
            if squash(name[1:-1]).endswith("법"):
                last_law = name
        if _LAW_ARTICLE.match(ref) and ref not in out:
            out.append(ref)
    return out


def grouped_laws(refs: list[str]) -> str:
    """References listed with each law named once, its articles after it in order:
    '｢지방공무원법｣ 제39조 제3항·제42조, ｢지방공무원 임용령｣ 제30조'."""
    groups: dict[str, tuple[str, list[str]]] = {}  # the name without spaces -> (as first written, articles)
    for ref in refs:
        m = _LAW_NAME.match(ref)
        name, article = (m.group(1), m.group(2).strip()) if m else (ref, "")
        _, articles = groups.setdefault(squash(name), (name, []))
        if article and article not in articles:
            articles.append(article)
    return ", ".join(f"{name} {'·'.join(arts)}".strip() for name, arts in groups.values())


def law_sentences(text: str, k: int = 2) -> list[Quote]:
    """Sentences that cite a law article, in order."""
    return [q for q in sentences(text) if _LAW_ARTICLE.search(q.text)][:k]
