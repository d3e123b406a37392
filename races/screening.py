"""Finding a race's deal: a fresh secret seed the solver proves winnable (no row written).

A race never plays a daily or a public deal number: its seed is random (63 bits, like
a daily's), so nobody can look its stock up. The proof is the variant's own search
(``solver_worker.games``), as for the dailies (``leaderboards.dailies.screen``).
"""

from __future__ import annotations

import secrets

import patience
from solver_worker.driver import Budget
from solver_worker.games import solve_position

SEED_BITS = 63  # fits a signed BigIntegerField


def random_seed() -> int:
    return secrets.randbits(SEED_BITS)


def proved_winnable(variant: str, seed: int, budget_s: float) -> bool:
    """True when the variant's search finds a won line within the budget."""
    rules = patience.rules_of(variant)
    position = rules.new_game(rules.deal_from_seed(seed), variant)
    return solve_position(position, Budget(seconds=budget_s)).verdict == "won"


def find_winnable(variant: str, budget_s: float, tries: int) -> int | None:
    """The first of up to ``tries`` random seeds proved winnable; None if none was (a deal
    the search cannot prove in time is skipped, never dealt unproved)."""
    for _ in range(tries):
        seed = random_seed()
        if proved_winnable(variant, seed, budget_s):
            return seed
    return None
