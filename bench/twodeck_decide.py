"""How many two-deck Tomb deals the search decides at a per-deal budget, and how fast.

    python bench/twodeck_decide.py FIRST LAST SECONDS [GREEDY_SHARE] [--python]

JSON lines, one a deal, then a summary: won / lost / unknown, and the median and
90th-percentile milliseconds of a deal (all deals; the won ones apart). The compiled
core decides when it is built (``--python``: the reference walk). Every win is
replayed in the engine by ``solve`` before it counts.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from patience.twodeck import new_game
from solver_worker.driver import GREEDY_SHARE, Budget
from solver_worker.games.twodeck.search import solve


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main(first: int, last: int, seconds: float, share: float, compiled: bool | None) -> None:
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    won_times: list[float] = []
    began = time.time()
    for number in range(first, last + 1):
        result = solve(new_game(number), Budget(seconds=seconds), greedy_share=share,
                       compiled=compiled)
        counts[result.verdict] += 1
        times.append(result.ms)
        if result.verdict == "won":
            won_times.append(result.ms)
        print(json.dumps({"deal": number, "verdict": result.verdict, "nodes": result.nodes,
                          "ms": round(result.ms), "moves": len(result.line)}), flush=True)
    print(json.dumps({
        "deals": f"{first}-{last}", "budget_s": seconds, "greedy_share": share, **counts,
        "median_ms": round(statistics.median(times)), "p90_ms": round(percentile(times, 0.9)),
        "won_median_ms": round(statistics.median(won_times)) if won_times else None,
        "won_p90_ms": round(percentile(won_times, 0.9)) if won_times else None,
        "wall_s": round(time.time() - began)}), flush=True)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--python"]
    main(int(args[0]), int(args[1]), float(args[2]),
         float(args[3]) if len(args) > 3 else GREEDY_SHARE,
         False if "--python" in sys.argv else None)
