"""Turn a file on disk into page texts. One function per format, one entry point.

Every failure leaves ``load_document`` as a ``LoadError`` whose message tells the user
why, in a few words. Loading only reads: nothing is written anywhere.
"""

from __future__ import annotations

import codecs
import hashlib
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import docx
import pypdfium2 as pdfium
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn

from app.ingest.hwp import hwp_pages, hwpx_pages
from app.ingest.load_errors import OLE_MAGIC, ZIP_MAGIC, LoadError
from app.ingest.parsed import LoadedDocument
from app.pdfium_lock import PDFIUM_LOCK

if TYPE_CHECKING:
    from lxml.etree import _Element

_PDF_EOF_WINDOW = 4096
_MAX_REASON = 200
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def _pdf_pages(path: Path) -> list[str]:
    """Pages of a PDF via pdfium; refuses non-PDFs and truncated files up front."""
    data = path.read_bytes()
    if b"%PDF-" not in data[:1024]:
        raise LoadError("not a PDF file (no %PDF header)")
    if b"%%EOF" not in data[-_PDF_EOF_WINDOW:]:
        raise LoadError("PDF file is truncated or damaged (no end-of-file marker)")
    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            if "password" in str(exc).lower():
                raise LoadError("password-protected PDF is not supported") from exc
            raise LoadError(f"damaged or unreadable PDF ({exc})") from exc
        try:
            return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
        finally:
            pdf.close()


def _decode_text(raw: bytes) -> str:
    """Decode a text file: UTF-16 with a BOM, else UTF-8 (BOM optional), else CP949."""
    if raw.startswith(_UTF16_BOMS):
        encodings: tuple[str, ...] = ("utf-16",)
    else:
        encodings = ("utf-8-sig", "cp949")
    for encoding in encodings:
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise LoadError("text file is neither UTF-8 nor CP949 (EUC-KR)")


def _text_pages(path: Path) -> list[str]:
    """Pages of a plain-text file; form feeds separate pages."""
    raw = path.read_bytes()
    if b"\x00" in raw and not raw.startswith(_UTF16_BOMS):
        raise LoadError("binary data in a text file (NUL bytes)")
    return _decode_text(raw).split("\f")


def _docx_pages(path: Path) -> list[str]:
    """Pages of a .docx: paragraphs and tables in body order, split at explicit page breaks."""

    data = path.read_bytes()
    if data.startswith(OLE_MAGIC):
        raise LoadError("password-protected DOCX or old Word .doc file is not supported")
    if not data.startswith(ZIP_MAGIC):
        raise LoadError("not a DOCX file (not a zip archive)")
    if not zipfile.is_zipfile(path):
        raise LoadError("damaged DOCX file (broken zip archive)")
    try:
        body = docx.Document(str(path)).element.body
    except (PackageNotFoundError, KeyError) as exc:
        raise LoadError("zip archive is not a Word document (no word/document.xml)") from exc
    pages: list[list[str]] = [[]]
    _docx_block(body, pages)
    return ["\n".join(line for line in lines if line.strip()) for lines in pages]


def _docx_block(container: _Element, pages: list[list[str]]) -> None:
    """Append the paragraphs and tables directly inside *container* (body or cell) to *pages*."""

    for child in container.iterchildren():
        if child.tag == qn("w:p"):
            _docx_paragraph(child, pages)
        elif child.tag == qn("w:tbl"):
            for row in child.iterchildren(qn("w:tr")):
                cells = [_docx_cell_text(cell) for cell in row.iterchildren(qn("w:tc"))]
                pages[-1].append(" | ".join(cells))
        elif child.tag == qn("w:sdt"):  # content controls wrap body paragraphs and tables
            for content in child.iterchildren(qn("w:sdtContent")):
                _docx_block(content, pages)


def _docx_cell_text(cell: _Element) -> str:
    """Text of one table cell (nested tables included), its lines joined by spaces."""
    lines: list[list[str]] = [[]]
    _docx_block(cell, lines)
    return " ".join(line.strip() for page in lines for line in page if line.strip())


def _docx_paragraph(paragraph: _Element, pages: list[list[str]]) -> None:
    """Append one paragraph, starting a new page at w:pageBreakBefore and w:br type=page."""

    if paragraph.find(f"{qn('w:pPr')}/{qn('w:pageBreakBefore')}") is not None:
        _new_page(pages)
    parts: list[str] = []
    runs = (child for child in paragraph if child.tag != qn("w:pPr"))  # pPr holds tab stops
    for node in (n for run in runs for n in run.iter(qn("w:t"), qn("w:tab"), qn("w:br"), qn("w:cr"))):
        if node.tag == qn("w:t"):
            parts.append(node.text or "")
        elif node.tag == qn("w:br") and node.get(qn("w:type")) == "page":
            pages[-1].append("".join(parts))
            _new_page(pages)
            parts = []
        else:
            parts.append("\t" if node.tag == qn("w:tab") else "\n")
    pages[-1].append("".join(parts))


def _new_page(pages: list[list[str]]) -> None:
    """Start a page unless the current one has no text yet (no blank pages)."""
    if any(line.strip() for line in pages[-1]):
        pages.append([])


LOADERS: dict[str, Callable[[Path], list[str]]] = {
    ".pdf": _pdf_pages,
    ".hwp": hwp_pages,
    ".hwpx": hwpx_pages,
    ".docx": _docx_pages,
    ".txt": _text_pages,
    ".md": _text_pages,
}


def supported_suffixes() -> tuple[str, ...]:
    """File suffixes that load_document reads, sorted."""
    return tuple(sorted(LOADERS))


def _read_input(path: Path, suffix: str) -> bytes:
    """Check the suffix and the file, and return its bytes."""
    if suffix not in LOADERS:
        shown = suffix or path.name
        raise LoadError(f"unsupported file type '{shown}' (supported: {', '.join(supported_suffixes())})")
    if not path.is_file():
        raise LoadError("no such file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(f"cannot open the file ({exc.strerror or exc})") from exc
    if not data:
        raise LoadError("empty file")
    return data


def _short(exc: BaseException) -> str:
    """An exception as a one-line reason of bounded length."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= _MAX_REASON else text[: _MAX_REASON - 1] + "…"


def load_document(path: str | Path) -> LoadedDocument:
    """Read one file. Raises LoadError with a user-facing reason on any failure."""
    path = Path(path)
    suffix = path.suffix.lower()
    data = _read_input(path, suffix)
    try:
        pages = LOADERS[suffix](path)
    except LoadError:
        raise
    except Exception as exc:  # parser libraries raise anything on corrupt input
        raise LoadError(f"damaged or unreadable {suffix[1:].upper()} file ({_short(exc)})") from exc
    if not any(p.strip() for p in pages):
        raise LoadError("no text found (scanned images are not supported)")
    return LoadedDocument(
        path=str(path),
        sha256=hashlib.sha256(data).hexdigest(),
        pages=pages,
        format=suffix[1:],
    )
