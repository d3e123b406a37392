"""Klondike's search on the one driver: won (with a line), lost, or unknown.

It knows the stock: it screens deals and answers hints, it does not play blind.

Two walks of the same graph: ``_core.c`` beside this module, the compiled core
that ``solve`` runs when it is built (every deal the site decides), and the walk
here on the driver, the reference the tests hold the core to. They share rules 1
to 9 below; rule 10 is the core's alone. ``one_pass(compiled=...)`` picks one.

**The state** (``State``) is compact: each column as bytes, its face-down
count first and then its cards bottom first; the *talon* (the stock and the
waste as one cycle) as bytes in the order the cards come out, the waste's
bottom card first, then the stock's next card to turn; the pointer ``ptr``,
how many talon cards lie on the waste (its top is ``talon[ptr - 1]``); the
four foundations' counts; the cards home. With unlimited redeals turning only
moves the pointer round the cycle: ``n`` cards, D moves it ``draw`` on (to
``n`` at most), R from ``n`` back to 0.

**The moves** (the graph the driver walks; the exact pass's rules below are
argued on it). Every move of the game but D and R is a move here; D and R
never stand alone. A *talon play* is one move: turn (and redeal) until the
card at ``q`` tops the waste, then play it home or onto a column, for every
``q`` the pointer can reach (``REACH``: at turn-1 every card of the talon; at
turn-3 ``ptr``, ``ptr + 3``, ... and ``n``, then after R 3, 6, ... and
``n``). Nothing is lost by this: D and R change only the pointer, and a move
that is not a talon play neither reads nor changes the pointer, so the turns
before any such move may wait until just before the next talon play, where
they and that play are one talon play (turns after the last card has left
the talon do nothing). So a position is won in the game exactly when it is
won in this graph, and the search never stores a state that only turned
cards. Its line spells every D and R out (``solve`` replays it through the
engine before it says "won").

Below, ``dist(S)`` is the fewest moves from S to a win in this graph (all
moves, no rule applied). The exact pass (``exact=True``) is sound for "lost"
because at every winnable state either its only child is a forced move to a
state of smaller ``dist`` (rule 3), or some shortest winning line begins with
a move that every rule keeps: rules 5 and 6 remove only moves that begin no
shortest line, rule 4 only a move whose end state is, up to the order of the
columns, another child's, and rules 8 and 9 (one ordering) keep the first move of the shortest
lines it puts in order. So by induction on ``dist`` the pruned graph still
reaches a win from every winnable state, and rules 1 and 2 say why the walk
finds it.

1. **Cycles** (the driver assumes none; here a card can go back and forth
   between two columns, or home and back). A child whose key is on the
   current path is skipped: the key is entered when its children start and
   left when they end (as St. Helena does). With a table of visited states,
   depth-first search from the start still finds a path to a win whenever one
   exists (a state marked failed because its only way on went through an
   ancestor is reached again through that ancestor, which is still being
   searched), so the verdict at the start is exact. Each pass runs on a fresh
   ``KlondikeSearch``.
2. **Keys.** A key is the columns sorted (``symmetry``: no rule names a
   column's place, so states that differ by the order of their columns have
   the same moves up to renaming and the same ``dist``), the talon, and the
   pointer's *class* (``talon_classes``): at turn-1 none, since from any
   pointer every other is reached by turns alone, which are free here; at
   turn-3 every pointer on the main cycle (a multiple of 3, or ``n``: those
   the pointer passes after R) is one class, an off-cycle pointer its own.
   States of one class reach the same talon plays (the set ``REACH`` gives
   is the class's), so their children, and the pruned children, are the
   same up to the class, and the walk's table may stand for the class. The
   foundations need no place in the key: the home cards are the 52 less
   those on the table, and each suit's are its lowest. A line is always
   written from the state's own columns and pointer, so nothing needs
   mapping back.
3. **Safe home move** (``safe_home``, forced: the state's only child). A
   card X (rank r, suit s) that fits its foundation, from a column's end, or
   at turn-1 from anywhere in the talon, when r <= 2, or when both cards of
   rank r - 1 of the other colour are home and the card of rank r - 2 of the
   other suit of X's colour is home too. Then ``dist`` after it is
   ``dist(S) - 1`` (``dist(S') <= dist(S) - 1``; a child's is never less):

   *Lemma (a closed home set).* Let K be a set of home cards, closed
   downwards in each suit, such that every card that may lie on a card of K
   in a column is in K. Then from any winnable state some shortest winning
   line moves no card of K. Take any winning line and strike out every move
   of a card of K, and the K cards from every run that moves: only K cards
   ever lie on K cards, so in a column the K cards are a top segment, a run
   with a card outside K moves by that card's rule onto a card outside K
   (or an empty column), and striking K cards off the ends of columns turns
   up no card (a card comes back from home only onto a face-up card or an
   empty column). A card outside K goes home only when the lower cards of its
   suit are home, K's among them, so every foundation top a kept move reads
   is the same. No K card is ever in the talon. The shorter line wins.

   For r >= 3 take K = the other colour's two suits up to r - 1, X's suit up
   to r - 1 and the other suit of X's colour up to r - 2: closed (the cards
   that lie on a card of rank k are the other colour's of rank k - 1), home
   by the condition, and holding both cards that may lie on X and the card X
   covers on its foundation. In a shortest line that moves no K card nothing
   ever lies on X and X's foundation never changes until X goes home; strike
   every move of X alone, and X from the runs it ends, and play the rest from
   S': X only covered its column (its place may now show the card beneath
   sooner), nothing was ever put on it, and at turn-1 every other talon card
   is still a talon play away. X's move home was struck, so the line is at
   least one move shorter. For r <= 2 the same holds without the condition:
   only aces of the other colour can lie on a 2, and nothing lies on an ace,
   so in S' every such ace (and the ace under X on its foundation) is sent
   home the first time the line moves it, from the same place (at turn-3
   the same talon play takes it home instead of onto a 2), and its later
   moves are struck: a card with nothing on it only ever blocks.

   Why the condition on the other suit of X's colour: cards may come back
   from the foundations (the rules' fifth move), so a card of rank r - 1 of
   the other colour may come back onto X for that suit's r - 2 to leave a
   column; "both cards one rank lower home" alone is not safe here
   (``test_the_naive_safe_rule_loses_won_positions``: a King sent home at
   once that a Queen needed back on the table).
   Not at turn-3 from the talon: taking a card out of the cycle moves every
   later card's place among the threes.
4. **First empty column** (``first_empty``): a King (or a King-headed run)
   goes only into the first empty column: the children for two empty
   columns differ by the order of the columns (rule 2).
5. **No King shuffle**: a whole column headed by a King is never moved into
   an empty column: the state after it is the one before up to the order of
   the columns, the same ``dist``, so it begins no shortest line.
6. **Foundation cards back only when they can help**
   (``useful_returns``): the top Y of a foundation (rank q) never comes back
   onto a column when both cards of rank q - 1 of the other colour are home
   and the card of rank q - 2 of the other suit of Y's colour is home. K =
   those suits up to those ranks and Y's own suit up to q is closed and home
   (rule 3's lemma), so some shortest winning line never moves Y; a line
   that begins by moving Y can be made shorter, so none is shortest.
7. **Dead test** (``dead_test``): a column holds a card X (not an ace, not a
   King) at or below its lowest face-up card, with the card X needs on its
   foundation (rank - 1, its suit) and both cards X may lie on (rank + 1, the
   other colour) all beneath it in the same column. X can never leave: not
   home (the card it needs is under it), not onto a column (both places are
   under it), not with a run (nothing below it is face up), not into an
   empty column (not a King); so the card beneath it never goes home.

8. **Waiting moves wait for their use** (``used_builds``). Three kinds of
   move change only where cards lie and could as well be played later: a run
   lifted off a face-up card U (onto U's twin, the other card of U's rank
   and colour), a whole column with nothing face down moved onto another
   (it empties the column), and at turn-1 a talon card put on a column
   (every talon card is a talon play away at any time). Each has *uses*: U
   goes home or a card comes onto U; a King comes into the empty column; a
   card comes onto the talon card. Until its first use a waiting move
   commutes with every move of the line (no other move reads U, the empty
   column or the talon card; a run that carries the moved cards along moves
   without them and they follow onto the same card; a run that ends in U and
   moves on before U's use may take the lifted run along instead, which then
   follows from U's new place onto the same card, the same two moves' length
   and end; and a line that moves them back, or moves the talon card on or
   home, is not shortest). So a shortest winning line can be put in order, keeping
   its length, so that between each waiting move and its first use come
   only waiting moves: take the last waiting move that breaks this and move
   it to just before its first use; only earlier moves can come to break it
   (those whose use it was), so the last breaking move lies earlier each
   time and this ends. Such a line begins with a chain: a waiting move, its
   use, that move's use if it waits too, and so on to a move that does not
   wait (a card turned up, sent home, brought back, or played from the
   turn-3 talon). Waiting moves turn no card up, send none home, bring none
   back and take cards out of the talon only onto columns, so where each
   card of the chain lies when the line begins (face up on a column, in the
   talon, on a foundation's top) already shows the chain. ``Uses`` asks
   exactly that, generously (where in doubt it says yes), and a waiting move
   with no such chain is not tried: the first move of an ordered line is
   always kept.

9. **Cards back from a foundation wait for their use** (``held_returns``). A
   return of a foundation's top Y onto a column's last card B is a waiting
   move too (rule 8), whose uses are a card coming onto Y and the next card
   of Y's suit coming back after it (the only other move that reads the
   foundation's top, besides Y going home again). Until its first use
   nothing reads Y's place or B (B is covered), a run that carries Y along
   moves without it and Y follows, and a line that moves Y alone onto the
   other card it fits (it could have gone there at once) or home again is
   not shortest. So rule 8's ordering holds with returns among the waiting
   moves, and a line's first return begins a chain that ends in a card coming
   onto Y or onto a lower card of Y's suit brought back after it;
   ``returns_used`` asks exactly that, through ``Uses.held``, generously.

10. **A lifted run and its use are one move** (``paired_lifts``, the compiled
    core's alone; this reference keeps rule 8's test for such runs). Take a
    shortest winning line ordered as in rule 8 whose first move is a run W
    lifted off a face-up card U, and its first use V (U home, or the head's
    twin H' onto U: nothing else can come onto U). Every move between W and V
    waits (rule 8), and none is a use of W. Each of them either enables V, or
    not. The only moves that can enable V are returns that bring H' to its
    foundation's top (H' face up on a column moves with whatever lies on it;
    at turn-3 waiting moves leave the talon, and so H''s reach, alone; U's
    foundation only ever changes by U itself, since a line that brings a
    lower card of U's suit back before U goes home is not shortest). Those
    returns touch neither U nor the column W lands on (it was covered when
    they were played), so they can be played before W, keeping every rule-8
    order (a waiting move may wait across another). The rest commute with V:
    none puts a card on U or moves H' (a line that moves H' twice is not
    shortest), and a run that carries H' or ends in U moves the same cards in
    the other order, as in rule 8. So some shortest line has V right after W,
    and W is tried only together with a use: U home, or H' onto U from a
    column (a run it heads, itself held to rule 8's test when it waits), the
    talon (at turn-1 when a card can then come onto H') or its foundation's
    top (rule 9). The state between the two is never stored, and a run is
    never lifted off a card just to sit elsewhere.

The greedy pass (``exact=False``) may prune unsoundly (it never says
"lost"): beyond rules 3 to 10 it forces a safe home move from the turn-3
talon too, lifts a run off a face-up card only when that card then goes
home, and never takes a card back from a foundation. Every win it finds is
a real line. It runs as restarts (``greedy``): one walk in the fixed order
above, then walks whose order is blurred by a seeded random amount, each
allowed 1.3 times the nodes of the one before. A depth-first walk that turns
wrong early spends its whole budget below that turn, while most deals are
won within a few thousand nodes in some order, so short walks in several
orders find far more wins than one long walk (deals 1-100 at 1 s: 87 won at
turn-1 against 79 with one walk).
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from patience.cards import DECK_SIZE, RANK
from patience.klondike import Position, parse_move
from patience.protocol import Status

from ...driver import Budget, GameSearch, Result, Verdict, remaining, search_pass, split

_core: Any
try:  # the compiled core (``_core.c``), built by the install step (setup.py)
    _core = importlib.import_module("solver_worker.games.klondike._core")
except ImportError:  # pragma: no cover - a checkout without a compiler
    _core = None

# The core's table of states entered, at most (MB): 32 bytes a state. The decide
# runs of every deal raise it (``solve(table_mb=...)``).
TABLE_MB: Final = 512

COLUMN_COUNT: Final = 7
SUITS: Final = 4
SUIT_SIZE: Final = 13
KING: Final = 13
MAX_TALON: Final = 24
GREEDY_SHARE: Final = 0.5
VERDICT_OF: Final[dict[str, Verdict]] = {"won": "won", "exhausted": "lost", "budget": "unknown"}

SUIT: Final = tuple(card // SUIT_SIZE for card in range(DECK_SIZE))
RED: Final = tuple(SUIT[card] >= 2 for card in range(DECK_SIZE))  # hearts and diamonds
# ONTO[card][target]: card may lie on target in a column (one rank lower, other colour).
ONTO: Final = tuple(
    tuple(RANK[target] == RANK[card] + 1 and RED[card] != RED[target]
          for target in range(DECK_SIZE))
    for card in range(DECK_SIZE)
)
# HOLDS[card]: the two cards that may lie on it (rank - 1, other colour; none on an ace);
# BASES[card]: the two it may lie on (rank + 1, other colour; none for a King).
HOLDS: Final = tuple(tuple(c for c in range(DECK_SIZE) if ONTO[c][card])
                     for card in range(DECK_SIZE))
BASES: Final = tuple(tuple(c for c in range(DECK_SIZE) if ONTO[card][c])
                     for card in range(DECK_SIZE))
# The suits of the other colour, and the other suit of the same colour.
OTHER_COLOUR: Final = ((2, 3), (2, 3), (0, 1), (0, 1))
TWIN_SUIT: Final = (1, 0, 3, 2)

# Move texts: columns t1..t7, foundations f1..f4 by suit, the waste w.
COLUMN_HOME_TEXT: Final = tuple(tuple(f"t{c + 1}-f{s + 1}" for s in range(SUITS))
                                for c in range(COLUMN_COUNT))
WASTE_HOME_TEXT: Final = tuple(f"w-f{s + 1}" for s in range(SUITS))
WASTE_TO_TEXT: Final = tuple(f"w-t{c + 1}" for c in range(COLUMN_COUNT))
RETURN_TEXT: Final = tuple(tuple(f"f{s + 1}-t{c + 1}" for c in range(COLUMN_COUNT))
                           for s in range(SUITS))
RUN_TEXT: Final = tuple(
    tuple(tuple(f"t{a + 1}-t{b + 1}" + (f"x{n}" if n > 1 else "") for n in range(KING + 1))
          for b in range(COLUMN_COUNT))
    for a in range(COLUMN_COUNT)
)


def _reach(draw: int, n: int, ptr: int) -> tuple[tuple[int, str], ...]:
    """The pointers a turn-``draw`` talon of ``n`` cards reaches from ``ptr`` (waste
    tops only: 1 or more), each with the D and R that get there, nearest first."""
    found: dict[int, str] = {}
    at, visited = ptr, set()
    steps: list[str] = []
    while at not in visited:
        visited.add(at)
        if at >= 1 and at not in found:
            found[at] = " ".join(steps)
        if at < n:
            at, steps = min(at + draw, n), [*steps, "D"]
        elif n:
            at, steps = 0, [*steps, "R"]
    return tuple(found.items())


# REACH[draw][n][ptr]
REACH: Final = {
    draw: tuple(tuple(_reach(draw, n, ptr) for ptr in range(n + 1)) for n in range(MAX_TALON + 1))
    for draw in (1, 3)
}


def pointer_class(draw: int, n: int, ptr: int) -> int:
    """Rule 2: 0 for a pointer every other of the main cycle reaches and is reached
    from (at turn-1 all of them), else the pointer itself."""
    return 0 if ptr % draw == 0 or ptr == n else ptr


@lru_cache(maxsize=1 << 14)
def safe_cards(found: tuple[int, ...], naive: bool = False) -> tuple[int, ...]:
    """Rule 3: the cards (at most one a suit) whose home move is safe.

    ``naive`` (tests only): the rule without its condition on the twin suit."""
    safe = []
    for suit in range(SUITS):
        rank = found[suit] + 1
        if rank > KING:
            continue
        other = OTHER_COLOUR[suit]
        if rank <= 2 or (found[other[0]] >= rank - 1 and found[other[1]] >= rank - 1
                         and (naive or found[TWIN_SUIT[suit]] >= rank - 2)):
            safe.append(suit * SUIT_SIZE + rank - 1)
    return tuple(safe)


def useless_return(found: tuple[int, ...], suit: int) -> bool:
    """Rule 6: the foundation's top card cannot help back on a column."""
    rank = found[suit]
    other = OTHER_COLOUR[suit]
    return (found[other[0]] >= rank - 1 and found[other[1]] >= rank - 1
            and found[TWIN_SUIT[suit]] >= rank - 2)


