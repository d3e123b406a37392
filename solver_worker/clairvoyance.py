"""How far a finished game's choices depend on cards its player had not been shown.

A player who knows the unseen cards (a scout account's stock, an outside solver fed
with them) plays differently from one who does not: they park exactly what will be
wanted, never turn past a card they will need, and never make a move that throws a
won position away. This module measures that, in hindsight, for any game with blind
knowledge (``solver_worker.games.BLIND``) and a search (``SOLVERS``).

The measure is a log-likelihood ratio, in bits, of two explanations of the game's
line (the moves that stood at the end: undone moves are left out, since a cheat
could add blunders and take them back to look human):

* a clairvoyant player keeps a won position won at every choice (it throws one away
  with probability ``CLAIRVOYANT_SLIP`` only);
* a blind player keeps it with the chance that the blind panel does: the game's rule
  players (``BlindGame.rule_players``, deciding from the view alone) or, with weight
  ``UNIFORM_SHARE``, a uniformly random real choice (``candidate_moves``).

Only real choices count: a choice where every panel player plays the player's move
says nothing (both explanations agree, so its term is about 0 and it costs no search),
and neither does one where no move keeps the position won, or where the search could
not decide the move played. At each remaining choice every real choice's position is
decided by the game's search with a small budget (``NODES``), with a cache shared by the
caller's games of one deal. A kept choice adds ``log2(1 / p_keep)``, a thrown one
``log2(CLAIRVOYANT_SLIP / (1 - p_keep))``.

An honest winner also keeps every position of its final line won, so what tells it
from a cheat is how often the blind panel would have kept it too: a blind winner's
choices mostly agree with blind play, a solver's line keeps winning where blind play
would not. The threshold comes from measurement (``python -m solver_worker.clairvoyance``
and docs/figures.md): honest blind players of every strength against solver lines.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from patience import Status, rules_of

from .book import book_of
from .driver import Budget, Verdict
from .games import blind_of, blind_of_variant, solve_position
from .players import MAX_PLIES
from .rating import band_for, rate

NODES: Final = 20_000  # per position decided: a position the search cannot settle is skipped
UNIFORM_SHARE: Final = 0.25  # the blind model's weight on a uniformly random real choice
CLAIRVOYANT_SLIP: Final = 0.02  # how often a clairvoyant player throws a won position away
CLAMP: Final = 0.01  # p_keep stays within [CLAMP, 1 - CLAMP]: no choice is certain


@dataclass(slots=True)
class Choice:
    """One real choice that counted: its ply, whether the player kept the win, how
    likely the blind model was to keep it, and its term in bits."""

    ply: int
    move: str
    kept: bool
    panel_keeps: float  # the share of the panel's moves that keep the win
    uniform_keeps: float  # the share of real choices that keep it
    p_keep: float = 0.0
    bits: float = 0.0
    panel: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Evidence:
    """A game's measure: the total in bits and what it is made of."""

    bits: float = 0.0
    counted: int = 0  # choices with a term
    kept: int = 0
    thrown: int = 0
    agreed: int = 0  # real choices where the whole panel played the player's move
    known: int = 0  # counted choices made with the order already shown (a redeal)
    undecided: int = 0  # the search could not settle the move played
    searches: int = 0
    cut_short: bool = False  # the time bound ended the judgement early
    choices: list[Choice] = field(default_factory=list)

    def as_data(self, top: int = 5) -> dict[str, Any]:
        """What the review queue keeps: the figures and the strongest choices."""
        data = asdict(self)
        strongest = sorted(self.choices, key=lambda choice: -choice.bits)[:top]
        data["choices"] = [asdict(choice) for choice in strongest]
        data["bits"] = round(self.bits, 2)
        for choice in data["choices"]:
            choice["bits"] = round(choice["bits"], 2)
            choice["p_keep"] = round(choice["p_keep"], 3)
        return data


Cache = dict[Hashable, Verdict]


def judge(start: Any, line: Sequence[str], *, cache: Cache | None = None,
          nodes: int = NODES, panel: Iterable[str] | None = None,
          seconds: float | None = None) -> Evidence:
    """The measure of ``line`` (moves in notation) played from ``start`` (not changed).

    ``panel`` names the rule players the blind model stands on (default: every one of
    the game's); measuring a rule player, leave it out, as a human is not in it.
    ``seconds`` bounds the whole judgement: the choices after it are left out
    (``cut_short``), so a long game costs the worker a known most."""
    rules = rules_of(start.variant.slug)
    blind = blind_of(start)
    players = _panel(blind.rule_players, panel)
    memo: Cache = {} if cache is None else cache
    moves = [rules.parse_move(text) for text in line]
    if _wins(start, moves):
        _mark_won(start, moves, memo)
    position, evidence = start.copy(), Evidence()
    deadline = None if seconds is None else time.monotonic() + seconds
    for ply, move in enumerate(moves):
        if deadline is not None and time.monotonic() > deadline:
            evidence.cut_short = True
            break
        _weigh(position, move, ply, players, memo, nodes, evidence)
        position.apply(move)
    return evidence


