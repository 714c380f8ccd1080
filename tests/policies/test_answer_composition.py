"""The offline answer: display quotes repaired but still found in their passage, answers that
lead with what the kind of question asks, declining answers, finding-level grading."""

from __future__ import annotations

import re
from dataclasses import replace

from app.eval.answer_checks import supported
from app.policies.offline import analyst, grader, quotes, verifier
from app.policies.offline.decline import REFERENCE_HEADER, decline
from app.policies.offline.intent import asks_for_several, question_kind
from app.policies.offline.lexicon import key_terms
from app.retrieval.evidence import Evidence
from app.retrieval.finding_rank import RankedFinding, evidence_for
from app.retrieval.wrongdoing import WRONGDOINGS, asked_either, asked_wrongdoing
from graph.nodes.analyze import locate
from graph.nodes.expand_evidence import expand
from tests.graph.fakes import doc

CRITERIA = (
    "｢지방공무원법｣ 제48조에 따르면 공무원은 성실히 직무를 수행하여야 한다. 또한 ｢지방공무원 징계 및 소청 규정｣ 제2조 제1항에\n"
    "따르면 징계는 비위의 정도에 따라 정한다."
)
PROBLEMS = (
    "43) 연구시설의 위\n험유해물질 관리대장은 작성되지 않았다. 그런데 가람시는 2023. 7. 17. ｢물품관리법｣을 위반하여\n"
    "물품을 구매하였다. [표 3] 구매 현황 (단위: 건) 2021 2022 2023 12 15 18 20 22"
)
ACTIONS = "가람시장은\n① 앞으로 물품 구매 업무를 철저히 하시기 바랍니다.(주의)\n② 관련자에게는 주의를 촉구하시기 바랍니다.(주의)"


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_quotes_are_repaired_for_display_and_still_in_the_passage():
    qs = quotes.sentences(PROBLEMS)
    texts = [q.text for q in qs]
    # the footnote marker is cut, the line-break split joined, the table row dropped
    assert texts[0].startswith("연구시설의 위험유해물질 관리대장은")
    assert not any("[표" in t or "단위" in t for t in texts)
    for q in qs:
        assert squash(q.text) in squash(PROBLEMS)
        assert squash(PROBLEMS[q.start : q.end]) == squash(q.text)
    # a date's dots do not end a sentence: the quote keeps its subject
    assert any(t.startswith("그런데 가람시는 2023. 7. 17.") for t in texts)


def test_list_items_keep_their_marks_and_long_sentences_are_cut_at_a_clause():
    items = [q.text for q in quotes.sentences(ACTIONS)]
    assert "① 앞으로 물품 구매 업무를 철저히 하시기 바랍니다.(주의)" in items
    long = "가람시는 " + "계약 서류를 검토하지 않았고, " * 20 + "그대로 두었다."
    cut = quotes.sentences(long)[0]
    assert len(cut.text) <= quotes.MAX_CHARS and squash(cut.text) in squash(long)


def test_a_date_broken_over_lines_stays_in_its_sentence_and_headings_are_not_quoted():
    text = ("3. 농업법인이 부동산업 불법 영위\n○ 담당자는 수탁자와 협약서(위탁기간 3년, 2022.\n"
            "10. 24.~2025. 10. 23.)를 체결하면서 선정기준에 적합한지 검토하지 않았고 선정 심의위원회의 심의도 거치지 않았다.\n[표] 위탁 현황 기관 금액 2022 2023")
    texts = [q.text for q in quotes.sentences(text)]
    assert texts == ["○ 담당자는 수탁자와 협약서(위탁기간 3년, 2022. 10. 24.~2025. 10. 23.)를 체결하면서 선정기준에 적합한지 검토하지 않았고 선정 심의위원회의 심의도 거치지 않았다."]
    # a list item after a date-less sentence still opens its own sentence
    items = [q.text for q in quotes.sentences("검토 결과는 다음과 같다.\n10. 위탁 사무를 협약서에 명시하지 않았다.")]
    assert items[-1] == "10. 위탁 사무를 협약서에 명시하지 않았다."
    # a day on the next line is the date's, not item 1 ('2015. 12. / 1. 한국공항공사에')
    day = [q.text for q in quotes.sentences("국토교통부는 2015. 12.\n1. 한국공항공사에 공문을 보내 재원조달방안을 협의하였다.\n"
                                            "1. 이 항목은 목록의 첫 번째 항목이다.")]
    assert day == ["국토교통부는 2015. 12. 1. 한국공항공사에 공문을 보내 재원조달방안을 협의하였다.", "1. 이 항목은 목록의 첫 번째 항목이다."]
    # a date closing a bracket ends no sentence ('감사기간(2024. 3. 27.~5. 10.) 중 …')
    period = [q.text for q in quotes.sentences(
        "그런데 강원도는 결산검사로 오류를 찾아 수정한 사례가 없어 이번 감사기간(2024. 3. 27.~5. 10.) 중 재무제표에 대한 검사를 수행해 보았다.")]
    assert period == ["그런데 강원도는 결산검사로 오류를 찾아 수정한 사례가 없어 이번 감사기간(2024. 3. 27.~5. 10.) 중 재무제표에 대한 검사를 수행해 보았다."]
    for text in ("담양군은 보조금 3억 원을 사업자에게 교부하였다.(2023. 5. 1.) 그러나 사업은 추진되지 않았고 정산도 하지 않았다.",  # a sentence ended before it
                 "감사 실시 기간과 대상 사업의 범위(2024. 3. 27.~5. 10.)\n그러나 사업은 추진되지 않았고 정산도 하지 않았다."):  # a line of its own
        assert [q.text for q in quotes.sentences(text)][-1] == "그러나 사업은 추진되지 않았고 정산도 하지 않았다.", text
    ship = "해양경찰청 경비함(2023. 5. 1.) 출항 시 기상특보 발효 여부에 대한 점검을 하지 않았다."  # a noun ending like a clause
    assert [q.text for q in quotes.sentences(ship)] == [ship]


def test_table_debris_is_not_quoted_and_a_persons_response_weighs_less():
    table = "8. 30. 회의결과 보고 흑산공항 실시설계 보고 업무 내용 총사업비 증액분 추가 발생 시 타당성 재조사 대상"
    header = "징계요구 양정 포상 제한자를 표창 대상자로 추천한 CB, CC와 CD 및"
    assert quotes.sentences(table) == [] and quotes.sentences(header) == []
    response = quotes.Quote("② 관련자 의견 CB는 기준을 위반한 잘못된 업무 처리였다고 답변하였다.", 0, 0)
    fact = quotes.Quote("그 결과 BZ는 포상 추천제한자임에도 표창을 받게 되었다.", 0, 0)
    assert quotes.weight(set(), set(), response, "problems") < quotes.weight(set(), set(), fact, "problems")


def test_a_cut_sentence_is_shown_with_an_ellipsis_and_still_checks_against_its_passage():
    cut = quotes.Quote("국토교통부장관은 향후 유사 사례 등 재발 방지를 위하", 0, 0)
    whole = quotes.Quote("① 관련 업무를 철저히 하시기 바랍니다.(주의)", 0, 0)
    assert quotes.displayed(cut).endswith("…") and quotes.displayed(whole) == whole.text
    line = analyst.quote_line("조치할 사항", 1, cut)
    assert line.quote == cut.text and "위하…\"" in line.text
    passage = {"text": "국토교통부장관은 향후 유사 사례 등 재발 방지를 위하\n여 그 내용을 통보합니다.", "heading": ""}
    assert supported(line.text, [passage], "어떤 조치?")