@lru_cache(maxsize=1 << 16)
def column_dead(column: bytes) -> bool:
    """Rule 7 for one column (its face-down count first, then its cards)."""
    down = column[0]
    cards = column[1:]
    if not down:
        return False
    place = {card: index for index, card in enumerate(cards)}
    for index in range(1, min(down, len(cards) - 1) + 1):
        card = cards[index]
        rank = RANK[card]
        if rank == 1 or rank == KING:
            continue
        below = place.get(card - 1, index)
        if below >= index:
            continue
        above = [(SUIT_SIZE * suit + rank) for suit in OTHER_COLOUR[SUIT[card]]]
        if all(place.get(holder, index) < index for holder in above):
            return True
    return False


class State:
    """A Klondike table for the search (module docstring). Not changed once made."""

    __slots__ = ("columns", "talon", "ptr", "found", "home", "key")

    def __init__(self, columns: tuple[bytes, ...], talon: bytes, ptr: int,
                 found: tuple[int, ...], home: int) -> None:
        self.columns = columns
        self.talon = talon
        self.ptr = ptr
        self.found = found
        self.home = home
        self.key: bytes | None = None

    @classmethod
    def of(cls, position: Position) -> State:
        columns = tuple(bytes((position.down[i],)) + bytes(position.columns[i])
                        for i in range(COLUMN_COUNT))
        talon = bytes(position.waste) + bytes(reversed(position.stock))
        return cls(columns, talon, len(position.waste), tuple(position.foundations),
                   sum(position.foundations))

    def __repr__(self) -> str:
        return (f"State(columns={self.columns!r}, talon={self.talon!r}, ptr={self.ptr}, "
                f"found={self.found}, home={self.home})")


