"""Offline field selection: institutions (with aliases) from the catalog, years, dispositions,
audit types and section hints, read straight off the question."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property

from app.policies.offline.english_names import (
    english_forms,
    mentions_stem,
    romanised_stem,
    without_other_bodies,
    words,
)
from app.policies.offline.intent import pattern
from app.policies.offline.lexicon import (
    AGENCY_ALIASES,
    AUDIT_TYPES,
    DISPOSITION_WORDS,
    SECTION_HINTS,
    squash,
)
from graph.schemas import FieldSelection

# Provinces by their government's office as auditors write it ('전남도청'), the province itself only
# (not '전라남도 곡성군'). Not '전남' or '전남도': squashed, '광주·전남·전북 도시재생' and '전남 도로' contain them
# (``_PROVINCE_WORD`` reads '전남도' written as a word).
PROVINCE_ALIASES: dict[str, tuple[str, ...]] = {
    "전라남도": ("전남도청",),
    "전라북도": ("전북도청",),
    "전북특별자치도": ("전북도청",),
    "충청남도": ("충남도청",),
    "충청북도": ("충북도청",),
    "경상남도": ("경남도청",),
    "경상북도": ("경북도청",),
}
_PROVINCE_WORD = re.compile(
    r"(?<![가-힣])([전경충][남북])도(?:청)?(?=$|[^가-힣]|(?:에서|에게|한테|로부터|에는|에도|까지|[은는이가을를의에와과도께만랑])(?![가-힣]))"
    r"(?!\s*[가-힣]+[시군구](?![가-힣]))"
)
"""... though written as a word of its own they name the province ('전남도 몫으로', '경북도는'): not '전남 도로', '전북도시재생',
nor the province a county is named by ('전남도 곡성군')."""
_REGION_PREFIX = re.compile(r"^(?:서울특별시|부산광역시|대구광역시|인천광역시|광주광역시|대전광역시|울산광역시|세종특별자치시|"
                            r"경기도|강원특별자치도|충청북도|충청남도|전북특별자치도|전라남도|경상북도|경상남도|제주특별자치도)\s+")
def short_region_forms(name: str) -> set[str]:
    """'부산광역시' is also '부산시', '강원특별자치도' '강원도', as auditors write them."""
    out = set()
    for long, short in (("광역시", "시"), ("특별자치도", "도"), ("특별자치시", "시"), ("특별시", "시")):
        head = name.split()[0]
        if head.endswith(long) and len(head) > len(long) + 1:
            out.add(head[: -len(long)] + short + name[len(head):])
    return out


_YEAR = re.compile(
    r"(?<![\d.])(20\d\d)(?!\s*년?\s*\d{1,2}\s*월)(?![\d%㎡]|(?!년)[가-힣]|\s*[~〜～∼–—-]\s*\d+\s*(?:[만억천]|원|명|건|개|곳|회|대|톤|가구|세대))"
    r"(?!\s+(?:[만억천]\s*원|(?:원|명|건|척|개|호|곳|회|대|톤|가구|세대)(?:이|가|을|를|은|는|의|에|도|씩)?(?![가-힣])"
    r"|(?:households|people|persons|cases|times|units|won|dollars)\b))\s*년?"
    r"|(?<![\d.])(19[5-9]\d)(?=\s*년(?!\s*\d{1,2}\s*월)|s\b|\s+(?:audit|report|inspection|review)s?\b)"
    r"|\b(?:in|the|since|from|during|around|before|after|circa)\s+(19[5-9]\d)\b(?!\s*(?:년|[가-힣]))",
    re.I,
)
"""A year, unless it opens a date ('2023년 11월 17일 …' dates an event, not the report) or is an amount or a count
('2000만원', '2023 건'); before 2000 only as a year is written ('1992년 무렵', '1990s', 'the 1995 audit', 'in 1995'), not
'1998가구' or 'over 1990 households'."""
_DECADE = re.compile(r"((?:19[5-9]|20[0-2])0)\s*(?:년대|s\b)")
"""A decade ('1990년대', 'the 1990s'): its ten years."""
_FISCAL = re.compile(
    r"(?:\bFY|\bfiscal(?:[\s-]*years?)?)[\s-]*20\d\d(?:\s*(?:[~〜～∼–—-]|and|to)\s*20\d\d)?"
    r"|20\d\d(?:\s*년?\s*[~〜～∼–—-]\s*20\d\d)?\s*(?:fiscal[\s-]*years?|년?\s*(?:회계|사업)\s*(?:연도|년도)|년?\s*도?\s*결산)",
    re.I,
)
"""The fiscal year a finding is about ('2023회계연도 결산', '2022~2023년 회계연도', '2023년도 결산', 'FY 2023', 'fiscal
2023', '2023 fiscal year'): the accounts audited, not the audit's year."""
_ENGLISH_DATE = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
    r"\.?,?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(?:19|20)\d\d\b", re.I)
"""A date in English ('November 2023', 'Nov 17, 2023'): an event's, not a period asked for."""
_ENGLISH_EVENT = re.compile(
    r"\b(?:went\s+live|launched|opened|started|began|happened|occurred|introduced|rolled\s+out|finished|crashed|failed|broke\s+down|"
    r"took\s+effect)\s+(?:[\w-]+\s+){0,4}?(?:in\s+)?(?:early|mid|late)[\s-]+(?:19|20)\d\d\b", re.I)
"""When something happened ('went live in early 2024', 'launched by the ministry in early 2024'): an event's date, unless
audits are what started or finished ('Audits that started in early 2024', ``_AUDIT_BEFORE``)."""
_AUDIT_BEFORE = re.compile(r"\b(?:audits?|reports?|inspections?|reviews?)\b[^.?!]{0,30}$", re.I)
_YEAR_RANGE = re.compile(r"((?:19[5-9]|20\d)\d)\s*(?:년)?\s*(?:[~〜～∼–—-]|부터|에서|to)\s*((?:19[5-9]|20\d)\d)(?!\s*(?:[만억천]|원))")
_RECENT = re.compile(r"최근\s*(\d{1,2})\s*년|(?:last|past)\s+(\d{1,2})\s+years")


@dataclass
class Catalog:
    """Institution names as stored, and the short forms that point at them."""

    names: list[str] = field(default_factory=list)
    aliases: dict[str, set[str]] = field(default_factory=dict)
    """squashed surface form -> canonical names."""
    english: dict[str, set[str]] = field(default_factory=dict)
    """' official english name ' (``english_names.words``) -> canonical names."""
    stems: dict[str, set[str]] = field(default_factory=dict)
    """romanised local-government stem (``english_names.skeleton``) -> canonical names."""

    @classmethod
    def build(cls, names: Iterable[str]) -> Catalog:
        cat = cls()
        for name in sorted({n.strip() for n in names if n and n.strip()}):
            cat.names.append(name)
            forms = {name, _REGION_PREFIX.sub("", name), *short_region_forms(name)}
            for full, shorts in AGENCY_ALIASES.items():
                if full in name:
                    forms.update(shorts)
            forms.update(PROVINCE_ALIASES.get(name, ()))
            for form in forms:
                if len(squash(form)) >= 2:
                    cat.aliases.setdefault(squash(form), set()).add(name)
            for form in english_forms(name):
                cat.english.setdefault(words(form), set()).add(name)
            if stem := romanised_stem(_REGION_PREFIX.sub("", name)):
                cat.stems.setdefault(stem, set()).add(name)
        return cat

    def find(self, text: str) -> list[str]:
        """Canonical names mentioned in text, longest surface forms first, no overlaps."""
        flat = squash(text)
        found: list[str] = []
        taken: list[tuple[int, int]] = []
        for form in sorted(self.aliases, key=len, reverse=True):
            start = flat.find(form)
            while start >= 0:
                span = (start, start + len(form))
                if not any(a < span[1] and span[0] < b for a, b in taken):
                    taken.append(span)
                    found.extend(n for n in sorted(self.aliases[form]) if n not in found)
                    break
                start = flat.find(form, start + 1)
        for m in _PROVINCE_WORD.finditer(text):  # '전남도 몫': the province, when the store holds it
            found.extend(n for n in self.aliases.get(f"{m.group(1)}도청", ()) if n not in found)
        if re.search(r"[A-Za-z]{2}", text):
            found.extend(n for n in self.find_english(text) if n not in found)
        return found

    @cached_property
    def _named(self) -> tuple[dict[str, str], re.Pattern[str] | None]:
        """Forms that name one institution (full names too, so they match whole) and their pattern:
        a whole word (a particle may follow), a local government's office too ('해운대구청에');
        short forms as written, long ones with any spacing ('부산광역시 해운대구')."""
        named = {form: next(iter(names)) for form, names in self.aliases.items() if len(names) == 1}
        if not named:
            return named, None
        forms = (
            (r"\s*".join(map(re.escape, f)) if len(f) >= 5 else re.escape(f)) + ("(?:청)?" if f[-1] in "도시군구" else "")
            for f in sorted(named, key=len, reverse=True)
        )
        return named, re.compile(f"(?:{'|'.join(forms)})(?=$|[^가-힣]|[은는이가을를의에와과도한께만랑])")

    def canonical(self, text: str) -> str:
        """The text with the held institutions it names by a short form written as stored
        ('전남도청한테' -> '전라남도한테', '해수부' -> '해양수산부'); one pass, longest forms first;
        not inside a longer word ('해운대구청년' stays)."""
        named, rule = self._named
        if rule is None:
            return text

        def stored(m: re.Match[str]) -> str:
            form = squash(m.group(0))
            return named.get(form) or named.get(form.removesuffix("청")) or m.group(0)

        def province(m: re.Match[str]) -> str:
            held = sorted(self.aliases.get(f"{m.group(1)}도청", ()))
            return held[0] if held else m.group(0)

        return _PROVINCE_WORD.sub(province, rule.sub(stored, text))

    def find_english(self, text: str) -> list[str]:
        """Canonical names an English text names: by official English name or acronym
        ('Ministry of Oceans and Fisheries', 'MSIT'), or by a romanised local-government name
        ('Haeundae-gu', 'Gokseong County')."""
        flat = words(text)
        found = [n for form, names in self.english.items() if form in flat for n in sorted(names)]
        local = without_other_bodies(text)  # 'Busan Port Authority' names no 부산광역시
        found += [n for stem, names in sorted(self.stems.items()) if mentions_stem(local, stem) for n in sorted(names)]
        return list(dict.fromkeys(found))


def writes_fiscal_year(year: int, flat: str) -> bool:
    """Whether ``flat`` (whitespace removed) writes ``year`` as a fiscal year: '2023회계연도', '2023년 회계연도', '2023년도
    결산', '2023사업연도', or at either end of a range or pair ('2019~2023회계연도', '2022·2023회계연도'). Not the years
    inside a range: '재무제표(2019~2023회계연도)' is one year's statements with their history, no audit of 2021's
    (f18, blind: "그 도 2022회계연도 재무제표도 감사원이 따로 검사했어?" has no answer in the reports)."""
    if re.search(rf"{year}년?도?(?:(?:회계|사업)(?:연도|년도))?(?:세입세출)?결산|{year}년?(?:회계|사업)(?:연도|년도)", flat):
        return True
    return any(year in (int(m.group(1)), int(m.group(2))) for m in _FISCAL_SPAN.finditer(flat))


_FISCAL_SPAN = re.compile(r"((?:19|20)\d\d)년?도?[~〜～–·,-]((?:19|20)\d\d)년?도?(?:회계|사업)(?:연도|년도)")
"""A range or pair of fiscal years, whitespace removed ('2019~2023회계연도', '2022년~2023년회계연도', '2022·2023회계연도')."""


def fiscal_years(text: str) -> list[int]:
    """The fiscal years the text names (``_FISCAL``): what a finding must be about, not the audit's year."""
    return sorted({int(y) for m in _FISCAL.finditer(text) for y in re.findall(r"20\d\d", m.group(0))})


def years(text: str, today: date | None = None) -> tuple[int | None, int | None]:
    today = today or date.today()
    text = _FISCAL.sub(" ", text)
    if m := _YEAR_RANGE.search(text):
        a, b = sorted((int(m.group(1)), int(m.group(2))))
        return a, b
    if m := _RECENT.search(text):
        n = int(m.group(1) or m.group(2))
        return today.year - n + 1, today.year
    if "작년" in text or "지난해" in text or "last year" in text.lower():
        return today.year - 1, today.year - 1
    if "올해" in text or "금년" in text or "this year" in text.lower():
        return today.year, today.year
    text = _ENGLISH_DATE.sub(" ", text)
    text = _ENGLISH_EVENT.sub(lambda m: m.group(0) if _AUDIT_BEFORE.search(m.string[: m.start()]) else " ", text)
    found = [int(next(g for g in m.groups() if g)) for m in _YEAR.finditer(text)]
    found += [min(int(m.group(1)) + 9, today.year) for m in _DECADE.finditer(text)]  # '1990년대': to 1999
    found = [y for y in found if y <= today.year]  # '2050년 수요': a forecast's year, no audit's
    if found:
        return min(found), max(found)
    return None, None


NOT_DISPOSITION = re.compile("|".join((
    r"시정\s*(?:조치\s*)?명령",
    r"시정\s*(?:이|을|을\s*다\s*)?\s*완료",
    r"주의보(?!다)",
    r"주의\s*의무",
    r"사전\s*통보",
    r"징계\s*(?:관련\s*)?(?:증명서|이력|시효|전력|기록)",
    r"(?<![가-힣])(?:주민|민원인|노조|노동조합|시민|시민단체|이용자|상인|학부모|입주민)(?:들|측)?(?:이|가|은|는|에서)\s+(?:[가-힣]+\s+){0,3}?[가-힣]*\s*개선(?:을|\s)\s*요구",
    r"['‘“\"]?개선['’”\"]?\s*(?:방안|계획|사업)",
)))
"""Words that contain a disposition's name without being one: an agency's 시정명령 to a firm, a 통보 whose
wrong the body had put right during the audit ('시정완료'), a weather
advisory ('풍랑주의보 때 어선 나가는 거'; not '주의보다 무거운 처분'), 주의의무, a 사전통보, a person's record of past
discipline ('징계 증명서 안 받는 교육청', '징계 이력 확인 없이'), an improvement residents or a union asked for
('주민들이 수차례 개선을 요구했는데도'), an improvement plan ("'개선' 방안이 뭐야")."""


_SET_ASIDE = r"(?:말고|말구|빼고|(?:이|가|은|는)?\s*(?:아닌(?!가|지|\s*거)|아니라)|제외|이외|외(?:에|의|엔|에는)?(?![가-힣]))"
"""What follows something the question sets aside ('성과감사 말고', '그 감사 빼고', '그 감사 외엔', '주의가 아니라'; not
'징계 아닌가요?')."""
_SET_ASIDE_FLAT = r"(?:말고|말구|빼고|아닌|아니라|제외|이외|외)"
"""``_SET_ASIDE`` in text without its spaces ('성과감사외에', '성과감사아닌')."""
_NAMED = "|".join(sorted({w for words in DISPOSITION_WORDS.values() for w in words if not w.isascii()}, key=len, reverse=True))
_DISPOSITIONS_SET_ASIDE = re.compile(
    rf"(?:{_NAMED})(?:\s*(?:[·ㆍ,/]|이나|나|랑|이랑|하고|과|와)\s*(?:{_NAMED}))*\s*(?:요구|처분)?\s*"
    r"(?:(?:선|수준|정도)에서\s*(?:안|않고|그치지)|(?:으로|로|에)\s*(?:안\s*끝|(?:끝나지|그치지)\s*않)|" + _SET_ASIDE + ")"
)
"""Dispositions a question sets aside ('통보·주의 선에서 안 끝나고 … 개선까지', '주의 말고 징계 받은 건'): not asked for."""


def dispositions(text: str) -> list[str]:
    """The dispositions the text names, in the order it names them ('훈계랑 징계' -> 훈계, 징계), not those it
    sets aside."""
    low = _DISPOSITIONS_SET_ASIDE.sub(" ", NOT_DISPOSITION.sub(" ", text.lower()))
    at = {d: min(i for w in words if (i := _named_at(w, low)) >= 0) for d, words in DISPOSITION_WORDS.items()
          if any(_named_at(w, low) >= 0 for w in words)}
    return sorted(at, key=at.__getitem__)


def _named_at(word: str, low: str) -> int:
    """Where ``word`` is named in ``low`` (English as a whole word), or -1."""
    if not word.isascii():
        return low.find(word)
    m = re.search(rf"(?<![a-z]){re.escape(word.lower())}s?(?![a-z])", low)
    return m.start() if m else -1




def audit_types(text: str) -> list[str]:
    """The audit types the question scopes to; not one it sets aside ('성과감사 말고')."""
    flat = squash(text)
    out = [t for t in AUDIT_TYPES if t in flat and not re.match(_SET_ASIDE_FLAT, flat[flat.index(t) + len(t):])]
    if not out and "정기감사" in flat:
        out.append("기관정기감사")
    return out


_OPINION_IN_PATTERN = re.compile(
    r"\s*(?:을|를|이|가|은|는|도|만|에)?\s*(?:안|못|제대로|충분히)?\s*(?:수렴|듣|들었|들어|들은|무시|묵살|반영|누락|배제|따라|"
    r"갈렸|갈린|엇갈|정반대|조회|받아들|구하|구한|청취|서|제출|없이|에도|과\s*(?:다르|달리)|와\s*(?:다르|달리))")
"""What follows an opinion a problem pattern mentions ('주민 의견 들었다가', '로펌 두 곳 의견이
정반대로', '의견 수렴 없이'), not the 관계기관 의견 asked for ('환경부 의견도 알려줘', '의견에 따르면')."""
_CASES_ASKED = re.compile(r"사례|경우|케이스")
"""A question asking for cases: an opinion in it is part of the pattern ('자문위원 의견이 있었는데도
무시한 사례')."""


def sections(text: str) -> list[str]:
    low = text.lower()
    out = [s for s, hints in SECTION_HINTS.items() if any(h.lower() in low for h in hints)]
    if ("opinion" not in out and not _CASES_ASKED.search(text)
            and any(not _OPINION_IN_PATTERN.match(text, m.end()) for m in re.finditer("의견", text))):
        out.append("opinion")
    return [s for s in SECTION_HINTS if s in out]


ANAPHORA = (
    "그 기관", "해당 기관", "같은 기관", "이 기관", "그기관", "그 감사", "이 감사", "해당 감사", "그 보고서", "이 보고서",
    "그 건", "이 건", "그중", "그 중", "이 중", "그 사례", "그 지적",
    "that institution", "the same institution", "that agency", "that finding", "this finding", "that audit",
    "this audit", "that report", "that case", "this case", "those findings", "the first one", "the second one", "that same",
)
_ANAPHOR = re.compile("|".join(rf"(?<![가-힣a-z]){re.escape(a)}" for a in ANAPHORA))


_POINTED = re.compile(
    r"^\W*(?:(?:and|so|ok(?:ay)?|then|now|what\s+about|how\s+about)[,\s]+)?the\s+(?:[\w-]+\s+){1,3}(?:piece|part|side|bit|angle|portion)\b"
    r"(?=\s*(?:[,?.!]|$|who\b|what\b|which\b))"
    r"|\b(?:that|this|(?<![a-z] )(?:the\s+)?same)\s+(?:(?!(?:was|is|has|had|were|are|did|does|a|an|any|one|some|every|each|no|all|"
    r"other|such|the|its|their|his|her)\b)[a-z-]+\s+)?(?:city|county|district|province|town|village|ministry|agency|body|office|institute|corporation|company|firm|"
    r"contractor|operator|project|programm?e?|app|system|facility|airport|port|harbou?r|building|employee|official|officer|worker|school|"
    r"cent(?:er|re)|fund|loan|grant|subsidy|contract|plan|survey|payment|amount|sum|procedure|rule|ship|boat|vessel)\b"
    r"(?!\s+(?:staff|personnel|people|(?!(?:was|has|is|does|as|us|thus|plus|less|unless|across|always|perhaps|besides)\b)[a-z]+s)\b)"
    r"|\b(?:those|these)\s+(?:cities|counties|districts|provinces|towns|ministries|agencies|bodies|offices|companies|firms|contractors|"
    r"operators|projects|programm?e?s|apps|systems|facilities|airports|ports|buildings|employees|officials|officers|workers|schools|"
    r"cent(?:er|re)s|funds|loans|grants|subsidies|contracts|plans|surveys|payments|amounts|procedures|rules|ships|boats|vessels|people|staff)\b"
    r"|^\W*(?:(?:and|so|ok|okay|then)[,\s]+)?(?:(?:please\s+)?(?:spell\s+out|list|describe|explain|give\s+me|tell\s+me)\s+)?"
    r"(?:what|the\s+(?:changes|steps|actions|measures|things|corrections|fixes))\s+"
    r"(?:they\s+(?:were|are|have\s+been|had\s+been|got)|(?:were|are)\s+they)\s+(?:asked|told|ordered|required|instructed|directed|urged)\s+to\b",
    re.I,
)
"""A body or thing the last answer showed, pointed at in English ('claw back … from that city', 'Same county, …', 'At that
fishing port', 'And the energy-efficiency target piece', 'those
procedures', 'Spell out the changes they were asked to make', 'What were they told to do?', opening the question;
not '… the corrections they were ordered to make' of something the question names itself); not 'an app that hardly anyone used', nor a clause after a verb of saying (``_SAYING``)."""
_SAYING = frozenset(
    "true said say says find found finds show shows showed shown admit admitted claim claimed clear sure know knew think thought "
    "note noted report reported mean means conclude concluded state stated argue argued believe suggest suggested confirm confirmed "
    "assume assumed ensure ensured notice noticed given fact demand demanded recommend recommended require required order ordered "
    "ask asked tell told warn warned seem seems seemed".split()
)
"""Words after which 'that' opens a clause ('Is it true that port authorities …', 'did it find that city halls …')."""



def anaphoric(text: str) -> bool:
    """The text points back with one of ``ANAPHORA``, as words of their own ('그중에', 'that case';
    not the '이 중' inside '분류기준이 중앙'), or at a body or thing shown (``_POINTED``: 'that city')."""
    if _ANAPHOR.search(text.lower()):
        return True
    for m in _POINTED.finditer(text):
        before = re.findall(r"[A-Za-z]+", text[: m.start()])
        if not (m.group(0)[:4].lower() == "that" and before and before[-1].lower() in _SAYING):
            return True
    return False


EN_BODY_REPORT = (
    r"\b(?:that|this|the same|same) (?:ministry|agency|institution|body|department|county|city|province)"
    r"(?:['’]s (?:audit|report)\b| (?:audit|report)(?=\s*(?:[:,.?!]|$)|\s+(?:in|of|on|about|findings?|results?)\b))"
    r"|\b(?:that|this|the same|same) (?-i:[A-Z])[\w'’-]*(?: (?-i:[A-Z])[\w'’-]*)? (?:audit|report)\b"
    r"(?!\s+(?:aside|excluded)\b)(?!\s+(?-i:[A-Z]))"
)
"""'same ministry audit:', 'that agency's report', 'this county audit in 2025', 'that same Gangwon audit': a body's audit as a noun; not 'Did the
same agency audit Haeundae-gu?', 'Did this city report the losses?' (a verb)."""
REPORT_ANAPHORA = re.compile(
    r"(?<![가-힣])(?:그|이|해당|같은)\s*(?:(?:도|시|군|구|기관|부처)\s*)?(?:감사|보고서)(?:에서|에|의|는|도|를|와|과)?(?![가-힣])"
    r"(?!\s*" + _SET_ASIDE + ")"
    r"|(?<![가-힣])거기(?:서|에서|엔|에선)?\s+(?:[가-힣]+\s+){0,2}(?:(?:또\s*)?다른\s*(?:건|지적|거|것|사례)|나머지)"
    r"|\b(?:that|this|the same|same) (?:audit|report)\b(?!\s*(?:aside|excluded))|" + EN_BODY_REPORT, re.I
)
"""'그 감사', '같은 보고서에서', '그 도 감사에서', '거기서 다른 …', 'that audit': the report retained from
earlier turns, 'same ministry audit' too (not '같은 감사기간', '그 감사원', '그 감사 말고 다른 데서')."""


def select_fields(
    question: str, hints: dict, retained_institutions: list[str], catalog: Catalog, retained_reports: list[str] | None = None
) -> FieldSelection:
    institutions = catalog.find(question) or list(hints.get("institutions") or [])
    why = []
    report_ids: list[str] = []
    if retained_reports and REPORT_ANAPHORA.search(question):
        report_ids = [Counter(retained_reports).most_common(1)[0][0]]
        why.append("'그 감사' resolved to the retained report")
    elif not institutions and retained_institutions and anaphoric(question):
        institutions = [Counter(retained_institutions).most_common(1)[0][0]]
        why.append("'그 기관' resolved from the retained documents")
    y0, y1 = years(question)
    if y0 is None:
        y0, y1 = hints.get("year_from"), hints.get("year_to")
    fields = FieldSelection(
        institutions=institutions,
        year_from=y0,
        year_to=y1,
        audit_types=audit_types(question),
        dispositions=dispositions(question) or list(hints.get("dispositions") or []),
        sections=sections(question),
        report_ids=report_ids,
        search_query=pattern(question),
    )
    named = [k for k, v in fields.model_dump(exclude={"reasoning", "search_query", "source"}).items() if v]
    fields.reasoning = "; ".join([f"from the question: {', '.join(named) or 'no filters'}", *why])
    return fields
