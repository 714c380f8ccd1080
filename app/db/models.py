"""Relational storage: reports, findings, chunks and SOP clauses (SQLAlchemy 2.x typed ORM).

Identifiers are strings derived from the source, so they survive re-ingestion:
report ``jj20250925_091048``, finding ``jj20250925_091048-F02``, chunk = a hash of
(report sha256, finding, section, ordinal). The same chunk ids key the Milvus vectors.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    event,
    inspect,
)
from sqlalchemy import text as sql_text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Report(Base):
    """One ingested file: an audit report, or a generic document (kind='document')."""

    __tablename__ = "reports"

    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), default="audit_report")
    source_file: Mapped[str] = mapped_column(String(512))
    source_path: Mapped[str | None] = mapped_column(Text, default=None)
    """The absolute path the file was ingested from (a shared report where it lies, an upload
    under ``<data_dir>/uploads/``), for showing its pages; None in stores made before it."""
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    format: Mapped[str] = mapped_column(String(8))
    title: Mapped[str] = mapped_column(String(512))
    audit_type: Mapped[str | None] = mapped_column(String(64))
    report_date: Mapped[str | None] = mapped_column(String(32))
    year: Mapped[int | None] = mapped_column(Integer, index=True)
    month: Mapped[int | None] = mapped_column(Integer)
    institutions: Mapped[list[str]] = mapped_column(JSON, default=list)
    page_count: Mapped[int] = mapped_column(Integer)
    ingested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    findings: Mapped[list[Finding]] = relationship(
        back_populates="report", cascade="all, delete-orphan", order_by="Finding.number"
    )
    chunks: Mapped[list[Chunk]] = relationship(back_populates="report", cascade="all, delete-orphan")


class Finding(Base):
    """One 지적사항. Year, audit type and the primary institution are copied from the report and
    the finding so that the SQL fast-track can answer from this table and its dispositions."""

    __tablename__ = "findings"

    id: Mapped[str] = mapped_column(String(160), primary_key=True)
    report_id: Mapped[str] = mapped_column(ForeignKey("reports.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(512))
    disposition: Mapped[str | None] = mapped_column(String(16), index=True)
    """The first disposition; all of them are in finding_dispositions."""
    institution: Mapped[str | None] = mapped_column(String(128), index=True)
    """소관 기관, else the first 조치 기관."""
    responsible_org: Mapped[str | None] = mapped_column(String(256))
    action_orgs: Mapped[str | None] = mapped_column(String(512))
    """조치 기관, comma-separated."""
    year: Mapped[int | None] = mapped_column(Integer, index=True)
    audit_type: Mapped[str | None] = mapped_column(String(64))
    overview: Mapped[str] = mapped_column(Text, default="")
    criteria: Mapped[str] = mapped_column(Text, default="")
    problems: Mapped[str] = mapped_column(Text, default="")
    opinion: Mapped[str] = mapped_column(Text, default="")
    actions: Mapped[str] = mapped_column(Text, default="")
    amount_krw: Mapped[int | None] = mapped_column(BigInteger)
    """The largest money amount stated in the finding, in won."""
    page_start: Mapped[int] = mapped_column(Integer)
    page_end: Mapped[int] = mapped_column(Integer)

    report: Mapped[Report] = relationship(back_populates="findings")
    dispositions: Mapped[list[FindingDisposition]] = relationship(
        cascade="all, delete-orphan", order_by="FindingDisposition.ordinal"
    )

    @property
    def disposition_list(self) -> list[str]:
        return [d.disposition for d in self.dispositions]

    @property
    def institution_names(self) -> list[str]:
        """The finding's institutions (``finding_institutions`` with its own report)."""
        return finding_institutions(self, self.report)


def finding_institutions(finding: Finding, report: Report) -> list[str]:
    """The one derivation of a finding's institutions (chunk metadata, the finding index,
    evidence, the catalog): its own first (responsible, then action organisations: they name what
    it is about), then the report's, each once. ``report`` is passed because a finding being
    ingested is not yet attached to it."""
    names = [*org_names(finding.responsible_org), *org_names(finding.action_orgs), *(report.institutions or [])]
    return list(dict.fromkeys(n for n in names if n))


def org_names(field: str | None) -> list[str]:
    """The names in a comma-joined organisation field ('곡성군, 곡성군의회')."""
    return [n.strip() for n in (field or "").split(",") if n.strip()]


