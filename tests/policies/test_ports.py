"""The three policy sets implement the ``Policies`` port exactly: every decision, with the
port's parameters (names and order), so any of them can stand in for another."""

from __future__ import annotations

import inspect

import pytest

from app.policies.fallback import FallbackPolicies
from app.policies.llm import LlmPolicies
from app.policies.offline import OfflinePolicies
from graph.ports import Policies

DECISIONS = [n for n, v in vars(Policies).items() if inspect.isfunction(v) and not n.startswith("_")]


def _params(fn) -> list[str]:
    return list(inspect.signature(fn).parameters)


@pytest.mark.parametrize("impl", [OfflinePolicies, LlmPolicies, FallbackPolicies])
def test_each_policy_set_implements_every_decision_of_the_port(impl) -> None:
    assert len(DECISIONS) >= 10
    missing = [n for n in DECISIONS if not callable(getattr(impl, n, None))]
    assert not missing, f"{impl.__name__} lacks {missing}"
    differ = {n: (_params(getattr(impl, n)), _params(getattr(Policies, n)))
              for n in DECISIONS if _params(getattr(impl, n)) != _params(getattr(Policies, n))}
    assert not differ, f"{impl.__name__}: parameters differ from the port: {differ}"
