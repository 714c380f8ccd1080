"""Footnote reference marks that PDF extraction leaves inside sentences: '침술 처방을 하지
않아12) 환자가 없자13) …', '인정89)하였다', '(근무일수 14일24))'. The number belongs to a footnote
at the foot of the page; in a quote it reads as debris.

A mark is one to three digits and ')' straight after a word, a closing quote or a bracket. Not a
mark: an article's branch number ('｢관광진흥법｣ 제48조의10)'), and inside an open bracket a number
that closes it ('(정부24) 업무', '(코로나19), 경기'); there a mark is followed by the bracket's
own ')' a few words on, not a later mark's ('(국비 5억 원, 지방비 매칭1))', '(추정 사업비 1,777억
원3), 이하 …)', '(사석경사제 공법→케이슨109) 공법)'). Over the chunks of the 12 shared reports: 1,028
candidates, 1,023 marks; the five kept are four article numbers and '(정부24)'. A mark also
follows a full date ('2019. 5. 9.28) 주식회사', '2021. 11. 19.116)부터'): six in those chunks; and
a sentence's closing period ('반납되지 않고 있었다.180)', '체결하였다.4) 이에 따라'): 76, all marks (a list
number glued to a sentence's end, '같다.1) 계약 …', would be read as one; the 12 reports have none).
"""

from __future__ import annotations

import re

_MARK = re.compile(r"(?<=[가-힣’”」｣』)\]])\d{1,3}\)")
_PERIOD_MARK = re.compile(r"(?<!\d)(?:19|20)\d\d\.\s*\d{1,2}\.\s*\d{1,2}\.(\d{1,3}\))|(?<=[가-힣]\.)(\d{1,3}\))")
_ARTICLE_BRANCH = re.compile(r"제\s*\d+\s*조의\s*$")
_BRACKET_REACH = 60


def footnote_marks(text: str) -> list[tuple[int, int]]:
    """(start, end) of each footnote reference mark in ``text``."""
    periods = [m.span(1) if m.group(1) else m.span(2) for m in _PERIOD_MARK.finditer(text)]  # after a date, a sentence
    ends = {e - 1 for _, e in periods}  # their ')' closes no bracket
    out = []
    for m in _MARK.finditer(text):
        before = text[max(0, m.start() - 40) : m.start()]
        if _ARTICLE_BRANCH.search(before):
            continue
        if before.rfind("(") > before.rfind(")") and not _closed_later(text, m.end(), ends):
            continue  # '(정부24) 업무', '(코로나19), 경기': the number closes its own bracket
        out.append((m.start(), m.end()))
    return sorted(out + periods)


def _closed_later(text: str, pos: int, marks: set[int]) -> bool:
    """Whether a ')' other than a later mark's (``marks``: the ')' of marks after a date or a sentence's period) closes the
    bracket after ``pos``, before any '(' and within a few words: then the number before ``pos`` was
    a mark inside the bracket."""
    j, end = pos, min(len(text), pos + _BRACKET_REACH)
    while j < end:
        if text[j] == "(":
            return False
        if text[j] == ")" and j not in marks:
            return True
        j = m.end() if (m := _MARK.match(text, j)) else j + 1
    return False


def without_footnote_marks(text: str) -> str:
    """``text`` with its footnote reference marks removed."""
    return masked(text).replace(MASK, "")


MASK = "\ue000"
"""A private-use character that stands in for a mark's characters (``masked``)."""


def masked(text: str) -> str:
    """``text`` with each character of a footnote reference mark replaced by ``MASK``: positions
    stay those of ``text``, and a repair can see where a mark was."""
    chars = list(text)
    for s, e in footnote_marks(text):
        chars[s:e] = MASK * (e - s)
    return "".join(chars)
