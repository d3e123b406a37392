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
   the transposition table stores failed states only.
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
6. Dead positions: see ``relaxation``; used where the waste order is fixed,
   in both passes. It is not run after a play: the relaxation of the child
   is the parent's with a forced move made, so it cannot newly fail.

A first, *unsafe* pass plays every fitting card at once. It only ever finds
wins (each win it finds is a real line); it never declares a loss.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from typing import Any, Final, Literal

from patience.cards import RANK
from patience.tomb import Position, parse_move
from patience.tomb.moves import TOMB
from patience.tomb.position import EMPTY

from .driver import Budget, Result, Verdict
from .relaxation import is_dead, tomb_wants

_core: Any
try:  # the compiled core, built by the install step (setup.py)
    _core = importlib.import_module("solver_worker._core")
except ImportError:  # pragma: no cover - a checkout without a compiler
    _core = None

FULL_HOME: Final = 52
CELL_COUNT: Final = 4
TIME_CHECK_EVERY: Final = 16
PLAY, PARK, DRAW, REDEAL = "F", "C", "D", "R"


class _OutOfBudget(Exception):
    pass


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


def settle(
    cells: tuple[int, ...], tomb: int, corners: tuple[int, ...]
) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """Send fitting cell cards home until none fits (the result does not
    depend on the order: placing a card only ever makes more cards fit)."""
    moved = True
    while moved and cells:
        moved = False
        want = tomb_wants(tomb)
        for i, rank in enumerate(cells):
            if rank == want:
                tomb += 1
            elif rank >= 7 and rank - 7 in corners:
                corners = _raise(corners, rank - 7)
            else:
                continue
            cells = cells[:i] + cells[i + 1 :]
            moved = True
            break
    return cells, tomb, corners


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


class Searcher:
    """One search from one position, with its own tables and budget."""

    def __init__(self, turn: int, budget: Budget) -> None:
        self.turn = turn
        self.nodes = 0
        self.node_limit = budget.nodes
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        self.failed: set[bytes] = set()
        self.dead_checks = 0

    def _tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfBudget
        if (self.deadline is not None and self.nodes % TIME_CHECK_EVERY == 0
                and time.perf_counter() > self.deadline):
            raise _OutOfBudget

    def run(self, table: Table, exact: bool) -> list[str] | None:
        """A winning line of abstract moves, or None if there is none (when
        ``exact``) or none was found by the greedy pass (when not)."""
        self.failed = set()
        self.exact = exact
        path: list[str] = []
        t = table
        if self._search(t.stock, t.waste, t.cells, t.tomb, t.corners, t.redeals, path):
            path.reverse()
            return path
        return None

    def _search(
        self, stock: bytes, waste: bytes, cells: tuple[int, ...], tomb: int,
        corners: tuple[int, ...], redeals: int, path: list[str], check_dead: bool = True,
    ) -> bool:
        if tomb + sum(corners) == FULL_HOME:
            return True
        key = b"".join((stock, b"\0", waste, b"\0", bytes(corners), bytes((tomb, redeals))))
        failed = self.failed
        if key in failed:
            return False
        self._tick()
        exact = self.exact
        fixed_order = redeals == 0  # the waste will never be regrouped
        # The dead test is sound, so the greedy pass uses it too: it cuts
        # the subtrees where no win can hide and so finds wins sooner.
        if (fixed_order and waste and check_dead
                and self._dead(stock, waste, cells, tomb, corners)):
            failed.add(key)
            return False
        if waste:
            top = waste[-1]
            if fits(top, tomb, corners):
                new_cells, new_tomb, new_corners = settle(
                    cells, *_place(top, tomb, corners)
                )
                if self._search(stock, waste[:-1], new_cells, new_tomb, new_corners,
                                redeals, path, check_dead=False):
                    path.append(PLAY)
                    return True
                forced = not exact or (fixed_order and top not in stock)
                if forced:
                    failed.add(key)
                    return False
            elif len(cells) < CELL_COUNT:
                tries = (self._park, self._draw)
                if not self._park_first(top, tomb, corners):
                    tries = (self._draw, self._park)
                for attempt in tries:
                    if attempt(stock, waste, cells, tomb, corners, redeals, path):
                        return True
                failed.add(key)
                return False
        if self._draw(stock, waste, cells, tomb, corners, redeals, path):
            return True
        failed.add(key)
        return False

    def _park(
        self, stock: bytes, waste: bytes, cells: tuple[int, ...], tomb: int,
        corners: tuple[int, ...], redeals: int, path: list[str],
    ) -> bool:
        parked = tuple(sorted((*cells, waste[-1])))
        if self._search(stock, waste[:-1], parked, tomb, corners, redeals, path):
            path.append(PARK)
            return True
        return False

    def _draw(
        self, stock: bytes, waste: bytes, cells: tuple[int, ...], tomb: int,
        corners: tuple[int, ...], redeals: int, path: list[str],
    ) -> bool:
        """Turn cards, or turn the waste over when the stock is empty."""
        if stock:
            count = min(self.turn, len(stock))
            turned = stock[-count:][::-1]
            if self._search(stock[:-count], waste + turned, cells, tomb, corners, redeals, path):
                path.append(DRAW)
                return True
        elif waste and redeals and self._search(
            waste[::-1], b"", cells, tomb, corners, redeals - 1, path
        ):
            path.append(REDEAL)
            return True
        return False

    @staticmethod
    def _park_first(rank: int, tomb: int, corners: tuple[int, ...]) -> bool:
        """Move order only: park first a card a foundation wants within three ranks."""
        if rank <= 6:
            want = tomb_wants(tomb)
            return want > 0 and 0 < want - rank + (6 if want < rank else 0) <= 3
        return any(0 < rank - 7 - height <= 3 for height in corners)

    def _dead(
        self, stock: bytes, waste: bytes, cells: tuple[int, ...], tomb: int,
        corners: tuple[int, ...],
    ) -> bool:
        self.dead_checks += 1
        counts = [0] * 14
        for rank in stock:
            counts[rank] += 1
        return is_dead(waste, cells, tomb, corners, counts)


