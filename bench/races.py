"""Race load: R rooms of N players racing at once against the real stack.

Run: ``python bench/races.py [--rooms 50] [--size 8] [--seconds 60] [--think 1.0]
[--free-players 0] [--variant three-card]``. It starts its own stack as the
integration tests do (uvicorn with the Redis channel layer, PostgreSQL, a Celery
worker). In each room a signed-up owner opens the race, the others join as visitors
by name and say ready, everyone opens the room's socket, the owner starts it; then
each player plays legal moves on their own game's socket at human pace (a pause of
about ``--think`` seconds before each move, waiting for each acknowledgement) until
their game ends or the time is up, and gives up then. ``--free-players`` adds that
many free-play players (bench/service.py's) at the same time.

It prints the race moves' p50 / p99 latency from sending a move to its
acknowledgement, the server's CPU per move, the races finished (every room's
socket must see its race end) and the acknowledged moves missing from the
database (must be 0), with the progress messages the rooms' sockets received and
"figures current": the share of acknowledged race moves whose figures (a progress
message for that player with as many moves or more) the owner's room socket heard
within 1 s, and at all before the race's end. Progress is coalesced (a player's latest
figures, races.events), so messages are fewer than moves by design.
The client runs on the same machine as the server: compare runs on one machine. The
players are split over ``--client-processes`` processes (bench/service.py's), and the
clients' CPU per move is printed beside the server's. ``--before REV`` runs the same
load on git revision REV's tree first, then on this one, in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
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

from service.live_players import ledger_problems  # noqa: E402  # the fault test's check
from service.stack import require_services  # noqa: E402  # the tests' launcher

_spec = importlib.util.spec_from_file_location("bench_service", ROOT / "bench" / "service.py")
assert _spec is not None and _spec.loader is not None
free_play = importlib.util.module_from_spec(_spec)
sys.modules["bench_service"] = free_play  # dataclasses look their module up there
_spec.loader.exec_module(free_play)  # the free-play bench: its players, stack and report
PASSWORD = "tomb-of-the-emperor"


@dataclass
class Racer(free_play.Player):  # type: ignore[name-defined,misc]
    http: Any = None
    token: str = ""
    cookie: str = ""
    entry: int = 0  # the racer's player id in the room's payloads
    # (when, moves) of each acknowledged move: the figures the room should show.
    figures: list[tuple[float, int]] = field(default_factory=list)
    playing: bool = False  # still playing at the deadline: gives up then


@dataclass
class Room:
    number: int
    code: str = ""
    racers: list[Racer] = field(default_factory=list)
    finished: bool = False
    progress: int = 0  # progress messages the owner's room socket received
    # Per player id, (when, moves) of each progress heard before the race's end.
    heard: dict[int, list[tuple[float, int]]] = field(default_factory=dict)


async def new_client(base_url: str) -> tuple[httpx.AsyncClient, str]:
    # Idle connections dropped before uvicorn's keep-alive (5 s) closes them under a
    # request: a player waits out the countdown between two requests.
    http = httpx.AsyncClient(base_url=base_url, timeout=120,
                             limits=httpx.Limits(keepalive_expiry=2.0))
    token = (await http.get("/api/csrf/")).json()["csrf_token"]
    return http, token


async def post(http: httpx.AsyncClient, token: str, path: str, body: Any = None) -> Any:
    response = await http.post(path, json=body, headers={"X-CSRFToken": token})
    assert response.status_code in (200, 201), f"{path}: {response.status_code} {response.text}"
    return response.json()


async def owner_of(base_url: str, number: int) -> tuple[httpx.AsyncClient, str]:
    http, token = await new_client(base_url)
    name = f"owner{number}-{random.randrange(10**6)}"
    signed = await http.post("/accounts/signup/", data={
        "username": name, "password1": PASSWORD, "password2": PASSWORD},
        headers={"X-CSRFToken": token})
    assert signed.status_code == 302, signed.text[:300]
    return http, (await http.get("/api/csrf/")).json()["csrf_token"]


async def fill_room(room: Room, base_url: str, size: int, variant: str) -> None:
    """The owner opens the room; the others join by name and say ready."""
    http, token = await owner_of(base_url, room.number)
    opened = await post(http, token, "/api/races/", {"variant": variant, "minutes": 15})
    room.code = opened["code"]
    room.racers.append(Racer(room.number * 100, http=http, token=token))
    for seat in range(1, size):
        guest, guest_token = await new_client(base_url)
        await post(guest, guest_token, f"/api/races/{room.code}/join/", {"name": f"guest {seat}"})
        await post(guest, guest_token, f"/api/races/{room.code}/ready/", {"ready": True})
        room.racers.append(Racer(room.number * 100 + seat, http=guest, token=guest_token))
    for racer in room.racers:
        racer.cookie = "; ".join(f"{name}={value}" for name, value in racer.http.cookies.items())


async def watch_room(room: Room, base_url: str) -> None:
    """The owner's room socket: counts progress and sees the race end."""
    owner = room.racers[0]
    url = base_url.replace("http", "ws", 1) + f"/ws/races/{room.code}/"
    async with connect(url, origin=base_url, additional_headers={"Cookie": owner.cookie},
                       open_timeout=120) as socket:
        async for text in socket:
            message = json.loads(text)
            if message["type"] == "progress":
                room.progress += 1
                room.heard.setdefault(message["player"], []).append(
                    (time.monotonic(), message["moves"]))
            elif message["type"] == "room" and message["state"] == "finished":
                room.finished = True
                return


