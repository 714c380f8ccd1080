"""graph/vocab.py is the only place the shared words are listed; the section labels the LLM sees
are the ones everyone else uses."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from graph import vocab

ROOT = Path(__file__).resolve().parents[2]
VOCAB_FILE = ROOT / "graph" / "vocab.py"
WORD_SETS = {
    "dispositions": set(vocab.DISPOSITIONS),
    "modes": set(vocab.MODES),
    "tracks": set(vocab.TRACKS),
    "section kinds": set(vocab.SECTION_KINDS) | set(vocab.REPORT_SECTION_KINDS),
    "report fields": set(vocab.REPORT_FIELDS),
    "relaxable filters": set(vocab.RELAXABLE_FILTERS),
    "section labels": {label for labels in vocab.SECTION_LABELS.values() for label in labels.values()},
}


def _sources() -> list[Path]:
    return [p for d in ("app", "graph") for p in sorted((ROOT / d).rglob("*.py")) if p != VOCAB_FILE]


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    ids.add(id(stmt.value))
    return ids


def _second_lists(path: Path) -> list[str]:
    """Literal collections (tuple, list, set, dict keys or values, Literal[...]) made only of
    the words of one vocabulary (three or more), and strings that enumerate three or more
    dispositions (help texts, prompts). A table keyed by every word of a vocabulary (questions
    per report field, a sample question per track) is not a copy: it cannot drift silently; nor
are the keys of a map to richer data (synonym lists), whose keys tests check against vocab."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        groups: list[list[ast.expr]] = []
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            groups.append(list(node.elts))
        elif isinstance(node, ast.Dict):
            if all(isinstance(v, ast.Constant) for v in node.values):
                groups.append([k for k in node.keys if k is not None])
            groups.append(list(node.values))
        for elts in groups:
            words = [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(words) < 3 or len(words) != len(elts):
                continue
            keys = isinstance(node, ast.Dict) and elts is groups[0] and len(groups) == 2
            if keys and any(set(words) == vocab_words for vocab_words in WORD_SETS.values()):
                continue
            for name, vocab_words in WORD_SETS.items():
                if set(words) <= vocab_words:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: a list of {name} {words}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            named = {d for d in vocab.DISPOSITIONS if d in node.value}
            if len(named) >= 3:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: a string naming dispositions {sorted(named)}")
    return found


def test_no_second_list_of_the_shared_words() -> None:
    found = [hit for path in _sources() for hit in _second_lists(path)]
    assert not found, "import these from graph.vocab instead:\n" + "\n".join(found)


def test_the_scan_finds_a_copied_list(tmp_path: Path) -> None:
    copy = tmp_path / "copy.py"
    copy.write_text('D = ("주의", "통보", "시정")\nHELP = "주의, 통보, 시정, ..."\nM = {"auto": "a", "fast": "f", "deep": "d"}\n')
    global ROOT
    root, ROOT = ROOT, tmp_path
    try:
        assert len(_second_lists(copy)) == 3
    finally:
        ROOT = root


def test_offline_synonyms_name_known_dispositions() -> None:
    from app.policies.offline.lexicon import DISPOSITION_WORDS

    assert set(DISPOSITION_WORDS) <= set(vocab.DISPOSITIONS)


def test_every_section_kind_has_a_label_in_every_language() -> None:
    kinds = {*vocab.SECTION_KINDS, *vocab.REPORT_SECTION_KINDS, vocab.MANUAL_SECTION}
    for lang, labels in vocab.SECTION_LABELS.items():
        assert set(labels) == kinds, lang


@pytest.mark.parametrize("kind", vocab.SECTION_KINDS)
def test_the_llm_sees_the_same_section_label_as_the_ui(kind: str) -> None:
    """The opinion section is the audited agency's response (관계기관 의견); the prompts once
    showed it to the LLM as 감사의견 (the auditor's opinion)."""
    from app.policies.llm.prompts import format_passages

    doc = {"section": kind, "heading": "h", "report_title": "보고서", "finding_title": "지적 1", "page": 3, "text": "본문"}
    shown = format_passages([doc])  # type: ignore[list-item]
    assert f"(보고서 > 지적 1 > {vocab.section_label(kind)}, p.3)" in shown
    assert "감사의견" not in shown
