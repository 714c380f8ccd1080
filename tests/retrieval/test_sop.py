from app.ingest.sop import ingest_sop_dir
from app.retrieval.sop import SopRetriever, is_violation_type
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


def test_a_disposition_is_defined_by_the_clause_whose_title_names_it(services):
    ingest_sop_dir(SOP_DIR, services.sessions)
    sop = SopRetriever(services.sessions)
    got = {d: (c.clause_id if (c := sop.defining(d)) else None) for d in ("주의", "통보", "인사자료", "징계", "변상", "고발", "문책", "", "감봉")}
    assert got == {"주의": "SOP-CLS-08", "통보": "SOP-CLS-12", "인사자료": "SOP-CLS-14", "징계": "SOP-CLS-03",
                   "변상": "SOP-CLS-15", "고발": "SOP-CLS-17", "문책": "SOP-CLS-04", "": None, "감봉": None}
    assert sop.applicable("무엇이든", ["제목"], ["주의"], k=0) == []


def test_the_clauses_next_to_findings_are_their_criteria_not_the_questions_word_matches(services):
    ingest_sop_dir(SOP_DIR, services.sessions)
    sop = services.sop_retriever
    # no violation type fits a 공보의 복무 finding clearly: its dispositions' definitions only, and
    # not the 고발/통보 wording examples a search of the whole manual by these words puts first
    question = "공보의가 진료 안 하고 관사에서 쉬었는데 보건소가 놔둔 사례 있어? 어떤 조치를 요구했어?"
    applied = [c.clause_id for c in sop.applicable(question, ["공중보건의사 복무감독시스템 개선 필요 등"], ["통보", "주의"])]
    assert applied == ["SOP-CLS-12", "SOP-CLS-08"]
    # a clear violation type comes first
    contract = [c.clause_id for c in sop.applicable("긴급하다며 견적 없이 수의계약한 사례", ["수의계약 요건 미충족 업체와 수의계약 체결"], ["주의"])]
    assert contract == ["SOP-VIO-02", "SOP-CLS-08"]
    assert sop.applicable("무엇이든", [], ["주의", "통보", "징계", "고발"], k=3)[-1].clause_id == "SOP-CLS-03"
    # with the turn's search query, its vector and the title's stand for the two read together: the same clause
    searched = [c.clause_id for c in sop.applicable("긴급하다며 견적 없이 수의계약한 사례", ["수의계약 요건 미충족 업체와 수의계약 체결"], ["주의"],
                                                     query="긴급하다며 견적 없이 수의계약한")]
    assert searched == contract


def test_only_a_violation_type_is_shown_as_one_not_the_documents_preface(services):
    ingest_sop_dir(SOP_DIR, services.sessions)
    sop = services.sop_retriever
    types = [c.clause_id for c in sop.search("위반 유형 점검 기준 사용 방법", 80) if is_violation_type(c)]
    assert "SOP-VIO-01" not in types and {"SOP-VIO-02", "SOP-VIO-26"} <= set(types)
    # the preface's '법령', '처분' words lead its document for these (fused 1.11-1.15): no violation type is shown
    for question, title in (("관련 법령은?", "공공체육시설의 공정한 이용을 위한 대책 필요"),
                            ("처분 수위는?", "지방자치단체의 비점오염 저감시설 설치지역 선정 불합리 및 부실한 유지관리 방치")):
        assert [c.clause_id for c in sop.applicable(question, [title], ["주의"])] == ["SOP-CLS-08"], (question, title)