class FindingDisposition(Base):
    __tablename__ = "finding_dispositions"
    __table_args__ = (UniqueConstraint("finding_id", "disposition"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    finding_id: Mapped[str] = mapped_column(ForeignKey("findings.id", ondelete="CASCADE"), index=True)
    disposition: Mapped[str] = mapped_column(String(16), index=True)
    ordinal: Mapped[int] = mapped_column(Integer, default=0)


class Chunk(Base):
    """A retrievable passage: part of one finding section or of a report-level section."""

    __tablename__ = "chunks"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    report_id: Mapped[str] = mapped_column(ForeignKey("reports.id", ondelete="CASCADE"), index=True)
    finding_id: Mapped[str | None] = mapped_column(ForeignKey("findings.id", ondelete="CASCADE"), index=True)
    section: Mapped[str] = mapped_column(String(32))
    ordinal: Mapped[int] = mapped_column(Integer)
    page: Mapped[int] = mapped_column(Integer)
    heading: Mapped[str] = mapped_column(String(1024), default="")
    """Report title > finding > section: prepended to the text for embedding and BM25."""
    text: Mapped[str] = mapped_column(Text)
    lexical: Mapped[str | None] = mapped_column(Text, default=None)
    """BM25 terms of index_text (Kiwi content morphemes, space-joined), filled at ingest so the
    lexical index starts without re-tokenizing (see app/retrieval/lexicon.py)."""
    lexical_words: Mapped[str | None] = mapped_column(Text, default=None)
    """The Kiwi user words (institution names) found in index_text when ``lexical`` was made,
    '|'-joined; a chunk is re-tokenized when the current dictionary finds a different set."""

    report: Mapped[Report] = relationship(back_populates="chunks")

    @property
    def index_text(self) -> str:
        return f"{self.heading}\n{self.text}" if self.heading else self.text


class SopDocument(Base):
    __tablename__ = "sop_documents"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    title: Mapped[str] = mapped_column(String(256))
    source_file: Mapped[str] = mapped_column(String(512))
    source_path: Mapped[str | None] = mapped_column(Text, default=None)
    """The absolute path the file was ingested from (a shared report where it lies, an upload
    under ``<data_dir>/uploads/``), for showing its pages; None in stores made before it."""
    sha256: Mapped[str] = mapped_column(String(64))

    clauses: Mapped[list[SopClause]] = relationship(
        cascade="all, delete-orphan", order_by="SopClause.ordinal"
    )


class SopClause(Base):
    __tablename__ = "sop_clauses"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    document_id: Mapped[str] = mapped_column(ForeignKey("sop_documents.id", ondelete="CASCADE"), index=True)
    ordinal: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(256))
    text: Mapped[str] = mapped_column(Text)


_ADDED_COLUMNS = {"chunks": ("lexical", "lexical_words"), "reports": ("source_path",)}
"""Nullable columns added after the first release; ``create_all`` does not add columns to an
existing table, so a store created before them gets them here."""


@event.listens_for(Base.metadata, "after_create")
def _add_missing_columns(target, connection, **kw) -> None:  # noqa: ANN001
    insp = inspect(connection)
    for table, columns in _ADDED_COLUMNS.items():
        if not insp.has_table(table):
            continue
        present = {c["name"] for c in insp.get_columns(table)}
        for col in columns:
            if col not in present:
                connection.execute(sql_text(f"ALTER TABLE {table} ADD COLUMN {col} TEXT"))


# -- HTTP API: keys, thread ownership, upload jobs, report drafts ---------------------------------


class ApiKey(Base):
    """An API key. Only the sha256 of the key is stored; ``prefix`` (its first characters) finds
    the candidates and names the key in listings."""

    __tablename__ = "api_credentials"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64), index=True)
    prefix: Mapped[str] = mapped_column(String(16), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class ThreadRecord(Base):
    """Who owns a conversation thread (its messages live in the LangGraph checkpointer)."""

    __tablename__ = "api_threads"

    thread_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    owner_key_id: Mapped[int] = mapped_column(ForeignKey("api_credentials.id", ondelete="CASCADE"), index=True)
    title: Mapped[str] = mapped_column(String(128), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class IngestJob(Base):
    """One upload: its files are ingested by the API's background worker, one job at a time."""

    __tablename__ = "api_ingest_jobs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_key_id: Mapped[int] = mapped_column(ForeignKey("api_credentials.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    """'queued' | 'running' | 'done' | 'failed'."""
    files: Mapped[list[dict]] = mapped_column(JSON, default=list)
    """Per file: {file, status, findings, chunks, error}; status 'queued' until ingested."""
    summary: Mapped[dict | None] = mapped_column(JSON, default=None)
    error: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ReportDraft(Base):
    """A report draft made by a report turn, edited by the auditor before export."""

    __tablename__ = "api_report_drafts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner_key_id: Mapped[int] = mapped_column(ForeignKey("api_credentials.id", ondelete="CASCADE"), index=True)
    thread_id: Mapped[str | None] = mapped_column(String(128), index=True)
    title: Mapped[str] = mapped_column(String(512))
    sections: Mapped[list[dict]] = mapped_column(JSON, default=list)
    findings: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class TurnLog(Base):
    """One answered API turn: which checkpoint ends it (its ``turn_id``) and the versions that
    produced it (app, embedding model, LLM), for the thread's working paper."""

    __tablename__ = "api_turns"

    turn_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    thread_id: Mapped[str] = mapped_column(String(128), index=True)
    owner_key_id: Mapped[int] = mapped_column(ForeignKey("api_credentials.id", ondelete="CASCADE"), index=True)
    versions: Mapped[dict] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class Feedback(Base):
    """An auditor's 👍/👎 and comment on one answer (a turn of a thread), one per key and turn;
    the question and answer are copied so an export stands on its own."""

    __tablename__ = "api_feedback"
    __table_args__ = (UniqueConstraint("owner_key_id", "turn_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    owner_key_id: Mapped[int] = mapped_column(ForeignKey("api_credentials.id", ondelete="CASCADE"), index=True)
    thread_id: Mapped[str] = mapped_column(String(128), index=True)
    turn_id: Mapped[str] = mapped_column(String(64))
    rating: Mapped[str] = mapped_column(String(8))
    """'up' | 'down'."""
    comment: Mapped[str] = mapped_column(Text, default="")
    question: Mapped[str] = mapped_column(Text, default="")
    answer: Mapped[str] = mapped_column(Text, default="")
    coverage: Mapped[str | None] = mapped_column(String(16), default=None)
    cited_findings: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
