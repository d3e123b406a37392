"""A two-deck Tomb solve run's figures from its JSON lines: decided, and how fast.

    python -m solver_worker.solve --variant two-deck-tomb --deals 1-1000 --json > run.jsonl
    python bench/twodeck_times.py run.jsonl

Prints won / lost / unknown, the median and 90th-percentile milliseconds of every
deal and of the won ones, and the nodes a won deal took (median, p90).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    rows = [row for row in rows if "deal" in row]
    counts = {v: sum(row["result"] == v for row in rows) for v in ("won", "lost", "unknown")}
    times = [row["ms"] for row in rows]
    won = [row for row in rows if row["result"] == "won"]
    figures = {
        "deals": len(rows), **counts,
        "median_ms": round(statistics.median(times)), "p90_ms": round(percentile(times, 0.9)),
        "won_median_ms": round(statistics.median([r["ms"] for r in won])) if won else None,
        "won_p90_ms": round(percentile([r["ms"] for r in won], 0.9)) if won else None,
        "won_median_nodes": round(statistics.median([r["nodes"] for r in won])) if won else None,
        "won_p90_nodes": round(percentile([r["nodes"] for r in won], 0.9)) if won else None,
        "won_median_moves": round(statistics.median([len(r["line"]) for r in won])) if won
        else None,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
