"""Klondike: our solver against ShootMe's Klondike-Solver (``pyksolve``), deal by deal.

    python bench/klondike_vs_pyksolve.py --variant turn-3 --deals 1-200 --seconds 10
        [--their-mode fast+minimal|minimal|fast] [--states 5000000]
        [--fast-states 200000] [--table-mb 512] [--rows]

For each deal, in this one process on one core: our ``solve`` with a budget of
``--seconds``, then Klondike-Solver (through ``pyksolve``, its Cython wrapper)
with its caps in game states (below), both on the same deal. Prints, per
solver, the deals, won/lost/unknown, total seconds, deals per second and the
median milliseconds a deal; then the agreement table (our verdict against
theirs) and every disagreement with its likely cause. Machines here are
shared and noisy: compare the two figures of one run, not figures across runs.

Needs ``pip install pyksolve`` (0.0.15 ships a manylinux wheel for CPython 3.11,
so no compiler is needed; it wraps github.com/ShootMe/Klondike-Solver at commit
40c8bf9, which is what the rules below were read from).

**Same deal, proved every time.** Our deal goes to Klondike-Solver as its deck
string (``load_solitaire``): 52 cards of 3 digits, rank ``01``..``13`` then the
suit, ``1`` clubs, ``2`` diamonds, ``3`` hearts, ``4`` spades, in dealing
order. Its ``ResetGame`` deals *row by row*: card 0 face up on column 1,
cards 1..6 face down on columns 2..7, card 7 face up on column 2, cards 8..12
face down on 3..7, and so on (cards 0..27); cards 28..51 are the stock with
card 28 the first one turned (at turn-3, 28, 29, 30 are turned and 30 tops
the waste, as our engine's three pops do). So entry ``r`` of our
``columns[c]`` (bottom first), for each row ``r`` and ``c >= r``, then our
``stock`` from its last element (the next card) down. Before each solve the
benchmark checks this card by card: the board Klondike-Solver prints
(``game_diagram_pysol``: face-down cards in ``<>``, the stock from the next
card) must equal the one written from our position, or it stops. And every
win of theirs is replayed through our engine (their ``DR3`` is three D,
``NEW`` is R, ``F5`` a flip our engine makes by itself, ``WH`` w-f3, ``54-2``
t5-t4x2, ``S5`` f2-t5): it must be legal throughout and win, or the deal is
listed as a failed replay.

**Their rules and results** (from Solitaire.cpp). Draw count from
``reset_game(draw)``: 1 for turn-1, 3 for turn-3, only the waste's top card in
play, fewer than three turned at the stock's end. Unlimited redeals (the
solvers used here never cap the rounds; only ``SolveRandom``, not used, stops
at 10). Only Kings (or runs headed by one) into empty columns. Foundation
cards may come back onto the tableau. So the game is ours; but the move
generator prunes, and its "impossible" is only about the pruned graph:

* a run moves between columns only whole (all of a column's face-up cards),
  or partly when the card it uncovers can go home at once;
* a foundation card comes back only when its rank is above 2 plus the lowest
  foundation, and not onto the column the last move came from nor from the
  foundation the last move went to;
* a column's last card whose rank is below 2 plus the lowest foundation goes
  home as a forced move (the only move offered); a talon card that fits home
  with a rank at most 2 plus the lowest foundation is offered only for home,
  not onto a column, and at turn-1 it is the only move when it tops the waste
  or no column move was found, and no talon card beyond it is looked at;
* turns are folded into the talon move that plays a card (as ours are);
* its state key (``GameState``) holds the foundations, each column's face-up
  cards and the round count (mod 32), not where the stock/waste split lies,
  so two positions that differ only in the split are one state: at turn-3,
  where the split decides which cards can be reached, this can drop wins.

**Their searches** (``--their-mode``). ``SolveMinimal(states)`` (their
command line without ``/FAST``; cap ``--states``, default 5,000,000 as
theirs) is a best-first search for a *shortest* solution, so it does not stop
at its first win: ``SolvedMinimal`` (won, search finished),
``SolvedMayNotBeMinimal`` (won, but the cap came before it could show no
shorter line), ``Impossible`` (the pruned graph exhausted under the cap: "lost" here),
``CouldNotComplete`` (cap reached, no win: "unknown"). ``SolveFast`` is their
``/FAST``: three passes with shifts (0,0), (0,4), (1,4), each expanding only the
best one to three children of a state (a beam); it never says impossible; cap
``--fast-states`` a pass, default 200,000 as their command line's. Their
command line runs all three for the shortest line; here the passes stop after
the first that wins, but a pass itself, like ``SolveMinimal``, goes on after
its first win, looking for shorter lines until its cap or its open list runs
out: so their time a deal follows their caps more than the deal, and smaller
caps buy deals per second for fewer decided deals. ``fast+minimal`` (the
default) runs the fast passes and, when none wins, ``SolveMinimal``: like our
two passes, a quick search for a win, then the one that can say lost.
``minimal`` and ``fast`` run one kind alone. A cap counts the states entered
in the search's table; there is no time limit.

A disagreement is explained as: "their state cap" (they said unknown),
"our budget" (we said unknown), "their pruning" (we won a deal they call
impossible; the note says which of their omitted moves our line uses, if
any), or "OUR SOLVER" (we said lost and their win replays in our engine: a
bug of ours).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from dataclasses import dataclass, field

from patience import rules_of
from patience.cards import card_text
from patience.klondike import EngineError, Kind, Position, parse_move
from patience.protocol import Status
from solver_worker.deal_ranges import deal_list_argument
from solver_worker.driver import Budget
from solver_worker.games.klondike.search import solve

try:
    from pyksolve.solver import Solitaire, SolveResult  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - the benchmark's one extra dependency
    sys.exit("this benchmark needs pyksolve: pip install pyksolve")

VERDICTS = ("won", "lost", "unknown")
SUIT_DIGIT = ("1", "4", "3", "2")  # our suits C, S, H, D as their deck string's digits
FOUNDATION_OF = {"C": "f1", "S": "f2", "H": "f3", "D": "f4"}  # their suit letters, ours
MINIMAL_STATES = 5_000_000  # their command line's default cap
FAST_STATES = 200_000  # their command line's default cap with /FAST
FAST_SHIFTS = ((0, 0), (0, 4), (1, 4))  # the /FAST passes of KlondikeSolver.cpp
TOKEN = re.compile(r"^DR(\d+)$|^(NEW)$|^F([1-7])$|^([W1-7CDSH])([1-7CDSH])(?:-(\d+))?$")


# -- the deal, written for them and checked --------------------------------------------

def deck_string(position: Position) -> str:
    """Our fresh deal as Klondike-Solver's deck string (dealing order, row by row)."""
    order = [position.columns[c][r] for r in range(7) for c in range(r, 7)]
    order += reversed(position.stock)  # the next card to turn first
    return "".join(f"{card % 13 + 1:02d}{SUIT_DIGIT[card // 13]}" for card in order)


