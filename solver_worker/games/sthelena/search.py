"""St. Helena's search on the one driver: won (with a line), lost, or unknown.

The state is compact: each card by its face only (``card % 52``: the two
decks' twins play alike everywhere, so which copy lies where never decides a
move), the stock as bytes with its top last, the twelve piles as bytes bottom
first, the eight foundations' wanted ranks, and the redeals left. The search's
moves are the game's own notation, so a winning line is a real one; ``solve``
still replays it through the engine before it says "won".

The *final stage* is: stock empty and no redeal left. From then on no card is
dealt and no pile is gathered, so only home moves and builds remain. Each rule
below, with the argument that makes it sound for a "lost" verdict (the exact
pass, ``exact=True``; the greedy pass may prune unsoundly because it never
says "lost"):

1. **Cycles** (the driver assumes none; builds can undo each other once the
   stock is empty). A child whose key is on the current path is skipped: the
   key is entered when its children start and left when they end. With a
   table of visited states, depth-first search from the start still finds a
   path to a win whenever one exists (a state marked failed because its only
   way on went through an ancestor is reached again through that ancestor,
   which is still being searched), so the verdict at the start is exact.
   Each pass runs on a fresh ``StHelenaSearch``, so no path of a pass that
   ended early (won or out of budget) lingers in the next one's guard.
2. **Symmetry** (pruning, final stage): the key lists the piles sorted. With
   no D and no R left, no rule names a pile's place (the first-round
   restrictions need a stock; the redeal order needs an R), so two states that
   differ by the order of their piles have the same moves up to renaming and
   the same verdict.
3. **No emptying build** (pruning, final stage): a build that moves a pile's
   only card X onto Y is never tried. Call the state before it S and after it
   S'. Map S' to S by reading "the cards above Y on Y's pile" in S' as "the
   pile X stood on" in S: every top card of S' is a top card of S (S has Y on
   top as well), every move of S' is a move of S on the same card, and once
   those cards are gone both states are equal (X's old pile is empty in both,
   and no D will fill it). So a winning line of n moves through S' gives one of
   n - 1 moves from S, and by induction on the length one that uses no
   emptying build.
4. **Forced home move** (final stage): a top card X (suit s, rank r) that fits
   foundation f is played at once, as the state's only child, when the other
   copy of X is home and both copies of the ranks r - 1 and r + 1 of s are
   home (or do not exist). Then X can move onto nothing and nothing can move
   onto X; and f wants r and only X or its twin fits it, the twin being home,
   so in any winning line from the state X stays where it is until it goes to
   f, and f takes nothing before it. Playing X first, then that line without
   X's move, is legal throughout (the card under X is uncovered sooner and f
   wants r + 1 sooner, which only adds moves) and meets it after X's move.
5. **Dead test** (final stage): no home move and no build (no legal move at
   all). It is the rules' own "lost"; it is asked before the children are made
   so that such a state costs one look. (A stronger test, a same-suit blocking
   cycle between piles, is left for later: with builds in both directions it
   needs a real argument.)
6. **Reach test** (no redeal left, a relaxation): the position is dead when some
   card can never be uncovered even if time is ignored. Three kinds of event
   can happen to a card X on the table: T(X), every card that lay above X in
   its pile has left it (X is, or has been, a top card); L(X), X leaves its
   pile; H(X), X goes home. In any line, each event needs others that came
   before it:
   - T(X) needs L(Y) for every Y above X in its pile (cards land only on
     tops, so those cards stay above X until each leaves);
   - H(X) needs T(X) and a foundation f of X's suit that wants X's rank once
     every rank between f's wanted rank and X's has gone to f, so for each
     such rank some copy on the table had its H first (a rank f still needs
     has a copy on the table: f has not taken it);
   - L(X) needs T(X) and either H(X) or a build onto a card N of X's suit one
     rank away, N being a top card then, so T(N) came first.
   The least set of events closed under these rules (computed by growing it
   from nothing until no rule adds one) therefore holds every event of every
   line, by induction along the line. A win sends every card home, so every
   card has its T; if the set misses some card's T, no line wins. The set
   asks less than the game does (twins may both count for one foundation,
   N may be gone by the time X is on top, a build's target is not covered
   by it), which only makes the test fire less often, never wrongly.
   It holds while the stock lasts too, once no redeal is left: no pile is
   gathered again and a dealt card lands only on a top, so the cards on the
   table now keep their order beneath whatever lands on them (which only adds
   cards that must leave first), and each stock card is a top card once dealt,
   so the test counts it as one from the start and lets it cover nothing. The
   place restrictions and the ban on builds while the stock lasts only take
   moves away. With a redeal left it says nothing: a gathering reorders all.

The greedy pass plays the first home move it finds as the only child at any
stage (before a D this changes which piles a D fills, so it can miss wins;
every win it finds is real), tries a build only when the card it uncovers
then fits a foundation or can itself be built on, and otherwise deals or
redeals. Both passes try builds that uncover a home card first.

Offline runs may spend a share of the budget on *restarts* between the two
(``restart_share``): the exact pass's moves, each group (home moves, builds,
the deal or redeal) in a random order and now and then the deal first, searched
depth first up to a node cap that follows the Luby sequence. One long depth-first
pass stays inside the first final stage it reaches, whose builds it cannot
exhaust, and never revisits the choices made before it (which home moves to play
before a deal, when to deal); restarts vary those. A restart only looks for a win
(its failures prove nothing), and every rule it uses keeps some win of a winnable
state, so any line it finds is real, and is replayed like the others.

**The compiled core** (``_core.c`` beside this module, built by setup.py) runs one
whole pass (greedy, exact, or the whole restarts loop) on the same graph in the
same order, with exact keys of its own; its restarts draw Python's own random
numbers (MT19937 seeded as ``random.Random(seed)``), so a seed gives the same
restarts in both. ``solve`` runs it when it is built (``compiled=None``); this
module stays the reference, and the tests hold the core to it node for node. When
its table of failed states cannot grow (``table_mb``), a pass ends as "budget".
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Final

from patience.cards import DECK_SIZE, RANK, suit_of
from patience.protocol import Status
from patience.sthelena import FOUNDATIONS, PILES, Position, parse_move
from patience.sthelena.position import ALLOWED_WHILE_STOCK, FOUNDATION_SUIT, wants_after

from ...driver import Budget, GameSearch, Outcome, Result, Verdict, remaining, search_pass, split

_core: Any
try:  # the compiled core (``_core.c``), built by the install step (setup.py)
    _core = importlib.import_module("solver_worker.games.sthelena._core")
except ImportError:  # pragma: no cover - the reference walk still decides
    _core = None

PILE_COUNT: Final = len(PILES)
FOUNDATION_COUNT: Final = len(FOUNDATIONS)
ALL_FOUNDATIONS: Final = tuple(range(FOUNDATION_COUNT))
CARD_COUNT: Final = 2 * DECK_SIZE
GREEDY_SHARE: Final = 0.5
VERDICT_OF: Final[dict[str, Verdict]] = {"won": "won", "exhausted": "lost", "budget": "unknown"}
SUIT: Final = tuple(suit_of(card) for card in range(DECK_SIZE))
FACE_RANK: Final = RANK
HOME_TEXT: Final = tuple(
    tuple(f"P@{PILES[p]}@{FOUNDATIONS[f]}" for f in ALL_FOUNDATIONS) for p in range(PILE_COUNT)
)
BUILD_TEXT: Final = tuple(
    tuple(f"P@{PILES[p]}@{PILES[q]}" for q in range(PILE_COUNT)) for p in range(PILE_COUNT)
)
# (foundation, rank it wants) -> the face that fits it; rank 0 (complete) fits nothing.
FITTING_FACE: Final = tuple(
    tuple(-1 if rank == 0 else (FOUNDATION_SUIT[f] * 13 + rank - 1) for rank in range(14))
    for f in ALL_FOUNDATIONS
)


@dataclass(frozen=True, slots=True)
class State:
    stock: bytes  # faces, top last
    piles: tuple[bytes, ...]  # faces, bottom first
    wants: bytes  # rank each foundation wants next, 0 once complete
    redeals: int
    home: int

    @classmethod
    def of(cls, position: Position) -> State:
        return cls(
            stock=bytes(card % DECK_SIZE for card in position.stock),
            piles=tuple(bytes(card % DECK_SIZE for card in pile) for pile in position.piles),
            wants=bytes(position.wants), redeals=position.redeals_left, home=position.home,
        )

    @property
    def final_stage(self) -> bool:
        return not self.stock and not self.redeals


@dataclass(frozen=True, slots=True)
class Pruning:
    """Which of the exact pass's rules are on (all, unless a test compares)."""

    symmetry: bool = True
    no_emptying_build: bool = True
    forced_home: bool = True
    dead_test: bool = True
    reach_test: bool = True