LONG_PROBLEM = ("그런데 가람군 과장 CQ은 입찰공고가 모두 유찰되자 제안서를 평가하여 자격을 검증한 후 수의계약하는 것으로 방침을 받고도, "
                "제안서도 제출하지 않은 업체를 수탁기관으로 선정한 후 담당자에게 협약을 체결하도록 지시하였고, 담당자는 법인이라는 사실을 "
                "확인할 수 없는데도 CQ의 말만 믿고 협약을 체결하였으며, 그 결과 가람군은 19억여 원을 들여 건축한 홍보관을 빵집으로만 사용하게 되었다.")


def test_a_long_problem_sentence_is_shown_by_its_end_from_a_clause():
    head, tail = quotes.sentences(LONG_PROBLEM)[0], quotes.sentences(LONG_PROBLEM, tail=True)[0]
    assert head.text.startswith("그런데 가람군") and not head.elided and "빵집" not in head.text
    assert tail.elided and tail.text.endswith("빵집으로만 사용하게 되었다.") and len(tail.text) <= quotes.MAX_CHARS
    assert LONG_PROBLEM[: tail.start].rstrip().endswith((",", "고", "며"))  # opened at a clause boundary
    assert quotes.displayed(tail).startswith("…") and squash(tail.text) in squash(LONG_PROBLEM)
    # a clause whose subject was masked ('와 협약을') is not where an excerpt opens
    masked = "그런데 가람군은 " + "서류를 확인하지 않은 채 " * 6 + "CQ의 말만 믿고 와 협약을 체결하였으며 그 결과 가람군은 19억여 원을 들인 홍보관을 빵집으로만 사용하게 되었다."
    assert quotes.sentences(masked, max_chars=70, tail=True)[0].text.startswith("그 결과")
    # nor a noun that ends like a connective ('국고 / 보조금이'), nor inside a quotation ('‘…하고, …’라고')
    noun = "그런데 가람군은 " + "서류를 확인하지 않은 채 " * 6 + "지원받은 국고 보조금이 목적 외로 쓰였는데도 담당자는 이를 확인하지 않은 채 그대로 두었다."
    assert not quotes.sentences(noun, max_chars=64, tail=True)[0].text.startswith("보조금이")
    quoted = ("그런데 가람군은 " + "서류를 확인하지 않은 채 " * 6
              + "‘공사를 중단하고, 공사 기간을 충분히 연장해야 한다’라고 회신하였으나 그 결과 공사는 2년 동안 중단되었다.")
    assert not quotes.sentences(quoted, max_chars=64, tail=True)[0].text.startswith("공사 기간을")
    aux = "그런데 가람군은 " + "서류를 확인하지 않은 채 " * 6 + "관리대장이 방치되어 있는 등 그 결과 가람군은 19억여 원을 들인 홍보관을 빵집으로만 사용하게 되었다."
    assert not quotes.sentences(aux, max_chars=70, tail=True)[0].text.startswith("있는")
    # a noun that starts like an auxiliary ('준공검사') does not stop an excerpt; a comma in a list is no clause end
    noun_aux = "그런데 가람군은 " + "서류를 확인하지 않은 채 " * 6 + "공사를 변경하였고 준공검사를 거치지 않은 채 사업을 마쳐 예산을 낭비하였다."
    assert quotes.sentences(noun_aux, max_chars=80, tail=True)[0].text.startswith("준공검사를")
    listed = "그런데 가람군은 " + "서류를 확인하지 않은 채 " * 6 + "서울특별시 강남구, 영등포구, 관악구 및 동작구를 표본으로 선정하여 분석하였다."
    assert not quotes.sentences(listed, max_chars=80, tail=True)[0].text.startswith(("영등포구", "관악구"))
    # a head cut does not stop inside a quotation
    said = ("담당자는 관련 서류와 계약 내용 및 정산 자료를 꼼꼼하게 검토하지 않았고, 관계 기관은 ‘공사를 즉시 중단하고, "
            "안전 대책을 마련하고, 예산을 다시 확보하여 보고하라’고 요구하였다.")
    assert quotes.sentences(said, max_chars=90)[0].text == "담당자는 관련 서류와 계약 내용 및 정산 자료를 꼼꼼하게 검토하지 않았고"
    # a line break that cut a word ('고 / 려해') is no clause boundary
    wrapped = ("그리고 감사 인력‧기간의 한계 등을 고\n려해 분석대상 지역은 과거 집중호우 시 침수피해가 자주 발생하였던 서울특별시 강남구와 "
               "안양천과 도림천이 합류하고 저지대·평지가 많아 침수피해에 취약할 것으로 예상되는 서울특별시 영등포구를 표본으로 선정하였다.")
    assert not quotes.sentences(wrapped, max_chars=120, tail=True)[0].text.startswith("려해")
    # no clause boundary near the end: the head, as before
    run_on = "가람군은 " + "기준에맞지않는계약서류를 " * 12 + "그대로 두었다."
    assert not quotes.sentences(run_on, tail=True)[0].elided


def test_a_head_cut_keeps_its_whole_ending_and_a_footnote_ends_at_its_line():
    long = "담당자는 " + "서류를 검토하지 않은 채 결재를 올렸으며 " * 3 + "과장은 이를 그대로 결재하였다고 진술하고 있으나 실제로는 " + "검토 기록이 어디에도 남아 있지 않은 상태로 " * 4 + "없다."
    cut = quotes.sentences(long)[0].text
    assert cut.endswith(("으나", "으나,")) and not cut.endswith("으")
    text = "8) CQ는 두 회사가 분할되었다고 진술하고 있으나 실제 아무런 관계가 없음\n또한 가람군은 협약을 취소하는 등의 조치를 하지 않고\n있다."
    texts = [q.text for q in quotes.sentences(text)]
    assert texts == ["CQ는 두 회사가 분할되었다고 진술하고 있으나 실제 아무런 관계가 없음", "또한 가람군은 협약을 취소하는 등의 조치를 하지 않고 있다."]
    # a line that carries on the footnote's (a word cut in two, a particle, a continuation) stays in it
    for carried in ("8) 관련 내용은 기존 지침과 비교하여 등 다\n양한 조치가 있다.", "8) 관련 사항은 지침에 포함\n되어 있고, 이러한 조치는 미흡하였다.",
                    "8) 관련 시행자는 별도 법인임\n은 신속하게 감차보상 업무를 처리하였다."):
        assert len(quotes.sentences(carried)) == 1, carried
    # '하지만' opens body text of its own
    assert len(quotes.sentences("8) 이 사업은 국비로 지원된 사업임\n하지만 가람군은 협약을 취소하는 등의 조치를 하지 않았다.")) == 2


def test_a_particle_a_line_break_moved_off_its_bracket_stays_with_its_sentence():
    text = "한편, 위 “2023년 택시 감차보상계획 공고”(2023. 1. 16.)\n에 따르면 택시 한 대에 대한 감차보상금은 국비와 시비로 지급한다."
    assert [q.text for q in quotes.sentences(text)] == ["한편, 위 ‘2023년 택시 감차보상계획 공고’(2023. 1. 16.)에 따르면 택시 한 대에 대한 감차보상금은 국비와 시비로 지급한다."]


