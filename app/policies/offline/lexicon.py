"""Shared word lists and small text measures for the offline policies."""

from __future__ import annotations

import re
from collections.abc import Iterable

from app.text.korean import morphemes

DISPOSITION_WORDS: dict[str, tuple[str, ...]] = {  # English forms as whole words; 'weather warnings' names no 주의
    "징계": ("징계", "문책", "disciplinary"),
    "시정": ("시정", "correction", "corrective"),
    "주의": ("주의", "caution", "a warning", "formal warning", "warning disposition"),
    "통보": ("통보", "notification", "notice"),
    "개선": ("개선요구", "개선 요구", "개선을 요구", "개선을요구", "개선'을 요구", "개선 처분", "개선처분", "'개선'", "‘개선’", "“개선”", "\"개선\"", "(개선)",
           "improvement request", "improvement demand", "demanded improvement"),
    "권고": ("권고", "recommendation"),
    "변상": ("변상", "indemnification", "indemnify", "compensation order"),
    "고발": ("고발", "criminal complaint", "prosecution"),
    "인사자료": ("인사자료",),
    "훈계": ("훈계",),
}
AUDIT_TYPES = ("기관정기감사", "성과감사", "특정사안감사", "국민제안감사", "공익감사", "재무감사")
SECTION_HINTS: dict[str, tuple[str, ...]] = {
    "actions": ("조치할 사항", "조치사항", "조치 사항", "처분", "요구사항", "action", "remed"),
    "criteria": ("관계 법령", "관계법령", "판단기준", "판단 기준", "근거 법령", "법령", "규정", "criteria", "law", "regulation"),
    "opinion": ("관계기관 의견", "기관 의견", "opinion", "response"),
    "problems": ("문제점", "확인된 문제", "위반 내용", "problem", "what went wrong"),
}
# Question words that carry no topic: dropped from coverage measures.
STOP_MORPHEMES = frozenset(
    "분석 알리 보이 설명 정리 요약 무엇 뭐 어떻 어떤 관련 대하 대해 있 하 되 수 것 건 내용 사항 좀 주 해주 알 싶 "
    "지적 감사 사례 자세히 자세하 what which how tell about more show explain please the a of in on for is are was".split()
)
AGENCY_ALIASES: dict[str, tuple[str, ...]] = {
    "해양수산부": ("해수부",),
    "문화체육관광부": ("문체부",),
    "국토교통부": ("국토부",),
    "과학기술정보통신부": ("과기정통부", "과기부"),
    "행정안전부": ("행안부",),
    "산업통상자원부": ("산업부", "산자부"),
    "보건복지부": ("복지부",),
    "기획재정부": ("기재부",),
    "고용노동부": ("노동부", "고용부"),
    "농림축산식품부": ("농식품부",),
    "한국토지주택공사": ("LH", "토지주택공사"),
    "국가정보자원관리원": ("국정자원",),
    "해양경찰청": ("해경청", "해경"),
    "농촌진흥청": ("농진청",),
    "부산지방항공청": ("부산항공청",),
    "서울지방항공청": ("서울항공청",),
    # bodies auditors name by a short form the suffix rules cannot read ('금감원', '공정위')
    "금융감독원": ("금감원",),
    "금융위원회": ("금융위",),
    "공정거래위원회": ("공정위",),
    "방송통신위원회": ("방통위",),
    "국민권익위원회": ("권익위",),
    "국가인권위원회": ("인권위",),
    "중앙선거관리위원회": ("선관위",),
    "국가정보원": ("국정원",),
    "식품의약품안전처": ("식약처",),
    "질병관리청": ("질병청",),
    "방위사업청": ("방사청",),
    "한국전력공사": ("한전",),
    "한국철도공사": ("코레일",),
    "국민건강보험공단": ("건보공단",),
}
"""Institutions by the short forms auditors write ('해수부', 'LH'): the field selector, the
question's kind and the 조치할 사항 addressees read them."""
FACET_TERMS = frozenset(
    "조치 요구 근거 법령 법 조항 규정 판단 기준 처분 수준 수위 적절 금액 얼마 규모 요약 정리 의견 문제 문제점 이유 감사원 결과 "
    "내용 요지 핵심 법적 위반 관련자 누구 누가 어디 몇 군데 나오 전체 받 결론 얘기 이야기 나머지 전부 모두 항목 주문 종류 손보 모으 언급 선례 조문 인용 배경 목록 리스트 사안 부탁 숫자 공통점 원문 페이지 출처 "
    "action actions required require requirement disposition dispositions sanction penalty amount budget summary summarize "
    "reason law laws legal basis article articles result outcome who ministries ministry agency agencies asked ask act "
    "briefly brief short detail details mentioned mention involved role".split()
)
"""Words of a follow-up that asks for another facet of the same case, not for a new topic, and
words that only frame the request ('무슨 얘기야', '나머지', '언급된'). Not '케이스': Kiwi reads '케이슨'
(a caisson) as it."""
CASE_PEOPLE = frozenset("담당자 관계자 책임자 윗선 상급자 윗사람 결재권자 감독자".split())
"""Who in a case shown ('구청 담당자 징계는?', '관리 제대로 안 한 윗선은?'): no subject of a question's own."""
SCOPE_FRAME = re.compile(
    r"(?:을|를)\s*상대로|(?:조치|처분|요구)\s*(?:의\s*)?(?:주체|대상|기관|상대)(?:으로|로|가|이)?\s*(?:(?:지정|지목|명시)[가-힣]*|정(?:한|해|했|된|하))"
    r"|(?:광역|기초)\s*(?:단위인|단위로서|자치단체인|지자체인)|이번\s*감사"
    r"|(?<![가-힣])(?:시\s*·?\s*군|시\s*·?\s*도|광역|기초)\s*(?:감사|단위)(?:로|에서|는|로는)?(?:\s*(?:말고|빼고|보면))?"
    r"|보고서\s*(?:상관\s*없이|가리지\s*않고|불문하고|구분\s*없이)"
    r"|(?<![가-힣])(?:도지사|구청장)(?=한테|에게|께|은|는|이|가|을|를|\s|$)|(?<![가-힣])군수(?=한테|에게|께|는|가)"
)
"""How a question frames the institution it asks about ('법무부를 상대로 나온 감사 결과', '부산지방항공청장을 조치 주체로
지정한 건', '광역 단위인 전라남도', '시군 감사 말고 광역 단위로 보면', '보고서 상관없이', '도지사한테 떨어진 요구'): its scope, which the field selector reads, not a problem
pattern the answer must cover."""
REBUTTAL_TERMS = frozenset("반박 주장 해명 입장 논리 항변 소명".split())
"""The agency's answer, asked of a case shown ('해수부는 감사 때 어떤 논리로 반박했어?': its 관계기관 의견): a facet
for the router and the utility check, not ``FACET_TERMS``, since lookups and pattern nouns keep them as
subjects ('소명 기회', '주장 선수')."""
FUNCTION_WORDS = frozenset(
    "the a an to of in on for at by with from is are was were be been did do does get got they them their it its this that "
    "these those there just only also then so and or but ignore find issue one case big much many how what which when where "
    "why any over up down already anyone anybody".split()
)
"""English words that carry no topic (Korean particles never reach the key terms)."""
ORDINAL_WORDS = {
    "첫": 1, "첫째": 1, "두": 2, "둘째": 2, "세": 3, "셋째": 3, "네": 4, "넷째": 4, "다섯": 5,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "앞": 1, "former": 1, "뒤": 2, "나중": 2, "latter": 2,
}
"""Ordinal words; the former and the latter of two things listed too ('앞에꺼', '뒤에 말한 거'). English ones
count as a place in a list unless a noun they order follows ('the second phase', 'a third party')."""
_ORDINAL = re.compile(
    r"(\d{1,2})\s*(?:번째|번\s*(?:항목|지적|사례|건|finding)?|항목|\.\s*항목)"
    r"|(첫|두|세|네|다섯)\s*(?:번째|째)|(첫째|둘째|셋째|넷째)"
    r"|\b(first|second|third|fourth|fifth)\b(?![\s-]+(?:phase|stage|round|half|quarter|time|times|year|years|term|period|floor|generation"
    r"|wave|batch|tier|class|grade|place|step|part|line|party|parties|hand|level|degree|instance|draft|week|month|day|session)s?\b)|(?:item|finding|number|no\.?)\s*#?(\d{1,2})\b"
    r"|(?<![가-힣])(앞|뒤|나중)(?:에|엣)?\s*(?:말한\s*)?(?:꺼|거|것|건|사례)(?:는|은|도|랑|이랑|하고|이|가|를|을)?(?![가-힣])"
    r"|\bthe (former|latter)(?=\s*(?:one|case|finding|item)?\s*(?:[?.!,;]|$))",
    re.IGNORECASE,
)


def ordinals(text: str) -> list[int]:
    out: list[int] = []
    for m in _ORDINAL.finditer(text):
        if m.group(1) or m.group(5):
            n = int(m.group(1) or m.group(5))
        else:
            n = ORDINAL_WORDS[next(g for g in m.groups()[1:] if g).lower()]
        if n not in out:
            out.append(n)
    return out


def without_ordinals(text: str) -> str:
    """The text with its item references ('1번', '두 번째', 'the second') blanked out."""
    return _ORDINAL.sub(" ", text)


def squash(text: str) -> str:
    """Text without whitespace, for matching names that PDFs split or join differently."""
    return re.sub(r"\s+", "", text)


def key_terms(text: str) -> set[str]:
    """Content morphemes that carry the topic (question words and generic audit words dropped)."""
    return topical(morphemes(text))


def topical(forms: Iterable[str]) -> set[str]:
    """Of content morphemes (``morphemes``, or a passage's stored ones), those ``key_terms`` keeps."""
    return {m for m in forms if m not in STOP_MORPHEMES and (len(m) > 1 or m.isdigit())}


def coverage(needles: set[str], haystack: set[str]) -> float:
    return len(needles & haystack) / len(needles) if needles else 0.0

