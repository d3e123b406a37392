"""Exact search for Napoleon's Tomb: won with a line, lost, or unknown.

The search runs on a compact rank-only copy of a position (suits never decide
a move). Its rules, each with the argument that makes it sound for a *lost*
verdict:

1. Ranks only, corners as a sorted multiset of heights. Equal ranks are
   interchangeable everywhere and the four corners are too (RULES.md: suits
   never decide a move; any corner at height h takes the same ranks).
2. The cells are not part of the key. With the stock, the waste and the
   foundations fixed, every other card is in a cell, so the cells are
   determined by the rest.
3. The only choices for the top waste card are: play it if it fits, park it
   if it does not fit and a cell is free, or turn cards over it. Parking a
   card that fits is the same as playing it: it goes home at once.
4. The state graph has no cycles (each move turns a card, plays one home,
   parks one, or spends a redeal), so a state that failed once fails always:
   the transposition table stores failed states only (the driver's rule,
   ``solver_worker.driver``, which walks this game's ``TombSearch``).
5. Forced play (classic turn order only, i.e. the classic deal, or the
   3-card deal once no redeal is left): a top waste card of rank r that fits
   is played at once when no other card of rank r is left in the stock.
   While it would stay buried, no other rank-r card can reach the
   foundations (none in the stock, none in a cell since a fitting cell card
   goes home at once, any in the waste lie beneath it), so the slot it fits
   stays open; every move of the buried line stays legal once it is played,
   and the two lines meet when it would have resurfaced. (Playing a fitting
   card at once is *not* safe in general: with the cells full, burying it can
   let a later card of the same rank take the slot first.)

   The same holds for a corner card while fewer rank-r cards are left in the
   stock than there are corners it fits (corners at height r - 7), which
   plays every 7 at once while four corners are empty. Compare a line L that
   buries it with L': play it, then L's moves. L' differs from L only in one
   corner that stood at r - 7: in L' it is higher (the card, then whatever
   cell cards settle on it; L holds those in its cells). Until the buried
   card resurfaces in L, only rank-r cards can land on a corner at r - 7,
   and they come from the stock alone (a cell card that fits is gone, waste
   cards lie beneath): at most k of them, k below the number m of such
   corners. Before L's j-th such placement (j <= k <= m - 1), L has at least
   m - (j - 1) >= 2 corners at r - 7, so L' has one too and the move is legal
   there; every other move of L meets the same piles in L' (a park of a card
   that fits in L' becomes its play; L' has no fewer free cells). When the
   card resurfaces, some corner in L still stands at r - 7 (fewer than m
   placements), so L can play it there; if it does, its cells settle as L''s
   did and the two lines meet. If L buries it again instead, the condition
   still holds at that point (each placement took one rank-r card from the
   stock and one corner at r - 7: k and m fell together), so the same
   comparison repeats from there, until L plays it or ends. The tomb is one
   pile (m = 1): there the rule is k = 0.
6. Dead positions: see ``relaxation``; used where the waste order is fixed,
   in both passes. It is not run after a play: the relaxation of the child
   is the parent's with a forced move made, so it cannot newly fail.
7. Cells settle after every play (``relaxation.settle_cells``, the one
   routine the relaxation uses too): a cell card that fits goes home at
   once, as the engine does, so it is not a choice.

A first, *unsafe* pass plays every fitting card at once. It only ever finds
wins (each win it finds is a real line); it never declares a loss.

Restarts (the compiled core, ``solve``'s passes): a depth-first search that
takes a wrong turn near the root can spend its whole budget below it. So
each pass searches in dives: the first in the order above, for
``RESTART_NODES`` nodes; each later one half as long again as the one before,
and at each node with two children it tries them in the other order with
probability ``FLIP_PER_MILLE`` / 1000 (fixed by the state and the dive).
Every dive starts from the root and keeps the table of failed states: an
entry is a state whose whole subtree was searched without a win, which is
true whatever order found it, so the table stays sound across dives, and a
dive that runs out its subtree with nothing left says "exhausted" exactly as
one plain search would. Only the order changes, never which children exist,
so the pruning rules and their arguments above are untouched. The Python
reference has no restarts; the tests compare it with the core without them
and check the core with them against plain search.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from patience.tomb import EMPTY, RANK, TOMB, Position, parse_move

from ...driver import GREEDY_SHARE, Budget, Outcome, Result, decide_by
from ...driver import search_pass as drive
from .relaxation import is_dead, settle_cells, tomb_wants

__all__ = ["Budget", "Result", "Table", "TombSearch", "search_pass", "solve", "to_notation"]

_core: Any
try:  # the compiled core, built by the install step (setup.py)
    _core = importlib.import_module("solver_worker.games.tomb._core")
except ImportError:  # pragma: no cover - a checkout without a compiler
    _core = None

FULL_HOME: Final = 52
CELL_COUNT: Final = 4
PLAY, PARK, DRAW, REDEAL = "F", "C", "D", "R"


@dataclass(frozen=True, slots=True)
class Table:
    """The compact position: ranks, top of stock and waste last."""

    stock: bytes
    waste: bytes
    cells: tuple[int, ...]
    tomb: int
    corners: tuple[int, ...]
    redeals: int

    @classmethod
    def of(cls, position: Position) -> Table:
        return cls(
            stock=bytes(RANK[card] for card in position.stock),
            waste=bytes(RANK[card] for card in position.waste),
            cells=tuple(sorted(RANK[card] for card in position.cells if card != EMPTY)),
            tomb=len(position.foundations[TOMB]),
            corners=tuple(sorted(len(pile) for pile in position.foundations[:TOMB])),
            redeals=position.redeals_left,
        )

    def state(self) -> TombState:
        return (self.stock, self.waste, self.cells, self.tomb, self.corners, self.redeals, True)


# The search's state: stock, waste, cells (sorted), tomb count, corner heights
# (sorted), redeals left, and whether the dead test is due (not after a play,
# rule 6; it is no part of the key).
TombState = tuple[bytes, bytes, tuple[int, ...], int, tuple[int, ...], int, bool]


def _raise(corners: tuple[int, ...], height: int) -> tuple[int, ...]:
    """Corner heights after one corner at ``height`` takes a card (kept sorted)."""
    i = corners.index(height)
    raised = list(corners)
    raised[i] = height + 1
    raised.sort()
    return tuple(raised)


def fits(rank: int, tomb: int, corners: tuple[int, ...]) -> bool:
    if rank <= 6:
        return rank == tomb_wants(tomb)
    return rank - 7 in corners


def _places(rank: int, corners: tuple[int, ...]) -> int:
    """How many foundations take this rank now: the tomb is one, corners count."""
    return 1 if rank <= 6 else corners.count(rank - 7)


def _place(rank: int, tomb: int, corners: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    if rank <= 6:
        return tomb + 1, corners
    return tomb, _raise(corners, rank - 7)


class TombSearch:
    """Napoleon's Tomb on the one driver: rules 1-7 of the module docstring."""

    def __init__(self, turn: int) -> None:
        self.turn = turn
        self.dead_checks = 0

    def won(self, state: TombState) -> bool:
        return state[3] + sum(state[4]) == FULL_HOME

    def key(self, state: TombState) -> bytes:
        stock, waste, _cells, tomb, corners, redeals, _due = state
        return b"".join((stock, b"\0", waste, b"\0", bytes(corners), bytes((tomb, redeals))))

    def dead(self, state: TombState) -> bool:
        """Rule 6, where the waste order is fixed (no redeal left)."""
        stock, waste, cells, tomb, corners, redeals, due = state
        if not (due and waste and redeals == 0):
            return False
        self.dead_checks += 1
        counts = [0] * 14
        for rank in stock:
            counts[rank] += 1
        return is_dead(waste, cells, tomb, corners, counts)

    def children(self, state: TombState, exact: bool) -> Iterator[tuple[str, TombState]]:
        """Rule 3's choices for the top card, with rule 5's forced play."""
        stock, waste, cells, tomb, corners, redeals, _due = state
        if waste:
            top = waste[-1]
            if fits(top, tomb, corners):
                yield PLAY, self._play(state)
                if not exact or (redeals == 0 and stock.count(top) < _places(top, corners)):
                    return  # forced (rule 5), or the greedy pass's unproved rule
            elif len(cells) < CELL_COUNT:
                parked = tuple(sorted((*cells, top)))
                park = PARK, (stock, waste[:-1], parked, tomb, corners, redeals, True)
                draw = self._draw(state)
                tries = (park, draw) if self._park_first(top, tomb, corners) else (draw, park)
                for step in tries:
                    if step is not None:
                        yield step
                return
        draw = self._draw(state)
        if draw is not None:
            yield draw

    @staticmethod
    def _play(state: TombState) -> TombState:
        stock, waste, cells, tomb, corners, redeals, _due = state
        tomb, corners = _place(waste[-1], tomb, corners)
        if cells:
            cell_list, corner_list = list(cells), list(corners)
            tomb = settle_cells(cell_list, tomb, corner_list)
            cells, corners = tuple(cell_list), tuple(sorted(corner_list))
        return stock, waste[:-1], cells, tomb, corners, redeals, False

    def _draw(self, state: TombState) -> tuple[str, TombState] | None:
        """Turn cards, or turn the waste over when the stock is empty."""
        stock, waste, cells, tomb, corners, redeals, _due = state
        if stock:
            count = min(self.turn, len(stock))
            turned = stock[-count:][::-1]
            return DRAW, (stock[:-count], waste + turned, cells, tomb, corners, redeals, True)
        if waste and redeals:
            return REDEAL, (waste[::-1], b"", cells, tomb, corners, redeals - 1, True)
        return None

    @staticmethod
    def _park_first(rank: int, tomb: int, corners: tuple[int, ...]) -> bool:
        """Move order only: park first a card a foundation wants within three ranks."""
        if rank <= 6:
            want = tomb_wants(tomb)
            return want > 0 and 0 < want - rank + (6 if want < rank else 0) <= 3
        return any(0 < rank - 7 - height <= 3 for height in corners)