def test_the_opening_sentence_of_problems_and_the_question_words_are_quoted_first():
    opening = quotes.Quote("그런데 가람군은 심의를 거치지 않고 수탁자를 선정하였다.", 0, 0)
    later = quotes.Quote("그런데 가람군은 심의를 거치지 않고 수탁자를 변경하였다.", 0, 0)
    assert quotes.narrative_weight(set(), set(), opening, True) > quotes.narrative_weight(set(), set(), later, False)
    bakery = quotes.Quote("그 결과 가람군은 홍보관을 빵집으로만 사용하게 되었다.", 0, 0)
    assert quotes.narrative_weight({"빵집"}, set(), bakery, False) > quotes.narrative_weight({"빵집"}, set(), later, False)
    aside = quotes.Quote("관계기관 의견 가람군은 감사결과를 수용하였다.", 0, 0)
    assert quotes.narrative_weight(set(), set(), aside, False) < quotes.narrative_weight(set(), set(), later, False)
    # the section's opening sentence is the one of its first chunk, whatever order search found them in
    first = {**doc(1, "F1", text="그런데 가람군은 심의를 거치지 않고 수탁자를 선정하였다."), "ordinal": 0}
    second = {**doc(2, "F1", text="그런데 가람군은 심의를 거치지 않고 계약을 변경하였다."), "ordinal": 1}
    case = analyst.cases([second, first])[0]
    assert [q.text for _, q in analyst.section_quotes(case, "problems", set(), 1)] == [first["text"]]
    assert [q.text for _, q in analyst.section_quotes(case, "problems", set(), 2)] == [first["text"], second["text"]]  # the section's order
    # evidence without the chunk's place (older checkpoints): the first passage found opens it
    unknown = analyst.cases([{k: v for k, v in d.items() if k != "ordinal"} for d in (second, first)])[0]
    assert [q.text for _, q in analyst.section_quotes(unknown, "problems", set(), 1)] == [second["text"]]


def test_a_stated_failure_is_worth_more_in_problems_and_a_quoted_provision_less():
    plain = quotes.Quote("담양군은 2022년에 미디어 홍보관을 준공하였다.", 0, 0)
    failure = quotes.Quote("담양군은 심의를 거치지 않고 수탁자를 선정하였다.", 0, 0)
    assert quotes.narrative_weight(set(), set(), failure, False) > quotes.narrative_weight(set(), set(), plain, False)
    # a provision quoted in 문제점 for comparison is the rule, not what went wrong
    provision = quotes.Quote("- ｢경기도 도시계획 조례｣ 제11조(위원의 제척ㆍ기피ㆍ회피) ① 위원회의 위원은 심의·의결에서 제척된다.", 0, 0)
    finding = quotes.Quote("구의원 2명은 제척 사유가 아닌데도 부당하게 제척되었다.", 0, 0)
    terms = {"위원", "제척"}
    assert quotes.narrative_weight(terms, set(), provision, False) < quotes.narrative_weight(terms, set(), finding, False)
    # elsewhere (관계 법령·판단기준) the provision is what is asked for
    assert quotes.weight(terms, set(), provision, "criteria") > quotes.weight(terms, set(), finding, "criteria") - 0.5


def test_law_references_and_their_sentences():
    assert quotes.laws(CRITERIA) == ["｢지방공무원법｣ 제48조", "｢지방공무원 징계 및 소청 규정｣ 제2조 제1항"]
    assert len(quotes.law_sentences(CRITERIA)) == 2


def test_same_law_references_resolve_to_the_law_last_named_and_are_listed_under_it():
    text = ("｢국가연구개발혁신법｣ 제31조와 ｢연구개발사업 관리지침｣ 제30조에 따르면 … 같은 법 제15조 및 제32조에 따르면 "
            "… 같은 법 시행령 제57조 제1항에 따라 제재한다.")
    refs = quotes.laws(text)
    assert refs == ["｢국가연구개발혁신법｣ 제31조", "｢연구개발사업 관리지침｣ 제30조", "｢국가연구개발혁신법｣ 제15조 및 제32조",
                    "｢국가연구개발혁신법 시행령｣ 제57조 제1항"]  # a 지침 is not the '법' that '같은 법' means
    assert quotes.grouped_laws(refs) == ("｢국가연구개발혁신법｣ 제31조·제15조 및 제32조, ｢연구개발사업 관리지침｣ 제30조, "
                                         "｢국가연구개발혁신법 시행령｣ 제57조 제1항")
    assert quotes.laws("같은 법 제3조에 따르면") == []  # nothing named before it


def test_locate_maps_a_repaired_quote_to_its_exact_span():
    text = "연구시설의 위 험유해물질\n관리대장은 작성되지 않았다."
    start, end = locate("위험유해물질 관리대장은", text)
    assert text[start:end] == "위 험유해물질\n관리대장은"
    assert locate("없는 문장", text) is None


def test_a_footnote_reference_inside_a_sentence_is_left_out_and_the_quote_still_checks():
    text = ("곡성군은 공보의 AI가 침술 처방을 하지 않아12) 환자가 없자13) 진료시간에 관사에 머물면서\n"
            "근무지를 이탈하였는데도 이를 인정89)하였다. 한편 ｢관광진흥법｣ 제48조의10)에 따른 인증을 받았다.")
    shown = [q.text for q in quotes.sentences(text)]
    assert shown[0] == ("곡성군은 공보의 AI가 침술 처방을 하지 않아 환자가 없자 진료시간에 관사에 머물면서 "
                        "근무지를 이탈하였는데도 이를 인정하였다.")
    assert "제48조의10)에" in shown[1]  # an article number is no footnote
    start, end = locate(shown[0], text)
    assert text[start:end].startswith("곡성군은") and text[start:end].endswith("인정89)하였다.")
    d = {**doc(1, "F1"), "section": "problems", "text": text}
    assert verifier.support("근거 [1]", shown[0], [d]) == 1.0  # by its quote: the sentence's own words are not in the passage
    assert verifier.support("근거 [1]", shown[0].replace("관사에", "청사에"), [d]) == 0.0
    assert supported(f'문제점: "{shown[0]}" [1]', [d], "공보의 복무 사례")
    # a mark after a sentence's closing period ends no quote
    ended = "정산을 하지 않아 집행 잔액 1,015억 원이 반납되지 않고 있었다.180)"
    assert [q.text for q in quotes.sentences(ended)] == ["정산을 하지 않아 집행 잔액 1,015억 원이 반납되지 않고 있었다."]


def _finding_docs() -> list[dict]:
    base = doc(1, "F1")
    return [
        {**base, "chunk_id": "p1", "section": "problems", "text": PROBLEMS},
        {**base, "chunk_id": "c1", "section": "criteria", "text": CRITERIA},
        {**base, "chunk_id": "a1", "section": "actions", "text": ACTIONS},
        {**doc(2, "F2"), "dispositions": ["징계"]},
    ]


def test_a_summary_of_one_named_case_shows_that_case_alone():
    docs = _finding_docs()
    one = analyst.analyze_documents("물품 구매 부적정 건 요약해줘", docs, "").sentences
    assert [s.citations for s in one if re.match(r"\d\. ", s.text)] == [[1]]
    assert all(n < 4 for s in one for n in s.citations)  # nothing of the second finding
    for several in ("물품 구매 부적정 건들 정리해줘", "물품 구매 관련 지적사항을 정리해줘", "두 건 비교해서 정리해줘", "물품 구매 감사결과 요약해줘"):
        cards = [s for s in analyst.analyze_documents(several, docs, "").sentences if re.match(r"\d\. ", s.text)]
        assert [c.citations for c in cards] == [[1], [4]], several


