"""St. Helena's compiled core against the reference walk, then the core on a run of deals.

    python bench/sthelena_core.py [DEALS] [NODES] [LAST] [SECONDS]
    (default: deals 2,41,100; 30,000 nodes; deals 1-200; 1 s each)

First each deal's exact pass from the deal, cut at NODES positions, in both walks
(which walk the same graph node for node: the tests hold them to it): each walk's
nodes a second, their medians and the median ratio. Then ``solve`` on the core for
deals 1..LAST at SECONDS each (greedy share 0.05, restart share 0.9, restart seed
0): how many are won, lost and unknown. Prints JSON, one line for each part.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter

from patience.sthelena import new_game
from solver_worker.driver import Budget
from solver_worker.games.sthelena.search import State, one_pass, solve


def rate(deal: int, nodes: int, compiled: bool) -> float:
    state = State.of(new_game(deal))
    began = time.perf_counter()
    _status, _line, spent = one_pass(state, Budget(nodes=nodes), True, compiled=compiled)
    return spent / (time.perf_counter() - began)


def speed(deals: list[int], nodes: int) -> dict[str, object]:
    # Each deal's two walks back to back, so that a busy machine slows both alike.
    pairs = [(rate(deal, nodes, True), rate(deal, nodes, False)) for deal in deals]
    core, reference = [c for c, _ in pairs], [r for _, r in pairs]
    return {
        "deals": deals, "nodes": nodes,
        "core_nodes_per_s": round(statistics.median(core)),
        "reference_nodes_per_s": round(statistics.median(reference)),
        "ratio": round(statistics.median(c / r for c, r in zip(core, reference, strict=True)),
                       1),
    }


def verdicts(last: int, seconds: float) -> dict[str, object]:
    began = time.perf_counter()
    counts = Counter(
        solve(new_game(deal), Budget(seconds=seconds), greedy_share=0.05, restart_share=0.9,
              compiled=True).verdict
        for deal in range(1, last + 1))
    return {"deals": f"1-{last}", "seconds_each": seconds, "greedy_share": 0.05,
            "restart_share": 0.9, "won": counts["won"], "lost": counts["lost"],
            "unknown": counts["unknown"], "wall_s": round(time.perf_counter() - began, 1)}


if __name__ == "__main__":
    chosen = [int(d) for d in sys.argv[1].split(",")] if len(sys.argv) > 1 else [2, 41, 100]
    print(json.dumps(speed(chosen, int(sys.argv[2]) if len(sys.argv) > 2 else 30_000)),
          flush=True)
    print(json.dumps(verdicts(int(sys.argv[3]) if len(sys.argv) > 3 else 200,
                              float(sys.argv[4]) if len(sys.argv) > 4 else 1.0)))
