"""Turn a file on disk into page texts. One function per format, one entry point."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from app.ingest.parsed import LoadedDocument


class LoadError(Exception):
    """A file that cannot be read as a document; the message says why, for the user."""


def _pdf_pages(path: Path) -> list[str]:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise LoadError(f"not a readable PDF ({exc})") from exc
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def _text_pages(path: Path) -> list[str]:
    raw = path.read_bytes()
    for encoding in ("utf-8-sig", "cp949"):
        try:
            text = raw.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        raise LoadError("text file is neither UTF-8 nor CP949")
    if "\x00" in text:
        raise LoadError("binary data in a text file")
    return text.split("\f")


LOADERS: dict[str, Callable[[Path], list[str]]] = {
    ".pdf": _pdf_pages,
    ".txt": _text_pages,
    ".md": _text_pages,
}


def supported_suffixes() -> tuple[str, ...]:
    return tuple(sorted(LOADERS))


def load_document(path: str | Path) -> LoadedDocument:
    """Read one file. Raises LoadError with a user-facing reason on any failure."""
    path = Path(path)
    suffix = path.suffix.lower()
    loader = LOADERS.get(suffix)
    if loader is None:
        raise LoadError(f"unsupported file type '{suffix or path.name}' (supported: {', '.join(supported_suffixes())})")
    if not path.is_file():
        raise LoadError("no such file")
    data = path.read_bytes()
    if not data:
        raise LoadError("empty file")
    try:
        pages = loader(path)
    except LoadError:
        raise
    except Exception as exc:  # parser libraries raise anything on corrupt input
        raise LoadError(f"cannot read {suffix[1:].upper()} file: {exc}") from exc
    if not any(p.strip() for p in pages):
        raise LoadError("no text found (scanned images are not supported)")
    return LoadedDocument(
        path=str(path),
        sha256=hashlib.sha256(data).hexdigest(),
        pages=pages,
        format=suffix[1:],
    )
