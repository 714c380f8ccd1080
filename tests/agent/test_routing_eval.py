"""Routing accuracy over the labelled conversations (data/eval/routing.jsonl), through the whole
graph on the 12 real reports, offline."""

import pytest

from app.eval.routing import load_conversations, run_turns, score
from tests.conftest import ROOT

pytestmark = pytest.mark.slow


def test_offline_routing_accuracy(real_services):
    result = score(list(run_turns(real_services, load_conversations(ROOT / "data/eval/routing.jsonl"))))
    assert result["turns"] >= 150
    assert result["track_accuracy"] >= 0.95, result["errors"]
    assert result["pivot_accuracy"] >= 0.8 and result["follow_up_accuracy"] >= 0.8, result["errors"]
