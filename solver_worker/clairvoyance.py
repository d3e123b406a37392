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
would not. The threshold comes from measurement (``python -m solver_worker.fairplay_measure``
and docs/figures.md): honest blind players of every strength against solver lines.
"""

from __future__ import annotations

import functools
import json
import math
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from patience import Status, rules_of

from .driver import Budget, Verdict
from .games import blind_of, solve_position

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
    verdicts = [verdict_after(position, choice, memo, nodes, evidence) for choice in choices]
    mine = _verdict_of(move, choices, verdicts, blind.same_choice)
    if mine == "unknown":
        evidence.undecided += 1
        return
    if "won" not in verdicts:
        return  # lost already (or no win found): no choice to keep
    panel, uniform = _keep_shares(picks, choices, verdicts, blind.same_choice)
    _add(evidence, Choice(ply, move.notation, mine == "won", panel, uniform,
                          panel={name: pick.notation for name, pick in picks.items() if pick}))


def verdict_after(position: Any, move: Any, memo: Cache, nodes: int,
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


RUNNING_WINS: Final = 7  # a player's evidence adds up over their last this many wins


@dataclass(frozen=True, slots=True)
class Limits:
    """A variant's fair-play limits, measured (``python -m solver_worker.fairplay_measure
    limits``; docs/figures.md): the bits that hold a win on its own, the bits that hold
    it with the player's previous wins (``running[n - 1]``: the sum over their last n
    wins, this one included), the floor of the median placement interval, and the
    floor of a win's whole time.

    One game says little when its deal leaves few choices that matter; a cheat who
    uses a scout every day leaves evidence in every win, a lucky honest player does not
    (docs/figures.md measures both), so the sum over a player's wins is the test."""

    bits: float
    median_ms: int
    win_ms: int
    running: tuple[float, ...] = ()

    def bar(self, wins: int) -> float:
        """The bits the sum over ``wins`` wins must reach to hold the last of them."""
        if not self.running:
            return self.bits * wins
        return self.running[min(wins, len(self.running)) - 1]


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
    # No bits: measured, the judge cannot tell cheats from honest play there (the cross:
    # blind play wins nearly every deal); its findings are kept, no win is held for them.
    bits = math.inf if found["bits"] is None else float(found["bits"])
    return Limits(bits, int(found["median_ms"]), int(found["win_ms"]),
                  tuple(float(bar) for bar in found.get("running", ())))
