"""Build the fictional sample reports (DOCX and HWPX) from their text sources.

Sources live in ``data/sample_sources/src/*.txt``: one line per paragraph, pages
separated by form feeds (``\\f``). In the DOCX source, consecutive lines that
start with ``|`` form a table (cells separated by ``|``).

Usage (from the repository root)::

    .venv/bin/python data/sample_sources/build_samples.py          # build, then verify
    .venv/bin/python data/sample_sources/build_samples.py --check  # verify only

Verification reopens every generated file with its library (python-docx,
python-hwpx) and, for HWPX, also reads the section XML with zipfile, then
compares the text with the source line by line.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
OUT = HERE.parent / "samples"
FICTION_MARK = "[가상 예시 자료 — 실제 감사보고서가 아님]"

# source text -> output file
TARGETS = {
    "sample_forms.txt": "sample_forms.docx",
    "sample_regular.txt": "sample_regular.hwpx",
}

_HEADING_PREFIXES = ("Ⅰ.", "Ⅱ.", "Ⅲ.", "Ⅳ.")
_FORM_TITLES = {"감 사 원", "주 의 요 구", "시 정 요 구", "통 보", "주의요구 및 통보", "내 용"}
_COVER_TITLE = "감 사 보 고 서"


def read_pages(src: Path) -> list[list[str]]:
    """Return the source as pages of non-empty lines."""
    text = src.read_text(encoding="utf-8")
    pages = []
    for page in text.split("\f"):
        lines = [ln.rstrip() for ln in page.split("\n")]
        pages.append([ln for ln in lines if ln.strip()])
    return pages


def expected_lines(src: Path) -> list[str]:
    return [ln for page in read_pages(src) for ln in page]


# --------------------------------------------------------------------- DOCX
def _split_cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def build_docx(src: Path, out: Path) -> None:
    from docx import Document
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Pt

    doc = Document()
    props = doc.core_properties
    props.title = "가상 예시 감사보고서 (실제 감사보고서가 아님)"
    props.author = "AURA project (fictional sample)"
    props.created = _dt.datetime(2025, 10, 1)
    props.modified = _dt.datetime(2025, 10, 1)

    normal = doc.styles["Normal"]
    normal.font.size = Pt(11)

    for page_no, page in enumerate(read_pages(src)):
        first_on_page = True
        i = 0
        while i < len(page):
            line = page[i]
            if line.startswith("|"):
                rows = []
                while i < len(page) and page[i].startswith("|"):
                    rows.append(_split_cells(page[i]))
                    i += 1
                ncols = max(len(r) for r in rows)
                table = doc.add_table(rows=len(rows), cols=ncols)
                table.style = "Table Grid"
                for r, cells in enumerate(rows):
                    for c, value in enumerate(cells):
                        table.cell(r, c).text = value
                first_on_page = False
                continue
            if line.startswith(_HEADING_PREFIXES):
                para = doc.add_paragraph(line, style="Heading 1")
            else:
                para = doc.add_paragraph()
                run = para.add_run(line)
                if line in _FORM_TITLES or line == _COVER_TITLE or line.startswith("제 목"):
                    run.bold = True
                if page_no == 0 or line in {"감 사 원", "주 의 요 구", "시 정 요 구", "통 보", "주의요구 및 통보"}:
                    para.alignment = WD_ALIGN_PARAGRAPH.CENTER
            if first_on_page and page_no > 0:
                para.paragraph_format.page_break_before = True
            first_on_page = False
            i += 1
    doc.save(out)


def read_docx_lines(path: Path) -> tuple[list[str], int]:
    """Body text in document order (tables as ``|a|b``) and the page-break count."""
    from docx import Document
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    doc = Document(path)
    lines: list[str] = []
    breaks = 0
    for block in doc.iter_inner_content():
        if isinstance(block, Paragraph):
            if block.paragraph_format.page_break_before:
                breaks += 1
            if block.text.strip():
                lines.append(block.text)
        elif isinstance(block, Table):
            for row in block.rows:
                lines.append("|" + "|".join(cell.text for cell in row.cells))
    return lines, breaks


# --------------------------------------------------------------------- HWPX
def build_hwpx(src: Path, out: Path) -> None:
    from hwpx import HwpxDocument

    doc = HwpxDocument.new()
    first_para = doc.paragraphs[0]  # carries the section properties
    wrote_first = False
    for page_no, page in enumerate(read_pages(src)):
        for j, line in enumerate(page):
            if not wrote_first:
                first_para.text = line
                wrote_first = True
                continue
            extra = {"pageBreak": "1"} if (j == 0 and page_no > 0) else {}
            doc.add_paragraph(line, **extra)
    doc.save_to_path(out)


_HP_NS = "http://www.hancom.co.kr/hwpml/2011/paragraph"


def read_hwpx_lines(path: Path) -> tuple[list[str], int]:
    """Paragraph texts via python-hwpx and the page-break count from the XML."""
    from hwpx import HwpxDocument

    doc = HwpxDocument.open(path)
    lines = [p.text for p in doc.paragraphs if p.text.strip()]
    doc.close()
    breaks = 0
    with zipfile.ZipFile(path) as zf:
        assert zf.read("mimetype").decode().strip() == "application/hwp+zip"
        for name in sorted(n for n in zf.namelist() if n.startswith("Contents/section")):
            root = ET.fromstring(zf.read(name))
            for p in root.iter(f"{{{_HP_NS}}}p"):
                if p.get("pageBreak") == "1":
                    breaks += 1
    return lines, breaks


def read_hwpx_xml_text(path: Path) -> str:
    """All ``hp:t`` text of the sections, read with the standard library only."""
    parts = []
    with zipfile.ZipFile(path) as zf:
        for name in sorted(n for n in zf.namelist() if n.startswith("Contents/section")):
            root = ET.fromstring(zf.read(name))
            for p in root.iter(f"{{{_HP_NS}}}p"):
                text = "".join(t.text or "" for t in p.iter(f"{{{_HP_NS}}}t"))
                if text.strip():
                    parts.append(text)
    return "\n".join(parts)


# ------------------------------------------------------------------- verify
def verify(src: Path, out: Path) -> list[str]:
    errors: list[str] = []
    want = expected_lines(src)
    pages = len(read_pages(src))
    if out.suffix == ".docx":
        got, breaks = read_docx_lines(out)
    else:
        got, breaks = read_hwpx_lines(out)
        xml_text = read_hwpx_xml_text(out)
        if xml_text.split("\n") != want:
            errors.append(f"{out.name}: zipfile/XML text differs from source")
    if got != want:
        for n, (a, b) in enumerate(zip(want, got)):
            if a != b:
                errors.append(f"{out.name}: line {n + 1} differs: {a!r} != {b!r}")
                break
        if len(got) != len(want):
            errors.append(f"{out.name}: {len(got)} lines, source has {len(want)}")
    if breaks != pages - 1:
        errors.append(f"{out.name}: {breaks} page breaks, expected {pages - 1}")
    if FICTION_MARK not in "\n".join(got)[:200]:
        errors.append(f"{out.name}: fiction marker missing from the first 200 characters")
    if "조치할 사항" not in "\n".join(got):
        errors.append(f"{out.name}: '조치할 사항' missing")
    return errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify existing files only")
    args = parser.parse_args(argv)

    errors: list[str] = []
    for src_name, out_name in TARGETS.items():
        src, out = SRC / src_name, OUT / out_name
        if not args.check:
            (build_docx if out.suffix == ".docx" else build_hwpx)(src, out)
            print(f"built {out.relative_to(HERE.parent.parent)}")
        errors += verify(src, out)
    numbered = OUT / "sample_numbered.txt"
    if FICTION_MARK not in numbered.read_text(encoding="utf-8")[:200]:
        errors.append("sample_numbered.txt: fiction marker missing")
    for err in errors:
        print("ERROR", err, file=sys.stderr)
    if not errors:
        print("verified: all samples reopen and match their sources")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
