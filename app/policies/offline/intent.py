"""Offline question understanding for the deep track: what kind of question it is, which facets
of a finding it asks for, the problem pattern to search with, and institutions it names that the
store does not hold.

Auditors describe a problem pattern in their own words and wrap it in a request form ("…한 사례
찾아줘", "어떤 처분이 적절해?", "요약해줘"); the request form and the scope (institution, years,
dispositions) are not the pattern and only add noise to a search, so they are cut off here.
"""

from __future__ import annotations

import re

from app.policies.offline.english_names import english_organisations
from app.policies.offline.lexicon import AGENCY_ALIASES, key_terms
from app.text.korean import get_kiwi
from graph.vocab import DISPOSITIONS

_DISPOSITION_WORDS = "|".join(DISPOSITIONS)

_KIND_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (  # first match wins: a summary of the legal basis is a legal-basis question
    ("legal_basis", re.compile(
        r"법\s*조항|조항|근거(?:가|는|로|를)?\s*(?:어디|뭐|무엇|뭔)|근거\s*(?:조항|규정|법|법령|조문)|근거로\s*(?:든|삼은|제시한|인용한|댄)|법적\s*근거|어느\s*법|무슨\s*법|어떤\s*법|위반한\s*법|"
        r"(?:법령|규정)(?:이|은|는)?\s*(?:어디|뭐|무엇|뭔|어느)|(?:어떤|무슨|어느)\s*(?:법령|규정)|법령(?:상)?\s*근거|"
        r"적용(?:된|한)?\s*(?:법|규정|기준)|판단\s*기준|시행령|조문|legal basis|legal provision|provisions?\b|which law|what law|statute|article|regulation", re.I)),
    ("summary", re.compile(r"요약|정리해|정리\s*(?:좀|부탁)|정리\s*$|정리\s*[.?!]|간추|짧게|간단히|핵심만|한\s*줄로|세\s*줄|두\s*줄|summar|brief(?:ly)?|overview of", re.I)),
    ("disposition", re.compile(
        r"처분(?:은|이|을|는)?\s*(?:보통\s*|대개\s*|주로\s*|실제로\s*)?(?:어떻게|어떤|뭐|머|무엇|무슨|어디까지|어느)|처분(?:은|이|을|는)?\s*(?:나왔|받았|내려|됐|되었|갔)|처분\s*선례|"
        r"(?:what|which)\s+(?:disposition|sanction)|disposition\s+did|어떤\s*처분|무슨\s*처분|처분\s*수준|처분이\s*적절|처분은\s*뭐가|적절한\s*처분|어느\s*정도\s*처분|징계\s*(?:요구)?까지|"
        r"어떤\s*조치가\s*적절|수위|what\s+(?:disposition|sanction|action)\s+(?:is|would|should)|appropriate\s+(?:disposition|sanction)|"
        r"how\s+severe|level of (?:disposition|sanction)|what\s+(?:was|were)\s+the\s+(?:disposition|sanction|penalt)|"
        r"(?:" + _DISPOSITION_WORDS + r")\s*(?:받았|먹었)(?:어|나|니|는지|나요)?\s*[?？]?\s*$|"
        # which of two ('주의야 징계야?', '통보였어 주의였어'), how far it went ('고발까지 갔어?', '주의로 끝난 거야?'), bare ('그 건 처분은')
        r"(?:" + _DISPOSITION_WORDS + r")\s*(?:야|이야|였어|이었어|였나|였지|인가|냐)\s*,?\s*(?:아니면\s*)?(?:" + _DISPOSITION_WORDS + r")|"
        r"(?:" + _DISPOSITION_WORDS + r"|정직|파면|해임|감봉|견책|강등)\s*(?:요구|처분|촉구)?\s*(?:까지|으로|로)\s*"
        r"(?:갔|가(?:야|냐|니|나)?\s*[?？]?\s*$|끝났|끝난|끝나|나왔|됐)|"
        r"처분(?:은|이)\s*[?？]?\s*$|처분(?:이|은)?\s*(?:있었|없었|있나|있어)|(?:" + _DISPOSITION_WORDS + r")\s*수준|"
        r"(?:the|what|which|its|own)\s+disposition(?!\s+of\b)|(?:get|got|given|issued|receive[sd]?)\s+(?:an?\s+)?caution|"
        r"(?:who|anyone|which\s+\S+)\s+(?:was|were|got)\s+cautioned|caution\s+or\s+notification|notification\s+or\s+caution|"
        r"just\s+a\s+(?:" + _DISPOSITION_WORDS + r"|caution|notice)", re.I)),
    ("actions", re.compile(
        r"(?:하라고|하도록|할\s*것을)\s*(?:요구|" + _DISPOSITION_WORDS + r"|지시|한|했)|(?:라고|라거나|하라)\s*(?:요구|통보|주의|한|했)|요구한\s*(?:사례|건)|요구까지|(?:" + _DISPOSITION_WORDS + r")\s*"
        r"(?:요구|명령|처분)?(?:가|이)?\s*(?:나온|내려진|받은)|조치\s*요구\s*사례|어떤\s*조치를\s*요구|무슨\s*조치를\s*요구|"
        r"cases where .*(?:required|ordered|demanded|told|asked)|(?:required|ordered|demanded)\s+to|(?:asked|told|instructed|directed)\s+(?:\S+\s+){1,3}to\b|"
        # what the case shown demanded, as a follow-up asks it ('어떻게 하래', '뭘 고치라는 거였지', '뭘 해야 돼', '요구사항은'); not
        # reported speech ('왜 멈춘 거래', '누구래') nor '문제라는 거야'
        r"(?:하|바꾸|고치|넓히|세우|돌리|물리|내|받으|손보|정하|만들|올리|줄이|보내|맡기|막으|늘리|없애)래(?:요)?\s*[?？]?\s*$|"
        r"(?:하|치|리|보|내|우|히|꾸|주|오|르)라는\s*(?:거|것|게)(?!\s*(?:있|없))|라는\s*요구(?:였|이었|야)|요구(?:였|이었)(?:어|나|지|냐)|"
        r"(?:뭘|뭐|무엇을|무얼)\s*해야|(?:뭘|뭐|무엇을|무슨\s*\S+을|어떤\s*\S+을)\s*요구|요구(?:했어|했나|했지|했냐|한\s*(?:내용|거야|건가))\s*[?？]?\s*$|"
        r"요구\s*사항(?:은|만|이|도)?\s*(?:[?？]|$|뭐|따로|알려|갔)|요구\s*사항도\s*있(?:어|나|니|을까|었어|었나|었니|었지|나요|어요|습니까)\s*[?？]?\s*$|\bactions?\s+(?:were\s+|was\s+)?required|required\s+actions?|"
        r"have\s+to\s+do(?!\s+with)|\b(?:what|how|who)\b.*?(?:\bis|\bare|'s)\s+(?:\S+\s+)?supposed\s+to|want(?:ed)?\s+done|"
        r"(?:what|the)\s+remed(?:y|ies)|\b(?:told|cautioned|ordered)\s+to\s+do", re.I)),
    ("institution", re.compile(
        r"(?:정기감사|감사|감사결과|감사\s*결과)(?:에서|의)?\s*(?:지적된|지적\s*사항|나온|결과)|지적사항\s*(?:목록|알려|보여)|"
        r"무엇이\s*지적|뭐가\s*지적|what did .* audit find|findings (?:of|for|at)", re.I)),
)
_INSTITUTION_ASK = re.compile(
    r"지적\s*(?:사항|된|받|내용|뭐|있)|(?:뭐|무엇)(?:가|이)?\s*(?:지적|걸린|걸렸)|걸린\s*(?:거|것|게)|받은\s*(?:처분|지적)|"
    r"조치\s*기관으로|요구된\s*조치|조치해야\s*하는|what (?:did|was) .* (?:find|found|flag)"
    r"|(?:처분|요구|" + _DISPOSITION_WORDS + r")[가-힣]*\s*받은\s*(?:항목|건|것|거|사항)", re.I)
