"""Offline routing: keyword and pattern rules first, then the nearest labelled examples by
embedding for what the rules leave open; topic pivots from entities and shared key terms."""

from __future__ import annotations

import csv
import re
from importlib import resources

import numpy as np

from app.embeddings.base import Embedder
from app.policies.offline.fields import ANAPHORA, Catalog, dispositions, years
from app.policies.offline.lexicon import key_terms, ordinals, squash
from graph.ports import Turn
from graph.schemas import RouteDecision
from graph.state import Doc

_REPORT = re.compile(r"(보고서|처분요구서|report).*(초안|작성|만들|써\s*줘|써줘|준비|draft|write)|(초안|draft|write).*(보고서|report)", re.I)
_COUNT = re.compile(r"몇\s*(건|개|곳|명)|건수|개수|총\s*몇|how many|number of|count\b|몇 번", re.I)
_LIST = re.compile(r"목록|리스트|나열|list\b|모두 보여|전부 보여|다 보여", re.I)
_GROUP = re.compile(r"(종류|처분|기관|연도|년도|보고서|유형)\s*별|by (disposition|institution|year|type|report)", re.I)
_TOP = re.compile(r"가장 많|가장 적|상위|순위|\btop\s*\d*|most\b|fewest", re.I)
_GREETING = re.compile(
    r"^(안녕|반가|고마|감사합니다$|감사해요|수고|좋은 (아침|하루)|hi\b|hello|hey\b|thanks|thank you|good (morning|evening))"
    r"|누구(야|세요|니)|who are you|무엇을 (할|도와)|뭘 할 수|what can you do|도움말|사용법|help\b"
    r"|(내가|제가) (아까|처음|방금|전에).*(물어|질문)|what did i ask|내 이름|my name",
    re.I,
)
_MORE = re.compile(r"자세히|더 알려|구체적으로|tell me more|more detail|elaborate|그 건|이 건|그 사례|해당 사례|that one|this one", re.I)


def load_examples() -> list[tuple[str, str]]:
    text = resources.files("app.policies.offline").joinpath("route_examples.tsv").read_text(encoding="utf-8")
    return [(row["track"], row["text"]) for row in csv.DictReader(text.splitlines(), delimiter="\t")]


class OfflineRouter:
    def __init__(self, embedder: Embedder, catalog: Catalog, domain_terms: set[str]) -> None:
        self.embedder, self.catalog, self.domain_terms = embedder, catalog, domain_terms
        self.examples = load_examples()
        self._example_vecs: np.ndarray = embedder.embed_queries([t for _, t in self.examples])

    def nearest_track(self, question: str) -> tuple[str, float]:
        """The track whose two nearest examples are most similar on average."""
        sims = self._example_vecs @ self.embedder.embed_queries([question])[0]
        best: tuple[str, float] = ("chat", -1.0)
        for track in ("chat", "fast", "deep", "report"):
            scores = sorted((float(s) for (t, _), s in zip(self.examples, sims, strict=True) if t == track), reverse=True)
            mean = sum(scores[:2]) / max(len(scores[:2]), 1)
            if mean > best[1]:
                best = (track, mean)
        return best

    def route(self, question: str, history: list[Turn], retained: list[Doc]) -> RouteDecision:
        q = question.strip()
        low = q.lower()
        institutions = self.catalog.find(q)
        y0, y1 = years(q)
        disp = dispositions(q)
        terms = key_terms(q)
        domain = bool(institutions or disp or terms & self.domain_terms)
        ords = ordinals(q)
        anaphora = any(a in low for a in ANAPHORA) or bool(_MORE.search(q))
        sql_intent = bool(_COUNT.search(q) or _LIST.search(q) or _GROUP.search(q) or _TOP.search(q))

        if not q:
            track, why = "chat", "empty message"
        elif _REPORT.search(q):
            track, why = "report", "asks for a report draft"
        elif _GREETING.search(q) and not (domain and len(q) > 25):
            track, why = "chat", "greeting, help or memory question"
        elif sql_intent and not ords:
            track, why = "fast", "count / list / group / top-N over findings"
        elif (ords or anaphora) and retained:
            track, why = "deep", "follow-up on the previous results"
        elif domain:
            track, why = "deep", "audit question with topic terms"
        else:
            track, score = self.nearest_track(q)
            why = f"nearest labelled examples ({score:.2f})"

        follow_up, pivot = self._continuity(q, track, institutions, ords, anaphora, terms, history, retained)
        return RouteDecision(
            reasoning=why,
            track=track,
            follow_up=follow_up,
            pivot=pivot,
            sql_intent=track == "fast" and sql_intent,
            ordinals=ords,
            institutions=institutions,
            year_from=y0,
            year_to=y1,
            dispositions=disp,
            search_query=q,
        )

    @staticmethod
    def _continuity(
        q: str, track: str, institutions: list[str], ords: list[int], anaphora: bool, terms: set[str], history: list[Turn], retained: list[Doc]
    ) -> tuple[bool, bool]:
        """(follow_up, pivot). Only meaningful when documents are retained from earlier turns."""
        if not retained or track == "chat":
            return False, False
        if ords or anaphora:
            return True, False
        if track == "report":
            named_new = institutions and not _overlaps(institutions, retained)
            return not named_new, bool(named_new)
        if institutions:
            same = _overlaps(institutions, retained)
            return same, not same
        context = set()
        for d in retained:
            context |= key_terms(d.get("heading", ""))
        if history:
            context |= key_terms(history[-1].question)
        shared = terms & context
        return (True, False) if shared and len(shared) * 2 >= len(terms) else (False, True)


def _overlaps(institutions: list[str], docs: list[Doc]) -> bool:
    seen = {squash(i) for d in docs for i in d.get("institutions") or []}
    return any(squash(i) in seen or any(squash(i) in s or s in squash(i) for s in seen) for i in institutions)
