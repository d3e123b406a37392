"""Solver figures: hint latency along random play, and per-deal decisions.

``python bench/solver.py [--deals 500] [--solve-deals 200] [--budget-s 10]``
prints, measured in this one run on one core:
* hint latency (the ``hint`` call, solver budget included) at positions met
  along seeded random play of deals 1..N of each variant: median, p90, p99;
* the per-deal figures of ``solver_worker.solve`` for deals 1..M.

``python bench/solver.py --hints-only --variants classic`` measures only the
hints of the chosen variants.

``python bench/solver.py --ab OLD_CORE_SO --ab-deals 1,6,18 --budget-s 8``
compares two compiled cores on the same classic deals in one run: for each
deal, the old core (a built ``_core`` shared object, e.g. from another
checkout, or the first core as ``python bench/first_core.py OUT.so`` builds it;
its two passes run as ``search.solve`` runs them, with restarts when the old
core has them) and then this checkout's ``search.solve``, each with the same
budget, one after the other, so both meet the same machine load. Every win
is replayed in the engine. Prints a row per deal and a summary per core.
With ``--ab-hints`` it compares the classic hints instead: at each of the
``--deals`` positions of ``bench_hints``, the hint with the old core, then
with this checkout's (the hint's own code is the same for both);
``--dump-unknown FILE`` keeps the positions this checkout left unknown.
``python bench/solver.py --hint-splits 0.5:0.6,0.2:0.6,0.5:0.9`` measures the classic
hint's search at each greedy share and budget (seconds) on the same positions, each
position under every split in turn, and names the positions each left unknown;
``--unknown-again-s 5`` then searches the first split's unknown ones that long, to
tell the losses not yet proved from the wins not yet found.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import time
from typing import Any

from patience.tomb import Position, Status, new_game, parse_move
from solver_worker.deal_ranges import parse_deal_list
from solver_worker.driver import GREEDY_SHARE, Budget
from solver_worker.games.tomb.search import (
    FLIP_PER_MILLE,
    RESTART_NODES,
    TABLE_MB,
    Table,
    solve,
    to_notation,
)
from solver_worker.hints import hint
from solver_worker.solve import decide, summarise


def positions_along_random_play(variant: str, deals: int, seed: int) -> list[Position]:
    """One position per deal, taken at a random point of a random playout."""
    rng = random.Random(seed)
    positions = []
    for deal in range(1, deals + 1):
        position = new_game(deal, variant)
        stop = rng.randint(0, 60)
        for _ in range(stop):
            legal = position.legal_moves()
            if not legal:
                break
            position.apply(rng.choice(legal))
        if position.status is Status.PLAYING:
            positions.append(position)
    return positions


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


def bench_hints(variant: str, deals: int) -> None:
    latencies, verdicts = [], {"winnable": 0, "lost": 0, "unknown": 0}
    for position in positions_along_random_play(variant, deals, seed=500):
        start = time.perf_counter()
        answer = hint(position)
        latencies.append((time.perf_counter() - start) * 1000)
        verdicts[answer["verdict"]] += 1
    latencies.sort()
    print(
        f"  hint {variant:10s} {len(latencies)} positions: median "
        f"{statistics.median(latencies):.1f} ms, p90 {percentile(latencies, 0.9):.1f} ms, "
        f"p99 {percentile(latencies, 0.99):.1f} ms, max {latencies[-1]:.1f} ms; {verdicts}"
    )


def bench_hint_splits(splits: list[tuple[float, float]], deals: int,
                      again_s: float | None) -> None:
    """The hint's search (the book first, as ``hint`` asks it) at each (greedy share,
    budget) split, on bench_hints' classic positions."""
    from solver_worker import book

    positions = positions_along_random_play("classic", deals, seed=500)
    unknown: dict[tuple[float, float], list[int]] = {split: [] for split in splits}
    latencies: dict[tuple[float, float], list[float]] = {split: [] for split in splits}
    for index, position in enumerate(positions):
        for split in splits:
            share, budget_s = split
            start = time.perf_counter()
            if book.look_up(position) is None:
                result = solve(position, Budget(seconds=budget_s), greedy_share=share)
                if result.verdict == "unknown":
                    unknown[split].append(index)
            latencies[split].append((time.perf_counter() - start) * 1000)
    for split in splits:
        found = sorted(latencies[split])
        print(f"  greedy share {split[0]:g}, budget {split[1]:g} s: unknown "
              f"{len(unknown[split])} of {len(found)}, p99 {percentile(found, 0.99):.1f} ms; "
              f"positions {unknown[split]}", flush=True)
    if again_s:
        verdicts = {"won": 0, "lost": 0, "unknown": 0}
        for index in unknown[splits[0]]:
            result = solve(positions[index], Budget(seconds=again_s))
            verdicts[result.verdict] += 1
            print(f"  position {index}: {result.verdict} in {result.ms:.0f} ms, "
                  f"{result.nodes} nodes", flush=True)
        print(f"  the first split's unknown at {again_s:g} s: {verdicts}")


