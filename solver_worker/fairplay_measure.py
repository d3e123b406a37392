"""Measuring the fair-play judge (solver_worker.clairvoyance): honest blind players of
every strength against cheats that play a solver's line, on proved-won deals banded as
dailies are, and the limits chosen from what was measured.

    python -m solver_worker.fairplay_measure measure --variant classic --deals 1-2400 \
        > classic.jsonl
    python -m solver_worker.fairplay_measure limits classic.jsonl three-card.jsonl ... \
        [--false-flags 0.01] [--out solver_worker/data/fair_play.json]

``measure`` prints one JSON row per game: the player (a rule player with its slip
chance, or a cheat), won or not, the judge's bits and each counted choice's terms (so
the model's weights can be tried again without searching), the share of the stock
turned before the first placement and the game's human floor in milliseconds.
``limits`` prints the curves (false flags on honest games against cheats held, by
threshold and by band) and writes each variant's limits: the bits at which at most
``--false-flags`` of the honest wins are held, the median-placement floor, and the 1st
percentile of the honest wins' human floors as the whole-win floor.

The cheats: ``solver`` (the book's winning line: a scout's stock fed to a solver),
``disguised`` (the careful player's move while it keeps the win, else the solver's:
knowledge used only where blind play would lose) and, where the stock may be gone
through again, ``first-pass`` (every card turned first, then a solver's line).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from patience import Status, rules_of

from .book import book_of
from .clairvoyance import (
    LIMITS_FILE,
    NODES,
    PLACEMENT_FLOOR_MS,
    RUNNING_WINS,
    Cache,
    Evidence,
    human_floor_ms,
    judge,
    verdict_after,
)
from .driver import Budget
from .games import blind_of, blind_of_variant, solve_position
from .players import MAX_PLIES
from .rating import BANDS, band_for, rate, shipped_bands

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
                verdict_after(position, careful, cache, nodes, counter) == "won":
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



# -- measuring: honest players against cheats on rated deals ----------------------------

CHEATS: Final = ("solver", "disguised", "first-pass")
HONEST: Final = (("careful", 0.0), ("careful", 0.03), ("careful", 0.1), ("careful", 0.3),
                 ("freeing", 0.05), ("near2", 0.05), ("spare-cell", 0.0), ("near1", 0.0),
                 ("freeing", 0.0))


def measure_deal(start: Any, line: Sequence[str], *, seeds: int = 1, nodes: int = NODES,
                 solve_s: float = 2.0, cheats: Sequence[str] = CHEATS
                 ) -> list[dict[str, Any]]:
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
    made: dict[str, Callable[[], list[str] | None]] = {
        "solver": lambda: list(line),
        "disguised": lambda: disguised_line(start, cache, nodes, solve_s),
    }
    if _has_redeal(start):
        made["first-pass"] = lambda: first_pass_line(start, solve_s)
    for name, make in made.items():
        if name not in cheats:
            continue
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


# -- the limits, from measured rows -------------------------------------------------

THRESHOLDS: Final = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0)


def read_rows(paths: Iterable[Path]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in paths:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as lines:
            rows.extend(json.loads(line) for line in lines if line.strip())
    return rows


def threshold(rows: list[dict[str, Any]], false_flags: float) -> float:
    """The least bits (to 0.01) at which at most ``false_flags`` of the honest wins are
    held: a lost result is never held, so the honest wins are what it costs."""
    honest = sorted(row["bits"] for row in rows if row["kind"] == "honest" and row["won"])
    if not honest:
        return float("inf")
    allowed = int(false_flags * len(honest))
    return round(honest[len(honest) - 1 - allowed] + 0.01, 2) if allowed < len(honest) \
        else 0.0


def held_share(rows: list[dict[str, Any]], bits: float, **match: Any) -> tuple[int, int]:
    chosen = [row for row in rows if all(row[key] == value for key, value in match.items())]
    return sum(row["bits"] >= bits for row in chosen), len(chosen)


def curve(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """False flags (honest wins, every honest game) and cheats held, by threshold."""
    points = []
    for bits in THRESHOLDS:
        point: dict[str, Any] = {"bits": bits,
                                 "honest_wins": held_share(rows, bits, kind="honest", won=True),
                                 "honest_all": held_share(rows, bits, kind="honest")}
        for cheat in CHEATS:
            point[cheat] = held_share(rows, bits, player=cheat)
        points.append(point)
    return points


def by_band(rows: list[dict[str, Any]], bits: float) -> dict[str, dict[str, Any]]:
    found = {}
    for band in BANDS:
        banded = [row for row in rows if row["band"] == band]
        if banded:
            found[band] = {"deals": len({row["deal"] for row in banded}),
                           "honest_wins": held_share(banded, bits, kind="honest", won=True),
                           **{cheat: held_share(banded, bits, player=cheat) for cheat in CHEATS}}
    return found


FLOOR_DEALS: Final = 600  # deals replayed for the win floor when rows lack it


def win_floor_ms(rows: list[dict[str, Any]]) -> int:
    """The 1st percentile of the honest wins' human floors: from the rows, or (rows made
    before they carried it) from the honest rule players' wins on the rows' deals."""
    floors = sorted(row["floor_ms"] for row in rows
                    if row["kind"] == "honest" and row["won"] and "floor_ms" in row)
    if not floors and rows:
        deals = sorted({row["deal"] for row in rows})[:FLOOR_DEALS]
        floors = sorted(replayed_floors(rows[0]["variant"], deals))
    return floors[len(floors) // 100] if floors else 0


def replayed_floors(variant: str, deals: Iterable[int]) -> Iterator[int]:
    """The human floor of every honest rule player's win on ``deals``."""
    rules = rules_of(variant)
    for deal in deals:
        start = rules.new_game(deal, variant)
        for name, slip in HONEST:
            if name not in blind_of(start).rule_players:
                continue
            line = rule_line(start, name, slip)
            end = start.copy()
            for text in line:
                end.apply(rules.parse_move(text))
            if end.status is Status.WON:
                yield human_floor_ms(start, line)


