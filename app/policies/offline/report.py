"""Offline report readiness: a draft needs an institution, a period, findings with evidence,
criteria and actions. Findings carry all of that in the database, so a conversation that has
found at least one finding is ready; otherwise we ask for what is missing."""

from __future__ import annotations

from graph.ports import Turn
from graph.schemas import ReportReadiness
from graph.state import Doc


def check(question: str, docs: list[Doc], named_institutions: list[str]) -> ReportReadiness:
    findings = [d for d in docs if d.get("finding_id")]
    if findings:
        inst = (findings[0].get("institutions") or [None])[0]
        return ReportReadiness(
            reasoning=f"{len({d['finding_id'] for d in findings})} findings with their sections are available",
            ready=True,
            institution=inst,
            period=str(findings[0].get("year") or "") or None,
        )
    missing = ["findings"] if named_institutions else ["institution", "findings"]
    return ReportReadiness(reasoning="no finding has been retrieved in this conversation yet", ready=False, missing=missing)


def turns_text(turns: list[Turn]) -> str:
    return " ".join(t.question for t in turns)
