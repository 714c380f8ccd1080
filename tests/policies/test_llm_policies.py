"""LlmPolicies against scripted fake chat models: good replies parse into the schemas, junk and
schema violations raise PolicyError; providers validate their configuration."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import openai
import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import SecretStr

from app.llm import (
    CallGuard,
    LlmAuthError,
    LlmConnectionError,
    LlmHttpError,
    LlmTimeout,
    PolicyError,
    make_chat_model,
    structured_method,
    to_llm_error,
)
from app.llm.structured import field_list
from app.policies.llm import LlmPolicies
from app.policies.offline import grader as offline_grader
from app.policies.offline.manual import answer_from_manual
from app.settings import Settings
from graph.ports import Decided, Policies, Turn
from graph.schemas import (
    AnalystAnswer,
    AnswerSentence,
    ConversationSummary,
    FieldSelection,
    GradeBatch,
    RouteDecision,
)
from graph.state import Doc

SCHEMA = "findings(id TEXT, title TEXT, institution TEXT, year INT, disposition TEXT)"

# -- fakes shared with test_fallback.py ----------------------------------------------------------

Reply = str | AIMessage | BaseException | Callable[[list[BaseMessage]], Any]


class ScriptedChatModel(BaseChatModel):
    """Replies from ``script`` in order (then ``default``): text, an AIMessage, an exception to
    raise, or a function of the messages. ``delay_s`` sleeps before replying; with
    ``streaming=True`` the reply is streamed in chunks, ``delay_s`` before each."""

    script: list[Any] = []
    default: Any = None
    delay_s: float = 0.0
    streaming: bool = False
    calls: int = 0
    seen: list[list[BaseMessage]] = []

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _reply(self, messages: list[BaseMessage]) -> AIMessage:
        self.calls += 1
        self.seen.append(messages)
        item = self.script.pop(0) if self.script else self.default
        if callable(item) and not isinstance(item, BaseException):
            item = item(messages)
        if isinstance(item, BaseException):
            raise item
        return (
            item
            if isinstance(item, AIMessage)
            else AIMessage(
                content=item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
            )
        )

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        time.sleep(self.delay_s)
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages))])

    def _stream(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> Iterator[ChatGenerationChunk]:
        text = str(self._reply(messages).content)
        for i in range(0, len(text), 8):
            time.sleep(self.delay_s)
            yield ChatGenerationChunk(message=AIMessageChunk(content=text[i : i + 8]))


class ToolScriptedChatModel(ScriptedChatModel):
    """Supports tool calling, so LlmPolicies uses with_structured_output(function_calling)."""

    def bind_tools(self, tools: Any, *, tool_choice: str | None = None, **kw: Any) -> Any:
        return self.bind()


def doc(n: int, text: str, **extra: Any) -> Doc:
    d: Doc = {
        "chunk_id": f"c{n}",
        "report_id": "r1",
        "finding_id": f"r1-f{n}",
        "section": "problems",
        "page": n,
        "text": text,
        "heading": "문제점",
        "report_title": "한국도로공사 기관운영감사",
        "finding_title": f"지적사항 {n}",
        "dispositions": ["주의"],
        "institutions": ["한국도로공사"],
        "year": 2023,
        "score": 0.5,
    }
    d.update(extra)  # type: ignore[typeddict-item]
    return d


DOCS = [
    doc(1, "한국도로공사는 2022년 용역 계약을 수의계약으로 부당하게 체결하였다."),
    doc(2, "국가를 당사자로 하는 계약에 관한 법률 제7조에 따르면 경쟁입찰이 원칙이다."),
    doc(
        3,
        "기관장은 관련자에게 주의를 요구하고 재발 방지 대책을 마련하여야 한다.",
        section="actions",
    ),
]

GOOD = {
    "route": {
        "reasoning": "계약 지적사항의 근거를 묻는 분석 질문",
        "track": "deep",
        "follow_up": False,
        "pivot": True,
        "sql_intent": False,
        "ordinals": [],
        "institutions": ["한국도로공사"],
        "year_from": 2023,
        "year_to": 2023,
        "dispositions": ["주의요구"],
        "search_query": "한국도로공사 수의계약 부당 체결",
    },
    "grade": {
        "grades": [
            {"reasoning": "직접 관련", "index": 1, "relevant": True, "score": 0.9},
            {"reasoning": "판단기준", "index": 2, "relevant": True, "score": 0.7},
            {"reasoning": "무관", "index": 3, "relevant": False, "score": 0.1},
        ]
    },
    "analyze": {
        "reasoning": "passage 1 states the problem, 2 the rule",
        "sentences": [
            {
                "text": "한국도로공사는 용역 계약을 수의계약으로 체결했습니다 [1].",
                "citations": [1],
                "quote": "수의계약으로 부당하게 체결하였다",
            },
            {
                "text": "계약법은 경쟁입찰을 원칙으로 합니다 [2].",
                "citations": [2],
                "quote": "경쟁입찰이 원칙이다",
            },
        ],
        "follow_up_questions": ["조치 내용은 무엇인가요?"],
    },
    "verify": {
        "reasoning": "all supported",
        "grounded": True,
        "useful": True,
        "unsupported": [],
        "confidence": 0.9,
    },
    "sql": {
        "reasoning": "count by institution",
        "sql": "SELECT institution, COUNT(*) FROM findings GROUP BY institution;",
    },
    "rewrite": {
        "reasoning": "broader terms",
        "query": "수의계약 부적정 용역",
        "relax_filter": "years",
    },
    "report": {
        "reasoning": "no period",
        "ready": False,
        "missing": ["period"],
        "institution": "한국도로공사",
        "period": None,
    },
    "summary": {"summary": "한국도로공사의 수의계약 지적사항을 논의했다."},
}


def smart_reply(messages: list[BaseMessage]) -> str:
    """A well-behaved model: the good reply for whichever prompt it is given."""
    system = str(messages[0].content)
    for marker, key in (
        ("Classify the user's latest message", "route"),
        ("Grade EVERY", "grade"),
        ("audit analyst", "analyze"),
        ("Check the numbered answer", "verify"),
        ("ONE SQLite SELECT", "sql"),
        ("better search query", "rewrite"),
        ("report draft", "report"),
        ("running summary", "summary"),
    ):
        if marker in system:
            return json.dumps(GOOD[key], ensure_ascii=False)
    return "안녕하세요, AURA입니다. 감사보고서에 대해 질문해 주세요."


def scripted(*replies: Reply, **kw: Any) -> ScriptedChatModel:
    return ScriptedChatModel(script=list(replies), **kw)


class Values:
    """LlmPolicies with each decision's bare value: the tests here check what the model decided;
    the ``Decided`` provenance is tested in test_fallback.py."""

    def __init__(self, policies: LlmPolicies) -> None:
        self.policies = policies

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.policies, name)
        if name in Policies.__dict__ and callable(attr):
            return lambda *a, **kw: attr(*a, **kw).value
        return attr


def policies(model: BaseChatModel, timeout_s: float = 5.0, **kw: Any) -> Values:
    return Values(LlmPolicies(model, timeout_s, schema_description=SCHEMA, **kw))


def js(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


# -- good replies -------------------------------------------------------------------------------


def test_route_parses_and_normalises():
    model = scripted(js(GOOD["route"]))
    d = policies(model).route("작년 한국도로공사 수의계약 문제를 분석해 줘", [], "", [])
    assert isinstance(d, RouteDecision) and d.track == "deep"
    assert d.dispositions == ["주의"]  # '주의요구' -> the known disposition word
    assert d.search_query.startswith("한국도로공사")
    assert model.calls == 1
    system = str(model.seen[0][0].content)
    assert "search_query" in system and "ordinals" in system  # the prompt names the fields

    listed = policies(scripted(js({**GOOD["route"], "ordinals": [1], "ordinals_in_list": True}))).route("첫 번째 건은?", [], "", [])
    assert listed.ordinals == [1] and not listed.ordinals_in_list  # numbered as the prompt showed the earlier results


def test_route_reads_a_request_for_other_cases_like_one_shown():
    model = scripted(js({**GOOD["route"], "follow_up": True, "ordinals": [2], "other_cases": True, "search_query": "감정평가 검토 부실"}))
    d = policies(model).route("2번이랑 비슷한 다른 기관 사례는?", [], "", [])
    assert d.other_cases and d.ordinals == [2] and d.search_query == "감정평가 검토 부실"
    assert "other_cases" in str(model.seen[0][0].content)  # the prompt asks for it
    assert not policies(scripted(js(GOOD["route"]))).route("q", [], "", []).other_cases  # absent: false


def test_route_reads_a_return_to_an_earlier_case():
    model = scripted(js({**GOOD["route"], "pivot": True, "goes_back": True}))
    d = policies(model).route("아까 상수도 관망 건은 처분이 뭐였어?", [], "", [])
    assert d.goes_back and "goes_back" in str(model.seen[0][0].content)  # the prompt asks for it
    assert not policies(scripted(js(GOOD["route"]))).route("q", [], "", []).goes_back  # absent: false


def test_route_swaps_reversed_years_and_rejects_impossible_ones():
    model = scripted(
        js({**GOOD["route"], "year_from": 2024, "year_to": 2021}),
        js({**GOOD["route"], "year_from": 20231}),
    )
    p = policies(model)
    d = p.route("q", [], "", [])
    assert (d.year_from, d.year_to) == (2021, 2024)
    with pytest.raises(PolicyError, match="year"):
        p.route("q", [], "", [])


def test_reply_in_code_fence_with_think_block_parses():
    reply = "<think>음, deep이다 {not json}</think>\n```json\n" + js(GOOD["route"]) + "\n```"
    assert policies(scripted(reply)).route("q", [], "", []).track == "deep"


def test_each_decision_parses_a_good_reply():
    p = policies(ScriptedChatModel(default=smart_reply))
    grades = p.grade("수의계약", DOCS)
    assert [g.index for g in grades.grades if g.relevant] == [1, 2]
    answer = p.analyze("수의계약 문제?", DOCS, [], None, "", [])
    assert [s.citations for s in answer.sentences] == [[1], [2]]
    assert answer.sentences[0].quote == "수의계약으로 부당하게 체결하였다"
    v = p.verify("수의계약 문제?", answer, DOCS)
    assert v.grounded and v.useful
    sql = p.plan_sql("기관별 지적 건수", FieldSelection())
    assert sql.sql == "SELECT institution, COUNT(*) FROM findings GROUP BY institution"
    rw = p.rewrite("q", "수의계약", ["q"], {"year_from": 2023})
    assert rw.query == "수의계약 부적정 용역" and rw.relax_filter == "years"
    r = p.check_report("보고서 써 줘", [], DOCS)
    assert not r.ready and r.missing == ["period"]
    assert p.chat("안녕", [], "").startswith("안녕하세요")
    turns = [Turn(f"q{i}", f"a{i}") for i in range(4)]
    assert "수의계약" in p.summarize("", turns).summary


def test_sql_prompt_carries_the_schema_description():
    model = ScriptedChatModel(default=smart_reply)
    policies(model).plan_sql("기관별 건수", FieldSelection(institutions=["한국도로공사"]))
    assert SCHEMA in str(model.seen[0][0].content)
    assert "한국도로공사" in str(model.seen[0][1].content)
    # a lookup's subject reaches the model with how to filter on it
    model = ScriptedChatModel(default=smart_reply)
    policies(model).plan_sql("감정평가 관련 지적 몇 건", FieldSelection(topic=["감정평가"]))
    assert '"topic": ["감정평가"]' in str(model.seen[0][1].content) and "topic word" in str(model.seen[0][0].content)
    # the filter the prompt shows passes the validator the model's SQL goes through (no char(), which it refuses)
    import re

    from app.policies.llm.prompts import SQL_SYSTEM
    from app.sql import validate_sql

    shown = re.search(r"(replace\(col[^;]*?LIKE '%word%')", SQL_SYSTEM).group(1).replace("col", "f.problems")
    validate_sql(f"SELECT COUNT(*) FROM findings f WHERE {shown}")


def test_grader_sees_all_passages_numbered_in_one_call():
    model = ScriptedChatModel(default=smart_reply)
    policies(model).grade("q", DOCS)
    user = str(model.seen[0][1].content)
    assert model.calls == 1
    assert "[1] (한국도로공사 기관운영감사 > 지적사항 1 > 감사결과 확인된 문제점, p.1)\n한국도로공사는" in user
    assert "[3] (한국도로공사 기관운영감사 > 지적사항 3 > 조치할 사항, p.3)" in user


def test_function_calling_path_reads_tool_calls():
    call = {"name": "RouteDecision", "args": GOOD["route"], "id": "call_1", "type": "tool_call"}
    model = ToolScriptedChatModel(script=[AIMessage(content="", tool_calls=[call])])
    p = policies(model)
    assert p.method == "function_calling"
    assert p.route("q", [], "", []).track == "deep"


def test_generic_fake_chat_model_with_json_content():
    model = GenericFakeChatModel(messages=iter([AIMessage(content=js(GOOD["verify"]))]))
    p = policies(model)
    assert p.method == "prompt"
    v = p.verify("q", AnalystAnswer(sentences=[AnswerSentence(text="x [1]", citations=[1])]), DOCS)
    assert v.grounded


def test_analysis_markers_and_quotes_are_made_consistent():
    reply = {
        "reasoning": "",
        "sentences": [
            {"text": "수의계약으로 체결했다.", "citations": [1], "quote": "없는 인용문"},
            {"text": "경쟁입찰이 원칙이다 [2].", "citations": [], "quote": "경쟁입찰이  원칙이다"},
        ],
        "follow_up_questions": ["a", "b", "c", "d"],
    }
    answer = policies(scripted(js(reply))).analyze("q", DOCS, [], None, "", [])
    first, second = answer.sentences
    assert first.text.endswith("[1]") and first.quote == ""  # invented quote dropped
    assert second.citations == [2] and second.quote == "경쟁입찰이  원칙이다"
    assert len(answer.follow_up_questions) == 3


def test_the_analyst_prompt_says_what_this_kind_of_question_leads_with():
    from app.policies.llm.prompts import ANALYST_BY_KIND
    from graph.vocab import QUESTION_KINDS

    assert set(ANALYST_BY_KIND) == set(QUESTION_KINDS)
    seen: list[str] = []
    reply = js({"sentences": [{"text": "주의가 적절해 보입니다 [1].", "citations": [1], "quote": ""}]})

    def answer(messages: list[BaseMessage]) -> str:
        seen.append(str(messages[-1].content))
        return reply

    p = policies(scripted(answer, answer))
    p.analyze("수의계약 위반이면 어떤 처분이 적절해?", DOCS, [], None, "", [])
    p.analyze("이 건에 적용된 법 조항이 뭐야?", DOCS, [], None, "", [])
    assert "(disposition): " + ANALYST_BY_KIND["disposition"] in seen[0] and "최종 판단은 감사인이 합니다" in seen[0]
    assert "(legal_basis): " + ANALYST_BY_KIND["legal_basis"] in seen[1] and "관계 법령·판단기준" in seen[1]
    assert ANALYST_BY_KIND["disposition"] not in seen[1]


def test_the_analyst_prompt_says_which_words_of_the_question_a_finding_never_uses():
    seen: list[str] = []

    def answer(messages: list[BaseMessage]) -> str:
        seen.append(str(messages[-1].content))
        return js({"sentences": [{"text": "가장 가까운 사례입니다 [1].", "citations": [1], "quote": ""}]})

    near_miss = [{**DOCS[0], "unmatched": ["음주"]}, *DOCS[1:]]
    policies(scripted(answer)).analyze("선장 음주 출항 사례 있어?", near_miss, [], None, "", [])
    policies(scripted(answer)).analyze("선장 음주 출항 사례 있어?", DOCS, [], None, "", [])
    assert "never mentions the question's 음주" in seen[0] and "never mentions" not in seen[1]


def test_sql_rows_answer_without_passages():
    reply = {
        "sentences": [
            {"text": "한국도로공사가 3건으로 가장 많습니다.", "citations": [], "quote": ""}
        ]
    }
    sql = {
        "query": "SELECT 1",
        "columns": ["institution", "n"],
        "rows": [["한국도로공사", 3]],
        "row_count": 1,
    }
    model = scripted(js(reply))
    answer = policies(model).analyze("어느 기관이 가장 많아?", [], [], sql, "", [])
    assert answer.sentences[0].citations == []
    assert "한국도로공사 | 3" in str(model.seen[0][1].content)


def test_verifier_unsupported_sentences_are_mapped_to_the_answer_verbatim():
    answer = AnalystAnswer(
        sentences=[
            AnswerSentence(text="가는 맞다 [1].", citations=[1]),
            AnswerSentence(text="나는 근거가 없다 [2].", citations=[2]),
        ]
    )
    reply = {
        "reasoning": "",
        "grounded": True,
        "useful": True,
        "unsupported": ["2. 나는 근거가 없다 [2].", "없는 문장"],
        "confidence": 0.4,
    }
    v = policies(scripted(js(reply))).verify("q", answer, DOCS)
    assert v.unsupported == ["나는 근거가 없다 [2]."]
    assert v.grounded is False


class FixedSelection:
    """Offline policies that only select fields: always ``selection``."""

    def __init__(self, selection: FieldSelection) -> None:
        self.selection = selection

    def select_fields(self, question, hints, retained, route=None) -> Decided[FieldSelection]:
        return Decided(self.selection, "offline")

    def summarize(self, summary, turns) -> Decided[ConversationSummary]:
        return Decided(ConversationSummary(summary="offline summary"), "offline")


def test_select_fields_reuses_the_route_decision_without_a_call():
    model = scripted(js(GOOD["route"]))
    base = FieldSelection(sections=["actions"], search_query="offline query")
    p = LlmPolicies(model, 5.0, schema_description=SCHEMA, offline=FixedSelection(base))
    assert p.select_fields("질문", {}, []) == Decided(base, "offline")  # no route given
    route = p.route("질문", [], "", [])
    offline_route = Decided(route.value, "offline-fallback", 1, "timeout")
    assert p.select_fields("질문", {}, [], offline_route) == Decided(base, "offline")
    d = p.select_fields("질문", {"institutions": ["한국도로공사"]}, [], route)
    assert model.calls == 1 and (d.policy, d.llm_calls) == ("llm", 0)
    sel = d.value
    assert sel.sections == ["actions"]  # kept from the offline selection
    assert sel.institutions == ["한국도로공사"] and sel.year_from == 2023
    assert sel.search_query == GOOD["route"]["search_query"]
    p.offline = FixedSelection(FieldSelection(institutions=["한국도로공사(본사)"], year_from=2021, year_to=2021))
    sel = p.select_fields("질문", {}, [], route).value
    assert (
        sel.institutions == ["한국도로공사(본사)"] and sel.year_from == 2021
    )  # the offline catalog match wins
    assert sel.dispositions == ["주의"]  # a gap filled by the router


def test_summarize_within_the_window_is_left_to_offline():
    model = ScriptedChatModel(default=smart_reply)
    p = LlmPolicies(model, 5.0, offline=FixedSelection(FieldSelection()))
    d = p.summarize("", [Turn("q", "a"), Turn("q2", "a2")])
    assert (d.value.summary, d.policy, d.llm_calls) == ("offline summary", "offline", 0)
    assert model.calls == 0


def test_grade_without_passages_makes_no_call():
    model = ScriptedChatModel(default=smart_reply)
    assert policies(model).grade("q", []).grades == []
    assert model.calls == 0


def test_field_list_names_nested_fields():
    text = field_list(GradeBatch)
    assert (
        "grades: list of object" in text
        and "index: integer" in text
        and "relevant: boolean" in text
    )
    assert '"chat" | "fast" | "deep" | "report"' in field_list(RouteDecision)


# -- junk and schema violations -------------------------------------------------------------------

ROUTE_ARGS = ("q", [], "", [])


@pytest.mark.parametrize(
    ("method", "args", "reply", "match"),
    [
        ("route", ROUTE_ARGS, "죄송합니다. 질문을 이해하지 못했습니다.", "no JSON object"),
        ("route", ROUTE_ARGS, '{"track": "deep", "reasoning": ', "malformed JSON"),
        ("route", ROUTE_ARGS, js({**GOOD["route"], "track": "search"}), "schema violation.*track"),
        (
            "route",
            ROUTE_ARGS,
            js({**GOOD["route"], "follow_up": "maybe"}),
            "schema violation.*follow_up",
        ),
        (
            "route",
            ROUTE_ARGS,
            js({"reasoning": "x", "track": "deep"}),
            "schema violation.*follow_up",
        ),
        (
            "grade",
            ("q", DOCS),
            js({"grades": [{"index": 4, "relevant": True, "score": 0.5}]}),
            "grade index 4 out of range 1-3",
        ),
        (
            "grade",
            ("q", DOCS),
            js({"grades": [{"index": 1, "relevant": True, "score": 1.5}]}),
            "schema violation.*score",
        ),
        ("grade", ("q", DOCS), js({"grades": []}), "no passage"),
        (
            "analyze",
            ("q", DOCS, [], None, "", []),
            js({"sentences": [{"text": "x [7].", "citations": [7]}]}),
            r"citation \[7\]",
        ),
        (
            "analyze",
            ("q", DOCS, [], None, "", []),
            js({"sentences": [{"text": "x [9].", "citations": []}]}),
            r"citation \[9\]",
        ),
        ("analyze", ("q", DOCS, [], None, "", []), js({"sentences": []}), "no sentences"),
        ("plan_sql", ("q", FieldSelection()), js({"sql": "DELETE FROM findings"}), "single SELECT"),
        (
            "plan_sql",
            ("q", FieldSelection()),
            js({"sql": "SELECT 1; DROP TABLE findings"}),
            "single SELECT",
        ),
        (
            "rewrite",
            ("q", "수의계약", ["q"], {}),
            js({"reasoning": "", "query": "수의계약", "relax_filter": None}),
            "repeats",
        ),
        (
            "rewrite",
            ("q", "a", ["q"], {}),
            js({"reasoning": "", "query": "b", "relax_filter": "agency"}),
            "relax_filter",
        ),
        (
            "check_report",
            ("q", [], DOCS),
            js({"ready": False, "missing": ["budget"]}),
            "unknown report field",
        ),
        ("check_report", ("q", [], DOCS), js({"ready": False, "missing": []}), "nothing listed"),
        ("chat", ("q", [], ""), "   ", "empty reply"),
    ],
)
def test_junk_raises_policy_error(method, args, reply, match):
    with pytest.raises(PolicyError, match=match) as info:
        getattr(policies(scripted(reply)), method)(*args)
    assert str(info.value).startswith("invalid output: ")


def test_sql_schema_defaults_to_the_sql_package():
    from app.sql import SCHEMA_DESCRIPTION

    model = ScriptedChatModel(default=smart_reply)
    LlmPolicies(model, 5.0).plan_sql("q", FieldSelection())
    assert SCHEMA_DESCRIPTION in str(model.seen[0][0].content)


# -- the call guard and error mapping -----------------------------------------------------------


def test_guard_cuts_a_slow_call_at_the_deadline():
    guard = CallGuard(0.3)
    t0 = time.monotonic()
    with pytest.raises(LlmTimeout, match="0.3 s"):
        guard.run(lambda: time.sleep(3))
    assert time.monotonic() - t0 < 0.3 + 0.5


def test_guard_limits_concurrency():
    guard = CallGuard(5.0, max_concurrency=2)
    lock = threading.Lock()
    state = {"now": 0, "peak": 0}

    def work() -> None:
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.1)
        with lock:
            state["now"] -= 1

    threads = [threading.Thread(target=guard.run, args=(work,)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert state["peak"] == 2


def _response(status: int) -> httpx.Response:
    return httpx.Response(
        status, request=httpx.Request("POST", "http://llm.test/v1/chat/completions"), text="nope"
    )


@pytest.mark.parametrize(
    ("exc", "kind", "text"),
    [
        (
            openai.AuthenticationError("bad key", response=_response(401), body=None),
            LlmAuthError,
            "AURA_LLM_API_KEY",
        ),
        (
            openai.PermissionDeniedError("denied", response=_response(403), body=None),
            LlmAuthError,
            "HTTP 403",
        ),
        (
            openai.InternalServerError("boom", response=_response(503), body=None),
            LlmHttpError,
            "HTTP 503",
        ),
        (
            httpx.HTTPStatusError("x", request=_response(401).request, response=_response(401)),
            LlmAuthError,
            "HTTP 401",
        ),
        (
            httpx.HTTPStatusError("x", request=_response(502).request, response=_response(502)),
            LlmHttpError,
            "HTTP 502",
        ),
        (httpx.ConnectError("connection refused"), LlmConnectionError, "cannot reach"),
        (openai.APITimeoutError(request=_response(200).request), LlmTimeout, "in time"),
        (TimeoutError(), LlmTimeout, "in time"),
    ],
)
def test_client_errors_become_readable(exc, kind, text):
    err = to_llm_error(exc)
    assert isinstance(err, kind) and text in str(err)


# -- providers ------------------------------------------------------------------------------------


def settings(**kw: Any) -> Settings:
    return Settings(_env_file=None, **kw)


def test_provider_none_is_no_model():
    assert make_chat_model(settings(llm_provider="none")) is None
    assert LlmPolicies.from_settings(settings(llm_provider="none")) is None


def test_openai_without_model_is_a_clear_error():
    with pytest.raises(ValueError, match="AURA_LLM_MODEL is required"):
        make_chat_model(settings(llm_provider="openai", llm_base_url="http://127.0.0.1:8000/v1"))


def test_openai_api_without_key_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    with pytest.raises(ValueError, match="AURA_LLM_API_KEY is required"):
        make_chat_model(settings(llm_provider="openai", llm_model="gpt-4o-mini"))


def test_bad_base_url_is_a_clear_error():
    with pytest.raises(ValueError, match="AURA_LLM_BASE_URL"):
        make_chat_model(
            settings(llm_provider="openai", llm_model="m", llm_base_url="localhost:8000")
        )


def test_openai_compatible_server_needs_no_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    model = make_chat_model(
        settings(
            llm_provider="openai",
            llm_model="qwen",
            llm_base_url="http://127.0.0.1:8000/v1/",
            llm_timeout_s=7,
        )
    )
    assert type(model).__name__ == "ChatOpenAI"
    assert (
        model.openai_api_key.get_secret_value() == "EMPTY"
    )  # the environment's key is not forwarded
    assert model.openai_api_base == "http://127.0.0.1:8000/v1"
    assert model.request_timeout == 7 and model.max_retries == 2
    assert structured_method(model) == "json_schema"


def test_clovax_without_key_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("NCP_CLOVASTUDIO_API_KEY", raising=False)
    with pytest.raises(
        ValueError, match="AURA_LLM_API_KEY is required for AURA_LLM_PROVIDER=clovax"
    ):
        make_chat_model(settings(llm_provider="clovax", llm_model="HCX-003"))


def test_clovax_constructs():
    model = make_chat_model(
        settings(
            llm_provider="clovax",
            llm_model="HCX-003",
            llm_api_key=SecretStr("nv-test"),
            llm_timeout_s=2.5,
            llm_temperature=0.0,
        )
    )
    assert type(model).__name__ == "ChatClovaX"
    assert model.timeout == 3 and model.max_tokens == 2048 and 0 < model.temperature <= 1
    assert structured_method(model) == "prompt"  # no tool calling: JSON in the reply
    assert LlmPolicies(model, 2.5).method == "prompt"


def test_grader_prompt_asks_for_finding_level_relevance_and_allows_no_answer():
    model = ScriptedChatModel(default=smart_reply)
    policies(model).grade("보조금 부정수급 사례", DOCS)
    system = str(model.seen[0][0].content)
    assert "Judge findings, not words" in system and "merely shares words" in system
    assert "mark every passage relevant=false" in system and "hold no such case" in system
    assert "The user's own words" not in str(model.seen[0][-1].content)
    policies(model).grade("보조금 부정수급", DOCS, asked="비슷한 다른 사례들은?")
    assert "Question: 보조금 부정수급\n(The user's own words: 비슷한 다른 사례들은?)" in str(model.seen[-1][-1].content)


def test_verifier_prompt_checks_the_requested_facet_and_scope():
    model = ScriptedChatModel(default=smart_reply)
    answer = AnalystAnswer(sentences=[AnswerSentence(text="근거 [1]", citations=[1], quote="")])
    policies(model).verify("근거 법령은?", answer, DOCS)
    system = str(model.seen[0][0].content)
    assert "the facet requested" in system and "its scope" in system


def test_decline_is_the_offline_wording_without_a_model_call():
    class Offline:
        def decline(self, question: str, gaps: list[str], nearest: list[Doc]) -> Decided[AnalystAnswer]:
            return Decided(AnalystAnswer(sentences=[AnswerSentence(text=f"없음: {', '.join(gaps)}")]), "offline")

    model = ScriptedChatModel(default=smart_reply)
    llm = LlmPolicies(model, 5.0, schema_description=SCHEMA, offline=Offline())  # type: ignore[arg-type]
    decided = llm.decline("2019년 감사 결과", ["2019년"], [])
    assert decided.value.sentences[0].text == "없음: 2019년" and model.calls == 0


def test_the_manuals_clauses_are_graded_and_quoted_by_the_offline_policies_without_a_call():
    """The grader and analyst prompts are about findings; an answer from the audit manual quotes
    its clauses as they stand, with no model."""
    clause = {**doc(1, "주의 요구는 위법·부당한 업무처리가 확인되었으나 징계에 이를 정도는 아니거나, 기관 차원에서 재발 방지를 다짐하게 할 필요가 있을 때 쓰는 처분이다."),
              "chunk_id": "sop:SOP-CLS-08", "section": "manual", "finding_id": None, "page": 0,
              "heading": "[SOP-CLS-08] 주의 요구의 정의와 적용", "score": 1.2}
    class Offline:  # the offline policies' two decisions, as OfflinePolicies makes them
        def grade(self, question, docs, asked=""):
            return Decided(offline_grader.grade(question, docs, asked), "offline")

        def analyze(self, question, docs, sop, sql, feedback, history):
            return Decided(answer_from_manual(question, docs), "offline")

    model = ScriptedChatModel(default=smart_reply)
    p = LlmPolicies(model, 5.0, schema_description=SCHEMA, offline=Offline())
    graded = p.grade("주의 요구는 언제 쓰는 거야?", [clause])
    answer = p.analyze("주의 요구는 언제 쓰는 거야?", [clause], [], None, "", [])
    assert model.calls == 0 and graded.policy == answer.policy == "offline"
    assert graded.value.grades[0].relevant
    assert answer.value.sentences[0].citations == [1] and "SOP-CLS-08" in answer.value.sentences[0].text


def test_a_same_report_decision_of_the_model_is_a_pivot():
    from app.policies.llm.checks import checked_route
    from graph.schemas import RouteDecision
    d = checked_route(RouteDecision(reasoning="", track="deep", follow_up=True, pivot=False, same_report=True))
    assert d.pivot and not d.follow_up and d.same_report  # the model took it for a follow-up: that report is still searched
    d = checked_route(RouteDecision(reasoning="", track="deep", follow_up=True, pivot=False))
    assert d.follow_up and not d.pivot
