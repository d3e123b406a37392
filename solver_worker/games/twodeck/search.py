"""The two-deck Tomb's search on the one driver (``solver_worker.driver``).

**State.** A tuple of faces (0..51: the twins play alike, so the search keeps no
deck index): the walls (top last), the working places (bottom first), the bases
(each -1 when empty, else ``suit * 32 + cards on it``), the centre, the waste
piles, the stock (top last), the round and the cards home. Its moves are the
engine's notation, so a line replays in the engine as it is (``solve`` replays
every line before it calls a deal won).

**Cycles, and why the driver may still remember failures.** A card can go back
and forth: 5H from a working place holding 4H 5H onto a place or the centre
showing the twin 4H, and back. The driver needs an acyclic graph (a failed state
fails always), so the search walks *classes*: two states are in one class when
moves that take a card from a working place or the centre that keeps a card
(a "lateral" move) lead from one to the other. Such a move is undone by another
(the card goes back onto the twin it left, and its old place still shows a card),
so a class is a set of mutually reachable states and won or lost as a whole. A
class's key is the least key of its members, and its children are every other
move of every member, each prefixed by the lateral moves that reach the member.
Every other move makes progress in the order (round, cards home, -wall cards,
-stock cards, -waste cards, working places emptied for good): a deal, a
gathering, a card home, a card from a wall or a waste pile, a working place's
last card moved (it is refilled from the wall, or stays empty for good). All
members of a class share that measure, so the graph of classes has no cycle.

**Pruning (exact pass), each sound for a "lost" verdict:**

1. *Corners alike.* Which corner holds which suit changes nothing the rules read
   (any King whose suit has no base may go to any empty corner): the key sorts
   the bases, and a King goes only to the first empty corner.
2. *Walls with their places alike.* A wall and its working place form a unit
   that the rules treat alike for every side (refills go from a wall to its own
   place only; the waste piles belong to no side): the key sorts these pairs.
3. *No whole-stack moves.* A whole working stack onto a base lands exactly as
   its cards sent one by one from the top (each fits in turn: the stack goes up
   in suit), and the last of them refills the place the same way, so the
   single moves reach the same state.

``PLAIN`` turns 1-3 off; ``tests/solver/test_twodeck_search.py`` checks the two
searches agree on small late positions. The greedy pass (``exact=False``)
plays only cards home whenever one can go, and no lateral move: its wins are
real lines, its failures prove nothing.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Final

from patience.twodeck import Position, face, parse_moves

from ...driver import GREEDY_SHARE, Budget, Result, Verdict, decide

Faces = bytes
State = tuple[tuple[Faces, ...], tuple[Faces, ...], tuple[int, ...], Faces, tuple[Faces, ...],
              Faces, int, int]
Child = tuple[str, State]
CARD_COUNT: Final = 104
BASE_SIZE: Final = 26
ROUNDS: Final = 5
WALLS: Final = ("n", "w", "e", "s")
PLACES: Final = ("pn", "pw", "pe", "ps")
BASES: Final = ("nw", "ne", "sw", "se")
WASTES: Final = ("x1", "x2", "x3", "x4", "x5")
SUIT: Final = tuple(card // 13 for card in range(52))
RANK: Final = tuple(card % 13 + 1 for card in range(52))


@dataclass(frozen=True, slots=True)
class Pruning:
    symmetry: bool = True  # rules 1 and 2
    singles: bool = True  # rule 3


ALL_RULES: Final = Pruning()
PLAIN: Final = Pruning(symmetry=False, singles=False)


def state_of(position: Position) -> State:
    def faces(cards: list[int]) -> Faces:
        return bytes(face(card) for card in cards)

    bases = tuple(-1 if not base else SUIT[face(base[0])] * 32 + len(base)
                  for base in position.bases)
    return (tuple(map(faces, position.walls)), tuple(map(faces, position.places)), bases,
            faces(position.centre), tuple(map(faces, position.waste)), faces(position.stock),
            position.round, position.home)


def _base_takes(code: int, card: int, bases: tuple[int, ...]) -> bool:
    if code < 0:
        return RANK[card] == 13 and all(b < 0 or b // 32 != SUIT[card] for b in bases)
    count = code % 32
    return code // 32 == SUIT[card] and count < BASE_SIZE and RANK[card] == 13 - count % 13


def _place_takes(pile: Faces, card: int) -> bool:
    if not pile:
        return False
    top = pile[-1]
    return SUIT[top] == SUIT[card] and RANK[card] == RANK[top] + 1 and RANK[top] != 1


def _centre_takes(centre: Faces, card: int) -> bool:
    if not centre:
        return RANK[card] == 1
    top = centre[-1]
    return SUIT[top] == SUIT[card] and RANK[card] == RANK[top] + 1


def _set(items: tuple[Faces, ...], index: int, value: Faces) -> tuple[Faces, ...]:
    return (*items[:index], value, *items[index + 1:])


def _take(state: State, source: int) -> tuple[State, str]:
    """The state with ``source``'s free card lifted (a place refilled), and its name."""
    walls, places, bases, centre, waste, stock, rnd, home = state
    if source < 4:
        return (_set(walls, source, walls[source][:-1]), places, bases, centre, waste, stock,
                rnd, home), WALLS[source]
    if source < 8:
        i = source - 4
        pile = places[i][:-1]
        if not pile and walls[i]:
            pile, walls = walls[i][-1:], _set(walls, i, walls[i][:-1])
        return (walls, _set(places, i, pile), bases, centre, waste, stock, rnd, home), PLACES[i]
    if source == 8:
        return (walls, places, bases, centre[:-1], waste, stock, rnd, home), "c"
    i = source - 9
    return (walls, places, bases, centre, _set(waste, i, waste[i][:-1]), stock, rnd,
            home), WASTES[i]


