"""The ``aura`` command line: ingest, findings, sop, status, reindex, bench, serve, ui, keys.

Commands import what they run inside their own body: the container loads Milvus Lite, Kiwi and
the embedder (seconds), uvicorn and the eval harnesses more, and ``aura --help`` or ``aura keys``
must not wait for any of it.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from app.bench.cli import register as register_bench
from app.eval.cli import eval_app
from app.feedback.cli import feedback_app
from app.settings import Settings
from graph.vocab import DISPOSITIONS, MODES

app = typer.Typer(help="AURA: an audit assistant grounded in real audit reports.", no_args_is_help=True)
sop_app = typer.Typer(help="Audit procedures and criteria (SOP) documents.", no_args_is_help=True)
bench_app = typer.Typer(help="Benchmarks that print figures.", no_args_is_help=True)
app.add_typer(sop_app, name="sop")
app.add_typer(bench_app, name="bench")
register_bench(bench_app)
app.add_typer(eval_app, name="eval")
app.add_typer(feedback_app, name="feedback")

out = Console()
err = Console(stderr=True)
JsonFlag = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def _services():
    from app.container import Container

    return Container(Settings())


def _emit_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str) + "\n")


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files or directories (PDF, HWP, HWPX, DOCX, TXT, MD).")],
    as_json: JsonFlag = False,
) -> None:
    """Ingest documents; 감사원 reports are split into findings. Same file again = no change."""
    from app.ingest.pipeline import expand_paths

    files = list(expand_paths(paths))
    services = _services()
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=err, transient=as_json,
    ) as progress:
        task = progress.add_task("ingest", total=len(files))

        def tick(result) -> None:  # noqa: ANN001
            progress.update(task, advance=1, description=f"{result.file[:40]} {result.status}")

        summary = services.ingestor.ingest(files, on_file=tick)
    services.close()
    if as_json:
        _emit_json(summary.as_dict())
    else:
        table = Table("file", "status", "findings", "chunks", "error")
        for r in summary.results:
            table.add_row(r.file, r.status, str(r.findings), str(r.chunks), r.error or "")
        out.print(table)
        out.print(
            f"files {summary.files}, reports {summary.reports}, findings {summary.findings}, "
            f"chunks {summary.chunks}, skipped {summary.skipped}, errors {len(summary.errors)}"
        )
    if summary.errors:
        raise typer.Exit(1)


@app.command()
def findings(
    institution: Annotated[str | None, typer.Option(help="Part of the institution name.")] = None,
    year: Annotated[int | None, typer.Option(help="Report year.")] = None,
    disposition: Annotated[str | None, typer.Option(help="One of: " + ", ".join(DISPOSITIONS))] = None,
    report: Annotated[str | None, typer.Option(help="Report id.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 100,
    as_json: JsonFlag = False,
) -> None:
    """List findings with filters."""
    from app.db.queries import finding_summary, list_findings

    services = _services()
    with services.sessions() as session:
        rows, total = list_findings(session, institution, year, disposition, report, limit)
        items = [finding_summary(f) for f in rows]
    if as_json:
        _emit_json({"total": total, "findings": items})
        return
    table = Table("id", "title", "dispositions", "institution", "year")
    for f in items:
        table.add_row(f["id"], f["title"], ", ".join(f["dispositions"]), f["institution"] or "", str(f["year"] or ""))
    out.print(table)
    out.print(f"{len(items)} of {total} findings")


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, in Korean or English.")],
    thread: Annotated[str | None, typer.Option("--thread", help="Continue this conversation (created if new).")] = None,
    mode: Annotated[str, typer.Option(help=" | ".join(MODES))] = "auto",
    as_json: JsonFlag = False,
) -> None:
    """Run one conversation turn through the audit graph."""
    from app.agent.runner import Agent, BadRequest

    services = _services()
    try:
        result = Agent(services).ask(question, thread, mode)
    except BadRequest as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from exc
    finally:
        services.close()
    if as_json:
        _emit_json(result)
        return
    coverage = f"   coverage {result['coverage']}" if result.get("coverage") else ""
    out.print(f"[bold]track[/bold] {result['track']}{coverage}   [dim]thread {result['thread_id']}[/dim]")
    out.print(result["answer"])
    if result["evidence"]:
        out.print("\n[bold]근거[/bold]")
        for e in result["evidence"]:
            out.print(f"[{e['n']}] {e['report']} p.{e['page']} ({e['finding_id'] or e['section']})")
    if result["sql"]:
        out.print(f"\n[dim]SQL: {result['sql']['query']}[/dim]")
    for step in result["steps"]:
        out.print(f"[dim]· {step['node']} ({step['ms']} ms): {step['summary']}[/dim]")


@sop_app.command("ingest")
def sop_ingest(directory: Annotated[Path, typer.Argument()] = Path("sop"), as_json: JsonFlag = False) -> None:
    """Load SOP clause files (Markdown) into the database."""
    from app.ingest.sop import ingest_sop_dir

    counts = ingest_sop_dir(directory, _services().sessions)
    _emit_json(counts) if as_json else out.print(f"SOP: {counts}")


@app.command()
def status(as_json: JsonFlag = False) -> None:
    """Counts in SQL and Milvus, and whether both hold the same chunk ids per report."""
    from app.db.queries import chunk_ids_by_report
    from app.ingest.pipeline import stored_counts

    services = _services()
    with services.sessions() as session:
        counts = stored_counts(session)
        by_report = chunk_ids_by_report(session)
    mismatched = [rid for rid, ids in by_report.items() if services.vectors.ids_for_report(rid) != ids]
    vectors = services.vectors.count()
    # vectors of reports SQL does not know (a crash between the two writes) show as a surplus
    consistent = not mismatched and vectors == counts["chunks"]
    counts.update(vectors=vectors, consistent=consistent, mismatched_reports=mismatched)
    services.close()
    _emit_json(counts) if as_json else out.print(counts)


@app.command()
def reindex() -> None:
    """Rebuild the Milvus vectors of every report from the chunks in SQL."""
    from app.db.queries import report_ids

    services = _services()
    with services.sessions() as session:
        ids = report_ids(session)
    total = sum(services.ingestor.reindex_report(rid) for rid in ids)
    services.close()
    out.print(f"reindexed {total} chunks of {len(ids)} reports")




keys_app = typer.Typer(help="API keys for the HTTP API.", no_args_is_help=True)
app.add_typer(keys_app, name="keys")


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
) -> None:
    """Run the HTTP API (uvicorn, one worker: this process owns the Milvus Lite directory)."""
    import uvicorn

    from app.api.main import serve_app

    uvicorn.run(serve_app(), host=host, port=port, workers=1)


@app.command()
def ui(
    api: Annotated[str | None, typer.Option(help="The API's base URL (default: AURA_API_URL or http://127.0.0.1:8000).")] = None,
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8501,
) -> None:
    """Run the Streamlit UI. It talks to the API over HTTP with the key from AURA_API_KEY or the
    key file (AURA_API_KEY_FILE, default <AURA_DATA_DIR>/ui.key)."""
    import app.ui

    env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}
    if api:
        env["AURA_API_URL"] = api
    script = Path(app.ui.__file__).with_name("streamlit_app.py")
    args = [sys.executable, "-m", "streamlit", "run", str(script), "--server.address", host, "--server.port", str(port),
            "--server.headless", "true", "--server.fileWatcherType", "none", "--client.toolbarMode", "minimal"]
    sys.stdout.flush()
    os.execve(sys.executable, args, env)  # the UI replaces this process: stopping it stops the UI


@keys_app.command("create")
def keys_create(name: Annotated[str, typer.Argument(help="Who or what the key is for.")]) -> None:
    """Create a key; it is printed once and only its hash is stored."""
    from app.keys import KeyCommandError, create_key

    try:
        info, key = create_key(_services().sessions, name)
    except KeyCommandError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc
    err.print(f"key '{info.name}' created; it is shown only now:")
    typer.echo(key)


@keys_app.command("ensure")
def keys_ensure(
    name: Annotated[str, typer.Argument(help="Who or what the key is for.")],
    file: Annotated[Path, typer.Option("--file", help="Where the key is kept (written with mode 0600).")],
) -> None:
    """Create key NAME and write it to FILE, only if FILE does not exist (for `make run` and the UI)."""
    from app.keys import KeyCommandError, ensure_key_file

    try:
        created = ensure_key_file(_services().sessions, name, file)
    except (KeyCommandError, OSError) as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from exc
    err.print(f"key '{name}' written to {file}" if created else f"{file} exists; nothing to do")


@keys_app.command("list")
def keys_list(as_json: JsonFlag = False) -> None:
    """Keys with their prefix, creation time and whether they are revoked."""
    from app.keys import list_keys

    keys = list_keys(_services().sessions)
    if as_json:
        _emit_json([asdict(k) for k in keys])
        return
    table = Table("name", "prefix", "created", "revoked")
    for k in keys:
        table.add_row(k.name, k.prefix + "…", str(k.created_at)[:19], str(k.revoked_at)[:19] if k.revoked_at else "")
    out.print(table)


@keys_app.command("revoke")
def keys_revoke(name: Annotated[str, typer.Argument()]) -> None:
    """Revoke the active key NAME; requests with it get 401 from then on."""
    from app.keys import revoke_key

    if not revoke_key(_services().sessions, name):
        err.print(f"[red]error:[/red] no active key named '{name}'")
        raise typer.Exit(1)
    out.print(f"key '{name}' revoked")


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    app()


if __name__ == "__main__":
    main()
