"""Decide deals: ``python -m solver_worker.solve --variant V --deals 1-2400``.

Prints one line per deal (JSON with ``--json``) and a closing summary.
``--sample N --seed S`` (instead of ``--deals``) decides N deal numbers drawn
at random from 1..999,999 (the same N and S, the same deals). The summary
gives the win rate as a range, ``won_range``: from won / deals (every
unknown deal lost) to (won + unknown) / deals (every unknown deal won), with
``ci95``, the 95% Wilson interval around that range (the low end's interval
from the low count, the high end's from the high count): a sample's rate
that hides no unknown.
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

from patience import DEFAULT_GAME, all_variants, rules_of

from .deal_ranges import HIGHEST_DEAL, deal_list_argument, sample_deals
from .driver import GREEDY_SHARE, Budget
from .games import solve_position, solve_takes
from .play import wilson

# deal, variant, budget in seconds, greedy share, restart share, restart seed
Job = tuple[int, str, float, float, float, int]


def decide(job: Job) -> dict[str, Any]:
    deal, variant, budget_s, greedy_share, restart_share, restart_seed = job
    position = rules_of(variant).new_game(deal, variant)
    # Only a game whose search restarts takes the options (main() checks: solve_takes).
    options: dict[str, float] = {"greedy_share": greedy_share}
    if restart_share > 0:
        options["restart_share"] = restart_share
    if restart_seed:
        options["restart_seed"] = restart_seed
    result = solve_position(position, Budget(seconds=budget_s), **options)
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
    deals = len(rows)
    low, high = counts["won"], counts["won"] + counts["unknown"]
    return {
        "summary": True, **counts, "deals": deals,
        "won_range": [round(low / deals, 4), round(high / deals, 4)],
        "ci95": [round(wilson(low, deals)[0], 4), round(wilson(high, deals)[1], 4)],
        "median_ms": round(statistics.median(times), 1),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 1),
        "max_ms": round(times[-1], 1), "total_s": round(total_s, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver_worker.solve", description=__doc__)
    variants = sorted(variant.slug for _, variant in all_variants())
    parser.add_argument("--variant", default=DEFAULT_GAME.default_variant.slug, choices=variants)
    chosen = parser.add_mutually_exclusive_group(required=True)
    chosen.add_argument("--deals", type=deal_list_argument)
    chosen.add_argument("--sample", type=int, help="this many random deal numbers")
    parser.add_argument("--seed", type=int, default=0, help="--sample's random seed")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget-s", type=float, default=10.0)
    parser.add_argument("--greedy-share", type=float, default=GREEDY_SHARE,
                        help="part of the budget for the win-finding pass (default 0.5)")
    parser.add_argument("--restart-share", type=float, default=0.0,
                        help="part of the budget for randomized restarts after that pass, "
                             "where the game's search has them (default none)")
    parser.add_argument("--restart-seed", type=int, default=0,
                        help="the restarts' random seed: a re-run with another seed "
                             "searches new restarts (default 0)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.sample is not None and not 0 < args.sample <= HIGHEST_DEAL:
        parser.error(f"--sample takes 1 to {HIGHEST_DEAL:,} deals")
    if args.restart_share > 0 and not solve_takes(args.variant, "restart_share"):
        parser.error(f"--restart-share: {args.variant}'s search has no restarts")
    if args.restart_seed < 0:
        parser.error("--restart-seed takes 0 or more")
    if args.restart_seed and not args.restart_share > 0:
        parser.error("--restart-seed needs --restart-share")
    if not 0 <= args.greedy_share + args.restart_share <= 1:
        parser.error("--greedy-share plus --restart-share must lie in 0..1")
    deals = args.deals or sample_deals(args.sample, args.seed)
    start = time.perf_counter()
    rows = []
    jobs = [(deal, args.variant, args.budget_s, args.greedy_share, args.restart_share,
             args.restart_seed) for deal in deals]
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
