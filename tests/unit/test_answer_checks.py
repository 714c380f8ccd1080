"""The answer evaluation's text checks, on answers written for the test."""

from app.eval import answer_checks as chk
from app.eval.answers import SopLabels, listed_findings, score_turn

DOCS = [
    {"finding_id": "R-F02", "finding_title": "위험물질 관리 부적정", "report_title": "연구원 감사",
     "institutions": ["한국연구원"], "dispositions": ["주의"], "heading": "",
     "text": "연구원은 위\n험유해물질을 보관하면서 관리대장을 작성하지 않았다. 감사원은 연구원장에게 주의를 요구한다.\n"
             "43) 연구시설 안전법 제2조 참조\n이에 따라 관리 책임자를 지정하여야 한다."},
    {"finding_id": None, "finding_title": None, "report_title": "연구원 감사", "institutions": [], "dispositions": [],
     "heading": "", "text": "감사실시 개요: 2025년 5월 실지감사를 하였다."},
    {"finding_id": "R-F05", "finding_title": "수의계약 부적정", "report_title": "연구원 감사",
     "institutions": ["한국연구원"], "dispositions": ["통보"], "heading": "",
     "text": "동일 업체와 반복하여 수의계약을 체결하였다."},
]


def test_main_text_drops_the_suggestion_block():
    answer = "요지입니다 [1].\n\n이어서 확인할 질문:\n- 조치할 사항은?\n- 다른 기관은?"
    assert chk.main_text(answer, ["조치할 사항은?", "다른 기관은?"]) == "요지입니다 [1]."


def test_first_finding_skips_report_level_passages():
    assert chk.first_finding("개요는 이렇습니다 [2]. 핵심 사례 [3], 그리고 [1].", DOCS) == "R-F05"
    assert chk.cited_numbers("[3] [1] [3]") == [3, 1]


def test_nuggets_match_despite_spacing():
    hits = chk.nugget_hits("감사원은 연구원장에게 주의를요구 했습니다 [1].", [{"phrase": "주의를 요구"}, {"phrase": "변상"}])
    assert hits == [True, False]


def test_quoted_sentence_is_supported_only_by_its_own_passage():
    s = '문제점: "관리대장을 작성하지 않았다" [1]'
    assert chk.supported(s, [DOCS[0]], "위험물질 관리 사례")
    assert not chk.supported(s, [DOCS[2]], "위험물질 관리 사례")


def test_unquoted_sentence_needs_most_new_words_in_the_cited_passage():
    q = "연구원 사례 알려줘"
    assert chk.supported("감사원은 연구원장에게 관리대장 작성과 관련하여 주의를 요구했습니다 [1].", [DOCS[0]], q)
    assert not chk.supported("감사원은 보조금 환수와 징계를 요구했습니다 [1].", [DOCS[0]], q)
    cited, bad, uncited = chk.groundedness("주의를 요구했습니다 [1].\n참고로 다른 건도 있습니다.", DOCS, q)
    assert (cited, bad, uncited) == (1, [], 1)


def test_artefacts_are_found_in_what_the_auditor_reads():
    found = chk.artefacts('문제점: "연구원은 위 험유해물질을 보관하면서" [1]', [DOCS[0]])
    assert any("split word" in f for f in found)
    found = chk.artefacts('근거: "43) 연구시설 안전법 제2조 참조" [1]', [DOCS[0]])
    assert any("footnote" in f for f in found)
    found = chk.artefacts('근거: "험유해물질을 보관하면서 관리대장을" [1]', [DOCS[0]])
    assert any("mid-sentence" in f for f in found)
    clean = chk.artefacts('문제점: "연구원은 위험유해물질을 보관하면서 관리대장을 작성하지 않았다." [1]', [DOCS[0]])
    assert clean == []


