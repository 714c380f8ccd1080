"""Ingestion end to end on real reports and the samples: idempotence, replacement, broken
files, and SQL/Milvus consistency (the same chunk ids in both stores)."""

from __future__ import annotations

import json
import shutil

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from app.db.models import Chunk, Finding, Report
from app.db.queries import chunk_ids_by_report
from app.ingest.pipeline import stored_counts
from tests.conftest import BAI_REPORTS, SAMPLES, require_shared

HAEUNDAE = BAI_REPORTS / "jj20250925_091048.pdf"


def _consistent(services) -> bool:
    with services.sessions() as s:
        by_report = chunk_ids_by_report(s)
    return all(services.vectors.ids_for_report(rid) == ids for rid, ids in by_report.items()) and sum(
        map(len, by_report.values())
    ) == services.vectors.count()


def test_real_report_ingests_with_findings_and_metadata(services):
    require_shared()
    summary = services.ingestor.ingest([HAEUNDAE])
    assert summary.errors == []
    assert (summary.reports, summary.findings) == (1, 2)
    with services.sessions() as s:
        report = s.get(Report, "jj20250925_091048")
        assert report.audit_type == "국민제안감사" and report.year == 2025 and report.page_count == 11
        f1, f2 = report.findings
        assert f1.id == "jj20250925_091048-F01" and f1.disposition_list == ["주의"]
        assert f2.disposition_list == ["통보"]
        assert "바랍니다" in f1.actions and f1.criteria
        chunks = s.scalars(select(Chunk).where(Chunk.finding_id == f1.id)).all()
        assert {c.section for c in chunks} >= {"criteria", "problems", "actions"}
        assert all(f1.page_start <= c.page <= f1.page_end for c in chunks)
        assert all(c.text in getattr(f1, c.section) for c in chunks if c.section in ("criteria", "problems", "actions"))
    assert _consistent(services)
    hit = services.vectors.search(services.embedder.embed_queries(["부산광역시 도시계획 조례 제척 규정 개정"])[0], k=3)
    assert hit[0].meta["report_id"] == "jj20250925_091048"


def test_same_files_again_change_nothing(services):
    require_shared()
    first = services.ingestor.ingest([HAEUNDAE, SAMPLES])
    assert first.errors == [] and first.chunks > 0
    with services.sessions() as s:
        before = stored_counts(s)
        ids_before = chunk_ids_by_report(s)
    again = services.ingestor.ingest([HAEUNDAE, SAMPLES])
    assert (again.chunks, again.reports, again.skipped) == (0, 0, again.files)
    with services.sessions() as s:
        assert stored_counts(s) == before
        assert chunk_ids_by_report(s) == ids_before
    assert _consistent(services)


def test_changed_file_replaces_rows_and_vectors(services, tmp_path):
    src = next(SAMPLES.glob("*.txt"))
    path = tmp_path / src.name
    shutil.copy(src, path)
    services.ingestor.ingest([path])
    with services.sessions() as s:
        old_ids = chunk_ids_by_report(s)
    path.write_text(path.read_text(encoding="utf-8") + "\n추가된 문단: 감사원은 후속 조치를 확인하였다.\n", encoding="utf-8")
    result = services.ingestor.ingest([path]).results[0]
    assert result.status == "replaced"
    with services.sessions() as s:
        new_ids = chunk_ids_by_report(s)
        assert s.scalar(select(Report.sha256).where(Report.id == result.report_id)) != ""
    assert set(old_ids) == set(new_ids)
    (rid,) = new_ids
    assert not (old_ids[rid] & new_ids[rid]), "chunk ids derive from the content hash"
    assert _consistent(services)


def test_broken_and_unknown_files_fail_alone(services, tmp_path):
    require_shared()
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    unknown = tmp_path / "table.xlsx"
    unknown.write_bytes(b"PK\x03\x04")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    summary = services.ingestor.ingest([broken, unknown, HAEUNDAE, empty])
    errors = {e["file"]: e["error"] for e in summary.errors}
    assert set(errors) == {"broken.pdf", "table.xlsx", "empty.txt"}
    assert "PDF" in errors["broken.pdf"] and "unsupported" in errors["table.xlsx"] and "empty" in errors["empty.txt"]
    assert summary.reports == 1
    with services.sessions() as s:
        assert [r.id for r in s.scalars(select(Report))] == ["jj20250925_091048"]
    assert _consistent(services)