def _wins(start: Any, moves: Sequence[Any]) -> bool:
    position = start.copy()
    for move in moves:
        position.apply(move)
    return bool(position.status is Status.WON)


def _mark_won(start: Any, moves: Sequence[Any], memo: Cache) -> None:
    """Every position of a winning line is won: true hindsight, no search needed."""
    position = start.copy()
    rules = rules_of(start.variant.slug)
    for move in moves:
        position.apply(move)
        memo[rules.search_key(position)] = "won"


def _panel(rule_players: Mapping[str, Callable[[Any], Any]],
           names: Iterable[str] | None) -> dict[str, Callable[[Any], Any]]:
    chosen = rule_players if names is None else {name: rule_players[name] for name in names}
    return dict(chosen)


def _weigh(position: Any, move: Any, ply: int, players: Mapping[str, Callable[[Any], Any]],
           memo: Cache, nodes: int, evidence: Evidence) -> None:
    """Add the term of playing ``move`` in ``position``, if it is a choice that counts."""
    blind = blind_of(position)
    if blind.known_order(position) is not None:
        # Counted all the same: the order was shown (the 3-card deal's first pass), but
        # a person does not keep 52 cards in mind and solve them; a solver does.
        evidence.known += 1
    choices = blind.candidate_moves(position)
    if len(choices) < 2:
        return
    picks = {name: player(position) for name, player in players.items()}
    if picks and all(pick is not None and blind.same_choice(pick, move)
                     for pick in picks.values()):
        evidence.agreed += 1
        return
    verdicts = [_verdict_after(position, choice, memo, nodes, evidence) for choice in choices]
    mine = _verdict_of(move, choices, verdicts, blind.same_choice)
    if mine == "unknown":
        evidence.undecided += 1
        return
    if "won" not in verdicts:
        return  # lost already (or no win found): no choice to keep
    panel, uniform = _keep_shares(picks, choices, verdicts, blind.same_choice)
    _add(evidence, Choice(ply, move.notation, mine == "won", panel, uniform,
                          panel={name: pick.notation for name, pick in picks.items() if pick}))


def _verdict_after(position: Any, move: Any, memo: Cache, nodes: int,
                   evidence: Evidence) -> Verdict:
    after = position.copy()
    after.apply(move)
    if after.status is Status.WON:
        return "won"
    key = rules_of(after.variant.slug).search_key(after)
    found = memo.get(key)
    if found is None:
        found = solve_position(after, Budget(nodes=nodes)).verdict
        memo[key] = found
        evidence.searches += 1
    return found


def _verdict_of(move: Any, choices: Sequence[Any], verdicts: Sequence[Verdict],
                same: Callable[[Any, Any], bool]) -> Verdict:
    """The verdict of the real choice ``move`` is one of (unknown if none matches)."""
    for choice, verdict in zip(choices, verdicts, strict=True):
        if same(choice, move):
            return verdict
    return "unknown"


def _keep_shares(picks: Mapping[str, Any], choices: Sequence[Any], verdicts: Sequence[Verdict],
                 same: Callable[[Any, Any], bool]) -> tuple[float, float]:
    """The shares of the panel's moves and of the real choices that keep the win. A move
    after which the search found no win within its budget counts as thrown: wins are
    found fast (a won position of the Tomb's classic deal takes a few thousand nodes),
    so such a move nearly always is one, and no blind player could be counted on to
    find a win the full-knowledge search missed."""
    uniform = sum(verdict == "won" for verdict in verdicts) / len(verdicts)
    votes = [_verdict_of(pick, choices, verdicts, same) for pick in picks.values()
             if pick is not None]
    panel = sum(vote == "won" for vote in votes) / len(votes) if votes else uniform
    return panel, uniform


def p_keep(panel: float, uniform: float, share: float = UNIFORM_SHARE) -> float:
    """The blind model's chance of keeping the win: the panel's share, mixed with a
    uniformly random real choice's, never quite certain either way."""
    return min(1 - CLAMP, max(CLAMP, (1 - share) * panel + share * uniform))


def term(kept: bool, p: float, slip: float = CLAIRVOYANT_SLIP) -> float:
    """A choice's bits: log2 of how much likelier the clairvoyant makes it."""
    return math.log2(1 / p) if kept else math.log2(slip / (1 - p))


