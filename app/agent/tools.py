"""``AgentTools``: the graph's ``GraphServices`` port (graph/ports.py) on the container's stores,
retrievers and policies. The one place graph requests become searches, SQL and ORM queries."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import zip_longest
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from app.container import Container
from app.db.models import Chunk, Finding
from app.policies.offline.english_names import korean_names, romanised_local
from app.policies.offline.fields import dispositions, fiscal_years, writes_fiscal_year
from app.policies.offline.intent import (
    asks_for_mentions,
    asks_for_several,
    enumerated,
    named_organisations,
    proper_organisation,
    question_kind,
)
from app.policies.offline.lexicon import (
    CASE_PEOPLE,
    FACET_TERMS,
    SCOPE_FRAME,
    STOP_MORPHEMES,
    squash,
)
from app.reports.draft import draft_report
from app.retrieval.evidence import Evidence
from app.retrieval.filters import SearchFilters
from app.retrieval.finding_rank import MAX_FINDINGS, RankedFinding, evidence_for
from app.retrieval.sop import SopHit
from app.retrieval.wrongdoing import asked_either, asked_wrongdoing
from app.text.korean import nouns, only_nouns, shortening
from graph.ports import Policies
from graph.schemas import ReportReadiness
from graph.state import Doc
from graph.vocab import (
    MANUAL_CHUNK_PREFIX,
    MANUAL_SECTION,
    SECTION_KINDS,
    language,
    manual_heading,
    manual_title,
)

_MONEY = re.compile(r"[\d천만억]\s*원$")
_HANGUL = re.compile(r"[가-힣]")
_GLOSSED = re.compile(r"[가-힣]{4,}")
_BRACKETED = re.compile(r"\(([^()]*)\)")
_ACRONYM = re.compile(r"(?<![\w-])[A-Z]{3,6}(?![\w&])")
_CAPITALS_RUN = re.compile(r"\b[A-Z]{2,}(?:\s+[A-Z]{2,}){2,}\b")
COMMON_ACRONYMS = frozenset((
    "CEO CFO PDF USA SNS FAQ NGO KRW USD EUR VAT GDP ESG MOU OECD COVID BAI "  # everyday abbreviations
    "NOT ANY ALL AND THE YES ONLY NEW EVER NEVER DID DOES WAS WERE ARE HAS HAD HAVE CAN MUST WILL WHO WHAT WHEN WHERE WHY HOW "
    "MANY MUCH MOST MORE LESS FEW SOME NONE EACH BOTH JUST REALLY VERY ALSO STILL EVEN THIS THAT THESE THOSE WITH FROM INTO "
    "ABOUT BEFORE AFTER OVER UNDER SAME OTHER ACTUAL REAL WHOLE EVERY"  # words written in capitals for emphasis
).split())
"""Abbreviations of everyday English and words written in capitals for emphasis: no name of a thing a report would write."""
_PARTICLE_END = re.compile(r"(?<=[가-힣]{3})(?:을|를|은|는|의|에|으로|로|과|와|도)$")
_GLOSS = re.compile(r"\S+?\s*\([^)]*\)")
"""A word and its gloss in parentheses ('한예종(한국예술종합학교)', '임시건물(가설건축물)')."""
_NAME_PREFIXES = frozenset("한국 국립 국가".split())
"""What an institution's short form leaves off its name ('지역정보개발원' for 한국지역정보개발원)."""
_CASE_OF = re.compile(r"(?<![가-힣])건의(?=\s)")
_CASE_WORD = re.compile(r"케이스")
_NOT_GIVEN = (r"(?:\s*(?:요구|처분|조치|명령))?\s*(?:을|를|은|는|도)?\s*(?:안\s*(?:하|했|한|주|준|내(?!문|서)|받|시키)|없이|무시|누락|생략|"
              r"(?:하|받|시키)지\s*(?:않|도\s*않)|않고|빼먹|건너뛰|커녕)")
