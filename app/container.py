"""The container: every store, retriever and policy, built once from Settings, for the graph's
tools and the surfaces (API, CLI, evaluation).

Heavy parts (embedding model, Milvus) are created on first use, so commands that need only
SQL (``aura findings``) start fast and never open the Milvus Lite directory.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from functools import cached_property

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload, sessionmaker

from app.db.models import Chunk, Finding, Report, org_names
from app.db.session import make_engine, make_session_factory
from app.embeddings import Embedder, make_embedder
from app.ingest.pipeline import Ingestor
from app.policies.fallback import FallbackPolicies
from app.policies.offline import OfflinePolicies
from app.policies.offline.fields import Catalog
from app.policies.offline.intent import pattern
from app.policies.offline.rewriter import Glossary
from app.retrieval.corpus import SqlCorpus
from app.retrieval.dense import DenseRetriever
from app.retrieval.filters import SearchFilters
from app.retrieval.finding_rank import FindingRanker
from app.retrieval.findings import FindingIndex
from app.retrieval.hybrid import HybridRetriever
from app.retrieval.rerank import make_reranker
from app.retrieval.sop import SopRetriever
from app.settings import Settings
from app.sql import ReadOnlySql
from app.text.korean import get_kiwi
from app.vectorstore.milvus import MilvusVectorStore


@dataclass(frozen=True)
class StoreScope:
    years: frozenset[int]
    """Years of the ingested reports."""
    audit_types: frozenset[str]
    """Audit types of the ingested reports ('성과감사')."""
    text: str
    """Every chunk's text and every report title, whitespace removed (for 'is this name anywhere')."""
    findings: dict[str, str]
    """Each finding's chunks, whitespace removed (for 'which findings mention this name')."""
    words: frozenset[str]
    """Every run of Hangul the reports hold, as written between spaces and punctuation (for 'what
    could this short name stand for': within a word, not across two)."""
    titles: str
    """Every report's and finding's title, whitespace removed (the subjects they are titled by, '용산공원')."""
    latin: frozenset[str]
    """Every run of Latin letters the reports hold, lowercased ('pue', 'nirs': is this acronym written anywhere)."""