def _add(evidence: Evidence, choice: Choice) -> None:
    choice.p_keep = p_keep(choice.panel_keeps, choice.uniform_keeps)
    choice.bits = term(choice.kept, choice.p_keep)
    if choice.kept:
        evidence.kept += 1
    else:
        evidence.thrown += 1
    evidence.bits += choice.bits
    evidence.counted += 1
    evidence.choices.append(choice)


# -- the players measured: honest blind ones and cheats ---------------------------------

def rule_line(start: Any, name: str, slip: float = 0.0, seed: int = 0) -> list[str]:
    """A rule player's line from ``start``: an honest blind game (``slip``: the chance
    of a random real choice instead, as the rating ladder's noisy players)."""
    blind, rng = blind_of(start), random.Random(f"{name}/{slip}/{seed}")
    rule = blind.rule_players[name]

    def choose(position: Any) -> Any | None:
        if slip and rng.random() < slip:
            choices = blind.candidate_moves(position)
            if choices:
                return rng.choice(choices)
        return rule(position)

    return _play(start, choose)


def _play(start: Any, choose: Callable[[Any], Any | None]) -> list[str]:
    position = start.copy()
    memory = blind_of(position).new_memory()
    for _ in range(MAX_PLIES):
        if position.status is not Status.PLAYING:
            break
        move = choose(position)
        if move is None:
            break
        memory.before(position, move)
        position.apply(move)
    return [move.notation for move in position.moves]


def disguised_line(start: Any, cache: Cache, nodes: int = NODES,
                   seconds: float = 2.0) -> list[str] | None:
    """A careful cheat: the careful player's move while it keeps the win, else the
    solver's next move (a scout's knowledge used only where blind play would lose)."""
    rules, blind = rules_of(start.variant.slug), blind_of(start)
    position, counter = start.copy(), Evidence()
    for _ in range(MAX_PLIES):
        if position.status is not Status.PLAYING:
            break
        careful = blind.rule_players["careful"](position)
        if careful is not None and \
                _verdict_after(position, careful, cache, nodes, counter) == "won":
            position.apply(careful)
            continue
        result = solve_position(position.copy(), Budget(seconds=seconds))
        if result.verdict != "won" or not result.line:
            return None
        position.apply(rules.parse_move(result.line[0]))
    return [move.notation for move in position.moves] if position.status is Status.WON \
        else None


def first_pass_line(start: Any, seconds: float = 2.0) -> list[str] | None:
    """The single account's cheat where a deal lets the stock be gone through again
    (the Tomb's 3-card deal): turn every card first, then the solver's line."""
    rules = rules_of(start.variant.slug)
    position = start.copy()
    for _ in range(MAX_PLIES):
        turns = [move for move in position.legal_moves() if rules.reveals(position, move)]
        if not turns or blind_of(position).known_order(position) is not None:
            break
        position.apply(turns[0])
    result = solve_position(position.copy(), Budget(seconds=seconds))
    if result.verdict != "won":
        return None
    return [move.notation for move in position.moves] + list(result.line)


# -- the human floor of a game's time ---------------------------------------------------

# The fewest milliseconds a person needs per placement, sustained (the Keystroke-Level
# Model's best typist, K = 80 ms, after a simple reaction to the card, about 200-250 ms:
# Card, Moran & Newell 1983; Woods et al. 2015), and per stock turn (a held key repeats
# some 30 times a second in the browser).
PLACEMENT_FLOOR_MS: Final = 300
TURN_FLOOR_MS: Final = 33


def human_floor_ms(start: Any, line: Sequence[str]) -> int:
    """The least time a person could take to play ``line``: each placement up to the
    point where the rest plays itself (Finish: ``finishing_line``) at the placement
    floor, each stock turn at the key repeat's."""
    rules = rules_of(start.variant.slug)
    position, total = start.copy(), 0
    for text in line:
        if position.status is not Status.PLAYING or rules.finishing_line(position):
            break
        move = rules.parse_move(text)
        total += TURN_FLOOR_MS if rules.reveals(position, move) else PLACEMENT_FLOOR_MS
        position.apply(move)
    return total


@dataclass(frozen=True, slots=True)
class Limits:
    """A variant's fair-play limits, measured (``python -m solver_worker.clairvoyance
    limits``; docs/figures.md): the bits that hold a result, the floor of the median
    placement interval, and the floor of a win's whole time."""

    bits: float
    median_ms: int
    win_ms: int


DEFAULT_LIMITS: Final = Limits(bits=8.0, median_ms=PLACEMENT_FLOOR_MS, win_ms=0)
LIMITS_FILE: Final = Path(__file__).with_name("data") / "fair_play.json"


@functools.cache
def shipped_limits() -> dict[str, Any]:
    if not LIMITS_FILE.exists():
        return {}
    found: dict[str, Any] = json.loads(LIMITS_FILE.read_text()).get("variants", {})
    return found