def _pile(state: State, source: int) -> Faces:
    if source < 4:
        return state[0][source]
    if source < 8:
        return state[1][source - 4]
    return state[3] if source == 8 else state[4][source - 9]


class TwoDeckSearch:
    """The driver's hooks (``GameSearch``): see the module docstring."""

    def __init__(self, pruning: Pruning = ALL_RULES) -> None:
        self.pruning = pruning

    def won(self, state: State) -> bool:
        return state[7] == CARD_COUNT

    def member_key(self, state: State) -> Hashable:
        walls, places, bases, centre, waste, stock, rnd, _home = state
        if not self.pruning.symmetry:
            return state[:7]
        return (tuple(sorted(zip(walls, places, strict=True))), tuple(sorted(bases)), centre,
                waste, stock, rnd)

    def key(self, state: State) -> Hashable:
        return min(self.member_key(member) for member, _ in self.members(state))  # type: ignore[type-var]

    def dead(self, state: State) -> bool:
        return False

    def members(self, state: State) -> list[tuple[State, str]]:
        """The class of ``state``: each member with the lateral moves that reach it."""
        if next(self.laterals(state), None) is None:
            return [(state, "")]
        found = {state: ""}
        todo = [state]
        while todo:
            member = todo.pop()
            for move, child in self.laterals(member):
                if child not in found:
                    found[child] = f"{found[member]} {move}".strip()
                    todo.append(child)
        return list(found.items())

    def laterals(self, state: State) -> Iterator[Child]:
        """Moves of a card from a working place or the centre that keeps a card there."""
        places, centre = state[1], state[3]
        for source in range(4, 9):
            pile = centre if source == 8 else places[source - 4]
            if len(pile) < 2:
                continue
            card = pile[-1]
            for t in range(4):
                if t != source - 4 and _place_takes(places[t], card):
                    yield self._onto_place(state, source, t)
            if source != 8 and _centre_takes(centre, card):
                yield self._onto_centre(state, source)

    def children(self, state: State, exact: bool) -> Iterator[Child]:
        if not exact:
            yield from self.progress(state, exact)
            return
        for member, path in self.members(state):
            for move, child in self.progress(member, exact):
                yield (f"{path} {move}" if path else move), child

    def progress(self, state: State, exact: bool) -> Iterator[Child]:
        """Every move but the laterals, cards home first."""
        _walls, places, _bases, centre, waste, stock, rnd, _home = state
        homes = list(self._homes(state))
        yield from homes
        if homes and not exact:
            return
        for source in (*range(4), *range(9, 14), *range(4, 9)):
            pile = _pile(state, source)
            if not pile or (4 <= source < 9 and len(pile) > 1):
                continue  # a lateral move: the class walks those
            card = pile[-1]
            for t in range(4):
                if t != source - 4 and _place_takes(places[t], card):
                    yield self._onto_place(state, source, t)
            if source != 8 and _centre_takes(centre, card):
                yield self._onto_centre(state, source)
        if stock:
            yield "D", self._deal(state)
        elif rnd < ROUNDS and any(waste):
            yield "R", self._redeal(state)

    def _homes(self, state: State) -> Iterator[Child]:
        bases = state[2]
        first_empty = next((b for b in range(4) if bases[b] < 0), -1)
        for source in range(14):
            pile = _pile(state, source)
            if not pile:
                continue
            card = pile[-1]
            for b in range(4):
                if bases[b] < 0 and self.pruning.symmetry and b != first_empty:
                    continue
                if not _base_takes(bases[b], card, bases):
                    continue
                yield self._home(state, source, b)
                if not self.pruning.singles and 4 <= source < 8 and len(pile) > 1:
                    yield self._stack_home(state, source, b)

    def _home(self, state: State, source: int, base: int) -> Child:
        lifted, name = _take(state, source)
        card = _pile(state, source)[-1]
        walls, places, bases, centre, waste, stock, rnd, home = lifted
        code = SUIT[card] * 32 + 1 if bases[base] < 0 else bases[base] + 1
        bases = (*bases[:base], code, *bases[base + 1:])
        return f"{name}-{BASES[base]}", (walls, places, bases, centre, waste, stock, rnd,
                                         home + 1)

    def _stack_home(self, state: State, source: int, base: int) -> Child:
        count = len(state[1][source - 4])
        child = state
        for _ in range(count):
            _move, child = self._home(child, source, base)
        return f"{PLACES[source - 4]}-{BASES[base]}x{count}", child

    def _onto_place(self, state: State, source: int, target: int) -> Child:
        card = _pile(state, source)[-1]
        lifted, name = _take(state, source)
        walls, places, bases, centre, waste, stock, rnd, home = lifted
        places = _set(places, target, places[target] + bytes((card,)))
        return f"{name}-{PLACES[target]}", (walls, places, bases, centre, waste, stock, rnd,
                                            home)

    def _onto_centre(self, state: State, source: int) -> Child:
        card = _pile(state, source)[-1]
        lifted, name = _take(state, source)
        walls, places, bases, centre, waste, stock, rnd, home = lifted
        return f"{name}-c", (walls, places, bases, centre + bytes((card,)), waste, stock, rnd,
                             home)

    def _deal(self, state: State) -> State:
        walls, places, bases, centre, waste, stock, rnd, home = state
        count = min(ROUNDS + 1 - rnd, len(stock))
        dealt = stock[::-1][:count]
        piles = tuple(pile + dealt[i:i + 1] if i < count else pile
                      for i, pile in enumerate(waste))
        return walls, places, bases, centre, piles, stock[:len(stock) - count], rnd, home

    def _redeal(self, state: State) -> State:
        walls, places, bases, centre, waste, _stock, rnd, home = state
        top_first = b"".join(reversed(waste))
        return (walls, places, bases, centre, (b"",) * 5, top_first[::-1], rnd + 1, home)


def replay_line(position: Position, line: list[str]) -> bool:
    """Whether the line, played in the engine, wins."""
    twin = position.copy()
    for move in parse_moves(" ".join(line)):
        twin.apply(move)
    return twin.home == CARD_COUNT


def solve(position: Position, budget: Budget = Budget(seconds=10.0),
          greedy_share: float = GREEDY_SHARE, pruning: Pruning = ALL_RULES) -> Result:
    """Decide a position: won (with its line in notation, replayed), lost or unknown."""
    start = time.perf_counter()
    verdict, line, nodes = decide(TwoDeckSearch(pruning), state_of(position), budget,
                                  greedy_share)
    moves = " ".join(line).split() if verdict == "won" else []
    if verdict == "won" and not replay_line(position, moves):
        raise AssertionError(f"the search's line does not win: {' '.join(moves)}")
    checked: Verdict = verdict
    return Result(verdict=checked, line=moves, nodes=nodes,
                  ms=(time.perf_counter() - start) * 1000)
