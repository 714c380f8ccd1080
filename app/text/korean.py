"""Korean text handling with one shared Kiwi instance: content morphemes and spacing repair.

Kiwi takes seconds and ~0.5 GB to load, so the process keeps exactly one (``get_kiwi``).
Search keys are content morphemes, lowercased: nouns, numbers, foreign words, roots and
verb/adjective stems. Particles and endings are dropped, so 계약을 / 계약의 / 계약 match.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from functools import lru_cache

from kiwipiepy import Kiwi

CONTENT_TAGS = frozenset(
    {"NNG", "NNP", "NR", "SL", "SH", "SN", "XR", "VV", "VA", "VV-R", "VV-I", "VA-R", "VA-I", "W_HASHTAG"}
)

_lock = threading.Lock()
_kiwi: Kiwi | None = None
_user_words: set[str] = set()
_HANGUL_RUN = re.compile(r"[가-힣]{12,}")


def get_kiwi() -> Kiwi:
    """The process-wide Kiwi instance, created on first use."""
    global _kiwi
    if _kiwi is None:
        with _lock:
            if _kiwi is None:
                _kiwi = Kiwi()
    return _kiwi


def add_user_words(words: Iterable[str], tag: str = "NNP") -> int:
    """Register proper nouns (institution names) so they stay one morpheme. Returns how many
    were new. Clears the caches that read Kiwi when the dictionary changes."""
    kiwi = get_kiwi()
    added = 0
    with _lock:
        for word in words:
            word = word.strip()
            if len(word) < 2 or " " in word or word in _user_words:
                continue
            if kiwi.add_user_word(word, tag, 0.0):
                added += 1
            _user_words.add(word)
    if added:
        global _version
        _version += 1
        _morphemes_cached.cache_clear()
        _ends_clause.cache_clear()
        is_noun.cache_clear()
        only_nouns.cache_clear()
    return added


_version = 0


def dictionary_version() -> int:
    """Changes whenever ``add_user_words`` adds a word: results cached on Kiwi's reading (display
    sentences, clause ends) are keyed on it."""
    return _version


def _content_forms(tokens) -> list[str]:  # noqa: ANN001 - kiwipiepy Token list
    """Content morphemes; a negating prefix stays on its noun (부적정 is not 적정)."""
    forms: list[str] = []
    prefix = ""
    for tok in tokens:
        if tok.tag == "XPN":
            prefix = tok.form
            continue
        if tok.tag in CONTENT_TAGS:
            forms.append((prefix + tok.form).lower())
        prefix = ""
    return forms


TOKENIZER_VERSION = "2"
"""Changes when the reading of a text changes (2: punctuation after English words, ``_LATIN_PUNCT``): terms stored
with another version are read again (``app.retrieval.lexicon.words_in``)."""
_LATIN_PUNCT = re.compile(r"(?<=[A-Za-z])(?=[.,;:!?)\]'\"’”…]+(?:\s|$))")
"""Punctuation after an English word: Kiwi reads 'audit.' as one foreign word and 'warnings.' as 'war' +
'nings.', so a space goes before it."""


@lru_cache(maxsize=4096)
def _morphemes_cached(text: str) -> tuple[str, ...]:
    return tuple(_content_forms(get_kiwi().tokenize(_LATIN_PUNCT.sub(" ", text))))


def morphemes(text: str) -> list[str]:
    """Content morphemes of ``text``, lowercased, in order (duplicates kept)."""
    if not text or not text.strip():
        return []
    return list(_morphemes_cached(text))


def nouns(text: str) -> set[str]:
    """The nouns of ``text`` as Kiwi reads them in context (NNG, NNP), lowercased, longer than
    one character: '안 매기고' gives none ('매기' is a verb there)."""
    if not text or not text.strip():
        return set()
    return {t.form.lower() for t in get_kiwi().tokenize(_LATIN_PUNCT.sub(" ", text)) if t.tag in ("NNG", "NNP") and len(t.form) > 1}


@lru_cache(maxsize=4096)
def is_noun(word: str) -> bool:
    """Kiwi reads the word alone as one noun ('음주', '회의록'; not '부풀리', '돌리')."""
    tokens = get_kiwi().tokenize(word)
    return len(tokens) == 1 and tokens[0].tag in ("NNG", "NNP")


@lru_cache(maxsize=4096)
def only_nouns(word: str) -> bool:
    """Kiwi reads the word alone as nouns only, one or several ('글램핑장': 글램 + 핑 + 장, a word it does not know;
    not '부풀리')."""
    tokens = get_kiwi().tokenize(word)
    return bool(tokens) and all(t.tag in ("NNG", "NNP") for t in tokens)


def shortening(initials: str, tail: str = "") -> re.Pattern[str]:
    """What a Korean short name stands for: each of ``initials`` the first syllable of a word the
    short form leaves the rest of out (one to three syllables), then ``tail`` whole: '농기' + '센터'
    finds 농업기술센터, '농취' + '증' finds 농지취득자격증명."""
    return re.compile("".join(re.escape(c) + "[가-힣]{1,3}" for c in initials) + re.escape(tail))


def morphemes_batch(texts: list[str]) -> list[list[str]]:
    """Content morphemes for many texts, using Kiwi's multi-threaded batch tokenizer."""
    kiwi = get_kiwi()
    return [_content_forms(tokens) for tokens in kiwi.tokenize([_LATIN_PUNCT.sub(" ", t) for t in texts])]


