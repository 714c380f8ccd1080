"""GET /v1/findings: the shared corpus with filters and paging."""

from __future__ import annotations

import pytest


def test_filters_and_paging(client, alice, bob):
    everything = client.get("/v1/findings", headers=alice).json()
    assert everything["total"] >= 9 and len(everything["items"]) == min(everything["total"], 50)
    assert client.get("/v1/findings", headers=bob).json() == everything  # shared, read-only

    garam = client.get("/v1/findings", params={"institution": "가람시"}, headers=alice).json()
    assert garam["total"] == 3 and all(f["institution"] == "가람시" for f in garam["items"])

    r = client.get("/v1/findings", params={"disposition": "시정", "year": 2025, "report_id": "sample_regular"}, headers=alice)
    assert [f["id"] for f in r.json()["items"]] == ["sample_regular-F01"]

    page = client.get("/v1/findings", params={"limit": 2, "offset": 1}, headers=alice).json()
    assert page["total"] == everything["total"] and [f["id"] for f in page["items"]] == [f["id"] for f in everything["items"][1:3]]
    item = page["items"][0]
    assert {"id", "report_id", "report_title", "title", "dispositions", "year", "pages"} <= item.keys()


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 201}, {"offset": -1}, {"year": "soon"}])
def test_bad_paging_is_422(client, alice, params):
    r = client.get("/v1/findings", params=params, headers=alice)
    assert r.status_code == 422 and r.json()["detail"]


def test_findings_need_a_key(client):
    assert client.get("/v1/findings").status_code == 401
