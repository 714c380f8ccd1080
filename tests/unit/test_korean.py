from app.text.korean import (
    add_user_words,
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
    texts = ["시간외근무수당을 부당 지급", "Overtime allowance 지급"]
    assert morphemes_batch(texts) == [morphemes(t) for t in texts]
    assert morphemes_batch(texts)[1][0] == "overtime"


def test_spacing_is_restored_only_where_lost():
    lost = "청구인은부산광역시해운대구가개최한위원회에서제척한것은위법하다고주장하였다"
    assert needs_spacing(lost)
    fixed = restore_spacing(lost)
    assert fixed.count(" ") >= 5 and fixed.replace(" ", "") == lost
    normal = "청구인은 부산광역시 해운대구가 개최한 위원회"
    assert restore_spacing(normal) == normal
