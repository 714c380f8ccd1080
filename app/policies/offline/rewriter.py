"""Offline query rewriting: expand audit terms from the glossary (sop/glossary.tsv), drop
question filler, and relax the narrowest filter when filters may have excluded the answer."""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from pathlib import Path

from app.policies.offline.lexicon import (
    FACET_TERMS,
    FUNCTION_WORDS,
    STOP_MORPHEMES,
    key_terms,
    squash,
)
from app.text.korean import morphemes
from graph.schemas import QueryRewrite
from graph.vocab import RELAXABLE_FILTER_KEYS, language


class Glossary:
    """Audit terms and their synonyms (``sop/glossary.tsv``), plus English forms of the reports'
    own terms (``glossary_en.tsv`` beside it) that only English text is read with: a Korean
    question is expanded with ``glossary.tsv``'s forms alone, also for a term both files list
    (measured: adding the English file's terms to Korean rewrites lets near-miss findings pass
    grading; dev abstention .865 -> .757)."""

    def __init__(self, rows: dict[str, list[str]], english: dict[str, list[str]] | None = None) -> None:
        self.rows = {t: [*rows.get(t, []), *(english or {}).get(t, [])] for t in {**(english or {}), **rows}}
        self._own = rows  # glossary.tsv's synonyms: a Korean question's expansions
        self._english_only = set(english or {}) - set(rows)
        self._forms: dict[str, str] = {}
        latin: dict[str, tuple[int, int, str]] = {}  # pattern -> (order: longest form first, as written before British, term)
        for term, synonyms in self.rows.items():
            for form in (term, *synonyms):
                if form.isascii():  # English: whole words only ('app' is not in 'approved'), plurals too
                    words, british = (_english_phrase(form.lower().split(), b) for b in (False, True))
                    latin.setdefault(words, (-len(words), 0, term))
                    latin.setdefault(british, (-len(words), 1, term))  # 'licence' as written is 자격's, not 인허가's 'license'
                else:
                    self._forms.setdefault(squash(form.lower()), term)
        self._forms = dict(sorted(self._forms.items(), key=lambda kv: -len(kv[0])))  # longest first, once
        self._latin = {re.compile(rf"(?<![a-z]){p}(?![a-z])"): term for p, (*_, term) in sorted(latin.items(), key=lambda kv: kv[1][:2])}

    @classmethod
    def load(cls, path: str | Path) -> Glossary:
        path = Path(path)
        return cls(_rows(path), _rows(path.with_name(f"{path.stem}_en{path.suffix}")))

    def terms_in(self, text: str) -> list[str]:
        flat, low = squash(text.lower()), text.lower()
        found = [term for form, term in self._forms.items() if form in flat]
        taken: list[tuple[int, int]] = []  # English: longest forms first, no overlaps ('financial statements' is not 'statements')
        for rule, term in self._latin.items():
            for m in rule.finditer(low):
                if not any(a < m.end() and m.start() < b for a, b in taken):
                    taken.append(m.span())
                    found.append(term)
                    break
        if language(text) != "en":
            found = [t for t in found if t not in self._english_only]
        return list(dict.fromkeys(found))

    def expansions(self, text: str) -> list[str]:
        """The forms of the audit terms the text names that it does not write; a Korean text's
        from ``glossary.tsv`` alone (not the English forms of a term both files list, '겸직')."""
        flat = squash(text.lower())
        english = language(text) == "en"
        out: list[str] = []
        for term in dict.fromkeys(self.terms_in(text)):
            for form in (term, *(self.rows[term] if english else self._own.get(term, []))):
                if squash(form.lower()) not in flat and form not in out:
                    out.append(form)
        return out

    def search_terms(self, text: str, used: Callable[[str], float | None]) -> set[str]:
        """The text's key terms; English text also gets the Korean audit terms its words name
        ('sick leave' -> 병가), so it can match findings written in Korean. ``used(term)`` is
        None for a term no report uses: such an English word says nothing about the topic and
        only dilutes the Korean terms, so it is dropped when the glossary names something
        topical (dev, English questions: top-1 0.65 -> 0.88)."""
        terms = key_terms(text)
        if language(text) != "en":
            return terms
        korean = key_terms(" ".join(self.terms_in(text)))
        if not korean - FACET_TERMS:
            return terms | korean  # nothing topical to weigh instead of the English words
        return korean | {t for t in terms if not t.isascii() or (t not in FUNCTION_WORDS and used(t) is not None)}

    def in_korean(self, text: str) -> str:
        """What to search the Korean reports with for ``text``: for English text, the Korean audit
        terms its words name (the question itself when they are fewer than two, with them
        appended); other text unchanged. e5 matches English to Korean weakly: on the dev split's
        English questions, searching with the question itself put a right finding first for 0.64,
        with the question plus its terms 0.76, with this 0.80."""
        if language(text) != "en":
            return text
        korean = self.terms_in(text)
        return " ".join(korean) if len(korean) >= 2 else " ".join([text, *korean])

    def checkable_terms(self, text: str, used: Callable[[str], float | None]) -> set[str]:
        """``search_terms`` without any English word no report uses: what Korean evidence can
        be checked against."""
        return {t for t in self.search_terms(text, used) if not t.isascii() or used(t) is not None}

    def all_terms(self) -> set[str]:
        """The words of ``glossary.tsv``'s terms and forms (the router's domain words); not the English
        forms of ``glossary_en.tsv``, whose 'side job', 'work' or 'abroad' would make small talk an audit question."""
        out: set[str] = set()
        for term, syns in self._own.items():
            for form in (term, *syns):
                out.update(m for m in morphemes(form) if len(m) > 1 and m not in FUNCTION_WORDS)  # 'IT system': not 'it'
        return out


