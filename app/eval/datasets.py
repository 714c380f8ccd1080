"""Retrieval evaluation datasets: passages + questions + gold ids.

Three shapes, chosen by what the directory holds:

- **plain**: ``passages.jsonl`` (``{"id", "text"}`` per line, optional ``"meta"``) and
  ``questions.jsonl`` (``{"id", "question", "gold_ids": [...]}`` per line, optional
  ``"filters"`` in ``SearchFilters`` form and free ``"tags"``).
- **autorag-ko**: ``ocr_corpus_v3.parquet`` (``doc_id``, ``contents``) and ``qa_v4.parquet``
  (``qid``, ``query``, ``retrieval_gt`` = list of lists of doc ids; every id counts as gold).
- **reports**: ``questions.jsonl`` with gold *finding* ids and a ``dataset.json`` naming the
  directory of 감사원 reports to ingest (``{"reports": "<path relative to the file>"}``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from app.retrieval.filters import SearchFilters


@dataclass(frozen=True)
class Passage:
    id: str
    text: str
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    gold_ids: tuple[str, ...]
    filters: SearchFilters | None = None
    tags: tuple[str, ...] = ()


@dataclass
class Dataset:
    name: str
    questions: list[Question]
    passages: list[Passage] = field(default_factory=list)
    """Empty for a reports dataset (its passages are the chunks of the ingested reports)."""
    reports_dir: Path | None = None
    """For a reports dataset: the files to ingest; gold ids are finding ids."""


class DatasetError(ValueError):
    pass


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{path.name} line {n}: {exc}") from exc
    return rows


def _questions(path: Path) -> list[Question]:
    out = []
    for n, row in enumerate(_read_jsonl(path), 1):
        try:
            gold = tuple(str(g) for g in row["gold_ids"])
            out.append(
                Question(
                    id=str(row["id"]),
                    question=str(row["question"]),
                    gold_ids=gold,
                    filters=SearchFilters(**row["filters"]) if row.get("filters") else None,
                    tags=tuple(row.get("tags") or ()),
                )
            )
        except (KeyError, TypeError) as exc:
            raise DatasetError(f"{path.name} question {n}: needs id, question, gold_ids ({exc})") from exc
        if not gold:
            raise DatasetError(f"{path.name} question {n}: empty gold_ids")
    return out


def load_plain(directory: Path) -> Dataset:
    passages = [
        Passage(str(r["id"]), str(r["text"]), dict(r.get("meta") or {})) for r in _read_jsonl(directory / "passages.jsonl")
    ]
    return Dataset(directory.name, _questions(directory / "questions.jsonl"), passages)


def load_autorag(directory: Path) -> Dataset:
    corpus = pq.read_table(directory / "ocr_corpus_v3.parquet", columns=["doc_id", "contents"]).to_pylist()
    qa = pq.read_table(directory / "qa_v4.parquet", columns=["qid", "query", "retrieval_gt"]).to_pylist()
    passages = [Passage(str(r["doc_id"]), str(r["contents"] or "")) for r in corpus]
    questions = [
        Question(str(r["qid"]), str(r["query"]), tuple(dict.fromkeys(g for alt in r["retrieval_gt"] for g in alt)))
        for r in qa
    ]
    return Dataset(directory.name, questions, passages)


def load_reports(path: Path) -> Dataset:
    directory = path if path.is_dir() else path.parent
    spec = json.loads((directory / "dataset.json").read_text(encoding="utf-8"))
    reports = (directory / spec["reports"]).resolve()
    if not reports.is_dir():
        raise DatasetError(f"reports directory not found: {reports}")
    return Dataset(spec.get("name", directory.name), _questions(directory / spec.get("questions", "questions.jsonl")), reports_dir=reports)


def load_dataset(path: str | Path) -> Dataset:
    """Load whichever shape ``path`` holds (see the module docstring)."""
    p = Path(path)
    if not p.exists():
        raise DatasetError(f"no dataset at {p}")
    if (p / "ocr_corpus_v3.parquet").is_file():
        return load_autorag(p)
    if (p / "dataset.json").is_file():
        return load_reports(p)
    if (p / "passages.jsonl").is_file():
        return load_plain(p)
    raise DatasetError(f"{p}: expected passages.jsonl + questions.jsonl, autorag-ko parquet files, or dataset.json")
