"""Split section text into passages of about ``size`` characters on sentence boundaries.

Passages are exact slices of the input, so a quote taken from a passage is found verbatim in
the source. Korean report prose ends sentences with '다.' (or 음./함./됨./임.); list items
start with '▪', '◦', '-', '①' or '가.'. Dates such as '2024. 12. 4.' are not sentence ends.
A 'sentence' longer than ``size`` (a table, say) is cut at line breaks, then hard at ``size``.
The last sentence of a passage is repeated at the start of the next one when it is at most
``overlap`` characters long, for context.
"""

from __future__ import annotations

import re

_BOUNDARY = re.compile(
    r"(?<=[다음함됨임요까][.?!])\s+"  # Korean sentence end
    r"|(?<=[.?!][\"”’』」)])\s+"  # end inside a closing quote or bracket
    r"|\n(?=\s*(?:[▪◦□○●■\-※①-⑳]|\(\w{1,2}\)|\d{1,2}\)|\d{1,2}\.\s|[가-하]\.\s))"  # list item
)


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of sentences or list items, whitespace trimmed."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in [*_BOUNDARY.finditer(text), None]:
        end = m.start() if m else len(text)
        seg = text[start:end]
        if seg.strip():
            lead = len(seg) - len(seg.lstrip())
            spans.append((start + lead, start + len(seg.rstrip())))
        if m:
            start = m.end()
    return spans


def _cut_long(text: str, span: tuple[int, int], size: int) -> list[tuple[int, int]]:
    start, end = span
    out: list[tuple[int, int]] = []
    while end - start > size:
        cut = text.rfind("\n", start + 1, start + size)
        cut = cut if cut > start else start + size
        out.append((start, cut))
        start = cut + 1 if text[cut : cut + 1] == "\n" else cut
    if end > start:
        out.append((start, end))
    return out


def chunk_spans(text: str, size: int = 700, overlap: int = 100) -> list[tuple[int, int]]:
    units: list[tuple[int, int]] = []
    for span in sentence_spans(text):
        units.extend(_cut_long(text, span, size) if span[1] - span[0] > size else [span])
    chunks: list[tuple[int, int]] = []
    i = 0
    while i < len(units):
        start, end = units[i]
        j = i + 1
        while j < len(units) and units[j][1] - start <= size:
            end = units[j][1]
            j += 1
        chunks.append((start, end))
        if j >= len(units):
            break
        last = units[j - 1]
        carry = j - 1 > i and last[1] - last[0] <= overlap and units[j][1] - last[0] <= size
        i = j - 1 if carry else j
    return chunks


def chunk_text(text: str, size: int = 700, overlap: int = 100) -> list[str]:
    """Passages of at most ``size`` characters, each an exact slice of ``text``."""
    return [text[s:e] for s, e in chunk_spans(text, size, overlap)]
