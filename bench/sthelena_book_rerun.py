"""Merge a re-run of St. Helena's undecided book deals into the book.

    python bench/sthelena_book_rerun.py RERUN.jsonl [--checked-lost 12,34]

RERUN.jsonl is ``python -m solver_worker.solve --variant st-helena --deals <the
book's unknown deals> --budget-s 60 --json``'s output. A deal the book holds
as unknown takes the re-run's verdict when it is "won" (its line is replayed
through the engine here once more) or when it is "lost" and named in
``--checked-lost`` (a loss goes in only once a second method has confirmed it).
The book's summary line is made again from the merged records. Prints what
changed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path
from typing import Any

from patience import rules_of
from solver_worker.book import SOLVED_DIR, records
from solver_worker.deal_ranges import deal_list_argument
from solver_worker.games.sthelena.search import replay_line
from solver_worker.solve import summarise

VARIANT = "st-helena"
BOOK = SOLVED_DIR / "st-helena-1-500.jsonl.gz"


def merged(book: list[dict[str, Any]], rerun: dict[int, dict[str, Any]],
           checked_lost: set[int]) -> tuple[list[dict[str, Any]], list[str]]:
    rows, changes = [], []
    for row in book:
        new = rerun.get(row["deal"])
        decided = new is not None and (
            new["result"] == "won" or (new["result"] == "lost" and new["deal"] in checked_lost))
        if row["result"] == "unknown" and new is not None and decided:
            if new["result"] == "won":
                position = rules_of(VARIANT).new_game(new["deal"], VARIANT)
                if not replay_line(position, new["line"]):
                    raise SystemExit(f"deal {new['deal']}: the re-run's line does not win")
            changes.append(f"deal {row['deal']}: unknown -> {new['result']}")
            row = new
        rows.append(row)
    return rows, changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("rerun", type=Path)
    parser.add_argument("--checked-lost", type=deal_list_argument, default=[])
    args = parser.parse_args(argv)
    book = list(records(BOOK))
    with gzip.open(BOOK, "rt", encoding="utf-8") as lines:
        old_summary = [json.loads(text) for text in lines][-1]
    rerun_rows = [json.loads(text) for text in args.rerun.read_text().splitlines()]
    rerun_summary = next(row for row in rerun_rows if row.get("summary"))
    rerun = {row["deal"]: row for row in rerun_rows if not row.get("summary")}
    rows, changes = merged(book, rerun, set(args.checked_lost))
    summary = summarise(rows, old_summary["total_s"] + rerun_summary["total_s"])
    with gzip.open(BOOK, "wt", encoding="utf-8") as out:
        for row in [*rows, summary]:
            out.write(json.dumps(row) + "\n")
    print("\n".join(changes) or "no change")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
