"""What a lookup (the fast track's count, list, group or top-N over findings) is about beyond
its filters: the topic words left once the institutions, years, dispositions, audit types and
the words of the lookup itself are set aside ('감정평가 관련 지적 몇 건이야?' -> 감정평가; '어선
안전관리 실태점검 처분은 몇 건이야?' -> 어선, 안전관리). The SQL planner keeps the findings whose
title, overview, problems or report title holds every topic word, so a lookup never counts the
whole store for a question about one subject."""

from __future__ import annotations

import re

from app.policies.offline.english_names import english_organisations, korean_names
from app.policies.offline.fields import NOT_DISPOSITION, Catalog, audit_types, dispositions
from app.policies.offline.intent import named_organisations
from app.policies.offline.lexicon import AUDIT_TYPES, DISPOSITION_WORDS, FACET_TERMS, STOP_MORPHEMES
from app.text.korean import get_kiwi

LOOKUP_WORDS = frozenset(
    "지적 지적사항 사항 건 건수 개수 수 목록 리스트 관련 기관 기관별 처분 처분요구 요구 조치 종류 유형 연도 년도 "
    "보고서 감사 감사결과 결과 정기 정기감사 기관정기감사 전체 전부 총 모두 상위 순위 분야 쪽 별 표 합계 금액 내역 현황 "
    "실태 추진 추진실태 실태점검 점검 대응 대응점검 운영 운영실태 사례 케이스 내용 정리 그룹 위 곳 군데 개 최다 최소 "
    "가장 많 순 각각 통계 분포 비율 감사원 뭐뭐 나열 최근 이번 해당 기준 지역 작년 올해 재작년 금년 전년 지난해 "
    "시군 시도 지자체 대상 그중 중 이중 거기 지금 현재 혹시 정도 자료 저장 등록 누적 총계 추이 변화 대비 평균 근래 요즘 "
    "상반기 하반기 분기 제목 최신 날짜 순서 번호 엑셀 소관 산하 본부 공공 명 숫자 수치 건별 당 다 "
    "확인 조회 검색 집계 카운트 그래프 차트 비교 업로드 피감 피감기관 소속 소속기관 기초 광역 시군구 인지".split()
)
"""Words that frame a lookup (what to count, list or group, how, over what period, in what form)
rather than what it is about."""
MAX_TOPIC_WORDS = 5
"""Topic words a lookup filters on at most (each adds a clause to the SQL, whose length is capped)."""
_DISPOSITION_NAMED = re.compile(
    "(?:" + "|".join(sorted((w for ws in DISPOSITION_WORDS.values() for w in ws if not w.isascii()), key=len, reverse=True))
    + r")\s*(?:명령|판정|요구|처분|촉구|사항)?"
)
"""A disposition as a lookup names it ('변상명령', '징계 요구'): a filter, not a topic."""

_NOUNS = ("NNG", "NNP", "XR")


def _framing(form: str) -> bool:
    return form in LOOKUP_WORDS or form in STOP_MORPHEMES or form in FACET_TERMS


def _runs(text: str) -> list[str]:
    """Words of topic nouns as written ('감정평가', '국고보조금', '미등록', '내용연수'), less the lookup words
    they end with ('어선안전관리실태점검' -> 어선안전관리, '보조금관련' -> 보조금); a word of lookup words
    only ('정기감사지적사항', '조치결과') is none."""
    runs: list[list[str]] = []
    end = -1
    for t in get_kiwi().tokenize(text):
        if t.tag not in _NOUNS and not (t.tag == "XPN" and t.form in _NEGATING):
            end = -1
            continue
        if t.start == end and runs:
            runs[-1].append(t.form)
        else:
            runs.append([t.form])
        end = t.start + t.len
    out = []
    for run in runs:
        while len(run) > 1 and _framing(run[-1]) and run[-1] not in _HEADS and not all(f in _NEGATING for f in run[:-1]):
            run.pop()  # '어선안전관리실태점검' -> 어선안전관리; not '미등록' -> 미, '선정기준' -> 선정
        content = [f for f in run if f not in _NEGATING]
        if content and (not all(_framing(f) for f in content) or len(content) < len(run)):  # '미등록' holds a subject
            out.append("".join(run))
    return out


_GENERIC_NAME = frozenset(
    "local provincial central korean korea public government governments service services office offices national "
    "metropolitan city county district ministry ministries agency agencies corporation corporations administration".split()
)
_NAMES_A_LAW = re.compile(r"\s+(?:Act|Law|Decree|Rules?|Regulations?|Building|Buildings)\b")


def _a_body(name: str, question: str) -> bool:
    """An English organisation name that names one body, not a kind of body ('Local Government', 'Public Service') nor a
    law or building named after one ('the Local Government Act', 'Government Office Building')."""
    if re.search(re.escape(name) + _NAMES_A_LAW.pattern, question):
        return False
    return bool(korean_names(name)) or not all(w.lower() in _GENERIC_NAME for w in name.split())


_NEGATING = frozenset("미 무 비 부 불".split())
"""Prefixes a subject keeps ('미등록', '무자격', '비공개')."""
_HEADS = frozenset("기준 대상 자료 내용 등록 번호 제목 비교 확인".split())
"""Lookup words that head a subject when written into it ('선정기준', '내용연수' is kept whole anyway)."""


def topic_words(question: str, catalog: Catalog, english_terms: list[str] | None = None) -> list[str]:
    """The topic of a lookup, as words its findings must hold (see the module docstring). An
    English question's topic is the Korean report terms it names (``english_terms``, from the
    glossary); its other English words cannot be matched against the Korean reports."""
    if english_terms is not None:  # whole report terms ('overtime pay' -> 시간외근무수당), those that are no filter
        framing = LOOKUP_WORDS | FACET_TERMS | STOP_MORPHEMES  # (findings -> 문제점)
        # an organisation the catalog does not hold is the subject, by its Korean name where it has one
        # ('Korail' -> 한국철도공사), else as written: 'findings of Busan Transportation Corporation' never lists the store
        bodies = [next(iter(korean_names(n)), n) for n in english_organisations(question) if not catalog.find(n) and _a_body(n, question)]
        words = [t for t in english_terms if not (catalog.find(t) or dispositions(t) or audit_types(t) or t in framing)]
        return list(dict.fromkeys([*bodies, *words]))[:MAX_TOPIC_WORDS]
    text = question
    kept: list[str] = []  # organisations the catalog does not hold are topics, whole ('해양경찰청', not 해양 + a held 경찰청)
    for name in named_organisations(text):
        if re.search(r"[가-힣]", name) and not catalog.find(name) and not _DISPOSITION_NAMED.fullmatch(name):  # not '징계요구'
            kept.append(name)
            text = text.replace(name, " ")
    for form in [*sorted(catalog.aliases, key=len, reverse=True), *AUDIT_TYPES]:  # filters ('담양군곡성군정기감사', '성과감사')
        if len(form) >= 2:
            text = re.sub(r"\s*".join(map(re.escape, form)), " ", text, flags=re.I)
    parts = re.split(f"({NOT_DISPOSITION.pattern})", text)  # '시정명령' is a topic, not 시정
    text = "".join(p if i % 2 else _DISPOSITION_NAMED.sub(" ", p) for i, p in enumerate(parts))
    out: list[str] = []
    for word in [*kept, *_runs(text)]:
        if len(word) < 2 or word in out or word in LOOKUP_WORDS:  # '시군': '시' + '군'
            continue
        out.append(word)
    return out[:MAX_TOPIC_WORDS]
