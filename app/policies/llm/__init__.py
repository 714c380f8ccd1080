"""The Policies decisions made by a chat model: ``decisions`` (the port's methods), ``prompts``
(what is sent), ``transport`` (the call, structured output and its diagnosis) and ``checks``
(the decision against its inputs)."""

from app.llm.errors import PolicyError
from app.policies.llm.decisions import LlmPolicies

__all__ = ["LlmPolicies", "PolicyError"]
