"""``aura eval answers --dataset FEEDBACK.jsonl``: the 👎 questions of a feedback export run
through the graph again (offline or the configured LLM), compared with the answers disliked,
and written as gold-set candidates for a person to label."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from app.container import Container
from app.eval.answers import Gold, iter_run
from app.feedback.gold import FeedbackFileError, candidates, compare, read_export
from app.settings import Settings


def feedback_candidates(path: Path, policies: str, out: Path | None) -> dict[str, Any]:
    try:
        cands = candidates(read_export(path))
    except FeedbackFileError as exc:
        raise typer.BadParameter(str(exc)) from exc
    settings = Settings()
    if policies == "offline":
        settings = settings.model_copy(update={"llm_provider": "none"})
    elif settings.llm_provider == "none":
        raise typer.BadParameter("--policies llm needs AURA_LLM_PROVIDER (and the endpoint) configured")
    # Unlabelled: run as questions without gold (scored for what the graph did, not against gold).
    items = [{**c, "answerable": False} for c in cands]
    services = Container(settings)
    try:
        recs = list(iter_run(services, Gold(items, []), next_steps=False))
    finally:
        services.close()
    target = out or settings.data_dir / "eval" / "feedback-candidates.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cands), encoding="utf-8")
    return {"dataset": str(path), "policies": policies, "candidates_file": str(target), **compare(cands, recs)}
