"""Footnote reference marks inside sentences: found and removed, article numbers and names kept."""

import pytest

from app.text.footnotes import MASK, footnote_marks, masked, without_footnote_marks


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("침술 처방을 하지 않아12) 환자가 없자13) 진료시간에", "침술 처방을 하지 않아 환자가 없자 진료시간에"),
        ("지급대상으로 인정89)하였다.", "지급대상으로 인정하였다."),
        ("해석할 여지가 있었다2).", "해석할 여지가 있었다."),
        ("분석결과를 수립17)18)하도록 하였다", "분석결과를 수립하도록 하였다"),
        ("｢교통시설 투자평가지침｣45)에서", "｢교통시설 투자평가지침｣에서"),
        ("(근무일수 14일24))만 연가", "(근무일수 14일)만 연가"),
        ("(추정 사업비 1,777억 원3), 이하 “터미널”)", "(추정 사업비 1,777억 원, 이하 “터미널”)"),
        ("(사석경사제 공법→케이슨109) 공법) 등", "(사석경사제 공법→케이슨 공법) 등"),
        ("양양군은 2019. 5. 9.28) 주식회사로부터", "양양군은 2019. 5. 9. 주식회사로부터"),  # after a full date
        ("등급결정 대상이 된 2021. 11. 19.116)부터", "등급결정 대상이 된 2021. 11. 19.부터"),
        ("포털(정부24) 개편 계약을 2019. 5. 9.28) 체결하였다", "포털(정부24) 개편 계약을 2019. 5. 9. 체결하였다"),  # its ')' closes no bracket
        ("포털(정부24) 업무를 맡은 기관이 보조금 2억 원7)을", "포털(정부24) 업무를 맡은 기관이 보조금 2억 원을"),  # a later mark's ')' closes nothing
        ("반납되지 않고 있었다.180)", "반납되지 않고 있었다."),  # after a sentence's closing period
        ("협약을 체결하였다.4) 이에 따라 LH는", "협약을 체결하였다. 이에 따라 LH는"),
        ("(국비 5억 원1) 사업을 마쳤다.2) 이후", "(국비 5억 원1) 사업을 마쳤다. 이후"),  # its ')' closes no bracket: '원1)' closes its own
    ],
)
def test_a_mark_after_a_word_is_removed(text, shown):
    assert without_footnote_marks(text) == shown


@pytest.mark.parametrize(
    "text",
    [
        "품질인증(｢관광진흥법｣ 제48조의10)이 법령상",  # an article's branch number
        "특별재난지역 선포 등(제58조∼제61조의2)",
        "행정서비스통합포털(정부24) 업무 등을 담당하는",  # a name closing its own bracket
        "(코로나19), 경기 침체로",  # ... and a comma after it
        "다음과 같다. 1) 첫째 항목",  # a list mark after a space
        "(단위: 건, 2023)",
    ],
)
def test_numbers_that_belong_to_the_text_are_kept(text):
    assert footnote_marks(text) == []
    assert without_footnote_marks(text) == text


def test_masked_keeps_positions():
    text = "하지 않아12) 환자가"
    out = masked(text)
    assert len(out) == len(text)
    assert out.replace(MASK, "") == "하지 않아 환자가"
