"""The audit graph on the 12 real reports, offline: a multi-turn thread as an auditor would
run it, and answer grounding on real evidence."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from sqlalchemy import func, select

from app.agent.runner import Agent
from app.agent.tools import AgentTools
from app.db.models import Chunk, Finding, FindingDisposition
from app.policies.offline.quotes import fold
from app.retrieval.filters import SearchFilters
from app.retrieval.wrongdoing import asked_either, asked_wrongdoing
from app.text.footnotes import without_footnote_marks

pytestmark = pytest.mark.slow

HAEUNDAE = "jj20250925_091048"
MOF = "jj20251107_090042"


@pytest.fixture(scope="module")
def agent(real_services):
    return Agent(real_services, checkpointer=InMemorySaver())


def _norm(text: str) -> str:
    """Whitespace and the kind of quote mark aside: a displayed quote joins words a PDF line
    break split and shows a passage's “ ” as ‘ ’ (app.policies.offline.quotes); it also leaves
    out footnote references, so it is looked for in the passage without them too."""
    return fold(text)


def _assert_grounded(services, result):
    """Every citation's quote is in the chunk it cites; every answer sentence carries one."""
    assert result["evidence"], result["answer"]
    with services.sessions() as s:
        for e in result["evidence"]:
            chunk = s.get(Chunk, e["chunk_id"])
            source = chunk.heading + chunk.text
            assert e["quote"] and _norm(e["quote"]) in _norm(source) + "\n" + _norm(without_footnote_marks(source)), e


def test_auditor_thread(agent, real_services):
    thread = "auditor-1"
    r = agent.ask("안녕하세요", thread)
    assert r["track"] == "chat" and "AURA" in r["answer"]

    r = agent.ask("주의 처분은 모두 몇 건이야?", thread)
    assert r["track"] == "fast" and r["sql"]["rows"]
    with real_services.sessions() as s:
        expected = s.scalar(select(func.count(func.distinct(FindingDisposition.finding_id))).where(FindingDisposition.disposition == "주의"))
    assert r["sql"]["rows"][0][0] == expected
    assert f"{expected}건" in r["answer"]

    r = agent.ask("해운대구 도시건축공동위원회 위원 제척 문제 분석해줘", thread)
    assert r["track"] == "deep"
    assert {e["finding_id"] for e in r["evidence"]} & {f"{HAEUNDAE}-F01", f"{HAEUNDAE}-F02"}
    assert r["evidence"][0]["finding_id"].startswith(HAEUNDAE)
    assert r["verification"]["grounded"]
    _assert_grounded(real_services, r)
    first_finding = r["evidence"][0]["finding_id"]

    r = agent.ask("첫 번째 지적사항의 조치할 사항은?", thread)
    assert r["track"] in ("fast", "deep")
    state = agent.graph.get_state(agent._config(thread)).values
    assert state["follow_up"] and not state["pivot"] and state["references"] == [first_finding]
    assert {e["finding_id"] for e in r["evidence"]} == {first_finding}
    assert any(e["section"] == "actions" for e in r["evidence"])
    assert "바랍니다" in r["answer"]

    r = agent.ask("해양수산부 정기감사에서 지적된 문제는 뭐야?", thread)
    state = agent.graph.get_state(agent._config(thread)).values
    assert r["track"] == "deep" and state["pivot"]
    assert all(d["report_id"] == MOF for d in state["retained_documents"])
    assert r["evidence"] and all(e["finding_id"] is None or e["finding_id"].startswith(MOF) for e in r["evidence"])
    _assert_grounded(real_services, r)

    r = agent.ask("보고서 초안 작성해줘", thread)
    assert r["track"] == "report" and r["report"]["status"] == "ready"
    draft = r["report"]["draft"]
    assert draft["findings"] and all(f.startswith(MOF) for f in draft["findings"])
    assert {s["key"] for s in draft["sections"]} >= {"findings", "criteria", "actions"}
    assert all(s["text"] for s in draft["sections"] if s["key"] in ("findings", "actions"))


def test_report_without_context_asks_for_what_is_missing(agent):
    r = agent.ask("감사보고서 초안 만들어줘", "fresh-report")
    assert r["track"] == "report" and r["report"]["status"] == "needs_info"
    assert "institution" in r["report"]["missing"]