def test_each_kind_of_question_leads_with_its_answer():
    docs = _finding_docs()
    legal = analyst.analyze_documents("이 건의 근거 법령은?", docs, "").sentences
    assert "｢지방공무원법｣ 제48조" in legal[0].text and legal[0].citations == [2]
    disposition = analyst.analyze_documents("이런 경우 어떤 처분이 적절해?", docs, "").sentences
    assert "주의 1건" in disposition[0].text and "징계 1건" in disposition[0].text
    assert "'주의' 처분이 적절해 보입니다" in disposition[1].text and "권고" in disposition[1].text
    actions = analyst.analyze_documents("어떤 조치를 요구했어?", docs, "").sentences
    quoted = [s.text for s in actions if s.text.strip().startswith("- 조치할 사항")]
    assert quoted and "하시기 바랍니다.(주의)" in quoted[0]
    similar = analyst.analyze_documents("물품 구매 부적정 사례 있어?", docs, "").sentences
    assert similar[0].text.startswith("질문과 같은 유형의 사례 2건을 찾았습니다")
    # one card per finding, in evidence order, each citing the finding's first passage
    cards = [s for s in similar if re.match(r"\d\. ", s.text)]
    assert [c.citations for c in cards] == [[1], [4]]


def test_leads_that_name_an_institution_or_a_disposition_pass_verification():
    """The institution and disposition leads name what the cards show beside the passages (its
    institution, title, dispositions); the offline verifier checks them there, so the lead is
    not dropped as unsupported and regenerated away."""
    docs = [{**d, "finding_title": f"{d['finding_title']} 물품 구매 부적정"} for d in _finding_docs()]
    for question in ("가람시 지적사항 보여줘", "이런 경우 어떤 처분이 적절해?", "What findings concern 가람시?"):
        answer = analyst.analyze_documents(question, docs, "")
        verdict = verifier.verify(question, answer, docs)
        lead = answer.sentences[0]
        assert lead.text not in verdict.unsupported, question
        assert supported(lead.text, [docs[n - 1] for n in lead.citations], question), question  # and by the answer evaluation's check
    one = analyst.analyze_documents("이런 경우 어떤 처분이 적절해?", docs[:3], "").sentences[0].text
    assert one.startswith("유사한 선례 \"") and "'주의' 처분이 적절해 보입니다" in one and "권고" in one
    lead = analyst.analyze_documents("가람시 지적사항 보여줘", docs, "").sentences[0].text
    assert lead.startswith("가람시 관련 지적사항 2건을 찾았습니다: \"") and "외 1건" in lead


def test_a_legal_basis_lead_lists_the_articles_its_problems_apply_too():
    docs = _finding_docs()
    docs[0] = {**docs[0], "text": docs[0]["text"] + " 이는 ｢지방공무원법｣ 제69조 제1항에 따른 징계 사유이다."}
    lead = analyst.analyze_documents("이 건의 근거 법령은?", docs, "").sentences[0]
    assert lead.text.index("제48조") < lead.text.index("제69조 제1항")  # criteria first
    assert lead.citations == [1, 2]  # every passage a listed reference comes from


def test_every_quote_in_an_answer_is_in_the_passage_it_cites():
    docs = _finding_docs()
    for question in ("근거 법령은?", "요약해줘", "어떤 조치를 요구했어?", "비슷한 사례"):
        for s in analyst.analyze_documents(question, docs, "").sentences:
            for q in re.findall(r"\"([^\"]+)\"", s.text):
                cited = docs[s.citations[0] - 1]
                assert squash(q) in squash(f"{cited['finding_title']}{cited['text']}"), (question, q)


def test_decline_says_so_and_lists_references_apart():
    nearest = [doc(1, "F1"), doc(2, "F2")]
    ans = decline("2019년 가람시 감사 결과", ["2019년"], nearest)
    assert ans.sentences[0].text == "수집된 감사보고서에는 2019년에 관한 감사 결과가 없습니다."
    assert ans.sentences[2].text == f"{REFERENCE_HEADER['ko']}:"
    assert [s.citations for s in ans.sentences[3:]] == [[1], [2]]
    assert not any("가장 관련" in s.text for s in ans.sentences)
    en = decline("any cases of kickbacks?", [], [])
    assert en.sentences[0].text.startswith("The ingested reports hold no case")
    # what the nearest cases lack, in the question's own words, when none of them has it
    near = [{**doc(1, "F1"), "unmatched": ["뒷돈", "연장"]}, {**doc(2, "F2"), "unmatched": ["뒷돈"]}]
    said = decline("공무원이 뒷돈 받고 허가를 연장해 준 사례", [], near).sentences
    assert said[1].text == "가장 가까운 지적사항들에도 '뒷돈'에 관한 내용은 나오지 않습니다." and said[3].text.startswith("참고")


def _scored(n: int, finding: str, p: float, **signals: float) -> dict:
    base = {"csls": 0.05, "lex_body": 0.8, "lex_full": 0.9, "absent": 0.0, "scoped": 0.0}
    return {**doc(n, finding), "finding_score": p, "signals": {**base, **signals}}


def test_grader_keeps_the_best_finding_and_close_ones_or_nothing():
    docs = [_scored(1, "F1", 0.999), _scored(2, "F1", 0.999), _scored(3, "F2", 0.995), _scored(4, "F3", 0.40)]
    kept = [g.relevant for g in grader.grade("물품 구매 부적정", docs).grades]
    assert kept == [True, True, True, False]
    # a question the reports do not cover: words absent from every finding, no key-term match
    off = [_scored(1, "F1", 0.97, lex_body=0.0, lex_full=0.0, absent=0.9, csls=-0.06)]
    assert not any(g.relevant for g in grader.grade("드론 비행 허가 위반 사례", off).grades)
    # ... unless the question names an institution the store holds: then list what it has
    scoped = [_scored(1, "F1", 0.97, lex_body=0.0, lex_full=0.0, absent=0.9, csls=-0.06, scoped=1.0)]
    assert all(g.relevant for g in grader.grade("가람시 감사 결과", scoped).grades)


def test_a_finding_that_never_states_the_wrongdoing_asked_about_is_not_the_case():
    # the 용산공원 contract finding matches every word but the bribe: it is no answer, even for a named institution
    lacks = [_scored(1, "F1", 0.999, lacks_act=1.0), _scored(2, "F1", 0.999, lacks_act=1.0)]
    assert not any(g.relevant for g in grader.grade("용산공원 대행업체한테 LH 담당자가 향응 받은 건", lacks).grades)
    assert not any(g.relevant for g in grader.grade("LH 향응 건", [_scored(1, "F1", 0.97, lacks_act=1.0, scoped=1.0)]).grades)
    # one that states it, even ranked lower, is kept alone
    mixed = [_scored(1, "F1", 0.999, lacks_act=1.0), _scored(2, "F2", 0.97)]
    assert [g.relevant for g in grader.grade("공금 횡령 직원 처분", mixed).grades] == [False, True]
    # ... but not one far down, which matches the act and nothing else
    far = [_scored(1, "F1", 0.999, lacks_act=1.0), _scored(2, "F2", 0.07)]
    assert not any(g.relevant for g in grader.grade("선장이 술 마시고 출항했는데 음주측정 안 한 사례", far).grades)


