"""Checks of a model's decision against its inputs (the schema was checked on parsing):
citations and grade indexes must point at real passages, filters and report fields must be
known values, a rewrite must be new. Each returns the cleaned decision or raises
``PolicyError`` with a short reason."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from app.llm.errors import PolicyError
from app.llm.structured import strip_fences
from app.text.footnotes import without_footnote_marks
from graph import schemas as S
from graph.state import Doc
from graph.vocab import DISPOSITIONS, RELAXABLE_FILTERS, REPORT_FIELDS

YEARS = range(1948, 2101)
_MARKER = re.compile(r"\[(\d+)\]")
_SELECT = re.compile(r"^\s*(select|with)\b", re.IGNORECASE)


def checked_route(d: S.RouteDecision) -> S.RouteDecision:
    for year in (d.year_from, d.year_to):
        if year is not None and year not in YEARS:
            raise PolicyError(f"year {year} out of range")
    year_from, year_to = d.year_from, d.year_to
    if year_from is not None and year_to is not None and year_from > year_to:
        year_from, year_to = year_to, year_from
    return d.model_copy(
        update={
            "ordinals": [n for n in dict.fromkeys(d.ordinals) if n > 0],
            "ordinals_in_list": False,  # the model numbers the earlier results as its prompt shows them
            "institutions": distinct(d.institutions),
            "dispositions": known_dispositions(d.dispositions),
            "year_from": year_from,
            "year_to": year_to,
            "search_query": d.search_query.strip(),
            "same_report": d.same_report,
            # another finding of the report shown is a pivot, also when the model took it for a follow-up
            "follow_up": d.follow_up and not d.same_report,
            "pivot": d.pivot or d.same_report,
        }
    )


def fields_over(base: S.FieldSelection, route: S.RouteDecision, hints: dict[str, Any]) -> S.FieldSelection:
    """``base`` (the offline selection) with its gaps filled from the router's extraction and
    the router's standalone query. Filters ``base`` found win: the offline selector matches the
    catalog of ingested names, the router copies names as written."""
    years = (base.year_from, base.year_to) if base.year_from or base.year_to else (route.year_from, route.year_to)
    institutions = base.institutions or route.institutions or list(hints.get("institutions") or [])
    return base.model_copy(
        update={
            "institutions": institutions,
            "source": "reports" if institutions or years[0] or years[1] else base.source,  # a named scope asks about cases
            "year_from": years[0],
            "year_to": years[1],
            "dispositions": base.dispositions or route.dispositions or list(hints.get("dispositions") or []),
            "search_query": route.search_query or base.search_query,
            "reasoning": "router: " + route.reasoning + (f" | {base.reasoning}" if base.reasoning else ""),
        }
    )


def checked_sql(q: S.SqlQuery) -> S.SqlQuery:
    sql = strip_fences(q.sql).strip().rstrip(";").strip()
    if not _SELECT.match(sql) or ";" in sql:
        raise PolicyError("the SQL is not a single SELECT")
    return q.model_copy(update={"sql": sql})


def checked_grades(batch: S.GradeBatch, n_docs: int) -> S.GradeBatch:
    if not batch.grades:
        raise PolicyError("no passage was graded")
    seen: dict[int, Any] = {}
    for g in batch.grades:
        if not 1 <= g.index <= n_docs:
            raise PolicyError(f"grade index {g.index} out of range 1-{n_docs}")
        seen.setdefault(g.index, g)
    return S.GradeBatch(grades=list(seen.values()))


def checked_rewrite(rw: S.QueryRewrite, query: str, tried: list[str]) -> S.QueryRewrite:
    new = " ".join(rw.query.split())
    if not new:
        raise PolicyError("empty rewrite")
    if _norm(new) in {_norm(t) for t in [*tried, query]}:
        raise PolicyError(f"the rewrite repeats a tried query: {new}")
    relax = (rw.relax_filter or "").strip().lower() or None
    if relax in ("null", "none"):
        relax = None
    if relax is not None and relax not in RELAXABLE_FILTERS:
        raise PolicyError(f"unknown relax_filter {rw.relax_filter!r}")
    return rw.model_copy(update={"query": new, "relax_filter": relax})


def checked_answer(answer: S.AnalystAnswer, docs: Sequence[Doc]) -> S.AnalystAnswer:
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
        source = docs[cited[0] - 1].get("text") or "" if cited else ""
        if quote and not (cited and (_squash(quote) in _squash(source) or _squash(quote) in _squash(without_footnote_marks(source)))):
            quote = ""
        if text:
            sentences.append(s.model_copy(update={"text": text, "citations": cited, "quote": quote}))
    if not sentences:
        raise PolicyError("the answer has no sentences")
    return answer.model_copy(update={"sentences": sentences, "follow_up_questions": answer.follow_up_questions[:3]})


def checked_verification(v: S.Verification, texts: list[str]) -> S.Verification:
    unsupported = distinct([m for u in v.unsupported if (m := match_sentence(u, texts))])
    return v.model_copy(update={"unsupported": unsupported, "grounded": v.grounded and not unsupported})


def checked_readiness(r: S.ReportReadiness) -> S.ReportReadiness:
    missing = distinct([m.strip().lower() for m in r.missing])
    unknown = [m for m in missing if m not in REPORT_FIELDS]
    if unknown:
        raise PolicyError(f"unknown report field(s): {', '.join(unknown)}")
    if not r.ready and not missing:
        raise PolicyError("not ready, but nothing listed as missing")
    return r.model_copy(update={"missing": missing, "ready": r.ready and not missing})


def match_sentence(reported: str, texts: list[str]) -> str | None:
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


def known_dispositions(values: list[str]) -> list[str]:
    return distinct([next(d for d in DISPOSITIONS if d in v) for v in values if any(d in v for d in DISPOSITIONS)])


def distinct(values: list[str]) -> list[str]:
    return list(dict.fromkeys(v.strip() for v in values if v and v.strip()))


def _squash(text: str) -> str:
    return "".join(text.split())


def _norm(text: str) -> str:
    return " ".join(text.lower().split())
