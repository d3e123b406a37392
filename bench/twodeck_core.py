"""The two-deck Tomb's compiled core against the reference walk, on the same passes.

    python bench/twodeck_core.py [DEALS] [NODES]   (default: deals 2-4, 30,000 nodes)

Each deal's exact pass from the deal, cut at NODES positions, in both walks (which
walk the same graph node for node: the tests hold them to it); prints each walk's
nodes a second and their ratio, as JSON.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from patience.twodeck import new_game
from solver_worker.driver import Budget
from solver_worker.games.twodeck.search import one_pass, state_of


def rate(deal: int, nodes: int, compiled: bool) -> float:
    state = state_of(new_game(deal))
    began = time.perf_counter()
    _status, _line, spent = one_pass(state, Budget(nodes=nodes), True, compiled=compiled)
    return spent / (time.perf_counter() - began)


def main(deals: list[int], nodes: int) -> None:
    core = [rate(deal, nodes, True) for deal in deals]
    reference = [rate(deal, nodes, False) for deal in deals]
    print(json.dumps({
        "deals": deals, "nodes": nodes,
        "core_nodes_per_s": round(statistics.median(core)),
        "reference_nodes_per_s": round(statistics.median(reference)),
        "ratio": round(statistics.median(c / r for c, r in zip(core, reference, strict=True)),
                       1),
    }))


if __name__ == "__main__":
    chosen = [int(d) for d in sys.argv[1].split(",")] if len(sys.argv) > 1 else [2, 3, 4]
    main(chosen, int(sys.argv[2]) if len(sys.argv) > 2 else 30_000)
