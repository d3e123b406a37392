"""Service load: N concurrent WebSocket players against the real stack.

Run: ``python bench/service.py [--players 200] [--seconds 20] [--workers 1]
[--variant three-card]`` (any registered variant: its slug names its game).
It starts its own stack as the integration tests do (uvicorn with the Redis
channel layer, PostgreSQL, a Celery worker), each player starts a game over
REST and then plays legal moves (undoing when the game ends) over its
WebSocket, one at a time, waiting for each acknowledgement and then pausing
about ``--think`` seconds, as a person would (``--think 0`` plays flat out:
a throughput test, where latency is only queueing). It prints moves
per second and the p50 / p99 latency from sending a move to its
acknowledgement, then checks the database: every acknowledged move is
stored exactly once (no move missing, none doubled), the acknowledged
versions of each game run 1, 2, 3... without a gap or a repeat, and the
stored log is the one the last acknowledgement showed. ``--watch`` opens a
second, listening board per game (a second tab) that must receive every
version of its game exactly once, through the channel layer.

The client runs on the same machine as the server, so the figures include
the client's own CPU use: compare runs on one machine, not across machines.
The players are split over ``--client-processes`` processes (2 by default; 1 runs
them in this one), each on its own event loop, so one client loop is not the limit
of a flat-out run; the clients' CPU time per move is printed beside the server's,
so a reader can tell whose limit was hit.

Server CPU per move is the server process's CPU time (user and system, all its
threads) from the moment every player has connected to the end of play,
divided by the moves acknowledged: game creation and the sockets' handshakes
are not counted. The players' sockets ask for deltas (``?deltas=1``, as the
board does) and apply them as connection.js does.

``--before REV`` runs the same load twice in one run, first on the code of git
revision REV (checked out in a temporary worktree beside this one, its own stack
and database), then on this tree, and prints both CPU-per-move figures and
their ratio: the before and after of a change, measured on one machine at one
time. The old code sends whole states whatever the socket asks.

``--actions N`` measures instead, in this process and with no stack, the
server's own work per move (game.actions.do_move on the unit tests' SQLite):
N games of deal 2's 97-move winning line, once with the positions kept between
moves (game.positions) and once with the log replayed before every move (the
cache emptied each time, as the server did before it had one).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from service.live_players import ledger_problems  # noqa: E402  # the fault test's check
from service.stack import Stack, require_services  # noqa: E402  # the tests' launcher

from game.deltas import patch  # noqa: E402  # the server's own reading of a delta


@dataclass
class Clock:
    start: asyncio.Event = field(default_factory=asyncio.Event)
    deadline: float = 0.0
    # Work for after the measured part (a racer's give-up): a client process runs it
    # once every process's play has ended and the server's CPU has been read.
    after: list[Callable[[], Awaitable[None]]] = field(default_factory=list)


@dataclass
class Board:
    """A socket's view of its game: whole states replace it, deltas patch it on their base."""

    game: dict[str, Any] = field(default_factory=dict)
    resyncs: int = 0

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] == "state" and message["version"] >= self.game.get("version", -1):
            self.game = message["game"]
        elif message["type"] == "delta":
            if message["base"] != self.game.get("version"):
                self.resyncs += 1  # the bench's sockets act alone: this must not happen
                raise RuntimeError(f"a delta on base {message['base']}, the board holds "
                                   f"{self.game.get('version')}")
            self.game = patch(self.game, message["game"])


@dataclass
class Player:
    number: int
    game_id: str = ""
    ready: bool = False
    latencies: list[float] = field(default_factory=list)
    # The acknowledged actions in order: what the database must hold.
    acked: list[str] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)  # of the acknowledgements
    log: list[str] = field(default_factory=list)  # the game's log at the last one
    errors: list[str] = field(default_factory=list)
    watched: list[int] = field(default_factory=list)  # versions the second tab saw
    problems: list[str] = field(default_factory=list)  # found while playing (none here)


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = state["legal"]
    if not legal:
        return {"type": "undo"}
    homes = [move for move in legal if move.startswith("F@")]
    return {"type": "move", "move": rng.choice(homes or legal)}


async def send_and_wait(socket: Any, board: Board, message: dict[str, Any]) -> tuple[dict, float]:
    """Send one move and read until its answer (the one with its ``seq``), taking every
    state or delta on the way into ``board``: the answer and the seconds it took."""
    sent = time.perf_counter()
    await socket.send(json.dumps(message))
    while True:
        reply = json.loads(await socket.recv())
        if reply["type"] in ("state", "delta"):
            board.take(reply)
        if reply.get("seq") == message["seq"]:
            return reply, time.perf_counter() - sent

