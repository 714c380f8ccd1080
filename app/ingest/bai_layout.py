"""Line-level helpers for the 감사원 report parser (see app.ingest.bai_parser for the layouts).

Everything here works on *normalised lines*: page text split into lines, page headers and
footers ('- 7 -', 'ii') dropped, and a few glued markers ('...하였다. 조치할 사항 ...')
split onto their own line. Each line keeps its 1-based page and a ``key``: the text with
all whitespace removed, because PDF extraction often loses (or adds) the spaces between
Korean words ('관 계 기 관 의 견', '관계기관의견' and '관계기관 의견' share one key).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.vocab import DISPOSITIONS


@dataclass(frozen=True)
class Line:
    page: int
    text: str
    key: str


def squash(text: str) -> str:
    """Remove every whitespace character (the comparison key of a line)."""
    return re.sub(r"\s+", "", text)


def spaced(word: str) -> str:
    """Regex matching ``word`` with optional whitespace between its characters."""
    return r"\s*".join(re.escape(ch) for ch in word)


# ---------------------------------------------------------------- normalisation

_PAGE_FURNITURE = re.compile(r"^(?:-\s*\d{1,3}\s*-|[ivx]{1,5})$")
_PRIVATE_USE = re.compile("[\x00\ue000-\uf8ff]")  # redaction boxes and odd glyphs
_MARKER_WORDS = ("관계기관의견", "조치할사항", "소결및관계기관의견")
_GLUED_MARKER = re.compile(
    r"(?<=다\.)\s*(?=(?:[가나다라마바사아자차카타파하][.)]\s*|\d{1,2}\.\s*)?(?:"
    + "|".join(spaced(w) for w in _MARKER_WORDS)
    + r"|"
    + spaced("관계")
    + r"\s*(?:법령|규정))"
    + r")"
)


def normalise_pages(pages: list[str]) -> list[Line]:
    """All non-empty lines of a document, without page furniture, glued markers split."""
    lines: list[Line] = []
    for page_no, raw in enumerate(pages, start=1):
        for text in raw.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
            for part in _GLUED_MARKER.split(text):
                part = _PRIVATE_USE.sub("", part).strip()
                if not part or _PAGE_FURNITURE.match(part):
                    continue
                lines.append(Line(page_no, part, squash(part)))
    return lines


# ---------------------------------------------------------------- headings

# A numbered heading: '2 제목', '가-1 제목', '-가-2) 제목', '1-가-1) 제목', '2-가. 제목', '나 제목',
# '3. 문제점: ① 제목', '1) 업무 개요', '가. 관계 법령과 판단기준', '제2절 ...', 'Ⅲ. 감사결과'.
LETTER = "[가나다라마바사아자차카타파하]"
"""Korean list letters (a plain [가-하] range would also match every syllable in between)."""
HEADING_RE = re.compile(
    r"""^\s*(?P<num>
        제\s*\d{1,2}\s*[장절]
      | [ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ]{1,4}\.
      | \(\d{1,2}\) | \(L\)
      | -?(?:\d{1,2}-)?L-\d{1,2}\)?\.?
      | \d{1,2}-L\.?
      | -L\.?(?=\s)
      | \d{1,2}\.(?!\s*\d)
      | \d{1,2}\)
      | L\.
      | L\)
      | \d{1,2}(?=\s)
      | L(?=\s)
    )\s*(?P<rest>.*)$""".replace("L", LETTER),
    re.X,
)
# Numbering styles that can open a finding title (footnote-like '12)' and '가)' cannot).
_TITLE_NUM = re.compile(
    r"^(?:-?(?:\d{1,2}-)?L-\d{1,2}\)?\.?|\d{1,2}-L\.?|-L\.?|\d{1,2}\.?|L\.?)$".replace("L", LETTER)
)


def heading_parts(text: str) -> tuple[str, str] | None:
    """(numbering, rest) when the line starts with a heading number, else None."""
    m = HEADING_RE.match(text)
    if not m or not m.group("rest").strip():
        return None
    return m.group("num").strip(), m.group("rest").strip()


def strip_numbering(key: str) -> str:
    """The key without a leading heading number ('가.관계법령' -> '관계법령')."""
    m = HEADING_RE.match(key)
    if m and m.group("rest"):
        return squash(m.group("rest"))
    return key


# ---------------------------------------------------------------- section kinds

_KIND_PATTERNS: list[tuple[str, re.Pattern[str], bool]] = [
    # (kind, pattern over the numbering-stripped key, marker may be followed by text)
    ("actions", re.compile(r"^조치할사항"), True),
    ("opinion", re.compile(r"^(?:소결및)?관계기관(?:의)?의견"), True),
    (
        "criteria",
        re.compile(
            r"^(?:관계|관련)(?:법령|규정|사실)|^(?:법령|규정)?(?:과|및)?판단기준|^분석의?필요성"
        ),
        False,
    ),
    (
        "problems",
        re.compile(r"^감사결과확인된문제점|^(?:감사결과|분석결과|원인분석|분석방법|문제점)$"),
        False,
    ),
    (
        "overview",
        re.compile(r"^(?:업무|사건|사업)개요|^분석의?대상$|^(?:국회)?감사요구내용$"),
        False,
    ),
]
FIRST_SUBSECTION_KINDS = ("overview", "criteria")


def section_kind(line: Line) -> tuple[str, str] | None:
    """(kind, text after the marker) when the line opens a finding section, else None."""
    numbered = heading_parts(line.text) is not None
    body = strip_numbering(line.key) if numbered else line.key
    for kind, pattern, inline in _KIND_PATTERNS:
        m = pattern.match(body)
        if not m:
            continue
        if inline:
            return kind, _after_marker(line.text, m.group(0))
        if len(body) <= 25 and (numbered or len(body) <= 14):
            return kind, ""
    return None


def _after_marker(text: str, marker_key: str) -> str:
    """The text of a line after its spaced-out marker ('조 치 할 사 항 부산...' -> '부산...')."""
    m = re.search(spaced(marker_key), text)
    return text[m.end() :].strip() if m else ""


def is_title_candidate(line: Line) -> bool:
    """A numbered line that may be a finding title (not a table row, date or sentence)."""
    parts = heading_parts(line.text)
    if not parts:
        return False
    num, rest = parts
    if not _TITLE_NUM.match(squash(num)) or len(squash(rest)) < 4 or len(line.text) > 80:
        return False
    if "▪" in rest or "￭" in rest or rest.endswith(("다.", "음", "함")):
        return False
    if re.match(r"^[\d,.\s%~-]+$", rest) or len(re.findall(r"\d+", rest)) > 3:
        return False
    return section_kind(line) is None


# ---------------------------------------------------------------- dispositions

_DISP_WORDS = "|".join(DISPOSITIONS)
DISPOSITION_TAG = re.compile(
    r"[(\[]\s*((?:법령상\s*)?(?:" + _DISP_WORDS + r")[^()\[\]]{0,12}(?:\([^()]{0,10}\))?)\s*[)\]]"
)


def disposition_words(tag_text: str) -> list[str]:
    """'징계2·주의2·통보·통보(인사자료)' -> ['징계', '주의', '통보', '인사자료']."""
    found: list[str] = []
    for piece in re.split(r"[·ㆍ,및]|\s+", tag_text):
        if not piece:
            continue
        if "인사자료" in piece:
            word = "인사자료"
        else:
            m = re.search(_DISP_WORDS, piece)
            if not m:
                continue
            word = m.group(0)
        if word not in found:
            found.append(word)
    return found


def dispositions_in(text: str) -> list[str]:
    """Distinct dispositions of the '(주의)' style tags in a text, in order of appearance."""
    found: list[str] = []
    for m in DISPOSITION_TAG.finditer(text):
        for word in disposition_words(m.group(1)):
            if word not in found:
                found.append(word)
    return found


def strip_disposition_suffix(title: str) -> tuple[str, list[str]]:
    """'위원 제척 부적정(주의)' -> ('위원 제척 부적정', ['주의'])."""
    m = re.search(r"\s*[(\[]([^()\[\]]*(?:\([^()]*\))?[^()\[\]]*)[)\]]\s*$", title)
    if m:
        words = disposition_words(m.group(1))
        if words:
            return title[: m.start()].strip(), words
    return title.strip(), []
