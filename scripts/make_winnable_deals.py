"""Make the list of proved-won deals that "winnable deals only" deals from.

    python scripts/make_winnable_deals.py --variant classic --count 1200 --budget-s 1
    python scripts/make_winnable_deals.py --variant turn-3 --count 1000 --budget-s 1
    python scripts/make_winnable_deals.py --variant st-helena --from-book

Picks ``--count`` deal numbers at random over 1..999,999 (a fixed seed, so a rerun
asks the same deals), asks the project's solver CLI about them on ONE core
(``python -m solver_worker.solve --jobs 1 --json``), replays every line the solver
calls won with the rules engine, and writes the deals whose line really ends in a
win to ``solver_worker/data/winnable/<variant>.txt``: one ``<deal> <line>`` per row, sorted by
deal. The line ships too, so a test can replay a sample and nobody has to trust
the file. Deals the solver leaves unknown or lost are simply not listed.

With ``--from-book`` no solver runs: the won lines of the variant's book of solved
deals (``solver_worker/data/solved/``, read by ``solver_worker.book``) are the ones
asked, and each is replayed by the rules engine all the same before it is listed.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from patience import all_variants, rules_of  # noqa: E402
from solver_worker.book import book_of, replays_to_a_win  # noqa: E402

DATA = ROOT / "solver_worker" / "data" / "winnable"
CHUNK = 200  # deals per solver run: progress shows, and a stop loses little


def pick_deals(variant: str, count: int, seed: int) -> list[int]:
    chooser = random.Random(f"{seed}:{variant}")
    rules = rules_of(variant)
    return sorted(chooser.sample(range(rules.min_deal, rules.max_deal + 1), count))


def solve(variant: str, deals: list[int], budget_s: float) -> list[dict[str, object]]:
    command = [sys.executable, "-m", "solver_worker.solve", "--variant", variant,
               "--deals", ",".join(map(str, deals)), "--jobs", "1",
               "--budget-s", str(budget_s), "--json"]
    out = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return [row for row in map(json.loads, out.splitlines()) if not row.get("summary")]


def won_from_the_solver(variant: str, count: int, seed: int,
                        budget_s: float) -> dict[int, list[str]]:
    deals = pick_deals(variant, count, seed)
    won: dict[int, list[str]] = {}
    asked = 0
    for start in range(0, len(deals), CHUNK):
        rows = solve(variant, deals[start:start + CHUNK], budget_s)
        asked += len(rows)
        for row in rows:
            deal, line = int(row["deal"]), list(row["line"])  # type: ignore[call-overload]
            if row["result"] == "won" and replays_to_a_win(variant, deal, line):
                won[deal] = line
        print(f"{variant}: {len(won)} won of {asked} asked", file=sys.stderr, flush=True)
    return won


def won_from_the_book(variant: str) -> dict[int, list[str]]:
    """The book's won deals whose line the rules engine replays to a win (a line that
    does not is left out and said, never listed on trust)."""
    won: dict[int, list[str]] = {}
    for deal, entry in sorted(book_of(variant).items()):
        if entry.result != "won":
            continue
        if replays_to_a_win(variant, deal, list(entry.line)):
            won[deal] = list(entry.line)
        else:
            print(f"{variant}: deal {deal}'s book line does not replay to a win", file=sys.stderr)
    return won


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    slugs = sorted(variant.slug for _, variant in all_variants())
    parser.add_argument("--variant", required=True, choices=slugs)
    parser.add_argument("--count", type=int, default=600, help="deals to ask the solver")
    parser.add_argument("--budget-s", type=float, default=1.0, help="solver seconds a deal")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--from-book", action="store_true",
                        help="list the book's won deals (replayed) instead of running the solver")
    args = parser.parse_args(argv)
    if args.from_book:
        asked = sum(entry.result == "won" for entry in book_of(args.variant).values())
        won = won_from_the_book(args.variant)
    else:
        asked = args.count
        won = won_from_the_solver(args.variant, args.count, args.seed, args.budget_s)
    DATA.mkdir(parents=True, exist_ok=True)
    target = DATA / f"{args.variant}.txt"
    target.write_text("".join(f"{deal} {' '.join(won[deal])}\n" for deal in sorted(won)))
    print(json.dumps({"variant": args.variant, "asked": asked, "won": len(won),
                      "source": "book" if args.from_book else "solver",
                      "budget_s": None if args.from_book else args.budget_s, "file": target.name}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
