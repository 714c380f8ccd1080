"""Text embeddings behind one small interface, with a content-hash cache for passages."""

from app.embeddings.base import Embedder, make_embedder
from app.embeddings.cache import CachedEmbedder

__all__ = ["CachedEmbedder", "Embedder", "make_embedder"]
