"""Load (and faults): N concurrent WebSocket players on loopback against the real stack.

Run: ``python bench/load.py [--players 500] [--seconds 60] [--workers 2] [--think 2]``
and, to restart Redis during play, ``--faults 1`` (a redis-server of its own
on a free port, never the shared one).

It starts its own stack as the integration tests do (uvicorn with the Redis
channel layer, PostgreSQL, a Celery worker). Each player starts a game over
REST, opens its WebSocket, and when every player is connected they all play
for ``--seconds``: legal moves, foundations first, and an undo about one
action in ten, each sent after a pause of about ``--think`` seconds (a
person's pace) and acknowledged before the next. A player whose socket
drops reconnects with backoff, as the board does (tests/service/live_players.py).

It prints throughput (acknowledged actions per second), p50 / p99 latency
from sending an action to its acknowledgement, errors, reconnects, the
server's CPU per action, the load average, and then checks the database:
the count of acknowledged actions missing from it (must be 0), and that the
acknowledged versions of each game run 1, 2, 3... and its stored log and
counters are the last acknowledgement's. With ``--faults N`` it kills Redis
N times during play (evenly spaced), brings it back after ``--down`` seconds,
and prints how long play stalled: the longest pause between two
acknowledgements of the whole field, and per player the time from Redis
being back to its next acknowledgement.

The players run in this process, on the same cores as the server: compare
runs on one machine, not across machines.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from service.live_players import (  # noqa: E402  # the fault test's players
    Clock,
    LivePlayer,
    ledger_problems,
    play,
    start_game,
)
from service.redis_server import OwnRedis  # noqa: E402
from service.stack import require_services  # noqa: E402

from bench.service import BenchStack, cpu_seconds  # noqa: E402  # the service bench's launcher

SETUP_CONCURRENCY = 20  # games created at once before play


async def set_up(players: list[LivePlayer], base_url: str) -> None:
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(player: LivePlayer) -> None:
        async with gate, httpx.AsyncClient(base_url=base_url, timeout=60) as http:
            await start_game(player, http, deal=player.number % 999_999 + 1)

    await asyncio.gather(*(one(player) for player in players))


async def run(
    base_url: str, players: list[LivePlayer], seconds: float, think: float,
    redis: OwnRedis | None, faults: int, down: float,
) -> list[float]:
    """Play; the times (monotonic) at which a restarted Redis was back."""
    await set_up(players, base_url)
    clock = Clock()
    tasks = [asyncio.create_task(play(player, base_url, clock, think=think))
             for player in players]
    while sum(player.ready for player in players) < len(players):
        if any(task.done() for task in tasks):
            await asyncio.gather(*tasks)  # raises what went wrong
        await asyncio.sleep(0.1)
    clock.go(seconds)
    back_at = []
    for number in range(1, faults + 1):
        assert redis is not None
        await asyncio.sleep(clock.deadline - seconds + seconds * number / (faults + 1)
                            - time.monotonic())
        await asyncio.to_thread(redis.restart, down)
        back_at.append(time.monotonic())
    await asyncio.gather(*tasks)
    return back_at


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def report(players: list[LivePlayer], seconds: float, server_cpu: float,
           client_cpu: float) -> None:
    latencies = [value for player in players for value in player.latencies]
    if not latencies:
        print("no action was acknowledged")
        return
    undos = sum(action == "undo" for player in players for action in player.acked)
    print(f"players              {len(players)}")
    print(f"actions acknowledged {len(latencies)} in {seconds:.0f} s ({undos} of them undos)")
    print(f"throughput           {len(latencies) / seconds:.0f} actions/s")
    print(f"latency p50          {statistics.median(latencies) * 1000:.1f} ms")
    print(f"latency p99          {percentile(latencies, 0.99) * 1000:.1f} ms")
    print(f"latency max          {max(latencies) * 1000:.1f} ms")
    print(f"errors               {sum(len(player.errors) for player in players)}")
    print(f"reconnects           {sum(player.reconnects for player in players)}")
    print(f"server CPU           {server_cpu:.1f} s, "
          f"{server_cpu / len(latencies) * 1000:.2f} ms per action")
    print(f"client CPU           {client_cpu:.1f} s (this process: the players)")
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"uptime               {uptime} ({os.cpu_count()} cores)")


def report_faults(players: list[LivePlayer], back_at: list[float], down: float) -> None:
    stamps = sorted(at for player in players for at in player.acked_at)
    gaps = [after - before for before, after in itertools.pairwise(stamps)]
    print(f"Redis restarts       {len(back_at)}, each down {down:.1f} s")
    print(f"longest stall        {max(gaps, default=0):.2f} s with no action acknowledged")
    for number, back in enumerate(back_at, 1):
        resumed = [next((at - back for at in player.acked_at if at > back), None)
                   for player in players]
        waits = [wait for wait in resumed if wait is not None]
        print(f"after restart {number}      {len(waits)} of {len(players)} players played "
              f"again; from Redis back to their next ack: p50 "
              f"{statistics.median(waits) if waits else 0:.2f} s, "
              f"max {max(waits, default=0):.2f} s")
    print(f"in-flight recovered  {sum(player.recovered for player in players)} actions "
          f"stored as the socket dropped, counted once on reconnect")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes")
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean pause between a player's actions, in seconds")
    parser.add_argument("--faults", type=int, default=0,
                        help="restart a Redis of its own this many times during play")
    parser.add_argument("--down", type=float, default=1.0,
                        help="seconds Redis stays down at each restart")
    args = parser.parse_args()
    require_services()
    log_dir = Path(tempfile.mkdtemp(prefix="tomb-load-"))
    stack = BenchStack(log_dir)
    stack.server_options = [f"--workers={args.workers}"]
    stack.env.update(WS_RATE_PER_SECOND="100000", WS_BURST="100000", LOG_LEVEL="ERROR",
                     DATABASE_POOL_SIZE="20")
    redis = OwnRedis(log_dir) if args.faults else None
    print(f"server               uvicorn --workers={args.workers}; logs in {log_dir}")
    try:
        if redis is not None:
            redis.start()
            redis.point(stack.env)
        stack.start()
        server = stack.processes["server"].pid
        before, client_before = cpu_seconds(server), time.process_time()
        players = [LivePlayer(number) for number in range(args.players)]
        back_at = asyncio.run(run(stack.base_url, players, args.seconds, args.think, redis,
                                  args.faults, args.down))
        report(players, args.seconds, cpu_seconds(server) - before,
               time.process_time() - client_before)
        if back_at:
            report_faults(players, back_at, args.down)
        missing, problems = ledger_problems(stack, players)
    finally:
        stack.stop()
        if redis is not None:
            redis.kill()
    print(f"acks missing from DB {missing}")
    print("database             " + ("every acknowledged action stored once, versions gapless"
                                     if not problems else f"{len(problems)} problems"))
    for problem in problems[:10]:
        print("  " + problem)
    return 1 if problems or missing else 0


if __name__ == "__main__":
    sys.exit(main())