@pytest.mark.parametrize(
    "question",
    [
        "도시재생사업에서 집수리 사업비를 부당하게 지원한 사례",
        "데이터센터 전력수요 예측이 왜 문제가 됐어?",
        "울릉공항 케이슨 공사 관리감독은 어떻게 부실했나?",
        "어선 출항 통제가 부적정했던 이유",
        "Why was the committee member exclusion in Haeundae improper?",
    ],
)
def test_deep_answers_cite_every_sentence_with_exact_quotes(agent, real_services, question):
    r = agent.ask(question, f"grounding-{hash(question)}", mode="deep")
    _assert_grounded(real_services, r)
    state = agent.graph.get_state(agent._config(f"grounding-{hash(question)}")).values
    assert all(s["citations"] for s in state["sentences"])
    assert r["llm_calls"] == 0 and {s.get("policy") for s in r["steps"]} <= {"offline", None}


def test_that_case_follow_up_stays_on_the_case_and_a_new_topic_pivots(agent):
    thread = "auditor-follow-up"
    r = agent.ask("보건지소 공보의가 진료시간에 관사에서 쉬거나 병가를 한도 넘게 쓴 사례 있어?", thread)
    assert r["coverage"] == "full"
    case = r["evidence"][0]["finding_id"]
    r = agent.ask("그 건에 대해 감사원이 요구한 조치는?", thread)
    assert r["coverage"] == "full" and r["evidence"][0]["finding_id"] == case
    assert "조치할 사항" in r["answer"]
    r = agent.ask("근거 조항은?", thread)  # another facet of the same case, no pronoun
    assert r["evidence"][0]["finding_id"] == case
    r = agent.ask("해수욕장 모래사장에 가설건축물로 음식점 짓게 허가해 준 사례", thread)
    assert r["evidence"][0]["finding_id"] != case
    assert any(s["node"] == "route" and "pivot" in s["summary"] for s in r["steps"])


def test_a_question_going_back_past_a_pivot_finds_the_case_from_before(agent):
    thread = "auditor-goes-back"
    r = agent.ask("상수도 관망 정밀조사 해놓고 결과를 안 쓴 사례 있어?", thread)
    case = r["evidence"][0]["finding_id"]
    r = agent.ask("데이터센터 전력수요 예측 잘못한 지적 알려줘", thread)
    assert r["evidence"][0]["finding_id"] != case
    r = agent.ask("아까 상수도 관망 건은 처분이 뭐였어?", thread)
    assert r["coverage"] == "full" and r["evidence"][0]["finding_id"] == case
    assert any(s["node"] == "route" and "earlier case" in s["summary"] for s in r["steps"])


def test_a_return_to_a_case_from_before_a_decline_is_followed_by_its_words(agent):
    thread = "auditor-returns-after-decline"
    taxi = agent.ask("강릉 택시 감차보상 지급 건, 처분 대상이 누구누구였어?", thread)["evidence"][0]["finding_id"]
    agent.ask("양양군 해변에 가설건축물 짓게 공유수면 점용허가 내준 건은?", thread)
    assert agent.ask("강원도 2018회계연도 결산 때도 재무제표 오류가 지적됐었나?", thread)["coverage"] == "none"
    # it names the case only by a place and a word of it ('강릉 건', '택시'): the case from before is the one they match
    r = agent.ask("강릉 건으로 돌아가서, 택시 한 대당 보상금은 얼마였지?", thread)
    assert r["evidence"][0]["finding_id"] == taxi
    assert any(s["node"] == "route" and "earlier case" in s["summary"] for s in r["steps"])


def test_an_institution_framed_by_scope_words_gets_its_own_findings(agent, real_services):
    tools = AgentTools(real_services, real_services.policies)
    framed = ("법무부를 상대로 나온 감사 결과가 있어? 있으면 무슨 내용이고 뭘 하라고 했어?",
              "광역 단위인 전라남도가 조치 주체로 지정된 지적사항 있으면, 도지사한테 떨어진 요구가 뭐였는지까지")
    for q in framed:
        assert tools.pattern_nouns(q) == set(), q  # '상대', '광역', '단위', '주체', '지정', '도지사': its scope, no pattern
    r = agent.ask(framed[0], "framed-1")  # the one finding about 법무부, not its report's others
    assert r["coverage"] == "full" and r["evidence"][0]["finding_id"] == "jj20251017_173842-F02"
    r = agent.ask(framed[1], "framed-2")  # nor declined: the framing words are no pattern the answer lacks
    assert r["coverage"] == "full" and r["evidence"][0]["finding_id"] == "jj20250924_101118-F11"


