"""Klondike hints from the search: latency and how often the answer is "unknown".

    python bench/klondike_hints.py [--positions 500] [--variants turn-1,turn-3]
        [--budget-s 0.6] [--seed 500]

For each variant, ``--positions`` mid-game positions of free games (deals 1, 2,
... each played from the start by a seeded mix of the careful blind player and
random legal moves, stopped at a random point between 15 and 90 moves; finished
games skipped), and at each the site's hint (``solver_worker.hints.hint``, as the
site asks it: a position on a line of the book answers from it, any other is
searched). Prints the median, p90, p99 and slowest hint and the verdicts:
winnable (the search found a line), lost (proved), unknown (the budget ran out).
Measured in this one run on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from patience import Status, rules_of
from solver_worker import hints
from solver_worker.games.klondike.blind import careful_move


def mid_game_positions(variant: str, count: int, seed: int) -> list[object]:
    """Positions part-way through free games: careful moves with random ones mixed in."""
    rng = random.Random(seed)
    rules = rules_of(variant)
    positions: list[object] = []
    deal = 0
    while len(positions) < count:
        deal += 1
        position = rules.new_game(deal, variant)
        stop = rng.randint(15, 90)
        for _ in range(stop):
            legal = position.legal_moves()
            if not legal:
                break
            careful = careful_move(position)
            position.apply(careful if careful is not None and rng.random() < 0.7
                           else rng.choice(legal))
            if position.status is not Status.PLAYING:
                break
        if position.status is Status.PLAYING:
            positions.append(position)
    return positions


def percentile(values: list[float], fraction: float) -> float:
    return values[min(len(values) - 1, int(len(values) * fraction))]


def bench(variant: str, count: int, budget_s: float, seed: int) -> None:
    latencies: list[float] = []
    verdicts = {"winnable": 0, "lost": 0, "unknown": 0}
    for position in mid_game_positions(variant, count, seed):
        start = time.perf_counter()
        answer = hints.hint(position, budget_s)
        latencies.append((time.perf_counter() - start) * 1000)
        verdicts[answer["verdict"]] += 1
    latencies.sort()
    unknown = verdicts["unknown"] / len(latencies)
    print(f"  hint {variant}: {len(latencies)} positions, budget {budget_s} s: median "
          f"{statistics.median(latencies):.1f} ms, p90 {percentile(latencies, 0.9):.1f} ms, "
          f"p99 {percentile(latencies, 0.99):.1f} ms, max {latencies[-1]:.1f} ms; "
          f"{verdicts}; unknown {unknown:.1%}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--variants", default="turn-1,turn-3")
    parser.add_argument("--budget-s", type=float, default=hints.DEFAULT_BUDGET_S)
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args()
    for variant in args.variants.split(","):
        bench(variant, args.positions, args.budget_s, args.seed)


if __name__ == "__main__":
    main()