class Container:
    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.settings.ensure_dirs()
        self.engine = make_engine(self.settings.resolved_database_url)
        self.sessions: sessionmaker[Session] = make_session_factory(self.engine)

    @cached_property
    def embedder(self) -> Embedder:
        return make_embedder(self.settings)

    @cached_property
    def vectors(self) -> MilvusVectorStore:
        s = self.settings
        return MilvusVectorStore(
            s.resolved_milvus_uri,
            s.milvus_collection,
            self.embedder.dim,
            s.milvus_token.get_secret_value() if s.milvus_token else None,
        )

    @cached_property
    def ingestor(self) -> Ingestor:
        s = self.settings
        return Ingestor(self.sessions, self.embedder, self.vectors, s.chunk_chars, s.chunk_overlap)

    @cached_property
    def sql(self) -> ReadOnlySql:
        return ReadOnlySql(self.settings.resolved_database_url)

    @cached_property
    def glossary(self) -> Glossary:
        return Glossary.load(self.settings.sop_dir / "glossary.tsv")

    def catalog(self) -> Catalog:
        """Institution names in the store; rebuilt when the findings change."""
        with self.sessions() as s:
            version = (s.scalar(select(func.count()).select_from(Finding)), s.scalar(select(func.max(Report.ingested_at))))
            cached = self.__dict__.get("_catalog")
            if cached and cached[0] == version:
                return cached[1]
            names: set[str] = set()
            for f in s.scalars(select(Finding).options(selectinload(Finding.report))):
                names.update([*org_names(f.institution), *f.institution_names])
            for (insts,) in s.execute(select(Report.institutions)):  # reports without findings too
                names.update(insts or [])
        catalog = Catalog.build(n for n in names if n)
        self.__dict__["_catalog"] = (version, catalog)
        return catalog

    @cached_property
    def policies(self) -> FallbackPolicies:
        """Offline policies, with the configured LLM in front of them (AURA_LLM_PROVIDER)."""
        offline = OfflinePolicies(
            self.embedder, self.catalog, self.glossary, self.corpus.idf, self.best_findings, self.sop_retriever.vocabulary,
            self.corpus.chunk_terms,
        )
        return FallbackPolicies.from_settings(self.settings, offline)

    def best_findings(self, question: str, n: int = 10) -> list[tuple[str, str, float]]:
        """(finding id, report id, probability) of the findings that best match the question's
        problem pattern (no chunk search: profiles, titles and key terms only)."""
        query = pattern(question)
        terms = self.glossary.search_terms(query, self.corpus.idf)
        ranked = self.finding_ranker.rank(self.glossary.in_korean(query), terms, [], SearchFilters(), pattern_terms=set())
        reports = {p.id: p.report_id for p in self.finding_ranker.index.all_profiles()}
        return [(r.finding_id, reports[r.finding_id], r.probability) for r in ranked[:n]]

    @cached_property
    def corpus(self) -> SqlCorpus:
        """The chunks in SQL as a lexical index + evidence source (rebuilt after new ingests)."""
        return SqlCorpus(self.sessions)

    @cached_property
    def retriever(self) -> HybridRetriever:
        """Dense (Milvus) + lexical (Kiwi BM25) search over ingested reports, fused."""
        return HybridRetriever(
            DenseRetriever(self.embedder, self.vectors), self.corpus, self.corpus, reranker=make_reranker(self.settings.reranker_model)
        )

    def scope(self) -> StoreScope:
        """What the store covers (report years, every word the reports use); rebuilt when it changes."""
        version = self.corpus.current_version()
        cached = self.__dict__.get("_scope")
        if cached and cached[0] == version:
            return cached[1]
        with self.sessions() as s:
            years = {y for (y,) in s.execute(select(Report.year)) if y}
            kinds = {t for (t,) in s.execute(select(Report.audit_type)) if t}
            chunks = s.execute(select(Chunk.finding_id, Chunk.text).order_by(Chunk.finding_id, Chunk.ordinal)).all()
            titles = [t for (t,) in s.execute(select(Report.title))]
            finding_titles = [t for (t,) in s.execute(select(Finding.title))]
        by_finding: dict[str, list[str]] = {}
        for finding_id, text in chunks:
            if finding_id:
                by_finding.setdefault(finding_id, []).append(text)
        flat = {f: re.sub(r"\s+", "", "\n".join(ts)) for f, ts in by_finding.items()}
        texts = [t for _, t in chunks] + titles
        words = frozenset(w for t in texts for w in re.findall(r"[가-힣]+", t))
        latin = frozenset(w.lower() for t in texts for w in re.findall(r"[A-Za-z]+", t))
        scope = StoreScope(frozenset(years), frozenset(kinds), re.sub(r"\s+", "", "\n".join(texts)), flat, words,
                           re.sub(r"\s+", "", "\n".join(titles + finding_titles)), latin)
        self.__dict__["_scope"] = (version, scope)
        return scope

    @cached_property
    def finding_ranker(self) -> FindingRanker:
        """Findings ranked as units (profiles, hubness, key-term coverage) over the chunk search."""
        return FindingRanker(FindingIndex(self.sessions, self.embedder, self.corpus), self.embedder)

    @cached_property
    def sop_retriever(self) -> SopRetriever:
        """Search over the SOP clauses (audit procedures and criteria)."""
        return SopRetriever(self.sessions, self.embedder)

    def warm_up(self) -> dict[str, float]:
        """Pay at start-up what the first request would pay otherwise: the embedder, Kiwi,
        Milvus, the lexical and SOP indexes and the policies. Returns seconds per part."""
        timings: dict[str, float] = {}
        for name, step in (
            ("embedder", lambda: self.embedder.embed_queries(["감사"])),
            ("kiwi", get_kiwi),
            ("retriever", lambda: self.retriever.search("감사 지적사항", k=1)),
            ("sop", lambda: self.sop_retriever.search("주의 요구", 1)),
            ("policies", lambda: self.policies),
        ):
            t0 = time.perf_counter()
            step()
            timings[name] = round(time.perf_counter() - t0, 3)
        return timings

    def close(self) -> None:
        if "vectors" in self.__dict__:
            self.vectors.close()
        self.engine.dispose()
