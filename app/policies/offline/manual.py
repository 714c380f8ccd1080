"""Offline: does a question ask about the audit manual itself, not about past cases?

Auditors also ask what the manual in ``sop/`` says: what a disposition means and when it is
used ('주의 요구는 언제 쓰는 거야?', '통보랑 주의 차이가 뭐야'), how to write a part of a report
('조치할 사항 문안 어떻게 써?'), a step of the audit procedure, what to check for a kind of
violation ('수의계약 점검할 때 뭘 봐야 해?'). Searched in the reports, such a question got a case
that merely shares its words. It is a manual question when it names a subject of the manual, asks
in a manual's way (what it is, when, how to, what to check) and points at no case: no case
words, no past tense, no described violation ('이런 위반이면', '…하면 징계야?'), no institution or
year (the field selector checks those). A question in other words ('훈계 뭐임?', '마감회의 때 기관이
우기면') counts when every key term it has is one the manual uses: a case question names
something specific (공보의, 울릉공항) that the manual, written in general terms, does not.

``answer_from_manual`` answers one from the clauses the search found: the best clause's
sentences that carry the question's words (its opening one always), quoted and cited, then the
other clauses kept, one line each.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from app.policies.offline import quotes
from app.policies.offline.intent import named_organisations
from app.policies.offline.lexicon import FUNCTION_WORDS, key_terms
from app.retrieval.sop import DEFINES, VIOLATION_DOCUMENT
from app.text.korean import get_kiwi
from graph.schemas import AnalystAnswer, AnswerSentence
from graph.state import Doc
from graph.vocab import DISPOSITIONS, MANUAL_SECTION, language, section_label

_SUBJECT = re.compile(
    r"처분|" + "|".join(DISPOSITIONS) + r"|변상명령|변상판정|적극행정|면책|"
    r"조치할\s*사항|조치\s*사항|보고서|처분요구서|처분서|문안|지적사항\s*제목|제목|문체|각주|익명|관련자|관계기관\s*의견|이견|업무\s*개요|"
    r"판단기준|문제점\s*(?:단락|서술|작성|쓰|어떻게|어케)|금액\s*표기|수치\s*표기|"
    r"감사\s*(?:절차|계획|착수|기록|증거|마감|자료)|절차|순서|계약|쪼개기|감사증거|실지감사|문답서|확인서|마감회의|재심의|사후관리|조치결과|"
    r"수의계약|분할\s*계약|설계\s*변경|계약\s*변경|검수|채용|승진|근무성적평정|근평|시간외|초과근무|겸직|외부강의|출장|여비|"
    r"보조금|인허가|제척|기피|회피|이해충돌|투자심사|타당성\s*조사|이월|불용|안전점검|장애\s*대응|개인정보|정보보호|공유재산|기부채납|"
    r"단락|문단|"
    r"disposition|sanction|caution|reprimand|discipline|remedial|notification|audit (?:report|procedure|evidence|plan|target)|"
    r"subsid|grant|contract|procure|hiring|recruit|promotion|overtime|travel|permit|licen|budget|follow[- ]up|"
    r"\breports?\b|required actions? (?:section|wording)|sole[- ]source|conflict of interest|recus",
    re.I,
)
"""What the manual covers: dispositions, the report's parts and style, the audit procedure, the
violation types its checklists cover."""
_ASK = re.compile(
    r"뭐야|뭔데|뭐지|뭔가요|무엇인가|무엇인지|뭐예요|무슨\s*뜻|의미|정의|차이|다른\s*점|뭐가\s*다르|어떻게\s*다르|다른데|달라|다릅|뭐임|구분|"
    r"언제|어떤\s*(?:경우|때)|어느\s*경우|기준(?:이|은)?\s*(?:뭐|무엇|어떻게)|요건|"
    r"(?:어떻게|어케)\s*(?:써|쓰|작성|골라|고르|선택|정해|정하|하면\s*돼|해|표기|적어|적|구성|나눠|나누|처리|진행|맺|달|만들|잡아내|찾아내|확인|점검|검토|판단|시작|끝내|끝맺|마무리)|"
    r"어떻게\s*\S*(?:아야|어야|해야)|어느\s*정도\s*(?:있어야|돼야|되어야|필요)|기한|"
    r"(?:구성|순서|절차|체계|구조)(?:이|가|는|은)?\s*어떻게|방법|절차(?:가|는|를)?\s*(?:뭐|어떻게|알려)|순서|단계|양식|형식|요령|유의|"
    r"(?:할|을|쓸|받을|볼|만들|고를|정할|작성할|점검할|확인할|검토할|감사할|살펴볼)\s*때|주의할\s*(?:거|것|점)|조심|(?:뭘|무엇을|뭐를|어떤\s*걸|어떤\s*것을?)\s*(?:봐야|확인해야|점검해야|검토해야|살펴야|챙겨야)|"
    r"체크\s*리스트|점검\s*(?:항목|사항|포인트)|"
    r"\bwhat(?:'s| is| are| does)\b|difference between|\bwhen (?:should|do|does|is|are|to|can)\b|"
    r"\bhow (?:do|should|to|can|are|is)\b.*\b(?:writ|word|choos|decid|draft|structur|handl|check|record|format|present|follow|verif|confirm|track|select|plan)|"
    r"what should (?:i|we) check|what goes into",
    re.I,
)
"""How a manual question asks: what it is or means, how two differ, when it is used, how to write
or choose, what to check."""
_CASE = re.compile(
    r"사례|선례|케이스|건들|경우들|문제\s*(?:된|됐던)\s*(?:감사|건|거|것)|(?<![가-힣])건(?:[,은는이을에의]|\s|$)|지적(?![가-힣])|요구된\s*(?:지적|건|사례|거|것)|요약해|요약\s*(?:좀|부탁)|적발|지적된|지적받|지적\s*사항(?!\s*제목)|걸린|걸렸|나온|나왔|받은|받았|내려진|내렸|요구한|요구했|했던|있었|"
    r"(?:있|나오|[았었였했됐봤뤘졌렸])던데|"  # '… 문제도 있던데 / 지적됐던데 요지가 뭐야': a case seen (not '섞어 쓰던데 차이가 뭐야')
    r"(?:하|고치|바꾸|세우|만들|돌려주|올리|줄이|보내|맡기|막으|늘리|없애)라는\s*(?:근거|지적|요구를\s*받|처분을\s*받)|"  # '고발하라는 근거가 된 법 조항은': a case's demand
    r"문제(?:점)?(?:가|는|이)?\s*(?:뭐|무엇)|예로|이번|보고서들|초안|(?:만들어|작성해|써)\s*(?:줘|주|봐|줄)|\bdraft|"
    r"분석해|방금|그거|그것|거기|그중|둘\s*다|앞(?:의|에서)\s|(?<![가-힣])[그저]\s|몇\s*건|건수|가장\s*많은|기관별|유형별|"
    r"이런\s*(?:위반|경우|건)|(?:한|된|준|낸|쓴|받은|만든|않은)\s*(?:거|것)(?![가-힣])|(?:준|낸|한|된|쓴|받은|않은|없는|넘은|어긴|위반한)\s*경우|이\s*정도|그\s*정도|(?:이|그|저)\s*(?:건|사건|기관)|(?<![가-힣])(?:이|그)\s*감사|"
    r"\bcases?\b|precedent|findings?\b|\bwas\b|\bwere\b|\bdid\b|\b(?:was|were|did|had)n[’']?t\b|\bgot\b|this (?:case|finding)|(?:reports?|findings?|audits?) say about|\bfound\b|\bfind (?:me|all|any|cases)|\bflagged\b",
    re.I,
)
"""A question about cases: it asks for them or for their problems, refers to one ('방금 말한', '그 처분'),
describes one, counts them, or wants a document drafted ('… 양식으로 초안 써줘')."""
_IF = re.compile(r"(?:하|했|되|됐|였|이)(?:으)?면\s|라면|다면|(?:았|었|였|했|됐|겼|졌|렸|쳤|챘|났|갔|왔|봤|줬)을\s*때|\bif\b", re.I)
"""'…하면 징계야?', '…였다면', '… 챙겼을 때 처분 수준이 궁금해': a violation described, so precedents answer it ..."""
_HOW_TO_WRITE = re.compile(r"표기|문안|작성|(?:어떻게|어케)\s*써|wording|\bwrit", re.I)
"""... unless it asks how to write something ('처분이 여러 개 붙으면 표기는 어케 해'); not '계약을 쪼개면 처분
예시가 뭐야?', which asks for precedents."""


