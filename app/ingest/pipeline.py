"""Ingestion: files -> reports, findings and chunks in SQL, chunk vectors in Milvus.

Per file, all or nothing: rows are written in one SQL transaction that commits only after
the vectors are in Milvus; if anything fails the transaction rolls back and the file's vectors
are deleted again, so the two stores always hold the same chunk ids. A file whose sha256 is
already stored is skipped; a changed file (same name, new content) replaces its old rows and
vectors. Re-running after a crash converges, because every write starts by deleting whatever
the file left behind.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.db.models import Chunk, Finding, FindingDisposition, Report, finding_institutions
from app.embeddings.interface import Embedder
from app.ingest.chunking import chunk_text
from app.ingest.documents import parse_document
from app.ingest.loaders import LoadError, load_document, supported_suffixes
from app.ingest.parsed import ParsedFinding, ParsedReport, ParsedSection
from app.retrieval.lexicon import fill_lexical
from app.vectorstore.milvus import MilvusVectorStore
from graph.vocab import section_label

log = logging.getLogger(__name__)


@dataclass
class FileResult:
    file: str
    status: str
    """'ingested' | 'replaced' | 'unchanged' | 'error'."""
    report_id: str | None = None
    findings: int = 0
    chunks: int = 0
    error: str | None = None


@dataclass
class IngestSummary:
    files: int = 0
    reports: int = 0
    findings: int = 0
    chunks: int = 0
    skipped: int = 0
    errors: list[dict[str, str]] = field(default_factory=list)
    results: list[FileResult] = field(default_factory=list)

    def add(self, r: FileResult) -> None:
        self.files += 1
        self.results.append(r)
        if r.status == "error":
            self.errors.append({"file": r.file, "error": r.error or "unknown error"})
        elif r.status == "unchanged":
            self.skipped += 1
        else:
            self.reports += 1
            self.findings += r.findings
            self.chunks += r.chunks

    def as_dict(self, with_results: bool = False) -> dict:
        out = {k: v for k, v in asdict(self).items() if k != "results"}
        if with_results:
            out["results"] = [asdict(r) for r in self.results]
        return out


def report_id_for(path: str | Path) -> str:
    """The stable report id: the file name stem, reduced to safe characters."""
    stem = Path(path).stem
    safe = re.sub(r"[^0-9A-Za-z가-힣_.-]+", "_", stem).strip("_.") or "document"
    return safe[:120]


def finding_id_for(report_id: str, number: int) -> str:
    return f"{report_id}-F{number:02d}"


def chunk_id_for(sha256: str, finding_number: int, section: str, ordinal: int) -> str:
    return hashlib.sha1(f"{sha256}:{finding_number}:{section}:{ordinal}".encode()).hexdigest()


def expand_paths(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files as given, directories walked (sorted) for supported types; unknown explicit files
    are yielded too so that they get a clear per-file error."""
    suffixes = set(supported_suffixes())
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            yield from sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in suffixes)
        else:
            yield p