def bench_deals(variant: str, deals: int, budget_s: float) -> None:
    start = time.perf_counter()
    rows = [decide((deal, variant, budget_s, GREEDY_SHARE, 0.0, 0)) for deal in range(1, deals + 1)]
    print(f"  solve {variant:10s} deals 1-{deals}: {summarise(rows, time.perf_counter() - start)}")


def load_core(path: str) -> Any:
    spec = importlib.util.spec_from_file_location("_core", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def with_restarts(core: Any) -> bool:
    """Whether a compiled core takes the restart arguments (cores from issue 18 on)."""
    try:
        core.search(b"", b"\x01", b"", 0, bytes(4), 0, 1, True, 1, 0.0, 1, 1, 0)
    except TypeError:
        return False
    return True


def old_core_solve(core: Any, position: Position, budget_s: float,
                   table_mb: int = TABLE_MB) -> tuple[str, list[str], int]:
    """The two passes as ``search.solve`` runs them, on the old core (with
    this checkout's restarts when the old core has them), its table at most
    ``table_mb``."""
    table, began = Table.of(position), time.perf_counter()
    start = (table.stock, table.waste, bytes(table.cells), table.tomb, bytes(table.corners),
             table.redeals, position.variant.turn)
    dives = (RESTART_NODES, FLIP_PER_MILLE) if with_restarts(core) else ()
    status, path, nodes, _ = core.search(*start, False, 0, budget_s * GREEDY_SHARE, table_mb,
                                         *dives)
    if status != 1:
        left = max(0.001, budget_s - (time.perf_counter() - began))
        status, path, more, _ = core.search(*start, True, 0, left, table_mb, *dives)
        nodes += more
    verdict = {1: "won", 0: "lost", -1: "unknown"}[status]
    return verdict, to_notation(position, list(path)) if verdict == "won" else [], nodes


def bench_ab(old_core_path: str, deals: list[int], budget_s: float,
             old_only: bool = False, table_mb: int = TABLE_MB) -> None:
    """``old_only``: the old core alone, as the second search that checks the losses a
    run of this checkout's solver found (its verdicts are in that run already)."""
    old_core = load_core(old_core_path)
    names = ("old",) if old_only else ("old", "new")
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for deal in deals:
        cells = []
        for name in names:
            position = new_game(deal, "classic")
            start = time.perf_counter()
            if name == "old":
                verdict, line, nodes = old_core_solve(old_core, position, budget_s, table_mb)
            else:
                result = solve(position, Budget(seconds=budget_s))
                verdict, line, nodes = result.verdict, result.line, result.nodes
            ms = (time.perf_counter() - start) * 1000
            if verdict == "won":
                for move in line:
                    position.apply(parse_move(move))
                assert position.status is Status.WON, (name, deal)
            rows[name].append({"deal": deal, "result": verdict, "nodes": nodes, "ms": ms})
            cells.append(f"{name} {verdict:7s} {nodes:>9} nodes {ms:>8.0f} ms")
        print(f"  deal {deal:>6}: " + " | ".join(cells), flush=True)
    for name, found in rows.items():
        print(f"  {name}: {summarise(found, sum(row['ms'] for row in found) / 1000)}")


def bench_ab_hints(old_core_path: str, deals: int, dump: str | None = None) -> None:
    """With ``dump``, also writes the compact table of every position this
    checkout's hint left unknown, one JSON object a line (with its index)."""
    from solver_worker.games.tomb import search

    old_core, new_run = load_core(old_core_path), search._run_core
    old_restarts = with_restarts(old_core)

    def old_run(table: Table, turn: int, budget: Budget, exact: bool,
                restarts: bool = False) -> Any:
        # Restarts as this checkout runs them, for an old core that has them.
        dives = (RESTART_NODES, FLIP_PER_MILLE) if restarts and old_restarts else ()
        status, path, nodes, _ = old_core.search(
            table.stock, table.waste, bytes(table.cells), table.tomb, bytes(table.corners),
            table.redeals, turn, exact, budget.nodes or 0, budget.seconds or 0.0, TABLE_MB,
            *dives)
        return ("won", list(path), nodes) if status == 1 else (
            ("exhausted" if status == 0 else "budget"), [], nodes)

    runs = {"old": old_run, "new": new_run}
    latencies: dict[str, list[float]] = {"old": [], "new": []}
    verdicts = {name: {"winnable": 0, "lost": 0, "unknown": 0} for name in runs}
    unknown = []
    for index, position in enumerate(positions_along_random_play("classic", deals, seed=500)):
        for name, run in runs.items():
            search._run_core = run  # type: ignore[assignment]
            start = time.perf_counter()
            answer = hint(position)
            latencies[name].append((time.perf_counter() - start) * 1000)
            verdicts[name][answer["verdict"]] += 1
            if name == "new" and answer["verdict"] == "unknown":
                table = Table.of(position)
                unknown.append({"index": index, "stock": list(table.stock),
                                "waste": list(table.waste), "cells": list(table.cells),
                                "tomb": table.tomb, "corners": list(table.corners),
                                "redeals": table.redeals})
    search._run_core = new_run
    if dump:
        with open(dump, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(row) + "\n" for row in unknown)
    for name, found in latencies.items():
        found.sort()
        print(f"  hint classic ({name} core) {len(found)} positions: median "
              f"{statistics.median(found):.1f} ms, p90 {percentile(found, 0.9):.1f} ms, "
              f"p99 {percentile(found, 0.99):.1f} ms, max {found[-1]:.1f} ms; {verdicts[name]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--solve-deals", type=int, default=100)
    parser.add_argument("--budget-s", type=float, default=10.0)
    parser.add_argument("--variants", default="three-card,classic")
    parser.add_argument("--hints-only", action="store_true")
    parser.add_argument("--ab", metavar="OLD_CORE_SO", help="compare with an old compiled core")
    parser.add_argument("--ab-deals", default="1-30", help="classic deals for --ab")
    parser.add_argument("--ab-hints", action="store_true", help="--ab on the classic hints")
    parser.add_argument("--ab-old-only", action="store_true",
                        help="--ab: run the old core alone (to check losses found before)")
    parser.add_argument("--dump-unknown", metavar="FILE",
                        help="--ab-hints: write the positions the new core left unknown")
    parser.add_argument("--ab-table-mb", type=int, default=TABLE_MB,
                        help="--ab: the old core's transposition table, at most (MB)")
    parser.add_argument("--hint-splits", metavar="SHARE:SECONDS,...",
                        help="the classic hint's search at these greedy shares and budgets")
    parser.add_argument("--unknown-again-s", type=float,
                        help="--hint-splits: search the first split's unknown this long")
    args = parser.parse_args()
    print("solver benchmark: one process, one core")
    if args.hint_splits:
        splits = [(float(share), float(seconds)) for share, seconds in
                  (split.split(":") for split in args.hint_splits.split(","))]
        bench_hint_splits(splits, args.deals, args.unknown_again_s)
        return
    if args.ab and args.ab_hints:
        bench_ab_hints(args.ab, args.deals, args.dump_unknown)
        return
    if args.ab:
        bench_ab(args.ab, parse_deal_list(args.ab_deals), args.budget_s, args.ab_old_only,
                 args.ab_table_mb)
        return
    variants = args.variants.split(",")
    for variant in variants:
        bench_hints(variant, args.deals)
    if args.hints_only:
        return
    for variant in variants:
        bench_deals(variant, args.solve_deals, args.budget_s)


if __name__ == "__main__":
    main()