def conditional(question: str) -> bool:
    """'…걸리면', '…쓰면': Kiwi's conditional ending (the regex misses verbs it does not list)."""
    return any(t.tag == "EC" and t.form in ("면", "으면") for t in get_kiwi().tokenize(question))


def past_tense(question: str) -> bool:
    """The question's closing words are in the past tense ('…받았어?', '…있었나'): it asks what
    happened. A past clause inside a present question ('제대로 했는지 어떻게 확인해?') is not."""
    tail = " ".join(question.split()[-2:])
    return any(t.tag == "EP" and t.form in ("었", "았", "였", "ㅆ", "었었", "았었") for t in get_kiwi().tokenize(tail))


def points_at_cases(question: str) -> bool:
    """Case words, a case described ('…하면', '…걸리면'; not '…붙으면 표기는'), the past tense or an
    organisation named: the question is about cases."""
    described = (_IF.search(question) or conditional(question)) and not _HOW_TO_WRITE.search(question)
    return bool(_CASE.search(question) or described or past_tense(question) or named_organisations(question))


def asks_about_manual(
    question: str, vocabulary: frozenset[str] = frozenset(), terms: set[str] | None = None, in_its_words: bool = True,
    reports_use: Callable[[str], bool] = lambda _term: False,
) -> bool:
    """Whether the question asks what the audit manual says rather than for cases (module doc):
    it points at no case, and either names a subject of the manual in a manual's way of asking
    (with at most one word the reports use and the manual does not: ``reports_use``), or speaks
    only the manual's words (``vocabulary``: the terms its clauses use; ``terms``: the
    question's key terms, an English question's in Korean), at least ``MANUAL_TERMS_MIN`` of them
    (with no ``vocabulary``, the first way only, and ``reports_use`` is not read);
    ``in_its_words=False``: the first way only (the router, which has not yet told a follow-up
    such as '근거 조항은?' from a new question)."""
    words = (key_terms(question) if terms is None else terms) - FUNCTION_WORDS
    if _SUBJECT.search(question) and _ASK.search(question):  # named in a manual's way: one word of its own at most
        plausible = not vocabulary or sum(map(reports_use, words - vocabulary)) <= 1  # not '흑산공항 사업비 증액 절차는?'
    else:
        plausible = in_its_words and len(words) >= MANUAL_TERMS_MIN and words <= vocabulary and asks(question)
    return plausible and not points_at_cases(question)


