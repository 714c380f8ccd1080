"""A cited passage's original PDF page as PNG, the passage (or its quoted span) highlighted.

pypdfium2 renders the page and gives each character's box; ``locate`` finds the span among the
page's characters; Pillow tints the matched lines (multiplying by yellow keeps the text
readable) and frames them. Results are cached on disk under ``<data_dir>/pages/`` by the source
file's sha256, chunk, span and scale, so a page seen before is a file read.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageDraw

from app.cache import LRUCache
from app.db.models import Chunk, Report
from app.pages.locate import Match, find_span, line_boxes
from app.pages.source import source_file
from app.pdfium_lock import PDFIUM_LOCK

HIGHLIGHT = (255, 226, 92)
"""The tint of a highlighted line: white paper becomes this yellow, text stays dark."""
FRAME = (214, 120, 0)
SCALE = 1.5
"""Pixels per PDF point (108 dpi: an A4 page is 893 x 1262 px)."""
PAGES_AFTER = 6
"""How far past a chunk's page its text is looked for when the caller does not know where its
section ends (a chunk carries its section's first page)."""


@dataclass
class RenderedPage:
    page: int
    """1-based page number shown."""
    width: int
    height: int
    boxes: list[list[int]]
    """Highlighted lines, [left, top, right, bottom] in pixels of the PNG."""
    located: bool
    """False when the passage could not be found on the page (it is shown unmarked)."""
    complete: bool
    """False when only part of the span is on this page (it runs onto the next one)."""
    cached: bool = False
    png: bytes = b""


class PageRenderer:
    def __init__(self, cache_dir: Path, scale: float = SCALE, open_documents: int = 4) -> None:
        self.cache_dir, self.scale, self.open_documents = cache_dir, scale, open_documents
        self._docs: LRUCache[pdfium.PdfDocument] = LRUCache(open_documents, on_evict=lambda doc: doc.close())
        self._texts: LRUCache[str] = LRUCache(512)

    def close(self) -> None:
        with PDFIUM_LOCK:
            for doc in self._docs.clear():
                doc.close()

    # -- cache -----------------------------------------------------------------------------------
    def _cache_path(self, report: Report, chunk: Chunk, start: int, end: int) -> Path:
        return self.cache_dir / report.sha256[:24] / f"{chunk.id}-{start}-{end}-{self.scale:g}.png"

    def _cached(self, path: Path) -> RenderedPage | None:
        meta = path.with_suffix(".json")
        try:
            info = json.loads(meta.read_text())
            png = path.read_bytes()
        except (OSError, ValueError):
            return None
        return RenderedPage(**info, cached=True, png=png)

    def _store(self, path: Path, page: RenderedPage) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        info = {k: v for k, v in asdict(page).items() if k not in ("png", "cached")}
        for target, data in ((path, page.png), (path.with_suffix(".json"), json.dumps(info).encode())):
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, target)  # the PNG first: a reader needs both, so never sees half

    # -- rendering -------------------------------------------------------------------------------
    def render(self, report: Report, chunk: Chunk, start: int, end: int, last_page: int | None = None) -> RenderedPage:
        """The page where ``chunk.text[start:end]`` begins, that span highlighted. Raises
        ``SourceUnavailable`` when the source file is gone or changed."""
        path = source_file(report)
        cache = self._cache_path(report, chunk, start, end)
        if (hit := self._cached(cache)) is not None:
            return hit
        with PDFIUM_LOCK:
            page = self._render(path, report, chunk, chunk.text[start:end], last_page)
        self._store(cache, page)
        return page

    def _document(self, path: Path) -> pdfium.PdfDocument:
        key = str(path)
        if (doc := self._docs.get(key)) is None:
            doc = pdfium.PdfDocument(key)
            self._docs.put(key, doc)
        return doc

    def _page_text(self, doc: pdfium.PdfDocument, sha: str, number: int) -> str:
        key = (sha, number)
        if (text := self._texts.get(key)) is None:
            text = doc[number - 1].get_textpage().get_text_range()
            self._texts.put(key, text)
        return text

    def _render(self, path: Path, report: Report, chunk: Chunk, target: str, last_page: int | None) -> RenderedPage:
        doc = self._document(path)
        count = len(doc)
        first = min(max(chunk.page, 1), count)
        last = min(count, max(first, last_page) + 1) if last_page else min(count, first + PAGES_AFTER)
        match = find_span(lambda n: self._page_text(doc, report.sha256, n), range(first, last + 1), target)
        number = match.page if match else first
        page = doc[number - 1]
        _, height_pt = page.get_size()
        image = page.render(scale=self.scale).to_pil().convert("RGB")
        boxes = self._boxes(page, match, height_pt) if match else []
        _highlight(image, boxes)
        buf = io.BytesIO()
        image.save(buf, "PNG", compress_level=3)
        return RenderedPage(number, image.width, image.height, boxes, match is not None,
                            bool(match and match.complete), png=buf.getvalue())

    def _boxes(self, page: pdfium.PdfPage, match: Match, height_pt: float) -> list[list[int]]:
        text = page.get_textpage()
        chars = [text.get_charbox(i) for start, end in match.ranges for i in range(start, end)]
        s = self.scale
        return [[round(left * s), round((height_pt - top) * s), round(right * s), round((height_pt - bottom) * s)]
                for left, bottom, right, top in line_boxes(chars)]


def _highlight(image: Image.Image, boxes: list[list[int]]) -> None:
    draw = ImageDraw.Draw(image)
    for left, top, right, bottom in boxes:
        box = (max(left, 0), max(top, 0), min(right, image.width), min(bottom, image.height))
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        region = image.crop(box)
        image.paste(ImageChops.multiply(region, Image.new("RGB", region.size, HIGHLIGHT)), box)
        draw.rectangle(box, outline=FRAME, width=2)
