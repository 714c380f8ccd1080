"""Offline routing: keyword and pattern rules first, then the nearest labelled examples by
embedding for what the rules leave open; topic pivots from entities and shared key terms.

Rule order (first match wins):
1. a request to write a document (보고서/요구서/통보서 ... + 작성/초안/써 ...) -> report,
   unless it only asks whether drafting is possible ("보고서 작성도 가능해?") -> chat;
   after a report turn, an edit of the draft ("근거 법령 부분 더 자세히 써줘") -> report;
2. greetings, thanks, help, self-introductions, small talk, questions about the conversation
   -> chat (unless the message also asks about audit content);
3. count / list / group-by / top-N -> fast (SQL);
4. after a fast turn, a refinement ("그중 시정은?", "곡성군은?") -> fast;
5. ordinals, anaphora, "자세히" -> deep; audit content (institutions, dispositions, glossary
   terms, or specific terms of the ingested corpus) -> deep;
6. otherwise the nearest labelled examples (chat / fast / deep; a document request is never
   guessed).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from importlib import resources

import numpy as np

from app.embeddings.interface import Embedder
from app.policies.offline.fields import ANAPHORA, Catalog, dispositions, years
from app.policies.offline.intent import named_organisations
from app.policies.offline.lexicon import FACET_TERMS, FUNCTION_WORDS, key_terms, ordinals, squash
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
_CAPABILITY = re.compile(r"(도|은|는)\s*(가능해|가능한가|가능합니까|할 수 있어|할 수 있나|돼\?|되나요)|can you (also )?(write|draft)|are you able", re.I)
_DEICTIC = re.compile(
    r"(이|그|해당|위|앞의?)\s*(내용|건|사례|지적|감사|결과)|이걸로|이것으로|거기서|거기에|방금\s*(말한|거|건|그)|아까\s*(말한|그|거|건)|그거|그게"
    r"|based on (this|that)|\b(on|for|to|about|in) (this|that)\b",
    re.I,
)
_EDIT = re.compile(r"(부분|항목|섹션|문단|제목|초안|section|paragraph|title|draft).*(써|줄여|고쳐|수정|바꿔|추가|보완|늘려|다듬|빼|rewrite|shorten|expand|change|fix|add|remove)|(줄여|고쳐|수정해|바꿔|보완해|보강해|다듬어|톤\s*다운|다시\s*(써|작성)|다시$)", re.I)
_COUNT = re.compile(r"몇\s*(건|개|곳|명)|건수|개수|총\s*몇|how many|number of|count\b|몇 번", re.I)
_LIST = re.compile(r"목록|리스트|나열|list\b|모두\s*보여|전부\s*보여|다\s*보여", re.I)
_GROUP = re.compile(r"(종류|처분|기관|연도|년도|보고서|유형)\s*별|by (disposition|institution|year|type|report)", re.I)
_TOP = re.compile(r"가장 많|가장 적|상위|순위|\btop\s*\d+|\btop (institutions|agencies|reports)|fewest|^(which|what|who)\b.*\bmost\b", re.I)
_CHAT = re.compile(
    r"^(안녕|반가|고마|감사합니다|감사해요|수고|좋은 (아침|하루)|ㅎㅇ|하이|hi\b|hello|hey\b|thanks|thank you|good (morning|evening))"
    r"|누구(야|세요|니)|who are you|무엇을 (할|도와)|뭘 할 수|what can you do|도움말|사용법|help\b"
    r"|(내가|제가).*(아까|처음|방금|전에).*(물어|질문|말했|뭐라고)|(아까|처음|방금|전에).*(내가|제가).*(물어|질문|말했|뭐라고)"
    r"|what did i (ask|say)|내 이름|my name|(너|네|당신)\s*(이름|누구)|your name"
    r"|^(나|저)(는)?\s+(\S+\s*){1,3}(이야|야|입니다|이에요|예요)[.!~ ]*($|[.!])|^i am \w+|^i'?m \w+( \w+)?[.!]*$|잘 부탁(드립니다|해요|합니다)"
    r"|이 대화에서|in this conversation|what (kinds? of )?questions can i ask|what can i ask"
    r"|ㅠ|ㅜ|ㅋㅋ|ㅎㅎ|피곤|힘들|바빠|바쁘|정신(이)? ?없|날씨|점심|커피|주말",
    re.I,
)
_HELP = re.compile(r"what (kinds? of )?questions can i ask|what can i ask|what can you do|도움말|사용법|뭘 할 수 있|무엇을 (할 수|도와)|어떤 질문(을|을 할|이)? (할 수|가능)", re.I)
_MORE = re.compile(r"자세히|더 알려|구체적으로|설명해|tell me more|more detail|elaborate|explain", re.I)
_NEW_TOPIC = re.compile(
    r"다른 (얘|이야기|질문|주제)|화제를? 바꿔|주제를? 바꿔|넘어가서|switch(ing)? (topics?|gears)|another topic"
    r"|different (topic|question)|new topic|moving on|change of topic|그건 그렇고|그나저나|별개로|by the way|unrelated",
    re.I,
)
_WHY = re.compile(r"왜|어떻게|이유|why|how (did|was|were|come)", re.I)
_CASE_REF = re.compile(r"(그|이|해당)\s*(건|사례|지적)|that (one|case|finding)", re.I)
_REFINE = re.compile(r"^(그중|그 중|이 중|그럼|그러면|그리고|and|then|what about|of those|among them)|(은|는|만 보면|보면)\?*$|\bonly\b", re.I)
_RELAX_PERIOD = re.compile(
    r"(연도|년도|기간|시기|시점)\s*(?:는|은)?\s*(?:상관\s*없이|관계\s*없이|무관하게|빼고|말고|제외하고)|(?:ignore|drop|forget|without)\s+the\s+(?:year|period|date)"
    r"|regardless of (?:the )?(?:year|period|date)|(?:any|all) years",
    re.I,
)
_RELAX_ORG = re.compile(
    r"(기관|부처|지역|지자체)\s*(?:는|은)?\s*(?:상관\s*없이|관계\s*없이|무관하게|빼고|말고|제외하고)|(?:ignore|drop|forget|without)\s+the\s+(?:institution|agency|ministry|organi[sz]ation)"
    r"|regardless of (?:the )?(?:institution|agency|ministry)|(?:any|all|other) (?:institutions|agencies)",
    re.I,
)
"""The last question asked again with a scope dropped ('연도 상관없이 찾아줘', 'ignore the year',
'기관 상관없이 상수도 쪽은?'): a follow-up of that question, whatever it found (often nothing,
because of the scope now dropped)."""
_YEAR_WORDS = re.compile(r"(?:19|20)\d{2}\s*(?:년도?|~|-|–)?\s*(?:(?:19|20)\d{2}\s*년도?)?|작년|지난해|올해|금년|최근\s*\d+\s*년")
_OTHER = re.compile(r"기관|다른|또\s*있|비슷한|유사한|other|similar|another|institution|agency", re.I)

IDF_SPECIFIC = 2.0
"""A term is specific to the corpus when it occurs in fewer than ~1 in 8 chunks."""


def load_examples() -> list[tuple[str, str]]:
    text = resources.files("app.policies.offline").joinpath("route_examples.tsv").read_text(encoding="utf-8")
    return [(row["track"], row["text"]) for row in csv.DictReader(text.splitlines(), delimiter="\t")]


class OfflineRouter:
    def __init__(
        self, embedder: Embedder, catalog: Catalog, domain_terms: set[str], idf: Callable[[str], float | None] | None = None,
        best_findings: Callable[[str], list[tuple[str, str]]] | None = None,
    ) -> None:
        """``best_findings(question)``: the (finding id, report id) pairs that best match a
        question's problem pattern, best first (the retriever's finding ranking)."""
        self.embedder, self.catalog, self.domain_terms = embedder, catalog, domain_terms
        self.idf = idf or (lambda _term: None)
        self.best_findings = best_findings
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
        low = q.lower()
        previous = history[-1].track if history else None
        institutions = self.catalog.find(q)
        y0, y1 = years(q)
        disp = dispositions(q)
        terms = key_terms(q)
        named = bool(institutions or disp or terms & self.domain_terms)
        ords = ordinals(q)
        anaphora = any(a in low for a in ANAPHORA) or bool(_DEICTIC.search(q))
        sql_intent = bool(_COUNT.search(q) or _LIST.search(q) or _GROUP.search(q) or _TOP.search(q))

        refines = False
        if not q:
            track, why = "chat", "empty message"
        elif _REPORT.search(q) and _CAPABILITY.search(q) and not _DEICTIC.search(q) and not institutions:
            track, why = "chat", "asks whether drafting is possible"
        elif _REPORT.search(q):
            track, why = "report", "asks for a document draft"
        elif previous == "report" and _EDIT.search(q):
            track, why = "report", "edits the draft"
        elif _HELP.search(q) or (_CHAT.search(q) and not (named and (_MORE.search(q) or "?" in q or sql_intent))):
            track, why = "chat", "greeting, thanks, help, small talk or a question about the conversation"
        elif sql_intent and not ords:
            track, why = "fast", "count / list / group / top-N over findings"
        elif previous == "fast" and _REFINE.search(q) and len(q) <= 40 and not (ords or _MORE.search(q) or _WHY.search(q) or _CASE_REF.search(q)):
            track, why, refines, sql_intent = "fast", "refines the previous lookup", True, True
        elif ords or anaphora or _MORE.search(q):
            track, why = "deep", "asks about specific results in detail"
        elif named or self._corpus_content(terms):
            track, why = "deep", "audit question about the reports' content"
        else:
            track, score = self.nearest_track(q)
            why = f"nearest labelled examples ({score:.2f})"

        query = q
        relax_period, relax_org = bool(_RELAX_PERIOD.search(q)), bool(_RELAX_ORG.search(q))
        if history and track != "report" and not sql_intent and (relax_period or relax_org) and not institutions and y0 is None:
            track = "deep"
            query, institutions, (y0, y1) = self._relaxed(history[-1].question, q, relax_period, relax_org)
            follow_up, pivot, why = True, False, "asks the last question again without its " + (
                "period" if relax_period and not relax_org else "institution" if not relax_period else "scope")
        else:
            follow_up, pivot = self._continuity(q, track, institutions, ords, anaphora, terms, history, retained, y0, y1)
        if follow_up and not ords and not institutions and not _OTHER.search(q) and (
            _CASE_REF.search(q) or len(terms - FACET_TERMS - FUNCTION_WORDS) <= 1
        ):
            ords = [1]  # '그 건', '조치할 사항은?': the case the last answer led with
        return RouteDecision(
            reasoning=why,
            track=track,
            follow_up=follow_up,
            pivot=pivot,
            sql_intent=track == "fast" and sql_intent,
            refines_previous=refines,
            ordinals=ords,
            institutions=institutions,
            year_from=y0,
            year_to=y1,
            dispositions=disp,
            search_query=query,
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
        self, q: str, track: str, institutions: list[str], ords: list[int], anaphora: bool, terms: set[str], history: list[Turn],
        retained: list[Doc], y0: int | None = None, y1: int | None = None,
    ) -> tuple[bool, bool]:
        """(follow_up, pivot). Only meaningful when documents are retained from earlier turns."""
        if not retained or track == "chat":
            return False, False
        if _NEW_TOPIC.search(q):
            return False, True
        if ords or anaphora:
            return True, False
        if institutions:
            same = _overlaps(institutions, retained)
            return same, not same
        if track == "report":
            return True, False
        if y0 is not None and not any(y0 <= (d.get("year") or 0) <= (y1 or y0) for d in retained):
            return False, True  # another period
        if len(terms - FACET_TERMS - FUNCTION_WORDS) <= 1:  # '근거 조항은?', '누락 규모 얼마였어': another facet
            return True, False
        if self.best_findings is not None:  # a problem pattern: is it one of the retained findings?
            best = self.best_findings(q)[:1]
            if best:
                kept = {d.get("finding_id") for d in retained}
                same_report = _OTHER.search(q) and best[0][1] in {d.get("report_id") for d in retained}
                follows = best[0][0] in kept or bool(same_report)
                return follows, not follows
        context: set[str] = set()
        for d in retained:
            context |= key_terms(f"{d.get('heading', '')}\n{d.get('text', '')}")
        if history:
            context |= key_terms(history[-1].question)
        shared = terms & context
        return (True, False) if shared and len(shared) * 2 >= len(terms) else (False, True)


def _overlaps(institutions: list[str], docs: list[Doc]) -> bool:
    seen = {squash(i) for d in docs for i in d.get("institutions") or []}
    return any(squash(i) in seen or any(squash(i) in s or s in squash(i) for s in seen) for i in institutions)
