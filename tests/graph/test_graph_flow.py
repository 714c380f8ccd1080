"""Every edge of the graph with scripted decisions, a fresh in-memory checkpointer per test."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from graph import RunContext, build_graph
from tests.graph.fakes import FakeServices, ScriptedPolicies, doc

CTX = RunContext()


def run(services, text, thread="t", mode="auto", graph=None, ctx=CTX):
    graph = graph or build_graph(services, checkpointer=InMemorySaver())
    state = graph.invoke({"messages": [HumanMessage(text)], "mode": mode},
                         {"configurable": {"thread_id": thread}, "recursion_limit": ctx.recursion_limit}, context=ctx)
    return state, graph


def nodes(state):
    return [s["node"] for s in state["steps"]]


def test_chat_goes_to_summarize_and_remembers():
    svc = FakeServices(ScriptedPolicies(track="chat"))
    s1, g = run(svc, "안녕")
    assert nodes(s1) == ["route", "chat", "summarize"]
    s2, _ = run(svc, "또 안녕", graph=g)
    assert "이전 질문 1개" in s2["answer"]
    assert [m.type for m in s2["messages"]] == ["human", "ai", "human", "ai"]
    assert s2["summary"].endswith("|안녕|또 안녕")


def test_the_history_a_turn_is_routed_with_carries_each_past_turn_track_source_and_coverage():
    pol = ScriptedPolicies(track="fast", sql_intent=True)
    svc = FakeServices(pol)
    _, g = run(svc, "주의 처분 몇 건?")
    run(svc, "그중 시정은?", graph=g)
    (past,) = pol.histories[-1]
    assert (past.question, past.track, past.source, past.coverage) == ("주의 처분 몇 건?", "fast", "reports", "full")


def test_fast_sql_path():
    svc = FakeServices(ScriptedPolicies(track="fast", sql_intent=True))
    state, _ = run(svc, "주의 처분 몇 건?")
    assert nodes(state) == ["route", "retrieve_sql", "analyze", "summarize"]
    assert state["sql"]["rows"] == [[3]] and state["answer"] == "rows=1"
    assert state["verification"] is None


def test_rejected_sql_is_reported_not_raised():
    svc = FakeServices(ScriptedPolicies(track="fast", sql_intent=True), reject_sql=True)
    state, _ = run(svc, "DROP TABLE findings")
    assert state["sql"]["error"] == "only SELECT is allowed"
    assert nodes(state)[-1] == "summarize"


def test_fast_lookup_skips_grading_and_verification():
    svc = FakeServices(ScriptedPolicies(track="fast", sql_intent=False))
    state, _ = run(svc, "가람시 보고서 제목")
    assert nodes(state) == ["route", "select_fields", "retrieve", "analyze", "summarize"]


def test_deep_happy_path():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    state, _ = run(svc, "가람시 계약 문제 분석해줘")
    assert nodes(state) == ["route", "select_fields", "retrieve", "grade_documents", "expand_evidence", "retrieve_sop", "analyze",
                            "verify_answer", "summarize"]
    assert state["verification"]["action"] == "finish" and state["verification"]["grounded"]
    assert state["coverage"] == "full"
    # each relevant finding is followed by its stored sections (the fake store: one criteria chunk)
    assert [d["chunk_id"] for d in state["retained_documents"]] == ["c1", "c10", "c2", "c11"]
    assert [c["n"] for c in state["citations"]] == [1, 2, 3, 4]
    assert state["citations"][0]["quote"] == svc.docs[0]["text"]
    assert state["citations"][0]["span"] == [0, len(svc.docs[0]["text"])]
    assert "[SOP-DEF-주의] 주의의 정의" in state["answer"]  # the criteria of the findings presented, by their titles and dispositions
    assert svc.sop_requests == [(["지적 F1", "지적 F2"], ["주의"])]
    assert svc.sop_queries == [state["query"]] and state["query"]  # the search's query, whose vector the search made


def test_nothing_relevant_rewrites_until_the_cap_then_says_so():
    pol = ScriptedPolicies(track="deep", relevant=[False, False], useful=[False], institutions=["가람시"])
    svc = FakeServices(pol)
    state, _ = run(svc, "없는 주제")
    seq = nodes(state)
    assert seq.count("rewrite_query") == CTX.max_rewrites
    assert seq[:3] == ["route", "select_fields", "retrieve"]
    # nothing relevant after the capped rewrites: the turn declines, unverified (it claims nothing)
    assert seq[-4:] == ["expand_evidence", "retrieve_sop", "analyze", "summarize"]
    assert "decline" in pol.calls and "verify" not in pol.calls
    assert state["sop"] == [] and "SOP" not in state["answer"]  # no case found, so no criteria of one
    assert state["rewrite_count"] == CTX.max_rewrites
    assert len(state["rewrites"]) == 2 and state["rewrites"][0] != state["rewrites"][1]
    assert state["coverage"] == "none"
    # the rejected passages come back only as references, one per finding
    assert [d["chunk_id"] for d in state["documents"]] == ["c1", "c2"]
    assert state["answer"].startswith("없음") and state["retained_documents"] == []
    # after a rewrite the original and the rewritten query are searched together
    assert " | " in svc.searches[1][0]
    # the rewrite relaxed the institutions filter the first search found nothing under
    assert svc.searches[0][1]["institutions"] == ["가람시"] and "institutions" not in svc.searches[-1][1]


def test_ungrounded_answer_regenerates_with_feedback():
    pol = ScriptedPolicies(track="deep", grounded=[False, True])
    state, _ = run(FakeServices(pol), "분석")
    assert nodes(state).count("analyze") == 2
    assert state["regeneration_count"] == 1
    assert "근거 없는 주장" not in state["answer"]  # dropped on regeneration
    assert state["verification"]["grounded"]


def test_regeneration_cap_marks_unsupported_sentences():
    pol = ScriptedPolicies(track="deep", grounded=[False])
    ctx = RunContext(max_regenerations=1)
    state, _ = run(FakeServices(pol), "분석", ctx=ctx)
    assert nodes(state).count("analyze") == 2
    assert state["verification"]["action"] == "finish" and not state["verification"]["grounded"]
    assert "⚠" in state["answer"] and "재생성 한도" in state["answer"]


def test_grounded_but_not_useful_rewrites_then_finishes():
    pol = ScriptedPolicies(track="deep", useful=[False, True])
    state, _ = run(FakeServices(pol), "분석")
    seq = nodes(state)
    assert seq.count("rewrite_query") == 1 and seq.count("verify_answer") == 2
    assert state["verification"]["useful"] and state["coverage"] == "full"


def test_not_useful_at_the_rewrite_cap_is_partial_coverage():
    pol = ScriptedPolicies(track="deep", useful=[False])
    state, _ = run(FakeServices(pol), "분석")
    assert state["coverage"] == "partial" and "재검색 한도" in state["answer"]


def test_a_scope_gap_declines_without_grading_or_rewriting():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol, gaps=["2019년"])
    state, _ = run(svc, "2019년 가람시 정기감사 지적사항")
    assert state["scope_gaps"] == ["2019년"] and state["coverage"] == "none"
    assert "grade" not in pol.calls and "rewrite_query" not in nodes(state)
    assert state["answer"].startswith("없음: 2019년")
    # the nearest findings are cited only as references
    assert [c["chunk_id"] for c in state["citations"]] == ["c1", "c2"]


def test_a_follow_up_asking_the_case_shown_about_what_no_report_covers_declines():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    _, g = run(svc, "가람시 계약 문제")
    pol.follow_up, pol.ordinals = True, [1]
    svc.gaps = ["외교부"]  # '그 건에 외교부 예산도 섞였다는 얘기는 있어?': an organisation no report mentions
    state, _ = run(svc, "그 건에 외교부 예산도 섞였다는 얘기는 있어?", graph=g)
    assert state["references"] == ["F1"] and state["scope_gaps"] == ["외교부"]
    assert state["coverage"] == "none" and state["answer"].startswith("없음: 외교부") and "grade" not in pol.calls[-4:]
    svc.gaps, svc.untold_words = [], ["해파리"]  # '그 해변에서 해파리 … 것도 지적됐어?': a subject no report writes
    state, _ = run(svc, "그 해변에서 해파리 쏘임 사고 대비한 것도 지적됐어?", graph=g)
    assert state["scope_gaps"] == ["해파리"] and state["coverage"] == "none" and state["sql"] is None
    svc.gaps, svc.untold_words = ["외교부"], ["외교부"]
    state, _ = run(svc, "그 건에 외교부 얘기도 나와?", graph=g)
    assert state["scope_gaps"] == ["외교부"]  # named once
    svc.gaps, svc.untold_words = [], []
    state, _ = run(svc, "1번 건의 근거 조항은?", graph=g)
    assert state["references"] == ["F1"] and state["coverage"] != "none"  # what it does cover: answered from the case


def test_a_first_finding_that_never_uses_a_distinctive_word_of_the_question_makes_the_answer_partial():
    near_miss = [{**doc(1, "F1"), "unmatched": ["음주", "선장"]}, doc(2, "F2")]
    state, _ = run(FakeServices(ScriptedPolicies(track="deep"), docs=near_miss), "선장이 음주하고 출항한 사례")
    assert state["coverage"] == "partial"
    lines = state["answer"].splitlines()
    assert lines[0] == "근거 1 [1]" and lines[1].startswith("※ 질문에 쓴 '음주', '선장' 같은 말은 이 지적사항에 나오지 않습니다")
    assert "unmatched" not in state["retained_documents"][0]  # this question's words: not a follow-up's
    # a word the user did not write (a rewrite's, the glossary's for an English question) is not named
    state, _ = run(FakeServices(ScriptedPolicies(track="deep"), docs=near_miss), "선장 술 먹고 출항한 사례")
    assert state["coverage"] == "partial" and "'선장'" in state["answer"] and "음주" not in state["answer"]
    state, _ = run(FakeServices(ScriptedPolicies(track="deep"), docs=near_miss), "drunk skipper cases")
    assert state["coverage"] == "full" and "※" not in state["answer"]
    # only the first finding presented counts: a later one lacking a word is no near miss of the answer
    later = [doc(1, "F1"), {**doc(2, "F2"), "unmatched": ["음주"]}]
    state, _ = run(FakeServices(ScriptedPolicies(track="deep"), docs=later), "선장이 음주하고 출항한 사례")
    assert state["coverage"] == "full" and "※" not in state["answer"]


def test_an_organisation_mentioned_in_passing_scopes_the_search_to_the_findings_naming_it():
    svc = FakeServices(ScriptedPolicies(track="deep"), mentions={"나라공단": ["F2", "F1"]})
    state, _ = run(svc, "나라공단이 언급된 지적 있어?")
    assert state["filters"]["finding_ids"] == ["F1", "F2"]
    assert all(f.get("finding_ids") == ["F1", "F2"] for _, f in svc.searches)  # every search the turn made
    step = next(s for s in state["steps"] if s["node"] == "select_fields")
    assert "mentioned in passing: 나라공단" in step["summary"]


def test_a_scope_gap_on_the_fast_track_declines_too():
    pol = ScriptedPolicies(track="fast")
    state, _ = run(FakeServices(pol, gaps=["한국도로공사"]), "한국도로공사 지적사항 알려줘")
    assert state["coverage"] == "none" and "decline" in pol.calls


def test_loops_are_bounded_with_everything_failing():
    pol = ScriptedPolicies(track="deep", grounded=[False], useful=[False], relevant=[True, True])
    state, _ = run(FakeServices(pol), "분석")
    assert nodes(state).count("analyze") <= (CTX.max_regenerations + 1) * (CTX.max_rewrites + 1)
    assert state["verification"]["action"] == "finish"


def test_report_asks_for_missing_fields_then_triggers():
    pol = ScriptedPolicies(track="report", ready=False)
    svc = FakeServices(pol)
    state, g = run(svc, "보고서 초안 작성해줘")
    assert nodes(state) == ["route", "manage_report"]
    assert state["report"] == {"status": "needs_info", "missing": ["institution", "findings"]}
    assert "어느 기관" in state["answer"]
    pol.ready = True
    state, _ = run(svc, "가람시 계약 건으로 작성해줘", graph=g)
    assert state["report"]["status"] == "ready"
    assert state["report"]["draft"]["title"].startswith("가람시")
    assert svc.sop_requests == []  # no finding retained: the report-writing clauses


def test_a_draft_after_an_answer_carries_the_criteria_of_its_findings():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    _, g = run(svc, "가람시 계약 문제")
    pol.track, pol.ready = "report", True
    state, _ = run(svc, "이걸로 보고서 초안 작성해줘", graph=g)
    assert state["report"]["status"] == "ready"
    assert svc.sop_requests[-1] == (["지적 F1", "지적 F2"], ["주의"])


def test_report_trigger_is_streamed():
    pol = ScriptedPolicies(track="report", ready=True)
    graph = build_graph(FakeServices(pol), checkpointer=InMemorySaver())
    events = list(graph.stream({"messages": [HumanMessage("보고서 초안")]}, {"configurable": {"thread_id": "s"}},
                               context=CTX, stream_mode="custom"))
    kinds = [e["event"] for e in events]
    assert "report_trigger" in kinds
    assert kinds[0] == "step" and events[0]["status"] == "started"
    started = [e["node"] for e in events if e["event"] == "step" and e["status"] == "started"]
    assert started == ["route", "manage_report"]


def test_follow_up_resolves_ordinals_against_retained_findings():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol, docs=[doc(1, "F1"), doc(2, "F1"), doc(3, "F2")])
    _, g = run(svc, "가람시 계약 문제")
    pol.follow_up, pol.ordinals = True, [2]
    state, _ = run(svc, "2번 항목의 조치할 사항은?", graph=g)
    assert state["references"] == ["F2"]
    assert nodes(state)[:3] == ["route", "retrieve_sql", "grade_documents"]
    assert [d["finding_id"] for d in state["documents"]] == ["F2"]
    assert state["documents"][0]["section"] == "actions"
    assert "F2" in svc.sql_queries[-1]


def test_written_ordinals_count_in_the_last_list_after_a_follow_up_narrowed_to_one_case():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol, docs=[doc(1, "F1"), doc(2, "F2")])
    state, g = run(svc, "계약 건이랑 보조금 건 찾아줘")
    assert state["listed"] == ["F1", "F2"]
    pol.follow_up, pol.ordinals, pol.ordinals_in_list = True, [2], True
    state, _ = run(svc, "두 번째 건 자세히", graph=g)
    assert state["references"] == ["F2"] and state["listed"] == ["F1", "F2"]  # the answer shows F2 alone; the list stays
    pol.ordinals = [1]
    state, _ = run(svc, "첫 번째 건 근거 법령은", graph=g)
    assert state["references"] == ["F1"]
    pol.ordinals = [2]
    run(svc, "두 번째 건 자세히", graph=g)
    pol.ordinals, pol.ordinals_in_list = [1], False  # '그 건': the case the last answer showed, not the list's first
    state, _ = run(svc, "그 건 처분은?", graph=g)
    assert state["references"] == ["F2"]
    pol.follow_up, pol.ordinals, pol.pivot = False, [], True
    svc.docs = [doc(3, "F3")]
    state, _ = run(svc, "다른 주제: 감정평가 사례", graph=g)
    assert state["listed"] == []  # a case outside the list: ordinals count in its answer again
    pol.pivot, pol.follow_up, pol.ordinals, pol.ordinals_in_list = False, True, [1], True
    state, _ = run(svc, "첫 번째 건 근거는", graph=g)
    assert state["references"] == ["F3"]


def test_other_cases_like_a_shown_one_leave_that_one_out():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol, docs=[doc(1, "F1"), doc(2, "F2")])
    _, g = run(svc, "가람시 계약 문제")
    pol.follow_up, pol.ordinals, pol.other_cases = True, [2], True
    state, _ = run(svc, "2번과 비슷한 다른 사례는?", graph=g)
    assert state["references"] == [] and "retrieve" in nodes(state)  # searched, not loaded
    assert svc.searches[-1][1]["exclude_finding_ids"] == ["F2"]  # the case pointed at is the pattern, not an answer
    pol.ordinals = []
    run(svc, "비슷한 사례 또 있어?", graph=g)
    assert svc.searches[-1][1]["exclude_finding_ids"] == [state["retained_documents"][0]["finding_id"]]  # else the one led with
    led = state["retained_documents"][0]["finding_id"]
    pol.follow_up, pol.pivot = False, True
    state, _ = run(svc, "계약 관련해서 다른 사례는? 수의계약 쪼갠 거", graph=g)
    assert state["pivot"] and svc.searches[-1][1]["exclude_finding_ids"] == [led]  # a new pattern, still not the case just shown
    assert svc.searches[-1][0] == "계약 관련해서 다른 사례는? 수의계약 쪼갠 거"  # searched as asked


def test_grading_reads_the_standalone_question_and_the_users_own_words():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    _, g = run(svc, "가람시 계약 문제")
    assert pol.graded[-1] == ("가람시 계약 문제", "")  # the same words: nothing apart
    pol.follow_up, pol.other_cases, pol.search_query = True, True, "지적 F1 계약 부당 체결"
    run(svc, "비슷한 다른 사례들은?", graph=g)
    assert pol.graded[-1] == ("지적 F1 계약 부당 체결", "비슷한 다른 사례들은?")  # how many are asked for: the user's words


def test_fast_follow_up_answers_from_the_loaded_finding():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    _, g = run(svc, "가람시 계약 문제")
    pol.track, pol.follow_up, pol.ordinals = "fast", True, [1]
    state, _ = run(svc, "첫 번째 건 처분은?", graph=g)
    assert nodes(state) == ["route", "retrieve_sql", "analyze", "summarize"]
    assert state["citations"][0]["finding_id"] == "F1"


def test_pivot_clears_retained_documents_and_follow_up_keeps_them():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    _, g = run(svc, "가람시 계약 문제")
    pol.track = "chat"
    state, _ = run(svc, "고마워", graph=g)
    assert len(state["retained_documents"]) == 4  # chat keeps them (2 found + their sections)
    pol.track, pol.pivot = "fast", True
    pol.sql_intent = True
    state, _ = run(svc, "한빛군 지적 몇 건?", graph=g)
    assert state["pivot"] and state["retained_documents"] == []


def test_a_pivot_that_finds_nothing_keeps_what_was_shown():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    first, g = run(svc, "가람시 계약 문제")
    shown = [d["chunk_id"] for d in first["retained_documents"]]
    pol.pivot, svc.gaps = True, ["2016년"]
    state, _ = run(svc, "2016년 감사는?", graph=g)
    assert state["pivot"] and state["coverage"] == "none"
    assert [d["chunk_id"] for d in state["retained_documents"]] == shown  # '그럼 이번 건에서…' still resolves


def test_a_question_going_back_past_a_pivot_is_routed_again_against_the_cases_set_aside():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    _, g = run(svc, "가람시 계약 문제")  # shows F1, F2
    pol.pivot, svc.docs = True, [doc(3, "F3"), doc(4, "F4")]
    state, _ = run(svc, "한빛군 예산 문제", graph=g)
    assert state["pivot"] and {d["finding_id"] for d in state["past_documents"]} == {"F1", "F2"}
    # '아까 F2 건은': the router finds no such case among those shown now; routed again against the earlier ones, it does
    pol.pivot, pol.goes_back, pol.follow_up_on = False, True, {"F2"}
    state, _ = run(svc, "아까 F2 건은 처분이 뭐였어?", graph=g)
    assert state["follow_up"] and not state["pivot"] and state["references"] == ["F2"]
    assert {d["finding_id"] for d in state["documents"]} == {"F2"}  # answered from the case gone back to
    past = {d["finding_id"] for d in state["past_documents"]}
    assert {"F1", "F3", "F4"} <= past and "F2" not in past  # the last answer's cases are set aside in turn, not F2
    assert any("earlier case" in s["summary"] for s in state["steps"] if s["node"] == "route")
    # nothing set aside matches: the first decision stands
    pol.follow_up_on = {"F9"}
    state, _ = run(svc, "아까 F9 건은?", graph=g)
    assert state["pivot"] and not state["follow_up"]


def test_a_question_going_back_that_names_no_earlier_case_points_at_none_and_chat_asks_once():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    _, g = run(svc, "가람시 계약 문제")
    pol.pivot, svc.docs = True, [doc(3, "F3")]
    run(svc, "한빛군 예산 문제", graph=g)
    # both decisions follow without naming a case: not recalled, and not the case just shown either
    pol.pivot, pol.follow_up, pol.goes_back, pol.ordinals_by_call = False, True, True, [[1], []]
    calls = len(pol.calls)
    state, _ = run(svc, "아까 그 다른 건은?", graph=g)
    assert state["follow_up"] and state["references"] == [] and pol.calls[calls:].count("route") == 2
    assert {d["finding_id"] for d in state["past_documents"]} >= {"F1", "F2"}
    pol.track = "chat"  # a chat turn is routed once
    calls = len(pol.calls)
    run(svc, "아까 고마웠어", graph=g)
    assert pol.calls[calls:].count("route") == 1


def test_a_pivot_that_finds_nothing_loses_no_case_set_aside():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    _, g = run(svc, "가람시 계약 문제")  # F1, F2
    pol.pivot, svc.docs = True, [doc(3, "F3")]
    run(svc, "한빛군 예산 문제", graph=g)  # F1, F2 set aside
    svc.gaps = ["2016년"]
    state, _ = run(svc, "2016년 감사는?", graph=g)  # declined: F3 retained again
    assert state["coverage"] == "none" and {d["finding_id"] for d in state["retained_documents"]} == {"F3"}
    assert {d["finding_id"] for d in state["past_documents"]} == {"F1", "F2"}


def test_cases_an_answer_replaces_are_set_aside_for_later():
    pol = ScriptedPolicies(track="deep")
    svc = FakeServices(pol)
    _, g = run(svc, "가람시 계약 문제")  # F1, F2
    pol.follow_up, svc.docs = True, [doc(3, "F3"), doc(1, "F1")]  # a follow-up whose answer shows F3 and F1
    state, _ = run(svc, "비슷한 다른 사례는?", graph=g)
    assert {d["finding_id"] for d in state["past_documents"]} == {"F2"}  # replaced, not lost; F1 is still shown


def test_forced_mode_overrides_the_router():
    pol = ScriptedPolicies(track="deep")
    state, _ = run(FakeServices(pol), "안녕", mode="chat")
    assert state["track"] == "chat" and nodes(state) == ["route", "chat", "summarize"]


def test_per_turn_state_is_reset():
    pol = ScriptedPolicies(track="deep", grounded=[False, True])
    svc = FakeServices(pol)
    s1, g = run(svc, "분석")
    assert s1["regeneration_count"] == 1
    pol.track = "chat"
    s2, _ = run(svc, "안녕", graph=g)
    assert s2["regeneration_count"] == 0 and s2["citations"] == [] and s2["verification"] is None
    assert nodes(s2) == ["route", "chat", "summarize"]


@pytest.mark.parametrize("cap", [0, 1, 3])
def test_recursion_limit_fits_the_caps(cap):
    ctx = RunContext(max_rewrites=cap, max_regenerations=cap)
    pol = ScriptedPolicies(track="deep", grounded=[False], useful=[False])
    state, _ = run(FakeServices(pol), "분석", ctx=ctx)
    assert state["verification"]["action"] == "finish"


def test_a_fast_list_is_retained_in_the_order_shown():
    pol = ScriptedPolicies(track="fast", sql_intent=True)
    rows = {"columns": ["id", "title"], "rows": [["F7", "일곱"], ["F3", "셋"]], "row_count": 2}
    state, _ = run(FakeServices(pol, sql_result=rows), "가람시 지적사항 목록")
    assert [d["finding_id"] for d in state["retained_documents"]] == ["F7", "F3"]
    assert state["coverage"] == "full"


def test_not_useful_then_nothing_relevant_declines():
    """Self-RAG can say no: the answer missed the question, and the rewrite found nothing."""
    pol = ScriptedPolicies(track="deep", useful=[False], relevant=[True, True])
    original = pol.grade

    def grade_then_nothing(question, docs, asked=""):
        if pol.calls.count("grade") >= 1:
            pol.relevant = [False] * len(docs)
        return original(question, docs, asked)

    pol.grade = grade_then_nothing
    state, _ = run(FakeServices(pol), "가람시 지적사항")
    assert "decline" in pol.calls and state["coverage"] == "none"


def test_a_follow_up_on_a_named_finding_is_not_searched_again():
    pol = ScriptedPolicies(track="deep", follow_up=True, ordinals=[1], useful=[False])
    svc = FakeServices(pol)
    _, g = run(svc, "가람시 계약 문제")
    pol.follow_up, pol.ordinals = True, [1]
    state, _ = run(svc, "1번 건의 근거 조항은?", graph=g)
    assert state["references"] == ["F1"] and "rewrite_query" not in nodes(state)
    assert state["coverage"] == "partial"


def test_another_finding_of_the_report_shown_is_searched_in_that_report_without_the_cases_shown():
    pol = ScriptedPolicies(track="deep")
    other = dict(doc(3, "F3"), report_id="r2")
    svc = FakeServices(pol, docs=[doc(1, "F1"), doc(2, "F2"), other])
    _, g = run(svc, "가람시 계약 문제")
    pol.pivot, pol.same_report = True, True
    state, _ = run(svc, "골프장 얘기도 있었지?", graph=g)
    filters = svc.searches[-1][1]
    assert state["pivot"] and filters["report_ids"] == ["r1"]  # the report of the case the last answer led with
    assert set(filters["exclude_finding_ids"]) == {"F1", "F2", "F3"}  # every case shown, none of them the answer
    pol.same_report = False
    run(svc, "해수욕장 가설건축물 허가 사례", graph=g)
    assert "report_ids" not in svc.searches[-1][1] and "exclude_finding_ids" not in svc.searches[-1][1]  # a plain pivot: the whole store

