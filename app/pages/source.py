"""The source file of an ingested document, as it was ingested, or a clear reason why not.

Ingestion records the absolute path it read each file from (a shared report where it lies, an
upload under ``<data_dir>/uploads/<job>/``) and the file's sha256. A page can only be shown from
that same file: one that is gone, or whose content changed, is refused with what to do about it.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from app.db.models import Report


class SourceUnavailable(Exception):
    """The document's original file cannot be used; the message says why and what to do."""


_digests: dict[tuple[str, int, int], str] = {}
_lock = threading.Lock()


def file_sha256(path: Path) -> str:
    """The file's sha256, remembered by (path, size, mtime) so a warm request does not re-read it."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    with _lock:
        if key in _digests:
            return _digests[key]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    with _lock:
        if len(_digests) > 512:
            _digests.clear()
        _digests[key] = digest
    return digest


def source_file(report: Report) -> Path:
    """The report's original file, checked to be the one that was ingested."""
    if not report.source_path:
        raise SourceUnavailable(
            f"the source file of report '{report.id}' ({report.source_file}) is not known: it was ingested "
            "before AURA kept source paths; ingest it again to see its pages"
        )
    path = Path(report.source_path)
    if not os.path.isfile(path):
        raise SourceUnavailable(
            f"the source file of report '{report.id}' is gone: {path} was moved or deleted after it was "
            "ingested; ingest the file again from where it is now (an unchanged file keeps its ids)"
        )
    if file_sha256(path) != report.sha256:
        raise SourceUnavailable(
            f"the source file of report '{report.id}' has changed since it was ingested ({path}); "
            "ingest it again to see its pages"
        )
    return path