def test_questions_the_reports_cannot_answer_are_declined(agent):
    r = agent.ask("한국도로공사 감사에서 지적된 사항 알려줘", "decline-1")
    assert r["coverage"] == "none" and "한국도로공사" in r["answer"].split("\n")[0]
    r = agent.ask("2019년 감사원 담양군 정기감사에서 지적된 거 뭐 있었어?", "decline-2")
    assert r["coverage"] == "none" and "2019년" in r["answer"].split("\n")[0]
    assert "가장 관련" not in r["answer"] and r["verification"] is None


def test_after_a_decline_the_same_question_without_its_year_is_a_follow_up(agent, real_services):
    thread = "relax-1"
    r = agent.ask("2022년 해수부 감사에서 항만 사용료 지적된거 있어", thread)
    assert r["coverage"] == "none" and "2022년" in r["answer"].split("\n")[0]
    r = agent.ask("연도 상관없이 찾아줘", thread)
    route = next(s for s in r["steps"] if s["node"] == "route")
    assert "follow-up" in route["summary"] and r["coverage"] != "none"
    assert r["evidence"][0]["finding_id"].startswith(MOF)  # the 해양수산부 report, its 항만시설 사용료 finding
    assert "사용료" in r["answer"].split("\n")[0] or "사용료" in r["answer"].split("\n")[1]
    _assert_grounded(real_services, r)


def test_an_english_question_weighs_the_glossarys_korean_terms_not_its_unused_english_words(agent, real_services):
    tools = AgentTools(real_services, real_services.policies)
    question = "Which audit found a province's financial statements leaving out assets?"
    terms = tools.query_terms(question)
    assert "재무제표" in terms and not {"which", "province", "leaving"} & terms  # no report uses these words
    # no topical glossary term: the English words stay (nothing better to weigh)
    assert "kickbacks" in tools.query_terms("Any cases of officials taking kickbacks?")
    r = agent.ask(question, "english-1")
    assert r["evidence"][0]["finding_id"] == "jj20251017_173128-F03"  # 재무제표 작성 부실, 강원특별자치도


def test_an_institution_question_presents_its_own_findings_not_its_reports_others(agent):
    r = agent.ask("곡성군의회 관련해서 지적된 거 있어?", "own-1")
    # the one finding about 곡성군의회 is withheld from publication (■■): that is what is shown, not the
    # other findings of the report that lists 곡성군의회 among its institutions
    assert {e["finding_id"] for e in r["evidence"]} == {"jj20250924_101118-F01"}
    assert "비공개" in r["answer"]


def test_an_institutions_findings_asked_for_as_such_are_all_listed(agent, real_services):
    index = real_services.finding_ranker.index
    own = {p.id for p in index.all_profiles() if "해양수산부" in p.own_institutions}
    assert len(own) > 5  # more than the five best findings a question about a pattern gets
    r = agent.ask("해수부가 지적받은 건들 정리해줘", "listing-1")
    cited = {e["finding_id"] for e in r["evidence"] if e.get("finding_id")}
    assert cited == own and r["answer"].startswith(f"{len(own)}건(")
    # with a pattern, the institution's findings that match it, not all of them
    r = agent.ask("해수부 감정평가 관련 지적 뭐 있어?", "listing-2")
    assert 0 < len({e["finding_id"] for e in r["evidence"] if e.get("finding_id")}) < len(own)