DRAWS: Final = 20_000  # sampled runs of wins per length, for the running bars


def wins_by_player(rows: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Each player's bits on the deals it won (an honest player is one rule player
    with one slip chance: a person of one skill over many days)."""
    found: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        if row["won"]:
            found[row["player"]].append(row["bits"])
    return found


def sampled_sums(wins: dict[str, list[float]], players: Sequence[str], length: int,
                 rng: random.Random, draws: int = DRAWS) -> list[float]:
    """The sums of bits over ``length`` wins on distinct deals, each run one player's."""
    able = [player for player in players if len(wins.get(player, ())) >= length]
    if not able:
        return []
    return sorted(sum(rng.sample(wins[rng.choice(able)], length)) for _ in range(draws))


def running_bars(rows: list[dict[str, Any]], false_flags: float) -> list[float]:
    """For 1..RUNNING_WINS wins: the sum of bits at which at most ``false_flags`` of the
    honest players' runs of that many wins are held (their last win is the one held)."""
    wins, rng = wins_by_player(rows), random.Random("running bars")
    honest = sorted({row["player"] for row in rows if row["kind"] == "honest"})
    bars: list[float] = []
    for length in range(1, RUNNING_WINS + 1):
        sums = sampled_sums(wins, honest, length, rng)
        if not sums:
            break
        bar = round(sums[min(len(sums) - 1, int(len(sums) * (1 - false_flags)))] + 0.01, 2)
        bars.append(max(bar, bars[-1]) if bars else bar)  # more wins never need fewer bits
    return bars


def running_held(rows: list[dict[str, Any]], bars: Sequence[float]) -> dict[str, list[float]]:
    """The share of runs of n wins whose n-th win is held, n = 1, 2, ...: the honest
    players' (drawn afresh, apart from the draws that set the bars) and each cheat's."""
    wins, rng = wins_by_player(rows), random.Random("running held")
    honest = sorted({row["player"] for row in rows if row["kind"] == "honest"})
    found: dict[str, list[float]] = {}
    for name, players in [("honest", honest), *((cheat, [cheat]) for cheat in CHEATS)]:
        shares = []
        for length, bar in enumerate(bars, start=1):
            sums = sampled_sums(wins, players, length, rng, draws=5_000)
            if sums:
                shares.append(round(sum(total >= bar for total in sums) / len(sums), 4))
        if shares:
            found[name] = shares
    return found


LEAST_HELD: Final = 0.25  # the share of cheats' longest runs that must be held at all


def telling_apart(held: dict[str, list[float]]) -> bool:
    """Whether the judge tells the solver's line from honest play on this variant at all:
    at the longest run measured, at least LEAST_HELD of the cheats' runs are held. Where
    blind play wins nearly every deal (the cross) a scout teaches nothing and the
    choices cannot show it: holding wins there would only cost honest players."""
    cheats = held.get("solver", [])
    return bool(cheats) and cheats[-1] >= LEAST_HELD


