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

Below, a base's *count* c is how many cards it holds; the card of rank r has
two places on its suit's base: 13 - r (the first time round, counting the
King as place 0) and 26 - r (the second). A base fills its places in order,
so the first copy of a face home took the first place: a face is *twice
bound* (``c > 13 - r``) when one of its copies is home and the other can
only take the second place.

4. *Safe home moves* (``safe``: the state's only child). A card X that fits
   its base at its second place (the base holds 13 or more: X's twin is home,
   and so are both copies of the card one rank above, which are all that
   could ever lie on X), from a wall, a working place, the centre, or from a
   waste pile in round 4 or 5. If the state is won, so is the state after it:
   take a winning line L and strike every move of X from it. Nothing lies on
   X in L and nothing goes to X's base before X (only X's face fits there,
   and the twin is home), so every other move reads the same tops, but for
   three places X held: a wall or waste pile whose next card shows sooner
   (more is free, nothing that L plays is lost); the centre or a working
   place with a card under X, which shows that card sooner (L puts nothing
   on X); and a working place X was the last card of, refilled now: there
   L's wall top is this line's place top, one card sooner, until X leaves
   the place in L, after which the two agree (read L's moves of that wall's
   top as moves of the place's). A waste card from round 4 on: round 4's
   deals go to piles by their number, not by what the piles hold, and round
   5 deals onto one pile, so striking X from the gathering moves no other
   card to another pile (L's deal of X in round 5, if any, is struck too;
   if the waste then holds nothing, L's gathering is struck as well). Before
   round 4 a card gone from a pile moves every later card of the gathering
   to another pile, so no rule. A state with a safe move in one member of
   its class takes that member's safe move as its only child (the class is
   won or lost as a whole).
5. *Dead test* (``dead``). A *fixed pile* is a waste pile in the fifth round:
   it is never gathered again and deals only cover it, so a card leaves it
   only from its top, and only for a base, a working place or the centre. A
   card X of a fixed pile, not an Ace, is *stuck* when both copies of the
   card one rank below it (its suit) are home or under X in that pile: X can
   leave the pile only for its base, since onto a working place or the
   centre it needs that card showing (a 2 lies on no working Ace; an Ace may
   always reach an empty centre, so Aces are left out), and a card home never
   comes back. Cards leave the pile from the top down, and a base takes its
   places in order, so the stuck cards of a suit, read from the top down, go
   home at increasing places, each one of its face's two places that is
   still open (at or after the count); and every card of that suit under a
   stuck card leaves the pile after it and so goes home later still. The
   state is lost when, giving each stuck card the earliest such place after
   the last one given, some card of the suit finds no place left
   (``pile_dead``): the earliest choice leaves the most room, so no real
   order does better. (E.g. a twice-bound 7H, its other 6H home or under it,
   above a 9H: the 7H can only take place 19, after the 9H's.) A wall is not
   a fixed pile: its top card also leaves it when its working place empties
   and is refilled, and waits there while the cards under it leave, so its
   cards need not go home from the top down.

``PLAIN`` turns 1-5 off; ``tests/solver/test_twodeck_search.py`` checks the two
searches agree on small late positions, for the reference walk and the
compiled core alike. The greedy pass (``exact=False``) plays only cards home
whenever one can go, and no lateral move: its wins are real lines, its
failures prove nothing.

**The compiled core** (``_core.c`` beside this module, built by setup.py)
walks the same graph with the same rules, with exact keys of its own; ``solve``
runs it when it is built (``compiled=None``), and the tests hold it to this
reference walk.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, fields
from typing import Any, Final

from patience.twodeck import Position, face, parse_moves

from ...driver import (
    GREEDY_SHARE,
    Budget,
    Outcome,
    Result,
    Verdict,
    decide_by,
    remaining,
    search_pass,
)

_core: Any
try:  # the compiled core (``_core.c``), built by the install step (setup.py)
    _core = importlib.import_module("solver_worker.games.twodeck._core")
except ImportError:  # pragma: no cover - the reference walk still decides
    _core = None

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
    safe: bool = True  # rule 4
    dead: bool = True  # rule 5


ALL_RULES: Final = Pruning()
PLAIN: Final = Pruning(symmetry=False, singles=False, safe=False, dead=False)
TABLE_MB: Final = 512  # the compiled core's table of classes entered, at most


def core_flags(pruning: Pruning) -> int:
    """The core's flag for each rule (``_core.c``: P_SYMMETRY ... P_DEAD), in field order."""
    return sum(1 << i for i, rule in enumerate(fields(Pruning)) if getattr(pruning, rule.name))


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
        """Rule 5 (the module docstring)."""
        if not self.pruning.dead:
            return False
        _walls, _places, bases, _centre, waste, _stock, rnd, _home = state
        if rnd != ROUNDS:
            return False
        counts = base_counts(bases)
        return any(pile_dead(pile, counts) for pile in waste)

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
        members = self.members(state) if exact else [(state, "")]
        if self.pruning.safe:
            for member, path in members:
                safe = self.safe_home(member)
                if safe is not None:
                    move, child = safe
                    yield (f"{path} {move}" if path else move), child
                    return
        if not exact:
            yield from self.progress(state, exact)
            return
        for member, path in members:
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

    def safe_home(self, state: State) -> Child | None:
        """Rule 4: the first card, by source, that fits its base at its second place."""
        bases, rnd = state[2], state[6]
        for source in range(14):
            if source >= 9 and rnd < ROUNDS - 1:
                break
            pile = _pile(state, source)
            if not pile:
                continue
            card = pile[-1]
            for b, code in enumerate(bases):
                if code >= 0 and code // 32 == SUIT[card] and code % 32 >= 13 and _base_takes(
                        code, card, bases):
                    return self._home(state, source, b)
        return None

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


def base_counts(bases: tuple[int, ...]) -> list[int]:
    """Each suit's base count (0 without a base)."""
    counts = [0] * 4
    for code in bases:
        if code >= 0:
            counts[code // 32] = code % 32
    return counts


def copies_home(count: int, rank: int) -> int:
    """How many copies of a rank are on a base holding ``count`` cards."""
    return (count > 13 - rank) + (count > 26 - rank)


def stuck(card: int, below: Faces, counts: list[int]) -> bool:
    """Rule 5: whether a fixed pile's ``card``, with ``below`` under it, can leave the
    pile only for its base: not an Ace, and both copies of the card one rank below
    it home or under it."""
    suit, rank = SUIT[card], RANK[card]
    return rank > 1 and copies_home(counts[suit], rank - 1) + below.count(card - 1) >= 2


def pile_dead(pile: Faces, counts: list[int]) -> bool:
    """Rule 5 for one fixed pile, bottom first (the module docstring): read from the
    top down, each suit's stuck cards take their base's places in that order, each
    the earliest open one after the last; dead when a card of the suit (stuck or
    not) finds no place left after the stuck ones above it."""
    last = [-1] * 4
    for i in range(len(pile) - 1, -1, -1):
        card = pile[i]
        suit, rank = SUIT[card], RANK[card]
        places = [p for p in (13 - rank, 26 - rank) if p >= counts[suit] and p > last[suit]]
        if not places:
            return True
        if stuck(card, pile[:i], counts):
            last[suit] = places[0]
    return False


def replay_line(position: Position, line: list[str]) -> bool:
    """Whether the line, played in the engine, wins."""
    twin = position.copy()
    for move in parse_moves(" ".join(line)):
        twin.apply(move)
    return twin.home == CARD_COUNT


def one_pass(state: State, budget: Budget, exact: bool, pruning: Pruning = ALL_RULES,
             compiled: bool | None = None, table_mb: int = TABLE_MB, seed: int = 0
             ) -> Outcome:
    """One walk of the graph from ``state``: (outcome, line in notation, nodes). The
    compiled core (default: when it is built) or the reference walk on the driver
    (which knows only the fixed order: ``seed`` is the core's)."""
    use_core = _core is not None if compiled is None else compiled
    if use_core:
        assert _core is not None, "the compiled core is not built (pip install -e .)"
        walls, places, bases, centre, waste, stock, rnd, _home = state
        status, line, nodes = _core.search(
            walls, places, bases, centre, waste, stock, rnd, exact, core_flags(pruning),
            budget.nodes or 0, budget.seconds or 0.0, table_mb, seed)
        return status, line, nodes
    status, line, nodes = search_pass(TwoDeckSearch(pruning), state, budget, exact)
    return status, " ".join(line).split(), nodes


# The greedy pass's restarts (``greedy``): the fixed order first, then shuffled orders,
# each allowed FIRST_NODES * GROWTH**k nodes (the compiled core only).
FIRST_NODES: Final = 5000
GROWTH: Final = 1.3


def greedy(state: State, budget: Budget, pruning: Pruning = ALL_RULES,
           compiled: bool | None = None) -> Outcome:
    """The greedy pass, with restarts in shuffled orders on the compiled core.

    Why restarts: a depth-first walk that takes a bad turn early spends its whole
    budget below it, while a won deal is often won within a few thousand nodes in
    some order. The order does not change the greedy graph, so a pass that exhausts
    it ends the restarts (its failure still proves nothing: the greedy graph is
    pruned unsoundly)."""
    use_core = _core is not None if compiled is None else compiled
    if not use_core:
        return one_pass(state, budget, False, pruning, compiled=False)
    began = time.perf_counter()
    spent, cap, seed = 0, float(FIRST_NODES), 0
    while True:
        left = remaining(budget, began, spent)
        nodes = int(cap) if left.nodes is None else min(int(cap), left.nodes)
        status, line, used = one_pass(state, Budget(nodes=nodes, seconds=left.seconds), False,
                                      pruning, compiled=True, seed=seed)
        spent += used
        if status != "budget" or out_of(budget, began, spent):
            return status, line, spent
        seed += 1
        cap *= GROWTH


def out_of(budget: Budget, began: float, spent: int) -> bool:
    """Whether a budget is spent: ``spent`` nodes since ``began`` (perf_counter)."""
    if budget.nodes is not None and spent >= budget.nodes:
        return True
    return budget.seconds is not None and time.perf_counter() - began >= budget.seconds


def solve(position: Position, budget: Budget = Budget(seconds=10.0),
          greedy_share: float = GREEDY_SHARE, pruning: Pruning = ALL_RULES,
          compiled: bool | None = None) -> Result:
    """Decide a position: won (with its line in notation, replayed), lost or unknown."""
    start = time.perf_counter()
    state = state_of(position)
    verdict, line, nodes = decide_by(
        lambda part, exact: (one_pass(state, part, exact, pruning, compiled) if exact
                             else greedy(state, part, pruning, compiled)), budget,
        greedy_share)
    moves = " ".join(line).split() if verdict == "won" else []
    if verdict == "won" and not replay_line(position, moves):
        raise AssertionError(f"the search's line does not win: {' '.join(moves)}")
    checked: Verdict = verdict
    return Result(verdict=checked, line=moves, nodes=nodes,
                  ms=(time.perf_counter() - start) * 1000)
