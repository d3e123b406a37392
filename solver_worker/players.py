"""Blind players: they play Napoleon's Tomb without seeing the stock order.

Three players and one hint, all from the player's own information only:

* ``careful``: plays a fitting waste card; otherwise parks it when a
  foundation will want it within three ranks, or when parking it frees the
  waste card beneath, which fits now; otherwise turns cards (or the waste
  over). The public site's "careful player" (seed 000).
* ``freeing``: the same without the three-rank rule: it parks only to free
  the card beneath. The site says such a player wins 1 classic deal of 2,400.
* ``sampling``: at each real choice, deals K stock orders consistent with
  what it has seen, searches each sample for a win after each candidate move
  (the solver's win-finding pass, with a small node budget), and plays the
  move that wins the most samples (ties: the careful player's move). Once it
  knows the stock order it solves the real position and follows the line.
* ``fair_hint(position)``: the sampling player's move with its estimated
  chance of winning: a hint that does not peek at the stock.

What the player knows (the whole honesty argument lives here):

* Everything on the table in view: the waste (every waste card was turned
  face up, so the player has seen all of them, not only the top one), the
  cells, the foundations, the number of cards in the stock and the passes
  left. ``Sight`` holds exactly this, and the careful and freeing players
  decide from a ``Sight`` alone, so they cannot read the stock order.
* Which cards are in the stock: all 52 minus the ones in view (``unseen``).
  In the classic deal and in the first pass of the 3-card deal the stock
  holds only cards never turned face up, so every order of them is equally
  likely given what the player saw (a deal is a uniform shuffle): the
  sampling player draws orders uniformly.
* After a redeal (3-card deal, second and third pass) the stock is the waste
  turned over: the player saw every one of those cards, in order, when it
  was turned, so the whole stock order is the player's own knowledge. The
  game loop keeps that memory itself (``Memory``: on R it records the waste
  reversed, on D it pops what it turned) and checks it against the engine;
  ``fair_hint``, which has only a position, reads ``position.stock`` in that
  case alone, which is the same list (the tests check this along games).
  With the stock known, the sampling player solves the real position and
  follows a winning line when one is found.

Chances are lower bounds: a sample counts as won only when the budgeted
search finds a win in it; a sample it cannot decide counts as not won. The
per-sample budget matters more than anything else for the classic deal's
figures: early in a game most samples are only won by a search of a few
thousand positions, and with too small a budget every candidate scores 0 and
the player falls back to the careful move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from patience.cards import ALL_CARDS, RANK, Card
from patience.tomb import Position, Status, new_game, parse_move
from patience.tomb.moves import DRAW, REDEAL, TO_CELL, TO_FOUNDATION, TOMB, Kind, Move
from patience.tomb.position import EMPTY, NO_RANK

from .search import Budget, Table, search_pass, solve, to_notation

NEAR_RANKS: Final = 3  # "a foundation will want it within three ranks"
TOMB_CYCLE: Final = 6  # the tomb wants 6 5 4 3 2 A, then 6 again
MAX_PLIES: Final = 2000  # a safety stop; a game has at most ~52 * 3 * 3 moves
PLAYERS: Final = ("careful", "freeing", "sampling")
# The sampling player's defaults, the configuration measured in the report:
# 32 stock orders per decision, each searched for a win with 5,000 nodes of
# the compiled core (capped at 0.2 s).
SAMPLES: Final = 32
NODES: Final = 5000
SOLVE_S: Final = 0.2
RETRY_AFTER: Final = 10  # plies before an undecided known-stock solve is tried again


# -- what the player sees ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sight:
    """Everything in view, and nothing about the stock but its size."""

    waste: tuple[Card, ...]  # every waste card has been seen; top is last
    cells: tuple[Card, ...]  # n, w, e, s; EMPTY = -1
    wants: tuple[int, ...]  # the rank each foundation wants (nw ne sw se tomb)
    stock_count: int
    redeals_left: int
    turn: int  # cards turned at a time

    @classmethod
    def of(cls, position: Position) -> Sight:
        return cls(
            waste=tuple(position.waste),
            cells=tuple(position.cells),
            wants=tuple(position.wants),
            stock_count=len(position.stock),  # its size only, never its order
            redeals_left=position.redeals_left,
            turn=position.variant.turn,
        )

    def fitting(self, card: Card) -> int:
        """The first foundation (nw, ne, sw, se, tomb) that takes ``card``, or -1."""
        rank = RANK[card]
        for foundation, wanted in enumerate(self.wants):
            if wanted == rank:
                return foundation
        return -1

    def free_cell(self) -> int:
        return self.cells.index(EMPTY) if EMPTY in self.cells else -1


def wanted_within(rank: int, wants: Sequence[int], steps: int = NEAR_RANKS) -> bool:
    """Will a foundation want this rank within ``steps`` ranks?

    Precisely: the rank is 1 to ``steps`` steps after what some foundation
    wants now, counting the way that foundation builds.

    * The tomb (A-6) builds down and round: 6 5 4 3 2 A 6 5 ... A card of
      rank r is (w - r) mod 6 steps after the wanted rank w; it qualifies
      when that is 1, 2 or 3. Tomb wants 6: a 5, 4 or 3 qualifies; tomb wants
      2: an A, 6 or 5.
    * A corner (7-K) builds up: a card of rank r qualifies when some corner
      that is not complete wants w with 1 <= r - w <= 3. An empty corner
      wants a 7, so an 8, 9 or 10 qualifies while a corner is empty.

    Zero steps (the card fits now) is not "within": a fitting card is played.
    """
    if rank <= TOMB_CYCLE:
        return 1 <= (wants[TOMB] - rank) % TOMB_CYCLE <= steps
    return any(
        wanted != NO_RANK and 1 <= rank - wanted <= steps for wanted in wants[:TOMB]
    )


def rule_move(sight: Sight, near: bool = True) -> Move | None:
    """The careful player's move (``near=False``: the freeing player's).

    1. The top waste card fits a foundation: play it there (the first
       fitting one in the order nw, ne, sw, se, tomb; corners are
       interchangeable).
    2. Else, with a cell free, park it (in the first free cell) when
       a foundation will want it within three ranks (``wanted_within``; the
       careful player only), or when parking it frees the card beneath: the
       next waste card, which the player sees, fits a foundation now.
    3. Else turn cards (D), or turn the waste over (R) when the stock is
       empty and a pass is left.
    4. Else, with a cell free, park it anyway: it is the only move left and
       it brings the next waste card into play (without it the game is lost
       at once, so every sensible player does it).
    5. Else no move is left: the game is lost (None).
    """
    waste = sight.waste
    free = sight.free_cell()
    if waste:
        top = waste[-1]
        home = sight.fitting(top)
        if home >= 0:
            return TO_FOUNDATION[home]
        if free >= 0:
            frees_beneath = len(waste) >= 2 and sight.fitting(waste[-2]) >= 0
            if frees_beneath or (near and wanted_within(RANK[top], sight.wants)):
                return TO_CELL[free]
    if sight.stock_count:
        return DRAW
    if waste and sight.redeals_left:
        return REDEAL
    if waste and free >= 0:
        return TO_CELL[free]
    return None


def careful_move(position: Position) -> Move | None:
    return rule_move(Sight.of(position), near=True)


def freeing_move(position: Position) -> Move | None:
    return rule_move(Sight.of(position), near=False)


# -- what the player remembers -----------------------------------------------


@dataclass(slots=True)
class Memory:
    """The stock order the player knows from what it saw (None: not known).

    Before the first redeal the stock holds only never-seen cards: unknown.
    On R the player has just seen the whole waste, which becomes the stock
    turned over; on D it turns the known cards off the top.
    """

    stock: list[Card] | None = None

    def before(self, position: Position, move: Move) -> None:
        """Update from the player's own move, seen on the table before it."""
        if move.kind is Kind.REDEAL:
            self.stock = list(reversed(position.waste))
        elif move.kind is Kind.DRAW and self.stock is not None:
            del self.stock[len(self.stock) - min(position.variant.turn, len(self.stock)):]


