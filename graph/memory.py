"""What a conversation keeps of the cases it has shown, for follow-ups that point back at them."""

from __future__ import annotations

from graph.state import Doc


def finding_order(docs: list[Doc]) -> list[str]:
    """Distinct finding ids in the order the user saw them."""
    return list(dict.fromkeys(d["finding_id"] for d in docs if d.get("finding_id")))


PAST_FINDINGS = 12
"""Cases set aside earlier that a question going back can return to (``past_documents``)."""
PAST_DOCS_PER_FINDING = 4


def remembered(first: list[Doc], then: list[Doc], cap: int = PAST_FINDINGS) -> list[Doc]:
    """The documents of the first ``cap`` distinct findings of ``first`` then ``then`` (at most
    ``PAST_DOCS_PER_FINDING`` each), each finding's documents from where it first appears."""
    keep = finding_order(first + then)[:cap]
    source = {f: [d for d in docs if d.get("finding_id") == f] for docs in (then, first) for f in finding_order(docs)}
    return [d for f in keep for d in source[f][:PAST_DOCS_PER_FINDING]]
