"""Merge a re-run of a book's undecided deals into the book, for any game.

    python bench/book_rerun.py --variant classic --budget-s 60 RERUN.jsonl [--checked-lost 12,34]
        [--flags "--greedy-share 0.05 --restart-share 0.9"]

RERUN.jsonl is ``python -m solver_worker.solve --variant V --deals <the book's
unknown deals> --budget-s 60 --json``'s output; the book is the variant's one file
under solver_worker/data/solved/. The kept run of that range (docs/runs/) takes the
merged summary and the re-run's command beside its own, so ``python
scripts/make_win_rates.py build`` puts the book's tally, with both commands, on the
rules page. A deal the book holds
as unknown takes the re-run's verdict when it is "won" (its line is replayed
through the engine here once more) or when it is "lost" and named in
``--checked-lost`` (a loss goes in only once a second method has confirmed it); a
deal still undecided keeps the longer of its two searches (its time and nodes).
The book's summary line is made again from the merged records. Prints what
changed.

``--book docs/runs/samples/V-sample-N.jsonl.gz`` merges a re-run of a random
sample's unknown deals into the sample's verdicts instead (``python
scripts/make_win_rates.py record`` keeps them), and its kept run
``solve-V-sample-N.json`` takes the merged tally; the sample keeps no lines.

RERUN may also be a re-run's kept record (docs/runs/reruns/*.json, with its
``deals``) that was merged before, once a second method has checked more of its
losses: those go in, its time is not counted twice, and the kept run's line for
it says how many of its losses are now checked.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

from patience import EngineError, all_variants
from solver_worker.book import (
    SOLVED_DIR,
    replays_to_a_win,
    solved_files,
    verdicts_only,
    write_book,
)
from solver_worker.deal_ranges import deal_list_argument
from solver_worker.solve import summarise


def wins(variant: str, deal: int, line: list[str]) -> bool:
    """Whether the engine plays ``line`` to a win; an illegal line wins nothing."""
    try:
        return replays_to_a_win(variant, deal, line)
    except EngineError:
        return False


def searched_longer(new: dict[str, Any], row: dict[str, Any]) -> bool:
    return float(new.get("ms", 0.0)) > float(row.get("ms", 0.0))


def merged(variant: str, book: list[dict[str, Any]], rerun: dict[int, dict[str, Any]],
           checked_lost: set[int]) -> tuple[list[dict[str, Any]], list[str]]:
    rows, changes = [], []
    for row in book:
        new = rerun.get(row["deal"])
        decided = new is not None and (
            new["result"] == "won" or (new["result"] == "lost" and new["deal"] in checked_lost))
        if row["result"] == "unknown" and new is not None and decided:
            if new["result"] == "won" and not wins(variant, new["deal"], new["line"]):
                raise SystemExit(f"deal {new['deal']}: the re-run's line does not win")
            changes.append(f"deal {row['deal']}: unknown -> {new['result']}")
            row = new
        elif row["result"] == "unknown" and new is not None and searched_longer(new, row):
            # Still undecided: the book keeps its longest search, so that its summary's
            # max_ms says how long an undecided deal has been searched.
            row = {**new, "result": "unknown", "line": []}
        rows.append(row)
    return rows, changes


KEPT_RUNS = SOLVED_DIR.parents[2] / "docs" / "runs"
SAMPLES = KEPT_RUNS / "samples"


CHECKED = " (losses checked by a second search: "


def kept_run_of(variant: str, book_path: Path) -> Path:
    """The kept run that made a book (``classic-1-2400.jsonl.gz``: the range's run
    ``solve-classic-deals-1-2400.json``) or a sample's verdicts
    (``st-helena-sample-20000.jsonl.gz``: ``solve-st-helena-sample-20000.json``)."""
    scope = book_path.name.removeprefix(f"{variant}-").removesuffix(".jsonl.gz")
    if not scope.startswith("sample-"):
        scope = f"deals-{scope}"
    return KEPT_RUNS / f"solve-{variant}-{scope}.json"


def note_on_kept_run(variant: str, book_path: Path, summary: dict[str, Any],
                     rerun_command: str, merged_before: bool = False) -> Path:
    """The kept run that made the book (``kept_run_of``) takes the merged tally and
    lists the re-run's command after its own; a re-run ``merged_before`` keeps its
    place, with its new count of checked losses (and must be there: a budget or flags
    typed otherwise than the first time are refused)."""
    kept = kept_run_of(variant, book_path)
    run = json.loads(kept.read_text(encoding="utf-8"))
    run["summary"] = summary
    reruns = run.get("reruns", [])
    same = [i for i, known in enumerate(reruns)
            if known.partition(CHECKED)[0] == rerun_command.partition(CHECKED)[0]]
    if merged_before and not same:
        raise SystemExit(f"no re-run on {kept.name} reads {rerun_command.partition(CHECKED)[0]!r}: "
                         "give the --budget-s and --flags it was merged with")
    if merged_before:
        reruns[same[-1]] = rerun_command
    else:
        reruns.append(rerun_command)
    run["reruns"] = reruns
    kept.write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")
    return kept


def kept_record(text: str) -> dict[str, Any] | None:
    """A kept record of a re-run merged before (one JSON object with its ``deals``), or
    None for solve's own output (a JSON line a deal, then the summary)."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError:
        return None  # more than one line
    return record if isinstance(record, dict) and "deals" in record else None


