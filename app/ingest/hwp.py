"""Page texts from Hancom documents: HWPX (OWPML zip) and HWP 5.0 (OLE compound file).

Both go through python-hwpx: an HWPX file is read as it is, an HWP 5.0 file is first
converted in memory into the parts of an HWPX package (python-hwpx's own HWP 5.0 reader),
so one walker turns either into pages. A page ends at every section file and before every
top-level paragraph marked ``pageBreak="1"`` (쪽 나누기); the layout's automatic page
flow is not stored in a form we can trust, so it is not reconstructed.
"""

from __future__ import annotations

import io
import warnings
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

from hwpx import Hwp5Error, SectionInfo, TextExtractor
from hwpx.hwp5.package import convert, to_hwpx_bytes

from app.ingest.load_errors import OLE_MAGIC, ZIP_MAGIC, LoadError

HWP3_MAGIC = b"HWP Document File V3"
_PAGE_BREAK = "1"

_HWP5_REASONS = {
    "hwp5-password": "encrypted HWP is not supported (password-protected document)",
    "hwp5-distribution": "encrypted HWP is not supported (distribution document, 배포용 문서)",
    "hwp5-drm": "encrypted HWP is not supported (DRM-protected document)",
    "hwp5-not-hwp5": "not an HWP 5.0 document (an OLE file without an HWP header)",
    "hwp5-version-unsupported": "unsupported HWP version (save it again as HWP 5.0 or HWPX)",
    "hwp5-limit-exceeded": "HWP file is too large or too complex to read",
    "hwp5-damaged": "damaged HWP file (truncated or corrupt)",
}


def hwpx_pages(path: Path) -> list[str]:
    """Pages of an ``.hwpx`` file."""
    data = path.read_bytes()
    if data.startswith(OLE_MAGIC):
        raise LoadError("not an HWPX file: it is an OLE file (an HWP 5.0 document named .hwpx?)")
    if not data.startswith(ZIP_MAGIC):
        raise LoadError("not an HWPX file (not a zip archive)")
    return _package_pages(data, "HWPX")


def hwp_pages(path: Path) -> list[str]:
    """Pages of an ``.hwp`` file (HWP 5.0; an HWPX package named .hwp is read as HWPX)."""
    data = path.read_bytes()
    if data.startswith(HWP3_MAGIC):
        raise LoadError("HWP 3.0 files are not supported (save it again as HWP 5.0 or HWPX)")
    if data.startswith(ZIP_MAGIC):
        return _package_pages(data, "HWP")
    if not data.startswith(OLE_MAGIC):
        raise LoadError("not an HWP file (not an OLE compound file)")
    return _package_pages(_hwp5_to_hwpx(data), "HWP")


def _hwp5_to_hwpx(data: bytes) -> bytes:
    """Convert HWP 5.0 bytes into HWPX package bytes, mapping refusals to LoadError."""

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            converted = convert(data)
    except Hwp5Error as exc:
        code = getattr(exc, "code", "hwp5-damaged")
        raise LoadError(_HWP5_REASONS.get(code, _HWP5_REASONS["hwp5-damaged"])) from exc
    return to_hwpx_bytes(converted.files)


def _package_pages(data: bytes, kind: str) -> list[str]:
    """Pages of HWPX package bytes; *kind* names the file type in error messages."""

    archive = _open_zip(data, kind)
    with archive, TextExtractor(archive) as extractor:
        sections = list(extractor.iter_sections())
        if not sections:
            raise LoadError("zip archive is not an HWPX document (no Contents/section*.xml)")
        pages: list[str] = []
        for section in sections:
            pages.extend(_section_pages(extractor, section))
    return pages


def _open_zip(data: bytes, kind: str) -> zipfile.ZipFile:
    """Open HWPX bytes as a zip, refusing broken zips and password-protected packages."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as exc:
        raise LoadError(f"damaged {kind} file (broken zip archive)") from exc
    if any(info.flag_bits & 0x1 for info in archive.infolist()) or _has_encryption_manifest(archive):
        archive.close()
        raise LoadError("password-protected HWPX is not supported")
    return archive


def _has_encryption_manifest(archive: zipfile.ZipFile) -> bool:
    """Hancom encrypts an HWPX by listing ``encryption-data`` in META-INF/manifest.xml."""
    try:
        manifest = archive.read("META-INF/manifest.xml")
    except KeyError:
        return False
    return b"encryption-data" in manifest


def _section_pages(extractor: TextExtractor, section: SectionInfo) -> list[str]:
    """Split one section into pages at explicit page breaks; table cells follow in order.

    Walks the XML itself (pre-order, as ``TextExtractor.iter_paragraphs`` does) because
    ``iter_paragraphs`` describes each paragraph's path at a cost quadratic in its siblings.
    """
    pages: list[list[str]] = [[]]
    for top in section.element:
        if not _is_paragraph(top):
            continue
        if top.get("pageBreak") == _PAGE_BREAK and pages[-1]:
            pages.append([])
        for paragraph in (node for node in top.iter() if _is_paragraph(node)):
            text = extractor.paragraph_text(paragraph, object_behavior="skip")
            if text.strip():
                pages[-1].append(text)
    return ["\n".join(lines) for lines in pages]


def _is_paragraph(element: ET.Element) -> bool:
    """Whether *element* is an OWPML paragraph (``hp:p``)."""
    tag = element.tag
    return isinstance(tag, str) and (tag == "p" or tag.endswith("}p"))
