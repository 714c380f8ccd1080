"""Feedback for evaluation: `aura feedback export --jsonl` writes every key's records, and
`aura eval answers --dataset EXPORT` turns the 👎 ones into gold-set candidates (the
questions.jsonl format, unlabelled) after running them through the graph again."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from app.cli import app as cli
from app.container import Container
from app.feedback.gold import FeedbackFileError, candidates, is_feedback_export, read_export
from app.feedback.store import save_feedback
from app.keys import create_key
from app.settings import Settings
from tests.conftest import EMBED_CACHE, SAMPLES

QUESTION = "가람시 체육시설 물품 구매계약 분할 수의계약 문제 분석해줘"


def _turn(turn_id: str, question: str, coverage: str = "full") -> dict:
    return {"turn_id": turn_id, "question": question, "answer": f"answer to {question}", "coverage": coverage,
            "evidence": [{"finding_id": "sample_numbered-F01"}, {"finding_id": "sample_numbered-F01"}, {"finding_id": None}]}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("feedback-store")
    services = Container(Settings(data_dir=data_dir, embedding_cache_path=EMBED_CACHE))
    try:
        assert services.ingestor.ingest([SAMPLES]).errors == []
        alice = create_key(services.sessions, "alice")[0]
        bob = create_key(services.sessions, "bob")[0]
        with services.sessions() as s:
            save_feedback(s, alice.id, "t1", _turn("c1", QUESTION), "down", "처분 근거가 빠짐")
            save_feedback(s, alice.id, "t1", _turn("c2", "안녕"), "up", "")
            save_feedback(s, bob.id, "t2", _turn("c3", "Which findings concern 나라시?", "none"), "down", "")
    finally:
        services.close()
    return data_dir


def _env(data_dir) -> dict[str, str]:
    return {"AURA_DATA_DIR": str(data_dir), "AURA_EMBEDDING_CACHE_PATH": str(EMBED_CACHE), "AURA_LLM_PROVIDER": "none"}


def test_export_jsonl_and_candidates(store, tmp_path):
    runner = CliRunner()
    out = tmp_path / "feedback.jsonl"
    r = runner.invoke(cli, ["feedback", "export", "--jsonl", "--out", str(out)], env=_env(store))
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(x["owner"], x["rating"]) for x in rows] == [("alice", "down"), ("alice", "up"), ("bob", "down")]
    assert rows[0]["cited_findings"] == ["sample_numbered-F01"] and rows[0]["comment"] == "처분 근거가 빠짐"
    assert rows[0]["question"] == QUESTION and rows[0]["created_at"].endswith("+00:00")
    assert is_feedback_export(out)
    summary = runner.invoke(cli, ["feedback", "export"], env=_env(store))
    assert "3 feedback records: 1 up, 2 down" in summary.output

    cands = candidates(read_export(out))
    assert [c["question"] for c in cands] == [QUESTION, "Which findings concern 나라시?"]
    first = cands[0]
    assert {"id", "split", "kind", "lang", "question", "answerable", "gold_findings", "nuggets", "notes"} <= set(first)
    assert first["answerable"] is None and first["gold_findings"] == [] and first["lang"] == "ko"
    assert "처분 근거가 빠짐" in first["notes"] and cands[1]["lang"] == "en" and cands[1]["disliked"]["coverage"] == "none"

    details = tmp_path / "candidates.jsonl"
    r = runner.invoke(cli, ["eval", "answers", "--dataset", str(out), "--details", str(details)], env=_env(store))
    assert r.exit_code == 0, r.output
    result = json.loads(r.output.strip().splitlines()[-1])
    assert result["candidates"] == 2 and result["candidates_file"] == str(details)
    now = {q["id"]: q for q in result["questions"]}
    assert now[first["id"]]["coverage_now"] in ("full", "partial") and now[first["id"]]["changed"] is True
    assert "sample_numbered-F01" in now[first["id"]]["findings_now"]
    written = [json.loads(line) for line in details.read_text().splitlines()]
    assert [w["id"] for w in written] == [c["id"] for c in cands]


def test_not_an_export(tmp_path):
    gold_dir = tmp_path / "gold"
    gold_dir.mkdir()
    assert not is_feedback_export(gold_dir)
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"kind": "aura-feedback", "question": "q", "rating": "down", "id": 1}\n{"kind": "other"}\n')
    assert is_feedback_export(bad)
    with pytest.raises(FeedbackFileError, match=r"x.jsonl:2"):
        read_export(bad)