def needs_spacing(text: str) -> bool:
    """True when the text has long runs of Hangul with no space (lost in PDF extraction)."""
    return _HANGUL_RUN.search(text) is not None


def restore_spacing(text: str) -> str:
    """Re-insert spaces between Korean words where extraction lost them; other text unchanged."""
    if not needs_spacing(text):
        return text
    return "\n".join(get_kiwi().space(line) if needs_spacing(line) else line for line in text.split("\n"))


# ---------------------------------------------------------------- line breaks inside words

_BREAK = re.compile(r"(?<=[가-힣])[ \t]*\n[ \t]*(?=[가-힣])")
_BOUND_PREFIXES = ("J", "E", "XS", "VCP")
"""Tags of morphemes that cannot start a word: particles, endings, suffixes, the copula."""
_VERBS = ("VV", "VA")
"""A verb crossing the break is a compound verb cut in two ('도와|준다고', '줄어|들고') at a
bound morpheme's margin."""
_COPULA = re.compile(r"(?:였|이었|이다|이며|이고|이나|임)")
"""The copula's own forms after a noun ('상태 / 였고'); '방치 / 이에 대하여' is two words."""


def _splits_word(left: str, right: str) -> bool:
    """Whether ``left`` + ``right`` is one word cut in two. Kiwi analyses the joined and the
    spaced text; it is a cut word when the joined reading is clearly more probable and either a
    morpheme crosses the junction (위|험유해물질, 연|구책임자) or the right side opens with a
    bound morpheme (정기적|으로, 오전에|는, 하|겠다고). The margins separate the cases in
    tests/unit/test_korean.py (e.g. 공보의의|복무에 and 방치|이에 are two words)."""
    kiwi = get_kiwi()
    (joined, s_joined), *_ = kiwi.analyze(left + right)
    (_, s_spaced), *_ = kiwi.analyze(f"{left} {right}")
    gain = s_joined - s_spaced
    cut = len(left)
    for i, tok in enumerate(joined):
        if tok.start < cut < tok.start + tok.len:  # a particle or ending cut in two ('17.까|지') needs less
            if tok.tag.startswith("NN") and kiwi.tokenize(left)[-1].tag.startswith("J"):
                return False  # '공보의의|복무에' read as one unknown noun '공보의의복무': the left closes on a particle
            return gain >= (BOUND_MIN_GAIN if tok.tag.startswith(_BOUND_PREFIXES + _VERBS) else CROSSING_MIN_GAIN)
        if tok.start == cut:
            if i and joined[i - 1].tag.startswith("NN") and (tok.tag in ("XSV", "XSA") or (tok.tag == "VCP" and _COPULA.match(right))):
                return gain >= 0  # '착수 / 하여야', '상태 / 였고': Kiwi reads both spacings alike
            return tok.tag.startswith(_BOUND_PREFIXES) and gain >= BOUND_MIN_GAIN
    return False