def test_the_wrongdoing_a_question_asks_about_by_its_own_words():
    asked = {
        "관광기금 심사하던 은행 직원이 뒷돈 받고 대출 내줬으면": ["뇌물·금품"],
        "Any case where Coast Guard officers took bribes from boat owners?": ["뇌물·금품"],
        "울릉공항 공사현장에서 인명사고 난 건": ["인명사고"],
        "배 선장이 술 먹고 출항했는데 해경이 단속 안 한 사례": ["음주"],
        "허위로 지출결의 올려서 공금 빼돌린 케이스는": ["횡령"],
        "Any case where the sports council pocketed the rental fees it collected?": ["횡령"],
        # the ordinary senses: compensation received, soil running off, technology, a grant taken, a fall risk,
        # drinking water, 'studied', 'forgiveness', a death benefit
        "감차보상금 받고 없앤 택시로 몰래 영업한 사례": [],
        "공사 중 토사 유출 방치한 사례": [],
        "기술 용역 대가를 낮게 잡은 건": [],
        "정부 지원금 돈 받고 사업은 안 한 업체": [],
        "추락사고 위험 있는 시설 방치": [],
        "Cases where drinking water quality tests were skipped": [],
        "Projects the ministry studied but never funded": [],
        "Debt forgiveness granted without review": [],
        "death benefit overpayment": [],
        "금품수수나 횡령 같은 비위 사례": ["뇌물·금품", "횡령"],
        "drinking-water plant inspections skipped": [],
        "the agency forged ahead with the contract": [],
        "음주나 성비위로 징계받은 사례": ["음주", "성비위"],
    }
    for q, acts in asked.items():
        assert [w.name for w, _ in asked_wrongdoing(q)] == acts, q
    assert asked_wrongdoing("뒷돈 받고 허가 연장")[0][1] == "뒷돈"  # the words the answer names it by
    assert [said for _, said in asked_wrongdoing("업체한테 향응을 받은 공무원, 공금 빼돌린 직원")] == ["향응", "빼돌린"]
    assert [said for _, said in asked_wrongdoing("금품수수나 횡령 같은 비위 사례")] == ["금품수수", "횡령"]
    # one or the other, or both together
    for q, either in (("금품수수나 횡령 같은 비위 사례", True), ("bribery or embezzlement cases", True),
                      ("술 마시고 운항하다 사고 내서 선원 다친 사례", False)):
        assert asked_either(q, asked_wrongdoing(q)) is either, q
    bribe = WRONGDOINGS[0]
    assert bribe.stated_in({"금품수수", "겸직"}) and not bribe.stated_in({"계약", "용역", "수의계약"})


def test_an_institutions_listing_keeps_every_finding_about_it():
    # '문체부 감사에서 나온 지적 뭐 있어?': no pattern to score, so no threshold of one
    docs = [_scored(1, "F1", 0.999, scoped=1.0, lists=1.0), _scored(2, "F2", 0.40, scoped=1.0, lists=1.0),
            _scored(3, "F3", 0.20, scoped=1.0, about=0.0)]
    assert [g.relevant for g in grader.grade("가람시 지적 뭐 있어?", docs).grades] == [True, True, False]
    hits = [Evidence(chunk_id=f"F{i}", report_id="r", finding_id=f"F{i}", section="problems", page=1, text="t", score=0.5) for i in range(9)]
    ranked = [RankedFinding(f"F{i}", 0.9, {}) for i in range(9)]
    assert len(evidence_for(ranked, hits, {}, 9, 9)) == 9 and len(evidence_for(ranked, hits, {}, 8)) == 5


def test_evidence_reaches_every_one_of_the_best_findings_before_a_second_chunk_of_any():
    hits = [Evidence(chunk_id=f"{f}-{j}", report_id="r", finding_id=f, section="problems", page=1, text="t", score=0.5)
            for f in ("F1", "F2", "F3", "F4", "F5") for j in range(3)]
    ranked = [RankedFinding(f, p, {}) for f, p in (("F1", 0.99), ("F2", 0.9), ("F3", 0.8), ("F4", 0.7), ("F5", 0.6))]
    out = evidence_for(ranked, hits, {}, 8)
    assert [e.chunk_id for e in out] == ["F1-0", "F1-1", "F2-0", "F2-1", "F3-0", "F3-1", "F4-0", "F5-0"]


def test_a_question_asking_for_several_findings_keeps_the_likely_ones_too():
    docs = [_scored(1, "F1", 0.999), _scored(2, "F2", 0.95), _scored(3, "F3", 0.40)]
    one = [g.relevant for g in grader.grade("물품 구매 부적정 사례 있어?", docs).grades]
    several = [g.relevant for g in grader.grade("물품 구매 부적정 사례들 싹 모아줘", docs).grades]
    assert one == [True, False, False] and several == [True, True, False]
    rewritten = [g.relevant for g in grader.grade("물품 구매 부적정", docs, asked="비슷한 다른 사례들은?").grades]
    assert rewritten == several  # a follow-up's standalone query keeps the pattern; the user's words ask for several
    assert [asks_for_several(q) for q in ("가람시 관련 지적 뭐 있었지?", "지적사항 목록 뽑아줘", "List the findings on procurement",
                                          "물품 구매 부적정 사례 있어?", "법 조항들 알려줘")] == [True, True, True, False, False]
    # the same words in their ordinary senses, and a summary of one named case
    for one in ("특정인을 합격자로 뽑아준 사례", "계약과 검수 모두 부적정했던 사례", "조례 전부개정 절차 위반", "업무추진비를 모아서 쓴 사례",
                "입찰 참가자격을 건들지 않고 처리한 건", "사고 났던 공사, 감사결과 뭐였어?", "직원 뽑아놓고 교육 안 한 건 요약해줘"):
        assert not asks_for_several(one), one
    assert asks_for_several("두 건 비교해서 정리해줘") and asks_for_several("노후장비 교체 건이랑 패치 연동 건 요약해줘")
    assert asks_for_several("부산지방항공청장을 조치 주체로 지정한 건이 몇 건이고 각각 내용이 뭐야?")  # each one's content
    assert not asks_for_several("각각 다른 기관이 한 일이 뭐야?") and not asks_for_several("징계 요구랑 주의 요구 각각의 내용이 뭐야?")
    assert asks_for_several("몇 건이나 돼? 각각 뭐야") and asks_for_several("가람시 감사받은 거 있으면 건별로 한 줄씩")
    assert not asks_for_several("물건별로 나눠서 계약한 사례") and not asks_for_several("사건마다 다른 처분")
    assert asks_for_several("지적사항별로 정리해줘") and not asks_for_several("그 건 별로 중요하지 않은데 처분은?")
    assert not asks_for_several("관리 안 한 군이랑 떠넘긴 중앙부처는 각각 어떤 처분 받았어?")  # each of those it names


def test_a_summary_of_several_findings_says_how_many_and_gives_each_a_demand():
    docs = _finding_docs() + [{**doc(5, "F3"), "section": "actions",
                               "text": "가람시장은 물품 대장을 정비하시기 바랍니다.(통보)"}]
    answer = analyst.analyze_documents("물품 구매 건들 정리해줘", docs, "").sentences
    assert answer[0].text.startswith("3건(\"") and "외 2건" in answer[0].text
    third = next(i for i, s in enumerate(answer) if s.text.startswith("3. "))
    assert answer[third + 1].text.strip().startswith("- 조치할 사항") and answer[third + 1].citations == [5]
    alone = analyst.analyze_documents("물품 구매 부적정 사례 있어?", docs, "").sentences
    third = next(i for i, s in enumerate(alone) if s.text.startswith("3. "))
    assert third == len(alone) - 1  # one case asked for: the third finding is a card only


def test_several_findings_show_a_closing_formula_they_share_once():
    same = "가람시장은 앞으로 관련 업무를 철저히 하시기 바랍니다.(주의)"
    docs = [*_finding_docs()[:3], {**doc(4, "F2"), "section": "actions", "text": same}, {**doc(5, "F3"), "section": "actions", "text": same}]
    answer = analyst.analyze_documents("물품 구매 부적정 사례들 모아줘", docs, "").sentences
    assert sum(same.split("(")[0] in s.text for s in answer) == 1  # shown for the second finding, not again for the third
    assert [s.citations for s in answer if re.match(r"\d\. ", s.text)] == [[1], [4], [5]]


