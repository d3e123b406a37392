"""Klondike engine speed: moves applied and undone per second on random play.

Run on one core: ``python bench/klondike_engine.py [--rounds N] [--deals-per-round N]``.
Each round deals its own deals and, on each, plays random legal moves (the
engine's ``legal_moves`` at every step) up to a cap, since random Klondike play
can turn the stock round for ever, then undoes them all. It prints the median
of the rounds for turn-1 and turn-3 (machines here are shared and noisy, so
compare ratios within a run, not figures across runs).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from patience.klondike import TURN_1, TURN_3, Position, Variant, deal_from_number

MOVES_PER_GAME = 300


def one_round(variant: Variant, first: int, deals: int, rng: random.Random) -> tuple[int, float]:
    """Moves applied (each one undone too) over ``deals`` games, and the seconds taken."""
    positions = [Position(deal_from_number(n), variant) for n in range(first, first + deals)]
    moves = 0
    start = time.perf_counter()
    for position in positions:
        for _ in range(MOVES_PER_GAME):
            legal = position.legal_moves()
            if not legal:
                break
            position.apply(rng.choice(legal))
            moves += 1
        while position.history:
            position.undo()
    return moves, time.perf_counter() - start


def measure(variant: Variant, rounds: int, deals: int) -> list[float]:
    rng = random.Random(2026)
    rates = []
    for number in range(rounds):
        moves, seconds = one_round(variant, 1 + number * deals, deals, rng)
        rates.append(moves / seconds)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--deals-per-round", type=int, default=100)
    args = parser.parse_args()
    print(f"klondike engine benchmark: one process, one core; medians of {args.rounds} rounds "
          f"of {args.deals_per_round} deals, up to {MOVES_PER_GAME} random moves a deal")
    for variant in (TURN_1, TURN_3):
        rates = measure(variant, args.rounds, args.deals_per_round)
        print(f"  {variant.slug}: {statistics.median(rates):,.0f} moves applied and undone/s "
              f"(legal_moves at each step; min {min(rates):,.0f}, max {max(rates):,.0f})")


if __name__ == "__main__":
    main()
