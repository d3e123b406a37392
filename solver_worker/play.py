"""Blind players over many deals: ``python -m solver_worker.play``.

``python -m solver_worker.play --player careful|freeing|sampling --variant V
--deals 1-2400 --jobs 2 --json [--samples K] [--nodes N] [--solve-s S]
[--seed N]`` plays each deal from the start with the chosen player
(``solver_worker.players``) and prints one line per deal as it finishes, in
deal order: with ``--json`` a JSON object ``{"deal", "variant", "player",
"result", "moves", "ms"}``, then a summary object ``{"summary": true,
"player", "variant", "games", "wins", "win_rate", "ci95", "s_per_game",
"wall_s"}``; without it a readable table. ``ci95`` is the Wilson score
interval of the win rate; ``s_per_game`` the mean time one game took (on one
core); ``wall_s`` the whole run's wall time.

``--deals`` takes ranges and lists, mixed: ``1-2400``, ``7,19,23``,
``1-10,50,90-99``; ``--sample N --seed-deals S`` instead plays N deal numbers drawn
at random from 1..999,999 (the solve CLI's sample). Exit code 2 on bad
arguments.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from functools import partial
from multiprocessing import Pool
from typing import Any, Final

from patience import DEFAULT_GAME

from .deal_ranges import HIGHEST_DEAL, parse_deal_list, sample_deals
from .games import blind_of_variant, blind_variants
from .players import NODES, SAMPLES, SOLVE_S, Game, play_game

Z95: Final = 1.959963984540054  # the normal quantile for a two-sided 95% interval


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (0, 1 when no games)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise(
    rows: Sequence[dict[str, Any]], player: str, variant: str, wall_s: float
) -> dict[str, Any]:
    games = len(rows)
    wins = sum(row["result"] == "won" for row in rows)
    low, high = wilson(wins, games)
    total_ms = sum(row["ms"] for row in rows)
    return {
        "summary": True, "player": player, "variant": variant, "games": games,
        "wins": wins, "win_rate": round(wins / games, 4) if games else 0.0,
        "ci95": [round(low, 4), round(high, 4)],
        "s_per_game": round(total_ms / games / 1000, 4) if games else 0.0,
        "wall_s": round(wall_s, 1),
    }


def _one(deal: int, variant: str, player: str, options: dict[str, Any]) -> dict[str, Any]:
    game: Game = play_game(deal, variant, player, **options)
    return game.as_json()


def run(
    deals: Sequence[int], variant: str, player: str, jobs: int, options: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    """Per-deal rows in deal order, streamed as they finish."""
    work = partial(_one, variant=variant, player=player, options=options)
    if jobs <= 1:
        yield from map(work, deals)
        return
    with Pool(jobs) as pool:
        yield from pool.imap(work, deals, chunksize=1)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m solver_worker.play",
        description="Play deals with a blind player and report its win rate.",
    )
    parser.add_argument("--player", default="careful",
                        help="a rule player of the variant's game (careful in every game; "
                             "each game's package lists its others), or sampling (any game)")
    parser.add_argument("--variant", choices=blind_variants(),
                        default=DEFAULT_GAME.default_variant.slug)
    parser.add_argument("--deals", default="1-100", help="ranges and lists: 1-2400 or 7,19,23")
    parser.add_argument("--sample", type=int, help="play this many random deal numbers instead")
    parser.add_argument("--seed-deals", type=int, default=0, help="--sample's random seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    parser.add_argument("--samples", type=int, default=SAMPLES,
                        help="sampling: stock orders per decision")
    parser.add_argument("--nodes", type=int, default=NODES, help="sampling: nodes per solve")
    parser.add_argument("--solve-s", type=float, default=SOLVE_S,
                        help="sampling: seconds per solve, at most")
    parser.add_argument("--seed", type=int, default=0, help="sampling: random seed")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        deals = parse_deal_list(args.deals)
    except ValueError as error:
        parser.error(str(error))  # exits with status 2
    if args.sample is not None:
        if not 0 < args.sample <= HIGHEST_DEAL:
            parser.error(f"--sample takes 1 to {HIGHEST_DEAL:,} deals")
        deals = sample_deals(args.sample, args.seed_deals)
    if args.jobs < 1 or args.samples < 1 or args.nodes < 1 or args.solve_s <= 0:
        parser.error("--jobs, --samples, --nodes and --solve-s must be positive")
    known = [*blind_of_variant(args.variant).rule_players, "sampling"]
    if args.player not in known:
        parser.error(f"--player: {args.variant} has the players {', '.join(known)}")
    options: dict[str, Any] = {}
    if args.player == "sampling":
        options = {"samples": args.samples, "nodes": args.nodes, "seconds": args.solve_s,
                   "seed": args.seed}
    start = time.perf_counter()
    rows = []
    if not args.json:
        print(f"{'deal':>7}  {'result':6}  {'moves':>5}  {'ms':>9}")
    for row in run(deals, args.variant, args.player, args.jobs, options):
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{row['deal']:>7}  {row['result']:6}  {row['moves']:>5}  {row['ms']:>9.1f}",
                  flush=True)
    summary = summarise(rows, args.player, args.variant, time.perf_counter() - start)
    if args.json:
        print(json.dumps(summary), flush=True)
    else:
        low, high = summary["ci95"]
        print(
            f"{summary['player']} on {summary['variant']}: {summary['wins']} of "
            f"{summary['games']} won ({100 * summary['win_rate']:.1f}%, 95% interval "
            f"{100 * low:.1f}-{100 * high:.1f}%), {summary['s_per_game']:.3f} s per game, "
            f"{summary['wall_s']:.1f} s wall"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