"""An institution's findings asked for as such ('X 관련 지적 뭐 있어?', 'X가 받은 처분요구'); a
question of this form (or one about where an organisation appears, ``_mentions``) counts as an institution question only when it names
an organisation (and so does one about what was addressed to it, ``_ADDRESSED``)."""
_ADDRESSED = re.compile(r"(?:앞으로|(?<=[부청원처군시구도사단회])(?<![감조검]사)(?:한테|에게|에))\s*(?:나온|떨어진|내려진|날아온|온)\s*"
                        r"(?:처분|조치|주문|요구|지적)[가-힣]*(?<!도)(?![가-힣])")
_OF_A_CASE = re.compile(r"(?:(?<![가-힣])(?:그|이|해당)\s*(?:건|사례|지적|사안|사업)|거기|그거|이거|그때|방금|아까)(?!\s*(?:말고|빼고|외에|제외))")
"""What was addressed to an organisation ('과기정통부 앞으로 나온 처분요구', '전남도청에 떨어진 처분요구'; not '감사에 나온 처분',
nor '…요구도 같이 봐줘'): its findings asked for, unless of a case pointed at ('그 건에서 해수부에 내려진 조치는?')."""
_MENTION_AFTER = (
    r"\s*(?:이|가|은|는|도|을|를|에\s*대한|이라는\s*이름이)?\s*(?:관련(?:해서|해|된)?\s*(?:보고서에|감사에)?\s*)?"
    r"(?:(?:얘기|이야기)가?\s*)?(?:언급|나오|나온|나와|등장|다룬|다루|(?:언급|내용)이?\s*(?:있|나오))"
)
"""What follows an organisation the question asks about wherever it appears ('장흥군이 언급된', '장흥군을
언급한', '장흥군에 대한 언급이 있는', '장흥군 얘기 나오는', '김포시 관련해서 보고서에 나오는'); not '김포시에서 …
사례 나온 거' or '영광군 감사에서 나온 지적' (its audit), where the organisation is not what appears."""
_INVOLVED_AFTER = (r"\s*(?:이|가|도)?\s*(?:끼어\s*있는|끼인|연루(?:된|되어\s*있는)?)\s*"
                   r"(?:지적|건|거|것|감사|사항|내용|부분)")
