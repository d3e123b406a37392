"""A plain exhaustive search on engine positions: the referee for the solver.

No pruning rule at all beyond remembering full table states already found
lost; it tries every legal move, every target. Only small (late) positions
finish, which is what the soundness tests feed it.
"""

from __future__ import annotations

from patience.tomb import Position, Status


def table_key(position: Position) -> tuple[object, ...]:
    return (
        tuple(position.stock), tuple(position.waste), tuple(position.cells),
        tuple(map(tuple, position.foundations)), position.redeals_left,
    )


def plain_winnable(position: Position, limit: int = 2_000_000) -> bool:
    """True if some sequence of legal moves wins from ``position``."""
    lost: set[tuple[object, ...]] = set()
    budget = [limit]

    def search() -> bool:
        if position.status is Status.WON:
            return True
        key = table_key(position)
        if key in lost:
            return False
        budget[0] -= 1
        assert budget[0] > 0, "plain search too large for a test position"
        for move in position.legal_moves():
            position.apply(move)
            won = search()
            position.undo()
            if won:
                return True
        lost.add(key)
        return False

    position = position.copy()
    return search()
