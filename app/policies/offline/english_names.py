"""Institutions named in English: the official English names of central agencies, romanised
local-government names ('Haeundae-gu', 'Damyang County', 'Gangwon State'), and English
organisation names in general ('National Pension Service'), so an English question is scoped to
the institution it names, or declined when the reports do not hold it.

Romanisation is hangul-romanize's transliteration compared on a consonant skeleton, so the
official Revised Romanization forms match it without its sound-change rules (곡성: gogseong /
Gokseong, 강릉: gangleung / Gangneung, 정읍: jeong-eub / Jeongeup)."""

from __future__ import annotations

import re
from functools import lru_cache

from hangul_romanize import Transliter
from hangul_romanize.rule import academic

AGENCY_ENGLISH: dict[str, tuple[str, ...]] = {
    "해양수산부": ("Ministry of Oceans and Fisheries", "MOF", "fisheries ministry", "oceans ministry"),
    "문화체육관광부": ("Ministry of Culture, Sports and Tourism", "MCST", "culture ministry"),
    "국토교통부": ("Ministry of Land, Infrastructure and Transport", "MOLIT", "land ministry", "transport ministry"),
    "과학기술정보통신부": ("Ministry of Science and ICT", "MSIT", "science ministry", "ICT ministry"),
    "행정안전부": ("Ministry of the Interior and Safety", "Ministry of Interior and Safety", "MOIS", "interior ministry"),
    "산업통상자원부": ("Ministry of Trade, Industry and Energy", "MOTIE", "industry ministry"),
    "보건복지부": ("Ministry of Health and Welfare", "MOHW", "health ministry", "welfare ministry"),
    "기획재정부": ("Ministry of Economy and Finance", "MOEF", "finance ministry"),
    "환경부": ("Ministry of Environment", "Ministry of the Environment", "environment ministry"),
    "교육부": ("Ministry of Education", "education ministry"),
    "법무부": ("Ministry of Justice", "justice ministry"),
    "고용노동부": ("Ministry of Employment and Labor", "MOEL", "labor ministry", "labour ministry"),
    "농림축산식품부": ("Ministry of Agriculture, Food and Rural Affairs", "MAFRA", "agriculture ministry"),
    "병무청": ("Military Manpower Administration", "MMA"),
    "해양경찰청": ("Korea Coast Guard", "Coast Guard", "KCG"),
    "농촌진흥청": ("Rural Development Administration", "RDA"),
    "대통령경호처": ("Presidential Security Service", "PSS"),
    "한국공항공사": ("Korea Airports Corporation", "KAC"),
    "한국토지주택공사": ("Korea Land and Housing Corporation", "LH Corporation"),
    "한국문화예술위원회": ("Arts Council Korea", "ARKO"),
    "한국지역정보개발원": ("Korea Local Information Research and Development Institute", "KLID"),
    "국가정보자원관리원": ("National Information Resources Service", "NIRS"),
    "지방항공청": ("Regional Office of Aviation", "Regional Aviation Administration"),
    "선박해양플랜트연구소": ("Korea Research Institute of Ships and Ocean Engineering", "KRISO"),
    "해양수산과학기술진흥원": ("Korea Institute of Marine Science and Technology Promotion", "KIMST"),
    "한국전력공사": ("Korea Electric Power Corporation", "KEPCO"),
    "한국전기안전공사": ("Korea Electrical Safety Corporation", "KESCO"),
    "한국해양교통안전공단": ("Korea Maritime Transportation Safety Authority", "KOMSA"),
    # public bodies often audited, whose English names and acronyms auditors write ('KBS 쪽 지적사항은', "Korail's procurement")
    "한국철도공사": ("Korea Railroad Corporation", "Korail", "KORAIL"),
    "한국도로공사": ("Korea Expressway Corporation", "KEC"),
    "한국수자원공사": ("Korea Water Resources Corporation", "K-water"),
    "한국가스공사": ("Korea Gas Corporation", "KOGAS"),
    "한국수력원자력": ("Korea Hydro & Nuclear Power", "KHNP"),
    "한국방송공사": ("Korean Broadcasting System", "KBS"),
    "한국교육방송공사": ("Korea Educational Broadcasting System", "EBS"),
    "국민건강보험공단": ("National Health Insurance Service", "NHIS"),
    "국민연금공단": ("National Pension Service", "NPS"),
    "한국관광공사": ("Korea Tourism Organization", "KTO"),
    "대한무역투자진흥공사": ("Korea Trade-Investment Promotion Agency", "KOTRA"),
    "한국국제협력단": ("Korea International Cooperation Agency", "KOICA"),
    "한국산업은행": ("Korea Development Bank", "KDB"),
    "한국수출입은행": ("Export-Import Bank of Korea", "KEXIM", "Korea Eximbank"),
    "서울주택도시공사": ("Seoul Housing & Communities Corporation", "SH Corporation"),
    "국세청": ("National Tax Service", "NTS"),
    "관세청": ("Korea Customs Service", "KCS"),
    "소방청": ("National Fire Agency", "NFA"),
    "질병관리청": ("Korea Disease Control and Prevention Agency", "KDCA"),
    "식품의약품안전처": ("Ministry of Food and Drug Safety", "MFDS"),
    "금융감독원": ("Financial Supervisory Service", "FSS"),
    "공정거래위원회": ("Korea Fair Trade Commission", "KFTC"),
    "국방부": ("Ministry of National Defense", "MND", "defense ministry", "defence ministry"),
    "외교부": ("Ministry of Foreign Affairs", "MOFA"),
    "여성가족부": ("Ministry of Gender Equality and Family", "MOGEF"),
    "중소벤처기업부": ("Ministry of SMEs and Startups", "MSS"),
    "조달청": ("Public Procurement Service", "PPS"),
    "산림청": ("Korea Forest Service", "KFS"),
    "기상청": ("Korea Meteorological Administration", "KMA"),
}
"""Official English names (and the acronyms and plain forms English writers use) of agencies,
keyed by a part of the Korean name ('지방항공청' covers 부산지방항공청)."""