"""'산업은행이 끼어 있는 지적', '…이 연루된 건': where an organisation appears, when it is named by its own
name (``proper_organisation``); not '담당공무원이 연루된 횡령 사례' or '조달청이 끼인 입찰 담합 사례'
(patterns)."""
_MENTION_EN = (r"\bmention(?:s|ed)?\s+(?:of\s+)?(?:the\s+)?{name}", r"{name}[^.?!]*?\b(?:mentioned|named|involved|appears?)\b",
               r"\brole\b[^.?!]*?{name}")
_LATIN_SHORT_FORM = re.compile(
    r"(?<![A-Za-z])(?:" + "|".join(re.escape(s) for shorts in AGENCY_ALIASES.values() for s in shorts if s.isascii()) + r")(?![A-Za-z])")
"""Institutions written by a Latin short form ('LH 관련 지적사항'), which the suffix rule cannot see."""


FACETS: dict[str, re.Pattern[str]] = {
    "problems": re.compile(r"무슨\s*문제|어떤\s*문제|문제점|뭐가\s*문제|what went wrong|what was wrong|problem", re.I),
    "criteria": re.compile(r"법|조항|규정|근거|기준|law|article|regulation|rule", re.I),
    "opinion": re.compile(r"기관\s*의견|관계기관|해명|반론|입장|agency(?:'s)? (?:response|opinion)|respond", re.I),
    "actions": re.compile(r"조치|요구|하라고|" + _DISPOSITION_WORDS + r"|remed|required|demand|action", re.I),
    "disposition": re.compile(r"처분|" + _DISPOSITION_WORDS + r"|disposition|sanction|discipline", re.I),
    "amount": re.compile(r"금액|얼마|액수|원\s*규모|손실|how much|amount", re.I),
}

_REQUEST_FORM = re.compile(
    r"(?:(?:비슷한|유사한|같은|관련(?:된)?)\s*)?(?:감사\s*)?(?:사례|경우|건(?=(?:[가를는들은이])?(?![가-힣]))|케이스)(?:가|를|는|은|이|들)?\s*"  # 건 as a word: not 건설사
    r"(?:있(?:어|나요|습니까|을까|는지)|찾아\s*(?:줘|주세요|줄래)|알려\s*(?:줘|주세요|줄래)|보여\s*(?:줘|주세요)|좀)?|"
    r"(?:어떤|무슨)\s*(?:처분|조치)(?:이|가|을|를)?\s*(?:적절(?:할까|해|한지|합니까)?|내려졌|나왔|요구했)\S*|"
    r"(?:알려|찾아|보여|정리해|요약해|설명해)\s*(?:줘|주세요|줄래|줄\s*수\s*있어)\S*|"
    r"\?|？|(?:please|can you|could you|tell me|show me|find|are there|is there|any)\b",
    re.I,
)

