"""Decide deals: ``python -m solver_worker.solve --variant V --deals 1-2400``.

Prints one line per deal (JSON with ``--json``) and a closing summary.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from multiprocessing import Pool
from typing import Any

from patience import all_variants, rules_of

from .deal_ranges import deal_list_argument
from .driver import Budget
from .games import solve_position
from .search import GREEDY_SHARE

Job = tuple[int, str, float, float]  # deal, variant, budget in seconds, greedy share


def decide(job: Job) -> dict[str, Any]:
    deal, variant, budget_s, greedy_share = job
    position = rules_of(variant).new_game(deal, variant)
    result = solve_position(position, Budget(seconds=budget_s), greedy_share=greedy_share)
    return {
        "deal": deal, "variant": variant, "result": result.verdict,
        "nodes": result.nodes, "ms": round(result.ms, 1), "line": result.line,
    }


def run_jobs(jobs: list[Job], workers: int) -> Iterator[dict[str, Any]]:
    if workers <= 1:
        yield from map(decide, jobs)
        return
    with Pool(workers) as pool:
        yield from pool.imap(decide, jobs)


def summarise(rows: list[dict[str, Any]], total_s: float) -> dict[str, Any]:
    times = sorted(row["ms"] for row in rows)
    counts = {verdict: sum(row["result"] == verdict for row in rows)
              for verdict in ("won", "lost", "unknown")}
    return {
        "summary": True, **counts, "deals": len(rows),
        "median_ms": round(statistics.median(times), 1),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 1),
        "max_ms": round(times[-1], 1), "total_s": round(total_s, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver_worker.solve", description=__doc__)
    variants = sorted(variant.slug for _, variant in all_variants())
    parser.add_argument("--variant", default="three-card", choices=variants)
    parser.add_argument("--deals", required=True, type=deal_list_argument)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget-s", type=float, default=10.0)
    parser.add_argument("--greedy-share", type=float, default=GREEDY_SHARE,
                        help="part of the budget for the win-finding pass (default 0.5)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = []
    jobs = [(deal, args.variant, args.budget_s, args.greedy_share) for deal in args.deals]
    for row in run_jobs(jobs, args.jobs):
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"deal {row['deal']:>6} {row['result']:8s} {row['nodes']:>9} nodes "
                  f"{row['ms']:>9.1f} ms", flush=True)
    summary = summarise(rows, time.perf_counter() - start)
    print(json.dumps(summary) if args.json else summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