def test_failed_vector_write_leaves_neither_store_half_written(services, monkeypatch):
    require_shared()
    services.ingestor.ingest([SAMPLES])
    with services.sessions() as s:
        before = stored_counts(s)

    def boom(*_a, **_k):
        raise ConnectionError("milvus went away")

    monkeypatch.setattr(services.vectors, "upsert", boom)
    result = services.ingestor.ingest([HAEUNDAE]).results[0]
    assert result.status == "error" and "milvus went away" in result.error
    monkeypatch.undo()
    with services.sessions() as s:
        assert stored_counts(s) == before
        assert s.get(Report, "jj20250925_091048") is None
    assert services.vectors.ids_for_report("jj20250925_091048") == set()
    assert _consistent(services)
    # and a re-run converges to the clean result
    assert services.ingestor.ingest([HAEUNDAE]).results[0].status == "ingested"
    assert _consistent(services)


def test_cli_ingest_json_and_findings(settings, monkeypatch, tmp_path):
    require_shared()
    from app.cli import app

    monkeypatch.setenv("AURA_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("AURA_EMBEDDING_CACHE_PATH", str(settings.embedding_cache_path))
    runner = CliRunner()
    res = runner.invoke(app, ["ingest", str(HAEUNDAE), "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout.strip().splitlines()[-1])
    assert {k: summary[k] for k in ("files", "reports", "findings", "skipped", "errors")} == {
        "files": 1, "reports": 1, "findings": 2, "skipped": 0, "errors": []}
    assert summary["chunks"] > 5
    res = runner.invoke(app, ["findings", "--disposition", "통보", "--json"])
    data = json.loads(res.stdout)
    assert data["total"] == 1 and data["findings"][0]["dispositions"] == ["통보"]
    res = runner.invoke(app, ["findings", "--institution", "해운대구", "--year", "2025", "--json"])
    assert {f["number"] for f in json.loads(res.stdout)["findings"]} >= {1}
    res = runner.invoke(app, ["status", "--json"])
    status = json.loads(res.stdout)
    assert status["consistent"] and status["vectors"] == status["chunks"]
    bad = tmp_path / "x.docx"
    bad.write_bytes(b"not a zip")
    res = runner.invoke(app, ["ingest", str(bad), "--json"])
    assert res.exit_code == 1
    assert json.loads(res.stdout.strip().splitlines()[-1])["errors"][0]["file"] == "x.docx"


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("*") if p.suffix in {".txt", ".docx", ".hwpx"}))
def test_samples_ingest_as_audit_reports(services, sample):
    summary = services.ingestor.ingest([SAMPLES / sample])
    assert summary.errors == []
    with services.sessions() as s:
        report = s.scalars(select(Report)).one()
        assert report.kind == "audit_report"
        assert report.audit_type and not report.title.startswith(report.audit_type)
        assert "가상" not in report.title  # the fictional-data notice is not taken for the title
        findings = s.scalars(select(Finding)).all()
        assert findings and all(f.disposition_list and f.actions for f in findings)


def test_repeated_section_kinds_get_distinct_chunk_ids(services):
    from app.ingest.parsed import ParsedFinding, ParsedReport, ParsedSection

    finding = ParsedFinding(
        number=1, title="t", dispositions=["주의"],
        sections=[ParsedSection("problems", "첫째 문제가 있었다.", 3), ParsedSection("problems", "둘째 문제가 있었다.", 4)],
    )
    parsed = ParsedReport("r", None, None, 2025, 1, [], [finding], [])
    chunks = services.ingestor._chunk_rows("r", "sha", parsed)
    assert len({c.id for c in chunks}) == len(chunks) == 2
    assert [c.ordinal for c in chunks] == [0, 1]