@dataclass(frozen=True, slots=True)
class Pruning:
    """Which of the exact pass's rules are on (all, unless a test compares)."""

    symmetry: bool = True
    talon_classes: bool = True
    safe_home: bool = True
    first_empty: bool = True
    useful_returns: bool = True
    used_builds: bool = True
    dead_test: bool = True
    held_returns: bool = True
    paired_lifts: bool = True  # rule 10: the compiled core only (the reference ignores it)
    naive_safe: bool = False  # tests only: rule 3 without its twin-suit condition (unsound)


ALL_RULES: Final = Pruning()
NO_RULES: Final = Pruning(False, False, False, False, False, False, False, False, False)
# The core's flag for each rule (``_core.c``: P_SYMMETRY ... P_NAIVE), in field order.
FLAG_OF: Final = {"symmetry": 1, "talon_classes": 2, "safe_home": 4, "first_empty": 8,
                  "useful_returns": 16, "used_builds": 32, "dead_test": 64, "naive_safe": 128,
                  "held_returns": 256, "paired_lifts": 512}


def core_flags(pruning: Pruning) -> int:
    return sum(flag for name, flag in FLAG_OF.items() if getattr(pruning, name))


# -- the moves on the compact state ------------------------------------------

def lift(column: bytes, count: int) -> tuple[bytes, bool]:
    """The column without its last ``count`` cards, and whether a card turned up."""
    rest = column[:-count]
    down = rest[0]
    if down and len(rest) == down + 1:
        return bytes((down - 1,)) + rest[1:], True
    return rest, False


