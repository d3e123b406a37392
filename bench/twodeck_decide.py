"""How many two-deck Tomb deals the search decides at a per-deal budget, and how fast.

    python bench/twodeck_decide.py FIRST LAST SECONDS   (JSON lines, a summary last)
"""

from __future__ import annotations

import json
import sys
import time

from patience.twodeck import new_game
from solver_worker.driver import Budget
from solver_worker.games.twodeck.search import solve


def main(first: int, last: int, seconds: float) -> None:
    counts = {"won": 0, "lost": 0, "unknown": 0}
    began = time.time()
    for number in range(first, last + 1):
        result = solve(new_game(number), Budget(seconds=seconds))
        counts[result.verdict] += 1
        print(json.dumps({"deal": number, "verdict": result.verdict, "nodes": result.nodes,
                          "ms": round(result.ms)}), flush=True)
    print(json.dumps({"deals": f"{first}-{last}", "budget_s": seconds, **counts,
                      "wall_s": round(time.time() - began)}), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]))