ALL_RULES: Final = Pruning()
NO_RULES: Final = Pruning(False, False, False, False, False)
TABLE_MB: Final = 4096  # the compiled core's table of failed states, at most


def core_flags(pruning: Pruning) -> int:
    """The core's flag for each rule (``_core.c``: P_SYMMETRY ... P_REACH_TEST), in field
    order."""
    return sum(1 << i for i, rule in enumerate(fields(Pruning)) if getattr(pruning, rule.name))


# -- the moves on the compact state ------------------------------------------

@lru_cache(maxsize=1 << 16)
def wanted_faces(wants: bytes) -> dict[int, tuple[int, ...]]:
    """The faces the foundations want (at most eight), each with its foundations."""
    wanted: dict[int, tuple[int, ...]] = {}
    for foundation in ALL_FOUNDATIONS:
        face = FITTING_FACE[foundation][wants[foundation]]
        if face >= 0:
            wanted[face] = (*wanted.get(face, ()), foundation)
    return wanted


def home_moves(state: State) -> Iterator[tuple[int, int]]:
    """(pile, foundation) of every home move, pile order then foundation order."""
    piles = state.piles
    wanted = wanted_faces(state.wants)
    restricted = bool(state.stock)
    for pile in range(PILE_COUNT):
        cards = piles[pile]
        if cards and cards[-1] in wanted:
            for foundation in wanted[cards[-1]]:
                if not restricted or foundation in ALLOWED_WHILE_STOCK[pile]:
                    yield pile, foundation


