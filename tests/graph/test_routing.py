import pytest

from graph.routing import (
    RoutingError,
    route_after_analyze,
    route_after_grade,
    route_after_retrieve,
    route_after_route,
    route_after_sql,
    route_after_verify,
)


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        ({"track": "chat"}, "chat"),
        ({"track": "report"}, "manage_report"),
        ({"track": "fast", "sql_intent": True}, "retrieve_sql"),
        ({"track": "fast", "sql_intent": False}, "select_fields"),
        ({"track": "deep"}, "select_fields"),
        ({"track": "deep", "references": ["r-F01"]}, "retrieve_sql"),
        ({"track": "fast", "references": ["r-F01"]}, "retrieve_sql"),
    ],
)
def test_route_after_route(state, expected):
    assert route_after_route(state) == expected


def test_track_dependent_edges():
    assert route_after_sql({"track": "fast"}) == "analyze"
    assert route_after_sql({"track": "deep"}) == "grade_documents"
    assert route_after_retrieve({"track": "deep"}) == "grade_documents"
    assert route_after_retrieve({"track": "fast"}) == "analyze"
    assert route_after_analyze({"track": "deep"}) == "verify_answer"
    assert route_after_analyze({"track": "fast"}) == "summarize"
    assert route_after_grade({"needs_rewrite": True}) == "rewrite_query"
    assert route_after_grade({"needs_rewrite": False}) == "expand_evidence"
    assert route_after_verify({"verification": {"action": "regenerate"}}) == "analyze"
    assert route_after_verify({"verification": {"action": "rewrite"}}) == "rewrite_query"
    assert route_after_verify({"verification": {"action": "finish"}}) == "summarize"


@pytest.mark.parametrize(
    ("fn", "state"),
    [
        (route_after_route, {"track": "poetry"}),
        (route_after_sql, {"track": "chat"}),
        (route_after_retrieve, {"track": "report"}),
        (route_after_analyze, {"track": "chat"}),
        (route_after_verify, {"verification": None}),
    ],
)
def test_unknown_states_raise(fn, state):
    with pytest.raises(RoutingError):
        fn(state)
