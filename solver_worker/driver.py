"""One search driver for every game: depth first, failed states remembered, a budget.

A game gives the driver a ``GameSearch``: its compact state, its key, its
sound dead test and its children in the order to try them, with its pruning
and forced moves already applied (a forced move is a state with one child).
Each game writes down, beside its hooks, why each pruning is sound for a
"lost" verdict; the driver adds only two facts that hold for every game here:

* The state graphs have no cycles (every move turns a card, sends one home,
  spends a redeal or otherwise moves towards the end), so a state that failed
  once fails always, and the table keeps failed states only.
* A pass with ``exact=False`` may prune unsoundly (a greedy pass that plays
  every fitting card at once): each win it finds is a real line, but its
  failure proves nothing, so only an exact pass may say "lost".

The walk keeps its own stack, so lines of hundreds of moves (St. Helena's 104
cards) need no recursion.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Final, Generic, Literal, Protocol, TypeVar

Verdict = Literal["won", "lost", "unknown"]
State = TypeVar("State")
TIME_CHECK_EVERY: Final = 64
GREEDY_SHARE: Final = 0.5  # of the budget, for the win-finding pass (then the exact one)


@dataclass(frozen=True, slots=True)
class Budget:
    """How much search a call may spend: nodes, seconds, or both (None = no limit)."""

    nodes: int | None = None
    seconds: float | None = None


@dataclass(slots=True)
class Result:
    verdict: Verdict
    line: list[str] = field(default_factory=list)  # moves in the game's notation
    nodes: int = 0
    ms: float = 0.0


# How one pass ended: a win (with its abstract line), the space exhausted, or the budget spent.
Outcome = tuple[Literal["won", "exhausted", "budget"], list[str], int]


class GameSearch(Protocol[State]):
    """What a game tells the driver about its search."""

    def won(self, state: State) -> bool: ...

    def key(self, state: State) -> Hashable: ...

    def dead(self, state: State) -> bool:
        """True only when no win can follow (sound: a wrong True loses a won deal)."""
        ...

    def children(self, state: State, exact: bool) -> Iterator[tuple[str, State]]:
        """(abstract move, next state) in the order to try them."""
        ...


class _OutOfBudget(Exception):
    pass


class _Walk(Generic[State]):
    def __init__(self, game: GameSearch[State], budget: Budget, exact: bool) -> None:
        self.game, self.exact = game, exact
        self.nodes = 0
        self.node_limit = budget.nodes
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        self.failed: set[Hashable] = set()

    def count(self) -> None:
        """One more position searched; out of budget past the limit."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _OutOfBudget
        if (self.deadline is not None and self.nodes % TIME_CHECK_EVERY == 0
                and time.perf_counter() > self.deadline):
            raise _OutOfBudget

    def enter(self, state: State) -> tuple[Hashable, Iterator[tuple[str, State]]] | None:
        """The state's key and children to walk, or None when it is known or found dead.

        A node is a state entered that is not already known to fail: the count
        (and so the budget) is the number of positions searched, as the Tomb's
        compiled core counts them, so both give the same figures."""
        game = self.game
        key = game.key(state)
        if key in self.failed:
            return None
        self.count()
        if game.dead(state):
            self.failed.add(key)
            return None
        return key, game.children(state, self.exact)

    def run(self, start: State) -> Outcome:
        try:
            return self.walk(start)
        except _OutOfBudget:
            return "budget", [], self.nodes

    def walk(self, start: State) -> Outcome:
        game = self.game
        if game.won(start):
            return "won", [], 0
        first = self.enter(start)
        if first is None:
            return "exhausted", [], self.nodes
        stack: list[tuple[Hashable, Iterator[tuple[str, State]]]] = [first]
        line: list[str] = []
        failed = self.failed
        while stack:
            key, children = stack[-1]
            step = next(children, None)
            if step is None:
                failed.add(key)
                stack.pop()
                if line:
                    line.pop()
                continue
            move, child = step
            if game.won(child):
                return "won", [*line, move], self.nodes
            entered = self.enter(child)
            if entered is not None:
                stack.append(entered)
                line.append(move)
        return "exhausted", [], self.nodes


def search_pass(game: GameSearch[State], start: State, budget: Budget, exact: bool) -> Outcome:
    """One pass: greedy (``exact=False``, a failure proves nothing) or exact."""
    return _Walk(game, budget, exact).run(start)


def split(budget: Budget, share: float) -> Budget:
    """A share of a budget, for the first of two passes."""
    return Budget(
        nodes=None if budget.nodes is None else max(1, int(budget.nodes * share)),
        seconds=None if budget.seconds is None else budget.seconds * share,
    )


def remaining(budget: Budget, start: float, nodes_spent: int) -> Budget:
    """What is left of a budget after ``nodes_spent`` since ``start`` (perf_counter)."""
    seconds = None
    if budget.seconds is not None:
        seconds = max(0.001, budget.seconds - (time.perf_counter() - start))
    nodes = None if budget.nodes is None else max(1, budget.nodes - nodes_spent)
    return Budget(nodes=nodes, seconds=seconds)


_VERDICT_OF: Final[dict[str, Verdict]] = {"won": "won", "exhausted": "lost", "budget": "unknown"}


# One pass of a search: given its budget and exactness, how it ended.
Pass = Callable[[Budget, bool], Outcome]


def decide(
    game: GameSearch[State], start: State, budget: Budget, greedy_share: float = GREEDY_SHARE
) -> tuple[Verdict, list[str], int]:
    """A greedy pass with part of the budget, then the exact pass, which alone says "lost".

    Returns the verdict, the abstract winning line (empty unless won) and the nodes spent."""
    return decide_by(lambda share, exact: search_pass(game, start, share, exact),
                     budget, greedy_share)


def decide_by(run_pass: Pass, budget: Budget, greedy_share: float = GREEDY_SHARE
              ) -> tuple[Verdict, list[str], int]:
    """``decide`` for a search that runs its own passes (such as a compiled core)."""
    began = time.perf_counter()
    status, line, nodes = run_pass(split(budget, greedy_share), False)
    if status == "won":
        return "won", line, nodes
    status, line, more = run_pass(remaining(budget, began, nodes), True)
    return _VERDICT_OF[status], line, nodes + more