def _place(rank: int, tomb: int, corners: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    if rank <= 6:
        return tomb + 1, corners
    return tomb, _raise(corners, rank - 7)


def to_notation(position: Position, abstract_line: list[str]) -> list[str]:
    """Replay an abstract line in the engine and return it with targets
    resolved; raises IllegalMove if the line is not legal (a solver bug)."""
    replay = position.copy()
    resolved = []
    for move in abstract_line:
        replay.apply(parse_move(move))
        resolved.append(replay.history[-1][0].notation)
    return resolved


GREEDY_SHARE: Final = 0.5  # of the budget, for the win-finding pass
TABLE_MB: Final = 512  # the compiled core's transposition table, at most

_VERDICT_OF: Final[dict[str, Verdict]] = {"won": "won", "exhausted": "lost", "budget": "unknown"}

# How one pass ended: a win (with its abstract line), the search space
# exhausted without one, or the budget spent.
Outcome = tuple[Literal["won", "exhausted", "budget"], list[str], int]


def solve(
    position: Position, budget: Budget = Budget(seconds=10.0), compiled: bool | None = None,
    greedy_share: float = GREEDY_SHARE,
) -> Result:
    """Decide a position: won (with a line), lost (search exhausted) or unknown.

    A greedy pass (fitting cards always played at once) looks for a win with
    part of the budget; then the exact search, which alone may say "lost",
    gets the rest. ``compiled`` picks the C core (default: when it is built)
    or this module's Python search, which is the reference for it.
    """
    start = time.perf_counter()
    table = Table.of(position)
    turn = position.variant.turn
    greedy_budget = _share(budget, greedy_share)
    status, found, nodes = search_pass(table, turn, greedy_budget, False, compiled)
    verdict: Verdict = "won" if status == "won" else "unknown"
    if status != "won":
        rest = _remaining(budget, start, nodes)
        status, found, more = search_pass(table, turn, rest, True, compiled)
        nodes += more
        verdict = _VERDICT_OF[status]
    line = to_notation(position, found) if verdict == "won" else []
    elapsed = (time.perf_counter() - start) * 1000
    return Result(verdict=verdict, line=line, nodes=nodes, ms=elapsed)


def search_pass(
    table: Table, turn: int, budget: Budget, exact: bool, compiled: bool | None = None
) -> Outcome:
    """One pass over a compact position: the greedy win-finding pass
    (``exact=False``; its failure proves nothing) or the exact search.
    ``compiled`` picks the C core (default: when it is built) or the Python
    reference."""
    use_core = _core is not None if compiled is None else compiled
    return (_run_core if use_core else _run_python)(table, turn, budget, exact)


def _run_python(table: Table, turn: int, budget: Budget, exact: bool) -> Outcome:
    searcher = Searcher(turn, budget)
    try:
        found = searcher.run(table, exact)
    except (_OutOfBudget, RecursionError):
        return "budget", [], searcher.nodes
    return ("won", found, searcher.nodes) if found is not None else (
        "exhausted", [], searcher.nodes)


def _run_core(table: Table, turn: int, budget: Budget, exact: bool) -> Outcome:
    assert _core is not None
    status, path, nodes, _dead_checks = _core.search(
        table.stock, table.waste, bytes(table.cells), table.tomb, bytes(table.corners),
        table.redeals, turn, exact, budget.nodes or 0, budget.seconds or 0.0, TABLE_MB,
    )
    if status == 1:
        return "won", list(path), nodes
    return ("exhausted" if status == 0 else "budget"), [], nodes


def _share(budget: Budget, share: float) -> Budget:
    return Budget(
        nodes=None if budget.nodes is None else max(1, int(budget.nodes * share)),
        seconds=None if budget.seconds is None else budget.seconds * share,
    )


def _remaining(budget: Budget, start: float, nodes_spent: int) -> Budget:
    seconds = None
    if budget.seconds is not None:
        seconds = max(0.001, budget.seconds - (time.perf_counter() - start))
    nodes = None if budget.nodes is None else max(1, budget.nodes - nodes_spent)
    return Budget(nodes=nodes, seconds=seconds)