def test_what_a_follow_up_asks_the_reports_also_told_of_in_words_none_uses_is_untold(agent, real_services):
    tools = AgentTools(real_services, real_services.policies)
    assert "해파리" in tools.untold("그 해변에서 해파리 쏘임 사고 대비해 안전요원 안 둔 것도 지적됐어?")
    assert tools.untold("그 사업에서 하수슬러지 처리시설 국비 지원 기준도 같이 문제 삼았어?") == ["하수슬러지"]
    assert tools.untold("그 지도자들 중에 도핑으로 징계받은 사람도 있었어?") == ["도핑"]
    assert tools.untold("거기서 해파리 얘기도 나와?") == ["해파리"]  # as written, not the 파리 Kiwi reads in it
    assert tools.untold("그 건 직원이 해파리에 쏘인 것도 지적됐어?") == ["해파리"]
    for q in ("같은 문체부 정기감사에 허가 없이 부업 뛴 직원 얘기도 있었지?",  # a short form the catalog knows, a glossary synonym
              "그 건에서 환수 얘기도 나왔어?", "그때 빠진 구의원 둘은 누구고 어느 당이었는지도 나와?", "해파리 떼 출몰 사례 있어?",
              "그 건에서 윗선 얘기도 나와?", "재난지원 제도 있었어?", "처분 정도 나와?", "그 행사에 외교부 얘기도 나와?"):
        assert tools.untold(q) == [], q  # words the reports use, who in the case, no 'also told of' asked, an organisation (a scope gap)
    r = agent.ask("태풍 특보 내려도 해양파출소가 배 못 나가게 막을 세부 절차가 없어서 문자 한 통 보내고 끝낸 사례 있어?", "untold-1")
    assert r["coverage"] in ("full", "partial")
    r = agent.ask("그 점검에서 해녀 물질 조업 안전관리 얘기도 나와?", "untold-1")
    assert r["coverage"] == "none" and "해녀" in r["answer"]  # the case shown does not answer it, nor does any report


def test_what_was_addressed_to_an_institution_lists_its_findings(agent, real_services):
    tools = AgentTools(real_services, real_services.policies)
    # the scope's frame and the request's words state no pattern: the institution's findings are what is asked
    for q in ("과기정통부 앞으로 나온 처분요구 전부, 보고서 상관없이 모아서 보여줘", "시군 감사 말고 광역 단위로 보면, 전남도청에 떨어진 처분요구는 어떤 게 있었지?"):
        assert tools.pattern_nouns(q) == set(), q
    assert "케이스" not in tools.pattern_nouns("부지를 싸게 넘겨버린 케이스 모아줘")  # the request, as written
    assert not {"주의", "통보"} & tools.pattern_nouns("행안부가 주의나 통보 받은 항목만 뽑아줘")  # the dispositions asked: a scope
    for q in ("해수부가 징계 안 하고 넘어간 사례들 보여줘", "해수부가 징계 요구 안 하고 넘어간 사례들 보여줘", "징계를 받지 않은 직원 사례"):
        assert "징계" in tools.pattern_nouns(q), q  # one not given: the pattern
    r = agent.ask("과기정통부 앞으로 나온 처분요구 전부, 보고서 상관없이 모아서 보여줘", "addressed-1")
    index = real_services.finding_ranker.index
    own = {p.id for p in index.all_profiles() if "과학기술정보통신부" in p.own_institutions}
    cited = {e["finding_id"] for e in r["evidence"] if e.get("finding_id")}
    assert r["coverage"] == "full" and len(own) >= 3 and own <= cited
    # a province by its office: its findings, introduced by its name, not by the county the finding leads with
    r = agent.ask("시군 감사 말고 광역 단위로 보면, 전남도청에 떨어진 처분요구는 어떤 게 있었지?", "addressed-2")
    assert r["coverage"] == "full" and r["answer"].startswith("전라남도")
    assert "jj20250924_101118-F11" in {e["finding_id"] for e in r["evidence"]}


