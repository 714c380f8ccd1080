"""Loaders for PDF, HWP, HWPX, DOCX and text: real content in order, and LoadError on bad input.

Fixtures are generated in tmp_path: DOCX with python-docx, HWPX and HWP 5.0 with
python-hwpx (which writes both formats). Only the real audit-report PDF is read by path.
"""

from __future__ import annotations

import os
import struct
import zipfile
from pathlib import Path

import olefile
import pytest

from app.ingest.loaders import LoadError, load_document, supported_suffixes
from tests.conftest import BAI_REPORTS, require_shared

HWP_PASSWORD_FLAG = 0x02
HWP_DISTRIBUTION_FLAG = 0x04


def _real_report() -> Path:
    require_shared()
    return BAI_REPORTS / "jj20250925_091048.pdf"


def _hwpx_document():
    """A python-hwpx document: two paragraphs, a 2x2 table, a page break, a second section."""
    from hwpx import HwpxDocument

    doc = HwpxDocument.new()
    doc.paragraphs[0].text = "감사 개요"
    doc.add_paragraph("해운대구 예산 집행을 점검하였다.")
    table = doc.add_table(2, 2)
    for row, col, text in ((0, 0, "기관"), (0, 1, "금액"), (1, 0, "해운대구"), (1, 1, "1,000원")):
        table.set_cell_text(row, col, text)
    doc.add_paragraph("표 다음 문단")
    doc.add_paragraph("둘째 쪽 문단", pageBreak="1")
    doc.add_paragraph("둘째 구역 문단", section=doc.add_section())
    return doc


EXPECTED_HANCOM_PAGES = [
    "감사 개요\n해운대구 예산 집행을 점검하였다.\n기관\n금액\n해운대구\n1,000원\n표 다음 문단",
    "둘째 쪽 문단",
    "둘째 구역 문단",
]


@pytest.fixture
def hwpx_file(tmp_path: Path) -> Path:
    path = tmp_path / "보고서.hwpx"
    _hwpx_document().save_to_path(path)
    return path


@pytest.fixture
def hwp_file(tmp_path: Path) -> Path:
    path = tmp_path / "보고서.hwp"
    _hwpx_document().save_to_path(path)
    assert path.read_bytes().startswith(b"\xd0\xcf\x11\xe0")  # a real OLE compound file
    return path


def _set_hwp_flags(path: Path, flags: int) -> None:
    """Set FileHeader properties (offset 36) in place; the stream keeps its size."""
    with olefile.OleFileIO(str(path), write_mode=True) as ole:
        header = bytearray(ole.openstream("FileHeader").read())
        struct.pack_into("<I", header, 36, struct.unpack_from("<I", header, 36)[0] | flags)
        ole.write_stream("FileHeader", bytes(header))


def _overwrite_hwp_stream(path: Path, stream: str, fill: bytes) -> None:
    with olefile.OleFileIO(str(path), write_mode=True) as ole:
        size = ole.get_size(stream)
        ole.write_stream(stream, (fill * size)[:size])


def _load_error(path: Path) -> str:
    with pytest.raises(LoadError) as info:
        load_document(path)
    return str(info.value)


# --- PDF -------------------------------------------------------------------------------


def test_real_audit_report_pdf() -> None:
    doc = load_document(_real_report())
    assert doc.format == "pdf"
    assert len(doc.pages) == 11
    assert "해운대구" in "".join(doc.pages)
    assert len(doc.sha256) == 64