def limits(variant: str) -> Limits:
    """The variant's measured limits, or the defaults for a variant not yet measured."""
    found = shipped_limits().get(variant)
    if not found:
        return DEFAULT_LIMITS
    return Limits(float(found["bits"]), int(found["median_ms"]), int(found["win_ms"]))


# -- measuring: honest players against cheats on rated deals ----------------------------

HONEST: Final = (("careful", 0.0), ("careful", 0.03), ("careful", 0.1), ("careful", 0.3),
                 ("freeing", 0.05), ("near2", 0.05), ("spare-cell", 0.0), ("near1", 0.0),
                 ("freeing", 0.0))


def measure_deal(start: Any, line: Sequence[str], *, seeds: int = 1, nodes: int = NODES,
                 solve_s: float = 2.0) -> list[dict[str, Any]]:
    """Every honest player's and every cheat's measure on one proved-won deal (``line``:
    its winning line, the scout's cheat), with one shared cache."""
    cache: Cache = {}
    blind = blind_of(start)
    rows: list[dict[str, Any]] = []
    for name, slip in HONEST:
        if name not in blind.rule_players:
            continue
        for seed in range(seeds if slip else 1):
            played = rule_line(start, name, slip, seed)
            # Leave-one-out: a human is not in the panel; nor is the player measured (a
            # game with one rule player is then judged against random choices alone).
            others = [other for other in blind.rule_players if other != name]
            rows.append(_row(start, f"{name}~{round(slip * 100)}", "honest", played, cache,
                             nodes, others))
    cheats: dict[str, Callable[[], list[str] | None]] = {
        "solver": lambda: list(line),
        "disguised": lambda: disguised_line(start, cache, nodes, solve_s),
    }
    if _has_redeal(start):
        cheats["first-pass"] = lambda: first_pass_line(start, solve_s)
    for name, make in cheats.items():
        played_line = make()
        if played_line is not None:
            rows.append(_row(start, name, "cheat", played_line, cache, nodes, None))
    return rows


def _has_redeal(start: Any) -> bool:
    return getattr(start.variant, "passes", 1) != 1


def _row(start: Any, player: str, kind: str, line: list[str], cache: Cache, nodes: int,
         panel: Iterable[str] | None) -> dict[str, Any]:
    began = time.perf_counter()
    evidence = judge(start, line, cache=cache, nodes=nodes, panel=panel)
    end = start.copy()
    rules = rules_of(start.variant.slug)
    for text in line:
        end.apply(rules.parse_move(text))
    return {"player": player, "kind": kind, "won": end.status is Status.WON,
            "bits": round(evidence.bits, 3), "counted": evidence.counted,
            "terms": [[int(choice.kept), round(choice.panel_keeps, 3),
                       round(choice.uniform_keeps, 3)] for choice in evidence.choices],
            "searches": evidence.searches, "ms": round((time.perf_counter() - began) * 1e3),
            "first_pass_turned": _turned_before_placing(start, line),
            "floor_ms": human_floor_ms(start, line)}


def _turned_before_placing(start: Any, line: Sequence[str]) -> float:
    """The share of the stock turned before the line's first placement (the pace rule's
    "turned the whole stock first" signal, measured on the same games)."""
    rules = rules_of(start.variant.slug)
    position, turned = start.copy(), 0
    stock = len(blind_of_variant(start.variant.slug).unseen(start)) or 1
    for text in line:
        move = rules.parse_move(text)
        if not rules.reveals(position, move):
            break
        turned += 1
        position.apply(move)
    return round(min(1.0, turned / stock), 3)


def book_deals(variant: str, first: int, last: int) -> Iterator[tuple[int, tuple[str, ...]]]:
    """The book's proved-won deals in ``first..last`` with their lines: deals as the
    daily's screening passes them (a daily is a proved-won deal; its seed is secret, its
    deal as random as a numbered one)."""
    for deal, decided in sorted(book_of(variant).items()):
        if first <= deal <= last and decided.result == "won":
            yield deal, decided.line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--deals", default="1-100", help="a range of the book's deals")
    parser.add_argument("--noisy-seeds", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=NODES)
    parser.add_argument("--solve-s", type=float, default=2.0)
    args = parser.parse_args(argv)
    low, _, high = args.deals.partition("-")
    rules = rules_of(args.variant)
    for deal, line in book_deals(args.variant, int(low), int(high or low)):
        start = rules.new_game(deal, args.variant)
        band = band_for(rate(start.copy()).rate, args.variant)
        for row in measure_deal(start, line, seeds=args.noisy_seeds, nodes=args.nodes,
                                solve_s=args.solve_s):
            print(json.dumps({"deal": deal, "variant": args.variant, "band": band, **row}),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