class Ingestor:
    def __init__(
        self,
        sessions: sessionmaker[Session],
        embedder: Embedder,
        vectors: MilvusVectorStore,
        chunk_chars: int = 700,
        chunk_overlap: int = 100,
    ) -> None:
        self.sessions, self.embedder, self.vectors = sessions, embedder, vectors
        self.chunk_chars, self.chunk_overlap = chunk_chars, chunk_overlap

    def ingest(
        self, paths: Iterable[str | Path], on_file: Callable[[FileResult], None] | None = None
    ) -> IngestSummary:
        summary = IngestSummary()
        for path in expand_paths(paths):
            result = self.ingest_file(path)
            summary.add(result)
            if on_file:
                on_file(result)
        return summary

    def ingest_file(self, path: str | Path) -> FileResult:
        name = Path(path).name
        report_id = report_id_for(path)
        try:
            doc = load_document(path)
        except LoadError as exc:
            return FileResult(name, "error", error=str(exc))
        with self.sessions() as session:
            old = session.get(Report, report_id)
            if old is not None and old.sha256 == doc.sha256:
                if old.source_path != (where := str(Path(path).resolve())):  # found again elsewhere
                    old.source_path = where
                    session.commit()
                return FileResult(name, "unchanged", report_id, len(old.findings), 0)
        try:
            kind, parsed = parse_document(doc)
        except Exception as exc:  # a parser bug on one odd file must not stop the batch
            log.exception("parse failed for %s", path)
            return FileResult(name, "error", report_id, error=f"could not parse the document: {_brief(exc)}")
        try:
            n_findings, n_chunks = self._write(report_id, kind, doc.sha256, doc.format, doc.path, len(doc.pages), parsed)
        except Exception as exc:
            log.exception("storing %s failed", path)
            return FileResult(name, "error", report_id, error=f"could not store the document: {_brief(exc)}")
        return FileResult(name, "replaced" if old is not None else "ingested", report_id, n_findings, n_chunks)

    def _write(
        self, report_id: str, kind: str, sha256: str, fmt: str, path: str, pages: int, parsed: ParsedReport
    ) -> tuple[int, int]:
        report = Report(
            id=report_id,
            kind=kind,
            source_file=Path(path).name,
            source_path=str(Path(path).resolve()),
            sha256=sha256,
            format=fmt,
            title=parsed.title,
            audit_type=parsed.audit_type,
            report_date=parsed.report_date,
            year=parsed.year,
            month=parsed.month,
            institutions=parsed.institutions,
            page_count=pages,
        )
        findings = [self._finding_row(report_id, parsed, f) for f in parsed.findings]
        by_id = {f.id: f for f in findings}
        chunks = self._chunk_rows(report_id, sha256, parsed)
        metas = [chunk_metadata(report, c, by_id.get(c.finding_id or "")) for c in chunks]
        with self.sessions() as session:
            try:
                old = session.get(Report, report_id)
                if old is not None:
                    session.delete(old)
                    session.flush()
                session.add(report)
                session.add_all(findings)
                session.flush()  # findings before chunks: chunks reference them (no ORM relationship)
                session.add_all(chunks)
                session.flush()
                fill_lexical(session, chunks)  # BM25 terms, after this report's names are registered
                self.vectors.delete_report(report_id)
                if chunks:
                    vecs = self.embedder.embed_passages([c.index_text for c in chunks])
                    self.vectors.upsert([c.id for c in chunks], vecs, metas)
                session.commit()
            except BaseException:
                session.rollback()
                self._restore_vectors(report_id)
                raise
        return len(findings), len(chunks)

    def _restore_vectors(self, report_id: str) -> None:
        """After a failed write, make Milvus match SQL again (the old version or nothing)."""
        try:
            self.reindex_report(report_id)
        except Exception:  # Milvus itself may be what failed; `aura reindex` or a re-run repairs
            log.warning("could not restore vectors of %s after a failed write", report_id)

    def reindex_report(self, report_id: str) -> int:
        """Rewrite the report's vectors from the chunks in SQL (cached embeddings make this cheap)."""
        with self.sessions() as session:
            rows = session.scalars(select(Chunk).where(Chunk.report_id == report_id).order_by(Chunk.id)).all()
            report = session.get(Report, report_id)
            by_id = {f.id: f for f in report.findings} if report else {}
            metas = [chunk_metadata(report, c, by_id.get(c.finding_id or "")) for c in rows] if report else []
            texts = [c.index_text for c in rows]
            ids = [c.id for c in rows]
        self.vectors.delete_report(report_id)
        if ids:
            self.vectors.upsert(ids, self.embedder.embed_passages(texts), metas)
        return len(ids)

    @staticmethod
    def _finding_row(report_id: str, parsed: ParsedReport, f: ParsedFinding) -> Finding:
        fid = finding_id_for(report_id, f.number)
        institution = f.responsible_org or (f.action_orgs[0] if f.action_orgs else None)
        return Finding(
            id=fid,
            report_id=report_id,
            number=f.number,
            title=f.title,
            disposition=f.dispositions[0] if f.dispositions else None,
            institution=institution,
            responsible_org=f.responsible_org,
            action_orgs=", ".join(f.action_orgs) or None,
            year=parsed.year,
            audit_type=parsed.audit_type,
            overview=f.section_text("overview"),
            criteria=f.section_text("criteria"),
            problems=f.section_text("problems"),
            opinion=f.section_text("opinion"),
            actions=f.section_text("actions"),
            amount_krw=max(f.amounts_krw) if f.amounts_krw else None,
            page_start=f.page_start,
            page_end=f.page_end,
            dispositions=[FindingDisposition(finding_id=fid, disposition=d, ordinal=i) for i, d in enumerate(f.dispositions)],
        )

    def _chunk_rows(self, report_id: str, sha256: str, parsed: ParsedReport) -> list[Chunk]:
        chunks: list[Chunk] = []
        next_ordinal: dict[tuple[int, str], int] = {}  # a finding may have several sections of a kind

        def add(section: ParsedSection, finding: ParsedFinding | None) -> None:
            number = finding.number if finding else 0
            heading = parsed.title
            if finding:
                heading += f" > {finding.number}. {finding.title}"
                if finding.dispositions:
                    heading += f"({', '.join(finding.dispositions)})"
            heading += f" > {section_label(section.kind)}"
            for text in chunk_text(section.text, self.chunk_chars, self.chunk_overlap):
                ordinal = next_ordinal.get((number, section.kind), 0)
                next_ordinal[(number, section.kind)] = ordinal + 1
                chunks.append(
                    Chunk(
                        id=chunk_id_for(sha256, number, section.kind, ordinal),
                        report_id=report_id,
                        finding_id=finding_id_for(report_id, number) if finding else None,
                        section=section.kind,
                        ordinal=ordinal,
                        page=section.page,
                        heading=heading[:1000],
                        text=text,
                    )
                )

        for section in parsed.sections:
            add(section, None)
        for finding in parsed.findings:
            for section in finding.sections:
                add(section, finding)
        return chunks


def chunk_metadata(report: Report, chunk: Chunk, finding: Finding | None) -> dict:
    """The filterable metadata of a chunk, as stored next to its vector."""
    institutions = finding_institutions(finding, report) if finding is not None else list(report.institutions or [])
    dispositions = finding.disposition_list if finding is not None else []
    return {
        "report_id": report.id,
        "finding_id": chunk.finding_id or "",
        "section": chunk.section,
        "kind": "finding" if finding is not None else ("report" if report.kind == "audit_report" else "document"),
        "institutions": [i for i in dict.fromkeys(institutions) if i],
        "year": report.year,
        "audit_type": report.audit_type,
        "dispositions": dispositions,
        "page": chunk.page,
        "ordinal": chunk.ordinal,
    }


def _brief(exc: BaseException) -> str:
    """One line for the user (database errors carry whole statements and parameters)."""
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first[:200]}"


def stored_counts(session: Session) -> dict[str, int]:
    return {
        "reports": session.scalar(select(func.count()).select_from(Report)) or 0,
        "findings": session.scalar(select(func.count()).select_from(Finding)) or 0,
        "chunks": session.scalar(select(func.count()).select_from(Chunk)) or 0,
    }
