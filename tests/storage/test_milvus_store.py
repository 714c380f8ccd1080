import numpy as np
import pytest

from app.retrieval.filters import SearchFilters
from app.vectorstore.milvus import MilvusVectorStore, VectorStoreUnavailable


def _unit(v):
    v = np.asarray(v, dtype=np.float32)
    return v / np.linalg.norm(v)


@pytest.fixture
def store(tmp_path):
    s = MilvusVectorStore(str(tmp_path / "milvus.db"), "t", dim=4)
    yield s
    s.close()


def _meta(report, year, disp, inst):
    return {"report_id": report, "finding_id": f"{report}-F01", "section": "problems", "kind": "finding",
            "institutions": inst, "year": year, "audit_type": "정기감사", "dispositions": disp, "page": 3}


def test_search_honours_filters_and_delete_by_report(store):
    vecs = np.stack([_unit([1, 0, 0, 0]), _unit([0.9, 0.1, 0, 0]), _unit([0, 1, 0, 0])])
    store.upsert(["a", "b", "c"], vecs, [
        _meta("r1", 2025, ["주의"], ["해운대구"]),
        _meta("r2", 2024, ["통보"], ["부산광역시"]),
        _meta("r2", 2024, ["주의", "통보"], ["부산광역시"]),
    ])
    assert store.count() == 3
    hits = store.search(_unit([1, 0, 0, 0]), k=3)
    assert [h.id for h in hits][:2] == ["a", "b"]
    assert hits[0].score > hits[1].score
    only_2024 = store.search(_unit([1, 0, 0, 0]), k=3, filters=SearchFilters(year_to=2024))
    assert {h.id for h in only_2024} == {"b", "c"}
    caution = store.search(_unit([1, 0, 0, 0]), k=3, filters=SearchFilters(dispositions=["주의"], institutions=["부산광역시"]))
    assert [h.id for h in caution] == ["c"]
    assert caution[0].meta["dispositions"] == ["주의", "통보"]
    assert store.delete_report("r2") == 2
    assert store.ids_for_report("r2") == set()
    assert store.ids_for_report("r1") == {"a"}


def test_upsert_same_id_replaces(store):
    store.upsert(["a"], np.stack([_unit([1, 0, 0, 0])]), [_meta("r1", 2025, [], [])])
    store.upsert(["a"], np.stack([_unit([0, 1, 0, 0])]), [_meta("r1", 2025, [], [])])
    assert store.count() == 1
    assert store.search(_unit([0, 1, 0, 0]), k=1)[0].score == pytest.approx(1.0, abs=1e-3)


def test_reopen_keeps_data(tmp_path):
    s = MilvusVectorStore(str(tmp_path / "m.db"), "t", dim=4)
    s.upsert(["a"], np.stack([_unit([1, 0, 0, 0])]), [_meta("r1", 2025, [], [])])
    s.close()
    s2 = MilvusVectorStore(str(tmp_path / "m.db"), "t", dim=4)
    assert s2.ids_for_report("r1") == {"a"}
    s2.close()


def test_unreachable_server_raises_clear_error():
    with pytest.raises(VectorStoreUnavailable, match="127.0.0.1:9"):
        MilvusVectorStore("http://127.0.0.1:9", "t", dim=4)
