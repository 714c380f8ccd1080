from app.ingest.sop import ingest_sop_dir
from app.retrieval.sop import SopRetriever
from tests.conftest import SOP_DIR


def test_sop_search_over_the_real_clauses(services):
    ingest_sop_dir(SOP_DIR, services.sessions)
    sop = SopRetriever(services.sessions)  # lexical only: fast, no embedding
    hits = sop.search("수의계약을 할 수 있는 요건은?", k=3)
    assert hits and hits[0].clause_id.startswith("SOP-VIO")
    assert "수의계약" in hits[0].title + hits[0].text
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert sop.search("", k=3) == []
    assert sop.search("zzqx", k=3) == []


def test_sop_index_notices_new_clauses(services, tmp_path):
    sop = SopRetriever(services.sessions)
    assert sop.search("계약", k=3) == []
    doc = tmp_path / "x.md"
    doc.write_text("# 시험 문서\n<!-- doc_id: SOP-TST -->\n\n## [SOP-TST-01] 분할계약 금지\n계약을 나누어 수의계약하면 안 된다.\n", encoding="utf-8")
    ingest_sop_dir(tmp_path, services.sessions)
    assert [h.clause_id for h in sop.search("분할 계약", k=3)] == ["SOP-TST-01"]


def test_services_sop_retriever_fuses_dense_too(services):
    ingest_sop_dir(SOP_DIR, services.sessions)
    hits = services.sop_retriever.search("Can a contract be split to avoid competitive bidding?", k=5)
    assert any(h.clause_id in {"SOP-VIO-02", "SOP-VIO-03"} for h in hits)
