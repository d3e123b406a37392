"""The search for Napoleon's Tomb, traditional cross, on the one driver.

The cross (RULES-CROSS-AND-ST-HELENA.md, section 1) turns one card at a time
with three passes; its four places are dealt from the stock and refilled from
it (else from the waste), never parked on, and nothing moves by itself. The
search runs on a compact rank-only state; each rule below says why it cannot
turn a won position into a "lost" verdict.

1. Ranks only. Corners take 7 up to K in any suit, the tomb 6 down to A in any
   suit, and a win is all 52 home (the grand tomb, which looks at suits, is an
   honour, not the goal), so cards of equal rank are interchangeable in every
   rule. The four corners are interchangeable too (any corner at height h
   takes the same ranks), so they are kept as a sorted multiset of heights.
2. The cross as a multiset of ranks. Any cross card may go to any foundation
   it fits and the refill goes to whichever place was emptied, so which place
   holds which rank never matters: one child per distinct fitting rank.
3. The cross is not part of the key. With the stock, the waste and the
   foundations fixed, the ranks home are fixed (a corner of height h holds
   7..7+h-1, a tomb of t cards holds the first t of 6..A four times round),
   and every other card is on the cross, so the cross is determined.
4. No cycles (every move turns a card, plays one home or spends a redeal), so
   a state that failed once fails always: the driver keeps failed states only.
5. Dead test (last pass only: no redeal left, so the waste's order is fixed):
   ``relaxation.is_dead`` (beside this module), the Tomb's relaxed game, with the
   cross as its four cells. Every winning line of the cross is a solution of
   that relaxation: the cards now in the waste still leave it top down (no R
   is left to regroup them), each onto a foundation (F) or into a cross place
   (a refill from the waste, which the relaxation allows at any time a place
   is free, a superset); cross cards leave only onto a foundation, as cells
   do there; and each stock card's passage through the waste or the cross is
   dropped, leaving it a free card that goes home when a foundation wants it,
   which is what the relaxation gives stock cards. The relaxation never holds
   more cards in its cells than the real cross holds (stock cards refilled
   into the cross occupy no cell there), so its four-cell limit is no stronger
   than the real one. A position whose relaxation has no solution is lost.
   The test is skipped after F (speed only): the child's relaxation is the
   parent's after a move the relaxation itself plays at once (a fitting top
   waste card goes home), so it has a solution whenever the parent's had.
6. Forced moves, exact pass. Two, both exact:
   a. A state with one legal move has one child (nothing to prune).
   b. The closing table: stock and waste empty. Every card left is on the
      cross, no refill can happen, and a card that fits goes home: any win
      that plays it later can play it now, because the foundation it joins
      wants its rank until some card of that rank arrives, and any such card
      is interchangeable with it (rule 1); every other move of that line stays
      legal, since raising one foundation takes nothing another card needs.
      So the one child is "the first fitting cross card home".
   Playing a fitting card at once is *not* safe in general in the cross: its
   refill takes the stock's top card out of the turning order, and a waste
   card played home changes which card a later refill from the waste takes.
7. The greedy pass (``exact=False``) is a limited discrepancy search: its
   first line plays the first fitting card whenever one fits and turns only
   when none does; then the lines that depart from that rule at most once,
   twice, ... ``MAX_DEPARTURES`` times (a departure: another fitting card, or
   a turn while a card fits). The hard deals of 1-2400 are won by lines that
   depart from it a few times, late in the game (deal 204's winning line has
   four departures, and the exact pass, trying the departures deepest first,
   needs 900,000 nodes for it). The departures left are part of the state
   and of its key, so the pass's table stays consistent; the pass starts with
   moves named "" (no move) that pick the number allowed, which the line
   drops. Each win it finds is a real line; its failures prove nothing, and
   the driver lets only the exact pass say "lost".

Move order (speed only; the exact pass tries every child): cross cards home
first (the freed place takes a new card), the tomb's before the corners', then
the top waste card home, then D or R.

Measured with a 1 s budget a deal (``python -m solver_worker.solve --variant
cross --deals 1-2400 --budget-s 1``): every deal of 1-20,000 is won, most in
about a millisecond, none in more than half a second; no deal has needed the
exact pass, which proves losses of late positions (the tests).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator
from typing import Final, NamedTuple

from patience.cards import RANK
from patience.tomb import Move, Position, parse_move
from patience.tomb.moves import TOMB, Kind
from patience.tomb.position import EMPTY

from ...driver import Budget, Result, decide
from .relaxation import is_dead, tomb_wants

FULL_HOME: Final = 52
MAX_DEPARTURES: Final = 6  # from the greedy rule, in the greedy pass (rule 7)
GREEDY_START: Final = -1  # "departures left" of the start: it picks 0, 1, 2, ... for its children
DRAW, REDEAL, HOME = "D", "R", "F"
CROSS_PREFIX: Final = "X"  # "X7": a cross card of rank 7 home (the place is found on replay)


class State(NamedTuple):
    """Ranks only: stock and waste bottom first (top last), cross and corners sorted."""

    stock: bytes
    waste: bytes
    cross: tuple[int, ...]
    tomb: int
    corners: tuple[int, ...]
    redeals: int
    recheck: bool = True  # whether the dead test can say more than it did for the parent
    departures: int = GREEDY_START  # left in the greedy pass (rule 7); constant in the exact pass

    @classmethod
    def of(cls, position: Position) -> State:
        return cls(
            stock=bytes(RANK[card] for card in position.stock),
            waste=bytes(RANK[card] for card in position.waste),
            cross=tuple(sorted(RANK[card] for card in position.cells if card != EMPTY)),
            tomb=len(position.foundations[TOMB]),
            corners=tuple(sorted(len(pile) for pile in position.foundations[:TOMB])),
            redeals=position.redeals_left,
        )


def fits(rank: int, tomb: int, corners: tuple[int, ...]) -> bool:
    if rank <= 6:
        return rank == tomb_wants(tomb)
    return rank - 7 in corners


def place_home(rank: int, tomb: int, corners: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Tomb count and corner heights once a fitting card of ``rank`` goes home."""
    if rank <= 6:
        return tomb + 1, corners
    raised = list(corners)
    raised[raised.index(rank - 7)] += 1
    raised.sort()
    return tomb, tuple(raised)


