"""Where a stored passage (or a quoted span of it) lies on its PDF page.

A chunk's text is the page text as pdfium extracted it, after the report parser dropped page
furniture ('- 7 -'), redaction glyphs (private-use characters) and rejoined lines. So the
comparison ignores whitespace and those glyphs, and keeps, for each compared character, its
pdfium character index: the boxes of the matched characters are the highlight. A span that
runs onto the next page is matched by its longest prefix on the page where it starts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_SKIP = re.compile(r"[\s\x00\ue000-\uf8ff]")
MIN_MATCH = 6
"""Fewest compared characters a partial (prefix or suffix) match must have."""


@dataclass(frozen=True)
class Match:
    page: int
    """1-based page number."""
    ranges: tuple[tuple[int, int], ...]
    """pdfium character index ranges [start, end) of the matched pieces, in page order."""
    complete: bool
    """False when only part of the span was found on the page (it runs onto the next one)."""


def comparable(text: str) -> tuple[str, list[int]]:
    """TEXT without whitespace and redaction glyphs, and each kept character's index in TEXT."""
    keep = [(i, ch) for i, ch in enumerate(text) if not _SKIP.match(ch)]
    return "".join(ch for _, ch in keep), [i for i, _ in keep]


def _longest_prefix(hay: str, needle: str, start: int = 0) -> int:
    """Length of the longest prefix of NEEDLE found in HAY[start:] (binary search: if a prefix
    occurs, so does every shorter one)."""
    lo, hi = 0, len(needle)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if hay.find(needle[:mid], start) >= 0:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _pieces(hay: str, needle: str) -> tuple[list[tuple[int, int]], int]:
    """NEEDLE matched in order as consecutive pieces of HAY, each at least MIN_MATCH long
    (something the parser dropped, a footnote or a table, may sit between two pieces); the
    pieces and how much of NEEDLE they cover."""
    pieces: list[tuple[int, int]] = []
    pos = done = 0
    while done < len(needle):
        n = _longest_prefix(hay, needle[done:], pos)
        if n < min(MIN_MATCH, len(needle) - done):
            break
        i = hay.find(needle[done : done + n], pos)
        pieces.append((i, i + n))
        pos, done = i + n, done + n
    return pieces, done


def _match(page: int, index: list[int], pieces: list[tuple[int, int]], complete: bool) -> Match:
    return Match(page, tuple((index[a], index[b - 1] + 1) for a, b in pieces), complete)


def find_span(page_text: Callable[[int], str], pages: range, target: str) -> Match | None:
    """The first page of PAGES holding TARGET (ignoring whitespace and glyphs), else the page
    where most of it is found in order from its start, else its longest suffix; None when
    nothing of it is there."""
    needle, _ = comparable(target)
    if not needle:
        return None
    texts: dict[int, tuple[str, list[int]]] = {}
    for p in pages:  # page by page: most spans are found whole on one of the first pages
        hay, index = texts[p] = comparable(page_text(p))
        if (i := hay.find(needle)) >= 0:
            return _match(p, index, [(i, i + len(needle))], True)
    best: tuple[int, int, list[tuple[int, int]]] | None = None
    for p, (hay, _) in texts.items():
        pieces, done = _pieces(hay, needle)
        if pieces and (best is None or done > best[0]):
            best = (done, p, pieces)
    if best is not None:
        return _match(best[1], texts[best[1]][1], best[2], best[0] == len(needle))
    for p, (hay, index) in texts.items():  # the span's end, when its start is on an earlier page
        n = _longest_prefix(hay[::-1], needle[::-1])
        if n >= min(MIN_MATCH, len(needle)):
            i = hay.find(needle[-n:])
            return _match(p, index, [(i, i + n)], False)
    return None


Box = tuple[float, float, float, float]
"""(left, bottom, right, top) in PDF points, origin at the bottom left (pdfium's charbox)."""


def line_boxes(chars: list[Box], pad: float = 1.5) -> list[Box]:
    """Character boxes merged into one box per text line (consecutive characters whose vertical
    extents overlap), padded a little; empty boxes (generated spaces) are skipped."""
    lines: list[list[float]] = []
    for left, bottom, right, top in chars:
        if right - left <= 0 or top - bottom <= 0:
            continue
        if lines:
            cur = lines[-1]
            overlap = min(cur[3], top) - max(cur[1], bottom)
            if overlap > 0.5 * min(cur[3] - cur[1], top - bottom) and left >= cur[0] - 2:
                cur[0], cur[1], cur[2], cur[3] = min(cur[0], left), min(cur[1], bottom), max(cur[2], right), max(cur[3], top)
                continue
        lines.append([left, bottom, right, top])
    return [(a - pad, b - pad, c + pad, d + pad) for a, b, c, d in lines]
