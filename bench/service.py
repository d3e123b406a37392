"""Service load: N concurrent WebSocket players against the real stack.

Run: ``python bench/service.py [--players 200] [--seconds 20]``. It starts its
own stack as the integration tests do (one uvicorn process with the Redis
channel layer, PostgreSQL, a Celery worker), each player starts a game over
REST and then plays legal moves (undoing when the game ends) over its
WebSocket, one at a time, waiting for each acknowledgement and then pausing
about ``--think`` seconds, as a person would (``--think 0`` plays flat out:
a throughput test, where latency is only queueing). It prints moves
per second and the p50 / p99 latency from sending a move to its
acknowledgement, then checks the database: every acknowledged move is
stored exactly once (no move missing, none doubled).

The client runs on the same machine as the server, so the figures include
the client's own CPU use: compare runs on one machine, not across machines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from service.stack import Stack, require_services  # noqa: E402  # the tests' launcher


@dataclass
class Clock:
    start: asyncio.Event = field(default_factory=asyncio.Event)
    deadline: float = 0.0


@dataclass
class Player:
    number: int
    game_id: str = ""
    ready: bool = False
    latencies: list[float] = field(default_factory=list)
    # The acknowledged actions in order: what the database must hold.
    acked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = state["legal"]
    if not legal:
        return {"type": "undo"}
    homes = [move for move in legal if move.startswith("F@")]
    return {"type": "move", "move": rng.choice(homes or legal)}


async def play(player: Player, base_url: str, clock: Clock, think: float) -> None:
    rng = random.Random(player.number)
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        token = (await http.get("/api/csrf/")).json()["csrf_token"]
        created = await http.post(
            "/api/games/", json={"variant": "three-card", "deal": player.number + 1},
            headers={"X-CSRFToken": token},
        )
        player.game_id = created.json()["id"]
        cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
    ws_url = base_url.replace("http", "ws", 1) + f"/ws/games/{player.game_id}/"
    async with connect(
        ws_url, origin=base_url, additional_headers={"Cookie": cookie},  # type: ignore[arg-type]
        open_timeout=60,
    ) as socket:
        state = json.loads(await socket.recv())["game"]["state"]
        player.ready = True
        await clock.start.wait()
        seq = 0
        if think:
            await asyncio.sleep(rng.uniform(0, think))  # players do not all start at once
        while time.monotonic() < clock.deadline:
            if think:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            seq += 1
            message = {**choose(state, rng), "seq": seq}
            sent = time.perf_counter()
            await socket.send(json.dumps(message))
            while True:
                reply = json.loads(await socket.recv())
                if reply.get("seq") == seq:
                    break
            if reply["type"] == "error":
                player.errors.append(reply["error"])
                continue
            player.latencies.append(time.perf_counter() - sent)
            player.acked.append(message.get("move", "undo"))
            state = reply["game"]["state"]


def check_database(stack: Stack, players: list[Player]) -> list[str]:
    """Every acknowledged action stored once: counters and versions match the acks."""
    problems = []
    for player in players:
        row = stack.row(player.game_id)
        moves = sum(1 for action in player.acked if action != "undo")
        undos = len(player.acked) - moves
        if (row["version"], row["moves"], row["undos"]) != (len(player.acked), moves, undos):
            problems.append(
                f"game {player.game_id}: acked {len(player.acked)} ({moves} moves, {undos} "
                f"undos), stored version {row['version']} ({row['moves']}, {row['undos']})"
            )
    return problems


async def run(stack: Stack, count: int, seconds: float, think: float) -> list[Player]:
    players = [Player(number) for number in range(count)]
    clock = Clock()
    tasks = [
        asyncio.create_task(play(player, stack.base_url, clock, think)) for player in players
    ]
    # Everyone connects first; then the clock starts for all at once.
    while sum(1 for player in players if player.ready) < count:
        if any(task.done() for task in tasks):
            await asyncio.gather(*tasks)  # raises what went wrong
        await asyncio.sleep(0.1)
    clock.deadline = time.monotonic() + seconds
    clock.start.set()
    await asyncio.gather(*tasks)
    return players


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report(players: list[Player], seconds: float, server_cpu: float) -> None:
    latencies = sorted(value for player in players for value in player.latencies)
    if not latencies:
        print("no move was acknowledged")
        return
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    errors = sum(len(player.errors) for player in players)
    print(f"players            {len(players)}")
    print(f"moves acknowledged {len(latencies)} in {seconds:.0f} s")
    print(f"moves per second   {len(latencies) / seconds:.0f}")
    print(f"latency p50        {p50:.1f} ms")
    print(f"latency p99        {p99:.1f} ms")
    print(f"errors             {errors}")
    print(f"server CPU         {server_cpu:.1f} s, {server_cpu / len(latencies) * 1000:.2f} ms "
          f"per move (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--think", type=float, default=1.0,
        help="mean pause between a player's moves, in seconds (0: play flat out)",
    )
    args = parser.parse_args()
    require_services()
    stack = Stack(Path(tempfile.mkdtemp(prefix="tomb-bench-")))
    stack.env.update(WS_RATE_PER_SECOND="100000", WS_BURST="100000", LOG_LEVEL="ERROR",
                     DATABASE_POOL_SIZE=str(min(40, args.players)))
    try:
        stack.start()
        server = stack.processes["server"].pid
        before = cpu_seconds(server)
        players = asyncio.run(run(stack, args.players, args.seconds, args.think))
        report(players, args.seconds, cpu_seconds(server) - before)
        problems = check_database(stack, players)
    finally:
        stack.stop()
    print("database           " + ("every acknowledged move stored once" if not problems
                                   else f"{len(problems)} games differ"))
    for problem in problems[:10]:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