def without(cross: tuple[int, ...], rank: int) -> list[int]:
    rest = list(cross)
    rest.remove(rank)
    return rest


class CrossSearch:
    """The cross as a ``driver.GameSearch`` over ``State``."""

    def won(self, state: State) -> bool:
        return state.tomb + sum(state.corners) == FULL_HOME

    def key(self, state: State) -> Hashable:
        # Rule 3: the cross is determined by the rest.
        return (state.stock, state.waste, state.tomb, state.corners, state.redeals,
                state.departures)

    def dead(self, state: State) -> bool:
        """Rule 5: the relaxation, once the waste's order is fixed."""
        if state.redeals or not state.waste or not state.recheck:
            return False
        counts = [0] * 14
        for rank in state.stock:
            counts[rank] += 1
        return is_dead(state.waste, state.cross, state.tomb, state.corners, counts)

    def children(self, state: State, exact: bool) -> Iterator[tuple[str, State]]:
        if not exact and state.departures == GREEDY_START:
            for allowed in range(MAX_DEPARTURES + 1):  # rule 7: 0, 1, 2, ... departures
                yield "", state._replace(departures=allowed)
            return
        homes = list(self._homes(state))
        if not state.stock and not state.waste:
            yield from homes[:1]  # rule 6b: the closing table plays itself
            return
        turn = self._turn(state)
        options = homes if turn is None else [*homes, turn]
        if exact:
            yield from options
            return
        if not options:
            return
        yield options[0]  # rule 7: the greedy choice
        if state.departures > 0:
            left = state.departures - 1
            for move, child in options[1:]:
                yield move, child._replace(departures=left)

    def _homes(self, state: State) -> Iterator[tuple[str, State]]:
        stock, waste, cross, tomb, corners, redeals, _, departures = state
        fitting = sorted({rank for rank in cross if fits(rank, tomb, corners)})
        for rank in fitting:  # A-6 sort first: the tomb's before the corners'
            new_tomb, new_corners = place_home(rank, tomb, corners)
            rest = without(cross, rank)
            new_stock, new_waste = stock, waste
            if stock:
                rest.append(stock[-1])
                new_stock = stock[:-1]
            elif waste:
                rest.append(waste[-1])
                new_waste = waste[:-1]
            yield f"{CROSS_PREFIX}{rank}", State(
                new_stock, new_waste, tuple(sorted(rest)), new_tomb, new_corners, redeals,
                True, departures,
            )
        if waste and fits(waste[-1], tomb, corners):
            new_tomb, new_corners = place_home(waste[-1], tomb, corners)
            yield HOME, State(stock, waste[:-1], cross, new_tomb, new_corners, redeals, False,
                              departures)

    @staticmethod
    def _turn(state: State) -> tuple[str, State] | None:
        stock, waste, cross, tomb, corners, redeals, _, departures = state
        if stock:
            return DRAW, State(stock[:-1], waste + stock[-1:], cross, tomb, corners, redeals,
                               True, departures)
        if waste and redeals:
            return REDEAL, State(waste[::-1], b"", cross, tomb, corners, redeals - 1,
                                 True, departures)
        return None


def engine_move(position: Position, abstract: str) -> Move:
    """The engine's move for an abstract one: ``X<rank>`` names the first place holding it."""
    if not abstract.startswith(CROSS_PREFIX):
        return parse_move(abstract)
    rank = int(abstract[len(CROSS_PREFIX):])
    place = next(i for i, card in enumerate(position.cells) if card != EMPTY and RANK[card] == rank)
    return Move(Kind.CROSS, None, place)


def to_notation(position: Position, abstract_line: list[str]) -> list[str]:
    """Replay an abstract line in the engine, targets resolved; IllegalMove means a bug."""
    replay = position.copy()
    resolved = []
    for abstract in filter(None, abstract_line):  # "" picks a departure count (rule 7)
        replay.apply(engine_move(replay, abstract))
        resolved.append(replay.history[-1][0].notation)
    return resolved


def solve(position: Position, budget: Budget, greedy_share: float = 0.5) -> Result:
    """Decide a cross position: won (with a line in the engine's notation), lost or unknown."""
    start = time.perf_counter()
    verdict, line, nodes = decide(CrossSearch(), State.of(position), budget, greedy_share)
    resolved = to_notation(position, line) if verdict == "won" else []
    return Result(verdict, resolved, nodes, (time.perf_counter() - start) * 1000)