"""After a disposition: not given, ignored or skipped ('징계 안 하고', '통보 없이', '권고 무시한'): the problem, not a scope."""
_OFFICES = frozenset("군청 시청 구청 도청 본청 본부".split())
"""Offices named generically ('보건소/군청이 그냥 놔둔'): who, not the pattern."""
_APPEARS = frozenset("연루 등장".split())
"""How an organisation appears ('산업은행이 연루된 건'): the request, not the pattern."""
_WHEN = frozenset("예전 과거 옛날 나중 당시 그때 요즘 지난번 최근 작년 재작년 지난해 올해 금년".split())
"""When the asker places it ('예전 감사에선', '나중에 알고서도'): the request's frame, not the pattern."""
_ABBREVIATED = ("연구원", "진흥원", "위원회", "사업단", "센터", "공단", "공사", "재단", "협회", "조합", "은행", "본부", "청")
"""Suffixes a short name keeps whole when it shortens the words before them ('농기센터')."""
_ALSO_TOLD = re.compile(r"(?:것|거|건|문제|부분|얘기|이야기|내용|대목|사실|기준|사항|지적|사람|직원|경우|사례|곳|데|[는은던]지)도\s*(?:(?:같이|함께|따로|또)\s*)?"
                        r"(?:지적\s*(?:됐|되었|했|받)|문제\s*(?:로\s*)?삼|다뤘|다뤄|다루|포함\s*됐|나와|나오|나왔|언급|있었|있어|있나)")
"""'… 것도 지적됐어?', '… 얘기도 나와?', '… 기준도 같이 문제 삼았어?': whether the reports also told of something (``untold``);
not a noun ending in 도 ('재난지원 제도 있었어?', '처분 정도 나와?')."""
_CASE_AT = re.compile(r"(?<![가-힣])(?:그|이|해당|같은)\s*[가-힣]{1,8}(?:에서|에|때|중에)(?:는|도|선)?\s|(?:건|사례|사업|감사),\s*")
"""Where the case shown is named before what is asked of it ('그 해변에서 …', '그 건에서 …', '아까 그 입찰 건, …'): the first."""
CANDIDATES = 20
"""Chunks the hybrid search returns before findings are ranked."""


def abbreviated_in(name: str, words: Iterable[str]) -> bool:
    """Whether ``name`` shortens a longer name one of ``words`` holds (``StoreScope.words``: runs of
    Hangul, so never across two words or sentences) the way Korean names are shortened: two or
    three syllables, each the first of a word the short name leaves out the rest of (one to three
    syllables), then the suffix whole, alone or after a place the reports name: '농기센터' and
    '담양농기센터' for 농업기술센터, '중기청' for 중소기업청; not '국립암센터' for anything but itself."""
    suffix = next((x for x in _ABBREVIATED if name.endswith(x)), "")
    head = name[: -len(suffix)] if suffix else ""
    for k in (2, 3):  # the short name itself, or after a place the reports name ('담양농기센터')
        stem, place = head[-k:], head[:-k]
        if len(stem) < k or (place and (len(place) < 2 or not any(w.startswith(place) for w in words))):
            continue  # a place of one syllable is none ('한국석유공사' is not 한 + 국석유공사)
        rule = shortening(stem, suffix)
        if any(rule.search(w) for w in words):
            return True
    return False


_AUDIT_OF = (r"\s*(?:에\s*대(?:한|해)\s*|(?:이|가|은|는|도|을|를|의)\s*|(?:을|를)?\s*대상\s*(?:으로\s*한\s*)?)?(?:감사원\s*(?:의\s*)?)?"
             r"(?:감사|정기\s*감사|기관\s*감사)(?!원|관(?!련))")
"""After a name: its audit ('국민건강보험공단 감사에서', '관세청 감사결과', '인천국제공항공사가 감사 대상으로 들어간'), not '관련
지적' (a place, a hospital findings name), nor the auditors ('…을 감사원이'); '…에 대한 감사원 감사', '…는 감사 대상이었어?' too."""
_AUDITED = re.compile(r"감사\s*(?:대상|받[가-힣]*)|대상\s*(?:으로\s*한\s*)?감사")
"""'감사 대상으로 들어간', '감사받은', '…를 대상으로 한 감사': an audit asked for, no pattern of its own."""
LISTED_MAX = 12
"""Findings an institution's listing ('해수부가 지적받은 건들 정리해줘') returns at most (해양수산부 has 9)."""
MENTIONED_MAX = 5
"""An organisation no finding is about but some mention ('장흥군', '김포시') scopes the search to
the findings that mention it, when at most this many do (more: a common word, not a scope)."""


