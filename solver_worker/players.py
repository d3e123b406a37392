"""Blind players: they play a patience without seeing its hidden cards.

The game loop, the sampling player and the fair hint here know no game: each
game lends its knowledge as a ``BlindGame`` (``solver_worker.blind``),
registered by slug in ``solver_worker.games.BLIND``. What a game must provide
(Napoleon's Tomb's, in ``solver_worker.games.tomb.blind``, is the model):

* ``rule_players``: rule players by name, each deciding from the view alone;
  "careful" is required (the default move and the sampling player's
  tie-break); "freeing", "near1", "near2" join the rating ladder when given.
* ``candidate_moves`` and ``same_choice``: the moves that really differ, one
  per class of symmetric moves (the sampling player tries each), and whether
  two moves are one choice.
* ``safe_move``: True only with a written argument that the move is as good
  as any other, from what the player knows (it is then played unsampled).
* ``unseen``: the hidden cards, from the view alone, sorted; ``with_hidden``:
  a copy of the position with its hidden cards in a given order. The sampling
  player shuffles ``unseen`` uniformly, so this is honest exactly when every
  order of the unseen cards is equally likely given what the player saw.
* ``known_order``: the hidden order when the player knows it from what it
  saw (the Tomb's 3-card deal after a redeal), else None; ``new_memory``: the
  same knowledge kept along a game, checked against the engine after each move.
* ``sample_key``: equal for (move, order) pairs the search cannot tell apart
  (a memo); ``find_line`` / ``find_win``: the game's win-finding search.

and, beside it, a search in ``solver_worker.games.SOLVERS`` (the exact solve
once the hidden order is known). Positions and
moves are the game's own (``patience.protocol``: ``status``, ``moves``,
``legal_moves``, ``apply``, ``copy``, ``variant``; ``notation``). A game must
end within ``MAX_PLIES`` moves.

A new game (or a variant that needs its own knowledge) adds one small
module with such an object and one line in ``BLIND``;
``players``, ``rating``, ``play`` and ``rate`` then serve it unchanged (the
hints need no blind knowledge at all). Until then ``fair_hint`` answers a
position of that game with no move.

For Napoleon's Tomb: four players and one hint, all from the player's own
information only:

* ``careful``: plays a fitting waste card; otherwise parks it when a
  foundation will want it within three ranks, or when parking it frees the
  waste card beneath, which fits now; otherwise turns cards (or the waste
  over). It parks *every* card wanted within three ranks, even into the
  last free cell: the rating ladder's base. It wins 659 3-card deals of
  1-2,400, far from the 1,260 the public site quotes for its careful player.
* ``spare-cell``: the careful player that parks a card for being wanted
  within three ranks only while another cell stays free (the last cell is
  kept for freeing the card beneath). It reproduces the site's figure:
  1,290 3-card wins of 1-2,400 (site: 1,260), 366 classic (site: 407);
  docs/figures.md has the search for it.
* ``freeing``: the same without the three-rank rule: it parks only to free
  the card beneath. The site says such a player wins 1 classic deal of 2,400.
* ``sampling`` (any game): at each real choice, deals K stock orders
  consistent with what it has seen, searches each sample for a win after each candidate move
  (the solver's win-finding pass, with a small node budget), and plays the
  move that wins the most samples (ties: the careful player's move). Once it
  knows the stock order it solves the real position and follows the line.
* ``fair_hint(position)``: the sampling player's move with its estimated
  chance of winning: a hint that does not peek at the stock.

What the Tomb's player knows (the whole honesty argument lives here; the
functions named are ``solver_worker.games.tomb.blind``'s):

* Everything on the table in view: the waste (every waste card was turned
  face up, so the player has seen all of them, not only the top one), the
  cells, the foundations, the number of cards in the stock and the passes
  left. ``Sight`` holds exactly this, and the careful and freeing players
  decide from a ``Sight`` alone, so they cannot read the stock order.
* Which cards are in the stock: all 52 minus the ones in view
  (``unseen_cards``).
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
  case alone (``known_stock``), which is the same list (the tests check this along games).
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
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any, Final

from patience import Status, rules_of
from patience.cards import Card

from .blind import BlindGame, Chooser, Memory
from .driver import Budget
from .games import blind_of, has_blind, solve_position

MAX_PLIES: Final = 2000  # a safety stop; a Tomb game has at most ~52 * 3 * 3 moves
# Napoleon's Tomb's players (any game: sampling)
PLAYERS: Final = ("careful", "spare-cell", "freeing", "sampling")
# The sampling player's defaults, the configuration measured in the report:
# 32 stock orders per decision, each searched for a win with 5,000 nodes of
# the compiled core (capped at 0.2 s).
SAMPLES: Final = 32
NODES: Final = 5000
SOLVE_S: Final = 0.2
RETRY_AFTER: Final = 10  # plies before an undecided known-stock solve is tried again


def careful_move(position: Any) -> Any | None:
    """The careful player's move in any game that has blind knowledge."""
    return blind_of(position).rule_players["careful"](position)


# -- the sampling player -----------------------------------------------------