def unseen_cards(position: Position) -> list[Card]:
    """The cards not in view (so in the stock), from the view alone, sorted."""
    seen = set(position.waste)
    seen.update(card for card in position.cells if card != EMPTY)
    for pile in position.foundations:
        seen.update(pile)
    unseen = [card for card in ALL_CARDS if card not in seen]
    assert len(unseen) == len(position.stock)
    return unseen


def known_stock(position: Position) -> list[Card] | None:
    """The stock order when the player knows it from memory, else None.

    Known exactly when a redeal has been made (see the module docstring): the
    stock is then the waste the player saw, turned over, less what it has
    turned since. Equal to ``Memory.stock`` along any game (tested). Also
    known, trivially, when at most one card is unseen.
    """
    if position.redeals_left < position.variant.redeals or len(position.stock) <= 1:
        return list(position.stock)
    return None


# -- the sampling player -----------------------------------------------------


def real_choices(position: Position) -> list[Move]:
    """The moves that differ, one representative each.

    Corners are interchangeable (RULES.md), so playing to any fitting corner
    is one choice; cells are interchangeable, so parking in any free cell is
    one choice; parking a card that fits is the same as playing it (it goes
    home at once), so it is no separate choice. What remains: play the top
    card (if it fits) or park it (if it does not and a cell is free), and
    turn cards (D) or the waste over (R).
    """
    sight = Sight.of(position)
    choices: list[Move] = []
    if sight.waste:
        home = sight.fitting(sight.waste[-1])
        if home >= 0:
            choices.append(TO_FOUNDATION[home])
        elif sight.free_cell() >= 0:
            choices.append(TO_CELL[sight.free_cell()])
    if sight.stock_count:
        choices.append(DRAW)
    elif sight.waste and sight.redeals_left:
        choices.append(REDEAL)
    return choices


