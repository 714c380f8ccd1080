"""Fit the offline relevance models on the dev split of data/eval/answers and report what they
do on dev (5-fold cross-validated by question) and on test:

- the finding model (``app/retrieval/finding_rank.py`` FINDING_MODEL): P(finding is gold) from
  the ranker's features, over every finding the question's filters allow; reported as top-1
  accuracy on answerable questions;
- the answerable model (``app/policies/offline/grader.py`` ANSWERABLE_MODEL, ANSWERABLE_MIN):
  P(the reports answer the question) from the best finding's probability (as the shipped
  FINDING_MODEL gives it) and signals; its threshold is the one that maximises abstention F1
  with false abstentions <= ``--max-false`` on dev.
  Questions whose filters name a held institution or report, and questions with scope gaps
  (years or organisations the store lacks), are left out: the graph decides those by rule.

    AURA_DATA_DIR=<store with the 12 reports> .venv/bin/python scripts/fit_relevance.py [--test]

The test split is read only with ``--test``: once, for the model chosen on dev. The shipped
finding model was fitted on dev too, so the answerable model's cross-validated figures are
optimistic; a refitted finding model, if shipped, needs the answerable model refitted on it (a
second run).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from app.agent.tools import CANDIDATES, AgentTools
from app.container import Container
from app.eval.answers import load_gold
from app.policies.offline.fields import select_fields
from app.policies.offline.grader import ANSWERABLE_FEATURES
from app.policies.offline.intent import pattern
from app.retrieval.filters import SearchFilters
from app.retrieval.finding_rank import FEATURES, FINDING_MODEL
from app.settings import Settings
from graph.vocab import language

ROOT = Path(__file__).resolve().parent.parent


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 0.1, steps: int = 3000, lr: float = 0.5) -> tuple[float, np.ndarray]:
    """Class-balanced L2 logistic regression by gradient descent; weights on the raw scale."""
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mu) / sd
    w, b = np.zeros(z.shape[1]), 0.0
    pos = max(1.0, y.sum())
    sw = np.where(y == 1, len(y) / (2 * pos), len(y) / (2 * max(1.0, len(y) - pos)))
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        g = (p - y) * sw
        w -= lr * (z.T @ g / len(y) + l2 * w / len(y))
        b -= lr * g.mean()
    return float(b - np.sum(w * mu / sd)), w / sd


def best_threshold(p_answerable: list[float], unanswerable: list[bool], max_false: float = 0.05) -> dict:
    n_ans = sum(1 for u in unanswerable if not u)
    best = {"threshold": 0.0, "f1": 0.0, "false_abstention": 0.0, "recall": 0.0, "precision": 0.0}
    for t in sorted(set(p_answerable)):
        tau = t + 1e-9
        tp = sum(1 for p, u in zip(p_answerable, unanswerable, strict=True) if p < tau and u)
        fp = sum(1 for p, u in zip(p_answerable, unanswerable, strict=True) if p < tau and not u)
        fn = sum(1 for p, u in zip(p_answerable, unanswerable, strict=True) if p >= tau and u)
        prec = tp / (tp + fp) if tp + fp else 0.0
        rec = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        fa = fp / n_ans if n_ans else 0.0
        if fa <= max_false and f1 > best["f1"]:
            best = {"threshold": round(tau, 4), "f1": round(f1, 4), "false_abstention": round(fa, 4), "recall": round(rec, 4), "precision": round(prec, 4)}
    return best


def question_rows(services: Container, tools: AgentTools, split: str, dataset: Path) -> list[dict]:
    rows = []
    for q in load_gold(dataset, split).questions:
        text = q["question"]
        fields = select_fields(text, {}, [], services.catalog())
        filters = fields.model_dump(exclude={"reasoning", "search_query"}, exclude_defaults=True)
        sf = SearchFilters(**filters)
        query = pattern(text)
        searched = services.glossary.in_korean(query)  # as AgentTools.search_many
        hits = services.retriever.search(searched, k=CANDIDATES, filters=sf)
        ranked = services.finding_ranker.rank(searched, tools.query_terms(query), hits, sf, False, tools.pattern_nouns(query))
        rows.append({
            "id": q["id"], "answerable": q["answerable"], "gold": set(q.get("gold_findings") or []), "en": language(text) == "en",
            "ids": [r.finding_id for r in ranked], "x": np.array([[r.signals[f] for f in FEATURES] for r in ranked]),
            "signals": [r.signals for r in ranked], "rule": bool(tools.scope_gaps(text, filters) or sf.institutions or sf.report_ids),
        })
    return rows


def answerable_x(row: dict, probs: np.ndarray) -> list[float]:
    i = int(np.argmax(probs))
    s = row["signals"][i]
    return [float(probs[i]), s["lex_body"], s["lex_full"], s["absent"], s["csls"], 1.0 if row["en"] else 0.0]


def keep_threshold(rows: list[dict], b: float, w: np.ndarray, top: int = 5) -> dict:
    """KEEP_MIN: the probability a finding after the best one needs to be kept, chosen for the
    best F1 of kept findings against the gold findings (the best finding is always kept)."""
    best = {"keep_min": 1.0, "f1": 0.0}
    for t in (0.5, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.999, 1.01):
        tp = fp = fn = 0
        for r in rows:
            p = 1 / (1 + np.exp(-(r["x"] @ w + b)))
            order = np.argsort(-p)[:top]
            kept = {r["ids"][order[0]]} | {r["ids"][i] for i in order[1:] if p[i] >= t}
            tp += len(kept & r["gold"])
            fp += len(kept - r["gold"])
            fn += len(r["gold"] - kept)
        prec, rec = tp / (tp + fp), tp / (tp + fn)
        f1 = 2 * prec * rec / (prec + rec)
        if f1 > best["f1"]:
            best = {"keep_min": t, "f1": round(f1, 4), "precision": round(prec, 4), "recall": round(rec, 4)}
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", type=Path, default=ROOT / "data" / "eval" / "answers")
    ap.add_argument("--max-false", type=float, default=0.05, help="False abstentions the threshold may cost on dev.")
    ap.add_argument("--test", action="store_true", help="Also report the test split (read it once, for the chosen model).")
    args = ap.parse_args()
    services = Container(Settings(llm_provider="none"))
    tools = AgentTools(services, services.policies)
    dev = [r for r in question_rows(services, tools, "dev", args.dataset) if len(r["x"])]
    test = [r for r in question_rows(services, tools, "test", args.dataset) if len(r["x"])] if args.test else []

    def fit_findings(rows: list[dict]) -> tuple[float, np.ndarray]:
        x = np.vstack([r["x"] for r in rows])
        y = np.concatenate([[1.0 if f in r["gold"] else 0.0 for f in r["ids"]] for r in rows])
        return fit_logistic(x, y)

    def probs(r: dict, b: float, w: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-(r["x"] @ w + b)))

    def top1(rows: list[dict], b: float, w: np.ndarray) -> float:
        ans = [r for r in rows if r["answerable"]]
        return round(float(np.mean([r["ids"][int(np.argmax(probs(r, b, w)))] in r["gold"] for r in ans])), 4)

    def deployed(r: dict) -> np.ndarray:
        """The probabilities the shipped finding model gives: what the grader reads."""
        return np.array([FINDING_MODEL.probability(tuple(x)) for x in r["x"]])

    folds = [dev[i::5] for i in range(5)]
    cv_top1 = []
    cv_pa, cv_un = [], []
    for i in range(5):
        train = [r for j, f in enumerate(folds) if j != i for r in f]
        b, w = fit_findings([r for r in train if r["answerable"]])
        cv_top1 += [r["ids"][int(np.argmax(probs(r, b, w)))] in r["gold"] for r in folds[i] if r["answerable"]]
        tr = [r for r in train if not r["rule"]]
        ab, aw = fit_logistic(np.array([answerable_x(r, deployed(r)) for r in tr]), np.array([1.0 if r["answerable"] else 0.0 for r in tr]), l2=1.0)
        for r in folds[i]:
            if not r["rule"]:
                cv_pa.append(float(1 / (1 + np.exp(-(np.array(answerable_x(r, deployed(r))) @ aw + ab)))))
                cv_un.append(not r["answerable"])
    b, w = fit_findings([r for r in dev if r["answerable"]])
    free = [r for r in dev if not r["rule"]]
    ab, aw = fit_logistic(np.array([answerable_x(r, deployed(r)) for r in free]), np.array([1.0 if r["answerable"] else 0.0 for r in free]), l2=1.0)
    pa = [float(1 / (1 + np.exp(-(np.array(answerable_x(r, deployed(r))) @ aw + ab)))) for r in free]
    chosen = best_threshold(pa, [not r["answerable"] for r in free], args.max_false)
    keep = keep_threshold([r for r in dev if r["answerable"]], b, w)
    tfree = [r for r in test if not r["rule"]]
    tpa = [float(1 / (1 + np.exp(-(np.array(answerable_x(r, deployed(r))) @ aw + ab)))) for r in tfree]
    tau = chosen["threshold"]
    out = {
        "finding_model": {"features": list(FEATURES), "bias": round(b, 4), "weights": [round(float(v), 4) for v in w],
                          "cv_top1_dev": round(float(np.mean(cv_top1)), 4), "top1_dev": top1(dev, b, w), "top1_test": top1(test, b, w) if test else None},
        "answerable_model": {"features": list(ANSWERABLE_FEATURES), "bias": round(ab, 4), "weights": [round(float(v), 4) for v in aw],
                             "cv_dev": best_threshold(cv_pa, cv_un, args.max_false), "dev": chosen,
                             "cv_tradeoff": {str(m): best_threshold(cv_pa, cv_un, m) for m in (0.05, 0.1, 0.15, 0.2, 0.3)},
                             "test": None if not test else {"abstained_unanswerable": sum(1 for p, r in zip(tpa, tfree, strict=True) if p < tau and not r["answerable"]),
                                      "unanswerable": sum(1 for r in tfree if not r["answerable"]),
                                      "false_abstentions": sum(1 for p, r in zip(tpa, tfree, strict=True) if p < tau and r["answerable"]),
                                      "answerable": sum(1 for r in tfree if r["answerable"])}},
        "keep_min": keep,
    }
    services.close()
    sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