# A housing corporation by its Latin initials ('SH공사', 'GH공사'); not works named so ('CCTV공사', 'PV공사', 'LED공사').
_ORG_SUFFIX = re.compile(
    r"((?:(?<![A-Za-z])[A-Z]H(?=공사)|[가-힣]{2,15})(?:특별자치시|특별자치도|광역시|특별시|도청|시청|군청|구청|시|군|구|부|처|청|원|공단|공사|재단|위원회|중앙회|연합회|공제회|"
    r"진흥원|연구원|연구소|통제소|사무소|관리소|사업소|보건소|검역소|출장소|사업단|관리단|지원단|본부|센터|협회|조합|은행|대학교|병원|교육청|의회|"
    r"기념관|박물관|미술관|도서관|과학관))(?:(?<=[청관처])장|(?<=[^계정]원)장)?(?=$|[^가-힣]|[은는이가을를의에와과도]|께|한테)"
)
_NOT_AGENCY = ("신청", "요청", "청구", "초청")
"""Words that end as an agency does (…청, …구) and are none: '이의신청', '수사요청', '주민감사청구', '외부강사초청' (not
'낙동강유역환경청')."""
_GENERIC_ORGS = frozenset(
    "지자체 지방자치단체 공공기관 기관 중앙부처 부처 소관부처 시군 시군구 시도 광역시 특별시 자치구 기초자치단체 광역자치단체 "
    "감사원 관계기관 소속기관 산하기관 위탁기관 수탁기관 발주기관 공기업 준정부기관 본부 지방정부 정부 해당기관 해당부처 "
    "같은기관 다른기관 각부처 교육청 의회 지방의회 구청 시청 군청 도청 위원회 연구원 공단 공사 재단 센터 협회 조합 은행 병원 "
    "지역본부 사업본부 현장사무소 관리사무소 사무소 출장소 사업소 보건소 사업단".split()
)


_BASIS_DEMANDED = re.compile(
    r"근거(?![나를와도가]?\s*없)(?:나|를|와|도|가)?(?:(?!뭐|뭔|무엇|어디|어느|였고)[^?.!,]){0,14}?"
    r"(?:만들|마련|신설|세우|두|갖추|정비|명확히|보완|개정)[가-힣]*\s*(?:라고|라는|도록|할\s*것|하라|을\s*요구|방안)"
    r"|\b(?:create|establish|introduce|set\s+up|provide|lay\s+down)\s+(?:a\s+|the\s+)?(?:clear\s+)?legal\s+(?:basis|grounds)"
    r"|\blegal\s+(?:basis|grounds)\s+(?:be|were|was)\s+(?:established|created|provided|laid\s+down)", re.I)
"""A legal basis demanded ('제재할 법적 근거나 수단을 새로 만들라고 한 지적', '지정취소 근거 규정을 만들라고'): what the
auditors asked for, not what the case relied on; not '무슨 법에 근거 만들라는거', which asks which law, nor '법적
근거도 없이 … 두도록' (made without one) or '근거가 뭔지, 그리고 뭘 보완하라고 했는지' (the basis asked first)."""


_BASIS_LACKING = re.compile(
    r"(?:법적|법령상|법률상|객관적|과학적|명확한|아무)?\s*근거\s*(?:조항|규정|법령|자료)?(?:도|가|는|나|이|은)?\s*"
    r"(?:없이|없고|없는데도|없었는데도|없는(?!지(?![가-힣])|\s*(?:거|것)\s*(?:야|예요|냐|아니|맞|[?？]|$)|\s*건(?:가|지))|안\s*보고|미비|부족)"
    r"(?=[\s,]*[가-힣A-Za-z])", re.I)
_BASIS_LACKING_EN = re.compile(
    r"\b(?:without|with\s+no|lacking)\s+(?:a\s+|any\s+)?(?:clear\s+)?(?:legal\s+|statutory\s+)?(?:basis|grounds)\b", re.I)