async def race(racer: Racer, room: Room, base_url: str, clock: Any, think: float) -> None:
    rng = random.Random(racer.number)
    mine = (await racer.http.get(f"/api/races/{room.code}/")).json()
    racer.game_id, racer.entry = mine["me"]["game"], mine["me"]["id"]
    url = base_url.replace("http", "ws", 1) + f"/ws/games/{racer.game_id}/?deltas=1"
    async with connect(url, origin=base_url, additional_headers={"Cookie": racer.cookie},
                       open_timeout=120) as socket:
        board = free_play.Board()  # whole state first, then deltas, as the board takes them
        board.take(json.loads(await socket.recv()))
        game = board.game
        racer.ready = True
        await clock.start.wait()
        seq = 0
        while time.monotonic() < clock.deadline and game["status"] == "playing":
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            seq += 1
            message = {**free_play.choose(game["state"], rng), "seq": seq}
            reply, seconds = await free_play.send_and_wait(socket, board, message)
            if reply["type"] == "error":
                racer.errors.append(reply["error"])
                if message["type"] == "undo":  # a turned card stays turned: stuck for good
                    break
                continue
            racer.latencies.append(seconds)
            racer.acked.append(message.get("move", "undo"))
            racer.versions.append(reply["version"])
            game = board.game
            racer.figures.append((time.monotonic(), game["moves"]))
            racer.log = game["state"]["log"]
    racer.playing = game["status"] == "playing"  # gives up after the measured part


async def give_up_and_close(seats: list[tuple[Room, Racer]]) -> None:
    """The racers still playing at the deadline give up (the race's end is not a move's
    cost: it runs once the server's CPU has been read); then their clients close."""
    await asyncio.gather(*(post(racer.http, racer.token, f"/api/races/{room.code}/give-up/")
                           for room, racer in seats if racer.playing))
    for _, racer in seats:
        await racer.http.aclose()


