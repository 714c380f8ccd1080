"""``aura eval ...`` sub-commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

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
    from rich.console import Console
    from rich.table import Table

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