_CASES_EN = re.compile(r"\b(?:cases?|examples?|instances?|findings?)\b", re.I)
"""A basis the case lacked, followed by what was done without it ('법적 근거도 없이 입찰참가자격을 … 묶어서 공고 낸 케이스',
'근거 규정이 없는데도 수당 지급한 사례'), or in English in a question for cases ('Any cases where bidding was limited …
without any legal basis?'): the problem pattern, not a question about which law applies; not '법적 근거는 없었어?',
'근거가 없는 거야?', 'Was it done without any legal basis?'."""


def question_kind(text: str) -> str:
    undemanded = _BASIS_DEMANDED.sub(" ", text)
    basis_asked = _BASIS_LACKING.sub(" ", undemanded)
    if _CASES_EN.search(text):
        basis_asked = _BASIS_LACKING_EN.sub(" ", basis_asked)
    for kind, rule in _KIND_RULES:
        if rule.search(basis_asked if kind == "legal_basis" else text):
            return kind
    if undemanded != text:
        return "actions"  # '법적 근거 마련 방안이 뭐였어?': what was demanded
    addressed = bool(_ADDRESSED.search(text)) and not _OF_A_CASE.search(text)
    if (_INSTITUTION_ASK.search(text) or addressed or _mentions(text)) and (named_organisations(text) or _LATIN_SHORT_FORM.search(text)):
        return "institution"
    return "similar_cases"


def facets(text: str) -> tuple[str, ...]:
    return tuple(name for name, rule in FACETS.items() if rule.search(text))


def pattern(text: str) -> str:
    """The problem pattern: the question with its request form removed (never empty)."""
    cut = _REQUEST_FORM.sub(" ", text)
    cut = re.sub(r"\s+", " ", cut).strip(" ,.")
    return cut if len(cut) >= 4 else text.strip()


MINISTRIES = frozenset("국방부 외교부 통일부 법무부 교육부 환경부 여가부 중기부 복지부 국토부 해수부 산업부 과기부 문체부 행안부 기재부 노동부 고용부".split())
"""Ministries by their three-syllable names, official or as auditors shorten them."""
_AGENCIES = frozenset(AGENCY_ALIASES) | {a for aliases in AGENCY_ALIASES.values() for a in aliases}
"""Central agencies by their official names and the short forms auditors write ('고용노동부',
'해경청'): Kiwi reads most of the official names as two common nouns."""


_DISTRICT = re.compile(r"(?<![가-힣])(서울|부산|대구|인천|광주|대전|울산)\s+([가-힣]구)(?=$|[^가-힣]|[은는이가을를의에와과도])")
"""A district of one syllable, which the suffix rules skip, by its city ('광주 동구', '부산 중구'):
named in full ('광주광역시 동구'), as the reports write it."""
_AGENCY_SHORT = re.compile(
    r"(?<![가-힣])(?:" + "|".join(sorted((re.escape(a) for a in _AGENCIES if re.fullmatch(r"[가-힣]{2,4}", a)), key=len, reverse=True))
    + r")(?=$|[^가-힣A-Za-z]|(?:은|는|이|가|을|를|의|에서|에|와|과|도|랑|이랑|하고|쪽|측)(?![가-힣]))"
)
"""An agency's short form as a word of its own ('공정위가', '금감원 관련'), which no suffix marks."""


def _short_organisation(name: str) -> bool:
    """A name of three syllables is an organisation when Kiwi tags it a proper noun, names a
    ministry, or reads a …청 as one noun ('관세청'; not '재요청'). A …부 is too often a ledger
    or a department ('출납부', '관리부'), a …처 a place money goes ('사용처')."""
    tokens = get_kiwi().tokenize(name)
    return any(t.tag == "NNP" for t in tokens) or name in MINISTRIES or (
        name[-1] == "청" and len(tokens) == 1 and tokens[0].tag == "NNG"
    )