async def play(
    player: Player, base_url: str, clock: Clock, think: float, watch: bool, variant: str
) -> None:
    rng = random.Random(player.number)
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        token = (await http.get("/api/csrf/")).json()["csrf_token"]
        created = await http.post(
            "/api/games/", json={"variant": variant, "deal": player.number + 1},
            headers={"X-CSRFToken": token},
        )
        player.game_id = created.json()["id"]
        cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
    ws_url = base_url.replace("http", "ws", 1) + f"/ws/games/{player.game_id}/?deltas=1"
    options: dict[str, Any] = {
        "origin": base_url, "additional_headers": {"Cookie": cookie}, "open_timeout": 60,
    }
    tab = None
    if watch:
        tab = await connect(ws_url, **options)
        await tab.recv()  # its first state
        listening = asyncio.create_task(listen(tab, player))
    async with connect(ws_url, **options) as socket:
        board = Board()
        board.take(json.loads(await socket.recv()))
        state = board.game["state"]
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
            reply, seconds = await send_and_wait(socket, board, message)
            if reply["type"] == "error":
                player.errors.append(reply["error"])
                continue
            player.latencies.append(seconds)
            player.acked.append(message.get("move", "undo"))
            player.versions.append(reply["version"])
            state = board.game["state"]
            player.log = state["log"]
    if tab is not None:
        # Give the second tab up to 10 s to receive the last acknowledged version.
        waited = time.monotonic() + 10
        while player.versions[-1:] != player.watched[-1:] and time.monotonic() < waited:
            await asyncio.sleep(0.05)
        listening.cancel()
        await tab.close()


async def listen(tab: Any, player: Player) -> None:
    """A second tab: collect the versions of the states it is sent."""
    async for text in tab:
        message = json.loads(text)
        if message.get("type") in ("state", "delta"):
            player.watched.append(message["version"])


def check_second_tabs(players: list[Player]) -> list[str]:
    """A second tab saw each acknowledged version exactly once."""
    problems = []
    for player in players:
        if player.watched and sorted(player.watched) != player.versions:
            problems.append(f"game {player.game_id}: the second tab saw {player.watched}, "
                            f"acknowledged {player.versions}")
    return problems


def out_of_order(players: list[Player]) -> int:
    """States a second tab received after a later version of its game."""
    return sum(
        1 for player in players for before, after in itertools.pairwise(player.watched)
        if after < before
    )


@dataclass
class Measured:
    players: list[Player]
    server_cpu: float  # seconds, while the clock ran
    client_cpu: float


async def run(
    stack: Stack, count: int, seconds: float, think: float, watch: bool, variant: str,
    processes: int = 1,
) -> Measured:
    if processes > 1:
        return await run_in_processes(stack, count, seconds, think, watch, variant, processes)
    players = [Player(number) for number in range(count)]
    clock = Clock()
    tasks = [
        asyncio.create_task(play(player, stack.base_url, clock, think, watch, variant))
        for player in players
    ]
    # Everyone connects first; then the clock starts for all at once.
    while sum(1 for player in players if player.ready) < count:
        if any(task.done() for task in tasks):
            await asyncio.gather(*tasks)  # raises what went wrong
        await asyncio.sleep(0.1)
    server = stack.processes["server"].pid
    server_before, client_before = cpu_seconds(server), time.process_time()
    clock.deadline = time.monotonic() + seconds
    clock.start.set()
    await asyncio.gather(*tasks)
    return Measured(players, cpu_seconds(server) - server_before,
                    time.process_time() - client_before)


# -- the players in processes of their own ------------------------------------------
# One client process running hundreds of sockets spends about as much CPU as the server
# it measures, on the same 2 cores: flat out, its own loop can be the limit. Split over
# processes (--client-processes), each runs its share of the players on its own loop;
# they start together at a deadline the parent sends, and send back their players and
# their own CPU time while the clock ran.

Play = Callable[..., Awaitable[None]]


def spawn_clients(parts: list[Any], play_part: Play) -> list[Any]:
    """A forked process per part, each running ``play_part(part, clock)`` on its own
    loop; returns the parent's ends of their pipes."""
    context = multiprocessing.get_context("fork")
    ends = []
    for part in parts:
        mine, theirs = context.Pipe()
        context.Process(target=_client_process, args=(part, play_part, theirs),
                        daemon=True).start()
        ends.append(mine)
    return ends


def _client_process(part: Any, play_part: Play, pipe: Any) -> None:
    try:
        asyncio.run(_client_main(part, play_part, pipe))
    except BaseException as error:  # told to the parent, which raises it
        pipe.send(("failed", f"{type(error).__name__}: {error}"))