@dataclass(slots=True)
class Decision:
    move: Any
    chance: float | None  # fraction of samples won after the move (None: not sampled)
    samples: int  # how many samples the chance is over (0: not sampled)
    exact: bool = False  # the stock order was known and the real position solved
    wins: dict[str, int] = field(default_factory=dict)  # candidate notation -> samples won


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

    def _known_decision(
        self, game: BlindGame, position: Any, stock: list[Card]
    ) -> Decision | None:
        ply = len(position.moves)
        parse_move = rules_of(position.variant.slug).parse_move
        if self.plan and self.plan_at == ply:
            self.plan_at += 1
            return Decision(parse_move(self.plan.pop(0)), 1.0, 1, exact=True)
        if self.known_failed is not None:
            verdict, at = self.known_failed
            if verdict == "lost" or ply < at + RETRY_AFTER:
                return None
        twin = game.with_hidden(position, stock)
        self.solves += 1
        budget = Budget(nodes=self.known_nodes, seconds=self.known_seconds / 2)
        verdict, line = game.find_line(twin, budget.nodes or 0, budget.seconds)
        if verdict == "failed":  # probably lost; the exact search may still find a win
            result = solve_position(twin, budget)
            verdict, line = result.verdict, result.line
        if verdict == "won" and line:
            self.plan, self.plan_at = list(line[1:]), ply + 1
            return Decision(parse_move(line[0]), 1.0, 1, exact=True)
        self.known_failed = (verdict, ply)
        return None

    # ---- the stock order is unknown: sample it ----

    def _sample_stocks(
        self, game: BlindGame, position: Any, rng: random.Random, count: int
    ) -> list[list[Card]]:
        unseen = game.unseen(position)
        stocks = []
        for _ in range(count):
            order = unseen[:]
            rng.shuffle(order)
            stocks.append(order)
        return stocks

    def _wins_after(
        self, game: BlindGame, position: Any, move: Any, stock: list[Card],
        memo: dict[Hashable, bool],
    ) -> bool:
        key = game.sample_key(move, stock)
        if key in memo:  # the search cannot tell these apart: the same result
            return memo[key]
        twin = game.with_hidden(position, stock)
        twin.apply(move)
        if twin.status is Status.WON:
            won = True
        elif twin.status is Status.LOST:
            won = False
        else:
            self.solves += 1
            won = game.find_win(twin, self.nodes, self.seconds)
        memo[key] = won
        return won

    def decide(
        self, position: Any, rng: random.Random, need_chance: bool = False
    ) -> Decision | None:
        """The move to play, or None when no move is left.

        ``need_chance``: sample even when the move is clear (one real choice,
        or a provably safe play), to report its chance (the fair hint).
        """
        game = blind_of(position)
        default = game.rule_players["careful"](position)
        if default is None:
            return None
        stock = game.known_order(position)
        if stock is not None:
            known = self._known_decision(game, position, stock)
            if known is not None:
                return known
            lost = self.known_failed is not None and self.known_failed[0] == "lost"
            return Decision(default, 0.0 if lost else None, 1 if lost else 0, exact=lost)
        choices = game.candidate_moves(position)
        # The careful player's move first: ties go to it.
        first = next(move for move in choices if game.same_choice(move, default))
        others = [move for move in choices if not game.same_choice(move, default)]
        if not need_chance and (not others or game.safe_move(position, first)):
            return Decision(default, None, 0)
        stocks = self._sample_stocks(game, position, rng, self.samples)
        count = len(stocks)
        memo: dict[Hashable, bool] = {}
        wins = {first: sum(self._wins_after(game, position, first, stock, memo)
                           for stock in stocks)}
        best_wins = wins[first]
        for move in others:
            won = 0
            for done, stock in enumerate(stocks):
                if won + (count - done) <= best_wins:
                    break  # it cannot beat the best any more (ties go to the first)
                won += self._wins_after(game, position, move, stock, memo)
            wins[move] = won
            best_wins = max(best_wins, won)
        best = next(move for move in (first, *others) if wins[move] == best_wins)
        move = default if best is first else best
        return Decision(move, best_wins / count, count,
                        wins={move.notation: won for move, won in wins.items()})


def fair_hint(
    position: Any, samples: int = 16, budget_s: float = 2.0, seed: int = 0,
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
    if not has_blind(position.variant.slug):  # no knowledge of this game yet: no move
        return {"move": None, "chance": 0.0, "samples": 0, "exact": False}
    choices = max(1, len(blind_of(position).candidate_moves(position)))
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
    position: Any, choose: Chooser, memory: Memory | None = None,
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
        played.append(position.moves[-1].notation)
        if memory is not None:
            memory.check(position)
    return played


def make_chooser(
    player: str, *, game: BlindGame, deal: int | None = None, variant: str = "",
    samples: int = SAMPLES, nodes: int = NODES, seconds: float = SOLVE_S, seed: int = 0,
) -> tuple[Chooser, SamplingPlayer | None]:
    """The player's move function (and the sampling player, for its figures)."""
    if player in game.rule_players:
        return game.rule_players[player], None
    if player != "sampling":
        known = ", ".join([*game.rule_players, "sampling"])
        raise ValueError(f"unknown player {player!r} (known: {known})")
    sampler = SamplingPlayer(samples=samples, nodes=nodes, seconds=seconds)
    rng = random.Random(f"{seed}/{variant}/{deal}")

    def choose(position: Any) -> Any | None:
        decision = sampler.decide(position, rng)
        return None if decision is None else decision.move

    return choose, sampler


def play_game(
    deal: int, variant: str, player: str, *, samples: int = SAMPLES, nodes: int = NODES,
    seconds: float = SOLVE_S, seed: int = 0, position: Any | None = None,
) -> Game:
    """One game of a deal by a blind player, from the start (or from
    ``position``, e.g. a seeded daily deal that has no number)."""
    start = time.perf_counter()
    if position is None:
        position = rules_of(variant).new_game(deal, variant)
    game = blind_of(position)
    choose, sampler = make_chooser(
        player, game=game, deal=deal, variant=position.variant.slug, samples=samples,
        nodes=nodes, seconds=seconds, seed=seed,
    )
    moves = play_out(position, choose, game.new_memory())
    result = "won" if position.status is Status.WON else "lost"
    ms = (time.perf_counter() - start) * 1000
    return Game(deal, position.variant.slug, player, result, moves, ms,
                solves=sampler.solves if sampler else 0)
