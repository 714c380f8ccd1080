from app.text.korean import (
    add_user_words,
    brackets_open,
    broken_words,
    cuts_word,
    ends_clause,
    join_broken_lines,
    morphemes,
    morphemes_batch,
    needs_spacing,
    restore_spacing,
)


def test_particles_drop_and_nouns_stay():
    assert morphemes("계약을 체결하였다") == morphemes("계약의 체결") == ["계약", "체결"]


def test_negating_prefix_stays_on_its_noun():
    assert "부적정" in morphemes("위원 제척 부적정")
    assert "적정" not in morphemes("위원 제척 부적정")


def test_user_words_keep_institution_names_whole():
    add_user_words(["누리도시개발공사"])
    assert "누리도시개발공사" in morphemes("누리도시개발공사의 계약")


def test_batch_equals_single():
    texts = ["시간외근무수당을 부당 지급", "Overtime allowance 지급", "storm warnings. (the audit)"]
    assert morphemes_batch(texts) == [morphemes(t) for t in texts]
    assert morphemes_batch(texts)[1][0] == "overtime"


def test_english_words_keep_whole_before_punctuation():
    # Kiwi alone reads 'warnings.' as 'war' + 'nings.' and 'audit.' with its full stop
    assert morphemes("during storm warnings.") == ["during", "storm", "warnings"]
    assert morphemes("boats, ports?") == ["boats", "ports"] and "audit" in morphemes("What did the BAI's audit. say")
    assert morphemes("(storm warnings.)") == ["storm", "warnings"] and morphemes("warnings...") == ["warnings"]


def test_only_nouns_reads_a_word_kiwi_splits_into_nouns():
    from app.text.korean import is_noun, only_nouns

    assert only_nouns("글램핑장") and not is_noun("글램핑장")  # a word Kiwi does not know, read as nouns
    assert only_nouns("음주") and not only_nouns("부풀리") and not only_nouns("돌려받았")


def test_spacing_is_restored_only_where_lost():
    lost = "청구인은부산광역시해운대구가개최한위원회에서제척한것은위법하다고주장하였다"
    assert needs_spacing(lost)
    fixed = restore_spacing(lost)
    assert fixed.count(" ") >= 5 and fixed.replace(" ", "") == lost
    normal = "청구인은 부산광역시 해운대구가 개최한 위원회"
    assert restore_spacing(normal) == normal


def test_line_breaks_that_cut_a_word_are_found_and_joined():
    cut = ["연구원은 위\n험유해물질을", "연\n구책임자", "정기적\n으로 제출", "오전에\n는 박물관", "보완하\n겠다고", "지방자치단\n체", "이해관계\n인의", "2024. 4. 17.까\n지 [별표", "사용 건의 경\n우 회계",
           "징계 처분(경징\n계 이상)하시기", "48건(해수\n부 1건",  # a bracket opens the word
           "2차 감정평가 시 감\n정평가 관련", "서울항공청이 계\n약자가 아닌",  # a lone syllable
           "실시설계를 착수\n하여야 하고", "개통일을 지난 상태\n였고", "단장이 도와\n준다고 하니", "절차를 거쳐 사\n업 추진과정에서"]
    whole = ["공보의의\n복무에 대하여", "제1항\n제2호에", "분류됨\n제3조에", "연구책임자가\n하겠다고", "방치\n이에 대하여", "있다.\n그러나", "의원이\n해당 안건",
             "제출자료 재구성\n한편 이번 감사원은", "증명서에 자격\n위 사람의 자격취소"]
    assert [bool(broken_words(t)) for t in cut] == [True] * len(cut)
    assert [bool(broken_words(t)) for t in whole] == [False] * len(whole)
    assert join_broken_lines("연구원은 위\n험유해물질을  보관하고\n있다.") == "연구원은 위험유해물질을 보관하고 있다."
    # a figure with its unit ends a word; a particle after it still belongs to it
    assert join_broken_lines("1,781억 원\n과대 계상, 2억 원\n을 누락") == "1,781억 원 과대 계상, 2억 원을 누락"
    assert join_broken_lines("5명\n에게 3억 원\n까지 1년\n간 2억 원\n이었다") == "5명에게 3억 원까지 1년간 2억 원이었다"


def test_a_clause_ends_on_an_ending_or_punctuation_not_on_a_noun():
    assert all(ends_clause(t) for t in ("검토하지 않았고", "하였으나", "받고도,", "불분명한데도", "차이가 없는데도", "적발되어", "있음)"))
    assert not any(ends_clause(t) for t in ("국고", "입찰공고", "보고서", "계약서", "배수펌프나", "그리고"))


def test_where_a_line_break_cuts_a_word_and_whether_a_bracket_is_left_open():
    text = "한계 등을 고\n려해 분석대상을 정하고\n분석하였다."
    assert cuts_word(text, text.index("고\n"), text.index("려해"))
    assert not cuts_word(text, text.index("하고\n") + 2, text.index("분석하였다"))
    assert brackets_open("관계 기관은 ‘공사를 중단하고,") and brackets_open("(위탁기간 3년, 2022.")
    assert not brackets_open("‘공사를 중단하라’고 요구하였고,") and not brackets_open("｢관광진흥법｣에 따르면")
