"""Decisions the nodes ask for. Both policy implementations return these models; the LLM
implementation asks for them as structured output (reasoning first, then the verdict)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from graph.vocab import DISPOSITIONS, Source, Track


class RouteDecision(BaseModel):
    reasoning: str = Field(description="One or two sentences: why this track, and whether the topic changed.")
    track: Track
    follow_up: bool = Field(description="The message refers back to earlier results (ordinals, 'that institution', 'more detail').")
    pivot: bool = Field(description="The message starts a new topic (other institution, subject or period).")
    sql_intent: bool = Field(False, description="Fast track only: a count, list, group-by or top-N over findings.")
    refines_previous: bool = Field(False, description="Narrows or changes the previous lookup ('그중 시정은?', 'what about 2024?').")
    ordinals: list[int] = Field(default_factory=list, description="1-based item numbers the message points at, e.g. '첫 번째' -> [1].")
    ordinals_in_list: bool = Field(
        False,
        description="The ordinals are numbers the message wrote, counted in the last list of several cases the user saw, also "
        "after a follow-up narrowed to one of them; false: counted in the earlier results as numbered below.",
    )
    institutions: list[str] = Field(default_factory=list, description="Institutions named in the message.")
    year_from: int | None = None
    year_to: int | None = None
    dispositions: list[str] = Field(default_factory=list, description="Disposition words named: " + ", ".join(DISPOSITIONS) + ".")
    search_query: str = Field("", description="The message as a standalone search query (references resolved, filler dropped).")
    goes_back: bool = Field(
        False,
        description="The message returns to a case discussed before the last answer, which that answer no longer shows "
        "('아까 상수도 관망 건은', '처음 물어본 SW 대가 건에서', 'going back to Haeundae'): the earlier results are searched for it.",
    )
    other_cases: bool = Field(
        False,
        description="The message asks for other cases than the one shown (the one the ordinals name, else the first), which is "
        "left out of the results: cases like it ('비슷한 다른 사례는?', '1번과 비슷한 다른 기관 사례': search_query is then its "
        "problem pattern) or of a pattern the message names ('감정평가 관련해서 다른 사례는?': a pivot that still leaves it out).",
    )
    same_report: bool = Field(
        False,
        description="A pivot to another finding of the report whose case the last answer led with, asked as something else "
        "that report also told of ('장성군 얘기도 나오던데 그건 뭐야', '골프장 얘기도 있었지?'): that report is searched, the cases "
        "shown left out.",
    )


class FieldSelection(BaseModel):
    reasoning: str = ""
    institutions: list[str] = Field(default_factory=list)
    year_from: int | None = None
    year_to: int | None = None
    audit_types: list[str] = Field(default_factory=list)
    dispositions: list[str] = Field(default_factory=list)
    sections: list[str] = Field(default_factory=list, description="criteria | problems | opinion | actions | overview")
    report_ids: list[str] = Field(default_factory=list, description="Reports the question points back at ('그 감사', 'that audit').")
    search_query: str = ""
    topic: list[str] = Field(
        default_factory=list,
        description="A lookup's subject beyond its filters ('감정평가 관련 지적 몇 건' -> ['감정평가']): the findings counted or "
        "listed hold every word in their title, overview, problems or report title.",
    )
    source: Source = Field(
        "reports",
        description="'manual' when the question asks what the audit manual says (what a disposition means or when it is used, "
        "how to write a part of a report, a step of the audit procedure, what to check for a kind of violation) and points at "
        "no case, institution or year; else 'reports'.",
    )


class DocumentGrade(BaseModel):
    reasoning: str = Field("", description="Why this passage does or does not help answer the question.")
    index: int = Field(description="The passage number as shown, starting at 1.")
    relevant: bool
    score: float = Field(ge=0.0, le=1.0)


class GradeBatch(BaseModel):
    """All passages graded in one call."""

    grades: list[DocumentGrade]


class QueryRewrite(BaseModel):
    reasoning: str = Field(description="What was missing from the results and how the new query fixes it.")
    query: str
    relax_filter: str | None = Field(None, description="A filter to drop: institutions | years | dispositions | sections, or null.")


class AnswerSentence(BaseModel):
    text: str = Field(description="One sentence of the answer, with its [n] markers.")
    citations: list[int] = Field(default_factory=list, description="Passage numbers supporting the sentence.")
    quote: str = Field("", description="The exact words from the first cited passage that support it.")


class AnalystAnswer(BaseModel):
    reasoning: str = Field("", description="How the evidence answers the question (not shown).")
    sentences: list[AnswerSentence]
    follow_up_questions: list[str] = Field(default_factory=list)


class Verification(BaseModel):
    reasoning: str = ""
    grounded: bool = Field(description="Every sentence is supported by the passage it cites.")
    useful: bool = Field(description="The answer addresses what was asked.")
    unsupported: list[str] = Field(default_factory=list, description="Sentences not supported by their citations, verbatim.")
    confidence: float = Field(0.0, ge=0.0, le=1.0)


class ReportReadiness(BaseModel):
    reasoning: str = ""
    ready: bool
    missing: list[str] = Field(default_factory=list, description="Missing fields: institution | period | findings | criteria | actions")
    institution: str | None = None
    period: str | None = None


class ConversationSummary(BaseModel):
    summary: str = Field(description="At most five sentences: topics, institutions, findings discussed, open questions.")


class SqlQuery(BaseModel):
    reasoning: str = ""
    sql: str = Field(description="One SQLite SELECT over the allowed tables.")
