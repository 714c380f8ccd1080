"""A portable seed for the passage-vector cache: vectors keyed by (model, sha256 of the text),
in one ``.npz`` file that can be committed or shipped, so a fresh machine does not spend many
minutes re-embedding documents it has seen before (the 12 shared reports take ~16 minutes on
two cores).

It is a cache, never a substitute for the embedder: a lookup that misses is embedded as usual,
and a seed is only accepted when

- its digest matches its contents (a damaged or edited file is refused), and
- the embedder it is loaded for reproduces the seed's probe vectors (the same model, weights and
  preprocessing: cosine >= ``PROBE_MIN_COS`` for each probe text stored in the seed).
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import numpy as np

from app.embeddings.cache import CachedEmbedder, text_key

PROBE_MIN_COS = 0.999
PROBES = (
    "감사원은 ○○군수에게 앞으로 수의계약 업무를 철저히 하도록 주의를 요구하였다.",
    "「지방자치단체를 당사자로 하는 계약에 관한 법률」 제9조에 따라 계약을 체결하여야 한다.",
    "The agency failed to recover subsidies that were paid without supporting documents.",
)


class SeedError(ValueError):
    """The seed cannot be used; the message says why."""


def _digest(model: str, keys: np.ndarray, vectors: np.ndarray, probe_vectors: np.ndarray) -> str:
    h = hashlib.sha256(model.encode())
    for part in (keys.astype("U64").tobytes(), vectors.astype(np.float32).tobytes(), probe_vectors.astype(np.float32).tobytes()):
        h.update(part)
    return h.hexdigest()


def export_seed(cache_db: Path, embedder: CachedEmbedder, out: Path, keys: set[str] | None = None) -> int:
    """Write the vectors of ``embedder``'s model held in ``cache_db`` (only ``keys`` when given)
    to ``out``, with probe vectors computed now. Returns the number of vectors written."""
    conn = sqlite3.connect(str(cache_db))
    try:
        rows = conn.execute("SELECT key, vec FROM vectors WHERE model=? ORDER BY key", [embedder.name]).fetchall()
    finally:
        conn.close()
    rows = [(k, v) for k, v in rows if keys is None or k in keys]
    key_arr = np.array([k for k, _ in rows], dtype="U64")
    vecs = np.vstack([np.frombuffer(v, dtype=np.float32) for _, v in rows]) if rows else np.zeros((0, embedder.dim), np.float32)
    probes = embedder.inner.embed_passages(list(PROBES)).astype(np.float32)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out, model=np.array(embedder.name), keys=key_arr, vectors=vecs, probe_vectors=probes,
        digest=np.array(_digest(embedder.name, key_arr, vecs, probes)),
    )
    return len(rows)


def load_seed(embedder: CachedEmbedder, path: Path) -> int:
    """Add the seed's vectors to ``embedder``'s cache (entries it already has are kept).
    Returns how many were added; raises SeedError when the seed does not fit this embedder."""
    try:
        data = np.load(path, allow_pickle=False)
        model, keys, vecs, probes, digest = (
            str(data["model"]), data["keys"], data["vectors"], data["probe_vectors"], str(data["digest"])
        )
    except (OSError, KeyError, ValueError) as exc:
        raise SeedError(f"{path}: not a readable embedding seed ({exc})") from exc
    if model != embedder.name:
        raise SeedError(f"{path}: vectors of {model}, not {embedder.name}")
    if _digest(model, keys, vecs, probes) != digest:
        raise SeedError(f"{path}: contents do not match the stored digest")
    fresh = embedder.inner.embed_passages(list(PROBES))
    cos = np.sum(fresh * probes, axis=1)
    if float(cos.min()) < PROBE_MIN_COS:
        raise SeedError(f"{path}: this embedder does not reproduce the seed's probe vectors (cosine {cos.min():.4f})")
    return embedder.add_vectors(dict(zip((str(k) for k in keys), vecs, strict=True)))


__all__ = ["SeedError", "export_seed", "load_seed", "text_key"]