def test_truncated_pdf(tmp_path: Path) -> None:
    data = _real_report().read_bytes()
    path = tmp_path / "truncated.pdf"
    path.write_bytes(data[: len(data) // 2])
    assert "truncated" in _load_error(path)


def test_password_protected_pdf(tmp_path: Path) -> None:
    from fpdf import FPDF
    from fpdf.enums import EncryptionMethod

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="secret")
    pdf.set_encryption(owner_password="o", user_password="u", encryption_method=EncryptionMethod.RC4)
    path = tmp_path / "locked.pdf"
    pdf.output(str(path))
    assert "password-protected PDF" in _load_error(path)


def test_pdf_with_header_but_no_body(tmp_path: Path) -> None:
    path = tmp_path / "stub.pdf"
    path.write_bytes(b"%PDF-1.4\n garbage\n%%EOF\n")
    assert "damaged or unreadable PDF" in _load_error(path)


# --- DOCX ------------------------------------------------------------------------------


def test_docx_paragraphs_and_tables_in_order(tmp_path: Path) -> None:
    import docx
    from docx.enum.text import WD_BREAK

    document = docx.Document()
    document.add_heading("감사 개요", level=1)
    document.add_paragraph("해운대구 예산 집행을 점검하였다.")
    table = document.add_table(rows=2, cols=2)
    for row, col, text in ((0, 0, "기관"), (0, 1, "금액"), (1, 0, "해운대구"), (1, 1, "1,000원")):
        table.cell(row, col).text = text
    last = document.add_paragraph("표 다음 문단")
    last.add_run().add_break(WD_BREAK.PAGE)
    last.add_run("둘째 쪽 문단")
    document.add_paragraph("끝 문단\t탭")
    path = tmp_path / "보고서.docx"
    document.save(str(path))

    doc = load_document(path)
    assert doc.format == "docx"
    assert doc.pages == [
        "감사 개요\n해운대구 예산 집행을 점검하였다.\n기관 | 금액\n해운대구 | 1,000원\n표 다음 문단",
        "둘째 쪽 문단\n끝 문단\t탭",
    ]


def test_docx_without_page_breaks_is_one_page(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("하나")
    document.add_paragraph("둘")
    path = tmp_path / "a.docx"
    document.save(str(path))
    assert load_document(path).pages == ["하나\n둘"]


def test_zip_that_is_not_a_docx(tmp_path: Path) -> None:
    path = tmp_path / "a.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "안녕")
    assert "not a Word document" in _load_error(path)


def test_ole_file_named_docx(tmp_path: Path, hwp_file: Path) -> None:
    path = tmp_path / "encrypted.docx"
    path.write_bytes(hwp_file.read_bytes())
    assert "password-protected DOCX" in _load_error(path)


# --- HWPX ------------------------------------------------------------------------------


def test_hwpx_paragraphs_tables_and_pages(hwpx_file: Path) -> None:
    doc = load_document(hwpx_file)
    assert doc.format == "hwpx"
    assert doc.pages == EXPECTED_HANCOM_PAGES


def test_zip_that_is_not_hwpx(tmp_path: Path) -> None:
    path = tmp_path / "a.hwpx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "안녕")
    assert "not an HWPX document" in _load_error(path)


def test_password_protected_hwpx(tmp_path: Path, hwpx_file: Path) -> None:
    path = tmp_path / "locked.hwpx"
    with zipfile.ZipFile(hwpx_file) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "META-INF/manifest.xml":
                data = data.replace(b"/>", b"><odf:file-entry><odf:encryption-data/></odf:file-entry></odf:manifest>", 1)
            target.writestr(info, data)
    assert "password-protected HWPX" in _load_error(path)


def test_hwpx_with_broken_section_xml(tmp_path: Path, hwpx_file: Path) -> None:
    path = tmp_path / "broken.hwpx"
    with zipfile.ZipFile(hwpx_file) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            target.writestr(info, data[: len(data) // 2] if info.filename == "Contents/section0.xml" else data)
    assert "HWPX" in _load_error(path)


def test_hwp_file_named_hwpx(tmp_path: Path, hwp_file: Path) -> None:
    path = tmp_path / "a.hwpx"
    path.write_bytes(hwp_file.read_bytes())
    assert "OLE file" in _load_error(path)


# --- HWP 5.0 ---------------------------------------------------------------------------


def test_hwp_paragraphs_tables_and_pages(hwp_file: Path) -> None:
    doc = load_document(hwp_file)
    assert doc.format == "hwp"
    assert doc.pages == EXPECTED_HANCOM_PAGES


def test_hwp_bodytext_is_compressed_records(hwp_file: Path) -> None:
    """The fixture is a genuine HWP 5.0 file: signature, compressed flag, BodyText sections."""
    with olefile.OleFileIO(str(hwp_file)) as ole:
        header = ole.openstream("FileHeader").read()
        assert header.startswith(b"HWP Document File")
        assert struct.unpack_from("<I", header, 36)[0] & 0x01
        assert ole.exists("BodyText/Section0") and ole.exists("BodyText/Section1")


@pytest.mark.parametrize(
    ("flag", "reason"),
    [(HWP_PASSWORD_FLAG, "password-protected"), (HWP_DISTRIBUTION_FLAG, "distribution")],
)
def test_encrypted_hwp(hwp_file: Path, flag: int, reason: str) -> None:
    _set_hwp_flags(hwp_file, flag)
    message = _load_error(hwp_file)
    assert message.startswith("encrypted HWP is not supported")
    assert reason in message


def test_hwp_with_corrupt_body(hwp_file: Path) -> None:
    _overwrite_hwp_stream(hwp_file, "BodyText/Section0", b"\xff\x00garbage")
    assert "damaged HWP" in _load_error(hwp_file)


def test_hwp_without_hwp_header(hwp_file: Path) -> None:
    _overwrite_hwp_stream(hwp_file, "FileHeader", b"\x00")
    assert "not an HWP 5.0 document" in _load_error(hwp_file)


def test_hwpx_package_named_hwp_is_read(tmp_path: Path, hwpx_file: Path) -> None:
    path = tmp_path / "misnamed.hwp"
    path.write_bytes(hwpx_file.read_bytes())
    assert load_document(path).pages == EXPECTED_HANCOM_PAGES


def test_hwp3_file(tmp_path: Path) -> None:
    path = tmp_path / "old.hwp"
    path.write_bytes(b"HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05" + bytes(200))
    assert "HWP 3.0" in _load_error(path)


# --- text ------------------------------------------------------------------------------


def test_cp949_text_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "memo.txt"
    path.write_bytes("해운대구 감사\f둘째 쪽".encode("cp949"))
    assert load_document(path).pages == ["해운대구 감사", "둘째 쪽"]


def test_utf16_text_with_bom_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "memo.txt"
    path.write_bytes("해운대구 감사".encode("utf-16"))
    assert load_document(path).pages == ["해운대구 감사"]


def test_text_with_nul_bytes(tmp_path: Path) -> None:
    path = tmp_path / "memo.txt"
    path.write_bytes("해운대구".encode() + b"\x00\x00abc")
    assert "binary data" in _load_error(path)


def test_text_in_unknown_encoding(tmp_path: Path) -> None:
    path = tmp_path / "memo.md"
    path.write_bytes(b"report \xff\xff\x81 end" * 10)
    assert "neither UTF-8 nor CP949" in _load_error(path)


@pytest.mark.parametrize(("suffix", "kind"), [(".docx", "DOCX"), (".hwpx", "HWPX"), (".hwp", "HWP")])
def test_broken_zip(tmp_path: Path, suffix: str, kind: str) -> None:
    path = tmp_path / f"broken{suffix}"
    path.write_bytes(b"PK\x03\x04" + os.urandom(300))
    assert _load_error(path) == f"damaged {kind} file (broken zip archive)"


# --- any format ------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".pdf", ".hwp", ".hwpx", ".docx"])
def test_random_bytes(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"random{suffix}"
    path.write_bytes(os.urandom(4096))
    message = _load_error(path)
    assert message.startswith("not a"), message


@pytest.mark.parametrize("suffix", [".pdf", ".hwp", ".hwpx", ".docx", ".txt"])
def test_empty_file(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"empty{suffix}"
    path.touch()
    assert _load_error(path) == "empty file"


@pytest.mark.parametrize("name", ["table.xlsx", "noext", "slides.PPTX"])
def test_unsupported_type(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"data")
    message = _load_error(path)
    assert message.startswith("unsupported file type")
    assert ".hwp" in message and ".docx" in message


def test_missing_file_and_directory(tmp_path: Path) -> None:
    assert _load_error(tmp_path / "none.pdf") == "no such file"
    (tmp_path / "folder.hwp").mkdir()
    assert _load_error(tmp_path / "folder.hwp") == "no such file"


def test_document_without_text(tmp_path: Path) -> None:
    from hwpx import HwpxDocument

    path = tmp_path / "blank.hwpx"
    HwpxDocument.new().save_to_path(path)
    assert "no text found" in _load_error(path)


def test_supported_suffixes() -> None:
    assert supported_suffixes() == (".docx", ".hwp", ".hwpx", ".md", ".pdf", ".txt")


def test_loading_writes_nothing(tmp_path: Path, hwp_file: Path, hwpx_file: Path) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04" + os.urandom(100))
    before = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in tmp_path.iterdir())
    for path in (hwp_file, hwpx_file, broken):
        try:
            load_document(path)
        except LoadError:
            pass
    after = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in tmp_path.iterdir())
    assert after == before


def test_load_accepts_str_path(hwpx_file: Path) -> None:
    doc = load_document(str(hwpx_file))
    assert doc.path == str(hwpx_file)