def with_home(found: tuple[int, ...], suit: int, step: int) -> tuple[int, ...]:
    return (*found[:suit], found[suit] + step, *found[suit + 1:])


def replace(columns: tuple[bytes, ...], index: int, column: bytes) -> tuple[bytes, ...]:
    return (*columns[:index], column, *columns[index + 1:])


Child = tuple[str, State]


KINGS: Final = tuple(suit * SUIT_SIZE + KING - 1 for suit in range(SUITS))
FACE_UP: Final = 5  # loc: column << FACE_UP | index (in the column's bytes, count first)
INDEX_MASK: Final = (1 << FACE_UP) - 1


def face_up_places(columns: tuple[bytes, ...]) -> dict[int, int]:
    """Every face-up card's column and index (``column << FACE_UP | index``)."""
    loc: dict[int, int] = {}
    for i, column in enumerate(columns):
        base = i << FACE_UP
        for j in range(column[0] + 1, len(column)):
            loc[column[j]] = base | j
    return loc


class KlondikeSearch:
    """Klondike's ``GameSearch`` over ``State`` (rules in the module docstring)."""

    def __init__(self, draw: int, pruning: Pruning = ALL_RULES, seed: int | None = None
                 ) -> None:
        self.draw = draw
        self.pruning = pruning
        self.reach = REACH[draw]
        self.on_path: set[Hashable] = set()
        # A greedy restart's order: each kind's place (SHUFFLE) blurred by a random amount.
        self.rng = None if seed is None else random.Random(seed)

    def won(self, state: State) -> bool:
        return state.home == DECK_SIZE

    def key(self, state: State) -> Hashable:
        key = state.key
        if key is None:
            pruning = self.pruning
            columns = sorted(state.columns) if pruning.symmetry else state.columns
            talon = state.talon
            ptr = state.ptr
            if pruning.talon_classes:
                ptr = pointer_class(self.draw, len(talon), ptr)
            key = b"\xff".join(columns) + b"\xfe" + talon + bytes((ptr,))
            state.key = key
        return key

    def dead(self, state: State) -> bool:
        if not self.pruning.dead_test:
            return False
        return any(map(column_dead, state.columns))

    def children(self, state: State, exact: bool) -> Iterator[Child]:
        key = self.key(state)
        on_path = self.on_path
        on_path.add(key)
        try:
            for move, child in self.moves(state, exact):
                if self.key(child) not in on_path:
                    yield move, child
        finally:
            on_path.discard(key)

    # ---- the moves, best first ----

    def moves(self, state: State, exact: bool) -> list[Child]:
        """The children in the order to try them: home moves and runs that turn a card
        up (deepest column first), other home moves, talon plays (nearest first),
        runs that empty a column, runs that uncover a face-up card, cards back from
        the foundations."""
        pruning = self.pruning
        if pruning.safe_home or not exact:
            forced = self._safe_move(state, exact)
            if forced is not None:
                return [forced]
        columns, found, talon = state.columns, state.found, state.talon
        tops = [column[-1] if len(column) > 1 else -1 for column in columns]
        empties = [i for i in range(COLUMN_COUNT) if tops[i] < 0]
        if pruning.first_empty:
            empties = empties[:1]
        loc = face_up_places(columns)
        used = pruning.used_builds or not exact
        turning: list[tuple[int, Child]] = []
        others: list[Child] = []
        emptying: list[Child] = []
        partial: list[Child] = []
        for i in range(COLUMN_COUNT):
            card = tops[i]
            if card >= 0 and found[SUIT[card]] == RANK[card] - 1:
                column, turned = lift(columns[i], 1)
                child = State(replace(columns, i, column), talon, state.ptr,
                              with_home(found, SUIT[card], 1), state.home + 1)
                move = COLUMN_HOME_TEXT[i][SUIT[card]]
                if turned:
                    turning.append((-columns[i][0], (move, child)))
                else:
                    others.append((move, child))
        for b in range(COLUMN_COUNT):
            target = tops[b]
            heads = HOLDS[target] if target >= 0 else KINGS if b in empties else ()
            for head in heads:
                spot = loc.get(head)
                if spot is None:
                    continue
                a, j = spot >> FACE_UP, spot & INDEX_MASK
                if a == b:
                    continue
                source = columns[a]
                down = source[0]
                if j == down + 1:
                    if not down and target < 0:
                        continue  # rule 5: a King shuffle
                    kind = REVEALS if down else EMPTIES
                else:
                    kind = PARTIAL
                n = len(source) - j
                if kind == EMPTIES:
                    if used and not Uses(state, loc, self.draw, a, j).king_for_empty():
                        continue
                elif kind == PARTIAL:
                    if not exact:
                        under = source[j - 1]
                        if found[SUIT[under]] != RANK[under] - 1:
                            continue
                    elif used and not Uses(state, loc, self.draw, a, j).uncovered(
                            a, j - 1, source[j]):
                        continue
                rest, _ = lift(source, n)
                moved = replace(replace(columns, a, rest), b, columns[b] + source[j:])
                child = State(moved, talon, state.ptr, found, state.home)
                move = RUN_TEXT[a][b][n]
                if kind == REVEALS:
                    turning.append((-down, (move, child)))
                elif kind == EMPTIES:
                    emptying.append((move, child))
                else:
                    partial.append((move, child))
        turning.sort(key=_depth)
        children = [child for _, child in turning]
        children += others
        talon_from = len(children)
        self._talon_plays(state, tops, empties, loc, used and self.draw == 1, children)
        talon_to = len(children)
        children += emptying
        children += partial
        if exact:
            self._returns(state, tops, empties, loc, children)
        if self.rng is not None and len(children) > 1:
            after_emptying = talon_to + len(emptying)
            children = self._blur(children, len(turning), talon_from, talon_to, after_emptying,
                                  after_emptying + len(partial))
        return children

    def _blur(self, children: list[Child], *bounds: int) -> list[Child]:
        """A greedy restart's order: each child's kind (``bounds``: where each kind's
        children end) gives its place (SHUFFLE), plus a random amount."""
        rnd = self.rng.random if self.rng is not None else random.random
        places: list[tuple[float, int]] = []
        kind = 0
        for index in range(len(children)):
            while kind < len(bounds) and index >= bounds[kind]:
                kind += 1
            places.append((SHUFFLE[kind] + rnd() * SHUFFLE_NOISE, index))
        places.sort()
        return [children[index] for _, index in places]

    def _safe_move(self, state: State, exact: bool) -> Child | None:
        """Rule 3's forced move, if any (greedy: at turn-3 from the talon too)."""
        safe = safe_cards(state.found, self.pruning.naive_safe)
        if not safe:
            return None
        columns = state.columns
        for i in range(COLUMN_COUNT):
            column = columns[i]
            if len(column) > 1 and column[-1] in safe:
                card = column[-1]
                rest, _ = lift(column, 1)
                return COLUMN_HOME_TEXT[i][SUIT[card]], State(
                    replace(columns, i, rest), state.talon, state.ptr,
                    with_home(state.found, SUIT[card], 1), state.home + 1)
        if self.draw == 1 or not exact:
            talon = state.talon
            for card in safe:
                index = talon.find(card)
                if index < 0:
                    continue
                for q, turns in self.reach[len(talon)][state.ptr]:
                    if q == index + 1:
                        return self._talon_home(state, q, turns, card)
        return None

    def _talon_home(self, state: State, q: int, turns: str, card: int) -> Child:
        talon = state.talon
        child = State(state.columns, talon[:q - 1] + talon[q:], q - 1,
                      with_home(state.found, SUIT[card], 1), state.home + 1)
        text = WASTE_HOME_TEXT[SUIT[card]]
        return (f"{turns} {text}" if turns else text), child

    def _talon_plays(self, state: State, tops: list[int], empties: list[int],
                     loc: dict[int, int], chain: bool, children: list[Child]) -> None:
        """Every card the pointer reaches, home or onto a column (nearest first).

        With ``chain`` (turn-1, rule 8), onto a column only a card that a card in
        reach may then lie on."""
        talon, found, columns = state.talon, state.found, state.columns
        for q, turns in self.reach[len(talon)][state.ptr]:
            card = talon[q - 1]
            rest = talon[:q - 1] + talon[q:]
            prefix = f"{turns} " if turns else ""
            suit = SUIT[card]
            if found[suit] == RANK[card] - 1:
                children.append((prefix + WASTE_HOME_TEXT[suit],
                                 State(columns, rest, q - 1, with_home(found, suit, 1),
                                       state.home + 1)))
            targets = _targets(card, tops, empties, loc)
            if not targets or (chain and not Uses(state, loc, 1).held(card)):
                continue
            for b in targets:
                children.append((prefix + WASTE_TO_TEXT[b],
                                 State(replace(columns, b, columns[b] + bytes((card,))), rest,
                                       q - 1, found, state.home)))

    def _returns(self, state: State, tops: list[int], empties: list[int],
                 loc: dict[int, int], children: list[Child]) -> None:
        """Foundation tops back onto columns (rule 6 keeps only those that may help)."""
        found = state.found
        for suit in range(SUITS):
            rank = found[suit]
            if not rank or (self.pruning.useful_returns and useless_return(found, suit)):
                continue
            card = suit * SUIT_SIZE + rank - 1
            if self.pruning.held_returns and not returns_used(state, loc, self.draw, suit):
                continue
            for b in _targets(card, tops, empties, loc):
                children.append((RETURN_TEXT[suit][b], State(
                    replace(state.columns, b, state.columns[b] + bytes((card,))),
                    state.talon, state.ptr, with_home(found, suit, -1), state.home - 1)))