def to_notation(position: Position, abstract_line: list[str]) -> list[str]:
    """Replay an abstract line in the engine and return it with targets
    resolved; raises IllegalMove if the line is not legal (a solver bug)."""
    replay = position.copy()
    resolved = []
    for move in abstract_line:
        replay.apply(parse_move(move))
        resolved.append(replay.history[-1][0].notation)
    return resolved


# The compiled core's transposition table, at most. It grows as a search
# needs it (a hint's 0.6 s stays under 32 MB) and, once full, forgets its
# least costly entries (_core.c, table_replace). Before it could forget, a
# full table stopped remembering, and a long search then searched the same
# subtrees over and over: deal 278 in a 16 MB table, lost in 14 s with
# forgetting, was still unknown at 60 s without (docs/figures.md, issue 30).
TABLE_MB: Final = 2048
# Restarts (module docstring): the first dive's nodes, and how often a later
# dive tries a node's two children the other way round (per mille). Measured
# on 12 classic deals unknown at 8 s: 7 won with these, 6-7 with 5,000 nodes
# or 350 per mille, 2 without restarts (docs/figures.md).
RESTART_NODES: Final = 20_000
FLIP_PER_MILLE: Final = 200


def solve(
    position: Position, budget: Budget = Budget(seconds=10.0), compiled: bool | None = None,
    greedy_share: float = GREEDY_SHARE,
) -> Result:
    """Decide a position: won (with a line), lost (search exhausted) or unknown.

    A greedy pass (fitting cards always played at once) looks for a win with
    part of the budget; then the exact search, which alone may say "lost",
    gets the rest (``driver.decide_by``). ``compiled`` picks the C core
    (default: when it is built) or ``TombSearch`` on the driver, which is the
    reference for it.
    """
    start = time.perf_counter()
    table = Table.of(position)
    turn = position.variant.turn
    verdict, found, nodes = decide_by(
        lambda share, exact: search_pass(table, turn, share, exact, compiled, restarts=True),
        budget, greedy_share)
    line = to_notation(position, found) if verdict == "won" else []
    elapsed = (time.perf_counter() - start) * 1000
    return Result(verdict=verdict, line=line, nodes=nodes, ms=elapsed)