CROSSING_MIN_GAIN = 6.0
BOUND_MIN_GAIN = 2.0
"""Kiwi log-probability gains of the joined over the spaced reading (see ``_splits_word``),
chosen on the dev half of ``data/eval/line_breaks`` (431 line breaks of the 12 shared reports
labelled join or space by a reader who had not seen this code): crossing 10 -> 6, a noun glued
after a particle refused, a compound verb at the bound margin and a noun's 하/이다 at a gain of 0.
Test half: accuracy .718 -> .870, precision .937 -> .926, recall .618 -> .875. Two guards were
added after reading wrongly joined breaks of both halves, so the test half does not measure them
blind: a line opening a sentence after a closed line (``_NEW_SENTENCE``; its 이에 / 이로 / 이 중
cases are test items) and a one-syllable word not read as the next word's start (from '등 /
국자원' in the dev answers; it changes no dev item). With them: test .894 / .969 / .868, dev
.893 / 1.0 / .854. Lower crossing margins joined new sentences and table cells ('자격 / 위 사람의',
'등 / 주:'); a lower margin for a lone syllable ('최 / 대') cost precision (dev 1.0 -> .986)."""
ONE_SYLLABLE_WORDS = frozenset("등및각총약그전후시중수것때데바뿐간내외별당곳건명개년월일원회차안도더못잘좀꼭곧다")
"""Syllables that are words of their own: alone at a line's end they are not read as the start of
the next word ('등 / 국자원에' is not '등국자원'); any other lone syllable is ('감 / 정평가'). A
particle after them still joins ('등 / 의')."""
_NEW_SENTENCE = re.compile(r"(?:한편|이에|이로|이 중|이와 같이|그러나|그런데|그리고|또한|따라서|반면)(?:[\s,]|$)")
_LINE_CLOSED = re.compile(r"(?:[.)다음함임됨]|재구성)$")
"""A line that opens a sentence of its own after a line that closed one or a heading's last word
('…제출자료 재구성 / 한편 이번 감사는', '관리･감독 부실 / 이에 대하여'); after a lone syllable '이에'
may be a word's end ('두 기관 사 / 이에')."""


_OPENERS = re.compile(r"[(\[「｢『<〈《“‘\"']")
_COUNTED = re.compile(r"\d[\d,.]*\s*(?:[억만천]\s*)?(?:원|명|건|개|개소|일|회|대|곳|년|월|%)$")
_ATTACHED = re.compile(
    r"(?:(?:을|를|은|는|의|에|에서|에게|께|으로|로|과|와|만|씩|까지|부터|마다|간|당)(?:[^가-힣]|$)"
    r"|이었|였|이다|이며|이고|이나|이므로)"
)
_AMBIGUOUS = re.compile(r"[이가도](?:[^가-힣]|$)")
"""A figure with its unit closes its word ('1,781억 원 / 과대' is two words); what a line break
cuts off after it is joined when it is a particle or a copula that belongs to it ('2억 원 / 을',
'5명 / 에게', '3억 원 / 까지', '1년 / 간', '2억 원 / 이었다'); a lone 이, 가 or 도 may be a
particle or a word of its own ('2022년 / 이 사업은'), so Kiwi decides as for any break."""