_LOCAL_SUFFIX = re.compile(r"(?:특별자치도|특별자치시|광역시|특별시|시|군|구|도)$")
_EN_SUFFIXES = ("", "gu", "gun", "si", "do")
_SKELETON = str.maketrans({"k": "g", "p": "b", "t": "d", "r": "n", "l": "n"})


def skeleton(word: str) -> str:
    """A romanised word reduced so transliteration and official spelling agree."""
    return re.sub(r"[^a-z]", "", word.lower()).translate(_SKELETON)


@lru_cache(maxsize=1)
def _transliter() -> Transliter:
    return Transliter(academic)


def romanised_stem(name: str) -> str | None:
    """'해운대구' -> skeleton of 'haeundae'; None for names that are not a local government or
    whose stem is a single syllable."""
    head = name.split()[-1]
    stem = _LOCAL_SUFFIX.sub("", head)
    if stem == head or len(stem) < 2 or not re.fullmatch(r"[가-힣]+", stem):
        return None
    return skeleton(_transliter().translit(stem))


def english_forms(name: str) -> set[str]:
    """The English surface forms of an institution: official names whose Korean key it contains."""
    return {form for key, forms in AGENCY_ENGLISH.items() if key in name for form in forms}


def korean_names(english: str) -> list[str]:
    """The Korean names an English organisation name is the official name (or acronym) of
    ('Korea Electric Power Corporation' -> 한국전력공사), for organisations the reports only
    mention, which the catalog does not hold."""
    said = words(english)
    return [key for key, forms in AGENCY_ENGLISH.items() if any(words(f) == said for f in forms)]


def words(text: str) -> str:
    """English text as ' word word … ' (lower case, hyphens and punctuation as spaces, '&' as 'and')."""
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower().replace("&", " and "))) + " "


def mentions_stem(text: str, stem: str) -> bool:
    """A romanised stem as a word of the text, alone or with its suffix ('Haeundae-gu',
    'Haeundaegu', 'Damyang County')."""
    return any(skeleton(w) in {stem + s for s in _EN_SUFFIXES} for w in re.findall(r"[A-Za-z]+", text))


_HEAD = r"(?:Ministry|Agency|Service|Administration|Office|Corporation|Commission|Government|Authority|Institute|[Pp]rovince|[Cc]ounty|[Cc]ity|Guard)"
"""Heads of public bodies an audit is about. Not universities, hospitals, firms or funds: those
appear inside findings as where a case happened, and an English name cannot be looked up in the
Korean text to tell."""
_EN_ORG_NAME = re.compile(
    rf"\b((?:[A-Z][\w&'-]*\s+(?:(?:of|and|for|the|on|&)\s+)*){{0,6}}{_HEAD}\b(?:\s+(?:of|for)(?:\s+the)?(?:,?\s+(?:and\s+|&\s+)?[A-Z][\w&'-]*)+)?)"
)
_OWN = re.compile(r"board of audit|\bBAI\b", re.I)


_LOCAL_WORD = re.compile(r"\b(?:City|County|District|Ward|Province|Provincial|Metropolitan|Municipal|Government)\b"
                         r"|\b\w+[- ](?:gu|gun|si|do)\b|^\S+ Office$", re.I)
_OTHER_BODY = re.compile(r"\b(?:Office of Education|Authority|Regional Office|Corporation|Agency|Institute|Service)\b", re.I)


