"""The dead-position test: a relaxed game that is easier than the real one.

Relax a position so: every card still in the stock is *free* (it can go to a
foundation whenever one wants its rank, needing no cell), while the cards of
the waste must still leave it top-down, each onto a foundation that wants it
or into one of the four cells, and a cell card leaves only onto a foundation.
Every winning line of the real game is a solution of the relaxed game (drop
the stock cards' passage through the waste and the cells; what remains obeys
the relaxed rules), so a position whose relaxation has no solution is lost.

This holds whenever the waste's order is fixed for the rest of the game:
always in the classic deal, and in the 3-card deal once no redeal is left.
(With a redeal left the waste returns to the stock in a new grouping, so the
test is not used there.)

Three facts keep the relaxed search small, each by an exchange argument
inside the relaxed game:

* A cell card that fits goes home at once (nothing can use its slot better,
  and waiting only holds a cell).
* A top waste card that fits is played at once (any solution that first
  fills that slot from the stock can use the waste card there instead and
  keep the stock card, which is free, for wherever the waste card went).
* Lazy normal form: free stock cards are played only just before the card
  they make room for. Take any solution and a foundation F. A stock card
  placed on F is needed by nothing but the next cards placed on F, and F's
  height matters to no move but a placement on F; so every stock card on F
  can wait until just before the next *non-stock* card (a waste or cell
  card) placed on F, keeping the order of F's cards, and the stock cards
  after F's last non-stock card can wait until the waste is empty (then
  every card left is free or in a cell, so all of it goes home). The result
  is still a solution: each move meets F at the height it met before.

So a solution exists iff one exists made of these moves only, after the
forced ones: the top card home after a run of stock cards on its foundation
(the tomb round to any point where it wants the card; a corner from any of
its heights below it), the top card parked, or a cell card home after such a
run. Foundation heights no card was waiting for are never visited, which
makes this search far smaller than one that raises a foundation a card at
a time (the tests compare the two on thousands of random positions).

The search is exact but bounded: when it runs past ``limit`` states it gives
up and calls the position alive, which is always sound.

The compiled core also keeps the relaxed game's verdicts from one dead test
to the next within a search (``relaxed_memo_key`` in ``_core.c``): every card
is in the waste's first cards, a cell, a foundation or free, so the waste
prefix, the cells and the foundations fix the relaxed game and its verdict,
whichever node's test met it. It keeps every "no solution" (always a fact)
and a "solution" only from a test that has not given up.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final

TOMB_SIZE: Final = 24
CELLS: Final = 4
CORNER_SIZE: Final = 7


def tomb_wants(tomb: int) -> int:
    """6 5 4 3 2 A, four times round; 0 when the tomb is full."""
    return 6 - tomb % 6 if tomb < TOMB_SIZE else 0


def settle_cells(cells: list[int], tomb: int, corners: list[int]) -> int:
    """Send fitting cell cards home until none fits; the tomb count after.

    ``cells`` (ranks) and ``corners`` (heights) change in place. The one
    settling routine of the Python solver: the search after each play, the
    relaxed search and its greedy certificate all call it, since all three
    need the same fact: a cell card that fits goes home at once (in the real
    game the engine does it; in the relaxed game nothing is gained by waiting).

    The outcome does not depend on the order the cards go in, so one routine
    serves every caller whatever order it keeps its cells and corners in.
    Sending a card home only makes foundations taller, so a card that fits
    keeps fitting until it goes or a card of the *same* rank takes its slot
    (a foundation at a height takes one rank only), and equal ranks are
    interchangeable: every order ends with the same multisets of cell ranks
    and corner heights and the same tomb count. Any corner at the wanted
    height takes the card, corners being interchangeable; callers that keep
    corners sorted sort them again after.
    """
    moved = True
    while moved and cells:
        moved = False
        want = tomb_wants(tomb)
        for i, rank in enumerate(cells):
            if rank == want:  # only an A-6 can equal it
                tomb += 1
            elif rank >= 7 and rank - 7 in corners:
                corners[corners.index(rank - 7)] += 1
            else:
                continue
            del cells[i]
            moved = True
            break
    return tomb


def is_dead(
    waste: bytes, cells: tuple[int, ...], tomb: int, corners: tuple[int, ...],
    stock_counts: list[int], limit: int = 2000,
) -> bool:
    """True only if the relaxation of this position has no solution.

    ``waste`` holds ranks bottom to top, ``cells`` the ranks parked,
    ``corners`` the four corner heights (0..7), ``stock_counts[r]`` the
    number of rank-r cards still in the stock.
    """
    seen: set[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = set()
    budget = [limit]
    counts = stock_counts[:]  # a give-up may leave it half-restored

    def solvable(top: int, tomb: int, corners: list[int], cells: list[int]) -> bool:
        # Forced part: fitting cell cards and fitting top cards go home
        # (cell cards first, as before any top card: the order the C core keeps).
        cells = cells[:]
        corners = corners[:]
        while True:
            tomb = settle_cells(cells, tomb, corners)
            if not top:
                break
            rank = waste[top - 1]
            if rank <= 6:
                if rank != tomb_wants(tomb):
                    break
                tomb += 1
            elif rank - 7 in corners:
                corners[corners.index(rank - 7)] += 1
            else:
                break
            top -= 1
        if top == 0:
            return True  # the rest lies in cells and the free stock: it all goes home
        corners.sort()
        cells.sort()
        key = (top, tomb, tuple(corners), tuple(cells))
        if key in seen:
            return False
        seen.add(key)
        budget[0] -= 1
        if budget[0] < 0:
            raise _GiveUp
        # The lazy moves (module docstring), each tried: the top card home
        # after a stock run, the top card parked, a cell card home after one.
        rank = waste[top - 1]
        if run_then_place(rank, tomb, corners, partial(solvable, top - 1, cells=cells)):
            return True
        if len(cells) < CELLS and solvable(top - 1, tomb, corners, [*cells, rank]):
            return True
        for i, card in enumerate(cells):
            if i and cells[i - 1] == card:
                continue  # equal ranks: one choice
            rest = cells[:i] + cells[i + 1:]
            if run_then_place(card, tomb, corners, partial(solvable, top, cells=rest)):
                return True
        return False

    def run_then_place(
        rank: int, tomb: int, corners: list[int], then: Callable[[int, list[int]], bool]
    ) -> bool:
        """A run of free stock cards on one foundation, then ``rank`` onto it;
        ``then(tomb, corners)`` goes on from there. Every such run is tried,
        shortest first: the tomb to each later point where it wants the rank
        (it may go round again), a corner from each of its heights below it,
        highest first. ``counts`` is restored before returning."""
        if rank <= 6:
            used: list[int] = []
            found = False
            for at in range(tomb, TOMB_SIZE):
                want = tomb_wants(at)
                if want == rank and at > tomb and then(at + 1, corners):
                    found = True
                    break
                if not counts[want]:
                    break
                counts[want] -= 1
                used.append(want)
            for want in used:
                counts[want] += 1
            return found
        for height in sorted(set(corners), reverse=True):
            run = range(height + 7, rank)
            if height >= rank - 7 or not all(counts[r] for r in run):
                continue
            for r in run:
                counts[r] -= 1
            raised = corners[:]
            raised[raised.index(height)] = rank - 6
            found = then(tomb, raised)
            for r in run:
                counts[r] += 1
            if found:
                return True
        return False

    if _greedy_solves(waste, list(cells), tomb, list(corners), stock_counts[:]):
        return False  # a relaxed solution; the tomb-only relaxation then has one too
    if _tomb_only_dead(waste, cells, tomb, corners, stock_counts, limit):
        return True
    try:
        return not solvable(len(waste), tomb, list(corners), list(cells))
    except _GiveUp:
        return False


def _tomb_only_dead(
    waste: bytes, cells: tuple[int, ...], tomb: int, corners: tuple[int, ...],
    stock_counts: list[int], limit: int,
) -> bool:
    """The same relaxation with every corner card dropped (free, needing no
    cell). It relaxes the relaxed game further, so its deadness is deadness;
    it is far smaller, so it goes first and often settles the question."""
    low_cells = tuple(rank for rank in cells if rank <= 6)
    if len(low_cells) == len(cells) and all(rank <= 6 for rank in waste):
        return False  # nothing dropped: the full test decides alone
    counts = [count if rank <= 6 else 0 for rank, count in enumerate(stock_counts)]
    low_waste = bytes(rank for rank in waste if rank <= 6)
    return is_dead(low_waste, low_cells, tomb, corners, counts, limit)


def _greedy_solves(
    waste: bytes, cells: list[int], tomb: int, corners: list[int], counts: list[int]
) -> bool:
    """A cheap certificate that the relaxation is solvable (most positions).

    Take the waste top-down: bring each card's foundation up to it with free
    stock cards (and the cell cards that fit on the way) when that is
    possible, otherwise park it, first bringing cell cards home the same way
    while the cells are full. Every step is a move of the relaxed game, so
    True means a relaxed solution was found; False proves nothing and the
    exact search decides.
    """
    for top in range(len(waste) - 1, -1, -1):
        rank = waste[top]
        tomb = settle_cells(cells, tomb, corners)
        if rank <= 6:
            reached = _advance_tomb(rank, tomb, cells, counts)
            if reached is not None:
                tomb = reached + 1
                continue
        elif _advance_corner(rank, corners, cells, counts):
            continue
        while len(cells) >= CELLS:
            freed = _bring_a_cell_card_home(cells, tomb, corners, counts)
            if freed is None:
                return False
            tomb = settle_cells(cells, freed, corners)
        cells.append(rank)
    return True


def _bring_a_cell_card_home(
    cells: list[int], tomb: int, corners: list[int], counts: list[int]
) -> int | None:
    """Send the lowest cell card that free stock cards can reach home; the
    tomb count after it, or None (nothing changed) if none can be reached."""
    for card in sorted(cells):
        rest = cells[:]
        rest.remove(card)
        if card <= 6:
            reached = _advance_tomb(card, tomb, rest, counts)
            if reached is not None:
                cells[:] = rest
                return reached + 1
        elif _advance_corner(card, corners, rest, counts):
            cells[:] = rest
            return tomb
    return None


def _advance_tomb(rank: int, tomb: int, cells: list[int], counts: list[int]) -> int | None:
    """Tomb count at which it wants ``rank``, reached with stock and cell
    cards (taken from ``counts`` / ``cells``); None if out of reach."""
    taken: list[tuple[bool, int]] = []  # (from a cell?, rank) to undo a failed try
    while tomb < TOMB_SIZE and tomb_wants(tomb) != rank:
        want = tomb_wants(tomb)
        if want in cells:
            cells.remove(want)
            taken.append((True, want))
        elif counts[want]:
            counts[want] -= 1
            taken.append((False, want))
        else:
            break
        tomb += 1
    if tomb < TOMB_SIZE and tomb_wants(tomb) == rank:
        return tomb
    for from_cell, want in taken:
        if from_cell:
            cells.append(want)
        else:
            counts[want] += 1
    return None


def _advance_corner(rank: int, corners: list[int], cells: list[int], counts: list[int]) -> bool:
    """Raise the highest corner below ``rank`` up to take it, if the stock
    and cells hold every rank in between; then place the card."""
    target = rank - 7
    for height in sorted((h for h in corners if h <= target), reverse=True):
        needed = range(height + 7, rank)
        if all(counts[r] + cells.count(r) >= 1 for r in needed):
            for r in needed:
                if counts[r]:
                    counts[r] -= 1
                else:
                    cells.remove(r)
            corners[corners.index(height)] = target + 1
            return True
    return False


class _GiveUp(Exception):
    """The relaxed search ran past its limit: call the position alive."""