def test_a_fast_track_list_names_up_to_ten_findings():
    rows = [[f"F{i}", f"지적 {i}"] for i in range(12)]
    text = analyst.analyze_sql("지적사항 목록", {"columns": ["id", "title"], "rows": rows}).sentences[0].text
    assert "지적 9;" not in text and "지적 9 외 2건" in text and "지적 10" not in text
    # the list stops at its limit; the count is of every finding that matches
    rows = [[f"F{i}", f"지적 {i}", 69] for i in range(50)]
    text = analyst.analyze_sql("지적사항 목록", {"columns": ["id", "title", "total_count"], "rows": rows}).sentences[0].text
    assert text.startswith("69건을 찾았습니다") and "지적 9 외 59건" in text


def test_grader_keeps_a_finding_the_user_pointed_at():
    pointed = {**doc(1, "F1"), "score": 1.0, "dense_score": None, "lexical_score": None}
    assert grader.grade("그 건 자세히", [pointed]).grades[0].relevant


def test_evidence_is_grouped_by_finding_best_first():
    hits = [Evidence(chunk_id=f"h{i}", report_id="r", finding_id=f, section="problems", page=1, text="t", score=s)
            for i, (f, s) in enumerate([("F2", 0.9), ("F1", 0.8), ("F2", 0.7)])]
    ranked = [RankedFinding("F1", 0.99, {}), RankedFinding("F2", 0.6, {}), RankedFinding("F3", 0.5, {})]
    extra = {"F3": [Evidence(chunk_id="x3", report_id="r", finding_id="F3", section="problems", page=2, text="t")]}
    out = evidence_for(ranked, hits, extra, 8)
    assert [e.chunk_id for e in out] == ["h1", "h0", "h2", "x3"]
    assert [e.finding_score for e in out] == [0.99, 0.6, 0.6, 0.5]


def test_expand_adds_each_findings_sections_after_its_passages():
    found = [doc(1, "F1"), doc(2, "F2")]
    stored = [{**doc(10, "F1"), "section": "actions"}, {**doc(11, "F2"), "section": "criteria"}, {**doc(1, "F1")},
              {**doc(12, "F9"), "section": "actions"}]
    assert [d["chunk_id"] for d in expand(found, stored)] == ["c1", "c10", "c2", "c11"]


def test_the_kind_of_question_from_how_auditors_ask():
    asked = {
        "그중에 미디어 홍보관 건 처분 머였어": "disposition",  # '머' as auditors type '뭐'
        "what was the disposition": "disposition",
        "징계 받았어?": "disposition",
        "해양수산부 관련해서 지적된 거 있어?": "institution",
        "행정안전부가 받은 처분요구 뭐뭐 있었지?": "institution",
        "LH 관련 지적사항 있어?": "institution",  # a Latin short form
        "SW 관련 지적된 거 있어?": "similar_cases",  # an acronym that names no institution
        "장비 납품 지연 관련 지적사항 있어?": "similar_cases",  # no institution named: a pattern
        "What legal provisions apply when a city pays subsidies twice?": "legal_basis",
        "보조금 정산 규정이 어디 있어?": "legal_basis",
        "보조금 이중 지급 건 짧게 정리": "summary",
        "이런 경우 처분은 보통 어떻게 나와?": "disposition",
        "장관에게 기준을 만들라고 통보한 건?": "actions",
        "Show me cases where auditors told an agency to recover the money": "actions",
        # follow-ups as auditors ask them: which of two dispositions, how far it went, what the case shown demanded
        "거긴 주의야 통보야?": "disposition", "통보였어 주의였어": "disposition", "농취증 부실 발급 건 고발까지 갔어?": "disposition",
        "그 직원은 주의 촉구로 끝난 거야?": "disposition", "그 건 처분은": "disposition", "did anyone get a caution": "disposition",
        "부산광역시 조례는 어떻게 바꾸래": "actions", "부산시는 뭘 고치라는 거였지": "actions", "병무청은 뭘 해야 돼": "actions",
        "전남도 쪽 요구사항은": "actions", "환경부 상대로는 보조금 기준을 어떻게 바꾸라는 요구였어?": "actions", "What exactly is Busan supposed to change?": "actions", "what actions were required?": "actions",
        # not reported speech, a reason, or what something was supposed to be
        "중간에 멈춘 사업은 왜 멈춘 거래?": "similar_cases", "처분 대상자가 누구래": "similar_cases",
        "해수부가 500억 이상으로만 묶은 게 왜 문제라는 거야": "similar_cases",
        "Any cases where a regulator failed to impose the fines it was supposed to levy?": "similar_cases",
        # first-turn pattern questions in the same words: requests, '없이', other senses of caution, disposition, remedy
        "입찰 담합 사례 좀 찾아줄래?": "similar_cases", "행정처분 없이 넘어간 사례 있어?": "similar_cases",
        "시스템 개선으로 가격이 오른 사례": "similar_cases", "금품을 요구했던 사례": "similar_cases", "설계 요구사항을 충족 못한 사례": "similar_cases",
        "cases where officials failed to exercise caution": "similar_cases", "improper disposition of state-owned land": "similar_cases",
        "Any cases that have to do with land compensation?": "similar_cases", "failed to remedy known defects": "similar_cases",
        "What was the agency cautioned to do?": "actions", "처분이 있었어?": "disposition",
        # a legal basis the auditors demanded be made is a demand; which law it is to go in is a legal-basis question
        "업자를 제재할 법적 근거나 수단을 새로 만들라고 한 지적이 있었지?": "actions", "무슨 법에 근거 만들라는거": "legal_basis",
        "법적 근거를 명확히 하라고 한 지적 있어?": "actions", "근거 규정을 두도록 요구한 사례": "actions",
        "Which finding told the ministry to create a legal basis for sanctions?": "actions",
    }
    assert {q: question_kind(q) for q in asked} == asked
    # what was addressed to an organisation asks for its findings
    for q in ("과기정통부 앞으로 나온 처분요구 전부 보여줘", "전남도청에 떨어진 처분요구는 어떤 게 있었지?", "행안부한테 떨어진 주문은?",
              "그 건 말고 해수부에 내려진 조치 다 보여줘", "국토부가 처분요구 받은 것들 목록"):
        assert question_kind(q) == "institution", q
    for q in ("감사에 나온 처분요구 다 보여줘", "그 건에서 해수부에 내려진 조치는 뭐야?", "그 사업에서 해수부에 떨어진 조치 뭐였지?",
              "행안부 앞으로 나온 요구도 같이 봐줘"):
        assert question_kind(q) != "institution", q  # an audit's, or of the case shown
    assert question_kind("그 지적 법적 근거가 뭔지, 그리고 뭘 보완하라고 했는지 알려줘") == "legal_basis"  # the basis asked first
    for q in ("법적 근거 없이 수당을 만들어 지급한 사례", "법적 근거도 없이 위원회를 두도록 조례를 만든 건",
              "법적 근거도 없이 입찰 참가자격을 중소기업만 되게 묶어서 공고 낸 케이스 있나", "객관적 근거 안 보고 대상지를 뽑은 사례들",
              "Any cases where bidding was limited to small firms without any legal basis?"):
        assert question_kind(q) == "similar_cases", q  # a basis the case lacked is its pattern: neither a demand nor a question of which law
    for q in ("근거 없이 중소기업으로 제한한 건, 위반한 법 조항은 뭐야?", "법적 근거가 없다고 본 이유와 근거 법령 알려줘",
              "법적 근거는 없었어?", "그럼 법적 근거가 없는 거야?", "Was it done without any legal basis?"):
        assert question_kind(q) == "legal_basis", q  # which law, asked beside it; or whether it had a basis at all
    for q in ("근거 규정이 없는데도 수당 지급한 사례 있어?", "Any cases where a fee was paid with no legal basis?"):
        assert question_kind(q) == "similar_cases", q
    for q in ("법적 근거 마련 방안이 뭐였어?", "법적 근거를 명확히 하라는 지적 있어?"):
        assert question_kind(q) == "actions", q