def asks(question: str) -> bool:
    """A question: a question mark, a question word or an asking ending ('…누가 하는 거', '뭐임',
    '…되나'); not a bare facet left over from the last answer ('예산 낭비 금액은') or a request
    ('보조금 정산 문제 분석해줘')."""
    return "?" in question or bool(_QUESTION_WORD.search(question) or _ASKING_END.search(question))


_QUESTION_WORD = re.compile(r"뭐|무엇|무슨|누가|누구|언제|어디|어떻|어떤|어느|어케|왜|몇|\b(?:what|who|when|how|why|which|can|should|do|does|is|are)\b", re.I)
_ASKING_END = re.compile(r"(?:나요|나|니|까|냐|는지|는\s*거|인가|임|되나|돼야|해야)\s*[.!]*$")


MANUAL_TERMS_MIN = 2
"""'처분은?' after an answer speaks the manual's words too: a follow-up, not a question about it."""


MANUAL_QUOTES = 3
"""Sentences quoted from the best clause."""
QUOTE_CHARS = 260
"""A quoted sentence is cut (at a clause boundary) to this many characters."""
MANUAL_CLAUSES = 3
"""Clauses an answer shows."""


def answer_from_manual(question: str, docs: list[Doc]) -> AnalystAnswer:
    """The answer to a question about the manual from its clauses ``docs`` (best first)."""
    lang = language(question)
    terms = key_terms(question)
    best = docs[0]
    said = quotes.sentences(best["text"], QUOTE_CHARS)
    ranked = sorted(range(len(said)), key=lambda i: (i != 0, -len(terms & key_terms(said[i].text)), i))
    chosen = sorted(ranked[:MANUAL_QUOTES])
    manual = section_label(MANUAL_SECTION, lang)
    lead = (f"{manual}의 {best['heading']} 조항에 따르면 다음과 같습니다 [1]." if lang == "ko"
            else f"The {manual}, clause {best['heading']}, says [1]:")
    sentences = [AnswerSentence(text=lead, citations=[1], quote=said[chosen[0]].text if chosen else "")]
    sentences += [AnswerSentence(text=f"- \"{quotes.displayed(said[i])}\" [1]", citations=[1], quote=said[i].text) for i in chosen]
    for n, d in enumerate(docs[1:MANUAL_CLAUSES], start=2):
        first = quotes.sentences(d["text"], QUOTE_CHARS)[:1]
        label = "함께 볼 조항" if lang == "ko" else "See also"
        text = f"{label}: {d['heading']}" + (f" — \"{quotes.displayed(first[0])}\"" if first else "") + f" [{n}]"
        sentences.append(AnswerSentence(text=text, citations=[n], quote=first[0].text if first else ""))
    follow = [q for q in [_cases_of(best)] if q] if lang == "ko" else []
    return AnalystAnswer(reasoning=f"manual: {len(docs)} clauses, {best['heading']} first", sentences=sentences,
                         follow_up_questions=follow)


def _cases_of(clause: Doc) -> str | None:
    """A question the reports answer about what a clause ('[SOP-VIO-02] 계약: 수의계약 요건')
    covers: its violation type's cases, or the cases its disposition was given in."""
    title = clause["heading"].partition("] ")[2]
    if clause["report_id"] == VIOLATION_DOCUMENT and ":" in title:  # the clause's document, as ``sop.is_violation_type``
        return f"{title.split(':', 1)[1].strip()} 관련 지적 사례는?"
    if m := DEFINES.match(title):
        return f"{m.group(1)} 처분이 나온 사례는?"
    return None
