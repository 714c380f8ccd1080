"""One lock for every pdfium call in the process: pdfium is not thread-safe, not even across
documents, and the API renders cited pages in request threads while its ingest worker reads
uploaded PDFs in another."""

from __future__ import annotations

import threading

PDFIUM_LOCK = threading.RLock()