# A restart's places by kind: turning a card up, other home moves, talon plays,
# runs that empty a column, runs that uncover a face-up card.
SHUFFLE: Final = (-4.0, -1.0, -0.5, 0.0, 0.0, 0.5)
SHUFFLE_NOISE: Final = 3.0


def _depth(item: tuple[int, Child]) -> int:
    return item[0]


def _targets(card: int, tops: list[int], empties: list[int], loc: dict[int, int]
             ) -> list[int]:
    """The columns whose last card ``card`` may go onto (a King: the empty ones)."""
    if RANK[card] == KING:
        return empties
    found = []
    for base in BASES[card]:
        spot = loc.get(base)
        if spot is not None and tops[spot >> FACE_UP] == base:
            found.append(spot >> FACE_UP)
    return found


# -- rule 8: what a move that turns nothing up could be for --------------------

def foundation_top(card: int, found: tuple[int, ...]) -> bool:
    return found[SUIT[card]] == RANK[card]


class Uses:
    """Rule 8's test: whether a *waiting move* (a run that uncovers a face-up card,
    a run that empties a column, a turn-1 talon card onto a column) can be followed
    by its use, through a chain of waiting moves that ends in a move that is not
    one. Everything is read in the state before the move; the move lifts column
    ``lifted`` from index ``at`` (``at`` 0: no column is lifted)."""

    __slots__ = ("state", "loc", "turn_1", "lifted", "at", "seen")

    def __init__(self, state: State, loc: dict[int, int], draw: int,
                 lifted: int = -1, at: int = 0) -> None:
        self.state, self.loc, self.turn_1 = state, loc, draw == 1
        self.lifted, self.at = lifted, at
        self.seen: set[int] = set()

    def _lifted_card(self, spot: int) -> bool:
        """A card of the lifted run: it lies elsewhere after the move, so it is
        taken to be of use (a generous answer is a sound one)."""
        return spot >> FACE_UP == self.lifted and spot & INDEX_MASK >= self.at

    def lift(self, column: int, index: int) -> bool:
        """The run from ``index`` up leaves ``column``: it turns a card up, or
        empties the column for a King, or uncovers a card that is used."""
        cards = self.state.columns[column]
        down = cards[0]
        if index == down + 1:
            return bool(down) or self.king_for_empty()
        return self.uncovered(column, index - 1, cards[index])

    def uncovered(self, column: int, index: int, head: int) -> bool:
        """The card at ``index`` of ``column``, just uncovered by a run headed by
        ``head``: it goes home or the head's twin comes onto it (a run that it
        ends moving on is no use: rule 8 says why)."""
        state = self.state
        under = state.columns[column][index]
        if under in self.seen:  # asked already (or being asked): nothing new follows
            return False
        self.seen.add(under)
        if state.found[SUIT[under]] == RANK[under] - 1:
            return True
        return any(holder != head and self.comes(holder, column) for holder in HOLDS[under])

    def comes(self, card: int, onto: int) -> bool:
        """``card`` can come onto a column (``onto``: -1 for a talon card's own
        column) and its move be used: from a column by a run that is used, from
        a foundation, or from the talon (at turn-1 only if a card then comes onto
        it in turn)."""
        state = self.state
        spot = self.loc.get(card)
        if spot is not None:
            if self._lifted_card(spot):
                return True
            column = spot >> FACE_UP
            return column != onto and self.lift(column, spot & INDEX_MASK)
        if foundation_top(card, state.found):
            return True
        if card in state.talon:
            return not self.turn_1 or self.held(card)
        return False

    def held(self, card: int) -> bool:
        """A card can come onto ``card`` (a turn-1 talon card put on a column)."""
        asked = card + DECK_SIZE  # "held" questions apart from "uncovered" ones
        if asked in self.seen:
            return False
        self.seen.add(asked)
        return any(self.comes(holder, -1) for holder in HOLDS[card])

    def king_for_empty(self) -> bool:
        """A King can come into an empty column and its move be used: over face-down
        cards, on a foundation's top, or from the talon (at turn-1 with a Queen to
        come onto it)."""
        state = self.state
        for king in KINGS:
            spot = self.loc.get(king)
            if spot is not None:
                if state.columns[spot >> FACE_UP][0] or self._lifted_card(spot):
                    return True
            elif foundation_top(king, state.found) or (
                    king in state.talon and (not self.turn_1 or self.held(king))):
                return True
        return False


