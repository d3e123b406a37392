"""Rate deals by the graded blind players: ``python -m solver_worker.rate``.

``python -m solver_worker.rate --variant V --deals 1-500 --jobs 1 --json
[--winnable-only --budget-s S] [--bands-out solver_worker/data/bands.json]``
plays the ladder of ``solver_worker.rating`` on each deal and prints one line
per deal (``{"deal", "variant", "wins", "games", "rate", "ms"}``, with
``"winnable"`` when screened), then a summary: the rates' histogram in tenths,
their quartiles and the three cuts between the bands easy | medium | hard |
expert. ``--winnable-only`` first asks the solver (``--budget-s`` each) and
rates only the deals it proves winnable, as the dailies are. ``--bands-out``
stores the variant's cuts (and this command) in the bands file the site reads.
Exit code 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from patience import DEFAULT_GAME, rules_of

from .deal_ranges import parse_deal_list
from .driver import Budget
from .games import blind_of_variant, blind_variants, solve_position
from .rating import BANDS, band_of, cuts_from, ladder, rate


def rate_one(deal: int, variant: str, budget_s: float | None) -> dict[str, Any]:
    position = rules_of(variant).new_game(deal, variant)
    row: dict[str, Any] = {"deal": deal, "variant": variant}
    if budget_s is not None:
        verdict = solve_position(position.copy(), Budget(seconds=budget_s)).verdict
        row["winnable"] = verdict == "won"
        if verdict != "won":
            return row
    start = time.perf_counter()
    rating = rate(position)
    row.update(wins=rating.wins, games=rating.games, rate=round(rating.rate, 4),
               ms=round((time.perf_counter() - start) * 1000, 1))
    return row


def run(deals: Sequence[int], variant: str, jobs: int, budget_s: float | None
        ) -> Iterator[dict[str, Any]]:
    work = partial(rate_one, variant=variant, budget_s=budget_s)
    if jobs <= 1:
        yield from map(work, deals)
        return
    with Pool(jobs) as pool:
        yield from pool.imap(work, deals, chunksize=4)


def histogram(rates: Sequence[float]) -> list[dict[str, Any]]:
    """Deals per tenth of win rate: [0, 0.1), [0.1, 0.2), ... [0.9, 1.0]."""
    counts = [0] * 10
    for value in rates:
        counts[min(9, int(value * 10))] += 1
    return [{"from": tenth / 10, "to": (tenth + 1) / 10, "deals": count}
            for tenth, count in enumerate(counts)]


def summarise(rows: Sequence[dict[str, Any]], variant: str, wall_s: float) -> dict[str, Any]:
    rated = [row for row in rows if "rate" in row]
    rates = sorted(row["rate"] for row in rated)
    cuts = cuts_from(rates) if rates else []
    count = len(rates)
    return {
        "summary": True, "variant": variant, "deals": len(rows), "rated": count,
        # The variant's game plays the rungs it has rule players for (rating.ladder).
        "games_per_deal": sum(policy.seeds for policy in ladder(blind_of_variant(variant))),
        "mean_rate": round(sum(rates) / count, 4) if count else None,
        "quartiles": [rates[min(count - 1, count * q // 4)] for q in (1, 2, 3)] if count else [],
        "never_won": sum(value == 0 for value in rates),
        "histogram": histogram(rates),
        "cuts": cuts,
        "bands": {band: sum(band_of(value, cuts) == band for value in rates)
                  for band in BANDS} if cuts else {},
        "ms_per_deal": round(sum(row["ms"] for row in rated) / count, 1) if count else None,
        "wall_s": round(wall_s, 1),
    }


def store_cuts(path: Path, summary: dict[str, Any], command: str) -> None:
    data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    data.setdefault("about", "win-rate cuts between the bands easy | medium | hard | "
                             "expert, from the quartiles of rated deals (solver_worker.rate)")
    data.setdefault("variants", {})[summary["variant"]] = {
        "thresholds": summary["cuts"], "deals": summary["rated"],
        "games_per_deal": summary["games_per_deal"], "command": command,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m solver_worker.rate",
        description="Rate deals by how often graded stock-blind players win them.",
    )
    parser.add_argument("--variant", choices=blind_variants(),
                        default=DEFAULT_GAME.default_variant.slug)
    parser.add_argument("--deals", default="1-100", help="ranges and lists: 1-500 or 7,19,23")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="JSON lines (the default too)")
    parser.add_argument("--winnable-only", action="store_true",
                        help="rate only the deals the solver proves winnable")
    parser.add_argument("--budget-s", type=float, default=2.0,
                        help="with --winnable-only: solver seconds per deal")
    parser.add_argument("--bands-out", type=Path, default=None,
                        help="store the variant's cuts in this bands file")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        deals = parse_deal_list(args.deals)
    except ValueError as error:
        parser.error(str(error))  # exits with status 2
    if args.jobs < 1 or args.budget_s <= 0:
        parser.error("--jobs and --budget-s must be positive")
    budget = args.budget_s if args.winnable_only else None
    start = time.perf_counter()
    rows = []
    for row in run(deals, args.variant, args.jobs, budget):
        rows.append(row)
        print(json.dumps(row), flush=True)
    summary = summarise(rows, args.variant, time.perf_counter() - start)
    print(json.dumps(summary), flush=True)
    if args.bands_out is not None and summary["cuts"]:
        command = "python -m solver_worker.rate " + shlex.join(
            sys.argv[1:] if argv is None else list(argv))
        store_cuts(args.bands_out, summary, command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