def safe_play(position: Position, move: Move) -> bool:
    """Playing the fitting top card is provably as good as anything else.

    The argument of ``search`` (rule 5), which needs only what the player
    knows: with the waste order fixed for the rest of the game (classic turn
    order: the classic deal, or no redeal left) and no other card of that
    rank among the unseen (stock) cards, burying it gains nothing.
    """
    if move.kind is not Kind.FOUNDATION:
        return False
    fixed_order = position.variant.turn == 1 or position.redeals_left == 0
    if not fixed_order:
        return False
    rank = RANK[position.waste[-1]]
    return all(RANK[card] != rank for card in unseen_cards(position))


def same_move(a: Move, b: Move) -> bool:
    """Equal up to the symmetry of corners and cells."""
    return a.kind is b.kind


@dataclass(slots=True)
class Decision:
    move: Move
    chance: float | None  # fraction of samples won after the move (None: not sampled)
    samples: int  # how many samples the chance is over (0: not sampled)
    exact: bool = False  # the stock order was known and the real position solved
    wins: dict[str, int] = field(default_factory=dict)  # candidate notation -> samples won


def _greedy_pass(
    position: Position, nodes: int, seconds: float | None
) -> tuple[str, list[str]]:
    """The search's win-finding pass alone (compiled core when built): a
    sampling player only counts wins, so the exact pass that ``solve``
    runs after a failed greedy pass would be wasted on it."""
    status, found, _nodes = search_pass(
        Table.of(position), position.variant.turn, Budget(nodes=nodes, seconds=seconds), False
    )
    return status, found


def find_line(
    position: Position, nodes: int, seconds: float | None = None
) -> tuple[str, list[str]]:
    """The search's win-finding pass alone, on the position as given.

    It plays every fitting waste card at once, so it finds real wins fast
    (each line it finds is a legal winning line of the engine) but its
    failure proves nothing. Returns ("won", line in RULES.md notation),
    ("failed", []) when it exhausts its restricted tree (almost always a lost
    position), or ("unknown", []) when the budget runs out.
    """
    status, found = _greedy_pass(position, nodes, seconds)
    if status == "won":
        return "won", to_notation(position, found)
    return ("failed" if status == "exhausted" else "unknown"), []


def find_win(position: Position, nodes: int, seconds: float | None = None) -> bool:
    """Whether the win-finding pass finds a win within the budget."""
    return _greedy_pass(position, nodes, seconds)[0] == "won"