async def run(stack: Any, rooms: int, size: int, seconds: float, think: float, free: int,
              variant: str, processes: int) -> tuple[list[Room], list[Any], float, float]:
    """The rooms and the free players once done, and the server's and the clients' CPU
    seconds while they played (the sign-ups, joins and starts before are left out). The
    players play in ``processes`` client processes (bench/service.py's); the rooms' owners'
    room sockets listen in this one."""
    base = stack.base_url
    made = [Room(number) for number in range(rooms)]
    # Ten rooms fill at a time: 400 sign-ups and joins at once ran the server's
    # PostgreSQL pool dry (a 10 s PoolTimeout, a 500) on this loaded 2-core machine.
    filling = asyncio.Semaphore(10)

    async def fill(room: Room) -> None:
        async with filling:
            await fill_room(room, base, size, variant)

    await asyncio.gather(*(fill(room) for room in made))
    watchers = [asyncio.create_task(watch_room(room, base)) for room in made]
    await asyncio.sleep(1)  # the rooms' sockets open
    await asyncio.gather(*(post(room.racers[0].http, room.racers[0].token,
                                f"/api/races/{room.code}/start/") for room in made))
    await asyncio.sleep(float(stack.env["RACE_COUNTDOWN_SECONDS"]) + 0.2)
    seats = [(room, racer) for room in made for racer in room.racers]
    others = [free_play.Player(500_000 + number) for number in range(free)]  # deal numbers

    async def play_part(part: tuple[list[int], list[int]], clock: Any,
                        ready: asyncio.Event) -> tuple[list[dict[str, Any]], list[Any]]:
        """This process's racers (by seat) and free players, started at the clock."""
        racers = [seats[index] for index in part[0]]
        frees = [others[index] for index in part[1]]
        for _, racer in racers:  # the parent's clients belong to the parent's loop
            racer.http = httpx.AsyncClient(base_url=base, timeout=120, cookies=racer.http.cookies,
                                           limits=httpx.Limits(keepalive_expiry=2.0))
        tasks = [*(asyncio.create_task(race(racer, room, base, clock, think))
                   for room, racer in racers),
                 *(asyncio.create_task(free_play.play(player, base, clock, think, False,
                                                      variant)) for player in frees)]
        everyone = [racer for _, racer in racers] + frees
        while not all(player.ready for player in everyone):
            failed = [task for task in tasks if task.done() and task.exception()]
            if failed:
                await failed[0]  # raises what went wrong
            await asyncio.sleep(0.1)
        ready.set()
        await asyncio.gather(*tasks)
        clock.after.append(lambda: give_up_and_close(racers))
        return [played(racer) for _, racer in racers], frees

    parts = [(list(range(part, len(seats), processes)), list(range(part, free, processes)))
             for part in range(processes)]
    ends = free_play.spawn_clients(parts, play_part)
    results, server_cpu, client_cpu = await free_play.gather_clients(
        ends, stack.processes["server"].pid, seconds)
    for part, (racers, frees) in zip(parts, results, strict=True):
        for index, figures in zip(part[0], racers, strict=True):
            vars(seats[index][1]).update(figures)
        for index, player in zip(part[1], frees, strict=True):
            others[index] = player
    with contextlib.suppress(TimeoutError):  # a race that did not end: reported below
        await asyncio.wait_for(asyncio.gather(*watchers), 30)
    for room in made:
        for racer in room.racers:
            await racer.http.aclose()
    return made, others, server_cpu, client_cpu


def played(racer: Racer) -> dict[str, Any]:
    """What a client process sends back of a racer: its figures, not its HTTP client."""
    return {name: value for name, value in vars(racer).items() if name != "http"}


CURRENT_WITHIN = 1.0  # seconds


