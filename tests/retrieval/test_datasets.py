import json

import pytest

from app.eval.datasets import DatasetError, load_dataset
from tests.conftest import AUTORAG, ROOT


def _write(path, rows):
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")


def test_plain_format(tmp_path):
    _write(tmp_path / "passages.jsonl", [{"id": "p1", "text": "수의계약 분할"}, {"id": "p2", "text": "시간외근무"}])
    _write(tmp_path / "questions.jsonl", [
        {"id": "q1", "question": "분할 계약", "gold_ids": ["p1"]},
        {"id": "q2", "question": "수당", "gold_ids": ["p2", "p1"], "filters": {"year_from": 2024}, "tags": ["x"]},
    ])
    ds = load_dataset(tmp_path)
    assert [p.id for p in ds.passages] == ["p1", "p2"]
    assert ds.questions[1].gold_ids == ("p2", "p1") and ds.questions[1].filters.year_from == 2024
    assert ds.reports_dir is None


def test_plain_format_rejects_questions_without_gold(tmp_path):
    _write(tmp_path / "passages.jsonl", [{"id": "p1", "text": "x"}])
    _write(tmp_path / "questions.jsonl", [{"id": "q1", "question": "x", "gold_ids": []}])
    with pytest.raises(DatasetError):
        load_dataset(tmp_path)


def test_autorag_loader():
    ds = load_dataset(AUTORAG)
    assert len(ds.passages) == 720 and len(ds.questions) == 114
    ids = {p.id for p in ds.passages}
    assert all(set(q.gold_ids) <= ids for q in ds.questions)


def test_audit_question_set_shape():
    ds = load_dataset(ROOT / "data" / "eval" / "bai-audit")
    assert ds.reports_dir is not None and ds.reports_dir.is_dir()
    assert len(ds.questions) >= 60
    tags = [t for q in ds.questions for t in q.tags]
    assert tags.count("paraphrase") >= 5 and tags.count("english") >= 5
    assert all(g.split("-F")[0].startswith("jj") for q in ds.questions for g in q.gold_ids)