def _word(word: str, british: bool = False) -> str:
    """An English word as a regex; ``british``: one that reads its British spelling too ('harbor': harbour, 'center':
    centre, 'organization': organisation, 'license': licence, 'program': programme)."""
    rule = re.escape(word)
    if not british:
        return rule
    if len(word) >= 5:
        rule = re.sub(r"or$", "ou?r", rule)
        rule = re.sub(r"(?<=[^aeiou])er$", "(?:er|re)", rule)
    rule = re.sub(r"(?<=[a-z])([iy])z(?=e|ation|ing)", r"\1[sz]", rule)
    rule = re.sub(r"(?<=[a-z])en[sc]e$", "en[sc]e", rule)
    return "programm?e?" if word == "program" else rule


def _english_phrase(parts: list[str], british: bool = False) -> str:
    """A regex for an English glossary phrase, its words apart by spaces or hyphens; a phrase of
    three words or more may have one more word inside it, once and not a negation ('local tax
    (revenue) system'; not 'local non government official'). Its last word in the plural too
    ('subsidies', 'penalties', 'reports')."""
    last = parts[-1]
    tail = _word(last[:-1], british) + "(?:y|ies)" if re.search(r"[^aeiou]y$", last) else _word(last, british) + "(?:s|es)?"
    words = [*(_word(w, british) for w in parts[:-1]), tail]
    plain = r"[\s-]*".join(words)
    if len(words) < 3:
        return plain
    extra = r"[\s-]+(?!(?:non|not|no|un)\b)[a-z]+[\s-]+"
    inside = [r"[\s-]*".join(words[:i]) + extra + r"[\s-]*".join(words[i:]) for i in range(1, len(words))]
    return "(?:" + "|".join([plain, *inside]) + ")"


def _rows(path: Path) -> dict[str, list[str]]:
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        return {r["term"].strip(): [s.strip() for s in (r["synonyms"] or "").split(",") if s.strip()] for r in reader}


def rewrite(question: str, query: str, tried: list[str], filters: dict, glossary: Glossary) -> QueryRewrite:
    core = " ".join(m for m in morphemes(query) if m not in STOP_MORPHEMES) or query
    extra = glossary.expansions(question)
    attempt = len(tried)  # 1 for the first rewrite
    new = " ".join([core, *extra[: 4 * attempt]]).strip()
    if new in tried or not new:
        new = " ".join([question, *extra]).strip()
    relax = next((k for k, keys in RELAXABLE_FILTER_KEYS.items() if any(filters.get(f) for f in keys)), None)
    why = f"expanded with {', '.join(extra[:4 * attempt]) or 'no glossary terms'}"
    if relax:
        why += f"; relaxing the {relax} filter"
    return QueryRewrite(reasoning=why, query=new, relax_filter=relax)
