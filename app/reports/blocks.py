"""A document as a flat list of blocks (title, headings, paragraphs, list items), written as DOCX
here and as HWPX in ``hwpx_export``: the report draft and the working paper are built once as
blocks and written in either format."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from docx import Document

Kind = Literal["title", "h1", "h2", "h3", "para", "item", "label"]


@dataclass(frozen=True)
class Block:
    kind: Kind
    text: str


def paragraphs(text: str) -> list[str]:
    """A text's paragraphs: split at blank lines, inner line breaks kept."""
    return [p.strip() for p in re.split(r"\n\s*\n", text or "") if p.strip()]


def text_blocks(text: str, kind: Kind = "para") -> list[Block]:
    return [Block(kind, p) for p in paragraphs(text)]


def to_docx(blocks: Iterable[Block]) -> bytes:
    doc = Document()
    for b in blocks:
        if b.kind == "title":
            doc.add_heading(b.text, level=0)
        elif b.kind in ("h1", "h2", "h3"):
            doc.add_heading(b.text, level=int(b.kind[1]))
        elif b.kind == "item":
            doc.add_paragraph(b.text, style="List Bullet")
        elif b.kind == "label":
            doc.add_paragraph().add_run(b.text).bold = True
        else:
            doc.add_paragraph(b.text)
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def to_text(blocks: Iterable[Block]) -> str:
    """The blocks as plain text, one per line (tests and logs)."""
    return "\n".join(b.text for b in blocks)