# The faces a face may go onto: same suit, one rank above or below.
NEIGHBOURS: Final = tuple(
    tuple(face + step for step in (-1, 1) if 1 <= FACE_RANK[face] + step <= 13)
    for face in range(DECK_SIZE)
)


def build_moves(state: State) -> Iterator[tuple[int, int]]:
    """(source pile, target pile) of every build (none while the stock lasts)."""
    if state.stock:
        return
    piles = state.piles
    piles_by_top: dict[int, list[int]] = {}
    for pile in range(PILE_COUNT):
        if piles[pile]:
            piles_by_top.setdefault(piles[pile][-1], []).append(pile)
    for source in range(PILE_COUNT):
        cards = piles[source]
        if not cards:
            continue
        for face in NEIGHBOURS[cards[-1]]:
            for target in piles_by_top.get(face, ()):
                yield source, target


def play_home(state: State, pile: int, foundation: int) -> State:
    piles = list(state.piles)
    card = piles[pile][-1]
    piles[pile] = piles[pile][:-1]
    wants = bytearray(state.wants)
    wants[foundation] = wants_after(foundation, FACE_RANK[card])
    return State(state.stock, tuple(piles), bytes(wants), state.redeals, state.home + 1)


def build(state: State, source: int, target: int) -> State:
    piles = list(state.piles)
    piles[target] = piles[target] + piles[source][-1:]
    piles[source] = piles[source][:-1]
    return State(state.stock, tuple(piles), state.wants, state.redeals, state.home)


def deal(state: State) -> State:
    """D: fill the empty piles in order if any, else one card on every pile."""
    piles = list(state.piles)
    stock = state.stock
    empty = [pile for pile in range(PILE_COUNT) if not piles[pile]]
    for pile in empty or range(PILE_COUNT):
        if not stock:
            break
        piles[pile] = piles[pile] + stock[-1:]
        stock = stock[:-1]
    return State(stock, tuple(piles), state.wants, state.redeals, state.home)


def redeal(state: State) -> State:
    """R: p12's bottom card becomes the top; the stock (top last) reads p1 top..bottom first."""
    stock = b"".join(pile[::-1] for pile in state.piles)
    empty = tuple(b"" for _ in range(PILE_COUNT))
    return State(stock, empty, state.wants, state.redeals - 1, state.home)


# -- the search --------------------------------------------------------------

def home_counts(state: State) -> list[int]:
    """How many copies of each face are home: 2 less those on the table or in the stock."""
    counts = [2] * DECK_SIZE
    for pile in state.piles:
        for card in pile:
            counts[card] -= 1
    for card in state.stock:
        counts[card] -= 1
    return counts


def forced_home(state: State) -> tuple[int, int] | None:
    """Rule 4: a home move in the final stage that no line can do better without."""
    counts: list[int] | None = None
    for pile, foundation in home_moves(state):
        if counts is None:
            counts = home_counts(state)
        card = state.piles[pile][-1]
        rank, suit = FACE_RANK[card], SUIT[card]
        if counts[card] < 1:
            continue  # the twin is on the table
        if all(counts[suit * 13 + near - 1] == 2 for near in (rank - 1, rank + 1)
               if 1 <= near <= 13):
            return pile, foundation
    return None