def test_the_first_findings_demands_are_shown_whole_with_their_disposition():
    demand = ("① 계약 서류를 검토하지 않고 " + "물품 대금을 지급한 " * 12 + "사실을 확인하여 관련 대금을 회수하는 방안을 마련하시기 바랍니다.(통보)")
    docs = _finding_docs()
    docs[2] = {**docs[2], "text": "감사원은 다음과 같이 조치할 사항을 정한다.\n가람시장은\n" + demand + "\n" + ACTIONS.split("\n", 1)[1]}
    assert len(demand) > quotes.MAX_CHARS  # the plain quote would cut it before the demand
    for question in ("어떤 조치를 요구했어?", "물품 구매 부적정 사례 있어?"):
        lines = [s.text for s in analyst.analyze_documents(question, docs, "").sentences if "- 조치할 사항" in s.text]
        assert any("회수하는 방안을 마련하시기 바랍니다.(통보)" in t for t in lines), question
        assert lines[0].startswith("   - 조치할 사항(가람시장): ")  # whom the block is addressed to, once
        assert any("② 관련자에게는 주의를 촉구하시기 바랍니다.(주의)" in t for t in lines), question
        assert not any("감사원은 다음과 같이" in t for t in lines), question  # the preface is no demand


def test_demands_say_whom_they_are_addressed_to_and_the_one_asked_about_comes_first():
    actions = ("병무청장은\n① 실태조사 방법을 개선하는 방안을 마련하고\n② 관련 업무를 철저히 하시기 바랍니다.(주의)\n"
               "보건복지부장관은\n① 공중보건의사제도 운영지침을 개정하는 방안을 마련하며\n② 관련 업무를 철저히 하시기 바랍니다.(통보)")
    docs = _finding_docs()
    docs[2] = {**docs[2], "text": actions}
    answer = analyst.analyze_documents("복지부한테 지침 개정하라고 한 건 뭐였어?", docs, "")
    lead, lines = answer.sentences[0].text, [s.text for s in answer.sentences if "- 조치할 사항" in s.text]
    assert "감사원은 보건복지부장관에게" in lead and "병무청장" not in lead
    assert lines[0].startswith("   - 조치할 사항(보건복지부장관): \"① 공중보건의사제도 운영지침을 개정")
    assert any(t.startswith("   - 조치할 사항(병무청장): ") for t in lines[2:])  # the other block after it, labelled
    assert not any("보건복지부장관은" in t for t in lines)  # a demand ends where the next block begins
    plain = analyst.analyze_documents("어떤 조치를 요구했어?", docs, "")
    assert "병무청장, 보건복지부장관에게" in plain.sentences[0].text  # nobody named: every addressee, in order
    for s in answer.sentences:
        for n in s.citations:
            assert not s.quote or squash(s.quote) in squash(docs[n - 1]["text"]) or s.quote == docs[n - 1].get("finding_title")


def test_a_wrapped_line_is_no_addressee_and_short_forms_name_one():
    from app.policies.offline.analyst import addressed_in

    text = ("보건복지부장관은\n① 지침을 개정하는 방안을 마련하고 보건소\n소장은 점검을 하며 관련 업무를 철저히 하시기 바랍니다.(통보)\n"
            "병무청장은\n① 관련 업무를 철저히 하시기 바랍니다.(주의)")
    assert [who for _, who in quotes.addressees(text)] == ["보건복지부장관", "병무청장"]
    assert addressed_in("국토교통부장관", "국토부한테 뭐라고 했어?") and addressed_in("한국토지주택공사 사장", "LH한테 요구한 거")
    assert not addressed_in("행정안전부장관", "안전 부실 사례") and not addressed_in("기획재정부장관", "재정 부담이 큰 사업")


def test_an_addressee_closing_a_chunk_opens_the_next_chunks_block():
    from app.policies.offline.analyst import Case, addressed_in, demand_quotes

    first = {**doc(1, "F1"), "chunk_id": "a1", "section": "actions",
             "text": "해양수산부장관은\n관리업무를 철저히 하시기 바랍니다.(통보)\n선박해양플랜트연구소장은"}
    second = {**doc(1, "F1"), "chunk_id": "a2", "section": "actions",
              "text": "① 연구개발과제 수행 관련자를 징계하는 방안을 마련하시기 바랍니다.(통보)"}
    items = demand_quotes(Case("F1", [(1, first), (2, second)]), "")
    assert [who for _, _, who in items] == ["해양수산부장관", "선박해양플랜트연구소장"]
    assert addressed_in("선박해양플랜트연구소장", "HNS 건 연구소장한테 뭐 하라고 했어")  # its title with the end of its name
    assert not addressed_in("보건복지부장관", "장관한테 뭐라 했어")  # a bare title names nobody


def test_an_institution_lead_names_the_institution_asked_about():
    base = {**doc(1, "F1"), "institutions": ["가람시"]}
    docs = [{**base, "chunk_id": "p1", "section": "problems", "text": PROBLEMS},
            {**base, "chunk_id": "a1", "section": "actions",
             "text": "가람시장은\n① 앞으로 물품 구매 업무를 철저히 하시기 바랍니다.(주의)\n한국나라공사 사장은\n② 출자 협약을 다시 맺으시기 바랍니다.(통보)"}]
    assert question_kind("한국나라공사 관련 지적사항 있어?") == "institution"
    lead = analyst.analyze_documents("한국나라공사 관련 지적사항 있어?", docs, "").sentences[0].text
    assert lead.startswith("한국나라공사 관련 지적사항 1건을 찾았습니다")  # addressed in the 조치할 사항, not the finding's 가람시
    assert analyst.analyze_documents("가람시 관련 지적사항 있어?", docs, "").sentences[0].text.startswith("가람시 관련")


def test_a_near_miss_is_led_as_the_closest_case_not_as_one_of_the_same_type():
    docs = [{**doc(1, "F1"), "chunk_id": "p1", "section": "problems", "text": PROBLEMS}]
    question = "가람시 물품 구매 비리 사례 있어?"
    assert analyst.analyze_documents(question, docs, "").sentences[0].text.startswith("질문과 같은 유형의 사례 1건을 찾았습니다")
    near = [{**docs[0], "unmatched": ["비리"]}]
    lead = analyst.analyze_documents(question, near, "").sentences[0].text
    assert lead.startswith('질문과 가장 가까운 사례는 "') and "같은 유형" not in lead


def test_an_institution_the_findings_only_mention_is_named_as_mentioned_and_the_answer_is_useful():
    base = {**doc(1, "F1"), "institutions": ["가람시"]}
    docs = [{**base, "chunk_id": "p1", "section": "problems",
             "text": "그런데 가람시는 나라교통안전공단이 통보한 점검 결과를 반영하지 않고 사업을 추진하였다."},
            {**base, "chunk_id": "a1", "section": "actions", "text": "가람시장은\n① 앞으로 점검 결과를 반영하시기 바랍니다.(주의)"}]
    question = "나라교통안전공단이 언급된 감사 지적 있어?"
    assert question_kind(question) == "institution" and question_kind("나라교통안전공단 관련해서 보고서에 나오는 거 있어?") == "institution"
    answer = analyst.analyze_documents(question, docs, "")
    assert answer.sentences[0].text.startswith('나라교통안전공단 관련 내용이 나오는 지적사항 1건을 찾았습니다: "')
    assert "(가람시 대상)" in answer.sentences[0].text  # whom the finding is about, not '가람시 관련 지적사항'
    v = verifier.verify(question, answer, docs)
    assert v.grounded and v.useful, v.reasoning  # '언급된' frames the request; the name is what must be covered
    # a question about the finding's own institution keeps the plain lead
    assert analyst.analyze_documents("가람시 관련 지적사항 있어?", docs, "").sentences[0].text.startswith("가람시 관련 지적사항 1건")
    # an agency asked for by its English acronym is named by its Korean name
    kepco = [{**d, "text": d["text"].replace("나라교통안전공단", "한국전력공사")} for d in docs]
    lead = analyst.analyze_documents("Is KEPCO involved in any of the findings?", kepco, "").sentences[0].text
    assert lead.startswith("1 finding(s) mention 한국전력공사"), lead
    # nor is a finding about it by a longer name, or a question about its own findings, a mention
    gwangsan = [{**d, "institutions": ["광주광역시 광산구"]} for d in docs]
    for q in ("광산구가 언급된 지적 있어?", "광산구 관련 지적사항 있어?"):
        assert "관련 내용이 나오는" not in analyst.analyze_documents(q, gwangsan, "").sentences[0].text
    # nor when a case shown does not name it (a search the mention did not scope): the count would be wrong
    other = {**doc(2, "F2"), "chunk_id": "p2", "section": "problems", "institutions": ["가람시"], "text": "가람시는 계약을 부당하게 체결하였다."}
    lead = analyst.analyze_documents(question, [*docs, other], "").sentences[0].text
    assert "관련 내용이 나오는" not in lead


