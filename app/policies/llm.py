"""Decisions made by a chat model: one structured-output call per decision, validated twice
(against the pydantic schema, then against the inputs: citations and grade indexes must point at
real passages, filters and report fields must be known values). Junk raises ``PolicyError``;
``FallbackPolicies`` turns every failure into the offline decision.

Methods return the bare value (not ``Decided``), or ``None`` when they leave the decision to
the offline policy:

- ``select_fields`` makes no call. The router already extracted institutions, years,
  dispositions and a standalone query; they fill the gaps of the offline selection (which
  keeps what it knows better: catalog names, sections, audit types) and replace its query. Without an LLM route decision for this question
  (the router fell back) it returns ``None``.
- ``summarize`` calls the model only when a turn is about to leave the prompt window
  (``len(turns) > 3``: the window is the last 3 turns); before that the offline summary is enough.
- ``grade`` with no passages makes no call.

LLM calls per turn on the happy path: chat 2 (route, chat); report 2 (route, check_report);
fast 2 (route, analyze) or 3 with SQL (route, plan_sql, analyze); deep 4 (route, grade,
analyze, verify). Each rewrite adds 2 (rewrite, grade), each regeneration 2 (analyze, verify);
summarize adds 1 once the conversation outgrows the window.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from app.llm.errors import PolicyError
from app.llm.providers import CallGuard, make_chat_model, structured_method
from app.llm.structured import (
    field_list,
    parse_reply,
    short,
    strip_fences,
    strip_think,
    text_of,
    validated,
)
from graph import prompts as P
from graph.ports import Turn
from graph.schemas import (
    AnalystAnswer,
    ConversationSummary,
    FieldSelection,
    GradeBatch,
    QueryRewrite,
    ReportReadiness,
    RouteDecision,
    SqlQuery,
    Verification,
)
from graph.state import Doc

if TYPE_CHECKING:
    from app.settings import Settings

__all__ = ["LlmPolicies", "PolicyError"]

M = TypeVar("M", bound=BaseModel)

SUMMARY_WINDOW = 3
"""Turns the prompts show verbatim (RunContext.history_turns); older ones live in the summary."""
MAX_SUMMARY_CHARS = 1500
MAX_CHAT_CHARS = 2000
YEARS = range(1948, 2101)
_MARKER = re.compile(r"\[(\d+)\]")
_SELECT = re.compile(r"^\s*(select|with)\b", re.IGNORECASE)
_JSON_ERROR = re.compile(r"JSONDecodeError:? ([^\n]{1,80})")


class LlmPolicies:
    """One chat model behind the Policies decisions (see the module docstring)."""

    def __init__(
        self,
        model: BaseChatModel,
        timeout_s: float,
        *,
        method: str = "auto",
        max_concurrency: int = 4,
        schema_description: str | None = None,
    ) -> None:
        self.model = model
        self.method = structured_method(model, method)
        self.guard = CallGuard(timeout_s, max_concurrency)
        self._schema_description = schema_description
        self._runnables: dict[type[BaseModel], Any] = {}
        self._routes: OrderedDict[str, RouteDecision] = OrderedDict()
        self._lock = threading.Lock()
        self._local = threading.local()

    @classmethod
    def from_settings(cls, settings: Settings) -> LlmPolicies | None:
        model = make_chat_model(settings)
        if model is None:
            return None
        return cls(
            model,
            settings.llm_timeout_s,
            method=settings.llm_structured_output,
            max_concurrency=settings.llm_max_concurrency,
        )

    @property
    def calls(self) -> int:
        """LLM calls started from the current thread so far (failed ones included)."""
        return getattr(self._local, "calls", 0)

    # -- decisions ---------------------------------------------------------------------------

    def route(
        self, question: str, history: list[Turn], summary: str, retained: list[Doc]
    ) -> RouteDecision:
        self._forget_route(question)
        d = self._ask(
            RouteDecision,
            P.ROUTER_SYSTEM,
            P.ROUTER_USER.format(
                summary=summary or P.NONE,
                history=P.format_history(history),
                retained=P.format_retained(retained),
                question=question,
            ),
        )
        for year in (d.year_from, d.year_to):
            if year is not None and year not in YEARS:
                raise PolicyError(f"year {year} out of range")
        year_from, year_to = d.year_from, d.year_to
        if year_from is not None and year_to is not None and year_from > year_to:
            year_from, year_to = year_to, year_from
        d = d.model_copy(
            update={
                "ordinals": [n for n in dict.fromkeys(d.ordinals) if n > 0],
                "institutions": _distinct(d.institutions),
                "dispositions": _known_dispositions(d.dispositions),
                "year_from": year_from,
                "year_to": year_to,
                "search_query": d.search_query.strip(),
            }
        )
        self._remember_route(question, d)
        return d

    def select_fields(
        self,
        question: str,
        hints: dict[str, Any],
        retained: list[Doc],
        base: FieldSelection | None = None,
    ) -> FieldSelection | None:
        """No call: ``base`` (the offline selection) with its gaps filled from the router's
        extraction for this question, and the router's standalone search query; ``None`` when
        the router did not decide by LLM. Filters ``base`` found win: the offline selector
        matches the catalog of ingested names, the router copies names as written."""
        with self._lock:
            d = self._routes.get(question)
        if d is None:
            return None
        base = base or FieldSelection()
        years = (
            (base.year_from, base.year_to)
            if base.year_from or base.year_to
            else (d.year_from, d.year_to)
        )
        update: dict[str, Any] = {
            "institutions": base.institutions
            or d.institutions
            or list(hints.get("institutions") or []),
            "year_from": years[0],
            "year_to": years[1],
            "dispositions": base.dispositions
            or d.dispositions
            or list(hints.get("dispositions") or []),
            "search_query": d.search_query or base.search_query,
            "reasoning": "router: "
            + d.reasoning
            + (f" | {base.reasoning}" if base.reasoning else ""),
        }
        return base.model_copy(update=update)

    def plan_sql(self, question: str, fields: FieldSelection) -> SqlQuery:
        q = self._ask(
            SqlQuery,
            P.SQL_SYSTEM.format(schema=self.schema_description),
            P.SQL_USER.format(
                question=question,
                fields=json.dumps(
                    fields.model_dump(exclude={"reasoning"}, exclude_defaults=True),
                    ensure_ascii=False,
                ),
            ),
        )
        sql = strip_fences(q.sql).strip().rstrip(";").strip()
        if not _SELECT.match(sql) or ";" in sql:
            raise PolicyError("the SQL is not a single SELECT")
        return q.model_copy(update={"sql": sql})

    def grade(self, question: str, docs: list[Doc]) -> GradeBatch:
        if not docs:
            return GradeBatch(grades=[])
        batch = self._ask(
            GradeBatch,
            P.GRADER_SYSTEM,
            P.GRADER_USER.format(question=question, passages=P.format_passages(docs)),
        )
        if not batch.grades:
            raise PolicyError("no passage was graded")
        seen: dict[int, Any] = {}
        for g in batch.grades:
            if not 1 <= g.index <= len(docs):
                raise PolicyError(f"grade index {g.index} out of range 1-{len(docs)}")
            seen.setdefault(g.index, g)
        return GradeBatch(grades=list(seen.values()))

    def rewrite(
        self, question: str, query: str, tried: list[str], filters: dict[str, Any]
    ) -> QueryRewrite:
        rw = self._ask(
            QueryRewrite,
            P.REWRITE_SYSTEM,
            P.REWRITE_USER.format(
                question=question,
                query=query,
                tried=" | ".join(tried) or P.NONE,
                filters=json.dumps(filters, ensure_ascii=False, default=str) if filters else P.NONE,
            ),
        )
        new = " ".join(rw.query.split())
        if not new:
            raise PolicyError("empty rewrite")
        if _norm(new) in {_norm(t) for t in [*tried, query]}:
            raise PolicyError(f"the rewrite repeats a tried query: {new}")
        relax = (rw.relax_filter or "").strip().lower() or None
        if relax in ("null", "none"):
            relax = None
        if relax is not None and relax not in P.RELAXABLE_FILTERS:
            raise PolicyError(f"unknown relax_filter {rw.relax_filter!r}")
        return rw.model_copy(update={"query": new, "relax_filter": relax})

    def analyze(
        self,
        question: str,
        docs: list[Doc],
        sop: list[dict[str, Any]],
        sql: dict[str, Any] | None,
        feedback: str,
        history: list[Turn],
    ) -> AnalystAnswer:
        answer = self._ask(
            AnalystAnswer,
            P.ANALYST_SYSTEM,
            P.ANALYST_USER.format(
                history=P.format_history(history),
                question=question,
                passages=P.format_passages(docs),
                sop=P.format_sop(sop),
                sql=P.format_sql(sql),
                feedback=P.ANALYST_FEEDBACK.format(feedback=feedback) if feedback else "",
            ),
        )
        return _checked_answer(answer, docs)

    def verify(self, question: str, answer: AnalystAnswer, docs: list[Doc]) -> Verification:
        texts = [s.text for s in answer.sentences]
        v = self._ask(
            Verification,
            P.VERIFIER_SYSTEM,
            P.VERIFIER_USER.format(
                question=question,
                passages=P.format_passages(docs),
                sentences="\n".join(f"{i}. {t}" for i, t in enumerate(texts, start=1)) or P.NONE,
            ),
        )
        unsupported = _distinct([m for u in v.unsupported if (m := _match_sentence(u, texts))])
        grounded = v.grounded and not unsupported
        return v.model_copy(update={"unsupported": unsupported, "grounded": grounded})

    def check_report(self, question: str, history: list[Turn], docs: list[Doc]) -> ReportReadiness:
        r = self._ask(
            ReportReadiness,
            P.REPORT_SYSTEM,
            P.REPORT_USER.format(
                history=P.format_history(history),
                passages=P.format_passages(docs),
                question=question,
            ),
        )
        missing = _distinct([m.strip().lower() for m in r.missing])
        unknown = [m for m in missing if m not in P.REPORT_FIELDS]
        if unknown:
            raise PolicyError(f"unknown report field(s): {', '.join(unknown)}")
        if not r.ready and not missing:
            raise PolicyError("not ready, but nothing listed as missing")
        return r.model_copy(update={"missing": missing, "ready": r.ready and not missing})

    def chat(self, question: str, history: list[Turn], summary: str) -> str:
        messages = [
            SystemMessage(P.CHAT_SYSTEM),
            HumanMessage(
                P.CHAT_USER.format(
                    summary=summary or P.NONE, history=P.format_history(history), question=question
                )
            ),
        ]
        text = strip_think(text_of(self._call(lambda: self.model.invoke(messages)))).strip()
        if not text:
            raise PolicyError("empty reply")
        return text[:MAX_CHAT_CHARS]

    def summarize(self, summary: str, turns: list[Turn]) -> ConversationSummary | None:
        if len(turns) <= SUMMARY_WINDOW:
            return None
        s = self._ask(
            ConversationSummary,
            P.SUMMARY_SYSTEM,
            P.SUMMARY_USER.format(summary=summary or P.NONE, turns=P.format_history(turns)),
        )
        text = s.summary.strip()
        if not text:
            raise PolicyError("empty summary")
        return ConversationSummary(summary=text[:MAX_SUMMARY_CHARS])

    # -- plumbing ----------------------------------------------------------------------------

    @property
    def schema_description(self) -> str:
        if self._schema_description is None:
            try:
                from app.sql import SCHEMA_DESCRIPTION  # type: ignore[attr-defined]
            except ImportError as exc:
                raise PolicyError("no SQL schema description (app.sql.SCHEMA_DESCRIPTION)") from exc
            self._schema_description = SCHEMA_DESCRIPTION
        return self._schema_description

    def _call(self, fn: Any) -> Any:
        self._local.calls = self.calls + 1
        return self.guard.run(fn)

    def _ask(self, schema: type[M], system: str, user: str) -> M:
        """One call for one decision, parsed and validated against ``schema``."""
        if self.method in ("prompt", "json_mode"):
            system += P.JSON_REPLY.format(fields=field_list(schema))
        messages: list[BaseMessage] = [SystemMessage(system), HumanMessage(user)]
        if self.method == "prompt":
            return parse_reply(schema, text_of(self._call(lambda: self.model.invoke(messages))))
        runnable = self._runnables.get(schema)
        if runnable is None:
            runnable = self.model.with_structured_output(
                schema, method=self.method, include_raw=True
            )
            self._runnables[schema] = runnable
        out = self._call(lambda: runnable.invoke(messages))
        parsed = out.get("parsed") if isinstance(out, dict) else out
        if isinstance(parsed, schema):
            return parsed
        if isinstance(parsed, dict):
            return validated(schema, parsed)
        raw = out.get("raw") if isinstance(out, dict) else None
        if (getattr(raw, "response_metadata", None) or {}).get("finish_reason") == "length":
            raise PolicyError(
                "the reply was cut off at the output token limit (AURA_LLM_MAX_TOKENS)"
            )
        for call in getattr(raw, "tool_calls", None) or []:
            return validated(schema, call.get("args") or {})
        for call in getattr(raw, "invalid_tool_calls", None) or []:
            # Arguments that are not JSON (llama-cpp-python reports a tool call cut at the
            # token limit with finish_reason "tool_calls", so the cut shows only here).
            m = _JSON_ERROR.search(call.get("error") or "")
            tokens = ((raw.response_metadata or {}).get("token_usage") or {}).get("completion_tokens")
            raise PolicyError(
                "malformed tool-call arguments"
                + (f": {m.group(1)}" if m else "")
                + (f" after {tokens} output tokens" if tokens else "")
            )
        if raw is not None and text_of(raw).strip():
            return parse_reply(schema, text_of(raw))
        error = out.get("parsing_error") if isinstance(out, dict) else None
        raise PolicyError(f"no structured output ({short(str(error)) if error else 'empty reply'})")

    def _remember_route(self, question: str, d: RouteDecision) -> None:
        with self._lock:
            self._routes[question] = d
            self._routes.move_to_end(question)
            while len(self._routes) > 256:
                self._routes.popitem(last=False)

    def _forget_route(self, question: str) -> None:
        with self._lock:
            self._routes.pop(question, None)


# -- parsing and checks ----------------------------------------------------------------------


def _checked_answer(answer: AnalystAnswer, docs: Sequence[Doc]) -> AnalystAnswer:
    """Citations must point at passages; [n] markers and citations agree; a quote that is not
    in the first cited passage is dropped (an invented quote is worse than none)."""
    if not answer.sentences:
        raise PolicyError("the answer has no sentences")
    sentences = []
    for s in answer.sentences:
        text = s.text.strip()
        marked = [int(n) for n in _MARKER.findall(text)]
        cited = list(dict.fromkeys([*s.citations, *marked]))
        bad = [n for n in cited if not 1 <= n <= len(docs)]
        if bad:
            raise PolicyError(f"citation [{bad[0]}] but there are {len(docs)} passages")
        if cited and not marked:
            text += " " + "".join(f"[{n}]" for n in cited)
        quote = s.quote.strip()
        if quote and not (
            cited and _squash(quote) in _squash(docs[cited[0] - 1].get("text") or "")
        ):
            quote = ""
        if text:
            sentences.append(
                s.model_copy(update={"text": text, "citations": cited, "quote": quote})
            )
    if not sentences:
        raise PolicyError("the answer has no sentences")
    return answer.model_copy(
        update={"sentences": sentences, "follow_up_questions": answer.follow_up_questions[:3]}
    )


def _match_sentence(reported: str, texts: list[str]) -> str | None:
    """The answer sentence a verifier meant, when it quoted it loosely ('2. ...', trimmed)."""
    r = _squash(re.sub(r"^\s*\d+[.)]\s*", "", reported))
    if not r:
        return None
    for t in texts:
        if _squash(t) == r:
            return t
    for t in texts:
        if r in _squash(t) or _squash(t) in r:
            return t
    return None


def _known_dispositions(values: list[str]) -> list[str]:
    return _distinct(
        [
            next(d for d in P.DISPOSITIONS if d in v)
            for v in values
            if any(d in v for d in P.DISPOSITIONS)
        ]
    )


def _distinct(values: list[str]) -> list[str]:
    return list(dict.fromkeys(v.strip() for v in values if v and v.strip()))


def _squash(text: str) -> str:
    return "".join(text.split())


def _norm(text: str) -> str:
    return " ".join(text.lower().split())