def expected_diagram(position: Position) -> str:
    """The board ``game_diagram_pysol`` must print for our fresh deal."""
    lines = ["Foundations: H-0 C-0 D-0 S-0",
             "Talon: ==> " + "".join(card_text(c) + " " for c in reversed(position.stock)) + "<=="]
    for column, down in zip(position.columns, position.down, strict=True):
        lines.append(":" + "".join(f" <{card_text(c)}>" for c in column[:down])
                     + "".join(f" {card_text(c)}" for c in column[down:]))
    return "\n".join(lines)


def load(solitaire: Solitaire, position: Position) -> None:
    """Set our deal up in their solver and check it card by card, or stop."""
    deck = deck_string(position)
    if not solitaire.load_solitaire(deck) or solitaire.get_solitaire() != deck:
        raise SystemExit(f"pyksolve refused the deck string {deck}")
    solitaire.reset_game(position.variant.draw)
    theirs, ours = solitaire.game_diagram_pysol(), expected_diagram(position)
    if theirs != ours:
        raise SystemExit(f"pyksolve's board differs from ours:\n{theirs}\n-- ours --\n{ours}")


# -- their line in our notation ------------------------------------------------------

def place(letter: str) -> str:
    if letter == "W":
        return "w"
    return FOUNDATION_OF.get(letter) or f"t{letter}"


def engine_moves(line: str) -> list[str]:
    """Their ``moves_made`` text as our engine's moves (flips are part of our moves)."""
    moves: list[str] = []
    for token in line.split():
        match = TOKEN.match(token)
        if match is None:
            raise ValueError(f"unknown move {token!r} in pyksolve's line")
        draws, new, flip, source, target, count = match.groups()
        if draws:
            moves += ["D"] * int(draws)
        elif new:
            moves.append("R")
        elif flip:
            continue
        else:
            text = f"{place(source)}-{place(target)}"
            moves.append(text + (f"x{count}" if count and int(count) > 1 else ""))
    return moves