def test_a_question_about_where_an_organisation_appears_is_told_from_one_about_its_audit_or_a_pattern():
    from app.policies.offline.intent import asks_for_mentions

    for q in ("전남 장흥군이 언급된 감사 지적 있어?", "김포시 관련해서 보고서에 나오는 거 있어?", "한국해양교통안전공단이 나오는 지적사항 보여줘",
              "장흥군을 언급한 지적 있어?", "장흥군에 대한 언급이 있는 지적", "장흥군 얘기 나오는 거 있어?",
              "산업은행이 끼어 있는 지적사항 있어?", "한국산업은행이 연루된 지적 있어?",
              "고용노동부가 끼어 있는 지적사항 있어?", "행정안전부가 연루된 지적 있어?",  # a ministry by its official name
              "Is KEPCO involved in any of the findings?",  # an agency by its acronym alone
              "Which findings mention 장흥군?", "Do the reports mention 김포시?", "Is the Korea Electric Power Corporation involved in any finding?",
              "What role does the Korea Maritime Transportation Safety Authority play in the findings?"):
        assert asks_for_mentions(q) and question_kind(q) == "institution", q
    for q in ("영광군 감사에서 나온 지적사항 있어?", "전남 영광군 감사 결과도 있어?", "김포시에서 공사비 부풀린 사례 나온 거 있어?",
              "한국해양교통안전공단 직원이 뇌물 받은 사례 나온 거 있어?", "아까 나온 거 말고 김포시 사례는?",
              "Which findings involved bid rigging by contractors hired by the Public Procurement Service?",
              "담당공무원이 연루된 횡령 사례 찾아줘", "심의위원회가 끼어 있는 사례",  # involvement of people, of a kind of body
              "조달청이 끼인 입찰 담합 사례 찾아줘", "산업은행이 연루된 부당대출 사례 있어?"):  # a pattern the organisation is part of
        assert not asks_for_mentions(q), q
    assert question_kind("김포시에서 공사비 부풀린 사례 나온 거 있어?") != "institution"


def test_a_table_row_and_its_source_line_are_not_quoted_and_a_footnote_is_an_aside():
    text = ("그런데 행정안전부는 데이터 품질을 점검하지 않았다.\n8) ｢한국공항공사법｣ 제4조 제2항에 따르면 국가는 현물로 출자할 수 있도록 되어 있음\n"
            "▪ 오류 식별이 가능하여 일괄 수정 합계 469 107 27 18 자료: 행정안전부 제출자료 재구성\n또한 개발원은 통합테스트 등 검증업무를 면밀히 수행하지 않았다.")
    qs = quotes.sentences(text)
    assert [q.text for q in qs] == ["그런데 행정안전부는 데이터 품질을 점검하지 않았다.",
                                    "｢한국공항공사법｣ 제4조 제2항에 따르면 국가는 현물로 출자할 수 있도록 되어 있음",
                                    "또한 개발원은 통합테스트 등 검증업무를 면밀히 수행하지 않았다."]
    assert [q.footnote for q in qs] == [False, True, False]
    terms = key_terms("한국공항공사 현물 출자")
    assert quotes.narrative_weight(terms, set(), qs[1], False) < quotes.narrative_weight(terms, set(), replace(qs[1], footnote=False), False)
    assert quotes.weight(terms, set(), qs[1], "criteria") < quotes.weight(terms, set(), replace(qs[1], footnote=False), "criteria")
    # '재구성' outside a source line ends nothing; a numbered item of the body is no footnote; numbers in a list are no table
    body = quotes.sentences("국자원은 2023년 조직을 재구성\n하였으나 이를 보고하지 않았다.\n1) 반응계수 입력 부적정 환경부는 계수를 잘못 입력하였다.\n"
                            "제7조 제1, 2, 3, 4호에 해당하는 사업을 지원하였다.\n40) 0등급은 시스템 사용이 불가능한 장애에 해당함\n"
                            "구분 1등급 2등급 자료: 행정안전부 제출자료 재구성\n그리고 국자원은 장애 등급을 낮게 분류하였다.")
    assert [(q.text, q.footnote) for q in body] == [
        ("국자원은 2023년 조직을 재구성하였으나 이를 보고하지 않았다.", False), ("반응계수 입력 부적정 환경부는 계수를 잘못 입력하였다.", False),
        ("제7조 제1, 2, 3, 4호에 해당하는 사업을 지원하였다.", False), ("0등급은 시스템 사용이 불가능한 장애에 해당함", True),
        ("그리고 국자원은 장애 등급을 낮게 분류하였다.", False)]


def test_an_article_number_a_line_break_split_is_shown_whole():
    text = "｢공중위생관리법 시행령｣ 제2조 제1항 및 제4\n조에 따르면 숙박업은 공중위생영업이고, 같은 법 시행규칙 제\n19조에 따라 제재한다. 그런데 실제\n105건을 제재하지 않았다."
    shown = [q.text for q in quotes.sentences(text)]
    assert "제4조에 따르면" in shown[0] and "시행규칙 제19조에" in shown[0]
    assert "실제 105건을" in shown[1]  # '제' ending a word is no article
    assert quotes.laws(text)[0] == "｢공중위생관리법 시행령｣ 제2조 제1항 및 제4조"


def test_findings_beyond_the_cards_are_named_and_counted_in_the_lead():
    docs = [doc(n, f"F{n}") for n in range(1, 8)]
    answer = analyst.analyze_documents("계약 부당 체결 사례들 모아줘", docs, "").sentences
    assert answer[0].text.startswith("질문과 같은 유형의 사례 7건을")
    assert len([s for s in answer if re.match(r"\d\. ", s.text)]) == analyst.MAX_CARDS
    assert answer[-1].text.startswith("이 밖에 관련 지적사항 2건: \"지적 F6\"; \"지적 F7\"") and answer[-1].citations == [6, 7]
    dispositions = analyst.analyze_documents("계약 부당 체결하면 처분 수위는?", docs, "").sentences
    assert dispositions[0].text.startswith("유사한 선례 7건 중 5건(")
    many = [doc(n, f"F{n}") for n in range(1, 13)]
    beyond = analyst.analyze_documents("List all the contract findings", many, "").sentences[-1]
    assert beyond.text.startswith("7 more related finding(s): \"지적 F6\";") and " and 2 more [6][7][8][9][10]" in beyond.text
    assert beyond.citations == [6, 7, 8, 9, 10]