def returns_used(state: State, loc: dict[int, int], draw: int, suit: int) -> bool:
    """Rule 9: the foundation's top may come back only if a card can then come onto
    it, or onto a lower card of its suit brought back after it."""
    return any(Uses(state, loc, draw).held(suit * SUIT_SIZE + rank - 1)
               for rank in range(state.found[suit], 1, -1))


REVEALS: Final = 0
EMPTIES: Final = 1
PARTIAL: Final = 2


def _check_protocol(search: KlondikeSearch) -> GameSearch[State]:
    return search  # mypy checks that the class meets the driver's protocol


def engine_line(line: list[str]) -> list[str]:
    """The search's line (talon plays spell their D and R) as engine moves."""
    return [text for move in line for text in move.split()]


def replay_line(position: Position, line: list[str]) -> bool:
    """Whether ``line`` is legal from ``position`` and wins in the engine."""
    twin = position.copy()
    for text in line:
        twin.apply(parse_move(text))
    return twin.status is Status.WON


# The greedy pass's restarts (``find_line``): the first pass in the fixed order,
# then passes in blurred orders, each allowed FIRST_NODES * GROWTH**k nodes.
FIRST_NODES: Final = 2000
GROWTH: Final = 1.3


def out_of(budget: Budget, began: float, spent: int) -> bool:
    """Whether a budget is spent: ``spent`` nodes since ``began`` (perf_counter)."""
    if budget.nodes is not None and spent >= budget.nodes:
        return True
    return budget.seconds is not None and time.perf_counter() - began >= budget.seconds


