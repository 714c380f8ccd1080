"""Content checks for the SOP documents, the glossary and the fictional samples."""

from __future__ import annotations

import csv
import re
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOP_DIR = ROOT / "sop"
SAMPLES = ROOT / "data" / "samples"
FICTION_MARK = "[가상 예시 자료 — 실제 감사보고서가 아님]"
DISPOSITIONS = ["징계", "시정", "주의", "개선", "권고", "통보", "변상", "고발"]

SOP_FILES = sorted(SOP_DIR.glob("[0-9][0-9]_*.md"))

TITLE_RE = re.compile(r"^# (?P<title>\S.*)$")
DOC_ID_RE = re.compile(r"^<!-- doc_id: (?P<doc_id>SOP-[A-Z]+) -->$")
CLAUSE_RE = re.compile(r"^## \[(?P<id>SOP-(?P<area>[A-Z]+)-(?P<num>\d{2}))\] (?P<title>\S.*)$")


# ---------------------------------------------------------------- helpers
def parse_sop(path: Path) -> dict:
    """Parse one SOP Markdown file into its title, doc_id and clauses.

    Raises ValueError on any deviation from the strict layout::

        # <title>
        <!-- doc_id: SOP-XXX -->

        ## [SOP-XXX-01] <clause title>
        <clause text>
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    if len(lines) < 2:
        raise ValueError(f"{path.name}: too short")
    m_title, m_id = TITLE_RE.match(lines[0]), DOC_ID_RE.match(lines[1])
    if not m_title:
        raise ValueError(f"{path.name}: first line must be '# <title>'")
    if not m_id:
        raise ValueError(f"{path.name}: second line must be '<!-- doc_id: SOP-XXX -->'")
    clauses: list[dict] = []
    for n, line in enumerate(lines[2:], start=3):
        if line.startswith("#"):
            m = CLAUSE_RE.match(line)
            if not m:
                raise ValueError(f"{path.name}:{n}: bad heading {line!r}")
            clauses.append({"id": m["id"], "area": m["area"], "num": int(m["num"]),
                            "title": m["title"].strip(), "lines": []})
        elif clauses:
            clauses[-1]["lines"].append(line)
        elif line.strip():
            raise ValueError(f"{path.name}:{n}: text before the first clause")
    for c in clauses:
        c["text"] = "\n".join(c.pop("lines")).strip()
    return {"path": path, "title": m_title["title"], "doc_id": m_id["doc_id"], "clauses": clauses}


def all_clauses() -> list[dict]:
    return [c for f in SOP_FILES for c in parse_sop(f)["clauses"]]


# ---------------------------------------------------------------- SOP
def test_sop_files_present():
    names = {p.name for p in SOP_FILES}
    assert {"01_finding_classification.md", "02_report_structure.md",
            "03_violation_types.md", "04_audit_procedure.md"} <= names
    assert (SOP_DIR / "README.md").is_file()


@pytest.mark.parametrize("path", SOP_FILES, ids=lambda p: p.name)
def test_sop_file_parses(path):
    doc = parse_sop(path)
    assert doc["clauses"], f"{path.name} has no clauses"
    prefix = doc["doc_id"] + "-"
    for i, c in enumerate(doc["clauses"], start=1):
        assert c["id"].startswith(prefix), f"{c['id']} does not belong to {doc['doc_id']}"
        assert c["num"] == i, f"{c['id']}: clauses must be numbered 01, 02, ... in order"
        assert len(c["text"]) >= 80, f"{c['id']}: clause text too short ({len(c['text'])})"


def test_sop_ids_unique_and_enough():
    clauses = all_clauses()
    ids = [c["id"] for c in clauses]
    assert len(ids) == len(set(ids)), "duplicate clause ids"
    doc_ids = [parse_sop(f)["doc_id"] for f in SOP_FILES]
    assert len(doc_ids) == len(set(doc_ids)), "duplicate doc_ids"
    assert 60 <= len(clauses) <= 120


@pytest.mark.parametrize("word", DISPOSITIONS)
def test_every_disposition_has_a_clause(word):
    titles = [c["title"] for c in all_clauses()]
    assert any(word in t for t in titles), f"no clause title names {word}"


def test_cross_references_resolve():
    ids = {c["id"] for c in all_clauses()}
    for f in SOP_FILES:
        for ref in re.findall(r"\[(SOP-[A-Z]+-\d{2})\]", f.read_text(encoding="utf-8")):
            assert ref in ids, f"{f.name}: dangling reference {ref}"


# ---------------------------------------------------------------- glossary
def test_glossary():
    path = SOP_DIR / "glossary.tsv"
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "term\tsynonyms\tnote"
    rows = list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    assert len(rows) >= 60
    terms = []
    for row in rows:
        assert None not in row and all(v is not None for v in row.values()), f"bad columns: {row}"
        term = row["term"].strip()
        assert term
        syns = [s.strip() for s in row["synonyms"].split(",")]
        assert syns and all(syns), f"empty synonym in {term}"
        terms.append(term)
    assert len(terms) == len(set(terms)), "duplicate glossary terms"
    for word in DISPOSITIONS:
        assert word in terms, f"glossary lacks disposition {word}"


# ---------------------------------------------------------------- samples
def _docx_text(path: Path) -> str:
    from docx import Document

    doc = Document(path)
    parts = [p.text for p in doc.paragraphs]
    for table in doc.tables:
        for row in table.rows:
            parts.append(" ".join(cell.text for cell in row.cells))
    return "\n".join(parts)


def _hwpx_text(path: Path) -> str:
    from hwpx import HwpxDocument

    doc = HwpxDocument.open(path)
    try:
        return "\n".join(p.text for p in doc.paragraphs)
    finally:
        doc.close()


def test_sample_numbered_txt():
    path = SAMPLES / "sample_numbered.txt"
    text = path.read_text(encoding="utf-8")
    assert FICTION_MARK in text[:200]
    assert text.splitlines()[0] == FICTION_MARK
    assert "\f" in text and "- 3 -" in text
    for needle in ("감 사 보 고 서", "Ⅰ. 감사실시 개요", "Ⅲ. 감사결과", "1 총괄",
                   "가. 관계 법령과 판단기준", "나. 감사결과 확인된 문제점",
                   "관계기관 의견", "조치할 사항", "바랍니다.(주의)"):
        assert needle in text, needle


def test_sample_docx_reopens():
    path = SAMPLES / "sample_forms.docx"
    text = _docx_text(path)
    assert FICTION_MARK in text.lstrip()[:200]
    for needle in ("감 사 원", "주 의 요 구", "제 목", "소 관 기 관", "조 치 기 관",
                   "1. 업무 개요", "조치할 사항", "[표] 지적사항 현황", "(통보)", "(주의)"):
        assert needle in text, needle


def test_sample_hwpx_reopens():
    path = SAMPLES / "sample_regular.hwpx"
    with zipfile.ZipFile(path) as zf:
        assert zf.read("mimetype").decode().strip() == "application/hwp+zip"
        assert zf.testzip() is None
    text = _hwpx_text(path)
    assert FICTION_MARK in text.lstrip()[:200]
    assert "기관정기감사" in text and "조치할 사항" in text


def test_sample_sources_match_generated_files():
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_samples", ROOT / "data" / "sample_sources" / "build_samples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    errors = []
    for src_name, out_name in mod.TARGETS.items():
        errors += mod.verify(mod.SRC / src_name, SAMPLES / out_name)
    assert not errors, errors
