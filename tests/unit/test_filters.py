from app.retrieval.filters import SearchFilters


def test_empty_filters_render_nothing_and_match_all():
    f = SearchFilters()
    assert f.is_empty()
    assert f.to_milvus_expr() == ""
    assert f.matches({"year": 2025})


def test_expression_escapes_quotes_and_backslashes():
    f = SearchFilters(institutions=['해운대"구\\'], year_from=2024, year_to=2025, dispositions=["주의"])
    expr = f.to_milvus_expr()
    assert 'array_contains_any(institutions, ["해운대\\"구\\\\"])' in expr
    assert "year >= 2024 and year <= 2025" in expr
    assert 'array_contains_any(dispositions, ["주의"])' in expr
    assert SearchFilters(exclude_finding_ids=["r1-F01"]).to_milvus_expr() == 'finding_id not in ["r1-F01"]'


def test_matches_applies_every_filter():
    meta = {"institutions": ["해운대구"], "year": 2025, "audit_type": "국민제안감사", "dispositions": ["주의"], "section": "actions", "report_id": "r1", "finding_id": "r1-F01"}
    assert SearchFilters(institutions=["해운대구", "부산광역시"], dispositions=["주의"]).matches(meta)
    assert not SearchFilters(institutions=["부산광역시"]).matches(meta)
    assert not SearchFilters(year_from=2026).matches(meta)
    assert not SearchFilters(dispositions=["통보"]).matches(meta)
    assert not SearchFilters(sections=["criteria"]).matches(meta)
    assert not SearchFilters(finding_ids=["r1-F02"]).matches(meta)
    assert not SearchFilters(exclude_finding_ids=["r1-F01"]).matches(meta) and SearchFilters(exclude_finding_ids=["r1-F02"]).matches(meta)
    assert not SearchFilters(year_to=2024).matches({"year": None})
