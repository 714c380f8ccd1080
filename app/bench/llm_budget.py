"""LLM calls per turn, per track, measured through the real graph: a counting fake chat model
behind the real ``LlmPolicies`` and ``FallbackPolicies`` (offline policies as the safety net),
on the 12-report store.

The fake answers every prompt with a valid decision for that prompt (it reads the passage count
from the prompt, so grades and citations point at real passages). Scenarios script where it
disagrees, to drive each loop exactly once:

- ``happy``: every passage relevant, every answer grounded and useful;
- ``rewrite``: the first grading finds nothing relevant (CRAG rewrite loop, once);
- ``regenerate``: the first verification finds an unsupported sentence (Self-RAG regeneration, once);
- ``utility``: the first verification says grounded but not useful (utility rewrite loop, once).

Every call is counted at the model (``calls``) and compared with the graph's own count
(``turn_result['llm_calls']``, the sum of the steps' ``llm_calls``).
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver

from app.agent.runner import Agent
from app.agent.tools import AgentTools
from app.policies.fallback import FallbackPolicies
from app.policies.llm import LlmPolicies
from graph import build_graph

_PASSAGE = re.compile(r"^\[(\d+)\] \(", re.MULTILINE)
PROMPTS = (
    ("Classify the user's latest message", "route"),
    ("Grade EVERY", "grade"),
    ("audit analyst", "analyze"),
    ("Check the numbered answer", "verify"),
    ("ONE SQLite SELECT", "sql"),
    ("better search query", "rewrite"),
    ("report draft", "report"),
    ("running summary", "summary"),
)


class CountingChatModel(BaseChatModel):
    """A well-behaved fake LLM that counts its calls by decision kind."""
    track: str = "deep"
    scenario: str = "happy"
    calls: int = 0
    kinds: Counter = Counter()
    lock: Any = None

    @property
    def _llm_type(self) -> str:
        return "counting-fake"

    def reset(self, track: str, scenario: str) -> None:
        self.track, self.scenario, self.calls, self.kinds = track, scenario, 0, Counter()

    def _kind(self, system: str) -> str:
        return next((k for marker, k in PROMPTS if marker in system), "chat")

    def _reply(self, messages: list[BaseMessage]) -> str:
        system, user = str(messages[0].content), str(messages[-1].content)
        kind = self._kind(system)
        self.calls += 1
        self.kinds[kind] += 1
        n_passages = len(_PASSAGE.findall(user))
        first = self.kinds[kind] == 1
        if kind == "route":
            q = user.rsplit("\n", 1)[-1].strip()
            return _js({"reasoning": "bench", "track": self.track, "follow_up": False, "pivot": True,
                        "sql_intent": self.track == "fast", "ordinals": [], "institutions": [], "dispositions": [],
                        "search_query": q[:200]})
        if kind == "grade":
            relevant = not (self.scenario == "rewrite" and first)
            return _js({"grades": [{"reasoning": "bench", "index": i, "relevant": relevant, "score": 0.8 if relevant else 0.1}
                                   for i in range(1, n_passages + 1)]})
        if kind == "analyze":
            if n_passages:
                sentences = [{"text": "첫 번째 근거에 따른 지적사항입니다 [1].", "citations": [1], "quote": ""}]
            else:
                sentences = [{"text": "조회 결과를 요약했습니다.", "citations": []}]
            return _js({"reasoning": "bench", "sentences": sentences, "follow_up_questions": []})
        if kind == "verify":
            grounded = not (self.scenario == "regenerate" and first)
            useful = not (self.scenario == "utility" and first)
            unsupported = [] if grounded else ["첫 번째 근거에 따른 지적사항입니다 [1]."]
            return _js({"reasoning": "bench", "grounded": grounded, "useful": useful, "unsupported": unsupported, "confidence": 0.9})
        if kind == "sql":
            return _js({"reasoning": "bench", "sql": "SELECT COUNT(*) AS n FROM findings"})
        if kind == "rewrite":
            return _js({"reasoning": "bench", "query": f"감사 지적사항 관련 사례 {self.kinds[kind]}", "relax_filter": None})
        if kind == "report":
            return _js({"reasoning": "bench", "ready": False, "missing": ["period"], "institution": None, "period": None})
        if kind == "summary":
            return _js({"summary": "감사 지적사항을 논의했다."})
        return "안녕하세요, AURA입니다. 감사보고서에 대해 질문해 주세요."

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=self._reply(messages)))])


def _js(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


QUESTIONS = {
    "chat": "안녕하세요",
    "fast": "기관별 처분요구 건수 top 5 보여줘",
    "deep": "울릉공항 케이슨 공사에서 무슨 문제가 있었는지 설명해줘",
    "report": "해운대구 위원 제척 건 감사보고서 초안 작성해줘",
}
CASES = [
    ("chat", "happy"),
    ("fast", "happy"),
    ("deep", "happy"),
    ("deep", "rewrite"),
    ("deep", "regenerate"),
    ("deep", "utility"),
    ("report", "happy"),
]


def bench_llm_budget(services: Any) -> Iterator[dict]:


    model = CountingChatModel(lock=threading.Lock())
    llm = LlmPolicies(model, 30.0, max_concurrency=1)
    policies = FallbackPolicies(services.policies.offline, llm)
    agent = Agent(services, checkpointer=InMemorySaver())
    agent.graph = build_graph(AgentTools(services, policies), checkpointer=agent.checkpointer)
    happy: dict[str, int] = {}
    for track, scenario in CASES:
        model.reset(track, scenario)
        res = agent.ask(QUESTIONS[track], mode=track)
        nodes = [s["node"] for s in res["steps"]]
        row = {
            "figure": "llm_calls",
            "track": track,
            "scenario": scenario,
            "calls": model.calls,
            "graph_llm_calls": res["llm_calls"],
            "by_kind": dict(model.kinds),
            "fallbacks": res["fallbacks"],
            "path": " > ".join(nodes),
        }
        if scenario == "happy":
            happy[track] = model.calls
        elif track in happy:
            row["extra_calls_vs_happy"] = model.calls - happy[track]
        yield row