def test_an_organisation_the_reports_only_mention_scopes_an_institution_question_to_the_findings_naming_it(agent, real_services):
    tools = AgentTools(real_services, real_services.policies)
    komsa = {"jj20251107_090042-F01", "jj20251118_095512-F02"}  # the two findings whose text names the 공단
    assert set(tools.mentioned("한국해양교통안전공단이 나오는 지적사항 보여줘", {})["한국해양교통안전공단"]) == komsa
    assert tools.mentioned("해양교통안전공단 관련해서 보고서에 나온 거 있어?", {})  # without 한국 too
    assert tools.mentioned("데이터센터 관련 지적사항 있어?", {}) == {}  # a common noun of an organisation's shape
    assert tools.mentioned("해양수산부 관련 지적사항 있어?", {}) == {}  # an institution findings are about: the catalog's
    assert tools.mentioned("한국해양교통안전공단 직원이 뇌물 받은 사례", {}) == {}  # a pattern, not the institution's findings
    assert tools.mentioned("전남 영광군 감사 결과도 있어?", {}) == {}  # an audit of 영광군, which a mention does not answer
    assert tools.mentioned("지역정보개발원이 언급된 지적 있어?", {}) == {}  # 한국지역정보개발원, held: not a mention
    assert tools.mentioned("장흥군이 언급된 지적 있어?", {"institutions": ["장흥군"]})  # an LLM router's name as written
    # named in English and in Korean: the English name is no gap once the Korean one scoped the search
    en = "Which findings mention the Korea Maritime Transportation Safety Authority (한국해양교통안전공단)?"
    scoped = tools.mentioned(en, {})
    assert set(scoped["한국해양교통안전공단"]) == komsa
    assert tools.scope_gaps(en, {"finding_ids": sorted(komsa)}) == []
    # an English name alone, by the Korean name it officially translates, which the reports mention
    kepco = "Is KEPCO (Korea Electric Power Corporation) involved in any of the findings?"
    assert tools.scope_gaps(kepco, {}) == [] and tools.scope_gaps("Korea Expressway Corporation findings", {})
    assert "jj20251018_084459-F03" in tools.mentioned(kepco, {})["한국전력공사"]  # 데이터센터 전력수요 (PUE)
    assert tools.mentioned("Is KEPCO involved in any of the findings?", {}) == tools.mentioned(kepco, {})  # the acronym alone
    # ... but not an English name the Korean one does not translate
    both = "Compare the findings on 해양수산부 with those on the Korea Expressway Corporation"
    assert tools.scope_gaps(both, {"institutions": ["해양수산부"]}) == ["Korea Expressway Corporation"]
    r = agent.ask("한국해양교통안전공단이 언급된 감사 지적 있어?", "mentioned-1")
    assert r["coverage"] == "full" and {e["finding_id"] for e in r["evidence"]} <= komsa
    assert r["answer"].startswith("한국해양교통안전공단 관련 내용이 나오는 지적사항")
    _assert_grounded(real_services, r)


def test_an_audit_type_scopes_the_findings_ranked_not_only_the_passages_searched(real_services):
    # findings no passage was retrieved for still rank (by their profiles): only those of the type asked
    ranked = real_services.finding_ranker.rank("예산 낭비", {"예산", "낭비"}, [], SearchFilters(audit_types=["성과감사"]))
    with real_services.sessions() as s:
        kinds = {s.get(Finding, r.finding_id).report.audit_type for r in ranked}
    assert ranked and kinds == {"성과감사"}


