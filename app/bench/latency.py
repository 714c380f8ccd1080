"""Per-track turn latency, offline mode, on the 12 real reports, after warm-up.

Every turn runs on a fresh thread (a new thread id) through ``Agent.ask``, with the real
OfflinePolicies behind FallbackPolicies (no LLM). Before each turn the per-query caches are
cleared (the retriever's result LRU, the query-embedding LRU), so every run pays for its
question as a first-time question. Two settings of the Kiwi morpheme LRU, which also holds the
*passages'* morphemes (the grader, analyst and verifier tokenize the retrieved passages):

- ``cold``: cleared before each turn too: the first time the server sees those passages;
- ``warm``: kept, after one untimed pass over all questions: a server that has graded these
  passages before (the 1,534 chunks fit the LRU's 4,096 entries). Query morphemes stay cached
  too here (~1-3 ms of Kiwi per question).

A separate "repeat" figure keeps every cache (the same question again).

Beside the turns, in the same process and run, the *floor* of a deep turn: one query
embedding + one Milvus search (k=50) + one lexical BM25 search (k=50), on the same questions.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver

from app.agent.runner import Agent
from app.bench.common import ROOT, load1, pctl
from app.retrieval.lexical import terms
from app.text.korean import _morphemes_cached, morphemes
from graph import RunContext

QUESTIONS_FILE = ROOT / "bench" / "questions.json"


def question_sets() -> dict[str, list[str]]:
    return json.loads(QUESTIONS_FILE.read_text(encoding="utf-8"))


def clear_query_caches(services: Any, morphemes: bool = True) -> None:
    """Forget the retriever's result LRU and the query-embedding LRU; with ``morphemes`` also
    the Kiwi morpheme LRU, which holds the passages' morphemes too (the grader, analyst and
    verifier tokenize the retrieved passages; a running server keeps them, up to 4096 texts)."""
    services.retriever.cache.clear()
    emb = services.embedder
    if hasattr(emb, "_queries"):
        with emb._lock:
            emb._queries.clear()
    if morphemes:
        _morphemes_cached.cache_clear()


class EmbedCounter:
    """Counts the query embeddings the model actually computes (cache misses)."""
    def __init__(self, services: Any) -> None:
        self.inner = services.embedder.inner
        self.calls = 0
        self.texts = 0
        self.ms = 0.0
        orig = self.inner.embed_queries

        def counted(texts: list[str]):  # noqa: ANN202
            t0 = time.perf_counter()
            out = orig(texts)
            self.ms += (time.perf_counter() - t0) * 1000
            self.calls += 1
            self.texts += len(texts)
            return out

        self.inner.embed_queries = counted

    def reset(self) -> None:
        self.calls, self.texts, self.ms = 0, 0, 0.0


def make_agent(services: Any, saver: str, tmp: Path, context: Any = None) -> Any:



    if saver == "memory":
        return Agent(services, checkpointer=InMemorySaver(), context=context)
    conn = sqlite3.connect(str(tmp / f"checkpoints-{saver}.sqlite"), check_same_thread=False)
    return Agent(services, checkpointer=SqliteSaver(conn), context=context)


def floor_ms(services: Any, questions: list[str], runs: int) -> dict[str, list[float]]:
    """One query embedding + one Milvus search + one BM25 search, caches cleared before each."""
    dense = services.retriever.dense
    lexical = services.corpus
    out: dict[str, list[float]] = defaultdict(list)
    for _ in range(runs):
        for q in questions:
            clear_query_caches(services)
            t0 = time.perf_counter()
            vec = services.embedder.embed_queries([q])[0]
            t1 = time.perf_counter()
            dense.search_vector(vec, 50)
            t2 = time.perf_counter()
            lexical.search(terms(morphemes(q)), 50)
            t3 = time.perf_counter()
            out["embed"].append((t1 - t0) * 1000)
            out["milvus"].append((t2 - t1) * 1000)
            out["lexical"].append((t3 - t2) * 1000)
            out["floor"].append((t3 - t0) * 1000)
    return out


def milvus_search_ms(services: Any, questions: list[str], runs: int = 3) -> list[float]:
    """Milvus search alone (k=50), query vectors computed beforehand."""
    vecs = services.embedder.embed_queries(questions)
    dense = services.retriever.dense
    out = []
    for _ in range(runs):
        for v in vecs:
            t0 = time.perf_counter()
            dense.search_vector(v, 50)
            out.append((time.perf_counter() - t0) * 1000)
    return out


def summarize(xs: list[float]) -> dict[str, float]:
    return {"n": len(xs), "p50_ms": pctl(xs, 50), "p95_ms": pctl(xs, 95), "mean_ms": round(sum(xs) / len(xs), 2) if xs else None}


def bench_latency(services: Any, tmp: Path, runs: int = 3, savers: tuple[str, ...] = ("memory", "sqlite"),
                  passages: tuple[str, ...] = ("cold", "warm")) -> Iterator[dict]:
    """JSON figures: the floor, then per saver and per track p50/p95 and the per-node breakdown."""
    sets = question_sets()
    deep_qs = sets["deep"]
    counter = EmbedCounter(services)

    warm = services.warm_up()
    yield {"figure": "warm_up", "seconds": warm}

    floor = floor_ms(services, deep_qs, runs)
    yield {"figure": "floor", "questions": len(deep_qs), "runs": runs, "load1": load1(),
           **{k: summarize(v) for k, v in floor.items()}}


    combos = [(sv, "cold") for sv in savers if "cold" in passages] + [("memory", "warm")] * ("warm" in passages)
    for saver, passage_cache in combos:
        agents = {"": make_agent(services, saver, tmp), "rewrite": make_agent(services, saver, tmp, RunContext(max_rewrites=1))}
        # one throwaway turn per track: graph compilation paths, checkpointer tables
        for track, qs in sets.items():
            agents[_variant(track)].ask(qs[0], mode=_mode(track))
        if passage_cache == "warm":  # a server that has seen these passages before
            for track, qs in sets.items():
                for q in qs:
                    agents[_variant(track)].ask(q, mode=_mode(track))
        for track, qs in sets.items():
            agent = agents[_variant(track)]
            wall: list[float] = []
            cpu: list[float] = []
            nodes: dict[str, list[float]] = defaultdict(list)
            node_runs: dict[str, int] = defaultdict(int)
            embeds: list[int] = []
            got_tracks: dict[str, int] = defaultdict(int)
            paths: dict[str, int] = defaultdict(int)
            rewrites: list[int] = []
            for _ in range(runs):
                for q in qs:
                    clear_query_caches(services, morphemes=passage_cache == "cold")
                    counter.reset()
                    c0 = time.process_time()
                    t0 = time.perf_counter()
                    res = agent.ask(q, mode=_mode(track))
                    wall.append((time.perf_counter() - t0) * 1000)
                    cpu.append((time.process_time() - c0) * 1000)
                    embeds.append(counter.calls)
                    got_tracks[res["track"]] += 1
                    names = [s["node"] for s in res["steps"]]
                    paths[" > ".join(names)] += 1
                    rewrites.append(names.count("rewrite_query"))
                    per_turn: dict[str, float] = defaultdict(float)
                    for s in res["steps"]:
                        per_turn[s["node"]] += s["ms"]
                        node_runs[s["node"]] += 1
                    for n, ms in per_turn.items():
                        nodes[n].append(ms)
            row = {
                "figure": "turn_latency",
                "track": track,
                "checkpointer": saver,
                "passage_morphemes": passage_cache,
                "questions": len(qs),
                "runs": runs,
                "load1": load1(),
                **summarize(wall),
                "cpu_p50_ms": pctl(cpu, 50),
                "query_embeddings_per_turn": round(sum(embeds) / len(embeds), 2),
                "tracks_seen": dict(got_tracks),
                "rewrites_per_turn": round(sum(rewrites) / len(rewrites), 2),
            }
            if track.startswith("deep") or track == "report":
                row["nodes"] = {n: {"p50_ms": pctl(v, 50), "p95_ms": pctl(v, 95), "runs_per_turn": round(node_runs[n] / len(wall), 2)}
                                for n, v in nodes.items()}
            if track.startswith("fast"):
                row["sql_share"] = round(sum(c for p, c in paths.items() if "retrieve_sql" in p) / len(wall), 2)
            yield row
        agent = agents[""]
        if saver == "memory" and passage_cache == "cold":
            # the same deep questions again without clearing caches: a repeated question
            for q in deep_qs:  # fill the caches once, untimed
                agent.ask(q, mode="deep")
            wall = []
            for _ in range(runs):
                for q in deep_qs:
                    t0 = time.perf_counter()
                    agent.ask(q, mode="deep")
                    wall.append((time.perf_counter() - t0) * 1000)
            yield {"figure": "turn_latency_repeat", "track": "deep", "checkpointer": saver, "load1": load1(),
                   "note": "same questions again, caches kept (retriever LRU, query embeddings, morphemes)", **summarize(wall)}


def _mode(track: str) -> str:
    return track.split("_", 1)[0]


def _variant(track: str) -> str:
    """'deep_rewrite': questions whose first grading keeps nothing, run with the rewrite cap at 1
    (RunContext(max_rewrites=1)) so each turn makes exactly one rewrite."""
    return track.split("_", 1)[1] if "_" in track else ""
