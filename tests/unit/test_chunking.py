from app.ingest.chunking import chunk_spans, chunk_text, sentence_spans

PROSE = (
    "해운대구는 2024. 12. 4. 고문변호사 2명에게 자문하였다. 이에 대해 법무법인의 고문변호사는 "
    "제척 사유가 존재하지 않는다는 검토의견을 제시하였다.\n"
    "▪ 첫째 항목은 목록이다\n"
    "가. 관계 법령과 판단기준\n"
    "국토계획법 제113조에 따르면 위원은 제척된다. "
)


def test_dates_are_not_sentence_ends_and_list_items_are():
    sentences = [PROSE[s:e] for s, e in sentence_spans(PROSE)]
    assert sentences[0] == "해운대구는 2024. 12. 4. 고문변호사 2명에게 자문하였다."
    assert "▪ 첫째 항목은 목록이다" in sentences
    # a heading starts a new unit and stays with the sentence under it
    assert sentences[-1].startswith("가. 관계 법령과 판단기준\n국토계획법")


def test_chunks_are_exact_slices_within_size():
    text = PROSE * 30
    for size in (120, 300, 700):
        chunks = chunk_text(text, size=size, overlap=60)
        assert all(c in text for c in chunks)
        assert all(len(c) <= size for c in chunks)
        # every sentence is in some chunk: nothing is lost between chunks
        for s, e in sentence_spans(text):
            if e - s <= size:
                assert any(text[s:e] in c for c in chunks)


def test_short_last_sentence_is_carried_over_as_overlap():
    text = "가" * 50 + "다. " + "나" * 50 + "다. " + "라" * 50 + "다."
    spans = chunk_spans(text, size=110, overlap=60)
    assert len(spans) == 2
    assert spans[1][0] < spans[0][1]  # overlap: the second starts inside the first


def test_long_table_line_is_cut_at_line_breaks():
    table = "\n".join(f"{i} 용인시 127,853 60,285 67,568" for i in range(100))
    chunks = chunk_text(table, size=200, overlap=0)
    assert all(len(c) <= 200 for c in chunks)
    assert all(not c.startswith("\n") for c in chunks)
    assert "".join(c.replace("\n", "") for c in chunks) == table.replace("\n", "")


def test_empty_text_gives_no_chunks():
    assert chunk_text("   \n ") == []
