"""Solver figures: hint latency along random play, and per-deal decisions.

``python bench/solver.py [--deals 500] [--solve-deals 200] [--budget-s 10]``
prints, measured in this one run on one core:
* hint latency (the ``hint`` call, solver budget included) at positions met
  along seeded random play of deals 1..N of each variant: median, p90, p99;
* the per-deal figures of ``solver_worker.solve`` for deals 1..M.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from patience.tomb import Position, Status, new_game
from solver_worker.hints import hint
from solver_worker.search import GREEDY_SHARE
from solver_worker.solve import decide, summarise


def positions_along_random_play(variant: str, deals: int, seed: int) -> list[Position]:
    """One position per deal, taken at a random point of a random playout."""
    rng = random.Random(seed)
    positions = []
    for deal in range(1, deals + 1):
        position = new_game(deal, variant)
        stop = rng.randint(0, 60)
        for _ in range(stop):
            legal = position.legal_moves()
            if not legal:
                break
            position.apply(rng.choice(legal))
        if position.status is Status.PLAYING:
            positions.append(position)
    return positions


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


def bench_hints(variant: str, deals: int) -> None:
    latencies, verdicts = [], {"winnable": 0, "lost": 0, "unknown": 0}
    for position in positions_along_random_play(variant, deals, seed=500):
        start = time.perf_counter()
        answer = hint(position)
        latencies.append((time.perf_counter() - start) * 1000)
        verdicts[answer["verdict"]] += 1
    latencies.sort()
    print(
        f"  hint {variant:10s} {len(latencies)} positions: median "
        f"{statistics.median(latencies):.1f} ms, p90 {percentile(latencies, 0.9):.1f} ms, "
        f"p99 {percentile(latencies, 0.99):.1f} ms, max {latencies[-1]:.1f} ms; {verdicts}"
    )


def bench_deals(variant: str, deals: int, budget_s: float) -> None:
    start = time.perf_counter()
    rows = [decide((deal, variant, budget_s, GREEDY_SHARE)) for deal in range(1, deals + 1)]
    print(f"  solve {variant:10s} deals 1-{deals}: {summarise(rows, time.perf_counter() - start)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--solve-deals", type=int, default=100)
    parser.add_argument("--budget-s", type=float, default=10.0)
    args = parser.parse_args()
    print("solver benchmark: one process, one core")
    for variant in ("three-card", "classic"):
        bench_hints(variant, args.deals)
    for variant in ("three-card", "classic"):
        bench_deals(variant, args.solve_deals, args.budget_s)


if __name__ == "__main__":
    main()
