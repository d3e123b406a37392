"""The relaxed game searched a card at a time: the referee for the lazy search.

The same relaxed game as ``solver_worker.games.tomb.relaxation`` (stock cards free, waste
cards leave top-down, four cells), searched with no normal form: at each
step the top card is parked or any foundation is raised by one free stock
card; only the two forced rules (a fitting cell card or top card goes home at
once) are kept, as the solver's search before the lazy form had them. No
bound, no certificate, no tomb-only shortcut: its answer is the relaxation's.
"""

from __future__ import annotations

from solver_worker.games.tomb.relaxation import CELLS, CORNER_SIZE, settle_cells, tomb_wants


def relaxation_solvable(
    waste: bytes, cells: tuple[int, ...], tomb: int, corners: tuple[int, ...],
    stock_counts: list[int],
) -> bool:
    seen: set[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = set()
    counts = stock_counts[:]

    def solvable(top: int, tomb: int, corners: list[int], cells: list[int]) -> bool:
        cells, corners = cells[:], corners[:]
        while True:
            tomb = settle_cells(cells, tomb, corners)
            if not top:
                return True
            rank = waste[top - 1]
            if rank <= 6 and rank == tomb_wants(tomb):
                tomb += 1
            elif rank >= 7 and rank - 7 in corners:
                corners[corners.index(rank - 7)] += 1
            else:
                break
            top -= 1
        key = (top, tomb, tuple(sorted(corners)), tuple(sorted(cells)))
        if key in seen:
            return False
        seen.add(key)
        if len(cells) < CELLS and solvable(top - 1, tomb, corners, [*cells, waste[top - 1]]):
            return True
        want = tomb_wants(tomb)
        if want and counts[want]:
            counts[want] -= 1
            found = solvable(top, tomb + 1, corners, cells)
            counts[want] += 1
            if found:
                return True
        for height in sorted(set(corners)):
            if height < CORNER_SIZE and counts[height + 7]:
                counts[height + 7] -= 1
                raised = corners[:]
                raised[raised.index(height)] += 1
                found = solvable(top, tomb, raised, cells)
                counts[height + 7] += 1
                if found:
                    return True
        return False

    return solvable(len(waste), tomb, list(corners), list(cells))
