"""Amounts and organisations in 감사원 report text: won amounts ('3억 2,000만 원'), the
addressees of action clauses ('○○시장은', '△△공사 사장은') and the institutions they head."""

from __future__ import annotations

import re

from app.ingest.bai_layout import squash

# ---------------------------------------------------------------- money

_UNITS = {"조": 10**12, "억": 10**8, "천만": 10**7, "백만": 10**6, "만": 10**4, "천": 10**3, "": 1}
_NUM_UNIT = r"\d[\d,]*(?:\.\d+)?\s*(?:조|억|천만|백만|만|천)?"
AMOUNT_RE = re.compile(
    r"(?<![\d.,])((?:\d[\d,]*(?:\.\d+)?\s*(?:조|억|천만|백만|만|천)\s*)*"
    + _NUM_UNIT
    + r")\s*여?\s*원(?![가인칙장리형래본활/])"
)


def amounts_in(text: str) -> list[int]:
    """Won amounts stated in a text ('485백만 원', '6억 9,000만 원', '9,000,000원'), deduplicated."""
    found: list[int] = []
    for m in AMOUNT_RE.finditer(text):
        total = 0.0
        for number, unit in re.findall(
            r"(\d[\d,]*(?:\.\d+)?)\s*(조|억|천만|백만|만|천)?", m.group(1)
        ):
            digits = number.replace(",", "")
            if digits.count(".") > 1:
                total = 0
                break
            total += float(digits) * _UNITS[unit]
        value = int(round(total))
        if value >= 1000 and value not in found:
            found.append(value)
    return found


# ---------------------------------------------------------------- organisations

_HEAD_TITLES = (
    "장관",
    "구청장",
    "청장",
    "시장",
    "군수",
    "도지사",
    "지사",
    "위원장",
    "이사장",
    "원장",
    "사장",
    "처장",
    "총장",
    "소장",
    "단장",
    "교육감",
    "의장",
    "기관장",
    "본부장",
    "회장",
)
ADDRESSEE_RE = re.compile(
    r"^(?:[①-⑳]\s*)?(?:[(\[][^()\[\]]{0,40}[)\]]\s*)?"
    r"(?P<who>[가-힣A-Za-z0-9·ㆍ()\[\]\s]{2,60}?(?:"
    + "|".join(_HEAD_TITLES)
    + r"))\s*(?:은|는)(?=\s|$|[(\[])"
)
_SUFFIX_TO_ORG = [
    ("구청장", "구"),
    ("시장", "시"),
    ("군수", "군"),
    ("도지사", "도"),
    ("교육감", "교육청"),
    ("기관장", "기관"),
    ("본부장", "본부"),
    ("위원장", "위원회"),
    ("이사장", ""),
    ("청장", "청"),
    ("원장", "원"),
    ("처장", "처"),
    ("소장", "소"),
    ("단장", "단"),
    ("의장", "의회"),
    ("장관", ""),
    ("지사", ""),
    ("사장", ""),
    ("총장", ""),
    ("회장", "회"),
]


def addressees(line_text: str) -> list[str]:
    """Heads named at the start of an action paragraph: '익산시장 및 군산시장은' -> both."""
    m = ADDRESSEE_RE.match(line_text.strip())
    if not m:
        return []
    who = m.group("who").strip()
    if re.search(r"하오니|위하여|하여|으로|에게|에서|하고|하며|대하여", who):
        return []
    parts = re.split(r"\s*(?:및|,|ㆍ|·)\s*|(?<=장관)과\s+|(?<=[장수사])와\s+", who)
    return [p.strip() for p in parts if len(squash(p)) >= 3]


def institution_of(addressee: str) -> str | None:
    """'부산광역시 해운대구청장' -> '부산광역시 해운대구'; '한국토지주택공사 사장' -> '한국토지주택공사'."""
    text = re.sub(r"\s+", " ", addressee).strip()
    m = re.match(r"^(.+?)\s+(?:사장|위원장|이사장|원장|회장|청장|장)$", text)
    if m:
        return m.group(1)
    for suffix, replacement in _SUFFIX_TO_ORG:
        if text.endswith(suffix):
            org = (text[: -len(suffix)] + replacement).strip()
            return org if len(squash(org)) >= 2 else None
    return None


def split_orgs(text: str) -> list[str]:
    """'① 곡성군 ② 곡성군의회' -> ['곡성군', '곡성군의회']; a plain name -> [name]."""
    parts = [p.strip(" ,") for p in re.split(r"[①-⑳]", text)]
    return [re.sub(r"\s+", " ", p) for p in parts if p]