def test_a_short_name_of_an_organisation_the_reports_name_in_full_is_no_scope_gap(agent, real_services):
    tools = AgentTools(real_services, real_services.policies)
    assert tools.scope_gaps("담양 농기센터 표창 건 근거 법령", {}) == []  # the reports' 농업기술센터
    assert tools.scope_gaps("국립암센터 감사 결과 있어?", {}) == ["국립암센터"]  # a name in full stays itself
    assert tools.scope_gaps("중기청 지원사업 관련 지적 있어?", {}) == ["중기청"]  # no word of the reports spells it out
    assert tools.scope_gaps("담양농기센터 표창 건", {}) == []  # after a place the reports name
    assert tools.scope_gaps("재무감사에서 나온 지적", {"audit_types": ["재무감사"]}) == ["재무감사"]  # no report of that type
    assert tools.scope_gaps("금감원 관련 감사 지적사항 정리 좀", {}) == ["금감원"]  # a short form no suffix marks
    assert tools.scope_gaps("광주 동구 도시재생도 감사 대상이었어?", {}) == ["광주광역시 동구"]
    assert tools.scope_gaps("그럼 광주 광산구 앱 만든 건은 처분이 뭐였어?", {}) == []  # 광주광역시 광산구, in the reports
    assert tools.scope_gaps("Does Seodaemun-gu in Seoul come up anywhere in these reports?", {}) == []  # its Korean name unknown
    assert tools.scope_gaps("한국석유공사 비축유 관리 부실 사례", {}) == ["한국석유공사"]
    # an English question's acronym no report writes, that names nothing known in Korean: a subject the reports lack
    assert tools.scope_gaps("Is there an audit where ridership for a new KTX line was forecast too high?", {}) == ["KTX"]
    assert tools.scope_gaps("Which statutes did the BAI rely on about LNG bunkering safety at ports?", {}) == ["LNG"]
    assert tools.scope_gaps("KTX-related forecasts?", {}) == ["KTX"]
    for q in ("Is NEIS one of the examples cited there?",  # the glossary's 교육행정정보시스템, which the reports write
              "What did the data-centre audit say about PUE targets?",  # the reports write it
              "Any audit where a county HR officer rigged ratings?",  # an everyday abbreviation
              "Did the Korea Local Information Research & Development Institute (KLID) get any demands?",  # its name glossed
              "How were COVID-19 relief payments duplicated?",  # no name of a thing
              "Any findings NOT ABOUT ports in Q3?", "Did the audit EVER mention ports?"):  # emphasis, a quarter
        assert tools.scope_gaps(q, {}) == [], q
    assert tools.scope_gaps("What did the FY2022 settlement audit find?", {}) == ["2022회계연도"]  # a fiscal year no report writes, no 'FY'
    # (inside the reports' '2019~2023회계연도' but not one of its own: no audit of that year's accounts)
    # a body the reports mention but no finding is about: its audit asked for is a gap, a pattern beside it is searched
    assert tools.scope_gaps("그럼 국민건강보험공단 감사에서는 뭐 나왔어?", {}) == ["국민건강보험공단"]
    assert tools.scope_gaps("한국관광공사에서 홍보 예산 엉뚱한 데 쓴 사례", {}) == []
    assert tools.scope_gaps("용산공원 감사에서 나온 지적사항 정리해줘", {}) == []  # no body, but findings' titles name it
    assert tools.scope_gaps("국민건강보험공단 관련 지적 있어?", {}) == []  # not its audit: where the reports name it
    assert tools.scope_gaps("인천국제공항공사가 감사 대상으로 들어간 지적도 있어?", {}) == ["인천국제공항공사"]  # its audit, however asked
    for q in ("인천국제공항공사 감사받았어?", "인천국제공항공사는 감사 대상이었어?", "인천국제공항공사에 대한 감사원 감사 결과 있어?",
              "인천국제공항공사가 감사원 감사 받았어?", "인천국제공항공사를 대상으로 한 감사 결과 있어?"):
        assert tools.scope_gaps(q, {}) == ["인천국제공항공사"], q
    assert tools.scope_gaps("인천국제공항공사랑 비교한 지적 있어?", {}) == []  # named in the airport findings, beside a pattern
    assert tools.scope_gaps("보건복지부 감사에서 국민건강보험공단 관련 지적 뭐 있어?", {"institutions": ["보건복지부"]}) == []
    assert tools.scope_gaps("Is the Export-Import Bank of Korea covered anywhere?", {}) == ["Export-Import Bank of Korea"]
    # an English question's own Korean term for its subject, which no report writes; not one they write, nor a short form
    assert tools.scope_gaps("Any findings about merchants illegally cashing in local currency vouchers (지역화폐) for profit?", {}) == ["지역화폐"]
    assert tools.scope_gaps("Was anyone barred from bidding (입찰참가자격 제한)?", {}) == []
    assert tools.scope_gaps("Any case where farmland acquisition certificates (농취증) were issued on a sloppy plan?", {}) == []
    assert tools.scope_gaps("지역화폐 부정유통 사례 있어?", {}) == []  # a Korean question's words are searched, not a gap
    for q in ("List the findings on drone procurement, 정리해주세요", "Show me the recusal findings (요약해줘)",
              "Findings on 지방보조금 misuse in 담양군?"):
        assert tools.scope_gaps(q, {}) == [], q  # a request, or Korean words outside a gloss
    r = agent.ask("수사받거나 불문경고 받은 직원을 표창 추천한 건, 담양 농기센터 표창 건 근거 조항은?", "short-name-1")
    assert r["coverage"] != "none" and r["evidence"][0]["finding_id"] == "jj20250924_101118-F04"  # 포상 추천제한자 부당 추천