def one_pass(state: State, draw: int, budget: Budget, exact: bool, pruning: Pruning,
             seed: int | None = None, compiled: bool | None = None, table_mb: int = TABLE_MB
             ) -> tuple[str, list[str], int]:
    """One walk of the graph from ``state``: (outcome, line, nodes). The compiled core
    (default: when it is built) or this module's reference walk on the driver; both
    take the same rules, and the core's line is already in engine moves."""
    use_core = _core is not None if compiled is None else compiled
    if use_core:
        assert _core is not None
        status, line, nodes = _core.search(
            state.columns, state.talon, state.ptr, bytes(state.found), draw, exact,
            core_flags(pruning), budget.nodes or 0, budget.seconds or 0.0, seed or 0, table_mb)
        return status, line, nodes
    status, line, nodes = search_pass(_check_protocol(KlondikeSearch(draw, pruning, seed)), state,
                                      budget, exact)
    return status, engine_line(line), nodes


def greedy(state: State, draw: int, budget: Budget, pruning: Pruning = ALL_RULES,
           compiled: bool | None = None) -> tuple[str, list[str], int]:
    """The greedy pass with restarts: ("won", engine line, nodes), ("exhausted", [],
    nodes) when its pruned graph holds no win (the order does not change the
    graph, so one exhausted pass ends the restarts), or ("budget", [], nodes).

    Why restarts: a depth-first walk that takes a bad turn early spends its whole
    budget below it, while most deals are won within a few thousand nodes in some
    order; short walks in orders blurred by a seeded random amount (``_blur``)
    find those wins far more often than one long walk (docs in the module)."""
    began = time.perf_counter()
    spent = 0
    cap = float(FIRST_NODES)
    seed: int | None = None
    while True:
        left = remaining(budget, began, spent)
        nodes = int(cap) if left.nodes is None else min(int(cap), left.nodes)
        status, line, used = one_pass(state, draw, Budget(nodes=nodes, seconds=left.seconds),
                                      False, pruning, seed, compiled)
        spent += used
        if status != "budget" or out_of(budget, began, spent):
            return status, line, spent
        seed = 1 if seed is None else seed + 1
        cap *= GROWTH