class AgentTools:
    def __init__(self, container: Container, policies: Policies) -> None:
        self.container = container
        self.policies = policies

    # -- retrieval -------------------------------------------------------------------------------
    def search(self, query: str, k: int, filters: dict[str, Any]) -> list[Doc]:
        return self.search_many([query], k, filters)

    def search_many(self, queries: list[str], k: int, filters: dict[str, Any]) -> list[Doc]:
        """Hybrid chunk search (``CANDIDATES`` deep), then findings ranked as units: up to ``k``
        chunks of the best findings, best first, with their finding's score; then, room left,
        at most two report-level passages (overview, no finding) among the first ``k`` hits. A
        question that lists several cases ('A 건이랑 B 건 둘 다 알려줘') has each searched, their
        best findings taken in turn."""
        sf = SearchFilters(**filters)
        parts = enumerated(queries[0]) if len(queries) == 1 else []
        depth = max(k, CANDIDATES)
        runs = [self._ranked([p], depth, sf) for p in parts] or [self._ranked(queries, depth, sf)]
        ranked = _in_turn([r for r, _ in runs])
        hits = list({h.chunk_id: h for _, hs in runs for h in hs}.values())
        n = MAX_FINDINGS
        if sf.institutions and not parts and asks_for_several(queries[0]) and not self.pattern_nouns(queries[0]):
            # '문체부 감사에서 나온 지적 뭐 있어?': every finding about it, not the best five by a score of nothing asked
            named = set(sf.institutions)
            own = [r for r in ranked if (p := self.container.finding_ranker.index.profile(r.finding_id)) and p.own_institutions & named]
            ranked = [*own, *(r for r in ranked if r not in own)]  # its own first, whatever they scored
            n = max(n, min(len(own), LISTED_MAX))
            for r in own:
                r.signals["lists"] = 1.0
        retrieved = {h.finding_id for h in hits}
        missing = [r.finding_id for r in ranked[:n] if r.finding_id not in retrieved]
        extra: dict[str, list[Evidence]] = {}
        for d in self.finding_docs(missing, ["problems", "overview"]) if missing else []:
            extra.setdefault(d["finding_id"], []).append(Evidence(**{**d, "score": 0.0}))
        docs = evidence_for(ranked, hits, extra, max(k, n), n)
        report_level = [h for h in runs[0][1][:k] if not h.finding_id][: max(0, k - len(docs))][:2]
        return [d.model_dump() for d in [*docs, *report_level]]

    def _ranked(self, queries: list[str], depth: int, sf: SearchFilters) -> tuple[list[RankedFinding], list[Evidence]]:
        searched = list(dict.fromkeys(self.container.glossary.in_korean(q) for q in queries))
        if len(searched) == 1:
            hits = self.container.retriever.search(searched[0], k=depth, filters=sf)
        else:
            hits = self.container.retriever.search_many(searched, k=depth, filters=sf)
        # '곡성군의회 관련 지적 있어?', '법무부를 상대로 나온 감사 결과가 있어? 뭘 하라고 했어?': its own findings first
        listing = question_kind(queries[0]) == "institution" or bool(sf.institutions and not self.pattern_nouns(queries[0]))
        terms = self.query_terms(queries[-1])
        asked = queries[0]  # the question as the user asked it (standalone), not a rewrite's bare morphemes
        acts = asked_wrongdoing(asked)
        return self.container.finding_ranker.rank(searched[-1], terms, hits, sf, listing, self.pattern_nouns(asked), acts,
                                                  asked_either(asked, acts)), hits

    def pattern_nouns(self, query: str) -> set[str]:
        """The nouns that state the query's problem pattern, which a near miss is judged on
        (``FindingIndex.unmatched``): those Kiwi reads as nouns in context (not '매기고', '고치라고'),
        without request words ('선례', '조문'), words glossed in parentheses (both: '한예종(한국예술종합
        학교)'), or organisations, named, as the catalog knows them or generic offices ('문체부',
        '전남도청', '곡성', '군청') and dispositions asked for ('주의나 통보 받은'; not one not given, '징계 안 하고'): the
        scope is the field selector's. An English query: its key terms as the glossary maps them."""
        if not _HANGUL.search(query):
            return self.query_terms(query) - FACET_TERMS
        text = _GLOSS.sub(" ", query)  # a word and its gloss: one says what the other does ('한예종(한국예술종합학교)')
        text = _CASE_OF.sub(" ", text)  # '기상특보 출항 건의 처분' (Kiwi: 건의, a proposal)
        text = _CASE_WORD.sub(" ", text)  # '… 넘겨버린 케이스 모아줘': the request (as written; Kiwi reads '케이슨들' as 케이스 too)
        text = SCOPE_FRAME.sub(" ", text)  # '법무부를 상대로 나온 감사 결과': the scope, not a pattern
        catalog = self.container.catalog()
        text = catalog.canonical(text)  # '과기부랑' -> '과학기술정보통신부랑', removed below
        for name in [*named_organisations(text), *catalog.find(text)]:
            text = text.replace(name, " ")
        aliases = catalog.aliases
        asked = {d for d in dispositions(query) if not re.search(re.escape(d) + _NOT_GIVEN, query)}  # '주의나 통보 받은 항목': the
        # field selector's scope too; not '징계 안 하고 넘어간 사례', '통보 없이 해지한 사례' (the pattern)
        return {n for n in nouns(text) - STOP_MORPHEMES - FACET_TERMS - _OFFICES - _APPEARS - _WHEN - asked  # '분석해줘', '관련', '사항': the request
                if squash(n) not in aliases and not any(a == squash(n) + a[-1] and a[-1] in "시군구" for a in aliases)}  # '곡성' for 곡성군

    def query_terms(self, query: str) -> set[str]:
        """The query's key terms, English ones mapped to the reports' Korean (``Glossary.search_terms``)."""
        return self.container.glossary.search_terms(query, self.container.corpus.idf)

    def scope_gaps(self, question: str, filters: dict[str, Any]) -> list[str]:
        """What the question asks about that the ingested reports do not cover: report years
        outside the store's, fiscal years no report writes, audit types none of its reports is,
        organisations named in the question that no report mentions, and an English question's
        Korean gloss of its subject (``_glosses``) or acronym (``_acronyms``) that no report writes."""
        scope = self.container.scope()
        gaps: list[str] = []
        y0, y1 = filters.get("year_from"), filters.get("year_to")
        if (y0 or y1) and not any((y0 or 0) <= y <= (y1 or 9999) for y in scope.years):
            gaps.append(f"{y0}년" if y0 == y1 or not y1 else f"{y0 or ''}~{y1 or ''}년")
        # a fiscal year no report writes ('강원도 2018회계연도 결산 때도 …'): the accounts of another year, not audited here
        gaps += [f"{y}회계연도" for y in fiscal_years(question)
                 if not writes_fiscal_year(y, scope.text)]
        gaps += [t for t in filters.get("audit_types") or [] if t not in scope.audit_types]  # '재무감사에서 …
        known = {squash(n) for n in filters.get("institutions") or []}
        names = named_organisations(question)
        held = bool(filters.get("finding_ids")) or any(squash(n) in known for n in names if _HANGUL.search(n))  # its Korean name scoped the search
        # its audit asked for as such ('국민건강보험공단 감사에서는 뭐 나왔어?'), not beside a held body or a pattern
        audit_of = not held and not self.pattern_nouns(_AUDITED.sub(" ", question)) and not asks_for_mentions(question)
        for name in names:
            flat = squash(name)
            if flat in known or _MONEY.search(name) or abbreviated_in(flat, scope.words):
                continue  # ('농기센터': the reports' 농업기술센터)
            if flat in scope.text and not (audit_of and _HANGUL.search(name) and re.search(re.escape(name) + _AUDIT_OF, question)
                                           and not self.container.catalog().find(name) and proper_organisation(name) and flat not in scope.titles):
                continue  # a name the reports use; not '국민건강보험공단 감사에서는 뭐 나왔어?' of one no finding is about or
                # report or finding is titled by ('용산공원': the subject of findings, though no institution)
            if held and re.search(re.escape(name) + r"\s*\([^)]*[가-힣]", question):
                continue  # 'the Korea Maritime Transportation Safety Authority (KOMSA, 한국해양교통안전공단)': its Korean name beside it
            if any(flat.startswith(a) for a in self.container.catalog().aliases if len(a) >= 3):
                continue  # '곡성군의회' is the council of a held institution
            if self.container.catalog().find_english(name):
                continue  # 'Damyang County', 'Ministry of Oceans and Fisheries'
            if flat in self.container.catalog().aliases:
                continue  # a held institution by a short form ('해경'; not '해경정비창')
            if romanised_local(name):
                continue  # 'Seodaemun-gu', which the reports may mention by its Korean name: not known to be absent
            if asks_for_mentions(question) and any(squash(k) in scope.text for k in korean_names(name)):
                continue  # 'Is KEPCO involved …?': 한국전력공사, which the reports mention; not 'anything on the Korea Customs Service?'
                # (관세청, mentioned in passing: no finding is about it)
            gaps.append(name)
        if language(question) == "en":
            gaps += [w for w in self._glosses(question, scope.words) if w not in scope.text and not any(w in g or g in w for g in gaps)]
            gaps += [a for a in self._acronyms(question, scope.latin) if not any(a in g for g in gaps)]
        return gaps

    def untold(self, question: str) -> list[str]:
        """What a question asks whether the reports also told of, in nouns no report uses ('그 해변에서 해파리 쏘임 사고
        대비해 안전요원 안 둔 것도 지적됐어?', '그 점검에서 해녀 물질 조업 안전관리 얘기도 나와?'): a subject they do not hold,
        asked of the case shown, in the words after where it first names that case ('그 건에서 …'), each named as written.
        Not a name the catalog or the glossary knows ('문체부', '부업'), a short form of one the reports write, an
        organisation it names (a scope gap already), who in the case ('윗선'), nor the request's words ('얘기', '그때').
        Dev follow-ups that load a case: 5 unanswerable, no answerable. A known limit: slang the reports never write
        ('솜방망이 처분 얘기도 나와?') is declined too."""
        asked = _ALSO_TOLD.search(question)
        if not asked or not _HANGUL.search(question):
            return []
        catalog, scope, glossary = self.container.catalog(), self.container.scope(), self.container.glossary
        subject = question[: asked.start()]
        at = _CASE_AT.search(subject)
        subject = subject[at.end() if at else 0:]  # what is asked of it, not how it is named
        named = {squash(n) for n in named_organisations(question)}  # (a scope gap already: named once)
        found = (n for n in nouns(subject) - STOP_MORPHEMES - FACET_TERMS - _WHEN - CASE_PEOPLE - _OFFICES - _APPEARS
                 if _HANGUL.search(n) and squash(n) not in scope.text and only_nouns(n) and not catalog.find(n)
                 and squash(n) not in catalog.aliases and not glossary.terms_in(n) and not abbreviated_in(squash(n), scope.words)
                 and not any(squash(n) in m for m in named))
        # named as the question writes them, whole ('해파리', which Kiwi may read as 파리)
        return sorted({w for n in found for w in re.findall(r"[가-힣]*" + re.escape(n), subject)[:1]})

    def _acronyms(self, question: str, written: frozenset[str]) -> list[str]:
        """The acronyms an English question names its subject by ('KTX', 'ERP', 'LNG bunkering') that no report writes
        and that name nothing the glossary or the catalog knows in Korean: a thing of its own the reports would write if
        they held it. Three letters or more, letters only (not 'PR', 'FY2022', 'COVID-19'), not a common abbreviation ('VAT'), a word
        in capitals for emphasis ('NOT', 'EVER'; three in a row are emphasis too), nor one that glosses a name in brackets
        ('… Institute (KLID)'), which the name's own check covers (``written``: ``StoreScope.latin``)."""
        glossed = {a for inside in _BRACKETED.findall(question) for a in _ACRONYM.findall(inside)}
        shouted = {w for m in _CAPITALS_RUN.finditer(question) for w in m.group(0).split()}
        out = []
        for m in _ACRONYM.finditer(question):
            a = m.group(0)
            if a in COMMON_ACRONYMS or a in glossed or a in shouted or a in out or re.match(r"-\d", question[m.end():]):
                continue
            if a.lower() in written:
                continue  # the reports write it ('PUE', '…(NIRS)')
            if self.container.glossary.terms_in(a) or korean_names(a) or self.container.catalog().find_english(a):
                continue
            out.append(a)
        return out

    def _glosses(self, question: str, words: frozenset[str]) -> list[str]:
        """The Korean terms an English question glosses its subject with, in brackets ('local currency vouchers
        (지역화폐)'): the asker's own name for it, which the reports would write if they held it. Nouns of four
        syllables or more (a shorter one may abbreviate theirs, '농취증' for 농지취득자격증명; not a request,
        '(요약해줘)'), not an institution the catalog holds or a short form of a name the reports write (``words``:
        the store's, ``StoreScope.words``)."""
        catalog = self.container.catalog()
        found = [_PARTICLE_END.sub("", w) for inside in _BRACKETED.findall(question) for w in _GLOSSED.findall(inside)]  # '(지역화폐를)'
        return [w for w in dict.fromkeys(found)
                if len(w) >= 4 and sum(map(len, nouns(w))) == len(w) and not catalog.find(w) and not abbreviated_in(w, words)]

    def mentioned(self, question: str, filters: dict[str, Any]) -> dict[str, list[str]]:
        """Organisations a question about where they appear in the reports names by their own
        name (in Korean, or by the official English name of one, ``korean_names``) that the
        reports mention but no finding is about ('전남 장흥군이 언급된 지적',
        '김포시 관련해서 나오는 거'): the findings that mention each. Empty when the filters already
        name an institution the store holds (an LLM router's '장흥군' as written does not count), a
        report or a finding, and for other questions: '영광군 감사에서 나온 지적사항' asks for an audit
        of 영광군, '한국관광공사에서 홍보 예산 엉뚱한 데 쓴 사례' for a pattern, which a finding that names
        them in passing does not answer. A short form of a held institution ('지역정보개발원' for
        한국지역정보개발원) is that institution, not a mention."""
        scope, catalog = self.container.scope(), self.container.catalog()
        held = [i for i in filters.get("institutions") or [] if catalog.find(i)]
        if held or filters.get("report_ids") or filters.get("finding_ids") or not asks_for_mentions(question):
            return {}
        out: dict[str, list[str]] = {}
        for asked in named_organisations(question):
            # an English name by the Korean one it officially translates ('Korea Electric Power Corporation')
            name = asked if _HANGUL.search(asked) else next((k for k in korean_names(asked) if squash(k) in scope.text), "")
            flat = squash(name)
            if not name or flat not in scope.text or catalog.find(name) or not proper_organisation(name):
                continue
            if any(alias.endswith(flat) and alias[: -len(flat)] in _NAME_PREFIXES for alias in catalog.aliases):
                continue  # '지역정보개발원' is 한국지역정보개발원; '경찰청' is not 해양경찰청
            ids = [f for f, text in scope.findings.items() if flat in text]
            if 0 < len(ids) <= MENTIONED_MAX:
                out[name] = ids
        return out

    def search_manual(self, question: str, k: int) -> list[Doc]:
        asked = self.container.glossary.in_korean(question)  # 'subsidy settlement' -> 보조금 정산
        hits = self.container.sop_retriever.answering(asked, dispositions(question), k)  # as the question names them
        return [_manual_doc(h) for h in hits]

    def search_sop(self, query: str, k: int) -> list[dict[str, Any]]:
        return [_clause(h) for h in self.container.sop_retriever.search(query, k)]

    def sop_for_findings(self, question: str, titles: list[str], dispositions: list[str], k: int, query: str = "") -> list[dict[str, Any]]:
        searched = self.container.glossary.in_korean(query) if query else ""  # as the search encoded it
        return [_clause(h) for h in self.container.sop_retriever.applicable(question, titles, dispositions, k, searched)]

    # -- SQL -------------------------------------------------------------------------------------
    def run_sql(self, sql: str) -> dict[str, Any]:
        return self.container.sql.run(sql)

    def finding_docs(self, finding_ids: list[str], sections: list[str] | None = None) -> list[Doc]:
        with self.container.sessions() as s:
            q = select(Chunk).where(Chunk.finding_id.in_(finding_ids))
            if sections:
                q = q.where(Chunk.section.in_(sections))
            chunks = s.scalars(q).all()
            findings = {
                f.id: f
                for f in s.scalars(
                    select(Finding).where(Finding.id.in_(finding_ids)).options(selectinload(Finding.dispositions), selectinload(Finding.report))
                )
            }
            rank = {fid: i for i, fid in enumerate(finding_ids)}
            chunks = sorted(chunks, key=lambda c: (rank[c.finding_id], _section_rank(c.section), c.ordinal))
            return [_doc(c, findings[c.finding_id]) for c in chunks]

    def finding_rows(self, finding_ids: list[str]) -> dict[str, Any]:
        return self.container.sql.run(
            "SELECT id, title, disposition, institution, year FROM findings"
            f" WHERE id IN ({', '.join(_literal(i) for i in finding_ids)}) ORDER BY id"
        )

    # -- report drafting -------------------------------------------------------------------------
    def draft_report(self, docs: list[Doc], sop: list[dict[str, Any]], readiness: ReportReadiness) -> dict[str, Any]:
        return draft_report(self.container.sessions, docs, sop, readiness)


