"""``aura eval ...`` sub-commands."""

from __future__ import annotations

import typer

eval_app = typer.Typer(help="Evaluation harnesses that print figures.", no_args_is_help=True)
