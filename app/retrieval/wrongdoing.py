"""Kinds of wrongdoing a case must state to be the case asked about.

An auditor who asks for a bribe, an embezzlement, a casualty or a drunk skipper asks for that act,
not for the procedure around it: "용산공원 대행용역 업체한테 LH 담당자가 향응 받은 건" is not the
용산공원 contract finding, which never says anyone took anything. Such near misses share every other
word with a finding, so the finding-level scores rank it first and the answerable model passes it.
A finding that never states the act (none of its nouns for it, anywhere in its text) is not the
case; when no finding the search found states it, the turn declines and lists them as 참고.

Checked on the dev split of ``data/eval/answers`` and the conversation sets before it was used
(2026-11-27): of the 26 dev questions and turns that name one of these acts, the 13 answerable
ones' gold findings all state it; the other 13 are unanswerable (dev abstention .685 -> .739 on
the questions of the start, no answerable one declined; BENCHMARKS.md, "fifteenth round").
Left out as too loose: a leak ('유출' is also soil and pollutants running off), '술' alone (기술),
'돈 받고' (a grant taken and no work done), '추락사고' (a fall risk left unfixed: findings say 위험),
'death' (a death benefit); English words match whole ('drinking water' is no drinking, 'studied' no death).
A question naming two acts one or the other ('금품수수나 횡령') asks for either: a finding lacks them when it states
none; named together ('술 마시고 … 선원 다친'), it lacks them when it does not state both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Wrongdoing:
    name: str
    asked: re.Pattern[str]
    """How a question names the act, in Korean or English (lower-cased text)."""
    stated: tuple[str, ...]
    """The nouns a finding states it with (Kiwi morphemes of its text; a longer one holding one counts)."""

    def stated_in(self, terms: Iterable[str]) -> bool:
        return any(stem in term for term in terms for stem in self.stated)


WRONGDOINGS = (
    Wrongdoing("뇌물·금품", re.compile(r"뇌물|뒷돈|금품|향응|리베이트|접대|떡값|상납|수뢰|\bbrib|\bkickbacks?\b|\bbackhanders?\b"),
               ("뇌물", "금품", "향응", "리베이트", "접대", "사례금")),
    Wrongdoing("횡령", re.compile(r"횡령|착복|빼돌|\bembezzl|\bpocket(?:ed|ing)\b"), ("횡령", "착복", "편취")),
    Wrongdoing("인명사고", re.compile(r"인명\s*사고|사망|숨지|숨진|다친|다쳐|부상|\bfatal|\bdied\b|\bkilled\b|\binjur(?:ed|y|ies)\b"),
               ("사망", "부상", "인명", "사상자")),
    Wrongdoing("음주", re.compile(r"음주|술\s*(?:먹|마시|마셔|취)|만취|\bdrunk(?:en)?\b|\bdrink[- ]?driv|\bdrinking\b(?![\s-]+water)"),
               ("음주", "만취", "주취")),
    Wrongdoing("성비위", re.compile(r"성희롱|성추행|성폭력|성비위|\bharass"), ("성희롱", "성추행", "성폭력", "성비위")),
    Wrongdoing("위조", re.compile(r"위조|변조|\bforg(?:e|ed|es|ery|eries|ing)\b(?!\s+ahead)"), ("위조", "변조")),
)


_PARTICLE = re.compile(r"(?:을|를|이|가|은|는|도|만|으로|로|에서|에|의|까지|이나|나|이랑|랑|하고|과|와)$")


_EITHER = re.compile(r"(?:이?나|또는|혹은)(?![가-힣])|\bor\b", re.I)


def asked_either(question: str, acts: list[tuple[Wrongdoing, str]]) -> bool:
    """Whether the acts are asked for one or the other ('금품수수나 횡령', 'bribery or embezzlement'), not together
    ('술 마시고 운항하다 사고 내서 선원 다친 사례': both)."""
    low = question.lower()
    at = sorted(low.find(said) for _, said in acts)
    return len(at) > 1 and all(_EITHER.search(low[a:b]) for a, b in zip(at, at[1:], strict=False))


def asked_wrongdoing(question: str) -> list[tuple[Wrongdoing, str]]:
    """The acts the question asks about, each with the words it names it by: the words the match
    falls in, without a closing particle ('뒷돈', '빼돌린', '향응을' -> '향응', 'bribes')."""
    low = question.lower()
    out = []
    for w in WRONGDOINGS:
        if m := w.asked.search(low):
            start = max(low.rfind(" ", 0, m.start()) + 1, 0)
            end = next((i for i in range(m.end(), len(low)) if low[i].isspace() or low[i] in ",.?!"), len(low))
            said = low[start:end].strip("'\"()[]")
            bare = _PARTICLE.sub("", said)
            out.append((w, bare if m.group().strip() in bare else said))
    return out