def figures_current(room: Room) -> tuple[int, int, int]:
    """(acknowledged moves of the room, those whose figures the owner's room socket heard
    within ``CURRENT_WITHIN`` of the acknowledgement, those it heard at all before the
    race's end): a progress message for the player with as many moves or more (a later
    one shows this move too: moves never go down). The owner's own moves count too
    (their room socket hears them like the others')."""
    acked = current = ever = 0
    for racer in room.racers:
        heard = room.heard.get(racer.entry, [])
        for acked_at, moves in racer.figures:
            delays = [at - acked_at for at, moves_heard in heard if moves_heard >= moves]
            acked += 1
            current += any(delay <= CURRENT_WITHIN for delay in delays)
            ever += bool(delays)
    return acked, current, ever


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--size", type=int, default=8, help="players per room (2 to 8)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean pause before each move, in seconds")
    parser.add_argument("--free-players", type=int, default=0,
                        help="free-play players at the same time (bench/service.py's)")
    parser.add_argument("--variant", default="three-card")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument("--client-processes", type=int, default=2, metavar="N",
                        help="processes the players are split over")
    parser.add_argument("--server-log", default="ERROR", metavar="LEVEL",
                        help="the server's log level (its log is kept in a temporary folder)")
    parser.add_argument("--before", metavar="REV", default="",
                        help="first run the same load on git revision REV, then on this tree")
    args = parser.parse_args()
    require_services()
    if not args.before:
        return one_load(args, ROOT)[1]
    print(f"== before: {args.before}")
    with free_play.checked_out(args.before) as old_tree:
        before, failed_before = one_load(args, old_tree)
    print("== after: this tree")
    after, failed_after = one_load(args, ROOT)
    if before and after:
        print(f"server CPU per move {before:.2f} ms before, {after:.2f} ms after: "
              f"{before / after:.2f}x less")
    return failed_before or failed_after


def one_load(args: argparse.Namespace, root: Path) -> tuple[float, int]:
    """The load on the code in ``root``: (server CPU per move in ms, exit status)."""
    stack = free_play.BenchStack(Path(tempfile.mkdtemp(prefix="tomb-race-bench-")))
    stack.use_root(root)
    stack.server_options = [f"--workers={args.workers}"]
    players = args.rooms * args.size + args.free_players
    stack.env.update(WS_RATE_PER_SECOND="100000", WS_BURST="100000", LOG_LEVEL=args.server_log,
                     DATABASE_POOL_SIZE=str(min(40, players)), RACE_CREATE_RATE="100000/hour",
                     RACE_COUNTDOWN_SECONDS="3", RACE_POOL_VARIANTS=args.variant)
    print(f"server             uvicorn {' '.join(stack.server_options)}")
    try:
        stack.start()
        print(f"server log         {stack.log_dir}")
        rooms, others, server_cpu, client_cpu = asyncio.run(run(
            stack, args.rooms, args.size, args.seconds, args.think, args.free_players,
            args.variant, max(1, args.client_processes)))
        racers = [racer for room in rooms for racer in room.racers]
        print(f"rooms              {args.rooms} of {args.size}, {args.free_players} free-play "
              f"players beside them")
        per_move = free_play.report(
            free_play.Measured([*racers, *others], server_cpu, client_cpu), args.seconds)
        race_moves = sorted(value for racer in racers for value in racer.latencies)
        if race_moves:
            p99 = race_moves[min(len(race_moves) - 1, int(len(race_moves) * 0.99))] * 1000
            print(f"race moves         {len(race_moves)}: p50 "
                  f"{statistics.median(race_moves) * 1000:.1f} ms, p99 {p99:.1f} ms")
        print(f"races finished     {sum(room.finished for room in rooms)} of {len(rooms)}")
        print(f"progress heard     {sum(room.progress for room in rooms)} messages by the "
              f"owners' room sockets")
        acked, current, ever = map(sum, zip(*(figures_current(room) for room in rooms),
                                            strict=True))
        print(f"figures current    {current} of {acked} race moves "
              f"({current / max(1, acked):.1%}) heard within {CURRENT_WITHIN:.0f} s, "
              f"{ever} ({ever / max(1, acked):.1%}) before the race's end")
        missing, problems = ledger_problems(stack, [*racers, *others])
    finally:
        stack.stop()
    print(f"acks missing       {missing} acknowledged moves not in the database")
    for problem in problems[:10]:
        print("  " + problem)
    return per_move, 1 if problems or missing else 0


if __name__ == "__main__":
    sys.exit(main())
