"""Engine speed: moves applied and undone per second, deals dealt per second.

Run on one core: ``python bench/engine.py [--seconds S]``. Prints medians of
several rounds measured in this one run (machines here are shared and noisy,
so compare ratios within a run, not figures across runs).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from patience.tomb import CLASSIC, THREE_CARD, Position, Variant, deal_from_number


def measure_playouts(variant: Variant, rounds: int, deals_per_round: int) -> list[float]:
    rng = random.Random(2026)
    rates = []
    for round_number in range(rounds):
        first = round_number * deals_per_round + 1
        positions = [
            Position(deal_from_number(n), variant)
            for n in range(first, first + deals_per_round)
        ]
        count = 0
        start = time.perf_counter()
        for position in positions:
            legal = position.legal_moves()
            while legal:
                position.apply(rng.choice(legal))
                count += 1
                legal = position.legal_moves()
            while position.history:
                position.undo()
                count += 1
        rates.append(count / (time.perf_counter() - start))
    return rates


def measure_deals(rounds: int, per_round: int) -> list[float]:
    rates = []
    for round_number in range(rounds):
        first = 1 + round_number * per_round * 37
        numbers = [first + 37 * k for k in range(per_round)]  # spans both generators
        start = time.perf_counter()
        for number in numbers:
            deal_from_number(number)
        rates.append(per_round / (time.perf_counter() - start))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--deals-per-round", type=int, default=200)
    args = parser.parse_args()
    print("engine benchmark: one process, one core; medians of", args.rounds, "rounds")
    for variant in (THREE_CARD, CLASSIC):
        rates = measure_playouts(variant, args.rounds, args.deals_per_round)
        median = statistics.median(rates)
        print(
            f"  {variant.slug:10s} random playouts (legal_moves each step): "
            f"{median:,.0f} operations/s (apply or undo; min {min(rates):,.0f}, "
            f"max {max(rates):,.0f}) = {median / 2:,.0f} moves applied and undone/s"
        )
    deal_rates = measure_deals(args.rounds, 500)
    print(f"  deals dealt per second: median {statistics.median(deal_rates):,.0f}")


if __name__ == "__main__":
    main()
