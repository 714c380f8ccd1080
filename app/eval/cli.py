"""``aura eval ...`` sub-commands.

The harnesses are imported inside each command: they load the container (Milvus Lite, Kiwi,
the embedder: seconds), which ``aura --help`` and the other commands must not wait for.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

eval_app = typer.Typer(help="Evaluation harnesses that print figures.", no_args_is_help=True)

ALL_METHODS = ["bm25", "dense", "hybrid"]


@eval_app.command("retrieval")
def retrieval(
    dataset: Annotated[Path, typer.Option(help="autorag-ko directory, a plain passages/questions directory, or a reports set with dataset.json.")],
    method: Annotated[str, typer.Option(help="bm25 | dense | hybrid | all")] = "all",
    embed_cache: Annotated[
        Path | None, typer.Option(help="Passage-vector cache (default: the test suite's, AURA_TEST_EMBED_CACHE).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Index a dataset into a temporary store and print recall@1/5/10, MRR@10, nDCG@10 and
    query latency p50/p95 per method."""
    from app.eval.datasets import DatasetError, load_dataset
    from app.eval.retrieval import default_embed_cache, run

    methods = ALL_METHODS if method == "all" else [method]
    if any(m not in ALL_METHODS for m in methods):
        raise typer.BadParameter(f"unknown method {method!r}; use bm25, dense, hybrid or all")
    try:
        ds = load_dataset(dataset)
    except DatasetError as exc:
        raise typer.BadParameter(str(exc)) from exc
    results = run(ds, methods, embed_cache or default_embed_cache())
    if as_json:
        out = {
            "dataset": ds.name,
            "questions": len(ds.questions),
            "passages": len(ds.passages) or None,
            "methods": {r.method: r.as_dict() for r in results},
        }
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        return
    table = Table("method", "recall@1", "recall@5", "recall@10", "MRR@10", "nDCG@10", "p50 ms", "p95 ms", title=f"{ds.name}: {len(ds.questions)} questions")
    for r in results:
        m = r.metrics
        table.add_row(
            r.method, *(f"{m[x]:.3f}" for x in ("recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10")),
            f"{r.latency_ms['p50']:.1f}", f"{r.latency_ms['p95']:.1f}",
        )
    Console().print(table)