KING_FOUNDATION_OF: Final = tuple(FOUNDATION_SUIT.index(suit) for suit in range(4))
ACE_FOUNDATION_OF: Final = tuple(FOUNDATION_SUIT.index(suit, 4) for suit in range(4))


def unreachable(state: State) -> bool:
    """Rule 6: whether some card can never be uncovered (the least set of events).

    ``exposed[p]`` is the index of the lowest card of pile p whose T is in the
    set; ``top_faces`` counts the faces with a T; ``down[s]`` is the lowest rank
    suit s's King foundation can reach (ranks ``down..wants`` each have a copy
    with its H) and ``up[s]`` the highest its Ace foundation can."""
    piles = state.piles
    exposed = [len(cards) - 1 for cards in piles]
    top_faces = [0] * DECK_SIZE
    for cards in piles:
        for card in cards[-1:]:
            top_faces[card] += 1
    for card in state.stock:
        top_faces[card] += 1  # each will be a top card once dealt
    down = [state.wants[KING_FOUNDATION_OF[suit]] + 1 for suit in range(4)]
    up = [state.wants[ACE_FOUNDATION_OF[suit]] - 1 for suit in range(4)]
    for suit in range(4):
        if down[suit] == 1:
            down[suit] = 0  # complete: reaches nothing more
        if up[suit] == -1:
            up[suit] = 14
    changed = True
    while changed:
        changed = False
        for suit in range(4):
            base = suit * 13 - 1  # face of rank r is base + r
            while down[suit] > 1 and top_faces[base + down[suit] - 1]:
                down[suit] -= 1
            while up[suit] < 13 and top_faces[base + up[suit] + 1]:
                up[suit] += 1
        for pile, cards in enumerate(piles):
            while exposed[pile] > 0:
                card = cards[exposed[pile]]
                if not (goes_home(card, state.wants, down, up)
                        or any(top_faces[near] for near in NEIGHBOURS[card])):
                    break
                exposed[pile] -= 1
                top_faces[cards[exposed[pile]]] += 1
                changed = True
    return any(index > 0 for index in exposed)


def goes_home(card: int, wants: bytes, down: list[int], up: list[int]) -> bool:
    """H for a card with its T: a foundation of its suit reaches its rank."""
    suit, rank = SUIT[card], FACE_RANK[card]
    king_wants = wants[KING_FOUNDATION_OF[suit]]
    ace_wants = wants[ACE_FOUNDATION_OF[suit]]
    return ((king_wants != 0 and rank <= king_wants and down[suit] <= rank + 1)
            or (ace_wants != 0 and rank >= ace_wants and up[suit] >= rank - 1))


class StHelenaSearch:
    """St. Helena's ``GameSearch`` over ``State`` (rules in the module docstring)."""

    def __init__(self, pruning: Pruning = ALL_RULES) -> None:
        self.pruning = pruning
        self.on_path: set[Hashable] = set()

    def won(self, state: State) -> bool:
        return state.home == CARD_COUNT

    def key(self, state: State) -> Hashable:
        if self.pruning.symmetry and state.final_stage:
            return (tuple(sorted(state.piles)), state.wants)
        return (state.stock, state.piles, state.wants, state.redeals)

    def dead(self, state: State) -> bool:
        if state.redeals:
            return False
        if (self.pruning.dead_test and not state.stock and next(home_moves(state), None) is None
                and next(build_moves(state), None) is None):
            return True
        return self.pruning.reach_test and unreachable(state)

    def children(self, state: State, exact: bool) -> Iterator[tuple[str, State]]:
        key = self.key(state)
        self.on_path.add(key)
        try:
            for move, child in self._moves(state, exact):
                if self.key(child) not in self.on_path:
                    yield move, child
        finally:
            self.on_path.discard(key)

    def _moves(self, state: State, exact: bool) -> Iterator[tuple[str, State]]:
        final = state.final_stage
        if exact and final and self.pruning.forced_home:
            forced = forced_home(state)
            if forced is not None:
                yield HOME_TEXT[forced[0]][forced[1]], play_home(state, *forced)
                return
        for pile, foundation in home_moves(state):
            yield HOME_TEXT[pile][foundation], play_home(state, pile, foundation)
            if not exact:
                return
        for source, target, child in self._builds(state, exact, final):
            yield BUILD_TEXT[source][target], child
        if state.stock:
            yield "D", deal(state)
        elif state.redeals and any(state.piles):
            yield "R", redeal(state)


    def _builds(
        self, state: State, exact: bool, final: bool
    ) -> list[tuple[int, int, State]]:
        """The builds to try, those that uncover a card that fits home first.

        The greedy pass keeps only the builds that uncover a card which then
        fits a foundation or can itself be built on: a build that leads
        nowhere at once is left to the exact pass."""
        useful: list[tuple[int, int, State]] = []
        other: list[tuple[int, int, State]] = []
        wanted = wanted_faces(state.wants)
        for source, target in build_moves(state):
            cards = state.piles[source]
            if len(cards) == 1:
                if not exact or (final and self.pruning.no_emptying_build):
                    continue  # rule 3 (exact), or a build that uncovers nothing (greedy)
                other.append((source, target, build(state, source, target)))
                continue
            child = build(state, source, target)
            under = cards[-2]
            if under in wanted:
                useful.append((source, target, child))
            elif exact or can_build(child, source):
                other.append((source, target, child))
        return useful + other


