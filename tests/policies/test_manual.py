"""Questions about the audit manual itself are answered from its clauses, not from cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from app.agent.runner import Agent
from app.agent.tools import AgentTools
from app.ingest.sop import ingest_sop_dir
from app.policies.offline.manual import asks_about_manual
from app.retrieval.sop import SopRetriever
from graph.nodes.analyze import MANUAL_NOTE
from graph.vocab import MANUAL_CHUNK_PREFIX, MANUAL_SECTION
from tests.conftest import SOP_DIR

EVAL = Path(__file__).resolve().parents[2] / "data" / "eval"
PINNED = sorted(["근거 조항은?", "근거가 뭐야 의회 의결 받아야 된다는거", "다른 시도 조례랑 비교한 부분은 뭐라고 나와", "보고서 작성도 가능해?",
                 "시장한테도 주의 준 거야?", "이 직원이 형사상 어떤 혐의로 고발됐는지 조문까지 정리해줘", "입찰 제한까지 가?",
                 "조례 해석 뭐가 잘못된 건데", "처분 수준은?", "투자 심사를 안 거친 게 어떤 법령 위반이야?",
                 # the fifth blind follow-up batch: follow-ups too
                 "앞에꺼 괌 간 사람은 본인 처분 뭐", "상황 공유는 또 왜 늦어진거", "무슨 법에 근거 만들라는거", "주의로 끝난거?",
                 # the sixth: follow-ups, one ('정산보고서 안 낸 지자체는 몇 곳이야?') of the case shown in its words
                 "거긴 주의야 통보야?", "관련자 처분은 어디까지 갔어? 징계도 있어?", "정산보고서 안 낸 지자체는 몇 곳이야?", "총사업비 규모는?",
                 # the seventh: a follow-up and a pivot that keeps the pattern shown
                 "몇 개 사업이 대상이야", "지자체 말고 중앙부처 쪽도 없어?",
                 # the eighth: follow-ups, answered from the reports
                 "결함신고 의무 조항이 뭐야?", "낭비된 예산은?", "처분 종류는?",
                 # the eleventh: a follow-up, answered from the reports
                 "그럼 국가가 손해 본 돈은 누구한테 받아내라는 거야?",
                 # the fifteenth: a follow-up, answered from the reports
                 "기관 의견은?",
                 # the sixteenth: follow-ups
                 "같은 부처 감사에서 징계 요구까지 간 직원이 또 있어?", "지시한 시장 본인은 누구 선에서 주의받게 돼 있어?",
                 "투자심사를 받아야 한다는 근거는 무슨 법 몇 조야?",
                 # the eighteenth: a follow-up, answered from the reports
                 "평가법인들은 어떻게 하래?"])
"""Turns of the gold and routing sets the rules flag with the manual's words: follow-ups and chat.
One of them, '다른 시도 조례랑 비교한 부분은 뭐라고 나와' (a follow-up about the case shown, in the
fourth blind follow-up batch's test half), the graph does answer from the manual: a known miss."""


@pytest.mark.parametrize("question", [
    "주의 요구는 언제 쓰는 거야?", "통보랑 주의 차이가 뭐야?", "처분 종류는 어떻게 골라?", "문답서랑 확인서 차이",
    "감사보고서 구성이 어떻게 돼?", "수의계약 제대로 했는지 어떻게 확인해?", "What is the difference between 시정 and 개선?",
    "훈계는 징계랑 뭐가 달라?", "처분이 여러 개 붙으면 표기는 어케 해?", "What does the manual say about recusal?",
])
def test_a_question_about_the_manual_is_told_apart(question: str) -> None:
    assert asks_about_manual(question)


@pytest.mark.parametrize("question", [
    "주의 받은 사례 있어?", "공금 횡령하면 징계야?", "이런 위반이면 처분 수위 어떻게 돼?", "징계 요구까지 나온 건들 정리해줘",
    "수의계약 점검 안 해서 지적된 기관은?", "그 건 조치할 사항은 어떻게 돼?", "What disposition did the ministry get?",
    "처분요구서 양식으로 만들어 주세요", "통보 양식으로 하나 만들어 봐", "계약을 쪼개면 처분 예시가 뭐야?", "출장비를 부풀리면 처분 어떻게 적어?",
    "What do the reports say about overtime?", "통보·주의 선에서 안 끝나고 법령상 '개선'까지 요구된 지적은 어떤 거야?",
    "고발하라는 근거가 된 법 조항은 뭐야?",
])
def test_a_question_about_cases_in_the_manuals_words_is_not(question: str) -> None:
    assert not asks_about_manual(question)


def test_a_question_in_the_manuals_words_alone_is_about_it_and_one_naming_a_case_is_not(services) -> None:
    ingest_sop_dir(SOP_DIR, services.sessions)
    vocabulary = SopRetriever(services.sessions).vocabulary()
    assert asks_about_manual("훈계는 징계보다 가벼운 거임?", vocabulary)  # no asking form the rules list
    assert not asks_about_manual("훈계는 징계보다 가벼운 거임?")  # without the manual's words: the rules alone
    assert not asks_about_manual("공보의 관사 게임 징계", vocabulary)  # 공보의, 관사: not the manual's words
    assert not asks_about_manual("처분은?", vocabulary)  # one word: a follow-up's facet
    assert not asks_about_manual("예산 낭비 금액은", vocabulary)  # no question form: a facet left over from the last answer
    assert not asks_about_manual("what does the report say about overtime?", vocabulary)
    assert not asks_about_manual("같은 보고서에 설치지역 고르는 문제도 있던데 요지가 뭐야")  # a case seen
    assert not asks_about_manual("같은 보고서에 설치지역 고르는 문제도 지적됐던데 요지가 뭐야")
    assert asks_about_manual("주의랑 통보를 섞어 쓰던데 차이가 뭐야?") and asks_about_manual("같은 보고서 안에 처분이 여러 개 붙으면 표기는 어케 해?")
    assert asks_about_manual("처분요구서 어떻게 만들어?", vocabulary) and asks_about_manual("문제점 어떻게 써?", vocabulary)


def test_no_question_of_the_case_gold_sets_is_taken_for_a_manual_question(services) -> None:
    """Every question the answer, follow-up and routing sets hold asks about cases or chats."""
    ingest_sop_dir(SOP_DIR, services.sessions)
    vocabulary = SopRetriever(services.sessions).vocabulary()
    texts = [json.loads(line)["question"] for line in (EVAL / "answers" / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    for path in (EVAL / "answers" / "conversations.jsonl", EVAL / "followups" / "conversations.jsonl"):
        texts += [t["question"] for line in path.read_text(encoding="utf-8").splitlines() for t in json.loads(line)["turns"]]
    for path in (EVAL / "routing.jsonl", EVAL / "routing_holdout.jsonl"):
        texts += [t["text"] for line in path.read_text(encoding="utf-8").splitlines() for t in json.loads(line)["turns"]]
    assert len(texts) > 1000
    assert [q for q in texts if asks_about_manual(q)] == []
    # with the manual's words: follow-ups ('근거 조항은?') and a chat turn, which the graph mostly does not ask about (it asks
    # only of new deep questions, tests below; one exception in PINNED's docstring); pinned so that a wider rule shows here
    manual = sorted({q for q in texts if asks_about_manual(q, vocabulary)})
    assert manual == PINNED, manual


def test_answering_leads_with_the_named_dispositions_definitions_unless_wording_is_asked(services) -> None:
    ingest_sop_dir(SOP_DIR, services.sessions)
    sop = SopRetriever(services.sessions)  # lexical only
    assert [h.clause_id for h in sop.answering("통보랑 주의 차이가 뭐야?", ["통보", "주의"], k=3)][:2] == ["SOP-CLS-12", "SOP-CLS-08"]
    assert sop.answering("주의 요구 조치할 사항 문안 예시 보여줘", ["주의"], k=1)[0].clause_id != "SOP-CLS-08"
    assert sop.answering("문답서 받을 때 주의할 점", ["주의"], k=1)[0].clause_id != "SOP-CLS-08"  # '주의할' names no disposition
    assert sop.answering("지적사항 제목은 어떻게 달아야 돼?", [], k=1)[0].clause_id == "SOP-RPT-06"
    assert sop.answering("무엇이든", [], k=0) == []


def test_the_definitions_lead_in_the_order_the_question_names_the_dispositions(services) -> None:
    ingest_sop_dir(SOP_DIR, services.sessions)
    tools = AgentTools(services, services.policies)
    assert tools.search_manual("훈계는 징계랑 뭐가 달라?", 2)[0]["chunk_id"] == MANUAL_CHUNK_PREFIX + "SOP-CLS-19"
    assert tools.search_manual("징계랑 훈계는 뭐가 달라?", 2)[0]["chunk_id"] == MANUAL_CHUNK_PREFIX + "SOP-CLS-03"


def test_a_manual_question_is_answered_from_the_manual_and_a_case_question_after_it_from_the_reports(services) -> None:
    ingest_sop_dir(SOP_DIR, services.sessions)
    agent = Agent(services, checkpointer=InMemorySaver())
    agent.ask("주의 요구는 언제 쓰는 거야?", "t")
    v = agent.graph.get_state(agent._config("t")).values
    assert v["track"] == "deep" and v["source"] == "manual" and v["coverage"] == "full"
    assert v["citations"] and all(c["chunk_id"].startswith(MANUAL_CHUNK_PREFIX) for c in v["citations"])
    assert v["citations"][0]["chunk_id"] == MANUAL_CHUNK_PREFIX + "SOP-CLS-08"
    assert v["citations"][0]["span"] is not None  # the quote is located in the clause's text
    assert all(d["section"] == MANUAL_SECTION for d in v["documents"])
    assert v["verification"]["grounded"] and v["verification"]["useful"]
    assert MANUAL_NOTE["ko"] in v["answer"] and "적용 기준(SOP)" not in v["answer"]
    assert v.get("retained_documents") == []  # a clause is no case a follow-up could point at
    agent.ask("주의 처분이 나온 사례는?", "t")
    v = agent.graph.get_state(agent._config("t")).values
    assert v["source"] == "reports" and not any(c["chunk_id"].startswith(MANUAL_CHUNK_PREFIX) for c in v["citations"])


@pytest.mark.slow
def test_a_manual_question_amid_a_case_thread_is_answered_from_the_manual_and_the_thread_goes_on(real_services) -> None:
    """A manual question after a case answer is no follow-up about that case; the case question after it is
    searched in the reports with its own words, not glued to the manual question."""
    used = real_services.corpus.idf
    vocabulary = real_services.sop_retriever.vocabulary()
    named = "흑산공항 사업비 증액 절차가 어떻게 돼?"  # names a case: words the reports use and the manual does not
    assert asks_about_manual(named, vocabulary) and not asks_about_manual(named, vocabulary, reports_use=lambda t: used(t) is not None)
    agent = Agent(real_services, checkpointer=InMemorySaver())
    agent.ask("국가정보자원관리원 장애 대응 부실 사례", "m")
    shown = agent.graph.get_state(agent._config("m")).values["retained_documents"]
    assert shown
    agent.ask("주의 요구는 언제 쓰는 거야?", "m")
    v = agent.graph.get_state(agent._config("m")).values
    assert v["source"] == "manual" and not v["follow_up"] and v["citations"][0]["chunk_id"] == MANUAL_CHUNK_PREFIX + "SOP-CLS-08"
    assert v["verification"]["useful"] and v["retained_documents"] == shown  # the cases shown are still there
    agent.ask("훈계는 언제 써?", "m2")
    agent.ask("주의 처분이 나온 사례는?", "m2")
    v = agent.graph.get_state(agent._config("m2")).values
    assert v["source"] == "reports" and v["citations"] and not v["follow_up"]
    assert "언제" not in v["query"]  # not the manual question restated
    assert all(not c["chunk_id"].startswith(MANUAL_CHUNK_PREFIX) for c in v["citations"])
    # in the manual's words, but of the case just shown, in its words: about that case
    agent.ask("연안정비사업 사업지 선정하고 사후관리 부실했던 건 알려줘", "m3")
    agent.ask("정산보고서 안 낸 지자체는 몇 곳이야?", "m3")
    v = agent.graph.get_state(agent._config("m3")).values
    assert v["source"] == "reports" and v["follow_up"]