def _clause(h: SopHit) -> dict[str, Any]:
    return {"id": h.clause_id, "title": h.title, "text": h.text, "score": round(float(h.score), 4)}


def _manual_doc(h: SopHit) -> Doc:
    """A manual clause as evidence: cited like a passage, its document in place of a report."""
    return {
        "chunk_id": MANUAL_CHUNK_PREFIX + h.clause_id, "report_id": h.document_id, "finding_id": None,
        "section": MANUAL_SECTION, "page": 0, "text": h.text, "heading": manual_heading(h.clause_id, h.title),
        "report_title": manual_title(h.document_title), "finding_title": None, "dispositions": [], "institutions": [], "year": None,
        "score": float(h.score), "dense_score": None, "lexical_score": None,
    }


def _literal(value: str) -> str:
    """A SQL string literal."""
    return "'" + value.replace("'", "''") + "'"


def _in_turn(rankings: list[list[RankedFinding]]) -> list[RankedFinding]:
    """Several rankings merged by taking each one's next best finding in turn, each finding once."""
    out: dict[str, RankedFinding] = {}
    for tier in zip_longest(*rankings):
        for r in tier:
            if r is not None and r.finding_id not in out:
                out[r.finding_id] = r
    return list(out.values())


def _section_rank(section: str) -> int:
    return SECTION_KINDS.index(section) if section in SECTION_KINDS else len(SECTION_KINDS)


def _doc(c: Chunk, f: Finding) -> Doc:
    r = f.report
    return {
        "chunk_id": c.id,
        "report_id": c.report_id,
        "finding_id": c.finding_id,
        "section": c.section,
        "page": c.page,
        "ordinal": c.ordinal,
        "text": c.text,
        "heading": c.heading,
        "report_title": r.title,
        "finding_title": f.title,
        "dispositions": f.disposition_list,
        "institutions": f.institution_names,
        "year": r.year,
        "score": 1.0,
        "dense_score": None,
        "lexical_score": None,
    }