class ShuffledSearch(StHelenaSearch):
    """The exact pass's moves in a random order, for the restarts (module docstring)."""

    DEAL_FIRST: Final = 0.25  # how often a restart deals before trying the table's moves

    def __init__(self, rng: random.Random, pruning: Pruning = ALL_RULES) -> None:
        super().__init__(pruning)
        self.rng = rng

    def _moves(self, state: State, exact: bool) -> Iterator[tuple[str, State]]:
        homes: list[tuple[str, State]] = []
        builds: list[tuple[str, State]] = []
        deals: list[tuple[str, State]] = []
        for move, child in super()._moves(state, exact):
            group = deals if move in ("D", "R") else builds if move.count("@p") == 2 else homes
            group.append((move, child))
        for group in (homes, builds):
            self.rng.shuffle(group)
        if deals and self.rng.random() < self.DEAL_FIRST:
            return iter(deals + homes + builds)
        return iter(homes + builds + deals)


def luby(index: int) -> int:
    """The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ... at ``index`` (from 1): restart
    lengths within a constant factor of the best fixed length for any run-time law."""
    def size_for(wanted: int) -> int:  # the least k with 2^k - 1 >= wanted
        k = 1
        while (1 << k) - 1 < wanted:
            k += 1
        return k
    k = size_for(index)
    while (1 << k) - 1 != index:
        index -= (1 << (k - 1)) - 1
        k = size_for(index)
    return 1 << (k - 1)


RESTART_NODES: Final = 2_000  # a restart's node cap is this times luby(its number)


def restarts(state: State, budget: Budget, pruning: Pruning = ALL_RULES, seed: int = 0
             ) -> Outcome:
    """Randomized restarts that look for a win: ("won", line, nodes), ("budget", [], nodes),
    or ("exhausted", [], nodes) when one restart searched the whole tree without a win."""
    rng = random.Random(seed)
    start = time.perf_counter()
    nodes = 0
    number = 0
    while True:
        elapsed = time.perf_counter() - start
        if (budget.seconds is not None and elapsed >= budget.seconds) or (
                budget.nodes is not None and nodes >= budget.nodes):
            return "budget", [], nodes
        left = remaining(budget, start, nodes)
        number += 1
        cap = RESTART_NODES * luby(number)
        capped = Budget(nodes=cap if left.nodes is None else min(cap, left.nodes),
                        seconds=left.seconds)
        status, line, spent = search_pass(ShuffledSearch(rng, pruning), state, capped, exact=True)
        nodes += spent
        if status == "won":
            return "won", line, nodes
        if status == "exhausted":  # the whole tree searched without a win: no restart helps
            return "exhausted", [], nodes


def uses_core(compiled: bool | None) -> bool:
    """Whether to run the compiled core: when it is built, unless a caller chooses."""
    use = _core is not None if compiled is None else compiled
    assert not use or _core is not None, "the compiled core is not built (pip install -e .)"
    return use


def core_state(state: State) -> tuple[bytes, tuple[bytes, ...], bytes, int, int]:
    return state.stock, state.piles, state.wants, state.redeals, state.home


