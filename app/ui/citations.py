"""A cited quote located in its passage and rendered as HTML with the span marked.

The quote is an exact span of the passage up to whitespace (the chunker keeps slices of the
source; the analyst may join lines, show a passage's “ ” as ‘ ’ and leave out footnote
references such as '않아12)'): it is located as the answer's citations locate it. Short quotes
taken from the heading (a finding's title) are looked up in the heading."""

from __future__ import annotations

import html
from dataclasses import dataclass

from graph.nodes.analyze import locate as find_quote


@dataclass(frozen=True)
class Located:
    text: str
    start: int
    end: int

    @property
    def found(self) -> bool:
        return self.end > self.start


def locate(text: str, quote: str) -> Located:
    """Where QUOTE is in TEXT (start == end == 0 when it is not there): as the answer's citations
    locate it (``graph.nodes.analyze.locate``)."""
    span = find_quote((quote or "").strip(), text or "")
    return Located(text, *span) if span else Located(text, 0, 0)


def highlight_html(text: str, quote: str, mark_id: str = "quote") -> tuple[str, bool]:
    """(HTML of TEXT with the quote in <mark>, whether it was found). Everything is escaped."""
    loc = locate(text, quote)
    if not loc.found:
        return html.escape(text), False
    before, span, after = text[: loc.start], text[loc.start : loc.end], text[loc.end :]
    return (
        f"{html.escape(before)}<mark class=\"aura-quote\" id=\"{html.escape(mark_id)}\">{html.escape(span)}</mark>{html.escape(after)}",
        True,
    )


def passage_html(chunk: dict, quote: str, mark_id: str = "quote") -> tuple[str, bool]:
    """The passage (heading, then text) with the quote marked in whichever contains it."""
    body, found = highlight_html(chunk.get("text") or "", quote, mark_id)
    heading = chunk.get("heading") or ""
    if not found and heading:
        head, found = highlight_html(heading, quote, mark_id)
    else:
        head = html.escape(heading)
    parts = []
    if heading:
        parts.append(f'<div class="aura-heading">{head}</div>')
    parts.append(f'<div class="aura-passage">{body}</div>')
    return "".join(parts), found


STYLE = """
<style>
.aura-heading { color: #555; font-size: 0.85rem; margin-bottom: 0.35rem; }
.aura-passage { white-space: pre-wrap; line-height: 1.65; font-size: 0.93rem;
  background: #fafafa; border-left: 3px solid #d0d7de; padding: 0.6rem 0.8rem; border-radius: 4px; }
mark.aura-quote { background: #ffe58a; padding: 0 2px; border-radius: 2px; }
</style>
"""
