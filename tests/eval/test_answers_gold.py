"""The answer gold set loads, is well formed, and still matches the reports as the parser reads
them (a parser change that moves a finding id or its text shows up here, not as a silent drop in
the answer figures)."""

import json

import pytest

from app.eval.answer_checks import contains
from app.eval.answers import SOP_GOLD, GoldError, load_gold, load_sop_gold
from app.ingest.bai_parser import parse_report
from app.ingest.loaders import load_document
from app.ingest.pipeline import finding_id_for, report_id_for
from app.ingest.sop import parse_sop_markdown
from graph.vocab import QUESTION_KINDS as KINDS
from tests.conftest import BAI_REPORTS, ROOT, SOP_DIR, require_shared

GOLD = ROOT / "data" / "eval" / "answers"
FOLLOWUPS = ROOT / "data" / "eval" / "followups"


@pytest.fixture(scope="module")
def finding_texts() -> dict[str, str]:
    require_shared()
    out = {}
    for pdf in sorted(BAI_REPORTS.glob("*.pdf")):
        report = parse_report(load_document(pdf))
        for f in report.findings:
            out[finding_id_for(report_id_for(pdf), f.number)] = "\n".join([f.title, *(s.text for s in f.sections)])
    return out


def test_counts_and_fields():
    gold = load_gold(GOLD)
    answerable = [q for q in gold.questions if q["answerable"]]
    assert len(gold.questions) >= 150 and len([q for q in gold.questions if not q["answerable"]]) >= 40
    for kind in KINDS:
        assert sum(q["kind"] == kind for q in answerable) >= 20, kind
    assert sum(q["lang"] == "en" for q in gold.questions) >= 15
    assert sum(q.get("unanswerable_type") == "near_miss" for q in gold.questions) >= 15
    assert len(gold.conversations) >= 20
    assert {q["split"] for q in gold.questions} == {"dev", "test"}
    assert len(load_gold(GOLD, "test").questions) < len(load_gold(GOLD, "dev").questions)


def test_the_blind_follow_up_set_is_well_formed():
    convs = load_gold(FOLLOWUPS).conversations
    later = [t for c in convs for t in c["turns"][1:]]
    assert len(convs) >= 30 and all(c["turns"][0]["expect"] == "new" for c in convs)
    assert sum(t["expect"] == "follow_up" for t in later) >= 40 and sum(t["expect"] == "new" for t in later) >= 40
    assert {c["split"] for c in convs} == {"dev", "test"}


@pytest.mark.parametrize("directory", [GOLD, FOLLOWUPS], ids=["answers", "followups"])
def test_gold_matches_the_parsed_reports(finding_texts, directory):
    gold = load_gold(directory)
    turns = [t for c in gold.conversations for t in c["turns"]]
    for item in [*gold.questions, *turns]:
        for fid in [*item.get("gold_findings", []), *item.get("near_findings", [])]:
            assert fid in finding_texts, (item.get("id"), fid)
        for n in item.get("nuggets") or []:
            assert contains(finding_texts[n["finding"]], n["phrase"]), (item.get("id"), n["phrase"])


def test_the_sop_labels_name_real_findings_and_clauses(finding_texts):
    labels = load_sop_gold(GOLD.parent / SOP_GOLD)
    clauses = {c.id for path in SOP_DIR.glob("0*.md") for c in parse_sop_markdown(path.read_text(encoding="utf-8"), path.name)[2]}
    assert set(labels) == set(finding_texts)
    assert set().union(*(x.applies for x in labels.values())) <= clauses
    assert all(x.violation <= x.applies and all(c.startswith("SOP-VIO-") for c in x.violation) for x in labels.values())
    assert load_gold(GOLD).sop == labels


def test_bad_gold_is_a_clear_error(tmp_path):
    with pytest.raises(GoldError, match="neither .*questions.jsonl nor .*conversations.jsonl found"):
        load_gold(tmp_path)
    (tmp_path / "questions.jsonl").write_text('{"id": "x"\n', encoding="utf-8")
    with pytest.raises(GoldError, match="questions.jsonl:1: not JSON"):
        load_gold(tmp_path)
    row = {"id": "x", "kind": "summary", "question": "q", "answerable": True, "split": "dev"}
    (tmp_path / "questions.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(GoldError, match="no gold_findings"):
        load_gold(tmp_path)
    with pytest.raises(GoldError, match="unknown split"):
        load_gold(GOLD, "train")
    (tmp_path / "sop.jsonl").write_text('{"violation": []}\n', encoding="utf-8")
    with pytest.raises(GoldError, match="lacks 'finding'"):
        load_sop_gold(tmp_path / "sop.jsonl")
    (tmp_path / "sop.jsonl").write_text('{"finding": "F1"}\n{"finding": "F1"}\n', encoding="utf-8")
    with pytest.raises(GoldError, match="F1 is labelled twice"):
        load_sop_gold(tmp_path / "sop.jsonl")
    (tmp_path / "sop.jsonl").write_text('{"finding": "F1", "violation": "SOP-VIO-02"}\n', encoding="utf-8")
    with pytest.raises(GoldError, match="must be lists"):
        load_sop_gold(tmp_path / "sop.jsonl")
