"""SOP documents (audit procedures and criteria, Markdown in ``sop/``) -> citable clauses.

Format: ``# Title``, an optional ``<!-- doc_id: SOP-XXX -->``, then clauses headed
``## [SOP-XXX-01] Clause title`` followed by their text.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from app.db.models import SopClause, SopDocument

_TITLE = re.compile(r"^#\s+(.+?)\s*$", re.MULTILINE)
_DOC_ID = re.compile(r"<!--\s*doc_id:\s*([A-Za-z0-9_-]+)\s*-->")
_CLAUSE = re.compile(r"^##\s+\[([A-Za-z0-9_-]+)\]\s+(.+?)\s*$", re.MULTILINE)


class SopFormatError(ValueError):
    pass


@dataclass(frozen=True)
class ParsedClause:
    id: str
    title: str
    text: str


def parse_sop_markdown(text: str, name: str) -> tuple[str, str, list[ParsedClause]]:
    """(doc_id, title, clauses). Raises SopFormatError when the file has no clauses."""
    title_m = _TITLE.search(text)
    doc_id_m = _DOC_ID.search(text)
    heads = list(_CLAUSE.finditer(text))
    if not heads:
        raise SopFormatError(f"{name}: no clauses of the form '## [SOP-XXX-01] title'")
    clauses = []
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = text[m.end() : end].strip()
        clauses.append(ParsedClause(m.group(1), m.group(2), body))
    doc_id = doc_id_m.group(1) if doc_id_m else Path(name).stem
    return doc_id, (title_m.group(1) if title_m else doc_id), clauses


def ingest_sop_dir(directory: str | Path, sessions: sessionmaker[Session]) -> dict[str, int]:
    """Load every ``*.md`` clause file (README.md excluded). Unchanged files are skipped."""
    counts = {"documents": 0, "clauses": 0, "skipped": 0}
    for path in sorted(Path(directory).glob("*.md")):
        if path.name.lower() == "readme.md":
            continue
        raw = path.read_bytes()
        sha = hashlib.sha256(raw).hexdigest()
        doc_id, title, clauses = parse_sop_markdown(raw.decode("utf-8"), path.name)
        with sessions() as session, session.begin():
            old = session.get(SopDocument, doc_id)
            if old is not None and old.sha256 == sha:
                counts["skipped"] += 1
                continue
            if old is not None:
                session.delete(old)
                session.flush()
            session.add(
                SopDocument(
                    id=doc_id,
                    title=title,
                    source_file=path.name,
                    sha256=sha,
                    clauses=[
                        SopClause(id=c.id, document_id=doc_id, ordinal=i, title=c.title, text=c.text)
                        for i, c in enumerate(clauses)
                    ],
                )
            )
        counts["documents"] += 1
        counts["clauses"] += len(clauses)
    return counts