def _mentions(text: str) -> bool:
    """The question asks where an organisation it names appears: the organisation is what is
    mentioned ('전남 장흥군이 언급된', ``_MENTION_AFTER``), or an English question naming one as
    mentioned, involved or playing a role ('Which findings mention X', 'Is X involved in any
    finding'), not 'findings that involved bid rigging by contractors hired by X'."""
    names = named_organisations(text)
    if any(re.search(p.format(name=re.escape(n)), text, re.I) for n in names for p in _MENTION_EN):
        return True
    return any(re.search(re.escape(name) + _MENTION_AFTER, text)
               or (re.search(re.escape(name) + _INVOLVED_AFTER, text) and proper_organisation(name)) for name in names)


def asks_for_mentions(text: str) -> bool:
    """An institution question about where an organisation appears in the reports ('전남 장흥군이
    언급된 지적', 'X 관련해서 보고서에 나오는 거', 'Which findings mention 장흥군?'), not about its own
    audit ('영광군 감사에서 나온 지적사항 있어?') or a pattern ('김포시에서 공사비 부풀린 사례 나온 거 있어?')."""
    return _mentions(text) and question_kind(text) == "institution"


def proper_organisation(name: str) -> bool:
    """An organisation's own name, not a common noun of that shape: Kiwi tags a part of it a
    proper noun ('장흥군', '한국관광공사'), it is a ministry or a one-noun …청, or it compounds three
    nouns or more ('해양교통안전공단'); not '데이터센터' or '지방의원'."""
    return _short_organisation(name) or name in _AGENCIES or len(get_kiwi().tokenize(name)) >= 3


def named_organisations(text: str) -> list[str]:
    """Organisation-like names in the question (…시, …군, …부, …공사, …위원회), generic words
    such as 지자체 or 관계기관 excluded, Kiwi's proper-noun tags confirming the shorter ones;
    then English ones ('National Pension Service', ``english_names``)."""
    out: list[str] = []
    for m in _ORG_SUFFIX.finditer(text):
        name = m.group(1)
        if name in _GENERIC_ORGS or any(name.endswith(g) and len(name) - len(g) < 2 for g in ("기관", "부처")) or name.endswith(_NOT_AGENCY):
            continue
        if len(name) <= 3 and not (_short_organisation(name) or name in _AGENCIES):
            continue
        if name not in out:
            out.append(name)
    out += [d for m in _DISTRICT.finditer(text) if (d := f"{m.group(1)}{'특별시' if m.group(1) == '서울' else '광역시'} {m.group(2)}") not in out]
    out += [m.group(0) for m in _AGENCY_SHORT.finditer(text) if m.group(0) not in out and not any(m.group(0) in n for n in out)]
    return out + [n for n in english_organisations(text) if n not in out]


_AND = re.compile(r"(?<=\s건|\s것|\s거)\s*(?:이랑|랑|하고|과|와|및|,)\s+|(?<=case|item)s?,?\s+and\s+", re.I)
_BOTH = re.compile(r"\s*(?:둘\s*다|모두|각각|전부|다|묶어서|같이|함께)?\s*(?:알려\s*줘|보여\s*줘|찾아\s*줘|설명해\s*줘|요약해\s*줘|정리해\s*줘)?\s*[?.!]*$|\s*\b(?:both|each)\b.*$", re.I)


def enumerated(question: str) -> list[str]:
    """The things a question lists one after another ('A 건이랑 B 건 둘 다 알려줘' -> ['A 건', 'B 건']),
    or [] when it lists fewer than two."""
    parts = [_BOTH.sub("", p).strip(" ,") for p in _AND.split(question)]
    parts = [p for p in parts if p]
    if len(parts) < 2:
        return []
    listed = _THING.search(parts[-1]) or _EACH.search(question) or (_CASE_AND.search(question) and described(parts[-1]))
    if not listed or any(
        _LIKE.search(p) for p in parts) or not all(
        key_terms(_THING.sub("", p)) for p in parts
    ):
        return []  # '1번 건이랑 비슷한 다른 기관 사례는?' lists nothing
    return parts


_THING = re.compile(r"(?:건|것|거|사례|지적|cases?|findings?)$", re.I)
_CASE_AND = re.compile(r"(?:건|것|거)\s*(?:이랑|랑|하고)\s")


def described(text: str) -> bool:
    """Whether ``text`` closes on a clause that describes a case ('…추천한', '…받은': Kiwi's
    adnominal ending). '…승진시킨 건이랑 …추천한' lists two cases even when the search query dropped
    the last one's 건; a facet does not ('…건이랑 관련 법령', '…건이랑 처분 결과는', '건과 회수된 금액')."""
    tokens = get_kiwi().tokenize(text.strip())
    return bool(tokens) and tokens[-1].tag == "ETM"