def test_a_footnote_reference_is_debris_and_a_quote_that_leaves_it_out_still_matches():
    d = {**DOCS[2], "text": "공보의가 침술 처방을 하지 않아12) 환자가 없자13) 진료시간에 관사에 머물렀다."}
    found = chk.artefacts('문제점: "공보의가 침술 처방을 하지 않아12) 환자가 없자" [1]', [d])
    assert any("footnote reference" in f for f in found)
    shown = '문제점: "…환자가 없자 진료시간에 관사에 머물렀다." [1]'
    assert chk.artefacts(shown, [d]) == []
    assert chk.supported(shown, [d], "공보의 사례")
    assert chk.artefacts('근거: "｢관광진흥법｣ 제48조의10)에 따른 인증" [1]', [d]) == []


def test_recommended_disposition_and_law_recall():
    text = "선례 3건 중 2건이 주의였습니다.\n권고: 이 사안에는 통보보다 주의 요구가 적절합니다 (판단은 감사인의 몫)."
    assert chk.recommended_disposition(text, ["주의", "통보", "징계"]) == "주의"
    assert chk.recommended_disposition("Recommendation: 징계 is appropriate here.", ["주의", "징계"]) == "징계"
    assert chk.recommended_disposition("선례는 주의 2건입니다.", ["주의"]) is None
    assert chk.law_recalled("「지방 공무원법」 제48조(성실 의무)에 따라", "「지방공무원법」 제48조")
    assert not chk.law_recalled("「지방공무원법」 제49조", "「지방공무원법」 제48조")


def test_repeats_are_recognised():
    assert chk.is_repeat("담양군 수의계약 사례", "담양군 수의계약 사례?")
    assert not chk.is_repeat("1번 지적사항의 조치할 사항은?", "담양군 수의계약 사례")


def test_an_elision_is_debris_unless_it_opens_at_a_clause():
    doc = {"finding_id": "R-F01", "text": "담당자는 서류를 검토하지 않았고, 선정 심의위원회의 심의도 거치지 않았다. CQ의 말만 믿고 와 협약을 체결하였다."}
    assert chk.artefacts('문제점: "…선정 심의위원회의 심의도 거치지 않았다." [1]', [doc]) == []
    assert any("elision" in f for f in chk.artefacts('문제점: "…심의위원회의 심의도 거치지 않았다." [1]', [doc]))
    assert any("elision" in f for f in chk.artefacts('문제점: "…와 협약을 체결하였다." [1]', [doc]))
    assert any("mid-sentence" in f for f in chk.artefacts('문제점: "심의위원회의 심의도 거치지 않았다." [1]', [doc]))
    # after a noun that ends like a connective, at a word a line break cut, before an auxiliary verb
    noun = {"finding_id": "R-F01", "text": "가람군은 국고 보조금이 목적 외로 쓰였는데도 그대로 두었다."}
    assert any("elision" in f for f in chk.artefacts('문제점: "…보조금이 목적 외로 쓰였는데도 그대로 두었다." [1]', [noun]))
    assert chk.artefacts('문제점: "…그대로 두었다." [1]', [noun]) == []  # after '쓰였는데도'
    cut = {"finding_id": "R-F01", "text": "그리고 감사 인력의 한계 등을 고\n려해 분석대상 지역은 강남구로 선정하였다."}
    assert any("elision" in f for f in chk.artefacts('문제점: "…려해 분석대상 지역은 강남구로 선정하였다." [1]', [cut]))
    aux = {"finding_id": "R-F01", "text": "관리대장이 방치되어 있는 등 업무를 소홀히 하였다."}
    assert any("elision" in f for f in chk.artefacts('문제점: "…있는 등 업무를 소홀히 하였다." [1]', [aux]))
    # one predicate ('검토하지 / 않았고'), inside a quotation, inside a list ('강남구, / 관악구') are no clause ends;
    # a noun that starts like an auxiliary ('준공검사') is no auxiliary
    more = {"finding_id": "R-F01", "text": ("가람군은 서류를 검토하지 않았고 관리대장도 작성하지 않았다. 담당자는 ‘공사를 중단하고, 공사 기간을 "
                                            "연장해야 한다’라고 회신하였다. 변경하였고 준공검사를 거치지 않은 채 사업을 마쳤다. "
                                            "서울특별시 강남구, 관악구 및 동작구를 표본으로 선정하였다.")}
    for bad in ("…않았고 관리대장도 작성하지 않았다.", "…공사 기간을 연장해야 한다’라고 회신하였다.", "…관악구 및 동작구를 표본으로 선정하였다."):
        assert any("elision" in f for f in chk.artefacts(f'문제점: "{bad}" [1]', [more])), bad
    assert chk.artefacts('문제점: "…준공검사를 거치지 않은 채 사업을 마쳤다." [1]', [more]) == []
    # a footnote mark before the clause's ending is no part of it ('100개72)이나, …')
    mark = {"finding_id": "R-F01", "text": "국내 민간 데이터센터는 100개72)이나, 이번 실태조사 결과 확인된 주요\n민간 데이터센터는 183개로서 83개가 누락되어 있다."}
    assert chk.artefacts('문제점: "…이번 실태조사 결과 확인된 주요 민간 데이터센터는 183개로서 83개가 누락되어 있다." [1]', [mark]) == []
    # quotation marks inside a quote (shown as ‘ ’) do not hide where it opens
    marks = {"finding_id": "R-F01", "text": "담당자는 “도시재생법” 제2조를 검토하지 않았다."}
    assert any("mid-sentence" in f for f in chk.artefacts('문제점: "자는 ‘도시재생법’ 제2조를 검토하지 않았다." [1]', [marks]))