def test_a_near_miss_says_which_words_of_the_question_its_case_never_uses(agent, real_services):
    tools = AgentTools(real_services, real_services.policies)
    q = "어선 선장이 술 마시고 출항했는데 해경이 음주측정을 안 한 사례"
    assert {"선장", "음주"} <= tools.pattern_nouns(q)
    # request words, glosses, organisations and verbs read as nouns alone are not the pattern
    assert not {"선례", "본부", "해수부", "문체부", "매기"} & tools.pattern_nouns(
        "과태료를 안 매기고 있었으면 본부(해수부)랑 문체부 선례는?")
    assert not {"건의", "기부"} & tools.pattern_nouns("기상특보 출항 건의 처분 수위는? 과기부랑 행안부 각각")
    assert tools.pattern_nouns("병가 받아 놓고 해외에 나가 있던 직원, 예전 감사에선 어떤 처분이었어?") == {"병가", "해외", "직원"}  # not when it was
    # a wrongdoing no case shown states: declined, saying what the nearest cases lack in the user's words
    r = agent.ask(q, "near-miss-1")
    assert r["coverage"] == "none", r["answer"]
    lacking = next(line for line in r["answer"].splitlines() if line.startswith("가장 가까운 지적사항들에도"))
    assert "'술 마시고'" in lacking and lacking.endswith("에 관한 내용은 나오지 않습니다.") and "참고(직접 관련 없음)" in r["answer"]
    # two acts asked for either: the embezzlement case states one of them
    q2 = "금품수수나 횡령 같은 비위 사례"
    acts = asked_wrongdoing(q2)
    ranked = real_services.finding_ranker.rank(q2, tools.query_terms(q2), [], SearchFilters(), acts=acts, either=asked_either(q2, acts))
    assert next(r for r in ranked if r.finding_id == "jj20251017_173842-F08").signals["lacks_act"] == 0.0
    assert all(len(set(r.unmatched)) == len(r.unmatched) for r in ranked)  # each word once
    # a noun Kiwi splits when it reads it alone, which no finding writes: still the question's distinctive word
    q3 = "해수욕장 공유수면에 글램핑장을 가설건축물로 들여놓게 허가해 준 군"
    top = real_services.finding_ranker.rank(q3, tools.query_terms(q3), [], SearchFilters(), pattern_terms=tools.pattern_nouns(q3))
    assert "글램핑장" in next(r for r in top if r.finding_id == "jj20251017_173128-F02").unmatched
    assert "공유수면" not in next(r for r in top if r.finding_id == "jj20251017_173128-F02").unmatched  # a compound the finding writes
    r = agent.ask("농업법인이 농지 사서 태양광 시설 깔아버린 사례", "near-miss-3")
    assert r["coverage"] == "partial", r["answer"]
    lead, note = r["answer"].splitlines()[:2]
    assert "같은 유형" not in lead and note.startswith("※ 질문에 쓴 ") and "'태양광'" in note
    r = agent.ask("결함 있는 어선이 출항하는데도 제대로 통제 안 한 사례", "near-miss-2")
    assert r["coverage"] == "full" and "※ 질문에 쓴" not in r["answer"]


def test_follow_ups_on_a_shown_case_other_cases_like_it_and_an_institution_it_names(agent):
    thread = "shown-1"
    r = agent.ask("감정평가가 엉터리라 보상금이 과하게 잡힌 사례 있어?", thread)
    lead = r["evidence"][0]["finding_id"]
    r = agent.ask("그럼 다른 기관에서 비슷한 사례는?", thread)
    found = [e["finding_id"] for e in r["evidence"]]
    # the pattern of the case shown, the case itself left out; the other case shares the pattern (부실한
    # 감정평가) but not the consequence (과다 보상), so the utility check, which reads the passages the answer
    # quotes, may call it partial
    assert r["coverage"] in ("full", "partial") and lead not in found
    assert found[0] == f"{MOF}-F04"  # 영종도 항만재개발 부지 감정평가 검토 부실 (해양수산부)
    r = agent.ask("국토부한테는 뭘 하라고 했어?", thread)
    route = next(s for s in r["steps"] if s["node"] == "route")
    assert f"refers to {MOF}-F04" in route["summary"]  # the case shown names 국토교통부장관 in its 조치할 사항
    assert "국토교통부장관" in r["answer"]