def limits_of(rows: list[dict[str, Any]], false_flags: float) -> dict[str, Any]:
    bits = threshold(rows, false_flags)
    first_pass = [row for row in rows if row["kind"] == "honest"]
    bars = [bits, *running_bars(rows, false_flags)[1:]]  # one win: the exact quantile
    held = running_held(rows, bars)
    telling = telling_apart(held)
    return {
        "bits": bits if telling else None, "median_ms": PLACEMENT_FLOOR_MS,
        "win_ms": win_floor_ms(rows), "running": bars if telling else [],
        "measured_bars": bars, "running_held": held,
        "false_flags": false_flags, "deals": len({row["deal"] for row in rows}),
        "honest_games": len(first_pass),
        "honest_whole_stock_first": sum(row["first_pass_turned"] >= 1 for row in first_pass),
        "curve": curve(rows), "bands": by_band(rows, bits),
    }


def _share(pair: Sequence[int]) -> str:
    held, total = pair
    return f"{held}/{total} ({held / total:.1%})" if total else "-"


def print_report(variant: str, found: dict[str, Any]) -> None:
    bar = found["bits"] if found["bits"] is not None else "no bits (the judge cannot tell)"
    print(f"\n{variant}: {found['deals']} deals, held from {bar} "
          f"(at most {found['false_flags']:.0%} of honest wins); win floor "
          f"{found['win_ms']} ms")
    print("bits | honest wins held | honest games held | " + " | ".join(CHEATS))
    for point in found["curve"]:
        print(f"{point['bits']} | {_share(point['honest_wins'])} | "
              f"{_share(point['honest_all'])} | "
              + " | ".join(_share(point[cheat]) for cheat in CHEATS))
    print("band | deals | honest wins held | " + " | ".join(CHEATS))
    for band, figures in found["bands"].items():
        print(f"{band} | {figures['deals']} | {_share(figures['honest_wins'])} | "
              + " | ".join(_share(figures[cheat]) for cheat in CHEATS))
    print("wins in a row | bar (bits) | " + " | ".join(found["running_held"]))
    for number, bar in enumerate(found["measured_bars"], start=1):
        print(f"{number} | {bar} | " + " | ".join(
            f"{shares[number - 1]:.1%}" for shares in found["running_held"].values()
            if len(shares) >= number))


def write_limits(path: Path, measured: dict[str, dict[str, Any]], command: str) -> None:
    kept = json.loads(path.read_text()) if path.exists() else {}
    variants = kept.get("variants", {})
    variants.update(measured)
    path.write_text(json.dumps({
        "about": "fair-play limits measured by solver_worker.fairplay_measure: the judge's "
                 "bits that hold a won result, the median-placement and whole-win floors",
        "command": command, "variants": variants}, indent=1) + "\n")


# -- the command line -------------------------------------------------------------------

def measure(args: argparse.Namespace) -> int:
    low, _, high = args.deals.partition("-")
    rules = rules_of(args.variant)
    for deal, line in book_deals(args.variant, int(low), int(high or low)):
        start = rules.new_game(deal, args.variant)
        band = band_of_deal(start)
        for row in measure_deal(start, line, seeds=args.noisy_seeds, nodes=args.nodes,
                                solve_s=args.solve_s, cheats=args.cheats):
            print(json.dumps({"deal": deal, "variant": args.variant, "band": band, **row}),
                  flush=True)
    return 0


def band_of_deal(start: Any) -> str:
    """The deal's daily band, as the daily's screening rates it ("" for a variant that
    has no bands: its dailies are not banded)."""
    if start.variant.slug not in shipped_bands()["variants"]:
        return ""
    return band_for(rate(start.copy()).rate, start.variant.slug)


def limits_command(args: argparse.Namespace) -> int:
    rows = read_rows(args.runs)
    by_variant: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_variant[row["variant"]].append(row)
    measured = {variant: limits_of(found, args.false_flags)
                for variant, found in sorted(by_variant.items())}
    for variant, found in measured.items():
        print_report(variant, found)
    if args.out:
        write_limits(args.out, measured, "python -m solver_worker.fairplay_measure limits "
                     + " ".join(path.name for path in args.runs)
                     + f" --false-flags {args.false_flags}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("measure", help="play and judge, one JSON row a game")
    run.add_argument("--variant", required=True)
    run.add_argument("--deals", default="1-100", help="a range of the book's deals")
    run.add_argument("--noisy-seeds", type=int, default=1)
    run.add_argument("--nodes", type=int, default=NODES)
    run.add_argument("--solve-s", type=float, default=2.0)
    run.add_argument("--cheats", nargs="+", choices=CHEATS, default=list(CHEATS),
                     help="the cheats to play (each costs searches)")
    run.set_defaults(handler=measure)
    chosen = commands.add_parser("limits", help="curves and limits from measured rows")
    chosen.add_argument("runs", nargs="+", type=Path)
    chosen.add_argument("--false-flags", type=float, default=0.01)
    chosen.add_argument("--out", type=Path, help=f"e.g. {LIMITS_FILE.name} in the data")
    chosen.set_defaults(handler=limits_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