def read_rerun(path: Path, variant: str) -> tuple[dict[int, dict[str, Any]], float, bool]:
    """The re-run's rows by deal, the time it adds to the book's, and whether it is a
    kept record merged before: such a record adds no time, and only its losses can
    still change anything (its wins are in the book already)."""
    text = path.read_text(encoding="utf-8")
    record = kept_record(text)
    if record is not None:
        return {int(deal): {"deal": int(deal), "variant": variant, **row, "line": []}
                for deal, row in record["deals"].items()}, 0.0, True
    rows = [json.loads(line) for line in text.splitlines()]
    summary = next(row for row in rows if row.get("summary"))
    return ({row["deal"]: row for row in rows if not row.get("summary")}, summary["total_s"],
            False)


def a_sample(variant: str, path: Path) -> Path:
    """``--book``'s file, refused unless it is a kept sample of this variant: a sample
    keeps no lines, so a book that hints read must never be merged as one."""
    if (path.resolve().parent != SAMPLES.resolve()
            or not re.fullmatch(rf"{re.escape(variant)}-sample-\d+\.jsonl\.gz", path.name)):
        raise SystemExit(f"--book takes a kept sample, docs/runs/samples/{variant}-sample-N"
                         f".jsonl.gz, not {path}")
    if not path.is_file() or not kept_run_of(variant, path).is_file():
        raise SystemExit(f"{path}: no such sample, or no kept run of it in docs/runs/")
    return path


def the_book(variant: str) -> Path:
    books = solved_files(variant)
    if len(books) != 1:
        raise SystemExit(f"{variant}: {len(books)} book files, expected one")
    return books[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    slugs = [variant.slug for _, variant in all_variants()]
    parser.add_argument("--variant", required=True, choices=slugs)
    parser.add_argument("--budget-s", type=float, required=True, help="the re-run's budget")
    parser.add_argument("--flags", default="",
                        help="the re-run's other solve flags, for the record "
                             "(such as \"--greedy-share 0.05 --restart-share 0.9\")")
    parser.add_argument("rerun", type=Path)
    parser.add_argument("--checked-lost", type=deal_list_argument, default=[])
    parser.add_argument("--book", type=Path,
                        help="a random sample's verdicts (docs/runs/samples/) instead of "
                             "the variant's book")
    args = parser.parse_args(argv)
    book_path = the_book(args.variant) if args.book is None else a_sample(args.variant, args.book)
    sample = args.book is not None
    with gzip.open(book_path, "rt", encoding="utf-8") as lines:
        *book, old_summary = [json.loads(text) for text in lines]  # the summary is last
    rerun, spent_s, merged_before = read_rerun(args.rerun, args.variant)
    rows, changes = merged(args.variant, book, rerun, set(args.checked_lost))
    if sample:  # a sample keeps verdicts only (scripts/make_win_rates.py)
        rows = verdicts_only(rows)
    summary = summarise(rows, old_summary["total_s"] + spent_s)
    flags = f"{args.flags} " if args.flags else ""
    whose = "the sample's" if sample else "the book's"
    command = (f"python -m solver_worker.solve --variant {args.variant} --deals <{whose} "
               f"unknown deals> --budget-s {args.budget_s:g} {flags}--json, merged by python "
               f"bench/book_rerun.py")
    # Every loss of this re-run the book now holds (checked now or at an earlier merge).
    checked = sum(row["result"] == "lost" and rerun.get(row["deal"], {}).get("result") == "lost"
                  for row in rows)
    if checked:
        command += f"{CHECKED}{checked})"
    # The kept run first: a re-run it refuses (merged before, typed otherwise) leaves
    # the book as it was.
    note_on_kept_run(args.variant, book_path, summary, command, merged_before)
    write_book(book_path, [*rows, summary])
    print("\n".join(changes) or "no change")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