def replays(position: Position, moves: list[str]) -> str:
    """'' when ``moves`` are legal from ``position`` and win in our engine, else why not."""
    twin = position.copy()
    for number, text in enumerate(moves, 1):
        try:
            twin.apply(parse_move(text))
        except EngineError as error:  # an illegal move or a bad text
            return f"move {number} ({text}) refused: {error}"
    return "" if twin.status is Status.WON else f"all {len(moves)} moves legal but not won"


# -- which of their omitted moves our line uses ---------------------------------------

def omitted_moves(position: Position, line: list[str]) -> list[str]:
    """The moves of our winning line that Klondike-Solver's generator never makes
    (module docstring): partial runs that uncover no card for home, low returns."""
    twin = position.copy()
    found: dict[str, int] = {}
    last_card_move = None
    for text in line:
        move = parse_move(text)
        kind = move.kind
        low = 2 + min(twin.foundations)
        if kind is Kind.COLUMN_TO_COLUMN:
            up = len(twin.columns[move.source]) - twin.down[move.source]
            if move.count < up:
                uncovered = twin.columns[move.source][-move.count - 1]
                if twin.foundations[uncovered // 13] != uncovered % 13:
                    found["partial run"] = found.get("partial run", 0) + 1
        elif kind is Kind.FOUNDATION_TO_COLUMN:
            if twin.foundations[move.source] <= low:
                found["low return"] = found.get("low return", 0) + 1
            elif last_card_move is not None and (
                    (last_card_move.source == move.target
                     and last_card_move.kind in (Kind.COLUMN_TO_COLUMN, Kind.COLUMN_TO_FOUNDATION))
                    or (last_card_move.target == move.source
                        and last_card_move.kind in (Kind.WASTE_TO_FOUNDATION,
                                                    Kind.COLUMN_TO_FOUNDATION))):
                found["return after last move"] = found.get("return after last move", 0) + 1
        if kind is not Kind.TURN and kind is not Kind.REDEAL:
            last_card_move = move
        twin.apply(move)
    return [f"{count} {name}" for name, count in found.items()]


# -- the two solvers ------------------------------------------------------------------

@dataclass
class Outcome:
    verdict: str
    ms: float
    note: str = ""  # their result's name, or our nodes
    line: list[str] = field(default_factory=list)


def ours(position: Position, seconds: float, table_mb: int) -> Outcome:
    start = time.perf_counter()
    result = solve(position, Budget(seconds=seconds), table_mb=table_mb)
    ms = (time.perf_counter() - start) * 1000
    return Outcome(result.verdict, ms, f"{result.nodes:,} nodes", list(result.line))


def theirs(solitaire: Solitaire, position: Position, mode: str, states: int,
           fast_states: int) -> Outcome:
    """Their solve (after ``load``); the time counts their search and nothing of ours."""
    draw = position.variant.draw
    start = time.perf_counter()
    result = None
    if mode in ("fast", "fast+minimal"):
        for two, three in FAST_SHIFTS:
            solitaire.reset_game(draw)
            result = solitaire.solve_fast(two_shift=two, three_shift=three,
                                          max_closed_count=fast_states)
            if result in (SolveResult.SolvedMinimal, SolveResult.SolvedMayNotBeMinimal):
                break
    if mode == "minimal" or (mode == "fast+minimal" and result not in (
            SolveResult.SolvedMinimal, SolveResult.SolvedMayNotBeMinimal)):
        solitaire.reset_game(draw)
        result = solitaire.solve_minimal(max_closed_count=states)
    ms = (time.perf_counter() - start) * 1000
    assert result is not None
    verdict = {SolveResult.SolvedMinimal: "won", SolveResult.SolvedMayNotBeMinimal: "won",
               SolveResult.Impossible: "lost", SolveResult.CouldNotComplete: "unknown"}[result]
    line = engine_moves(solitaire.moves_made()) if verdict == "won" else []
    note = result.name if verdict == "won" else (
        f"{result.name}, best {solitaire.foundation_count} cards home")
    return Outcome(verdict, ms, note, line)


def cause(position: Position, our: Outcome, their: Outcome, replay: str) -> str:
    """One line on why the two verdicts differ."""
    if our.verdict == "won" and their.verdict == "lost":
        omitted = omitted_moves(position, our.line)
        return "their pruning: our line uses " + (", ".join(omitted) if omitted else
                                                  "no omitted move (their key, forced moves?)")
    if their.verdict == "unknown":
        return "their state cap"
    if our.verdict == "unknown":
        return "our budget"
    if our.verdict == "lost" and their.verdict == "won":
        return ("OUR SOLVER: their line wins in our engine" if not replay
                else f"rule difference: their line fails in our engine, {replay}")
    return "?"


# -- the run --------------------------------------------------------------------------

def summary(name: str, outcomes: list[Outcome]) -> str:
    counts = {v: sum(o.verdict == v for o in outcomes) for v in VERDICTS}
    total = sum(o.ms for o in outcomes) / 1000
    return (f"  {name:<30} {len(outcomes):>5} deals  won {counts['won']:>4}  lost "
            f"{counts['lost']:>4}  unknown {counts['unknown']:>4}  {total:9.1f} s  "
            f"{len(outcomes) / total:8.2f} deals/s  median "
            f"{statistics.median(o.ms for o in outcomes):9.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", choices=("turn-1", "turn-3"), default="turn-3")
    parser.add_argument("--deals", type=deal_list_argument, default="1-200")
    parser.add_argument("--seconds", type=float, default=10.0, help="our budget a deal")
    parser.add_argument("--table-mb", type=int, default=512, help="our exact pass's table")
    parser.add_argument("--their-mode", choices=("fast+minimal", "minimal", "fast"),
                        default="fast+minimal")
    parser.add_argument("--states", type=int, default=MINIMAL_STATES,
                        help="their SolveMinimal's cap (game states)")
    parser.add_argument("--fast-states", type=int, default=FAST_STATES,
                        help="their cap a SolveFast pass (game states)")
    parser.add_argument("--rows", action="store_true", help="print a row per deal")
    args = parser.parse_args()

    caps = {"minimal": f"SolveMinimal cap {args.states:,} states",
            "fast": f"3 SolveFast passes, cap {args.fast_states:,} states each",
            "fast+minimal": f"3 SolveFast passes, cap {args.fast_states:,} states each, "
                            f"then SolveMinimal cap {args.states:,}"}[args.their_mode]
    print(f"klondike {args.variant}, {len(args.deals)} deals, one process, one core, "
          f"each deal ours then theirs:\n  ours: solve, {args.seconds:g} s a deal, table "
          f"{args.table_mb} MB; theirs: pyksolve {args.their_mode} ({caps})")
    rules, solitaire = rules_of(args.variant), Solitaire()
    rows: list[tuple[int, Outcome, Outcome, str]] = []
    for deal in args.deals:
        position = rules.new_game(deal, args.variant)
        our = ours(position, args.seconds, args.table_mb)
        load(solitaire, position)  # checked card by card before their search
        their = theirs(solitaire, position, args.their_mode, args.states, args.fast_states)
        replay = replays(position, their.line) if their.verdict == "won" else ""
        rows.append((deal, our, their, replay))
        if args.rows:
            print(f"    deal {deal:>6}: ours {our.verdict:<7} {our.ms:9.1f} ms ({our.note}); "
                  f"theirs {their.verdict:<7} {their.ms:9.1f} ms ({their.note})"
                  + (f"; REPLAY FAILED: {replay}" if replay else ""), flush=True)

    print(summary("ours (solver_worker)", [r[1] for r in rows]))
    print(summary(f"theirs (pyksolve {args.their_mode})", [r[2] for r in rows]))
    their_wins = [r for r in rows if r[2].verdict == "won"]
    print(f"  deals checked card by card against pyksolve's board: {len(rows)}/{len(rows)}; "
          f"their wins replayed and won in our engine: "
          f"{sum(not r[3] for r in their_wins)}/{len(their_wins)}")

    print("  agreement (rows ours, columns theirs):")
    print("    " + " " * 14 + "".join(f"{'theirs ' + v:>16}" for v in VERDICTS))
    for mine in VERDICTS:
        print(f"    {'ours ' + mine:<14}" + "".join(
            f"{sum(r[1].verdict == mine and r[2].verdict == v for r in rows):>16}"
            for v in VERDICTS))
    agree = sum(r[1].verdict == r[2].verdict for r in rows)
    both_unknown = sum(r[1].verdict == r[2].verdict == "unknown" for r in rows)
    print(f"    same verdict on {agree} deals ({both_unknown} of them both unknown); "
          f"{len(rows) - agree} disagreements")
    for deal, our, their, replay in rows:
        if our.verdict != their.verdict:
            print(f"    deal {deal:>6}: ours {our.verdict} ({our.ms:.0f} ms), theirs "
                  f"{their.verdict} ({their.note}, {their.ms:.0f} ms): "
                  f"{cause(rules.new_game(deal, args.variant), our, their, replay)}")
    failed = [r for r in their_wins if r[3]]
    for deal, _, _, replay in failed:
        print(f"    deal {deal:>6}: their win does not replay in our engine: {replay}")


if __name__ == "__main__":
    main()
