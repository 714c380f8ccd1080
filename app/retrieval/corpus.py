"""Where retrievers get their documents: the SQL store (chunks of ingested reports) or an
in-memory list (evaluation datasets). Both build the lexical index and turn ids into Evidence.

``SqlCorpus`` builds its BM25 index from the chunks in SQL and rebuilds it when the store
changes: every search compares a cheap version (chunk count, report count, latest
``ingested_at``) with the one it was built from; ``refresh()`` forces the check. Terms come from
``Chunk.lexical`` (filled at ingest); chunks whose stored user-word set no longer matches the
dictionary are re-tokenized and written back (see ``app/retrieval/lexicon.py``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, selectinload, sessionmaker

from app.db.models import Chunk, Finding, Report
from app.ingest.pipeline import chunk_metadata
from app.retrieval import lexicon
from app.retrieval.base import Hit
from app.retrieval.evidence import Evidence
from app.retrieval.filters import SearchFilters
from app.retrieval.lexical import BM25Index, terms

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class IndexedChunk:
    """What evidence needs about one chunk (kept in memory next to the lexical index)."""

    id: str
    text: str
    meta: Mapping[str, Any]
    heading: str = ""
    report_title: str = ""
    finding_title: str | None = None

    def evidence(self) -> Evidence:
        m = self.meta
        return Evidence(
            chunk_id=self.id,
            report_id=str(m.get("report_id") or ""),
            finding_id=m.get("finding_id") or None,
            section=str(m.get("section") or ""),
            page=int(m.get("page") or 0),
            ordinal=int(m.get("ordinal") or 0),
            text=self.text,
            heading=self.heading,
            report_title=self.report_title,
            finding_title=self.finding_title,
            dispositions=list(m.get("dispositions") or []),
            institutions=list(m.get("institutions") or []),
            year=m.get("year") or None,
        )


class MemoryCorpus:
    """Documents given in memory (evaluation sets), with their morphemes computed by the caller."""

    def __init__(
        self, docs: Sequence[IndexedChunk], morphemes: Sequence[Sequence[str]], other_docs: Sequence[IndexedChunk] = ()
    ) -> None:
        """``docs`` are indexed for BM25; ``other_docs`` (e.g. the chunks a dense index holds
        when BM25 indexes whole passages) can be turned into evidence too."""
        self.docs = {d.id: d for d in [*other_docs, *docs]}
        self.index = BM25Index.build((d.id, terms(m), d.meta) for d, m in zip(docs, morphemes, strict=True))

    def search(self, tokens: list[str], k: int, filters: SearchFilters | None = None) -> list[Hit]:
        return self.index.search(tokens, k, filters)

    def ceiling(self, tokens: list[str]) -> float:
        return self.index.ceiling(tokens)

    def idf_share(self, tokens: list[str], doc_id: str) -> float:
        return self.index.idf_share(tokens, doc_id)

    def refresh(self, force: bool = False) -> bool:
        return False

    def __len__(self) -> int:
        return len(self.index)

    def version(self) -> object:
        return len(self.docs)

    def evidence(self, ids: Iterable[str]) -> dict[str, Evidence]:
        return {i: self.docs[i].evidence() for i in ids if i in self.docs}


class SqlCorpus:
    """The lexical index over every chunk in SQL, rebuilt when the store changes."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self._lock = threading.Lock()
        self._version: tuple | None = None
        self._index = BM25Index.build([])
        self._docs: dict[str, IndexedChunk] = {}
        self._finding_terms: dict[str, frozenset[str]] = {}
        self._chunk_lexical: dict[str, str] = {}
        self.retokenized = 0
        """How many chunks the last build had to re-tokenize (0 when ingest-time terms fit)."""

    # -- version and build -------------------------------------------------------------
    def current_version(self) -> tuple:
        with self.sessions() as s:
            chunks = s.scalar(select(func.count()).select_from(Chunk)) or 0
            reports, latest = s.execute(select(func.count(), func.max(Report.ingested_at))).one()
        return (chunks, reports, str(latest))

    def idf(self, term: str) -> float | None:
        """The term's IDF in the current index, None when no chunk contains it."""
        self.refresh()
        j = self._index.vocab.get(term)
        return None if j is None else float(self._index.idf[j])

    def chunk_terms(self, chunk_id: str) -> frozenset[str] | None:
        """A chunk's morphemes (its heading and text, as ``app.text.korean.morphemes`` reads them) as the last build
        read them; None for a chunk it does not hold (a clause of the manual, one ingested since)."""
        lexical = self._chunk_lexical.get(chunk_id)
        return None if lexical is None else frozenset(lexical.split())

    def finding_terms(self) -> dict[str, frozenset[str]]:
        """Each finding's chunk terms (content morphemes, lowercased) as the current index read them."""
        self.refresh()
        return self._finding_terms

    def version(self) -> tuple | None:
        """The store version the index was built from (call ``refresh`` to update)."""
        return self._version

    def refresh(self, force: bool = False) -> bool:
        """Rebuild when the store changed since the last build. Returns True if rebuilt."""
        version = self.current_version()
        if not force and version == self._version:
            return False
        with self._lock:
            if not force and version == self._version:
                return False
            self._build()
            self._version = version
        return True

    def _build(self) -> None:
        with self.sessions() as s:
            names = lexicon.institution_names(s)
            lexicon.register(names)
            reports = {r.id: r for r in s.scalars(select(Report))}
            findings = {
                f.id: f for f in s.scalars(select(Finding).options(selectinload(Finding.dispositions)))
            }
            chunks = s.scalars(select(Chunk).order_by(Chunk.report_id, Chunk.finding_id, Chunk.section, Chunk.ordinal)).all()
            docs: list[IndexedChunk] = []
            lex: list[str | None] = []
            stale: list[int] = []
            words: list[str] = []
            for c in chunks:
                report = reports[c.report_id]
                finding = findings.get(c.finding_id or "")
                docs.append(
                    IndexedChunk(
                        c.id,
                        c.text,
                        chunk_metadata(report, c, finding),
                        c.heading,
                        report.title,
                        finding.title if finding else None,
                    )
                )
                text = c.index_text
                found = lexicon.words_in(text, names)
                words.append(found)
                lex.append(c.lexical)
                if c.lexical is None or (c.lexical_words or "") != found:
                    stale.append(len(docs) - 1)
            if stale:
                fresh = lexicon.tokenize([chunks[i].index_text for i in stale])
                for i, t in zip(stale, fresh, strict=True):
                    lex[i] = t
            stale_rows = [{"cid": chunks[i].id, "lex": lex[i], "words": words[i]} for i in stale]
            by_finding: dict[str, set[str]] = {}
            for c, t in zip(chunks, lex, strict=True):
                if c.finding_id:
                    by_finding.setdefault(c.finding_id, set()).update((t or "").split())
        self.retokenized = len(stale)
        if stale_rows:
            self._write_back(stale_rows)
        self._docs = {d.id: d for d in docs}
        self._finding_terms = {f: frozenset(ts) for f, ts in by_finding.items()}
        self._chunk_lexical = {d.id: t or "" for d, t in zip(docs, lex, strict=True)}
        self._index = BM25Index.build((d.id, terms((t or "").split()), d.meta) for d, t in zip(docs, lex, strict=True))
        log.info("lexical index: %d chunks, %d re-tokenized", len(docs), len(stale))

    def _write_back(self, rows: list[dict]) -> None:
        """Store re-tokenized terms so the next start reuses them. Best effort: the index is
        already correct in memory."""
        try:
            with self.sessions() as s, s.begin():
                for r in rows:
                    s.execute(update(Chunk).where(Chunk.id == r["cid"]).values(lexical=r["lex"], lexical_words=r["words"]))
        except Exception:  # a read-only replica, a concurrent ingest: the next build retries
            log.warning("could not store re-tokenized chunk terms", exc_info=True)

    # -- LexicalIndex + evidence ------------------------------------------------------------
    def search(self, tokens: list[str], k: int, filters: SearchFilters | None = None) -> list[Hit]:
        self.refresh()
        return self._index.search(tokens, k, filters)

    def ceiling(self, tokens: list[str]) -> float:
        return self._index.ceiling(tokens)

    def idf_share(self, tokens: list[str], doc_id: str) -> float:
        return self._index.idf_share(tokens, doc_id)

    def __len__(self) -> int:
        return len(self._index)

    def evidence(self, ids: Iterable[str]) -> dict[str, Evidence]:
        ids = list(ids)
        missing = [i for i in ids if i not in self._docs]
        if missing:  # ingested after the last build; the next search rebuilds
            self.refresh()
        return {i: self._docs[i].evidence() for i in ids if i in self._docs}