@eval_app.command("routing")
def routing(
    dataset: Annotated[Path, typer.Option(help="Labelled conversations (JSONL).")] = Path("data/eval/routing.jsonl"),
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Track / pivot / follow-up accuracy of the router over labelled conversations, run through
    the whole graph on the current store."""
    from app.container import Container
    from app.eval.routing import load_conversations, run_turns, score
    from app.settings import Settings

    services = Container(Settings())
    try:
        result = score(list(run_turns(services, load_conversations(dataset))))
    finally:
        services.close()
    if as_json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False, default=str) + "\n")
        return
    out = Console()
    out.print({k: v for k, v in result.items() if k != "errors"})
    for e in result["errors"]:
        out.print(f"[red]{e['id']}[/red] {e['text']}  expected {e['expected']} got {e['got']}")


@eval_app.command("manual")
def manual(
    dataset: Annotated[Path, typer.Option(help="Manual questions (JSONL).")] = Path("data/eval/manual/questions.jsonl"),
    split: Annotated[str, typer.Option(help="dev | test | all (all reports dev and test separately).")] = "all",
    details: Annotated[Path | None, typer.Option(help="Per-question JSONL.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Questions about the audit manual itself: answered from the manual (and questions about
    cases in its words from the reports), the right clause first, its phrase quoted. Offline
    policies, on the current store (``aura sop ingest sop`` first)."""
    from app.container import Container
    from app.eval import manual as harness
    from app.settings import Settings

    if not dataset.is_file():
        raise typer.BadParameter(f"{dataset} not found")
    if split not in ("dev", "test", "all"):
        raise typer.BadParameter("use --split dev, test or all")
    services = Container(Settings().model_copy(update={"llm_provider": "none"}))
    try:
        recs = harness.run(services, harness.load(dataset, split))
    finally:
        services.close()
    if details:
        details.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    splits = ("dev", "test") if split == "all" else (split,)
    result = {s: harness.summarize([r for r in recs if r["split"] == s]) for s in splits}
    if as_json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        return
    Console().print(result)


@eval_app.command("answers")
def answers(
    dataset: Annotated[Path, typer.Option(help="Gold directory with questions.jsonl and conversations.jsonl, or a feedback export (aura feedback export --jsonl).")] = Path("data/eval/answers"),
    split: Annotated[str, typer.Option(help="dev | test | all (all reports dev and test separately).")] = "all",
    policies: Annotated[str, typer.Option(help="offline (the default policies) | llm (the configured AURA_LLM_* endpoint).")] = "offline",
    next_steps: Annotated[bool, typer.Option(help="Run each suggested question as a follow-up (phase 4).")] = True,
    details: Annotated[Path | None, typer.Option(help="Per-question JSONL (default: <data dir>/eval/answers-<split>.jsonl).")] = None,
    calibrate: Annotated[bool, typer.Option(help="Print the calibrated cosine threshold for partial nugget matches and stop.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
) -> None:
    """Score the answers over a gold set: citation, nuggets, groundedness, next steps,
    abstention, readability, latency, per kind of question. Runs on the current store (ingest
    ../shared/data/bai-reports first)."""
    from app.container import Container
    from app.eval.answer_summary import summarize
    from app.eval.answers import GoldError, check_store, load_gold, run
    from app.settings import Settings

    if policies not in ("offline", "llm"):
        raise typer.BadParameter("use --policies offline or --policies llm")
    from app.feedback.gold import is_feedback_export

    if is_feedback_export(dataset):
        from app.feedback.eval import feedback_candidates

        sys.stdout.write(json.dumps(feedback_candidates(dataset, policies, details), ensure_ascii=False) + "\n")
        return
    try:
        gold = load_gold(dataset, split)
    except GoldError as exc:
        raise typer.BadParameter(str(exc)) from exc
    settings = Settings()
    if policies == "offline":
        settings = settings.model_copy(update={"llm_provider": "none"})
    elif settings.llm_provider == "none":
        raise typer.BadParameter("--policies llm needs AURA_LLM_PROVIDER (and the endpoint) configured")
    services = Container(settings)
    try:
        problem = check_store(services, gold)
        if problem:
            raise typer.BadParameter(problem)
        if calibrate:
            from app.eval.answers import calibrate_partial

            sys.stdout.write(json.dumps(calibrate_partial(services, gold), ensure_ascii=False) + "\n")
            return
        recs = run(services, gold, next_steps=next_steps)
    finally:
        services.close()
    path = details or settings.data_dir / "eval" / f"answers-{split}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs), encoding="utf-8")
    if split == "all":
        result = {s: summarize([r for r in recs if r.get("split") == s]) for s in ("dev", "test")}
    else:
        result = {split: summarize(recs)}
    result["policies"] = policies
    result["details"] = str(path)
    if as_json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        return
    sys.stdout.write(format_answer_tables(result) + "\n")


def format_answer_tables(result: dict) -> str:
    """A plain-text table per split: one row per kind of question, then overall and abstention."""
    cols = ("top1", "any_gold", "citation_precision", "nuggets", "groundedness", "next_steps_evidence",
            "false_abstention", "artefact_answers", "chars_median", "ms_p50", "ms_p95")
    lines = []
    for split in ("dev", "test"):
        if split not in result:
            continue
        s = result[split]
        lines.append(f"{split}: {s['overall']['questions']} questions")
        lines.append("kind".ljust(16) + " ".join(c[:10].rjust(10) for c in cols))
        for name, block in [*s["by_kind"].items(), ("answerable+un", s["overall"])]:
            lines.append(name.ljust(16) + " ".join(_fmt(block.get(c)).rjust(10) for c in cols))
        a = s["abstention"]
        lines.append(f"abstention P {a['precision']:.3f} R {a['recall']:.3f} F1 {a['f1']:.3f}")
        if "conversations" in s:
            c = s["conversations"]
            lines.append(f"conversations: {c['turns']} turns, follow-up/pivot decisions {_fmt(c['decision_accuracy_later_turns'])}")
        lines.append("")
    return "\n".join(lines)


def _fmt(v: object) -> str:
    if v is None:
        return "-"
    return f"{v:.3f}" if isinstance(v, float) else str(v)
