"""The book: every public deal the solver decided offline, and what a hint reads in it.

The files in ``data/solved/`` are the output of ``python -m solver_worker.solve ...
--json`` for a range of deal numbers, gzipped and committed (``<variant>-<deals>.jsonl.gz``:
one line a deal, then the run's summary). A hint on a public deal (free play on a deal
number; dailies and races are dealt from secret seeds and are never in the book) answers
from the book at once, without a search, when the book has decided the position:

- the deal is proved lost: then so is every position reached from it, since a win from
  any of them would be a win from the deal's start;
- the player has followed the book's winning line so far (the deal's start is the empty
  prefix): the next move of that line wins.

The book knows the stock, as the ordinary hint does; the fair hint never reads it.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from patience import Status, rules_of

SOLVED_DIR = Path(__file__).with_name("data") / "solved"
# Proved-won deals that "winnable deals only" deals from, one file a variant
# (scripts/make_winnable_deals.py writes them; the site's WINNABLE_DEALS_DIR by default).
WINNABLE_DIR = Path(__file__).with_name("data") / "winnable"


@dataclass(frozen=True)
class Decided:
    """One deal's offline verdict: "won" with its line, or "lost" (an exhausted search)."""

    result: str
    line: tuple[str, ...]


def records(path: Path) -> Iterator[dict[str, Any]]:
    """The per-deal records of one solved file, without its summary line."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for text in lines:
            record = json.loads(text)
            if not record.get("summary"):
                yield record


def write_book(path: Path, rows: list[dict[str, Any]]) -> None:
    """A book file: one JSON line a row, as ``records`` reads them, gzipped with mtime 0
    and no file name in the header, so the same rows give the same bytes."""
    data = "".join(json.dumps(row) + "\n" for row in rows).encode()
    path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


def verdicts_only(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows without their winning lines, as a random sample keeps them
    (docs/runs/samples/): each line was replayed before its deal was called won."""
    return [{key: value for key, value in row.items() if key != "line"} for row in rows]


def replays_to_a_win(variant: str, deal: int, line: list[str]) -> bool:
    """Whether the rules engine itself, not the search that found ``line``, plays it
    from the deal's start to a win (an illegal move raises the engine's error)."""
    rules = rules_of(variant)
    position = rules.new_game(deal, variant)
    for move in rules.parse_moves(" ".join(line)):
        position.apply(move)
    return bool(position.status is Status.WON)


def solved_files(variant: str) -> list[Path]:
    """The variant's files, ``<variant>-<first>-<last>.jsonl.gz`` (and not another
    variant's whose slug starts with this one's)."""
    named = re.compile(rf"{re.escape(variant)}-\d+-\d+\.jsonl\.gz")
    return sorted(path for path in SOLVED_DIR.glob("*.jsonl.gz") if named.fullmatch(path.name))


@cache
def book_of(variant: str) -> Mapping[int, Decided]:
    """The decided deals of a variant, by deal number (read once per process). An
    "unknown" deal is left out: the book holds only what was proved."""
    decided: dict[int, Decided] = {}
    for path in solved_files(variant):
        for record in records(path):
            if record.get("variant") == variant and record["result"] in ("won", "lost"):
                line = tuple(map(str, record.get("line") or ()))
                decided[int(record["deal"])] = Decided(record["result"], line)
    return decided


def look_up(position: Any) -> dict[str, Any] | None:
    """The book's answer for a position: ``{"verdict": "lost"}``, or ``{"move",
    "verdict": "winnable", "line_length"}`` on the book's winning line, or None when
    the book does not know this position (a seeded deal, a deal outside the book, a
    player who left the line)."""
    deal = position.deal
    if deal.seeded or deal.number is None:
        return None
    entry = book_of(position.variant.slug).get(int(deal.number))
    if entry is None:
        return None
    if entry.result == "lost":
        return {"verdict": "lost"}
    played = len(position.moves)
    if played >= len(entry.line) or not on_line(position.moves, entry.line):
        return None
    return {"move": entry.line[played], "verdict": "winnable",
            "line_length": len(entry.line) - played}


def on_line(moves: list[Any], line: tuple[str, ...]) -> bool:
    return all(str(move.notation) == step for move, step in zip(moves, line, strict=False))
