"""A small SQLite store filled through the ORM, plus a table and chunks that must stay unread."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import text

from app.db.models import Chunk, Finding, FindingDisposition, Report
from app.db.session import make_engine, make_session_factory

SECRET = "TOPSECRET-7f3a9c"
"""Stored in chunks.text and api_keys.secret; must never appear in any result."""

REPORTS = [
    # id, year, audit_type, title
    ("r2023", 2023, "특정사안감사", "국토 개발사업 특정사안감사"),
    ("r2024", 2024, "기관정기감사", "해양수산부 기관정기감사"),
    ("r2025a", 2025, "기관정기감사", "경찰청 기관정기감사"),
    ("r2025b", 2025, "성과감사", "재난안전 관리실태 성과감사"),
]

FINDINGS = [
    # report, number, institution, responsible_org, action_orgs, dispositions
    ("r2023", 1, "국토교통부", "국토교통부", "국토교통부", ["변상", "통보"]),
    ("r2023", 2, None, None, None, ["고발"]),
    ("r2023", 3, "O'Neil 재단", "O'Neil 재단", "O'Neil 재단", ["인사자료"]),
    ("r2024", 1, "해양수산부", "해양수산부", "해양수산부", ["주의"]),
    ("r2024", 2, "해양수산부", "해양수산부", "해양수산부, 국립수산과학원", ["통보", "시정"]),
    ("r2024", 3, "국립수산과학원", "국립수산과학원", "해양수산부, 국립수산과학원", ["통보"]),
    ("r2025a", 1, "경찰청", "경찰청", "경찰청", ["주의"]),
    ("r2025a", 2, "경찰청", "경찰청", "경찰청", ["주의", "징계"]),
    ("r2025a", 3, "서울특별시경찰청", "서울특별시경찰청", "서울특별시경찰청", ["통보"]),
    ("r2025b", 1, "행정안전부", "행정안전부", "행정안전부", ["통보"]),
    ("r2025b", 2, "행정안전부", "행정안전부", "행정안전부, 소방청", ["통보", "개선"]),
    ("r2025b", 3, "소방청", "소방청", "소방청", ["주의"]),
    ("r2025b", 4, "해양수산부", "해양수산부", "해양수산부", ["권고"]),
]


@dataclass(frozen=True)
class Row:
    """A finding as the test sees it (expected values are computed from these)."""

    id: str
    year: int
    audit_type: str
    institution: str | None
    responsible_org: str | None
    action_orgs: str | None
    dispositions: tuple[str, ...]


def fixture_rows() -> list[Row]:
    years = {r[0]: (r[1], r[2]) for r in REPORTS}
    return [
        Row(f"{rep}-F{num:02d}", years[rep][0], years[rep][1], inst, resp, orgs, tuple(disps))
        for rep, num, inst, resp, orgs, disps in FINDINGS
    ]


@dataclass(frozen=True)
class Store:
    path: Path
    url: str
    rows: list[Row]

    def sha256(self) -> str:
        return hashlib.sha256(self.path.read_bytes()).hexdigest()


def _fill(url: str) -> None:
    engine = make_engine(url)
    with make_session_factory(engine)() as session:
        for rid, year, audit_type, title in REPORTS:
            session.add(
                Report(id=rid, source_file=f"/data/{rid}.pdf", sha256=rid * 4, format="pdf", title=title,
                       audit_type=audit_type, report_date=f"{year}. 9.", year=year, month=9,
                       institutions=[], page_count=30)
            )
        session.flush()
        for row, (rep, num, *_rest) in zip(fixture_rows(), FINDINGS, strict=True):
            finding = Finding(
                id=row.id, report_id=rep, number=num, title=f"{row.institution or '미상'} 지적 {num}",
                disposition=row.dispositions[0], institution=row.institution,
                responsible_org=row.responsible_org, action_orgs=row.action_orgs, year=row.year,
                audit_type=row.audit_type, amount_krw=num * 1_000_000, page_start=num, page_end=num + 1,
            )
            finding.dispositions = [FindingDisposition(disposition=d, ordinal=i) for i, d in enumerate(row.dispositions)]
            session.add(finding)
        session.flush()
        session.add(Chunk(id="c1", report_id="r2024", finding_id="r2024-F01", section="problems", ordinal=0,
                          page=3, heading="h", text=f"chunk text {SECRET}"))
        session.commit()
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE api_keys (id INTEGER PRIMARY KEY, secret TEXT)"))
        conn.execute(text("INSERT INTO api_keys (secret) VALUES (:s)"), {"s": SECRET})
    engine.dispose()


@pytest.fixture(scope="session")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    path = tmp_path_factory.mktemp("sqlstore") / "aura.db"
    url = f"sqlite:///{path}"
    _fill(url)
    return Store(path=path, url=url, rows=fixture_rows())