async def _client_main(part: Any, play_part: Play, pipe: Any) -> None:
    clock = Clock()
    ready = asyncio.Event()
    playing = asyncio.create_task(play_part(part, clock, ready))
    waiting = asyncio.create_task(ready.wait())
    await asyncio.wait([playing, waiting], return_when=asyncio.FIRST_COMPLETED)
    if playing.done():
        playing.result()  # raises what went wrong
    pipe.send(("ready", None))
    deadline = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    started = time.process_time()
    clock.deadline = deadline
    clock.start.set()
    result = await playing
    pipe.send(("done", (result, time.process_time() - started)))
    await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # the CPU is read
    await asyncio.gather(*(work() for work in clock.after))
    pipe.send(("finished", None))


async def gather_clients(ends: list[Any], server: int, seconds: float
                         ) -> tuple[list[Any], float, float]:
    """Start every client process's players at once: (their results, the server's CPU
    seconds and the clients' while the clock ran)."""
    loop = asyncio.get_running_loop()

    async def heard(end: Any, expected: str) -> Any:
        kind, value = await loop.run_in_executor(None, end.recv)
        if kind != expected:
            raise RuntimeError(f"a client process {kind}: {value}")
        return value

    for end in ends:
        await heard(end, "ready")
    server_before = cpu_seconds(server)
    deadline = time.monotonic() + seconds  # CLOCK_MONOTONIC: one clock for every process
    for end in ends:
        end.send(deadline)
    done = [await heard(end, "done") for end in ends]
    server_cpu = cpu_seconds(server) - server_before
    for end in ends:
        end.send("finish")
    for end in ends:
        await heard(end, "finished")
    return [result for result, _ in done], server_cpu, sum(cpu for _, cpu in done)


async def run_in_processes(
    stack: Stack, count: int, seconds: float, think: float, watch: bool, variant: str,
    processes: int,
) -> Measured:
    async def play_part(numbers: list[int], clock: Clock, ready: asyncio.Event) -> list[Player]:
        players = [Player(number) for number in numbers]
        tasks = [asyncio.create_task(play(player, stack.base_url, clock, think, watch, variant))
                 for player in players]
        while not all(player.ready for player in players):
            if any(task.done() for task in tasks):
                await asyncio.gather(*tasks)  # raises what went wrong
            await asyncio.sleep(0.1)
        ready.set()
        await asyncio.gather(*tasks)
        return players

    numbers = list(range(count))
    ends = spawn_clients([numbers[part::processes] for part in range(processes)], play_part)
    results, server_cpu, client_cpu = await gather_clients(
        ends, stack.processes["server"].pid, seconds)
    return Measured([player for part in results for player in part], server_cpu, client_cpu)


def cpu_seconds(group: int) -> float:
    """User and system CPU time so far of a process group: the server and its workers."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[2]) == group:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


class BenchStack(Stack):
    """The tests' stack, with the server's command line open to options (--workers...),
    run from ``root``: this tree, or an older revision's worktree (``--before``)."""

    server_options: list[str] = []
    root: Path = ROOT

    def use_root(self, root: Path) -> None:
        self.root = root
        self.env["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "tests")])

    def spawn(self, name: str, args: list[str]) -> None:
        args = args + self.server_options if name == "server" else args
        log = (self.log_dir / f"{name}.log").open("ab")
        self.processes[name] = subprocess.Popen(
            args, cwd=self.root, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def manage(self, *args: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=self.root, env=self.env,
                       check=True, capture_output=True, timeout=120)


@contextmanager
def checked_out(revision: str) -> Iterator[Path]:
    """``revision`` in a temporary git worktree beside this tree (so it finds the same
    sibling directories), with this tree's compiled solver; removed afterwards."""
    where = Path(tempfile.mkdtemp(prefix=".bench-before-", dir=ROOT.parent))
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(where), revision],
                   cwd=ROOT, check=True)
    try:
        for library in (ROOT / "solver_worker").glob("*.so"):
            shutil.copy(library, where / "solver_worker")
        yield where
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(where)], cwd=ROOT,
                       check=False)
        shutil.rmtree(where, ignore_errors=True)