def core_limits(budget: Budget) -> tuple[int, float]:
    """A budget as the core takes it: nodes (-1: none) and seconds (0: none). A budget
    of 0 seconds or of no nodes is spent at once, as in the reference, not "no limit"."""
    seconds = 0.0 if budget.seconds is None else max(budget.seconds, 1e-9)
    return (-1 if budget.nodes is None else max(budget.nodes, 0)), seconds


def one_pass(state: State, budget: Budget, exact: bool, pruning: Pruning = ALL_RULES,
             compiled: bool | None = None, table_mb: int = TABLE_MB) -> Outcome:
    """One pass from ``state`` (greedy, or exact), on a fresh search: the compiled
    core (default: when it is built) or the reference walk on the driver."""
    if uses_core(compiled):
        status, line, nodes = _core.search(*core_state(state), exact, core_flags(pruning),
                                           *core_limits(budget), table_mb)
        return status, line, nodes
    return search_pass(_check_protocol(StHelenaSearch(pruning)), state, budget, exact)


def seed_words(seed: int) -> tuple[int, ...]:
    """abs(seed) in 32-bit words, low first, as ``random.Random(seed)`` seeds its
    generator (at least one word, even for 0)."""
    value = abs(seed)
    return tuple((value >> (32 * i)) & 0xFFFF_FFFF
                 for i in range(max(1, (value.bit_length() + 31) // 32)))


def restart_pass(state: State, budget: Budget, pruning: Pruning = ALL_RULES, seed: int = 0,
                 compiled: bool | None = None, table_mb: int = TABLE_MB) -> Outcome:
    """``restarts`` on the compiled core (default: when it is built), or the reference."""
    if uses_core(compiled):
        status, line, nodes = _core.restarts(
            *core_state(state), core_flags(pruning), *core_limits(budget), table_mb,
            seed_words(seed), RESTART_NODES, ShuffledSearch.DEAL_FIRST)
        return status, line, nodes
    return restarts(state, budget, pruning, seed)


def can_build(state: State, pile: int) -> bool:
    """Whether the top card of ``pile`` can go onto another pile's top card."""
    top = state.piles[pile][-1]
    suit, rank = SUIT[top], FACE_RANK[top]
    return any(
        cards and SUIT[cards[-1]] == suit and abs(FACE_RANK[cards[-1]] - rank) == 1
        for index, cards in enumerate(state.piles) if index != pile
    )


def _check_protocol(search: StHelenaSearch) -> GameSearch[State]:
    return search  # mypy checks that the class meets the driver's protocol


def replay_line(position: Position, line: list[str]) -> bool:
    """Whether ``line`` is legal from ``position`` and wins in the engine."""
    twin = position.copy()
    for text in line:
        twin.apply(parse_move(text))
    return twin.status is Status.WON


def solve(
    position: Position, budget: Budget = Budget(seconds=10.0),
    greedy_share: float = GREEDY_SHARE, pruning: Pruning = ALL_RULES,
    restart_share: float = 0.0, restart_seed: int = 0, compiled: bool | None = None,
) -> Result:
    """Decide a position: won (with its line in notation), lost or unknown.

    ``restart_share`` of the budget goes to the restarts (module docstring) between the
    greedy pass and the exact pass; none by default (the hints keep their two passes).
    ``restart_seed`` picks their random orders: a re-run with a new seed searches new
    restarts instead of repeating the last run's first ones. ``compiled`` picks the
    compiled core or the reference (default: the core when it is built)."""
    start = time.perf_counter()
    state = State.of(position)
    # decide()'s two passes, each on a fresh search so that no path of an
    # abandoned pass can linger in the cycle guard of the next.
    status, line, nodes = one_pass(state, split(budget, greedy_share), False, pruning,
                                   compiled)
    decided = status == "won"  # the greedy pass's "exhausted" proves nothing
    if not decided and restart_share > 0:
        until = split(budget, greedy_share + restart_share)  # from the start of solve
        status, line, more = restart_pass(state, remaining(until, start, nodes), pruning,
                                          restart_seed, compiled)
        nodes += more
        decided = status != "budget"  # won, or a restart searched the whole tree: lost
    if not decided:
        status, line, more = one_pass(state, remaining(budget, start, nodes), True, pruning,
                                      compiled)
        nodes += more
    verdict: Verdict = VERDICT_OF[status]
    if verdict == "won" and not replay_line(position, line):
        raise AssertionError(f"the search's line does not win: {' '.join(line)}")
    return Result(verdict=verdict, line=line if verdict == "won" else [], nodes=nodes,
                  ms=(time.perf_counter() - start) * 1000)