def broken_words(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of the line breaks in ``text`` that cut a Korean word in two (PDF
    extraction wraps lines mid-word: "위 험유해물질", "하 겠다고")."""
    out = []
    for m in _BREAK.finditer(text):
        left = " ".join(text[max(0, m.start() - 12) : m.start()].split()[-2:])  # with the word before: '사례의 경|우'
        inner = _OPENERS.split(left)[-1]  # and from a bracket or quote on: '처분(경징|계' read as '경징|계' too
        right = text[m.end() : m.end() + 12].split()[:1]
        if right and _COUNTED.search(text[max(0, m.start() - 20) : m.start()]) and not _AMBIGUOUS.match(right[0]):
            if _ATTACHED.match(right[0]):
                out.append((m.start(), m.end()))
            continue
        last = left.split()[-1] if left else ""  # and a lone syllable alone: '평가 시 감|정평가' read as '감|정평가'
        lone = last if re.fullmatch(r"[가-힣]", last) and last not in ONE_SYLLABLE_WORDS else ""
        tries = dict.fromkeys(t for t in (left, inner, lone) if t)
        opens = _NEW_SENTENCE.match(text, m.end()) and (_LINE_CLOSED.search(text, max(0, m.start() - 4), m.start()) or len(last) >= 2)
        if right and not opens and any(_splits_word(t, right[0]) for t in tries):
            out.append((m.start(), m.end()))
    return out


def cuts_word(text: str, start: int, end: int) -> bool:
    """Whether a line break in ``text[start:end]`` cuts a word in two (``broken_words``, read with
    a few characters of context on each side)."""
    at = max(0, start - 12)
    return any(start <= at + s < end for s, _ in broken_words(text[at : end + 12]))


AUXILIARY = re.compile(r"(?:있(?:다|는|었|고|어|으|음|지|을|던|습)|싶|주(?:어|었|고|는|지|시|게)|줄\s|준\s|왔|온\s|와서|오고|오던"
                       r"|버리|버렸|버린|놓(?:고|았|은|아)|두었|둔\s|두고|두어)")
"""An auxiliary verb after a connective ('되어 있는', '하고 있다', '제시하여 줄', '방치하여 왔으나'):
the same predicate, no new clause. Whole forms, so '준공검사', '온라인', '주기적' are no auxiliaries."""
BARE_PARTICLE = re.compile(r"(?:와|과|가|을|를|은|는|의|에|에게|로|으로|도)\s")
"""Text that opens with a particle: the noun before it was cut off or masked ('와 위·수탁 협약을')."""
_BRACKETS = ("()", "[]", "‘’", "“”", "｢｣", "「」", "『』")


def brackets_open(text: str) -> bool:
    """Whether ``text`` leaves a bracket or a quotation open ('(위탁기간 3년, 2022. …', '‘…연장해야
    한다')."""
    return any(text.count(a) > text.count(b) for a, b in _BRACKETS) or text.count('"') % 2 == 1


_CLAUSE_TAGS = ("EC", "EF", "SF", "SP", "SS", "SO", "SW")
"""What may close the text before an excerpt's opening: a connective or final ending, or
punctuation (Kiwi tags)."""


def ends_clause(text: str) -> bool:
    """Whether ``text`` closes on a clause boundary: its last morpheme is a connective or final
    ending ('…않았고', '…하였으나', '…있어') or punctuation, not a noun that happens to end in one of
    their syllables ('국고', '보고서', '계약서') or a particle ('배수펌프나')."""
    return _ends_clause(" ".join(text.split()[-3:]))


@lru_cache(maxsize=8192)
def _ends_clause(tail: str) -> bool:
    if not tail:
        return False
    tokens = get_kiwi().tokenize(tail)
    if len(tokens) >= 2 and tokens[-1].tag == "JX" and tokens[-2].tag.startswith("EC"):  # '…한데도', '…받고도'
        return True
    rest = tokens[:-1] if tokens and tokens[-1].tag == "JX" else tokens
    if len(rest) >= 2 and rest[-1].form == "데" and rest[-1].tag == "NNB" and rest[-2].tag == "ETM":  # '…없는데(도)' read as 는 + 데
        return True
    return bool(tokens) and tokens[-1].tag.startswith(_CLAUSE_TAGS)


def join_broken_lines(text: str) -> str:
    """Display text: line breaks that cut a word removed, other runs of whitespace made one space."""
    spans = broken_words(text)
    parts, last = [], 0
    for s, e in spans:
        parts.append(text[last:s])
        last = e
    parts.append(text[last:])
    return re.sub(r"\s+", " ", "".join(parts)).strip()