@dataclass(slots=True)
class SamplingPlayer:
    """Plays the move that wins the most sampled stock orders.

    ``samples``: stock orders per decision. ``nodes`` and ``seconds``: the
    budget of each win-finding search of a sample (``find_win``).
    ``known_nodes`` / ``known_seconds``: the budget of the exact solve of the
    real position once the stock order is known (3-card deal after a redeal).
    The caller passes the ``random.Random`` that deals the samples
    (``make_chooser`` and ``fair_hint`` seed it), so games and hints replay.
    """

    samples: int = SAMPLES
    nodes: int = NODES
    seconds: float | None = SOLVE_S
    known_nodes: int = 200_000
    known_seconds: float = 5.0
    solves: int = 0  # searches made (for the figures)
    # A winning line being followed, and the history length it starts at.
    plan: list[str] = field(default_factory=list)
    plan_at: int = -1
    # The known-stock solve found no win: (verdict, history length then).
    known_failed: tuple[str, int] | None = None

    # ---- the stock order is known: solve the real position ----

    def _known_decision(self, position: Position, stock: list[Card]) -> Decision | None:
        ply = len(position.history)
        if self.plan and self.plan_at == ply:
            self.plan_at += 1
            return Decision(parse_move(self.plan.pop(0)), 1.0, 1, exact=True)
        if self.known_failed is not None:
            verdict, at = self.known_failed
            if verdict == "lost" or ply < at + RETRY_AFTER:
                return None
        twin = position.copy()
        twin.stock = list(stock)
        self.solves += 1
        budget = Budget(nodes=self.known_nodes, seconds=self.known_seconds / 2)
        verdict, line = find_line(twin, budget.nodes or 0, budget.seconds)
        if verdict == "failed":  # probably lost; the exact search may still find a win
            result = solve(twin, budget)
            verdict, line = result.verdict, result.line
        if verdict == "won" and line:
            self.plan, self.plan_at = list(line[1:]), ply + 1
            return Decision(parse_move(line[0]), 1.0, 1, exact=True)
        self.known_failed = (verdict, ply)
        return None

    # ---- the stock order is unknown: sample it ----

    def _sample_stocks(
        self, position: Position, rng: random.Random, count: int
    ) -> list[list[Card]]:
        unseen = unseen_cards(position)
        stocks = []
        for _ in range(count):
            order = unseen[:]
            rng.shuffle(order)
            stocks.append(order)
        return stocks

    def _wins_after(
        self, position: Position, move: Move, stock: list[Card], memo: dict[bytes, bool]
    ) -> bool:
        key = move.kind.value.encode() + bytes(RANK[card] for card in stock)
        if key in memo:  # equal ranks are interchangeable: same rank order, same result
            return memo[key]
        twin = position.copy()
        twin.stock = stock[:]
        twin.apply(move)
        if twin.status is Status.WON:
            won = True
        elif twin.status is Status.LOST:
            won = False
        else:
            self.solves += 1
            won = find_win(twin, self.nodes, self.seconds)
        memo[key] = won
        return won

    def decide(
        self, position: Position, rng: random.Random, need_chance: bool = False
    ) -> Decision | None:
        """The move to play, or None when no move is left.

        ``need_chance``: sample even when the move is clear (one real choice,
        or a provably safe play), to report its chance (the fair hint).
        """
        default = careful_move(position)
        if default is None:
            return None
        stock = known_stock(position)
        if stock is not None:
            known = self._known_decision(position, stock)
            if known is not None:
                return known
            lost = self.known_failed is not None and self.known_failed[0] == "lost"
            return Decision(default, 0.0 if lost else None, 1 if lost else 0, exact=lost)
        choices = real_choices(position)
        # The careful player's move first: ties go to it.
        first = next(move for move in choices if same_move(move, default))
        others = [move for move in choices if not same_move(move, default)]
        if not need_chance and (not others or safe_play(position, first)):
            return Decision(default, None, 0)
        stocks = self._sample_stocks(position, rng, self.samples)
        count = len(stocks)
        memo: dict[bytes, bool] = {}
        wins = {first: sum(self._wins_after(position, first, stock, memo) for stock in stocks)}
        best_wins = wins[first]
        for move in others:
            won = 0
            for done, stock in enumerate(stocks):
                if won + (count - done) <= best_wins:
                    break  # it cannot beat the best any more (ties go to the first)
                won += self._wins_after(position, move, stock, memo)
            wins[move] = won
            best_wins = max(best_wins, won)
        best = next(move for move in (first, *others) if wins[move] == best_wins)
        move = default if best is first else best
        return Decision(move, best_wins / count, count,
                        wins={move.notation: won for move, won in wins.items()})