_EACH = re.compile(r"둘\s*다|각각|\bboth\b|\beach\b", re.I)
_LIKE = re.compile(r"비슷|유사|같은|similar|\blike\b", re.I)


_ONE_CASE = re.compile(r"(?<![가-힣])(?:건|거|것)(?:을|를|은|는)?\s+(?:\S+\s+){0,2}?(?:요약|정리)|\bthe (?:finding|case)\b", re.I)
"""A summary asked of one case: '… 건 요약해줘', '… 건 세 줄 요약', '… 건 짧게 정리', 'the finding on …'."""
_SEVERAL = re.compile(
    r"건들|사항들|사례들|것들|지적\s*사항|목록|전체|모두|전부|각각|비교(?:해|하여|하고)|여러|\d+\s*건|(?<![가-힣])[두세네]\s*건"
    r"|(?:건|거|것)\s*(?:이랑|하고|과|와|및|,)\s.*(?<![가-힣])(?:건|거|것)(?![가-힣])|\b(?:findings|cases|all|each|both|compare)\b",
    re.I,
)


def asks_for_one(question: str) -> bool:
    """A summary of one named case ('기상특보 때 어선 출항관리 부적정 건 요약해줘', 'the finding on …'),
    not of several, a list or a comparison ('… 건들 정리해줘', '… 지적사항을 정리해줘', '두 건 비교해서',
    'A 건이랑 B 건 요약')."""
    return question_kind(question) == "summary" and bool(_ONE_CASE.search(question)) and not _SEVERAL.search(question)


_REQUEST = r"\s*(?:줘|주세요|줄래|봐|주라)"
_PLURAL = re.compile(
    r"(?:건|사례|사항|것|거|케이스)들(?=[을이은는만도의과와로,.?!\s]|$)|(?<![가-힣])(?:목록|리스트)|(?:뽑아|골라|추려|모아)" + _REQUEST + r"|추려서"
    r"|싹\s*(?:다|모아|정리|찾아)|(?:모두|전부|다|각각)\s*(?:알려|보여|정리해|요약해|찾아|뽑아|모아|나열해|설명해)" + _REQUEST
    + r"|몇\s*건(?![물축])\S*.{0,12}?각각|나머지|다른\s*지적|\d+\s*건(?![가-힣]|\s*(?:이상|이하|미만|초과|넘|당))|(?<![가-힣])[두세네]\s*건(?![가-힣])"
    r"|(?<![가-힣])(?:건|사례|케이스|지적(?:\s*사항)?)별로|(?<![가-힣])건마다"
    r"|\bfindings\b|\blist\s+(?:the|all|every|of)\b|\ball\s+(?:the\s+)?cases\b", re.I)
"""Several findings asked for: a case noun in the plural ('건들', '사례들'; not the verb '건들지'), a list
('목록', '뽑아줘', '추려서'; not '합격자로 뽑아준', '블랙리스트'), everything ('전부 보여줘', '싹 모아줘'; not
'미리 다 알려준', '전부개정'), each of a number of cases ('몇 건이고 각각 내용이 뭐야'; not '각각 어떤 처분', of the ones it names), the rest ('나머지', '다른 지적'), a number of cases ('두 건'; not '네 건물',
'100건 이상'); case by case ('건별로 한 줄씩', '지적사항별로', '건마다'; not '그 건 별로 중요하지 않은데')."""


def asks_for_several(question: str) -> bool:
    """Whether the question wants every finding that fits, not the best one: a list or cases in
    the plural, cases it lists one by one ('A 건이랑 B 건'), or an organisation's findings as such
    ('X 관련 지적 뭐 있었지?'); never a summary of one named case (``asks_for_one``)."""
    if asks_for_one(question):
        return False
    asked = question_kind(question) == "institution" or bool(re.search(r"지적\s*사항", question))  # 'X 지적사항 요약해줘'
    institution = asked and bool(named_organisations(question) or _LATIN_SHORT_FORM.search(question))
    return bool(_PLURAL.search(question)) or institution or bool(enumerated(question))
