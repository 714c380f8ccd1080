"""``aura feedback ...``: export the auditors' 👍/👎 for evaluation.

The container is imported on use (Milvus Lite, Kiwi, the embedder: seconds) so ``aura --help``
stays fast.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

feedback_app = typer.Typer(help="Auditors' feedback on answers (👍/👎 and comments).", no_args_is_help=True)


@feedback_app.command("export")
def export(
    jsonl: Annotated[bool, typer.Option("--jsonl", help="One JSON record per line (for `aura eval answers --dataset FILE`).")] = False,
    out: Annotated[Path | None, typer.Option(help="Write to this file instead of standard output.")] = None,
    rating: Annotated[str | None, typer.Option(help="Only 'up' or only 'down'.")] = None,
) -> None:
    """Every key's feedback, oldest first: question, answer, coverage, cited findings, rating,
    comment, who gave it and when. Without --jsonl: a count per rating."""
    from app.container import Container
    from app.feedback.store import export_records
    from app.settings import Settings

    if rating not in (None, "up", "down"):
        raise typer.BadParameter("use --rating up or --rating down")
    services = Container(Settings())
    try:
        with services.sessions() as session:
            records = export_records(session, rating)
    finally:
        services.close()
    if not jsonl:
        ups = sum(r["rating"] == "up" for r in records)
        typer.echo(f"{len(records)} feedback records: {ups} up, {len(records) - ups} down (--jsonl to export them)")
        return
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    if out:
        out.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {len(records)} records to {out}", err=True)
    else:
        sys.stdout.write(text)