def without_other_bodies(text: str) -> str:
    """``text`` without the English names of bodies that are no local government, which a place name may open
    ('Busan Port Authority', 'Busan Regional Office of Oceans and Fisheries', 'Busan Metropolitan City Office of
    Education': not 부산광역시; 'Busan City', 'Gokseong County Office', 'Haeundae Gu Office', 'Haeundae District Office',
    'Haeundae Office' stay)."""
    for name in english_organisations(text):
        if _OTHER_BODY.search(name) or not _LOCAL_WORD.search(name):
            text = text.replace(name, " ")
    return text


def english_organisations(text: str) -> list[str]:
    """English organisation names in the text ('National Pension Service', 'Seoul Metropolitan
    Government', 'Ministry of Justice'), at least two words, the 감사원 itself excluded; and the
    acronyms of ``AGENCY_ENGLISH`` written alone ('Is KEPCO involved …?'), not any capitals
    ('ICT', 'PUE'); local governments by their romanised names ('Suyeong-gu')."""
    out = []
    for m in _EN_ORG_NAME.finditer(text):
        words = m.group(1).split()
        while words and words[0].lower() in _NOT_A_NAME:  # 'Did the County …', 'Which Agency …'
            words.pop(0)
        for name in _listed(" ".join(words)):
            if len(name.split()) >= 2 and not _OWN.search(name) and name not in out:
                out.append(name)
    out += [n for n in dict.fromkeys(m.group(0) for m in _ROMANISED_LOCAL.finditer(text)) if not any(n in o for o in out)]
    named = {k for n in out for k in korean_names(n)}
    out += [a for a in dict.fromkeys(_ACRONYM.findall(text)) if a in _ACRONYMS and not set(korean_names(a)) & named]
    for rule in (_OFFICIAL, _BRAND):
        for b in dict.fromkeys(m.group(0) for m in rule.finditer(text)):
            if not set(korean_names(b)) & named and not any(b in o for o in out):  # not inside a longer name ('Ministry of Education, Science …')
                out = [o for o in out if o not in b] + [b]  # a fragment of it ('Communities Corporation') gives way
    return out  # not 'KEPCO' beside 'Korea Electric Power Corporation (KEPCO)'


def _listed(name: str) -> list[str]:
    """A name read across 'and' or '&' as the bodies it lists, when each part is one by its head
    ('Korea Water Resources Corporation & Ministry of Environment'); else the name
    ('Korea Local Information Research & Development Institute', 'Ministry of Oceans and Fisheries')."""
    parts = re.split(r"\s+(?:and|&)\s+", name)
    return parts if len(parts) > 1 and all(_HEAD_WORD.search(p) for p in parts) else [name]


_HEAD_WORD = re.compile(rf"\b{_HEAD}\b")
_ROMANISED_LOCAL = re.compile(r"\b[A-Z][a-z]{2,}(?:-[a-z]+)?-(?:gu|gun|si)\b")
"""A local government by its romanised name ('Suyeong-gu', 'Gimpo-si', 'Jangheung-gun'); not a
province ('-do': 'To-do', 'Must-do' are no places)."""
def romanised_local(name: str) -> bool:
    """A romanised local-government name ('Seodaemun-gu'): which Korean name it stands for is not
    known unless the catalog holds it."""
    return bool(_ROMANISED_LOCAL.fullmatch(name))


_ACRONYM = re.compile(r"(?<![A-Za-z])[A-Z]{2,6}(?![A-Za-z])")
_ACRONYMS = frozenset(f for forms in AGENCY_ENGLISH.values() for f in forms if _ACRONYM.fullmatch(f))
def _forms_rule(forms: list[str], flags: int = 0) -> re.Pattern[str]:
    """Any of ``forms`` as a name of its own; 'and' and '&' either way ('Research & Development Institute')."""
    written = [re.sub(r"\\ (?:and|\\?&)\\ ", r"\\s+(?:and|&)\\s+", re.escape(f)) for f in sorted(forms, key=len, reverse=True)]
    return re.compile(r"(?<![A-Za-z-])(?:" + "|".join(written) + r")(?![A-Za-z-])", flags)


_NAMES = [f for forms in AGENCY_ENGLISH.values() for f in forms if re.search(r"[A-Z]", f) and not _ACRONYM.fullmatch(f)]
_BRAND = _forms_rule([f for f in _NAMES if " " not in f], re.I)
"""A body's one-word name in any case ("Korail's", 'K-water'), not a capitals acronym (those: ``_ACRONYMS``)."""
_OFFICIAL = _forms_rule([f for f in _NAMES if " " in f])
"""... and its official name as written ('the Export-Import Bank of Korea', whose head no rule reads as a public
body's); not in lower case ('public procurement service contracts') nor a plain form ('culture ministry')."""


_NOT_A_NAME = frozenset(
    "a an the and or of for on in at by to from about did does do has have had is are was were which what who whose how why "
    "when where any can could should would will has this that these those its their if but so also then another other same "
    "every each big inner".split()
)