def report(measured: Measured, seconds: float) -> float:
    """Print the run's figures; returns the server's CPU per move in ms (0: no move)."""
    players = measured.players
    latencies = sorted(value for player in players for value in player.latencies)
    if not latencies:
        print("no move was acknowledged")
        return 0.0
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    errors = sum(len(player.errors) for player in players)
    per_move = measured.server_cpu / len(latencies) * 1000
    print(f"players            {len(players)}")
    print(f"moves acknowledged {len(latencies)} in {seconds:.0f} s")
    print(f"moves per second   {len(latencies) / seconds:.0f}")
    print(f"latency p50        {p50:.1f} ms")
    print(f"latency p99        {p99:.1f} ms")
    print(f"errors             {errors}")
    print(f"server CPU         {measured.server_cpu:.1f} s, {per_move:.2f} ms per move")
    print(f"client CPU         {measured.client_cpu:.1f} s, "
          f"{measured.client_cpu / len(latencies) * 1000:.2f} ms per move (the players)")
    print(f"load average       {' '.join(f'{load:.1f}' for load in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    if any(player.watched for player in players):
        states = sum(len(player.versions) for player in players)
        missed = sum(len(set(player.versions) - set(player.watched)) for player in players)
        print(f"second tabs        missed {missed} of {states} states, "
              f"{out_of_order(players)} received out of order")
    return per_move


def actions_only(games: int) -> None:
    """CPU per move of the action alone: positions kept, then the log replayed every move."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "tombsite.test_settings"
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from service.lines import winning_line

    from game import actions
    from game.positions import POSITIONS
    from patience import rules_of

    call_command("migrate", verbosity=0)
    rules, line = rules_of("three-card"), winning_line(2)
    player = actions.Player(user_id=User.objects.create(username="bench").pk)
    for kept in (True, False):
        spent = []
        for _ in range(games):
            game = actions.do_create_game(player, rules.variants["three-card"],
                                          rules.deal_from_number(2))
            for move in line:
                if not kept:
                    POSITIONS.clear()
                start = time.process_time()
                actions.do_move(game["id"], player, move)
                spent.append(time.process_time() - start)
        way = "positions kept" if kept else "replayed each move"
        print(f"do_move, {way:<19} {statistics.mean(spent) * 1000:.3f} ms per move "
              f"(mean of {len(spent)}; {games} games of {len(line)} moves)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--think", type=float, default=1.0,
        help="mean pause between a player's moves, in seconds (0: play flat out)",
    )
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument("--client-processes", type=int, default=2, metavar="N",
                        help="processes the players are split over (1: this one)")
    parser.add_argument("--variant", default="three-card",
                        help="the variant every player plays (its slug names its game)")
    parser.add_argument("--watch", action="store_true",
                        help="a second, listening tab per game: it must see every version")
    parser.add_argument("--server-option", action="append", default=[], metavar="OPTION",
                        help="one more uvicorn option, e.g. --server-option=--loop=asyncio")
    parser.add_argument("--before", metavar="REV", default="",
                        help="first run the same load on git revision REV, then on this tree")
    parser.add_argument("--actions", type=int, default=0, metavar="GAMES",
                        help="measure only the action's CPU per move, in this process")
    args = parser.parse_args()
    if args.actions:
        actions_only(args.actions)
        return 0
    require_services()
    if not args.before:
        return one_load(args, ROOT)[1]
    print(f"== before: {args.before}")
    with checked_out(args.before) as old_tree:
        before, failed_before = one_load(args, old_tree)
    print("== after: this tree")
    after, failed_after = one_load(args, ROOT)
    if before and after:
        print(f"server CPU per move {before:.2f} ms before, {after:.2f} ms after: "
              f"{before / after:.2f}x less")
    return failed_before or failed_after


def one_load(args: argparse.Namespace, root: Path) -> tuple[float, int]:
    """The load on the code in ``root``: (server CPU per move in ms, exit status)."""
    stack = BenchStack(Path(tempfile.mkdtemp(prefix="tomb-bench-")))
    stack.use_root(root)
    stack.server_options = [f"--workers={args.workers}", *args.server_option]
    stack.env.update(WS_RATE_PER_SECOND="100000", WS_BURST="100000", LOG_LEVEL="ERROR",
                     DATABASE_POOL_SIZE=str(min(40, args.players)))
    print(f"server             uvicorn {' '.join(stack.server_options)}")
    try:
        stack.start()
        measured = asyncio.run(run(stack, args.players, args.seconds, args.think, args.watch,
                                   args.variant, args.client_processes))
        per_move = report(measured, args.seconds)
        problems = ledger_problems(stack, measured.players)[1] + \
            check_second_tabs(measured.players)
    finally:
        stack.stop()
    print("database           " + ("every acknowledged move stored once, versions gapless"
                                   if not problems else f"{len(problems)} problems"))
    for problem in problems[:10]:
        print("  " + problem)
    return per_move, 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
