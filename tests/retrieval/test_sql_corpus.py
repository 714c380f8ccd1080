"""The SQL-backed lexical index: built from chunks' ingest-time terms, notices new ingests,
registers institution names, re-tokenizes chunks whose dictionary words changed."""

from sqlalchemy import select, update

from app.db.models import Chunk
from app.retrieval import lexicon
from app.retrieval.filters import SearchFilters
from app.retrieval.lexical import terms
from app.text.korean import morphemes
from tests.conftest import SAMPLES


def test_index_follows_ingests_and_honours_filters(services):
    corpus = services.corpus
    assert corpus.search(terms(morphemes("분할 수의계약")), 5) == []
    services.ingestor.ingest([SAMPLES / "sample_numbered.txt"])
    with services.sessions() as s:
        assert all(c.lexical for c in s.scalars(select(Chunk)))
    hits = corpus.search(terms(morphemes("물품 구매계약 분할 수의계약")), 5)
    assert hits and all(h.meta["report_id"] == "sample_numbered" for h in hits)
    assert corpus.retokenized == 0  # ingest-time terms were reused as stored

    services.ingestor.ingest([SAMPLES / "sample_regular.hwpx"])
    hits = corpus.search(terms(morphemes("시간외근무수당 부당 지급")), 5, SearchFilters(institutions=["새솔시"]))
    assert hits and all("새솔시" in h.meta["institutions"] for h in hits)
    assert corpus.search(terms(morphemes("시간외근무수당")), 5, SearchFilters(year_to=1990)) == []


def test_institution_names_become_user_words(services):
    services.ingestor.ingest([SAMPLES / "sample_forms.docx"])
    with services.sessions() as s:
        names = lexicon.institution_names(s)
    assert {"한빛군", "누리공사"} <= set(names)
    services.corpus.refresh()
    assert "누리공사" in morphemes("누리공사의 요금수납시스템 장애")


def test_chunks_are_retokenized_when_their_dictionary_words_change(services):
    services.ingestor.ingest([SAMPLES / "sample_numbered.txt"])
    with services.sessions() as s, s.begin():
        s.execute(update(Chunk).values(lexical="stale", lexical_words="not-a-word"))
    services.corpus.refresh(force=True)
    assert services.corpus.retokenized > 0
    assert services.corpus.search(["stale"], 5) == []
    # the finding profiles take their terms from the index, not from the rows as stored
    profiles = services.finding_ranker.index.all_profiles()
    assert profiles and not any("stale" in p.full_terms for p in profiles)
    chunk_terms = services.corpus.finding_terms()
    assert all(chunk_terms[p.id] and chunk_terms[p.id] <= p.full_terms for p in profiles)
    # a chunk's stored morphemes are what reading its heading and text gives; none for a chunk the index does not hold
    from app.text.korean import morphemes

    with services.sessions() as s:
        chunk = s.scalars(select(Chunk)).first()
        assert services.corpus.chunk_terms(chunk.id) == frozenset(morphemes(chunk.index_text))
    assert services.corpus.chunk_terms("SOP-CLS-08") is None
    with services.sessions() as s:
        assert "stale" not in {c.lexical for c in s.scalars(select(Chunk))}
    services.corpus.refresh(force=True)
    assert services.corpus.retokenized == 0
    # terms read by another version of the tokenizer (no version mark: before 'warnings.' kept whole) are read again
    with services.sessions() as s, s.begin():
        first = s.scalars(select(Chunk)).first()
        s.execute(update(Chunk).where(Chunk.id == first.id).values(lexical_words=first.lexical_words.split("|", 1)[1]))
    services.corpus.refresh(force=True)
    assert services.corpus.retokenized == 1


def test_hybrid_retriever_over_the_store(services):
    services.ingestor.ingest([SAMPLES / "sample_regular.hwpx"])
    hits = services.retriever.search("시간외근무수당을 부당하게 받은 직원", 3)
    assert hits and hits[0].report_id == "sample_regular"
    assert hits[0].finding_id and hits[0].text and hits[0].heading
    assert hits[0].dense_rank is not None or hits[0].lexical_rank is not None