def fair_hint(
    position: Position, samples: int = 16, budget_s: float = 2.0, seed: int = 0,
    nodes: int = NODES,
) -> dict[str, Any]:
    """The sampling player's move from the player's own information only.

    Returns ``{"move": notation, "chance": 0..1, "samples": K}``: the move
    that won the most of K sampled stock orders (each consistent with what the
    player has seen) and the fraction of them it won, a lower bound on the
    chance of winning (a sample the budgeted search cannot decide counts as
    not won). Once the stock order is known (3-card deal after a redeal) the
    real position is solved: chance is 1 (a winning line exists) or 0 (the
    deal is lost), with ``"exact": true`` (if that solve is undecided: the
    careful move, chance 0, samples 0). ``budget_s`` bounds the whole hint
    (spread over the solves); ``nodes`` bounds each solve. The same position
    view and seed give the same hint whatever the unseen stock order.
    """
    if position.status is not Status.PLAYING:
        return {"move": None, "chance": 1.0 if position.status is Status.WON else 0.0,
                "samples": 0, "exact": True}
    choices = max(1, len(real_choices(position)))
    player = SamplingPlayer(
        samples=samples, nodes=nodes, seconds=budget_s / (samples * choices),
        known_seconds=budget_s,
    )
    decision = player.decide(position, random.Random(seed), need_chance=True)
    assert decision is not None  # the position is still playing
    return {
        "move": decision.move.notation,
        "chance": 0.0 if decision.chance is None else decision.chance,
        "samples": decision.samples,
        "exact": decision.exact,
    }


# -- playing whole games -----------------------------------------------------


@dataclass(slots=True)
class Game:
    deal: int | None
    variant: str
    player: str
    result: str  # "won" | "lost"
    moves: list[str]
    ms: float
    solves: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal, "variant": self.variant, "player": self.player,
            "result": self.result, "moves": len(self.moves), "ms": round(self.ms, 1),
        }


def play_out(
    position: Position, choose: Callable[[Position], Move | None],
    memory: Memory | None = None,
) -> list[str]:
    """Apply the chooser's moves until the game ends; the moves played."""
    played: list[str] = []
    for _ in range(MAX_PLIES):
        if position.status is not Status.PLAYING:
            break
        move = choose(position)
        if move is None:
            break
        if memory is not None:
            memory.before(position, move)
        position.apply(move)
        played.append(position.history[-1][0].notation)
        if memory is not None and memory.stock is not None:
            assert memory.stock == position.stock, "the player's memory drifted"
    return played


def make_chooser(
    player: str, *, deal: int | None = None, variant: str = "", samples: int = SAMPLES,
    nodes: int = NODES, seconds: float = SOLVE_S, seed: int = 0,
) -> tuple[Callable[[Position], Move | None], SamplingPlayer | None]:
    if player == "careful":
        return careful_move, None
    if player == "freeing":
        return freeing_move, None
    if player != "sampling":
        raise ValueError(f"unknown player {player!r} (known: {', '.join(PLAYERS)})")
    sampler = SamplingPlayer(samples=samples, nodes=nodes, seconds=seconds)
    rng = random.Random(f"{seed}/{variant}/{deal}")

    def choose(position: Position) -> Move | None:
        decision = sampler.decide(position, rng)
        return None if decision is None else decision.move

    return choose, sampler


def play_game(
    deal: int, variant: str, player: str, *, samples: int = SAMPLES, nodes: int = NODES,
    seconds: float = SOLVE_S, seed: int = 0, position: Position | None = None,
) -> Game:
    """One game of a deal by a blind player, from the start (or from
    ``position``, e.g. a seeded daily deal that has no number)."""
    start = time.perf_counter()
    if position is None:
        position = new_game(deal, variant)
    choose, sampler = make_chooser(
        player, deal=deal, variant=position.variant.slug, samples=samples, nodes=nodes,
        seconds=seconds, seed=seed,
    )
    moves = play_out(position, choose, Memory())
    result = "won" if position.status is Status.WON else "lost"
    ms = (time.perf_counter() - start) * 1000
    return Game(deal, position.variant.slug, player, result, moves, ms,
                solves=sampler.solves if sampler else 0)
