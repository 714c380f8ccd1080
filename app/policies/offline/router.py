"""Offline routing: keyword and pattern rules first, then the nearest labelled examples by
embedding for what the rules leave open; topic pivots from entities and shared key terms.

Rule order (first match wins):
0. a question about the audit manual itself, naming a subject of it in a manual's way of asking,
   with no institution, year or case pointed at ('주의 요구는 언제 쓰는 거야?', '보고서에 관련자
   이름은 어떻게 표기해?') -> deep, a new question that neither follows up nor pivots;
1. a request to write a document (보고서/요구서/통보서 ... + 작성/초안/써 ...) -> report,
   unless it only asks whether drafting is possible ("보고서 작성도 가능해?") -> chat, or it tells
   what a report said ('… 보고서에 쓰고 평가기관은 못 걸러낸 사례', '이 보고서에 … 것도 있었던 것 같은데')
   and asks for no draft in so many words;
   after a report turn, an edit of the draft ("근거 법령 부분 더 자세히 써줘") -> report;
2. greetings, thanks, help, self-introductions, small talk, questions about the conversation
   -> chat (unless the message also asks about audit content; words of small talk such as 주말 or
   점심 in a case or problem asked in the reports' words are audit content);
3. count / list / group-by / top-N over the findings table -> fast (SQL): a count names a unit
   of it (지적, 처분, 사례, 감사, 기관, …) or nothing else; a number a case holds ('민자 못 구한
   지자체가 몇 곳이었어') is read by the deep track;
4. after a fast turn, a refinement ("그중 시정은?", "곡성군은?") -> fast;
5. ordinals, anaphora, "자세히" -> deep; audit content (institutions, dispositions, glossary
   terms, or specific terms of the ingested corpus) -> deep;
6. otherwise the nearest labelled examples (chat / fast / deep; a document request is never
   guessed); right after a case was shown, a question they would send to chat or fast asks about
   that case -> deep.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from importlib import resources

import numpy as np

from app.embeddings.interface import Embedder
from app.policies.offline.english_names import korean_names
from app.policies.offline.fields import (
    EN_BODY_REPORT,
    REPORT_ANAPHORA,
    Catalog,
    anaphoric,
    dispositions,
    fiscal_years,
    writes_fiscal_year,
    years,
)
from app.policies.offline.intent import (
    asks_for_several,
    enumerated,
    facets,
    named_organisations,
    question_kind,
)
from app.policies.offline.lexicon import (
    CASE_PEOPLE,
    FACET_TERMS,
    FUNCTION_WORDS,
    REBUTTAL_TERMS,
    key_terms,
    ordinals,
    squash,
    without_ordinals,
)
from app.policies.offline.manual import asks_about_manual
from app.policies.offline.quotes import addressees
from app.sql.planner import TOP_RANK
from app.text.korean import get_kiwi
from graph.ports import Turn
from graph.schemas import RouteDecision
from graph.state import Doc
from graph.vocab import DISPOSITIONS, TRACKS

_DOCUMENT = r"(보고서|요구서|통보서|통보문|권고문|처분서|문서|초안|report|request|memo|letter)"
_WRITE = r"(초안|작성|만들|써|쓰|준비|부탁|draft|write|prepare|compose)"
_REPORT = re.compile(
    rf"{_DOCUMENT}.*{_WRITE}|{_WRITE}.*{_DOCUMENT}"
    r"|\b(draft|write)\b.{0,20}(" + "|".join(DISPOSITIONS) + "|notice|notification|caution|disposition)",
    re.I,
)
_WRITTEN_IN = re.compile(
    r"(?:보고서|문서|서류|공문)(?:에|에다|에다가|상에?)\s+(?:[가-힣]+\s+){0,2}?"
    r"(?:쓰고(?!\s*싶)|썼|쓴(?!다면)|적고(?!\s*싶)|적었|적은|기재(?:한|했|된|돼)|작성(?:한|했|하고(?!\s*싶)|하면서))"
)
"""What was written in a document, told of ('결과를 보고서에 쓰고 평가기관은 못 걸러낸 사례'): no draft asked for."""
_DRAFT_ASKED = re.compile(
    r"초안|draft|(?:써|작성해|만들어)\s*(?:줘|주|줄|봐|달라)|작성\s*(?:바랍|요청|부탁)(?!받)"
    r"|(?:요구서|통보서|통보문|권고문|처분서|문안).{0,20}(?:써|쓰|작성|만들)(?!한|했|된|서|던)", re.I)
"""A draft asked for in so many words, which a report told of beside it does not undo ('보고서에 쓴 내용 바탕으로 처분요구서
초안 써줘', '… 처분요구서 작성해 주시겠어요?', '통보서 작성 바랍니다'); not '… 사례 정리해줘'."""
_CASES_REQUESTED = re.compile(
    r"(?:사례|케이스|(?<![조물안사요용여문인])건|것|거)들?\s*(?:을|를|만|도|좀|다|전부|모두|싹)?\s*(?:(?:좀|다|전부|모두|싹)\s*)?"
    r"(?:모아|찾아|알려|보여|뽑아|골라|추려)\s*(?:줘|주세요|줄래|봐|주라|주시)")
"""Cases asked for ('… 정산보고서를 못 받아서 쓰고 남은 돈이 안 돌아온 케이스들 모아줘'): a search, whatever document a case
tells of, unless a draft is asked for in so many words (``_DRAFT_ASKED``)."""
_IN_DOCUMENT = re.compile(r"(?:보고서|문서)(?:에|에서|에는|엔|에선)\s")
"""'이 보고서에 …': in a report, which a question asking whether something was there ('… 만들었다는 것도 있었던 것
같은데') reads, not a draft."""
_CAPABILITY = re.compile(r"(도|은|는)\s*(가능해|가능한가|가능합니까|할 수 있어|할 수 있나|돼\?|되나요)|can you (also )?(write|draft)|are you able", re.I)
_PARTICLE = r"(?=(?:은|는|이|가|을|를|의|에서|에|도|만|이랑|랑|하고|상대로|들)?(?![가-힣]))"
"""A word's end: nothing, or a particle and nothing after it ('그쪽은', '걔네는', '그 군 상대로')."""
_DEICTIC = re.compile(
    r"(이|그|해당|위|앞의?)\s*(내용|건|사례|지적|감사|결과)|이걸로|이것으로|(?<![가-힣])거기|방금\s*(말한|거|건|그)|아까\s*(말한|그|거|건)|그거|그게"
    r"|based on (this|that)|\b(on|for|to|about|in) (this|that|it)\b"
    r"|(?<![가-힣])(?:걔네|걔들|쟤네|그쪽|그\s+쪽|그\s+동네)" + _PARTICLE  # '걔네 2023년 감사 땐', '그쪽은 뭐 하래'
    + r"|^\s*(?:(?:그럼|근데|그러면)\s*)?(?:그\s*때|그\s*당시)(?:는|도|에|엔|에는)?(?![가-힣])"  # '그때 정부24 포함해서 몇 개 시스템이 멈췄던 거야?': the time of the case shown
    + r"|(?<![가-힣])(?:그|이|해당)\s*(?:군|시|구|도)(?:청|의회)?" + _PARTICLE  # '그 군 상대로'
    + r"|\b(?:fix|fixed|fixing|do|did|done|handle|handled|explain|change|changed|cause|caused)\s+(?:that|it)\b(?!\s+(?:the|a|an)\b)",  # 'Who has to fix that, …'
    re.I,
)
_DEMONSTRATIVE = re.compile(
    r"(?:^|\s)(?:이|그|해당|이번)\s+[가-힣]{0,4}(?:직원|공무원|관련자|담당자|사람|업체|회사|법인|사업자|사업|공사|용역|계약|시설|부지|기관|"
    r"공항|항만|위원회?|조합|단체|센터|시스템|앱|금액|처분|조치|규정|법령?)"
    r"|(?:^|\s)이번\s*(?:건|사례|지적|감사)",
)
"""A noun the last answer introduced, pointed at ('이 직원이 어떤 혐의로…', '그 농업법인은…')."""
_NOT_POINTED = frozenset("동안 사이 다음 이후 이전 당시 시점 시기 무렵 즈음 기간 시절 와중 도중 대신 이상 이하 정도 결과 경우 "
                         "얘기 이야기 말씀 질문 기회 분야 부분 주제 자체 주변 나라 시국 상황 마당 "
                         "군청 시청 구청 도청 의회 지자체".split())
"""Nouns of two syllables or more after a demonstrative that time or relate ('그 시점에', '그 결과'), that speak of
the conversation or the times ('그 얘기 나온 김에', '이 기회에 묻는데', '이 분야 말고', '이 시국에'), not a thing shown;
and the body shown by its office ('그 군청 … 건도 거기였지' may ask about that body's other cases)."""
_OPENING_CLAUSE = ("그렇", "그러", "그리하")
"""Stems of a connective that links the question to the last answer ('그렇다면 그 선주들은 …', '그러고 보니 …'),
no clause of its own."""


def _points_at_shown(q: str, retained: list[Doc]) -> bool:
    """A demonstrative before a common noun ('그 선주들한테 벌금 물리는 근거 조문은?', '그래서 그 평가사들이
    …', '해당 조합은') or a name the passages shown hold: a thing the last answer introduced, in
    the asker's word for it (the case says 선박소유자; ``_DEMONSTRATIVE`` lists the usual ones). Not
    after a clause ('정밀조사까지 해놓고 (왜) 그 지역을 …' points inside its own sentence), except a
    connective to the last answer ('그렇다면 그 선주들은 …'); not a hesitation ('저 스키장 …')."""
    if not retained:
        return False
    tokens = get_kiwi().tokenize(q)
    for i, (a, b) in enumerate(zip(tokens, tokens[1:], strict=False)):
        if not ((a.form in ("그", "이", "저") and a.tag == "MM") or (a.form == "그" and a.tag == "IC") or (a.form == "해당" and a.tag == "NNG")):
            continue  # ('그' after a connective is read as IC; '저' as IC is a hesitation)
        if a.start and not q[a.start - 1].isspace():  # a word of its own: not the particle of '주인이 몰카', which Kiwi reads so
            continue
        j = i - 1
        while j >= 0 and tokens[j].tag in ("MAG", "IC"):  # '해놓고 왜 그 지역을': the clause before the adverb
            j -= 1
        if j >= 0 and tokens[j].tag == "EC" and not (j and tokens[j - 1].form in _OPENING_CLAUSE):
            continue  # after a clause of the question's own
        if b.start - (a.start + a.len) > 1 or len(b.form) < 2 or b.form in _NOT_POINTED:  # '그 선주', not '그, 선주'
            continue
        if b.tag == "NNG" or (b.tag == "NNP" and squash(b.form) in _seen(retained)):
            return True
    return False


_ANY_SEARCH = re.compile(
    r"^(?:(?:and|so|also|ok(?:ay)?|now|then|right)[,.]?\s+)?(?:(?:is|was|are|were) there\s+|(?:do|did) (?:you|we) (?:have|find)\s+"
    r"|(?:have )?(?:you |we )?got\s+)?(?:anything\s+(?:on|about|regarding|concerning|involving|related to)"
    r"|any\s+(?:[\w-]+\s+){0,2}?(?:cases?|findings?|audits?|examples?|projects?|programm?e?s?|instances?|reports?)"
    r"\s+(?:where|of|on|about|regarding|concerning|involving|in which|with|that|for))\b",
    re.I,
)
_ENGLISH_POINTER = re.compile(r"\b(?:it|its|they|their|them|he|she|him|her|his|this|these|those|same|such)\b", re.I)
ANY_SEARCH_WORDS = 3
"""'Anything on illegal groundwater wells being dug on farmland?', 'Any regeneration projects where …': after a
case was shown, a search for a subject of its own (the 10 later turns of the gold conversations that open so
are all pivots; this takes 8 of them, not one whose subject opens with 'the' nor one with two words of its
own), when it names one in this many words or more and points at nothing; not 'Any criminal charges filed?' nor 'Was there any disciplinary action …?' of the case shown."""
_EDIT = re.compile(r"(부분|항목|섹션|문단|제목|초안|section|paragraph|title|draft).*(써|줄여|고쳐|수정|바꿔|추가|보완|늘려|다듬|빼|rewrite|shorten|expand|change|fix|add|remove)|(줄여|고쳐|수정해|바꿔|보완해|보강해|다듬어|톤\s*다운|다시\s*(써|작성)|다시$)", re.I)
_DISPOSITION_WORDS = "|".join(DISPOSITIONS)
_FINDING_UNITS = rf"지적(?:\s*사항)?|처분|{_DISPOSITION_WORDS}|경고|사례|감사(?:\s*결과)?|보고서|기관"
_NOT_A_FEW = r"(?!\s*(?:째|월|더)|만)"
"""'몇 번째', '몇 개월', '몇 개 더', '몇 개만': an ordinal, a duration, a few: no count."""
_HOW_MANY = rf"몇\s*(?:건|개|곳|번){_NOT_A_FEW}"
_COUNT = re.compile(
    rf"(?:{_FINDING_UNITS})(?:\s*요구)?(?:은|는|이|가|도|을|를|만|이랑|\s*중에?서?)?\s*(?:(?:총|모두|전부|다|각각|전체)\s*)?{_HOW_MANY}"
    rf"|(?:{_FINDING_UNITS})(?:\s*요구)?\s*(?:된|받은|나온|요구된)\s*(?:건|게|거|것)(?:은|는|이|가)?\s*{_HOW_MANY}"
    rf"|{_HOW_MANY}\s*(?:이나\s*)?(?:지적|적발|나왔|받았)"
    rf"|(?:{_FINDING_UNITS}|유형|종류)(?:\s*요구)?(?:만|별)?\s*(?:건수|개수)"
    r"|(?:how many|number of|\bcount(?: of| the)?)\s+(?:\w+\s+){0,2}?(?:findings?|cases|audits|reports|institutions|agencies|dispositions"
    r"|requests|cautions?|notices?|disciplinary|sanctions|warnings|violations|recommendations|issues)\b"
    rf"|(?:how many|number of|\bcount\b).*(?:{_DISPOSITION_WORDS}|처분|지적)",
    re.I,
)
"""A count over the findings table: of findings, dispositions, cases, audits, reports or
institutions ('주의 처분은 모두 몇 건이야?', '징계 요구는 몇 건이야?', '지적된 건 몇 개야?', '통보 건수',
'how many cautions…'), not of what a case holds ('민자 못 구한 지자체가 몇 곳이었어', '계약 해지된
지도자 몇명', '누락된 자산 개수는?', 'how many times was the price revised?': the deep track reads
the case). A bare '몇 건 / 몇 개' with nothing else to count ('해수부 몇 건이야?', '2023년엔 몇 건이야?')
counts findings too (``OfflineRouter._bare_count``); '몇 개 더', '몇 개만' ask for a few, not a count."""
_BARE_COUNT = re.compile(rf"몇\s*(?:건|개){_NOT_A_FEW}")
_LIST = re.compile(r"목록|리스트|나열|list\b|모두\s*보여|전부\s*보여|다\s*보여", re.I)
_GROUP = re.compile(r"(종류|처분|기관|연도|년도|보고서|유형)\s*별|by (disposition|institution|year|type|report)", re.I)
_TOP = re.compile(r"가장 많|가장 적|" + TOP_RANK + r"|순위|\btop\s*\d+|\btop (institutions|agencies|reports)|fewest|^(which|what|who)\b.*\bmost\b", re.I)
_CHAT = re.compile(
    r"^(안녕|반가|고마|감사합니다|감사해요|수고|좋은 (아침|하루)|ㅎㅇ|하이|hi\b|hello|hey\b|thanks|thank you|good (morning|evening))"
    r"|누구(야|세요|니)|who are you|무엇을 (할|도와)|뭘 할 수|what can you do|도움말|사용법|help\b"
    r"|(내가|제가).*(아까|처음|방금|전에).*(물어|질문|말했|뭐라고)|(아까|처음|방금|전에).*(내가|제가).*(물어|질문|말했|뭐라고)"
    r"|what did i (ask|say)|내 이름|my name|(너|네|당신)\s*(이름|누구)|your name"
    r"|^(나|저)(는)?\s+(\S+\s*){1,3}(이야|야|입니다|이에요|예요)[.!~ ]*($|[.!])|^i am \w+|^i'?m \w+( \w+)?[.!]*$|잘 부탁(드립니다|해요|합니다)"
    r"|이 대화에서|in this conversation|what (kinds? of )?questions can i ask|what can i ask"
    r"|ㅠ|ㅜ|ㅋㅋ|ㅎㅎ|피곤|힘들|바빠|바쁘|정신(이)? ?없",
    re.I,
)
_CHATTER = re.compile(r"날씨|점심|커피|주말")
"""Words of small talk ('점심 먹었어?', '주말 잘 보내'), which a problem pattern may use too ('동호회가 공공 테니스코트
주말 예약을 독차지한 문제'): chat only when the message is not about the reports' content."""
CHATTER_TERMS = 2
"""... when it asks for a case or names a problem (``_PROBLEM_ASKED``) in this many key terms or more besides the
small-talk words and that ask, most of them the reports' words (``_corpus_content``)."""
_PROBLEM_ASKED = re.compile(r"사례|문제|지적|케이스|경우|위반|부당|부정|부적정|부실|허위|특혜|독차지|독점|몰아|비리|(?:찾아|알려|보여)\s*(?:줘|주)")
_HELP = re.compile(r"what (kinds? of )?questions can i ask|what can i ask|what can you do|도움말|사용법|뭘 할 수 있|무엇을 (할 수|도와)|어떤 질문(을|을 할|이)? (할 수|가능)", re.I)
_MORE = re.compile(r"자세히|더 알려|구체적으로|설명해|tell me more|more detail|elaborate|explain", re.I)
_NEW_TOPIC = re.compile(
    r"다른 (얘|이야기|질문|주제)|화제를? 바꿔|주제를? 바꿔|넘어가서|switch(ing)? (topics?|gears)|another topic"
    r"|different (topic|question)|new topic|moving on|change of topic|그건 그렇고|그나저나|별개로|by the way|unrelated|separately|on another note"
    r"|(?:^|[.!?]\s+)(?:(?:ok(?:ay)?|so|alright|now)[,.]?\s+)?(?:(?:on |as )?(?:a )?separate (?:issue|question|matter|topic)\b|switching (?:over )?to\b"
    r"(?!\s+(?:the |that |this |its |their )?(?:first|second|third|fourth|fifth|last|earlier|previous|other|same|that|this|case\s*\d"
    r"|penalt(?:y|ies)|dispositions?|sanctions?|actions?|demands?|remed(?:y|ies)|laws?|legal|basis|amount|money|costs?|response|opinion|details?)\b))",
    re.I,
)
_BACK = re.compile(
    r"(?<![가-힣])(?:아까|앞서)(?!\s*(?:도\s*)?(?:말했듯이|말한\s*것처럼|말했지만|물어보려던|물어보려고))"
    r"|(?<![가-힣])(?:맨\s*처음에?|처음에?\s*(?:물어본|물었던|말한|말했던|얘기한|얘기했던|질문한|봤던|본|나온|나왔던))"
    r"|(?:으로|로)\s*돌아가(?:서|면|자|볼게)|\bgoing back\b(?!\s+(?:to\s+)?(?:19|20)\d{2})|\bback to the (?:case|one|finding|first|earlier)\b"
    r"|\bearlier (?:case|one|finding|question)\b|\bthe first (?:case|one|question) (?:i|we) (?:asked|discussed|looked)",
    re.I,
)
"""A return to something discussed before ('아까 상수도 관망 건은', '처음 물어본 SW 대가 건에서', '검사 안받은 배 건으로
돌아가서', 'going back to Haeundae'; not '아까 말했듯이', 'paid back to the ministry'); '처음 호스텔 건은' too (``_first_case``)."""
_FIRST_OF = re.compile(r"(?<![가-힣])처음(?=\s+((?:\S+\s+){0,1}\S+)\s+(?:건|거|사례|케이스)(?:(?:[은는이가을를에도만])(?!면)|\s|$))")
_FIRST_EVENT = frozenset("위반 적발 지적 도입 시행 발생 감사 신고 처분 단속 이런 그런 저런 이 그 저 한".split()) | frozenset(DISPOSITIONS)
_NOUN_TAGS = frozenset(("NNG", "NNP", "NNB", "NR", "MM", "SL", "SN", "SH"))


def _first_case(q: str) -> re.Match[str] | None:
    """'처음 호스텔 건은', '처음 두 건 가운데': the first case(s) shown, named by a word of theirs or counted (only '처음'
    is the match); not a first offence or time ('처음 적발된 건', '처음 위반 건이면', '처음 음주운전 건이면', '처음 받은 거 맞아?',
    '처음 이런 건 적발된 게'), nor 건 inside a word ('처음 계약 조건은')."""
    m = _FIRST_OF.search(q)
    if not m:
        return None
    tokens = get_kiwi().tokenize(m.group(1))
    return m if tokens and all(t.tag in _NOUN_TAGS and t.form not in _FIRST_EVENT for t in tokens) else None


def goes_back(q: str) -> bool:
    """The question returns to something discussed before (``_BACK``, ``_first_case``)."""
    return bool(_BACK.search(q) or _first_case(q))


def without_return(q: str) -> str:
    """The question without its words of returning ('아까', '처음', '… 건으로 돌아가서')."""
    q = _BACK.sub(" ", q)
    m = _first_case(q)
    return f"{q[: m.start()]} {q[m.end():]}" if m else q
_DEFINES = re.compile(
    r"(?:요건|기준|정의|뜻|의미|차이)(?:이|은|는|가)?\s*(?:뭐|무엇|어떻게)|언제\s*(?:써|쓰|적용)"
    r"|\bwhat (?:is|are) (?:the )?(?:requirements?|criteria|definition)\b|\bwhat does .* mean\b|\bdifference\b",
    re.I,
)
"""A question asking what something is or when it applies: of the audit manual, whatever case was shown."""
_ASIDE = re.compile(
    r"(?:얘기|이야기|말)(?:가|이)?\s*나온\s*김에|나와서\s*말인데"
    r"|(?:얘기|이야기|관련해서?)\s*하나\s*더(?!\s*(?:물어|질문|궁금|여쭤))(?=\s*[,，]|\s+\S+\s+\S+)"
)
"""Another subject the last one brought up ('보조금 얘기 나온 김에 …', '숙박업 관련해서 하나 더, …'): a
pivot, unless the question points at the case shown ('얘기 나온 김에 그 건 조치사항도')."""
_DONE_WITH = re.compile(r"(?:그건|그거는?|이건)\s*(?:이제\s*)?(?:됐고|됐어)[,.!\s]*")
"""'That's enough of that' ('그건 됐고, 통신국사 …'): a pivot when a subject of the question's own
follows, not another facet of the case shown ('그건 됐고 관련자 징계는?')."""
_ASKS = re.compile(r"[?？]|뭐|무엇|어떻|어떤|누가|누구|얼마|언제|왜|어디|몇|^(?:what|who|whom|how|which|when|where|why|was|were|did|does|do|is|are|has|had|can)\b", re.I)
"""A question, as opposed to a remark ('고마워', 'ok')."""
_WHY = re.compile(r"왜|어떻게|이유|why|how (did|was|were|come)", re.I)
_SMALL_TALK = re.compile(
    r"^(?:how are you|how's it going|what's up|what time is it|what day is it|(?:what's|how's|how is|what is) the weather"
    r"|tell me a joke|오늘\s*날씨|날씨\s*어때|지금\s*몇\s*시|몇\s*시야|점심\s*뭐\s*먹|심심해|농담|잘\s*지내)",
    re.I,
)
"""Small talk that asks something, as the whole message ('What time is it?'): chat, even right
after a case was shown (not '점심시간 초과근무 처리한 건', '날씨 때문에 공사가 지연된 사례')."""
_CASE_REF = re.compile(r"(?<![가-힣])(그|이|해당)\s*(건|사례|지적)|that (one|case|finding)", re.I)
_REFINE = re.compile(r"^(그중|그 중|이 중|그럼|그러면|그리고|and|then|what about|of those|among them)|(은|는|만 보면|보면)\?*$|\bonly\b", re.I)
_NEVER_MIND = r"상관\s*없(?:이|어|음|고)|관계\s*없(?:이|어|음|고)|무관하게|빼고|말고|제외하고|신경\s*(?:쓰지\s*말고|안\s*써도|끄고)"
_RELAX_PERIOD = re.compile(
    rf"(?:연도|년도|기간|시기|시점)\s*(?:는|은|도)?\s*(?:{_NEVER_MIND})|(?<![가-힣])해(?:는|은)?\s+(?:{_NEVER_MIND})"
    r"|(?:ignore|drop|forget(?: about)?|without|never mind|don't worry about)\s+the\s+(?:year|period|date)"
    r"|regardless of (?:the )?(?:year|period|date)|(?:any|all) years"
    r"|(?:제일|가장)\s*최근\s*(?:\s?[가-힣]{0,6}(?:감사|보고서|결과|것|거|꺼|건)){0,2}\s*(?:이)?라도(?![가-힣])",  # '그럼 제일 최근 정기감사라도'
    re.I,
)
_RELAX_ORG = re.compile(
    rf"(?:기관|부처|지역|지자체)\s*(?:는|은|도)?\s*(?:{_NEVER_MIND})"
    r"|(?:ignore|drop|forget(?: about)?|without|never mind|don't worry about)\s+the\s+(?:institution|agency|ministry|organi[sz]ation)"
    r"|regardless of (?:the )?(?:institution|agency|ministry)|(?:any|all|other) (?:institutions|agencies)",
    re.I,
)
"""The last question asked again with a scope dropped ('연도 상관없이 찾아줘', 'ignore the year',
'기관 상관없이 상수도 쪽은?'): a follow-up of that question, whatever it found (often nothing,
because of the scope now dropped)."""
_YEAR_WORDS = re.compile(r"(?:19|20)\d{2}\s*(?:년도?|~|-|–)?\s*(?:(?:19|20)\d{2}\s*년도?)?|작년|지난해|올해|금년|최근\s*\d+\s*년")
_OTHER = re.compile(
    r"(?<!그\s)(?<!이\s)(?<!저\s)(?<!그)(?<!해당\s)(?<!해당)(?<!같은\s)(?<!피감)(?<!관계)(?<!소관)(?<!대상)(?<!대상\s)기관|다른|또\s*있|비슷한|유사한|other|similar|another"
    r"|(?<!that\s)(?<!this\s)(?<!same\s)(?<!the\s)(?<!audited\s)\b(?:institution|agency)", re.I)
"""Other institutions or cases than the one shown; not the one pointed at ('그 기관은', '해당기관', '피감기관',
'that agency', 'the audited agency')."""

_SAME_REPORT = re.compile(
    r"같은\s*(?!유형|종류|문제|사안|내용|방식|성격)(?:\S{1,8}\s*)?(?:감사|보고서)(?:에서|에|의|는)?(?![가-힣])|\b(?:same|that|this) (?:audit|report)\b|" + EN_BODY_REPORT
    + r"|(?:^|\s)(?:그|이|해당)\s+(?!다른|타|외)\S{1,10}\s*(?:(?!다른|타|외)\S{1,10}\s*)?(?:감사|보고서)(?:에서|에|의|는)?(?![가-힣])"
    r"|나머지\s*(?:지적|건|사항|문제)",  # '그 강원도 정기감사 나머지 지적은', not '이 건 다른 감사에서 비슷한 사례'
    re.I,
)
_REST = re.compile(r"나머지|\b(?:other|else|rest)\b", re.I)
_SIMILAR = re.compile(r"비슷|유사|similar|\blike\b", re.I)
"""'같은 감사에서 비슷한 사례도 있어?' asks for cases like the one shown, not for the report's others."""
_OTHER_CASES = re.compile(
    r"(?:다른|비슷한|유사한?)\s*(?:(?:기관|지자체|부처|지역|데|곳)(?:에서|에는?|에도|도)?\s*)?(?:사례|케이스|지적|건|거)(?:들)?(?:는|은|이|가|도|를)?(?![가-힣])"
    r"|다른\s*(?:데|곳)(?:에서|에는?|에도|도|는)?(?![가-힣])"
    r"|다른\s*(?:기관|지자체|부처|지역|시군|시도)(?:에서도|에도|도)(?![가-힣])(?=.*(?:있|나왔|적발|사례|걸린|지적됐))|other (?:institutions?|agencies|places)?\s*(?:cases|examples|findings)|similar (?:cases|findings)|another case|\b(?:anything|something) (?:similar|else)\b|\belsewhere\b"
    r"|(?<![이그])(?:것|거)도\s*(?:지적|적발|나왔|있었)"  # '원인 못 찾고 헤맨 것도 지적됐어?': something besides what was shown
    # '지자체 쪽에서도 감정평가 엉성하게 해서 … 사례 있었지?': a kind of body besides the one shown
    r"|(?<![가-힣])(?:지자체|지방자치단체|시군|기초단체|공공기관|공기업|중앙부처|부처)\s*(?:쪽|측)?에서도(?![가-힣])"
    r"(?!.*(?:이|그|해당)\s*(?:사례|건|케이스))(?=.*(?:사례|케이스|경우).*(?:있|나왔))",
    re.I,
)
_LIKE_SHOWN = re.compile(
    r"(?<![가-힣])(?:이렇게|이런\s*(?:거|것|건|사례|일|문제|경우)(?:가|이|도|는|에|들)?|비슷하게|유사하게)(?![가-힣])|\blike (?:this|that)\b", re.I
)
"""Cases 'like this' ('이렇게 사업기간을 빡빡하게 잡아서 부실해진 다른 건도', '다른 시군 결산에서도 이런 거
잡힌 적 있어?'): whatever the words, the pattern is the one shown."""
_DEMANDED = re.compile(
    r"(?:하|바꾸|고치|내|주|받|세우|마련하|물리|돌려받|회수하|처리하|조치하|제재하)(?:게\s*하)?래(?:요)?\s*[?？]?\s*$"
    r"|하라는\s*거(?:야|지|였어|냐)?\s*[?？]?\s*$|하라고\s*(?:했어|한\s*거야|했지|했나|했냐)(?:요)?\s*[?？]?\s*$"
)
"""A question about what was demanded, in reported speech ('어떻게 하래', '뭐 하라고 했어', '제재까지 하라는
거야?'): after a case was shown, asked of that case (23 of 24 such later turns in the gold
conversations follow up)."""
_REPORTED = re.compile(r"(?:였|었|았|했|됐|냈|졌|갔|왔|렸|겼|봤|줬|났|켰|쳤|섰|있|없|한|된)대(?:요)?\s*[?？]?\s*$"
                       r"|(?:이|다|라|뭐|누구|어디|얼마|언제)래(?:요)?\s*[?？]?\s*$")
"""A question in reported speech ('빠져 있던 사람은 누구였대?', '돈은 얼마나 버렸대', '환수 계획은 있대?'): what the
report shown says, when no other finding matches it clearly and its words alone would pivot (13 of the 14
such later turns in the gold conversations follow up; the other names a place); not about other bodies
('다른 부처는 … 어떻게 대응했대?')."""

_THING_REPORTED = re.compile(r"거래(?:요)?\s*[?？]?\s*$")


def _reported(q: str) -> bool:
    """``_REPORTED``, or '왜 멈춘 거래?', '환수할 거래?' (거 이래 after a verb's adnominal ending, as Kiwi reads it:
    not the noun 거래 after an adjective, '이상한 거래?', '가장 큰 거래?'; where Kiwi reads 거 이래 after a 하다 word,
    '위법한 거래?', it is taken as reported speech)."""
    if _REPORTED.search(q):
        return True
    if not _THING_REPORTED.search(q):
        return False
    tokens = [(t.form, t.tag) for t in get_kiwi().tokenize(q) if t.tag != "SF"]
    return (len(tokens) >= 5 and tokens[-5][1].startswith(("VV", "XSV", "VX", "EP")) and tokens[-4][1] == "ETM"
            and tokens[-3] == ("거", "NNB") and tokens[-1][0].startswith("래"))  # a verb's: not an adjective's, '이상한 거래?'


_AT_LEAST = re.compile(r"(?:뭐|무엇|것만|거만|것|거|건|하나|만)\s*이?라도(?![가-힣])|아무거나|있(?:긴|기는)\s*(?:해|한가|하니|하나|함)(?![가-힣])")
"""'Anything at all' ('그럼 기금 융자 사후관리 쪽으로는 뭐라도 있어?', '골프 관련해서 걸린 건 있긴 해?'): after a question that found
nothing, a follow-up that asks for anything on the subject it names, searched as written."""
_INSTEAD = re.compile(r"(?<![가-힣])(?!(?:그|이|저|한|두|세|네|몇)?\s*(?:거|건|것|개|가지)(?![가-힣]))([가-힣A-Za-z]{1,12})(?:\s*(?:얘기|이야기|쪽|건|거))?\s*(?:말고|말구|빼고|제외하고)[,\s]+(.+)")
"""'X 말고 Y': a topic set aside for another ('운동부 얘기 말고 체육특기자 대입 비리는'), not what was shown
('이거 말고 또 뭐'); not 'X 아닌 Y', which may ask about the case shown ('징계 아닌 주의로 끝난 거야?')."""
_ASKS_FOR_CASES = re.compile(
    r"(?:거|것|건|사례|케이스|데|곳|적|경우)(?:가|이|도|는|들)?\s*(?:또\s*|더\s*)?(?:있|나왔|적발)|(?:또|더)\s*있|\b(?:any other|other|more)\b", re.I
)
"""... and asks whether there are such cases (other than the one shown), not about it ('이런 거 처분은
보통 어떻게 돼?', '이렇게 처리한 근거 규정 있어?')."""


def _asks_like_shown(q: str) -> bool:
    return bool(_LIKE_SHOWN.search(q) and _ASKS_FOR_CASES.search(q))


_CASES_ASKED = re.compile(r"(?:(?<![조물안사요용여문인])건|사례|케이스|경우)\s*(?:은|는|이|가|도)?\s*(?:있|없)(?:었)?(?:어|나|니|냐|을까|는지|습니까|어요)", re.I)
"""Whether there were such cases ('… 준 건 없었어', '… 한 사례 있나'): with a word the reports use, a question about them,
however its words read; not '더 물어볼 건 없어', '조건 있어?'."""
_FLAGGED_ANY = re.compile(r"(?:지적|적발|나온|나왔|걸린|문제\s*된|다룬)[가-힣]*\s*(?:거|것|건|사례|케이스|경우|게)\s*(?:은|는|이|가|도)?\s*(?:있|없)"
                          r"|(?:문제|건|것|거|사례|부분)도\s*(?:지적|적발)(?:됐|되었|받았|당했)")
"""Whether anything was flagged ('… 관리 문제도 지적된 거 있어?', '적발된 사례 있나', '… 가이드 한 문제도 지적됐어?'), as ``_CASES_ASKED`` asks too:
after a case was shown, a search when it names a subject of its own."""
_CONVERSELY = re.compile(r"(?:^|[,.]\s*|(?:이번엔|이번에는|그럼|그러면|근데|혹시|아니면)\s*)(?:정?반대로|거꾸로|반대의\s*경우)(?![가-힣])"
                         r"|\bconversely\b|\bthe (?:opposite|reverse)\b", re.I)
_OPPOSITE_ASKED = re.compile(r"(?<!이 )(?<!그런 )(?<!어떤 )(?:사례|케이스|건|경우)(?:은|는|도)?\s*(?:[?？]|$|있)|\bcases?\b", re.I)
"""The opposite of what was shown, asked as a case ('이번엔 거꾸로, 축사 영업보상 감정평가를 부풀려서 … 건은?', '반대로 … 후하게
잡은 사례는?'): another case, in words of its own; not '주민 반대로 …' (opposition), '반대로 기관은 어떻게 해명했어?' (a facet)."""
_ALSO_ONE = re.compile(r"(?:건|것|거|경우|사례|문제|지적|데|곳)도\s*(?:있었|있던|있지\s*않았|있잖|있나|있어|있니|있을까|있대)")
_ALSO_BODY = re.compile(r"(?:지자체|기관)도\s*(?:있었|있던|있잖|있나|있어|있니|있을까|있대)"
                        r"|(?:결과|의혹|건|사례|지적|문제)도\s*(?:있으면|감사했|감사한|다뤘|다룬)")
"""'오리농장 옮기면서 영업보상을 과하게 준 지자체도 있어?', '군의관 복무 관리가 엉망이라고 지적한 감사 결과도 있으면 …', '…
무자격이었다는 의혹도 감사했어?': another body, or another matter, too, when the question has a word no report uses ('오리',
'군의관'); not '전력 수요 자료를 요청한 지자체도 있었어?' in the reports' words (who was involved in the case shown)."""
_ALSO_TOLD = re.compile(r"(?:얘기|이야기|내용|대목)도\s*(?:나오|나왔|나와|있었|있던|있지(?!만)|있잖|있더|있나|있어|있니|봤)")
"""'X 얘기도 나오던데 …', 'X 얘기도 있었지?': something else the report shown also told of, asked about (``_sibling``)."""
_RECOVERED = frozenset("환수 회수 추징 반납 환급 원상회복 변상".split())
"""Money got back, asked of the case shown ('환수 얘기도 나왔어?'): no subject of its own (``_sibling``)."""
_CASE_NOUN = re.compile(r"(?:(?<![조물안사요용여문인])건|사례|케이스|(?<![가-힣])(?:거|것)|문제|지적)(?:은|는|이|가|도|을|를)?(?![가-힣])")
_DISPOSITION_PHRASE = re.compile(r"(?<!사전)(?:" + "|".join(DISPOSITIONS) + r"|변상\s*명령)\s*(?:요구|명령|처분|촉구)?")
_ANOTHER = re.compile(r"(?<![가-힣])또\s*(?:있|나왔|걸렸|적발)|다른\s*(?!점|차이)\S{1,6}도\s*(?:있|나왔|걸렸|적발)")
"""'같은 부처 감사에서 징계 요구까지 간 직원이 또 있어?', '… 징계 받은 다른 직원도 있어?': another finding of that report."""
_LIKENED = re.compile(r"(?<![가-힣])(?:다른|비슷|유사|이런(?!저)|그런(?!데)|저런)|같은")
_DISPOSITION_NAMED = re.compile(r"(?<!사전)(?:" + "|".join(DISPOSITIONS) + r")(?!\s*깊|사업|의무|사직|방안|계획)")
ALSO_WORDS = 3
"""'X 건도 있었지?', 'X 것도 있나?' with no pointer to what was shown and no likeness to it ('다른', '비슷한', '이런'):
whether there was another case besides the one shown, in this many content words or more (9 of the 10 later turns
of the dev conversations this rule decides pivot). Not '회수한 것도 있어?' of the case shown, nor one naming a
disposition ('징계 요구된 것도 있어?', '목표를 세우라고 권고한 것도 있어?'; not '개선사업', '사전통보'): facets."""
_MORE_CASES = re.compile(r"사례|케이스|(?:더|또)\s*(?:있|찾|알려|보여)|\bmore\b|\bcases\b|\bexamples\b", re.I)
"""Asks for (more) cases, not about one: '보조금 부당 지급 사례 더 있어?'."""
_ASKED_OF_A_CASE = frozenset({*DISPOSITIONS, "여부", "판정", "신분", *"형사 혐의 죄명 재판 기소 징역 선고 형량 처벌".split()})
"""What one asks of a case shown, as a facet: its dispositions ('처분 수위랑 고발 여부'), and what became of it in
the criminal courts ('형사 쪽은 어떤 혐의로 넘겼는데', '형사 재판에서 몇 년 형을 받았는지도 나와 있어?': the six later
turns of the dev conversations that use such words all follow up)."""
_OF_THE_CASE = CASE_PEOPLE | frozenset("구청 군청 시청 도청".split())
"""Who in the case shown, and its institution by its office ('구청 담당자 징계는 안받았어?' after a 해운대구 case,
'관리 제대로 안 한 윗선은?' after an embezzlement),
when the question says nothing else: no subject of its own (not '구청이 앱 만들어놓고 아무도 안 쓴 사례도 있나')."""
_AMOUNT = re.compile(r"얼마|how much", re.I)
_QUANTITY = re.compile(r"얼마|몇\s*(?:척|명|개|곳|군데|건|퍼센트|프로|차|배|억|만|%)|어느\s*정도|(?<![소대중])규모|액수|\bhow (?:much|many)\b", re.I)
QUANTITY_WORDS = 3
"""A number asked of the case shown ('빼돌린 금액은 얼마고 환수는 끝났나', '인건비로 버린 돈은 어느 정도?', '과태료 처분에서
빠진 선박은 몇 척이었어?'): in this many content words or fewer, one of them the case's, the others say what the number is
of, which the passages shown need not hold; they alone do not make it a new search (another finding that matches it
clearly, cases asked for, or a return to another case still do: not '지방공항 적자 규모는?' after a taxi case)."""
_MONEY = frozenset("세금 혈세 예산 돈 국고 비용 낭비 손실 손해 버리 날리 money cost costs loss wasted waste".split())
"""Asked with '얼마' and nothing else, the money words say which amount ('세금은 얼마나 낭비됐대'), not what the case is."""
_MONEY_LOST = frozenset("낭비 손실 손해 버리 날리 wasted waste loss".split())
"""Money words that say it was lost: with nothing else, how much the case shown lost."""
_LIKENESS = frozenset("비슷하 유사하 유사 다르 같 또 기관 지자체 부처 곳 similar other another like institution institutions agency agencies".split())
"""Words that ask for more cases like one shown (elsewhere), not for a pattern of their own."""
BARE_NAME_CHARS = 10
"""A question of at most this many characters (spaces aside) that names a proper noun can be that name alone."""
STRONG_MATCH = 0.4
"""A finding matches a question clearly when the finding ranker gives it at least this probability."""
SHOWN_SHARE = 0.8
"""A question follows the findings shown when the best of them scores this share of the best finding's."""
CONTEXT_SHARE = 0.67
"""A pattern no finding matches clearly follows when this share of its words come from what was shown."""

UNKNOWN_SUBJECT = 2
"""A question asking whether anything was flagged, or for other cases, in this many words no report uses ('스키장',
'리프트'; '지하수', '엉망'), asks about a subject of its own, whatever else it shares with the case shown ('가격 관리' of
a golf-course case)."""

IDF_SPECIFIC = 2.0
"""A term is specific to the corpus when it occurs in fewer than ~1 in 8 chunks."""


def load_examples() -> list[tuple[str, str]]:
    text = resources.files("app.policies.offline").joinpath("route_examples.tsv").read_text(encoding="utf-8")
    return [(row["track"], row["text"]) for row in csv.DictReader(text.splitlines(), delimiter="\t")]


class OfflineRouter:
    def __init__(
        self, embedder: Embedder, catalog: Catalog, domain_terms: set[str], idf: Callable[[str], float | None] | None = None,
        best_findings: Callable[[str], list[tuple[str, str, float]]] | None = None,
        content_terms: Callable[[str], set[str]] | None = None, manual_vocabulary: Callable[[], frozenset[str]] | None = None,
    ) -> None:
        """``best_findings(question)``: the (finding id, report id, probability) of the findings
        that best match a question's problem pattern, best first (the retriever's finding
        ranking); ``content_terms(question)``: its key terms as the reports' words (English
        mapped by the glossary; by default the plain key terms); ``manual_vocabulary()``: the
        terms the audit manual uses (``manual.asks_about_manual``)."""
        self.embedder, self.catalog, self.domain_terms = embedder, catalog, domain_terms
        self.idf = idf or (lambda _term: None)
        self.best_findings = best_findings
        self.content_terms = content_terms or key_terms
        self.manual_vocabulary = manual_vocabulary or frozenset
        self.examples = [(t, x) for t, x in load_examples() if t != "report"]
        self._example_vecs: np.ndarray = embedder.embed_queries([t for _, t in self.examples])

    def nearest_track(self, question: str) -> tuple[str, float]:
        """The track whose two nearest examples are most similar on average."""
        sims = self._example_vecs @ self.embedder.embed_queries([question])[0]
        best: tuple[str, float] = ("chat", -1.0)
        for track in (t for t in TRACKS if t != "report"):  # report is found by pattern, not by example
            scores = sorted((float(s) for (t, _), s in zip(self.examples, sims, strict=True) if t == track), reverse=True)
            mean = sum(scores[:2]) / max(len(scores[:2]), 1)
            if mean > best[1]:
                best = (track, mean)
        return best

    def _corpus_content(self, terms: set[str]) -> bool:
        """Most of the question's terms occur in the corpus and one of them is specific to it."""
        idfs = [self.idf(t) for t in terms]
        known = [v for v in idfs if v is not None]
        return bool(known) and len(known) * 2 >= len(terms) and max(known) >= IDF_SPECIFIC

    def route(self, question: str, history: list[Turn], retained: list[Doc]) -> RouteDecision:
        q = question.strip()
        previous = history[-1].track if history else None
        institutions = self.catalog.find(q)
        y0, y1 = years(q)
        disp = dispositions(q)
        terms = key_terms(q)
        named = bool(institutions or disp or (terms | self.content_terms(q)) & self.domain_terms)
        ords = ordinals(q)
        noun_pointed = _points_at_shown(q, retained)  # '그 선주들한테 …'
        anaphora = anaphoric(q) or bool(_DEICTIC.search(q) or _DEMONSTRATIVE.search(q)) or noun_pointed
        sql_intent = bool(_COUNT.search(q) or _LIST.search(q) or _GROUP.search(q) or _TOP.search(q) or self._bare_count(q))

        refines = False
        manual = False
        same_report = False
        if not q:
            track, why = "chat", "empty message"
        elif not institutions and y0 is None and asks_about_manual(
            q, self.manual_vocabulary(), in_its_words=False, reports_use=lambda t: self.idf(t) is not None
        ):  # '보고서에 어떻게 써?' asks the manual, not for a draft
            track, why, manual = "deep", "asks what the audit manual says", not (ords or anaphora or self._of_shown(q, retained))
        elif _REPORT.search(q) and _CAPABILITY.search(q) and not _DEICTIC.search(q) and not institutions:
            track, why = "chat", "asks whether drafting is possible"
        elif _REPORT.search(q) and (_DRAFT_ASKED.search(q) or not (_WRITTEN_IN.search(q) or _CASES_REQUESTED.search(q) or (
            _IN_DOCUMENT.search(q) and (_ALSO_ONE.search(q) or _CASES_ASKED.search(q) or _FLAGGED_ANY.search(q))
        ))):
            track, why = "report", "asks for a document draft"
        elif previous == "report" and _EDIT.search(q):
            track, why = "report", "edits the draft"
        elif _HELP.search(q) or (_CHAT.search(q) and not (named and (_MORE.search(q) or "?" in q or sql_intent))) or (
            _SMALL_TALK.search(q) and not (institutions or disp)
        ) or (_CHATTER.search(q) and not (named and (_MORE.search(q) or "?" in q or sql_intent)) and not self._pattern_asked(q, terms)
              and not (retained and (anaphora or ords))):  # not '그 공무원 주말에 출근은 한 거야?' of a case shown
            track, why = "chat", "greeting, thanks, help, small talk or a question about the conversation"
        elif sql_intent and not ords:
            track, why = "fast", "count / list / group / top-N over findings"
        elif previous == "fast" and _REFINE.search(q) and len(q) <= 40 and not (ords or _MORE.search(q) or _WHY.search(q) or _CASE_REF.search(q)):
            track, why, refines, sql_intent = "fast", "refines the previous lookup", True, True
        elif ords or anaphora or _MORE.search(q):
            track, why = "deep", "asks about specific results in detail"
        elif named or self._corpus_content(terms) or self._corpus_content({t for t in self.content_terms(q) if re.search(r"[가-힣]", t)}):
            track, why = "deep", "audit question about the reports' content"  # English: the reports' words its glossary names ('loans' -> 융자)
        else:
            track, score = self.nearest_track(q)
            why = f"nearest labelled examples ({score:.2f})"
            if track in ("chat", "fast") and previous == "deep" and retained and _ASKS.search(q):
                track, why = "deep", "a question, right after a case was shown: about that case"  # 'Was any money recovered?', 'how many times …?'
            elif track == "chat" and _CASES_ASKED.search(q) and any(self.idf(t) is not None for t in self._content(q)):
                track, why = "deep", "asks whether there were such cases"  # '표창 쪽으로 이상하게 준 건 없었어' (Kiwi: 표 + 창)
            elif track == "chat" and _searches_anything(q) and not _PERSONAL.search(q):
                track, why = "deep", "asks whether the reports hold anything on a subject"  # 'Anything on 5G spectrum auction
                # pricing?', in words no report or glossary has: searched, and declined when nothing answers

        query = q
        relax_period, relax_org = bool(_RELAX_PERIOD.search(q)), bool(_RELAX_ORG.search(q))
        restated, matched = False, None
        after_manual = bool(history) and history[-1].source == "manual"  # it retained nothing, yet found what it was asked
        declined = bool(history) and history[-1].coverage == "none"  # (a pivot that found nothing keeps what was shown before it)
        if manual:  # a new question about the manual: no case it could refer to, and the cases shown stay retained
            follow_up, pivot = False, False
        elif history and track != "report" and not sql_intent and (relax_period or relax_org) and not institutions and y0 is None:
            track, restated = "deep", True
            query, institutions, (y0, y1) = self._relaxed(history[-1].question, q, relax_period, relax_org)
            follow_up, pivot, why = True, False, "asks the last question again without its " + (
                "period" if relax_period and not relax_org else "institution" if not relax_period else "scope")
        elif track == "deep" and (declined or not retained) and previous == "deep" and not after_manual and not sql_intent and (
            _AT_LEAST.search(q) and len(self._content(q)) >= 2
        ):  # the last deep turn found nothing; this one asks for anything on a subject of its own, searched as written
            follow_up, pivot, why = True, False, "asks for anything at all after the last question found nothing"
        elif track == "deep" and not retained and previous == "deep" and not after_manual and not sql_intent and (
            anaphora or (not institutions and not named_organisations(q) and len(self._content(q)) <= 1)
        ):  # the last deep turn found nothing: '장성군 그 농업법인은 뭘 했길래', '농지 관련된 것만이라도 없어?'; not 'Is KEPCO involved?'
            restated = True
            query, last_orgs, last_years = self._relaxed(history[-1].question, q, False, False)
            institutions = institutions or last_orgs
            if y0 is None:
                y0, y1 = last_years
            follow_up, pivot, why = True, False, "asks about the last question, which found nothing"
        elif track == "deep" and not ords and self._sibling(q, retained):
            follow_up, pivot, same_report = False, True, True
            why += "; asks about another finding of the report shown"
        else:
            follow_up, pivot, matched = self._continuity(q, track, institutions, ords, anaphora, history, retained, y0, y1)
            if pivot and track == "deep" and self._of_shown(q, retained) and asks_about_manual(q, self.manual_vocabulary()):
                # in words the audit manual uses too, of the case just shown ('정산보고서 안 낸 지자체는 몇 곳이야?' after a
                # settlement case): about that case, which a new question would take for one about the manual
                follow_up, pivot, why = True, False, why + "; of the case shown, in words the manual uses too"
        content = self._content(without_return(q), keep_money=goes_back(q))  # not '처음', '물어보' of '처음 물어본 SW 대가 건'
        back_to = self._goes_back_to(q, retained)
        returning = bool(history) and goes_back(q) and bool(content) and not back_to  # to a case the last answer does not show
        period = _other_period(y0, y1, retained) or _other_fiscal_year(q, retained)
        own_time = _own_time(q, y0, y1, retained, content) if period else []
        other_period = period and not _CASE_REF.search(q) and not own_time  # not '그 건 2026년까지 고치라고 한 거야?'
        written = bool(ords)  # numbers the message wrote; those set below resolve a reference to the last answer's cases
        if follow_up and own_time and not ords and not (restated or sql_intent or disp or _OTHER.search(q) or _OTHER_CASES.search(q) or _asks_like_shown(q)):
            ords, y0, y1 = own_time, None, None  # that case, not a search filtered to that year
            why += "; a year the case shown tells"
        if follow_up and len(ords) == 1 and len(content) >= 2 and (by_title := _named_case([content], retained, by_text=False)) and by_title != ords:
            cases = _shown_cases(retained)
            at = key_terms(cases[ords[0] - 1][0].get("finding_title") or "") if ords[0] <= len(cases) else set()  # (a written place counts
            # in the last answer's list, which the retained cases follow unless a follow-up narrowed them)
            if len(content & at) * 2 < len(content):  # not '첫 번째 거 보조금 환수는?' of a 보조금 case, another's title aside
                ords, written = by_title, False  # '세 번째 거, 하수도정비 중점관리지역 사업 얘기': the case its words name by title
                why += "; the case its words name by title, not the one at that place"
        if follow_up and ords and history and min(ords) > len(_shown_cases(retained)):
            parts = enumerated(history[-1].question)
            if len(parts) >= ords[0]:  # '…인가 건이랑 전주 등 집수리 지원 건 둘 다 알려줘' -> '두번째 거 자세히'
                query, ords, restated = parts[ords[0] - 1], [], True
                why += "; the ordinal names one of the things the last question listed"
        # other cases than the one shown, which the search leaves out: like it ('그럼 다른 기관에서 비슷한 사례는?',
        # '용역 쪽 비슷한 사례는?': its pattern searched) or of a pattern of their own ('감정평가 관련해서 다른 사례는?')
        other_cases = (follow_up or pivot) and track == "deep" and not restated and bool(retained) and bool(
            _OTHER_CASES.search(q) or _asks_like_shown(q)) and not _SAME_REPORT.search(q)
        pattern_shown = self._shown_pattern(ords, retained) if other_cases else ""
        other_cases = bool(pattern_shown)  # a shown case without a title is no pattern to leave out
        shown = pattern_shown if follow_up and len(content) <= 1 else ""
        in_report = follow_up and track in ("deep", "fast") and not sql_intent and bool(retained) and bool(
            REPORT_ANAPHORA.search(q)) and bool(_OTHER_CASES.search(q) or _REST.search(q) or self._also_in_report(q, retained) or (
            _ANOTHER.search(q) and not _points_again(q)))  # not '같은 감사에서 이 직원이 또 …'
        if in_report:  # '같은 감사에서 다른 지적은 뭐 있었어': that report searched (``fields.REPORT_ANAPHORA``), the cases shown left out
            other_cases = True
            if _SIMILAR.search(q) and len(content) <= 1:  # '같은 감사에서 비슷한 사례도 있어?': like the case shown
                query = " ".join([self._shown_pattern(ords, retained), *sorted(content)]).strip()
            ords = list(range(1, len(_shown_cases(retained)) + 1))  # every case shown is left out (the route node's exclusion)
            why += "; asks for the report's other findings"
        elif shown:
            query = " ".join([shown, *sorted(content)])
            why += "; asks for other cases like the one shown"
        elif other_cases:
            why += "; asks for other cases than the one shown"
        elif follow_up and not ords and back_to:
            ords = back_to  # '아까 검사 안받은 배 건으로 돌아가서 해경한테 …': the case it goes back to
        elif follow_up and not restated and not ords and not institutions and not _OTHER.search(q) and not other_period and (
            _CASE_REF.search(q) or _DEMONSTRATIVE.search(q) or noun_pointed or len(content) <= 1
            or (_THERE.match(q.strip()) and len(_shown_cases(retained)) == 1 and not _asks_elsewhere(q) and _held(content, _seen(retained)) * 2 >= len(content))
            # '거기 처음에 결정된 보상금은 얼마였어?': the one case shown, asked in its words
        ) and not (_SAME_REPORT.search(q) and content):  # not '사후평가 안 한 것도 같은 보고서에 있었지? 그건…' (searched there)
            # nor '걔네 2023년 감사 땐 이런 지적 없었나?' (another period)
            wordwise = set().union(*(self._content(w) for w in q.split())) - ((_OF_THE_CASE | _MONEY) - content)  # not what the whole reading dropped ('낭비된 예산은?': no 예산 case)
            # '그 건 …' names that case by title at most; '그 공사 시공사는 …', '그 직원은 …' by its passages too
            ords = _named_case([content, wordwise], retained, by_text=not _CASE_REF.search(q)) or ([] if returning else [1])
            # else the case the answer led with, unless it goes back to another ('아까 그 하수도 건은' names none of them)
        elif follow_up and not restated and not ords and institutions and not _OTHER.search(q) and not sql_intent and not (
            _ALSO_ONE.search(q) or _CASES_ASKED.search(q) or _INSTEAD.search(q) or re.search(_NEVER_MIND, q) or asks_for_several(q)
        ) and (by_title := _named_case([content], retained, by_text=False)) and self._naming(q, institutions, _shown_cases(retained)[by_title[0] - 1]):
            ords = by_title  # '택시 감차 건은 강릉시장한테도 뭐가 갔어?' after a listing: the case its words name by title, whoever it names
        elif follow_up and not restated and not ords and institutions and not _OTHER.search(q) and not sql_intent and (
            len(content) <= 1 or _THIS_CASE_AT.search(q)
        ):
            ords = self._naming(q, institutions, retained)  # '국토부한테는 뭘 하라고 했어?': the shown case that names it
            if not ords and _THIS_CASE_AT.search(q) and len(_shown_cases(retained)) == 1 and not (
                _LIKENED.search(q) or "처럼" in q or _asks_elsewhere(q) or _OTHER_CASES.search(q)
            ):
                ords = [1]  # '충남 태안군은 이 건에 왜 같이 엮여 있는 거야?': the one case shown, whoever its text names
            if not ords and not (_SAME_REPORT.search(q) or REPORT_ANAPHORA.search(q) or asks_for_several(q)):  # '행안부 건 관련 법령은?': its finding on the pattern shown ('그 감사에서 …': that report)
                query = f"{self._shown_pattern([], retained)} {q}".strip()
                why += "; the institution's case on the pattern shown"
        elif follow_up and matched and not ords and not institutions and not _OTHER.search(q) and not sql_intent and (
            facets(q) or not _MORE_CASES.search(q)
        ) and (not returning or self._clearly_first(q, retained, matched)):  # going back: to the case the ranker puts first, clearly
            ords = [matched]  # '지방의회 의결 안 받은 거 근거 조항은': the shown case it matches about as well as anything
        return RouteDecision(
            reasoning=why,
            track=track,
            follow_up=follow_up,
            pivot=pivot,
            sql_intent=track == "fast" and sql_intent,
            refines_previous=refines,
            ordinals=ords,
            ordinals_in_list=bool(ords) and written and not other_cases,  # other cases like one shown: numbered as retained
            institutions=institutions,
            year_from=y0,
            year_to=y1,
            dispositions=disp,
            search_query=query,
            other_cases=other_cases,
            goes_back=returning,
            same_report=same_report,
        )

    def _relaxed(self, last: str, q: str, drop_period: bool, drop_org: bool) -> tuple[str, list[str], tuple[int | None, int | None]]:
        """The last question's pattern and scope, without the part now dropped, plus what this
        question adds ('상수도 쪽'): (search query, institutions, years)."""
        institutions = [] if drop_org else self.catalog.find(last)
        period = (None, None) if drop_period else years(last)
        pattern = _YEAR_WORDS.sub(" ", last) if drop_period else last
        if drop_org:  # the names as written: held institutions by any of their forms ('해수부'), others by suffix
            for form in sorted((f for f in self.catalog.aliases if f in squash(pattern)), key=len, reverse=True):
                pattern = re.sub(r"\s*".join(map(re.escape, form)), " ", pattern)
            for name in named_organisations(pattern):
                pattern = pattern.replace(name, " ")
        rest = _RELAX_PERIOD.sub(" ", _RELAX_ORG.sub(" ", q))
        added = key_terms(rest) - FACET_TERMS - FUNCTION_WORDS - key_terms(pattern)
        return re.sub(r"\s+", " ", f"{pattern} {' '.join(sorted(added))}").strip(), institutions, period

    def _continuity(
        self, q: str, track: str, institutions: list[str], ords: list[int], anaphora: bool, history: list[Turn],
        retained: list[Doc], y0: int | None = None, y1: int | None = None,
    ) -> tuple[bool, bool, int | None]:
        """(follow_up, pivot, matched). Only meaningful when documents are retained from earlier
        turns. ``matched`` is the position (1-based, as shown) of the shown finding a follow-up
        matches, when that match is why it follows: the ranker's, or the one case whose words (or
        the conversation's) it uses.

        A reference ('그 건', '이 직원', 'same audit') follows, and so do cases 'like this' unless
        they name a new organisation or period; a new organisation, institution or
        period pivots. Otherwise the question's own content decides: with at most one content
        word it asks about what was shown ('처분은?', '금액은 얼마였어'), unless that word matches
        another finding strongly ('메타프로방스 건은?'); a question asking for other cases follows
        when its pattern is the one shown (most of its IDF-weighted words are in what was shown)
        and pivots when the pattern is its own (or named in words no report or turn has used); it follows when a finding shown scores near the
        best one (at whatever level: '누가 책임졌어' matches nothing much, but what was shown as
        well as anything), pivots when it asks in English for anything on a subject of its own
        (``_searches_anything``), when it asks whether there was another case too in words of its own
        ('… 건도 있었나?', ``_ALSO_ONE``), when it asks whether anything was flagged on a subject of its own
        (``_FLAGGED_ANY``, unless the ranker puts a shown case first) or when a
        finding not shown matches it clearly, and otherwise follows when its words come from what
        was shown or it asks in reported speech what the report said (``_REPORTED``)."""
        if not retained or track == "chat":
            return False, False, None
        if _NEW_TOPIC.search(q):
            return False, True, None
        seen = _seen(retained)
        done = _DONE_WITH.search(q)
        if done and self._own_subject(q[done.end():], seen):
            return False, True, None
        if anaphora and not ords and self._new_organisation(q, seen + _said(history), latin_only=True):
            return False, True, None  # 'Did Gyeonggi province get flagged for that kind of thing?': that pattern, another body
        if ords or anaphora or _SAME_REPORT.search(q):
            return True, False, None
        if self._goes_back_to(q, retained):
            return True, False, None  # '아까 검사 안받은 배 건으로 돌아가서 해경한테 …': the case it goes back to, whoever it names
        aside = _ASIDE.search(q)
        if aside and len(self._content(q[aside.end():])) >= 2 and not (_LIKE_SHOWN.search(q) or _OTHER_CASES.search(q)):
            return False, True, None  # a subject of its own after it; not '얘기 나온 김에 금액은 얼마였어?'
        if self._new_organisation(q, seen):
            return False, True, None  # '태권도진흥재단 감사 결과는 있어?'
        if self._new_place(q, seen + _said(history)):
            return False, True, None  # '가덕도 신공항 수요예측은 감사 안 했어?'
        if _searches_anything(q) and not (_OTHER_CASES.search(q) or _LIKE_SHOWN.search(q) or self._of_shown(q, retained)
                                          or (institutions and _overlaps(institutions, retained))):
            return False, True, None  # 'Is there anything on anti-doping testing at national sports events?'; not
            # 'Anything on the rental housing demand survey?' of a case about it
        content = self._content(q)
        if _other_period(y0, y1, retained) and not _own_time(q, y0, y1, retained, content) and not (
            _OTHER_CASES.search(q) or _asks_like_shown(q)
        ):
            return False, True, None  # another period, of the same institution too: '2022년 문체부 감사에선 뭐 나왔었지'
            # ('2020년 담양군 감사에서도 비슷한 거 나왔었어?', '2021년에도 이런 거 있었어?' ask for what was shown, then: below)
        if _LIKE_SHOWN.search(q):
            return True, False, None  # '이렇게 … 부실해진 다른 건도': the pattern shown, whatever the words
        instead = _INSTEAD.search(q)
        if instead and self._own_subject(instead.group(2), seen):
            return False, True, None  # '농지 말고 산지 쪽은 복구비 안 받고 산지전용 수리해준 거': a pattern of its own, not one shown
        if _CONVERSELY.search(q) and _OPPOSITE_ASKED.search(q) and len(self._content(_CONVERSELY.sub(" ", q))) >= 2:
            return False, True, None  # '반대로 보상금을 너무 후하게 잡은 감정평가 사례는?': the opposite case, another one
        if _ALSO_ONE.search(q) and not (_LIKENED.search(q) or _DISPOSITION_NAMED.search(q)) and len(self._content(q)) >= ALSO_WORDS:
            return False, True, None  # '감정평가사 평가를 그대로 믿고 영업손실 보상을 과하게 책정하려던 지자체 건도 있나?': another case
        context: set[str] = set()  # the words of what was shown and of the last question
        for d in retained:
            context |= key_terms(f"{d.get('heading', '')}\n{d.get('text', '')}")
        if history:
            context |= key_terms(history[-1].question)
        if _ALSO_BODY.search(q) and not (_LIKENED.search(q) or _DISPOSITION_NAMED.search(q)) and len(content) >= ALSO_WORDS and (
            self._unknown(content, context, history)
        ):
            return False, True, None  # '오리농장 옮기면서 영업보상을 과하게 준 지자체도 있어?': another body, in a word no report uses
        ranked: list[tuple[str, str, float]] | None = None  # the finding ranker's, read once, when a rule needs it
        flagged = _FLAGGED_ANY.search(q) or _CASES_ASKED.search(q)
        if flagged and not (_OTHER_CASES.search(q) or _asks_like_shown(q)) and (
            self._own_subject(q[: flagged.start()], seen + _said(history))
            or self._unknown(self._content(q[: flagged.start()]), context, history) >= UNKNOWN_SUBJECT
        ) and not _shown_first(ranked := self._ranked(q), retained):  # (its subject: what comes before '… 지적된 거 있어', not '경우', '사례')
            return False, True, None  # '스키장 리프트 요금이나 시즌권 가격 관리 문제도 지적된 거 있어?': cases of a subject the case shown never names
        others = "|".join(map(re.escape, named_organisations(q)))
        own = self._content(re.sub(others, " ", q) if others else q)
        demanded = bool(_DEMANDED.search(q)) and len(own) <= 4 and _held(own, seen) * 2 >= len(own) and not (
            _OTHER_CASES.search(q) or _asks_like_shown(q)
        )  # '부산광역시 조례는 어떻게 바꾸래', '감정평가 한 회사는 처리 어떻게 하래': what the case shown demanded (of whom), in its words
        if institutions:
            if not _overlaps(institutions, retained) and not self._mentioned(q, institutions, seen):
                return False, True, None
            if len(content) <= 1 or demanded:  # '담양군은 뭐 하라고 했어'
                return True, False, None
        elif demanded:
            return True, False, None
        elif question_kind(q) == "actions" and (addressed := _addressed(q, retained)) and not (
            _OTHER.search(q) or _OTHER_CASES.search(q) or _asks_like_shown(q) or _CASES_ASKED.search(q)
        ) and (len(rest := self._content(q.replace(addressed[1], " "))) <= 2
               or _held(rest, _seen(_shown_cases(retained)[addressed[0] - 1])) * 2 >= len(rest)):  # (that case's words)
            return True, False, addressed[0]  # '개발원장 앞으로 별도로 나간 요구사항도 있어?': the case shown that addressed them
        elif track == "report":
            return True, False, None
        ranked = self._ranked(q) if ranked is None else ranked
        kept = {d.get("finding_id") for d in retained}
        best = ranked[0][2] if ranked else 0.0
        shown = max((p for f, _, p in ranked if f in kept), default=0.0)
        elsewhere = bool(ranked) and ranked[0][0] not in kept and best >= STRONG_MATCH
        if len(content) <= 1:  # another facet of what was shown; not a name alone that nothing shown or said holds ('익산은?')
            if (elsewhere and content - context) or self._bare_name(q, content, seen + _said(history)):
                return False, True, None
            return True, False, None
        if _OTHER_CASES.search(q):  # other cases: like those shown when its pattern is theirs ('감차보상 관련해서 다른 지역 사례도 있어?'),
            # else a pattern of its own ('유지관리 관련해서 다른 사례 없어? 바닷가 시설 같은 거')
            # ('다른 데도 지하수 관정 관리 엉망인 거 있어?': in words no report uses, a subject of its own, whatever else it shares)
            like = self._weighted_coverage(content, context) >= CONTEXT_SHARE and self._unknown(content, context, history) < UNKNOWN_SUBJECT
            return (True, False, None) if like else (False, True, None)
        if ranked and shown >= SHOWN_SHARE * best:
            order = [c[0]["finding_id"] for c in _shown_cases(retained)]
            top = max(((p, f) for f, _, p in ranked if f in kept), default=(0.0, None))[1]
            return True, False, order.index(top) + 1 if top in order else None
        if elsewhere:
            return False, True, None
        if _compound_coverage(content, context) < CONTEXT_SHARE and not (
            (_reported(q) or (_WRITTEN_THERE.search(q) and content & context and len(content - context) <= WRITTEN_NEW_WORDS)) and not _OTHER.search(q)
        ) and not (
            _QUANTITY.search(q) and len(content) <= QUANTITY_WORDS and content & context and not goes_back(q)
            and not (_CASES_ASKED.search(q) or _MORE_CASES.search(q))
        ):  # not '…누구였대?', '빼돌린 금액은 얼마고 …' (a word of the case shown, no cases asked, no return elsewhere)
            return False, True, None
        shown_cases = _shown_cases(retained)  # its words are those of what was shown: of the one case shown, or of the one they name
        return True, False, 1 if len(shown_cases) == 1 else (_named_case([content], retained) or [None])[0]

    def _also_in_report(self, q: str, retained: list[Doc]) -> bool:
        """'같은 감사에서 골프장 얘기도 있었지?', '이 보고서에 … 앱 만들었다는 것도 있었던 것 같은데': another case of that
        report, in words of its own; not a case shown, named by its words ('그 보고서에 사업기간 짧게 잡은 문제도 있었지?'),
        nor what became of the case shown ('그 보고서에 환수 얘기도 나왔어?', '… 징계 얘기도 있었어?')."""
        if not (_ALSO_ONE.search(q) or _ALSO_TOLD.search(q)) or _DISPOSITION_NAMED.search(q) or dispositions(q):
            return False
        words = self._content(REPORT_ANAPHORA.sub(" ", q)) - _RECOVERED
        return bool(words) and not _named_case([words], retained)

    def _pattern_asked(self, q: str, terms: set[str]) -> bool:
        """A problem pattern asked about, in words of small talk too ('동호회가 공공 테니스코트 주말 예약을 독차지한 문제',
        '주말에 관용차 쓴 사례?'); not '주말인데 출근해서 감사자료 보고 있어', '날씨가 추워서 현장 실사 힘들었어'."""
        if not _PROBLEM_ASKED.search(q):
            return False
        rest = {t for t in terms if not _CHATTER.search(t) and not _PROBLEM_ASKED.fullmatch(t)}
        return len(rest) >= CHATTER_TERMS and self._corpus_content(rest)

    def _sibling(self, q: str, retained: list[Doc]) -> bool:
        """Something else the report shown told of, asked about ('장성군 얘기도 나오던데 그건 뭐야', '골프장 얘기도
        있었지?' after a 테니스장 case): a subject of its own (not a disposition, not one like the case shown, not pointed
        at it) that a finding of the report the answer led with, not shown, matches clearly (``STRONG_MATCH``) and
        better than the cases shown; or another problem of that report named in two words of its own or more, whatever
        disposition is asked of it ('같은 감사에서 민자로 다기능 시설 짓겠다는 계획만 믿고 어항을 골랐던 건은?', '그 보고서에서
        포상 제한자를 … 표창받게 한 건은 징계가 몇 명한테 요구됐어?'; not '같은 감사에서 다른 지적은?', '그 감사에서 환수 얘기는?',
        '같은 감사에서 징계 나온 건?')."""
        told = _ALSO_TOLD.search(q)
        report = None if told else (REPORT_ANAPHORA.search(q) or _SAME_REPORT.search(q))
        if not (told or report) or not retained or (report and (_REST.search(q) or _OTHER_CASES.search(q))):
            return False  # (that report's other findings asked for as such, one of them named: '거기 다른 지적 중에 항만 사용료 건은?')
        text = q if told else f"{q[: report.start()]} {q[report.end():]}"  # '같은 감사에서' likens nothing
        if _LIKENED.search(text) or (told and (_DISPOSITION_NAMED.search(q) or dispositions(q))):
            return False
        if report and (_DISPOSITION_NAMED.search(q) or dispositions(q)):  # a disposition asked of a case of that report named
            if not _CASE_NOUN.search(text):  # in its own words ('그 보고서에서 포상 제한자를 … 표창받게 한 건은 징계가 몇 명한테
                return False  # 요구됐어?'), not of the people the case shown names ('그 감사에서 변상명령 받은 사람은 누구야?')
            text = _DISPOSITION_PHRASE.sub(" ", text)
        subject = q[: told.start()] if told else text
        if _DEICTIC.search(subject) or _DEMONSTRATIVE.search(subject) or _CASE_REF.search(subject) or anaphoric(subject) or (
            _points_at_shown(subject, retained)
        ):
            return False  # '그 건에서 관리 감독 얘기도 나왔어?', '이 직원 형사 처벌 얘기도 있었어?': of the case shown
        words = self._content(subject) - _RECOVERED
        if not (words or self.catalog.find(subject)) or (report and (len(words) < 2 or _held(words, _seen(retained)) * 2 >= len(words))):
            return False  # '환수 얘기도 나왔어?': what became of the case shown; '그 감사에서 주말 예약 독점 기간은?': its words
        kept = {d.get("finding_id") for d in retained}
        lead = _shown_cases(retained)[0][0].get("report_id")  # the report the route node then searches
        ranked = self._ranked(subject)
        shown = max((p for f, _, p in ranked if f in kept), default=0.0)
        if report:  # that report named: its finding the words match best, the cases shown clearly behind (``SHOWN_SHARE``)
            other = max((p for f, r, p in ranked if r == lead and f not in kept), default=0.0)
            return other > 0.0 and shown < SHOWN_SHARE * other
        return any(r == lead and f not in kept and p >= STRONG_MATCH and p > shown for f, r, p in ranked)

    def _clearly_first(self, q: str, retained: list[Doc], n: int) -> bool:
        """The shown case at position ``n`` is the finding ranker's first for the question, clearly ahead of any other
        (``_shown_first``): not a tie among findings that all match nothing."""
        cases = _shown_cases(retained)
        ranked = self._ranked(q)
        return 0 < n <= len(cases) and _shown_first(ranked, retained) and ranked[0][0] == cases[n - 1][0].get("finding_id")

    def _ranked(self, q: str) -> list[tuple[str, str, float]]:
        return self.best_findings(q) if self.best_findings is not None else []

    def _bare_count(self, q: str) -> bool:
        """'몇 건 / 몇 개' with nothing to count but findings: the question names no word beside
        institutions and a period ('해수부 몇 건이야?', '작년엔 몇 개였어?', '총 몇 건이야?'; not '위반 몇
        건이었어?', nor '이런 거 몇 건이나 있어?' about a case shown)."""
        if not _BARE_COUNT.search(q) or _LIKE_SHOWN.search(q) or _DEICTIC.search(q):
            return False
        words = self.content_terms(_YEAR_WORDS.sub(" ", q)) - FUNCTION_WORDS
        return not [t for t in words if not (self.catalog.find(t) or self.catalog.find(t.upper()))]

    def _unknown(self, words: set[str], context: set[str], history: list[Turn]) -> int:
        """How many of ``words`` no report uses and neither what was shown (``context``) nor any question of the
        conversation has used (not the asker's own word for the case shown, '그린피 바가지', said before)."""
        said = set().union(*(key_terms(t.question) for t in history))
        return sum(self.idf(t) is None and t not in context and t not in said for t in words)

    def _weighted_coverage(self, content: set[str], context: set[str]) -> float:
        """The IDF-weighted share of the content words the reports use that ``context`` holds
        (a word no report uses cannot be in what was shown, and is left out; 0 when no word is
        left to weigh)."""
        weights = {t: w for t in content if (w := self.idf(t)) is not None}
        total = sum(weights.values())
        return sum(w for t, w in weights.items() if t in context) / total if total else 0.0

    def _content(self, q: str, keep_money: bool = False) -> set[str]:
        """The question's own content words: not the facet asked for, not institution names, not
        'other / similar cases' ('다른 기관에서 비슷한 사례는?' brings no pattern of its own);
        ``keep_money``: money words stay, as in a question that goes back to a case by them ('아까
        예산 낭비 건은?'), which are otherwise how much of the case shown."""
        asked = _LIKE_SHOWN.sub(" ", _OTHER_CASES.sub(" ", without_ordinals(q)))
        facet_words = FACET_TERMS | FUNCTION_WORDS | _LIKENESS | (set() if _MORE_CASES.search(q) else _ASKED_OF_A_CASE | REBUTTAL_TERMS)
        words = {t for t in self.content_terms(asked) - facet_words if not self.catalog.find(t)}  # '변상 판정 받은 사례 있어?' keeps 변상
        if _MORE_CASES.search(q):
            return words  # '구청이 앱 만들어놓고 아무도 안 쓴 사례도 있나': cases of their own
        lost = words <= _MONEY and bool(words & _MONEY_LOST)  # '낭비된 예산은?'; not '예산 건은?'
        of_case = _OF_THE_CASE | (_MONEY if not keep_money and (_AMOUNT.search(q) or lost) else frozenset())
        return words - of_case if len(words - of_case) <= 1 else words  # nothing but who, or how much, of the case shown

    def _new_organisation(self, q: str, seen: str, latin_only: bool = False) -> bool:
        """The question names an organisation that neither the catalog nor the retained passages
        (``seen``, see ``_seen``) know, in Korean or by the Korean name an English one stands for;
        ``latin_only``: one written in Latin letters ('KBS', 'Gyeonggi province'), not a Korean
        name found by its ending, which may be a word ('조경공사': landscaping works)."""
        return any(not self.catalog.find(n) and squash(n) not in seen and not any(squash(k) in seen for k in korean_names(n))
                   for n in named_organisations(q) if not (latin_only and re.search(r"[가-힣]", n)))  # 'What was KEPCO's role?' after a case that names 한국전력공사

    def _new_place(self, q: str, seen: str) -> bool:
        """The question names a place (a proper noun, as Kiwi tags it, that ends as islands, ports,
        rivers, dams, mountains and stations do) that neither the retained passages nor the
        conversation (``seen``) hold: another subject ('가덕도 신공항'), not '흑산 쪽은' or a province
        shortened ('전남도 쪽'); not any proper noun ('코로나 때문에 늦어진 거야?')."""
        return any(t.tag == "NNP" and len(t.form) >= 3 and t.form.endswith(_PLACE_ENDS) and t.form[:-1] not in _REGIONS
                   and squash(t.form) not in seen and not self.catalog.find(t.form) for t in get_kiwi().tokenize(q))

    def _bare_name(self, q: str, content: set[str], seen: str) -> bool:
        """A short question that is a proper noun and little else ('익산은?', '나주 쪽은 어땠어'),
        which neither the retained passages nor the conversation (``seen``) hold: another place or
        body, not a facet of the case shown."""
        return len(squash(q)) <= BARE_NAME_CHARS and any(
            t.tag == "NNP" and len(t.form) >= 2 and t.form in content and squash(t.form) not in seen
            and t.form not in _REGIONS and t.form[:-1] not in _REGIONS and not self.catalog.find(t.form)  # not '전남도 쪽'
            for t in get_kiwi().tokenize(q))

    def _goes_back_to(self, q: str, retained: list[Doc]) -> list[int]:
        """The shown case (its position) a question that returns to something earlier names, its
        words of returning aside ('아까 상수도 관망 건은' -> the case about 상수도 관망); empty when it
        does not return or names none."""
        return _named_case([self._content(without_return(q), keep_money=True)], retained) if goes_back(q) else []

    def _of_shown(self, q: str, retained: list[Doc]) -> bool:
        """Half or more of the question's content words (two or more) are in the passages shown,
        and it does not ask what something is or when it applies ('수의계약 요건은 뭐야?')."""
        content = self._content(q)
        return len(content) >= 2 and _held(content, _seen(retained)) * 2 >= len(content) and not _DEFINES.search(q)

    def _own_subject(self, text: str, seen: str) -> bool:
        """``text`` (what follows '그건 됐고', or Y of 'X 말고 Y') brings a subject of its own: two
        content words or more, most of them not in the passages shown (``seen``)."""
        rest = self._content(text)
        return len(rest) >= 2 and _held(rest, seen) * 2 < len(rest)

    @staticmethod
    def _shown_pattern(ords: list[int], retained: list[Doc]) -> str:
        """The problem pattern of the shown case the question points at (by ordinal, else the one
        the answer led with): its finding title."""
        shown = [docs[0].get("finding_title") or "" for docs in _shown_cases(retained)]
        picked = [shown[n - 1] for n in ords if 0 < n <= len(shown)] or shown[:1]
        return " ".join(t for t in picked if t)

    def _naming(self, q: str, institutions: list[str], retained: list[Doc]) -> list[int]:
        """The position (1-based, as the user saw them) of the first shown finding that is about
        one of ``institutions``: its own institution, or one its 조치할 사항 are addressed to
        ('국토교통부장관은 … 하시기 바랍니다'); not merely one of its report's institutions or one its
        text mentions ('행정안전부 소속 국가정보자원관리원은'). Empty when no shown finding is."""
        for n, docs in enumerate(_shown_cases(retained), start=1):
            addressed = [who for d in docs if d.get("section") == "actions" for _, who in addressees(d.get("text", ""))]
            own = squash(" ".join(addressed + list((docs[0].get("institutions") or [])[:1])))
            if self._mentioned(q, institutions, own):
                return [n]
        return []

    def _mentioned(self, q: str, institutions: list[str], seen: str) -> bool:
        """An institution the question names occurs in the retained passages (``seen``): by the
        form the question uses ('태안군은 왜 같이 들어가 있어?') or by another of its forms of three
        syllables or more ('국토부' asked, '국토교통부장관' shown)."""
        asked = squash(q)
        return any(
            form in seen
            for form, names in self.catalog.aliases.items()
            if (form in asked and len(form) >= 2) or (names & set(institutions) and len(form) >= 3)
        )


_REGIONS = frozenset("서울 부산 대구 인천 광주 대전 울산 세종 경기 강원 충북 충남 전북 전남 경북 경남 제주".split())
"""Provinces and cities by their short names ('전남도 쪽 요구사항은'): the region of a case shown,
which its passages name in full ('전라남도지사'), not another place."""
_PLACE_ENDS = ("도", "섬", "항", "강", "댐", "산", "역")


def _named_case(readings: list[set[str]], retained: list[Doc], by_text: bool = True) -> list[int]:
    """The one shown case (its position, as the user saw it) that the question's content words
    name, in one of their ``readings`` ('케이슨 건 처분 뭐였어' after '…케이슨 제작·거치 부적정': Kiwi
    reads '케이슨 건' as 케이스 + ㄴ, '케이슨' alone as 케이슨): by its title, else (``by_text``) by its
    retained passages ('그중에 하도급 관련된 건 자세히'); empty when none or more than one does. A
    question that points at the case itself ('그 건 책임자 징계는?') is read by titles only: its
    words ask about that case, and the retained passages are too partial to name another."""
    cases = _shown_cases(retained)
    sources = [lambda docs: docs[0].get("finding_title") or ""]
    if by_text:
        sources.append(lambda docs: " ".join(d.get("text", "") for d in docs))
    for text_of in sources:
        held = [key_terms(text_of(docs)) for docs in cases]
        for terms in readings:
            naming = [n for n, have in enumerate(held, start=1) if terms and terms <= have]
            if len(naming) == 1:
                return naming
    return []


def _shown_first(ranked: list[tuple[str, str, float]], retained: list[Doc]) -> bool:
    """The finding ranker puts a shown finding first, clearly ahead of the best other (which scores at most
    ``SHOWN_SHARE`` of it): not a tie among findings that all match nothing ('스키장 리프트 …': all near 0.06)."""
    kept = {d.get("finding_id") for d in retained}
    other = max((p for f, _, p in ranked if f not in kept), default=0.0)
    return bool(ranked) and ranked[0][0] in kept and other <= SHOWN_SHARE * ranked[0][2]


_ADDRESSEE_END = r"(?=$|[^가-힣]|님|앞|한테|에게|께|은|는|이|가|도|만|의|쪽|측|에|과|와|랑|하고|을|를|으로)"


_THIS_CASE_AT = re.compile(r"(?<![가-힣])(?:이|그|해당)\s*(?:건|사례)(?:에|에서|이랑|과|하고)(?![가-힣])")
"""'이 건에 왜 같이 엮여 있어', '이 사례에서 역할은': the case shown as the place asked about (not '… 고치라고 했다던데 그건
어떤 내용이야?', where '그건' is what the question itself named)."""
_WRITTEN_THERE = re.compile(r"[가-힣](?:는지|은지|인지|던지|건지|한지|된지)(?:도|는|까지)?\s*(?:안\s*)?(?:나와|나오|적혀|쓰여|써\s*있)[가-힣\s]{0,6}[?？]?\s*$")
"""Whether the report writes something ('정직 처분 받은 사람이 이의신청 했는지도 나와 있어?'): of the case shown when it asks in
its words ('정직') and at most ``WRITTEN_NEW_WORDS`` of its own; not '학교 급식 납품업체 직원 징계 받았는지도 나와 있어?', a
subject of its own."""
WRITTEN_NEW_WORDS = 3
_THERE = re.compile(r"(?:거기|그쪽|그\s+쪽)")
"""'거기 …', '그쪽은 …' opening the question: what the last answer showed (not '담양은 … 표창 준 거였지? 거기도 …', where it
points at what the question itself named)."""


def _asks_elsewhere(q: str) -> bool:
    """Something besides the case shown asked for ('거기 말고 …', '그쪽 말고 …', '… 사례도 있었어?'), the pointer to it aside
    ('이 사례에 왜 …' asks of it)."""
    rest = _CASE_REF.sub(" ", q)
    return bool(re.search(r"말고|빼고|제외하고", rest) or _INSTEAD.search(rest) or _CASES_ASKED.search(rest) or re.search(r"사례|케이스", rest))


def _points_again(q: str) -> bool:
    """A pointer at a case shown beside the report's ('같은 감사에서 이 직원이 또 …'; not '그 기관 감사에서', nor '이 건 말고')."""
    rest = REPORT_ANAPHORA.sub(" ", q)
    pointer = _DEMONSTRATIVE.search(rest) or _CASE_REF.search(rest)
    return bool(pointer) and not re.match(r"\s*(?:은|는)?\s*(?:말고|빼고|제외하고)", rest[pointer.end():])


def _addressed(q: str, retained: list[Doc]) -> tuple[int, str] | None:
    """(position, 1-based as shown, of the case shown that addressed its demands to whom the question names; the name as
    the question writes it): the 조치할 사항's addressee as a word of its own, whole or by the end of it of four syllables
    or more that names no other body ('개발원장' of 한국지역정보개발원장; not a bare title, '교육감', '위원장', nor '경찰청장'
    of 해양경찰청장)."""
    for n, case in enumerate(_shown_cases(retained), start=1):
        names = {a for c in case if c.get("section") == "actions" for _, a in addressees(c.get("text") or "")}
        for a in sorted(names, key=len, reverse=True):
            for k in range(len(a), 3, -1):
                form = a[-k:]
                if k < len(a) and any(len(n) <= 3 and n.endswith("청") for n in named_organisations(form)):
                    continue  # '경찰청장': another body's head
                if re.search(rf"(?<![가-힣]){re.escape(form)}{_ADDRESSEE_END}", q):
                    return n, form
    return None


def _shown_cases(retained: list[Doc]) -> list[list[Doc]]:
    """The retained passages grouped by finding, in the order the user saw the findings."""
    cases: dict[str, list[Doc]] = {}
    for d in retained:
        if d.get("finding_id"):
            cases.setdefault(d["finding_id"], []).append(d)
    return list(cases.values())


def _compound_coverage(words: set[str], context: set[str]) -> float:
    """The share of ``words`` that ``context`` holds, as a word or (Korean) inside a compound of its ('경찰' of '해양경찰청':
    'the coast guard', glossed '해양 경찰', is the body the case shown names). Not the passages' text as such: '정기' of a
    '…정기감사' they mention is no word of the case (routing set: '해양수산부 정기감사에서 지적된 해양오염관리 문제는?' pivots)."""
    if not words:
        return 0.0
    return sum(t in context or (len(t) >= 2 and re.search("[가-힣]", t) is not None and any(t in c for c in context)) for t in words) / len(words)


def _held(words: set[str], seen: str) -> int:
    """How many of ``words`` the passages shown (``seen``, see ``_seen``) hold."""
    return sum(squash(w) in seen for w in words)


def _other_period(y0: int | None, y1: int | None, docs: list[Doc]) -> bool:
    """The question names a period none of the retained findings is from."""
    return y0 is not None and not any(y0 <= (d.get("year") or 0) <= (y1 or y0) for d in docs)


def _other_fiscal_year(q: str, docs: list[Doc]) -> bool:
    """The question names a fiscal year the retained passages never write ('그 기관이 2020회계연도 결산 때 받은 감사 결과도
    보여줘'): the accounts of another year, which the case shown is not about."""
    seen = _seen(docs) + squash(" ".join(d.get("finding_title") or "" for d in docs))
    return any(not writes_fiscal_year(y, seen) for y in fiscal_years(q))


_AUDIT_ASKED = re.compile(r"감사|지적|점검|적발|보고서|audit|review|inspect|report|anything", re.I)
_MEASURE_ASKED = re.compile(r"몇\s*(?:번|차례|회)|얼마|how (?:many times|much|often)", re.I)
"""How many times, how much: asked of a case's own story; not '몇 건' (a count of findings)."""
OWN_WORDS = 3
"""... or a question with this many content words or more, two thirds of them in the case's passages."""
_ALSO_IN_YEAR = re.compile(r"년(?:도(?:에|에는|엔)?|에|에는|엔)도(?![가-힣])|\bin\s+(?:19|20)\d{2}\s+(?:too|as well)\b", re.I)
"""'2023년에도 …', '2023년도에도 …': the same in that year, another period asked (not '2023년도 사업비는')."""


def _own_time(q: str, y0: int | None, y1: int | None, retained: list[Doc], content: set[str] = frozenset()) -> list[int]:
    """The shown cases (positions) whose passages name the one year a question names when it asks
    how many times or how much, or asks in those passages' own words (``OWN_WORDS`` of its
    ``content``), and not for an audit ('2012년 이후로 몇 번이나 올렸대?' of a case that tells its story
    since 2012, '2023년분 중점관리지역 사업은 몇 건을 다시 시뮬레이션하라고 했어?' of a case about them):
    the case's own time, not another audit's period ('2021년에 따로 감사받은 기록도 있어?', '2014년엔 몇
    건이었어?'); empty otherwise."""
    if y0 is None or y1 != y0 or _AUDIT_ASKED.search(q) or _ALSO_IN_YEAR.search(q):
        return []  # not '2023년에도 …'
    measured = bool(_MEASURE_ASKED.search(q)) and not _BARE_COUNT.search(q)
    content = {t for t in content if not t.isdigit()}  # the year is in the case's passages by then
    if not measured and (len(content) < OWN_WORDS or _CASES_ASKED.search(q) or _MORE_CASES.search(q)):
        return []  # not '2023년 침수 시뮬레이션 잘못한 사례 더 있어?'
    year = re.compile(rf"(?<!\d){y0}(?!\d)")
    return [n for n, docs in enumerate(_shown_cases(retained), start=1) if any(year.search(d.get("text") or "") for d in docs)
            and (measured or _held(content, _seen(docs)) * 3 >= 2 * len(content))]


def _searches_anything(q: str) -> bool:
    """An English question asking whether there is anything on a subject it names in words of its
    own (``ANY_SEARCH_WORDS``), pointing at nothing shown."""
    opening = _ANY_SEARCH.match(q)
    if not opening or _ENGLISH_POINTER.search(q[opening.end():]) or _DEFINITE.match(q, opening.end()):
        return False
    words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", q[opening.end():])}
    return len(words - FUNCTION_WORDS - FACET_TERMS) >= ANY_SEARCH_WORDS


_PERSONAL = re.compile(r"\b(?:you|yourself|your|my|mine|buddy|weekend)\b")
"""Small talk that opens like a search ('Anything about yourself you can share?', 'Anything on my schedule for
tomorrow?', 'Got anything on weekend plans, buddy?'): no subject of the reports; not 'Anything on flood control plans
for our county?', 'Anything on Me-too harassment cases?'."""
_DEFINITE = re.compile(r"\s*(?:the|whether|how|what|when|who|whom|why|which|if)\b", re.I)
"""'Anything on the deadline …', '… on whether the officials were punished': something of the case shown."""


def _said(history: list[Turn]) -> str:
    """The conversation so far, questions and answers, squashed (for names said before)."""
    return squash(" ".join(f"{t.question} {t.answer}" for t in history))


def _seen(docs: list[Doc]) -> str:
    """The passages' text and institutions, without whitespace, for name look-ups."""
    return squash(" ".join(f"{d.get('text', '')} {' '.join(d.get('institutions') or [])}" for d in docs))


def _overlaps(institutions: list[str], docs: list[Doc]) -> bool:
    seen = {squash(i) for d in docs for i in d.get("institutions") or []}
    return any(squash(i) in seen or any(squash(i) in s or s in squash(i) for s in seen) for i in institutions)