def find_line(position: Position, budget: Budget, pruning: Pruning = ALL_RULES,
              compiled: bool | None = None) -> tuple[str, list[str], int]:
    """The greedy pass from ``position``: its outcome, its line in engine moves (a
    win's, else empty) and the nodes it spent."""
    return greedy(State.of(position), position.variant.draw, budget, pruning, compiled)


def search_position(position: Position, budget: Budget, exact: bool,
                    pruning: Pruning = ALL_RULES, compiled: bool | None = None
                    ) -> tuple[str, list[str], int]:
    """One pass of the search from ``position``: its outcome, engine line and nodes."""
    return one_pass(State.of(position), position.variant.draw, budget, exact, pruning,
                    compiled=compiled)


def solve(
    position: Position, budget: Budget = Budget(seconds=10.0),
    greedy_share: float = GREEDY_SHARE, pruning: Pruning = ALL_RULES,
    compiled: bool | None = None, table_mb: int = TABLE_MB,
) -> Result:
    """Decide a position: won (with its line in notation), lost or unknown.

    The driver's two passes, each on a fresh search (so that no path of an
    abandoned pass lingers in the cycle guard of the next): the greedy pass
    with its restarts on ``greedy_share`` of the budget, then the exact pass,
    which alone says "lost". Every line is replayed through the engine before
    it is called a win."""
    start = time.perf_counter()
    state = State.of(position)
    draw = position.variant.draw
    status, line, nodes = greedy(state, draw, split(budget, greedy_share), pruning, compiled)
    verdict: Verdict = "won"
    if status != "won":
        status, line, more = one_pass(state, draw, remaining(budget, start, nodes), True,
                                      pruning, compiled=compiled, table_mb=table_mb)
        nodes += more
        verdict = VERDICT_OF[status]
    moves = line if verdict == "won" else []
    if verdict == "won" and not replay_line(position, moves):
        raise AssertionError(f"the search's line does not win: {' '.join(moves)}")
    return Result(verdict=verdict, line=moves, nodes=nodes,
                  ms=(time.perf_counter() - start) * 1000)