def test_two_cases_asked_together_are_both_shown_and_the_second_can_be_followed(agent):
    thread = "two-cases-1"
    r = agent.ask("가로주택정비 조합설립 인가 건이랑 지붕 증축에 집수리 지원금 준 건 둘 다 알려줘", thread)
    shown = list(dict.fromkeys(e["finding_id"] for e in r["evidence"]))
    assert shown[:2] == ["jj20251018_133030-F06", "jj20251018_133030-F04"]  # each named case, in the order asked
    r = agent.ask("두 번째 건 자세히", thread)
    assert r["evidence"][0]["finding_id"] == "jj20251018_133030-F04"


def test_demands_addressed_to_the_ministry_asked_about_come_first(agent):
    r = agent.ask("공보의 복무 점검 관련해서 보건복지부한테는 뭘 하라고 했어?", "addressee-1")
    assert r["evidence"][0]["finding_id"] == "jj20250924_101118-F02"
    lines = [line.strip() for line in r["answer"].splitlines() if line.strip().startswith("- 조치할 사항")]
    assert lines[0].startswith("- 조치할 사항(보건복지부장관)")  # its block first, labelled
    assert "보건복지부장관에게" in r["answer"].splitlines()[0]


def test_a_lookup_about_a_subject_counts_the_findings_that_hold_its_words_not_the_whole_store(agent, real_services):
    def holding(*words: str) -> int:  # counted here from the stored text, not through the planner
        with real_services.sessions() as s:
            findings = list(s.scalars(select(Finding)))
            fields = lambda f: ["".join((t or "").split()) for t in (f.title, f.overview, f.problems, f.report.title)]  # noqa: E731
            return sum(all(any(w in t for t in fields(f)) for w in words) for f in findings)

    r = agent.ask("감정평가 관련 지적 몇 건이야?", "lookup-topic-1")
    assert r["track"] == "fast" and r["coverage"] == "full"
    assert 0 < holding("감정평가") < 69 and f"'감정평가' 관련 지적사항(제목·개요·문제점·보고서명에 그 말이 나오는 것)은 총 {holding('감정평가')}건" in r["answer"]
    r = agent.ask("어선 안전관리 실태점검 처분은 몇 건이야?", "lookup-topic-2")  # a report named by its title
    assert f"총 {holding('어선', '안전관리')}건" in r["answer"] and holding("어선", "안전관리") >= 2
    r = agent.ask("캐디피 관련 지적 몇 건", "lookup-topic-3")  # a subject no finding holds: said so, not 69
    assert r["coverage"] == "none" and "없습니다" in r["answer"]
    r = agent.ask("처분 종류별 건수", "lookup-topic-4")  # no subject: every finding, as before
    assert r["answer"].startswith("처분별 건수: ")
    r = agent.ask("Did the BAI audit Busan Transportation Corporation? If so, list the findings and dispositions.", "lookup-topic-5")
    assert r["track"] == "fast" and r["coverage"] == "none" and "No findings about 'Busan Transportation Corporation'" in r["answer"]


def test_something_else_the_report_told_of_is_its_other_finding_and_small_talk_words_stay_a_question(agent):
    thread = "auditor-sibling"
    r = agent.ask("동호회가 공공 테니스코트 주말 예약을 독차지한 문제", thread)  # '주말' is a small-talk word too
    assert r["track"] == "deep" and r["coverage"] != "none"
    tennis = r["evidence"][0]["finding_id"]
    r = agent.ask("골프장 얘기도 있었지?", thread)
    golf = r["evidence"][0]["finding_id"]
    assert golf != tennis and golf.split("-")[0] == tennis.split("-")[0]  # the same report's 골프장 finding
    assert any(s["node"] == "route" and "another finding of the report shown" in s["summary"] for s in r["steps"])
    with agent.services.sessions() as s:
        assert "골프장" in s.get(Finding, golf).title