def test_list_items_are_not_mid_sentence():
    doc = {"finding_id": "R-F01", "text": "관리하시기 바라며(주의)\n② 관련자에게는 주의를 촉구하시기 바랍니다."}
    assert chk.artefacts('조치: "② 관련자에게는 주의를 촉구하시기 바랍니다." [1]', [doc]) == []


def test_a_fast_track_answer_presents_the_findings_it_lists_by_title():
    state = {"sql": {"columns": ["id", "title", "year"], "rows": [
        ["R-F02", "연안정비사업 사업지 선정 부적정", 2025], ["R-F01", "미수검 선박 출항 통제 부실", 2025],
        ["R-F09", "보이지 않는 건", 2025]]}}
    text = "2건을 찾았습니다: 연안정비사업 사업지 선정 부적정; 미수검 선박 출항 통제 부실."
    assert listed_findings(state, text) == ["R-F02", "R-F01"]
    assert listed_findings({"sql": {"columns": ["n"], "rows": [[3]]}}, "3건") == []
    assert listed_findings({}, text) == []


def test_sop_clauses_shown_are_scored_against_the_gold_findings_labels():
    item = {"id": "q", "question": "수의계약 반복 사례", "answerable": True, "gold_findings": ["R-F05"], "nuggets": []}
    labels = {"R-F05": SopLabels(frozenset({"SOP-VIO-02", "SOP-CLS-12"}), frozenset({"SOP-VIO-02"})),
              "R-F02": SopLabels(frozenset({"SOP-CLS-08"}), frozenset())}
    state = {"answer": "\"수의계약 부적정\" 건입니다 [3].", "documents": DOCS, "coverage": "full", "track": "deep",
             "sop": [{"id": "SOP-VIO-03"}, {"id": "SOP-CLS-12"}, {"id": "SOP-CLS-18"}]}
    rec = score_turn(item, state, 1.0, labels)
    assert rec["sop_shown"] == ["SOP-VIO-03", "SOP-CLS-12", "SOP-CLS-18"]
    assert rec["sop_precision"] == 1 / 3 and rec["sop_recall"] == 0.5
    assert rec["sop_violation_precision"] == 0.0 and rec["sop_violation_recall"] == 0.0  # a violation type, the wrong one
    right = score_turn(item, {**state, "sop": [{"id": "SOP-VIO-02"}]}, 1.0, labels)
    assert right["sop_violation_precision"] == 1.0 and right["sop_violation_recall"] == 1.0 and right["sop_recall"] == 0.5
    assert "sop_precision" not in score_turn(item, {**state, "coverage": "none"}, 1.0, labels)  # declined: nothing to score
    assert "sop_precision" not in score_turn(item, {**state, "track": "fast"}, 1.0, labels)  # a fast list shows no SOP
    assert "sop_precision" not in score_turn(item, state, 1.0, {})
