"""`aura eval answers` on the held-out test split of the blind gold set, through the whole graph on
the 12 real reports, offline. The floors are the measured figures (BENCHMARKS.md, "Answer
quality") rounded down, so a change that makes the answers worse fails here; raise them as the
answers improve."""

import pytest

from app.eval.answer_summary import summarize
from app.eval.answers import load_gold, run
from tests.conftest import ROOT

pytestmark = pytest.mark.slow

FLOORS = {
    "top1": 0.91,
    "any_gold": 0.91,
    "citation_precision": 0.88,  # 0.901 -> 0.890 when questions asking for several findings kept those at p >= 0.9 (recall 0.832 -> 0.841)
    "nuggets": 0.44,  # 문제점 sentences shown by their end (was 0.41; test reads 0.452); paraphrase credit at the calibrated cosine 0.96
    "groundedness": 0.99,
    "next_steps_evidence": 0.95,
    "disposition_match": 0.85,
    "law_recall": 0.80,
    "sop_precision": 0.93,  # clauses of the findings presented (test reads 0.960; 0.204 when the question's words chose them)
    "sop_recall": 0.81,  # test reads 0.840 (0.278 before)
    "sop_violation_precision": 0.60,  # test reads 0.722 (0.344 before); its recall 0.394 (0.424 before) is not floored
}
CEILINGS = {"artefact_answers": 0.0, "false_abstention": 0.05, "chars_median": 900}
ABSTENTION_F1_FLOOR = 0.85
"""Test reads 0.882 since a case must state the wrongdoing asked about (0.849 before); rounded down."""
FOLLOW_UP_DECISIONS_FLOOR = 0.85
"""The test split grew by a blind third batch (f3, 15 conversations, measured .68 blind): .835 over
all 26 test conversations on the code that added it; .824 (one turn fewer, top-1 .781 -> .792) after
follow-ups learned to name a shown case and the report's other findings; .851 over all 41 since bodies
auditors name by acronym pivot and who or how much of the case shown follows; .858 since a forecast's
or an event's year is no audit period and a follow-up in the words shown points at their case;
rounded down."""


@pytest.fixture(scope="module")
def test_split(real_services):
    gold = load_gold(ROOT / "data" / "eval" / "answers", "test")
    return gold, summarize(run(real_services, gold))


def test_the_gold_test_split_is_what_the_readme_says(test_split):
    gold, result = test_split
    assert result["overall"]["answerable"] >= 50 and result["overall"]["unanswerable"] >= 15
    assert {q["split"] for q in gold.questions} == {"test"}
    assert result["conversations"]["conversations"] >= 10


def test_answer_quality_floors(test_split):
    _, result = test_split
    overall = result["overall"]
    low = {k: overall[k] for k, floor in FLOORS.items() if overall[k] is None or overall[k] < floor}
    assert not low, f"below the floor: {low} (floors {FLOORS})"
    high = {k: overall[k] for k, ceiling in CEILINGS.items() if overall[k] is None or overall[k] > ceiling}
    assert not high, f"above the ceiling: {high} (ceilings {CEILINGS})"
    assert result["abstention"]["f1"] >= ABSTENTION_F1_FLOOR, result["abstention"]


def test_every_kind_is_measured(test_split):
    _, result = test_split
    for kind, block in result["by_kind"].items():
        assert block["answerable"] >= 8, kind
        assert block["top1"] is not None and block["nuggets"] is not None, kind


def test_follow_up_decisions_on_the_blind_multi_turn_set(real_services):
    """The follow-up / pivot decisions of later turns on the held-out conversations of
    ``data/eval/followups`` (written by a helper that had not seen the router)."""
    gold = load_gold(ROOT / "data" / "eval" / "followups", "test")
    result = summarize(run(real_services, gold, next_steps=False))["conversations"]
    assert result["conversations"] >= 10
    assert result["decision_accuracy_later_turns"] >= FOLLOW_UP_DECISIONS_FLOOR, result["decision_errors"]