def search_pass(
    table: Table, turn: int, budget: Budget, exact: bool, compiled: bool | None = None,
    restarts: bool = False,
) -> Outcome:
    """One pass over a compact position: the greedy win-finding pass
    (``exact=False``; its failure proves nothing) or the exact search.
    ``compiled`` picks the C core (default: when it is built) or the Python
    reference; ``restarts`` searches in dives (module docstring; the core
    only)."""
    use_core = _core is not None if compiled is None else compiled
    if use_core:
        return _run_core(table, turn, budget, exact, restarts)
    return _run_python(table, turn, budget, exact)


def _run_python(table: Table, turn: int, budget: Budget, exact: bool) -> Outcome:
    return drive(TombSearch(turn), table.state(), budget, exact)


def _run_core(
    table: Table, turn: int, budget: Budget, exact: bool, restarts: bool = False
) -> Outcome:
    assert _core is not None
    status, path, nodes, _dead_checks = _core.search(
        table.stock, table.waste, bytes(table.cells), table.tomb, bytes(table.corners),
        table.redeals, turn, exact, budget.nodes or 0, budget.seconds or 0.0, TABLE_MB,
        RESTART_NODES if restarts else 0, FLIP_PER_MILLE,
    )
    if status == 1:
        return "won", list(path), nodes
    return ("exhausted" if status == 0 else "budget"), [], nodes
