"""Tests for the 감사원 report parser: the 12 real reports in shared/data/bai-reports, and
synthetic texts that pin layout A (numbered sections) and layout B (disposition forms)."""

from __future__ import annotations

import csv
import hashlib
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from app.ingest.bai_entities import amounts_in
from app.ingest.bai_layout import DISPOSITION_TAG, disposition_words
from app.ingest.bai_parser import looks_like_audit_report, parse_report
from app.ingest.loaders import load_document
from app.ingest.parsed import LoadedDocument, ParsedFinding, ParsedReport
from graph.vocab import DISPOSITIONS, SECTION_KINDS

ROOT = Path(__file__).resolve().parents[2]
BAI = Path(os.environ.get("AURA_SHARED_DIR", ROOT.parent / "shared")) / "data" / "bai-reports"
HAEUNDAE = "jj20250925_091048"
URBAN = "jj20251018_133030"


def _manifest() -> list[dict[str, str]]:
    if not (BAI / "manifest.csv").is_file():
        pytest.fail(f"real data missing: {BAI} (clone the repo next to shared/)")
    with open(BAI / "manifest.csv", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def manifest() -> dict[str, dict[str, str]]:
    return {Path(row["pdf"]).stem: row for row in _manifest()}


@pytest.fixture(scope="module")
def reports(manifest: dict[str, dict[str, str]]) -> dict[str, tuple[LoadedDocument, ParsedReport]]:
    """Every real report, loaded and parsed once for the module."""
    out = {}
    for stem, row in manifest.items():
        doc = load_document(BAI / row["pdf"])
        out[stem] = (doc, parse_report(doc))
    return out


def _withheld(f: ParsedFinding) -> bool:
    """A form whose content the 감사원 did not publish (정보공개법 제9조: '비공개합니다')."""
    return not f.section_text("actions") and "비공개" in f.section_text("overview")


def _squash(text: str) -> str:
    return re.sub(r"[\s\-]+", "", text)


# ---------------------------------------------------------------- the real reports


def test_every_report_parses_into_findings(reports) -> None:
    total = 0
    for stem, (doc, report) in reports.items():
        assert looks_like_audit_report(doc), stem
        assert report.findings, stem
        total += len(report.findings)
        for f in report.findings:
            where = f"{stem} #{f.number}"
            assert f.title.strip(), where
            assert f.dispositions and set(f.dispositions) <= set(DISPOSITIONS), where
            assert 1 <= f.page_start <= f.page_end <= len(doc.pages), where
            assert {s.kind for s in f.sections} <= set(SECTION_KINDS), where
            for s in f.sections:
                assert f.page_start <= s.page <= f.page_end, where
                assert s.text.strip(), where
                assert not re.search(r"(?m)^-\s*\d+\s*-$", s.text), f"page footer left in {where}"
            if _withheld(f):  # jj20250924_101118 (1): the form's text is withheld
                continue
            assert f.section_text("actions").strip(), where
        assert [f.number for f in report.findings] == list(range(1, len(report.findings) + 1))
    assert total >= 55


def test_report_metadata_matches_manifest(reports, manifest) -> None:
    for stem, (_, report) in reports.items():
        row = manifest[stem]
        assert _squash(report.title) == _squash(row["title"]), stem
        assert report.audit_type == row["audit_type"], stem
        assert _squash(report.report_date or "") == _squash(row["report_date"]), stem
        assert (report.year, report.month) == tuple(
            int(x) for x in row["report_date"].strip(".").split(".")
        ), stem
        kinds = [s.kind for s in report.sections]
        assert kinds == ["report_overview", "report_subject", "report_summary"], stem
        assert report.institutions, stem
        assert "총괄" in report.sections[2].text.replace(" ", ""), stem


def test_overrides_win_over_the_cover(reports) -> None:
    doc, _ = reports[HAEUNDAE]
    report = parse_report(doc, title="제목", audit_type="성과감사", report_date="2024. 1.")
    assert (report.title, report.audit_type, report.report_date, report.year, report.month) == (
        "제목",
        "성과감사",
        "2024. 1.",
        2024,
        1,
    )


def test_haeundae_two_findings(reports) -> None:
    _, report = reports[HAEUNDAE]
    assert [f.title for f in report.findings] == [
        "해운대구의 도시건축공동위원회 위원 제척 부적정",
        "부산광역시 도시계획위원회 위원의 제척 규정 불합리",
    ]
    assert [f.dispositions for f in report.findings] == [["주의"], ["통보"]]
    first, second = report.findings
    assert first.action_orgs == ["부산광역시 해운대구"] and second.action_orgs == ["부산광역시"]
    assert report.institutions == ["부산광역시 해운대구", "부산광역시"]
    assert report.declared_counts == {"findings": 2, "주의": 1, "통보": 1}

    criteria = first.section_text("criteria")
    assert "국토계획법" in criteria and "조례" in criteria
    assert first.section_text("opinion").startswith("해운대구는 이 건 제척을 검토하면서")
    actions = first.section_text("actions")
    assert actions.startswith("부산광역시 해운대구청장은")
    assert actions.replace("\n", " ").endswith("관련 업무를 철저히 하시기 바랍니다.(주의)")
    assert "3 부산광역시" not in actions  # the next finding's heading is not swallowed
    kinds = [s.kind for s in first.sections]
    assert kinds == ["overview", "criteria", "problems", "opinion", "actions"]
    pages = {s.kind: s.page for s in first.sections}
    assert pages == {"overview": 5, "criteria": 6, "problems": 7, "opinion": 9, "actions": 9}
    assert (first.page_start, first.page_end, second.page_start, second.page_end) == (5, 9, 9, 11)
    assert second.section_text("actions").startswith("부산광역시장은")


def test_urban_regeneration_six_forms(reports) -> None:
    _, report = reports[URBAN]
    assert len(report.findings) == 6  # six '주 의 요 구' forms, as the 목차 lists
    assert all("주의" in f.dispositions for f in report.findings)
    first = report.findings[0]
    assert first.title == "투자 심사 등을 거치지 않고 터미널 혁신지구 사업 추진"
    assert first.responsible_org == "고창군" and first.action_orgs == ["고창군"]
    assert 177_700_000_000 in first.amounts_krw  # '1,777억 원'
    third = report.findings[2]
    assert third.action_orgs == ["익산시", "군산시"]
    fourth = report.findings[3]
    assert (
        485_000_000 in fourth.amounts_krw
    )  # '485백만 원'; bare table cells ('9,000,000') are not read
    for f in report.findings:
        assert [s.kind for s in f.sections] == [
            "overview",
            "criteria",
            "problems",
            "opinion",
            "actions",
        ]


def test_withheld_form_keeps_header_dispositions(reports) -> None:
    _, report = reports["jj20250924_101118"]
    first = report.findings[0]
    assert _withheld(first)
    assert first.dispositions == [
        "징계",
        "주의",
        "통보",
        "인사자료",
    ]  # '징계·주의요구 및 통보·통보(인사자료)'
    assert first.action_orgs == ["곡성군", "곡성군의회"]


def test_several_dispositions_in_one_action(reports) -> None:
    _, report = reports["jj20250925_162048"]
    f = report.findings[
        0
    ]  # '...재산정하는 방안을 마련하며(통보) ... 철저히 하시기 바랍니다.(주의)'
    assert f.title == "도서공항 건설사업의 항공 여객수요 과다 예측"
    assert f.dispositions == ["통보", "주의"]
    _, mcst = reports["jj20251017_173842"]
    assert "개선" in mcst.findings[4].dispositions  # '...근거 규정을 마련하고(법령상 개선)'
    assert "징계" in mcst.findings[8].dispositions


# What each report declares, and what the parse must match. 'findings' is checked against
# the 목차 (entries with a disposition tag) or the 총괄's 'N개 사항' wherever the report states it.
# Every report states '총 N건' (or a 합계 row): disposition *items*, counted per addressee and per
# disposition, so one finding can hold several. The parse is checked against it by counting the
# disposition tags of all 조치할 사항 (+ items of withheld forms, from their header), with the
# documented exceptions below.
DECLARED = {
    # stem: (parsed findings, tag items expected, why)
    "jj20250924_101118": (
        12,
        33,
        "목차 lists 12 forms; 총 39건 = 33 tags + 6 items of the withheld form (1)",
    ),
    HAEUNDAE: (2, 2, "목차 lists 2 findings; 주의(1건), 통보(1건)"),
    "jj20250925_162048": (6, 12, "총괄: '6개 사항 ... 주의 6건, 통보 6건 등 총 12건'"),
    "jj20251017_173128": (
        3,
        4,
        "총 9건, of which 5 (주의요구 3, 통보 2) are withheld; the 4 remaining items "
        "sit in 3 findings (택시 감차 addresses 강릉시장 and 행정안전부장관)",
    ),
    "jj20251017_173842": (
        10,
        18,
        "총 20건 = 징계2·개선1·주의3·통보13·고발1; the 고발 is a note "
        "(※ ... 고발 조치), not a tag, and one 통보 clause names two addressees",
    ),
    "jj20251018_084459": (
        4,
        4,
        "[표 12] counts 5 by institution: finding 3 (PUE) is one 통보 to 과기부 and 행안부",
    ),
    URBAN: (6, 6, "목차 lists 6 forms; 총 15건 counts 13 기관 (form 4 goes to 9 시·군)"),
    "jj20251022_155027": (
        10,
        19,
        "목차 lists 10 coded findings (1-가-1) … 2-다); 합계 19 = 주의 7, 통보 12",
    ),
    "jj20251030_104227": (4, 6, "총괄 lists 4 problems (①②③ / ①); 총 6건 = 주의 2, 통보 4"),
    "jj20251103_133612": (
        3,
        12,
        "목차 lists 3 findings (1, 2-가, 2-나); 총 13건 = 주의 5, 통보 6 + 시정완료 2: "
        "one 통보 clause names 국토교통부장관 및 한국토지주택공사 사장 together",
    ),
    "jj20251107_090042": (7, 20, "총 20건"),
    "jj20251118_095512": (2, 5, "목차 lists 2 findings (가, 나); 총 5건 = 주의 1, 통보 4"),
}


@pytest.mark.parametrize("stem", sorted(DECLARED))
def test_parse_matches_declared_counts(reports, stem: str) -> None:
    _, report = reports[stem]
    n_findings, n_tags, why = DECLARED[stem]
    declared = report.declared_counts
    assert len(report.findings) == n_findings, why
    if "findings" in declared:
        assert declared["findings"] == len(report.findings), why
    tags = Counter()
    for f in report.findings:
        for m in DISPOSITION_TAG.finditer(f.section_text("actions")):
            tags.update(disposition_words(m.group(1)))
    assert sum(tags.values()) == n_tags, why
    withheld = [f for f in report.findings if _withheld(f)]
    if "items" in declared and n_tags == declared["items"]:
        for word in DISPOSITIONS:
            if word in declared:
                assert tags[word] == declared[word], (word, why)
    if stem == "jj20250924_101118":
        assert declared["items"] == n_tags + 6 and len(withheld) == 1, why


# ---------------------------------------------------------------- synthetic layouts

COVER_A = "국민제안감사\n 감 사 보 고 서\n- 가나시 위원회 위원 선정 관련 -\n2025. 9.\n감 사 원"
TOC_A = (
    "목 차\nⅠ. 감사실시 개요 · 1\nⅡ. 감사대상 현황 · 1\nⅢ. 감사결과 · 2\n1. 총괄 · 2\n"
    "2. 가나시의 위원 선정 부적정(주의) · 2\n3. 다라도의 위원 규정 불합리(통보) · 3"
)
BODY_A = [
    "- 1 -\nⅠ. 감사실시 개요\n감사원은 가나시를 대상으로 감사를 실시하였다.\nⅡ. 감사대상 현황\n"
    "위원회는 10명으로 구성된다.\n",
    "- 2 -\nⅢ. 감사결과\n1 총괄\n감사결과 가나시에는 주의(1건)를 촉구하였고 다라도에는 통보(1건)하였다.\n"
    "2 가나시의 위원 선정 부적정\n가나시는 위원회를 설치·운영하고 있다.\n"
    "가. 관계 법령과 판단기준\n｢가나시 위원회 조례｣ 제9조에 따르면 이해관계인은 제척된다.\n"
    "나. 감사결과 확인된 문제점\n가나시는 위원 2명을 부당하게 제척하고 자문료 1,200만 원을\n지급하였다.\n",
    "- 3 -\n관계기관 의견 가나시는 감사결과를 수용하였다.\n조치할 사항 가나시장은 앞으로 위원을\n"
    "부당하게 제척하는 일이 없도록 관련 업무를 철저히 하시기 바랍니다.(주의)\n"
    "3 다라도의 위원 규정 불합리\n다라도는 조례를 운영하고 있다.\n가. 관계 법령과 판단기준\n"
    "법 제113조에 따르면 제척 사유는 명확해야 한다.\n나. 감사결과 확인된 문제점\n조례의 제척 규정이 모호하다.\n"
    "관계기관 의견 다라도는 이를 인정하였다.\n조치할 사항 다라도지사는 조례를 개정하는 방안을 마련하시기 바랍니다.(통보)",
]


def _doc(pages: list[str]) -> LoadedDocument:
    text = "\f".join(pages)
    return LoadedDocument(
        path="synthetic.txt",
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        pages=pages,
        format="txt",
    )


def _no_spaces(text: str) -> str:
    for marker in (
        "관계기관 의견",
        "조치할 사항",
        "관계 법령과 판단기준",
        "감사결과 확인된 문제점",
        "감 사 원",
        "주 의 요 구",
        "제 목",
        "소 관 기 관",
        "조 치 기 관",
        "내 용",
        "업무 개요",
        "관계법령 및 판단기준",
    ):
        text = text.replace(marker, marker.replace(" ", ""))
    return text


def _spread(text: str) -> str:
    return text.replace("관계기관 의견", "관 계 기 관 의 견").replace(
        "조치할 사항", "조 치 할 사 항"
    )


@pytest.mark.parametrize(
    "variant", [lambda t: t, _no_spaces, _spread], ids=["spaced", "no-space", "spread"]
)
def test_layout_a_numbered_sections(variant) -> None:
    doc = _doc([variant(p) for p in [COVER_A, TOC_A, *BODY_A]])
    assert looks_like_audit_report(doc)
    report = parse_report(doc)
    assert (report.title, report.audit_type, report.report_date, report.year, report.month) == (
        "가나시 위원회 위원 선정 관련",
        "국민제안감사",
        "2025. 9.",
        2025,
        9,
    )
    assert report.declared_counts == {"findings": 2, "주의": 1, "통보": 1}
    assert [f.title for f in report.findings] == [
        "가나시의 위원 선정 부적정",
        "다라도의 위원 규정 불합리",
    ]
    assert [f.dispositions for f in report.findings] == [["주의"], ["통보"]]
    assert [f.action_orgs for f in report.findings] == [["가나시"], ["다라도"]]
    first, second = report.findings
    assert [(s.kind, s.page) for s in first.sections] == [
        ("overview", 4),
        ("criteria", 4),
        ("problems", 4),
        ("opinion", 5),
        ("actions", 5),
    ]
    assert first.section_text("opinion") == "가나시는 감사결과를 수용하였다."
    assert first.section_text("actions").endswith("바랍니다.(주의)")
    assert first.amounts_krw == [12_000_000]
    assert (first.page_start, first.page_end, second.page_start, second.page_end) == (4, 5, 5, 5)
    assert [s.kind for s in report.sections] == [
        "report_overview",
        "report_subject",
        "report_summary",
    ]


COVER_B = "특정사안감사 감 사 보 고 서\n- 가나 사업 추진실태 -\n2025. 10.\n감 사 원"
BODY_B = [
    "- 1 -\nⅠ. 감사실시 개요\n가나 사업을 점검하였다.\nⅡ. 감사대상업무 현황\n사업은 3개이다.\nⅢ. 감사결과\n"
    "1. 감사결과 총괄\n감사결과 총 3건의 위법·부당사항이 확인되었다.\n2. 처분요구",
    "- 2 -\n감 사 원\n주 의 요 구\n제 목 보조금 부당 지원\n소 관 기 관 ① 가시 ② 나군\n조 치 기 관 ① 가시 ② 나군\n"
    "내 용\n1. 업무 개요\n가시는 집수리 사업을 추진하고 있다.\n2. 관계법령 및 판단기준\n보조금법에 따르면 용도 외 사용은 금지된다.\n"
    "3. 감사결과 확인된 문제점\n가시와 나군은 증축 공사비 485백만 원을 부당 지원하였다.\n"
    "4. 관계기관 의견 가시와 나군은 감사결과를 받아들였다.\n"
    "5. 조치할 사항 가시장 및 나군수는 앞으로 관련 업무를 철저히 하시기 바랍니다.(주의)",
    "- 3 -\n감 사 원\n주의요구 및 통보\n제 목 계약 업무 부적정\n소 관 기 관 다청\n조 치 기 관 다청\n내 용\n"
    "1. 업무 개요\n다청은 용역을 발주한다.\n2. 관계법령 및 판단기준\n계약법을 따라야 한다.\n3. 감사결과 확인된 문제점\n"
    "다청은 9,000,000원을 과다 지급하였다.\n4. 관계기관 의견 다청은 수용하였다.\n5. 조치할 사항 다청장은\n"
    "① 과다 지급액을 회수하는 방안을 마련하고(통보)\n② 앞으로 업무를 철저히 하시기 바랍니다.(주의)",
]


@pytest.mark.parametrize("variant", [lambda t: t, _no_spaces], ids=["spaced", "no-space"])
def test_layout_b_disposition_forms(variant) -> None:
    doc = _doc([variant(p) for p in [COVER_B, *BODY_B]])
    report = parse_report(doc)
    assert (report.title, report.audit_type, report.report_date) == (
        "가나 사업 추진실태",
        "특정사안감사",
        "2025. 10.",
    )
    assert report.declared_counts == {"items": 3}
    assert [f.title for f in report.findings] == ["보조금 부당 지원", "계약 업무 부적정"]
    assert [f.dispositions for f in report.findings] == [["주의"], ["통보", "주의"]]
    first, second = report.findings
    assert first.responsible_org == "가시, 나군" and first.action_orgs == ["가시", "나군"]
    assert second.action_orgs == ["다청"]
    assert report.institutions == ["가시", "나군", "다청"]
    assert [(s.kind, s.page) for s in first.sections] == [
        ("overview", 3),
        ("criteria", 3),
        ("problems", 3),
        ("opinion", 3),
        ("actions", 3),
    ]
    assert first.amounts_krw == [485_000_000] and second.amounts_krw == [9_000_000]
    assert second.section_text("actions").startswith("다청장은")
    assert (first.page_start, second.page_start, second.page_end) == (3, 4, 4)


def test_not_an_audit_report() -> None:
    assert not looks_like_audit_report(
        _doc(["회의록\n2025년 정기회의 결과를 보고합니다.", "안건 1. 예산"])
    )


def test_amounts() -> None:
    text = "485백만 원, 1,777억 원과 130억 원, 9,000,000원, 6억 9,000만 원, 1억 1천만여 원, 2.75억원, 원가 3원가"
    assert amounts_in(text) == [
        485_000_000,
        177_700_000_000,
        13_000_000_000,
        9_000_000,
        690_000_000,
        110_000_000,
        275_000_000,
    ]
    assert amounts_in("3,038,337원/㎥/일 단가, 485백만 원 중 485백만 원") == [485_000_000]
