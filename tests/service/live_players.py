"""Players that keep playing over WebSockets through faults, and the ledger check after.

Each player owns one game and plays legal moves (and now and then an undo)
at a person's pace, one at a time, waiting for each acknowledgement. When
its socket closes (a Redis restart closes it with 1013, "try again later")
it reconnects with backoff, as the board's connection.js does. A move in
flight when the socket dropped may or may not have been stored: the first
state after the reconnect says which (its version is one past the last
acknowledged one, or not), and a stored one counts as acknowledged then.

The ledger check afterwards: every acknowledged action is in the database
exactly once (version, move and undo counters equal to the acknowledgements,
none missing, none doubled), the acknowledged versions run 1, 2, 3... with
no gap, and the stored log is the one the last acknowledgement showed.
Used by the fault test and by bench/load.py.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, WebSocketException

from .stack import Stack

REPLY_TIMEOUT = 10.0  # seconds: past this, the socket is taken for dead and reopened
# A handshake that stalls is given up sooner and retried, as the board's ack timeout does:
# after a Redis restart one in a few hangs for 10 s (see docs/scaling.md).
OPEN_TIMEOUT = 4.0
DROPPED = (OSError, TimeoutError, WebSocketException, InvalidHandshake)


@dataclass
class Clock:
    """Players connect first and wait for ``start``; then play until ``deadline``."""

    start: asyncio.Event = field(default_factory=asyncio.Event)
    deadline: float = math.inf

    def go(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.start.set()

    def over(self) -> bool:
        return time.monotonic() >= self.deadline


@dataclass
class LivePlayer:
    number: int
    game_id: str = ""
    cookie: str = ""
    latencies: list[float] = field(default_factory=list)  # move sent -> its ack, seconds
    acked: list[str] = field(default_factory=list)  # acknowledged actions, in order
    versions: list[int] = field(default_factory=list)  # of the acknowledgements
    acked_at: list[float] = field(default_factory=list)  # monotonic times of the acks
    log: list[str] = field(default_factory=list)  # the game's log at the last ack
    errors: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    reconnects: int = 0
    recovered: int = 0  # in-flight actions found stored after a reconnect
    in_flight: str | None = None
    ready: bool = False
    trace: list[tuple[float, str]] = field(default_factory=list)  # for failure messages

    def note(self, event: str) -> None:
        self.trace.append((time.monotonic(), event))

    def acknowledge(self, action: str, version: int, state: dict[str, Any]) -> None:
        self.acked.append(action)
        self.versions.append(version)
        self.acked_at.append(time.monotonic())
        self.log = list(state["log"])


def choose(state: dict[str, Any], rng: random.Random, undo_rate: float) -> dict[str, Any]:
    """A legal move, foundations first; an undo now and then, or when the game is over."""
    legal = state["legal"]
    if not legal or (state["log"] and rng.random() < undo_rate):
        return {"type": "undo"}
    homes = [move for move in legal if move.startswith("F@")]
    return {"type": "move", "move": rng.choice(homes or legal)}


async def start_game(player: LivePlayer, http: httpx.AsyncClient, deal: int) -> None:
    """A session, a CSRF token and a game, over REST as the page does."""
    token = (await http.get("/api/csrf/")).json()["csrf_token"]
    created = await http.post(
        "/api/games/", json={"variant": "three-card", "deal": deal},
        headers={"X-CSRFToken": token},
    )
    created.raise_for_status()
    player.game_id = created.json()["id"]
    player.cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())


async def open_board(player: LivePlayer, base_url: str) -> tuple[ClientConnection, dict[str, Any]]:
    """Open (or reopen) the game's socket; settle a move left in flight by a drop."""
    url = base_url.replace("http", "ws", 1) + f"/ws/games/{player.game_id}/"
    socket = await connect(url, origin=base_url,  # type: ignore[arg-type]
                           additional_headers={"Cookie": player.cookie},
                           open_timeout=OPEN_TIMEOUT)
    first = json.loads(await asyncio.wait_for(socket.recv(), REPLY_TIMEOUT))
    version, state = first["version"], first["game"]["state"]
    known = len(player.acked)
    if player.in_flight is not None and version == known + 1:
        player.acknowledge(player.in_flight, version, state)  # it was stored: now we know
        player.recovered += 1
    elif version != known:
        player.problems.append(f"game {player.game_id}: reopened at version {version}, "
                               f"{known} acknowledged")
    player.in_flight = None
    return socket, state


async def reply_to(socket: ClientConnection, seq: int) -> dict[str, Any]:
    while True:
        reply = json.loads(await asyncio.wait_for(socket.recv(), REPLY_TIMEOUT))
        if reply.get("seq") == seq:
            return dict(reply)


async def play(
    player: LivePlayer, base_url: str, clock: Clock, *, think: float, undo_rate: float = 0.1,
) -> None:
    """Play from the clock's start to its deadline, reconnecting whenever the socket drops."""
    rng = random.Random(player.number)
    seq, backoff = 0, 0.2
    while not clock.over():
        try:
            player.note("open")
            socket, state = await open_board(player, base_url)
            player.note("opened")
        except DROPPED as error:
            player.note(f"open failed: {type(error).__name__}: {error}")
            player.reconnects += 1
            await asyncio.sleep(backoff * rng.uniform(0.75, 1.25))
            backoff = min(backoff * 2, 3.0)
            continue
        backoff = 0.2
        player.ready = True
        await clock.start.wait()
        try:
            async with socket:
                while not clock.over():
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                    seq += 1
                    state = await act(player, socket, choose(state, rng, undo_rate), seq, state)
        except DROPPED as error:
            player.note(f"dropped: {type(error).__name__}: {error}")
            player.reconnects += 1


async def act(player: LivePlayer, socket: ClientConnection, message: dict[str, Any], seq: int,
              state: dict[str, Any]) -> dict[str, Any]:
    """Send one action and wait for its answer; the new state (the old one on an error)."""
    action = message.get("move", "undo")
    player.in_flight = action
    sent = time.perf_counter()
    await socket.send(json.dumps({**message, "seq": seq}))
    reply = await reply_to(socket, seq)
    player.in_flight = None
    if reply["type"] == "error":
        player.errors.append(reply["error"])
        return state
    expected = len(player.acked) + 1
    if reply["version"] != expected:
        player.problems.append(f"game {player.game_id}: ack version {reply['version']}, "
                               f"expected {expected}")
    player.latencies.append(time.perf_counter() - sent)
    player.acknowledge(action, reply["version"], reply["game"]["state"])
    return dict(reply["game"]["state"])


class Ledgered(Protocol):
    """What a player remembers of its acknowledgements (the load benches' players too)."""

    game_id: str
    acked: list[str]
    log: list[str]
    versions: list[int]
    problems: list[str]


def ledger_problems(stack: Stack, players: Sequence[Ledgered]) -> tuple[int, list[str]]:
    """(acknowledged actions missing from the database, every problem found)."""
    missing, problems = 0, []
    for player in players:
        problems += player.problems
        row = stack.row(player.game_id)
        moves = sum(1 for action in player.acked if action != "undo")
        undos = len(player.acked) - moves
        # The stored moves are those on the line (the last acknowledged log): undone not.
        on_line = len(player.log)
        missing += max(0, len(player.acked) - row["version"])
        if (row["version"], row["moves"], row["undos"]) != (len(player.acked), on_line, undos):
            problems.append(
                f"game {player.game_id}: acknowledged {len(player.acked)} ({moves} moves, "
                f"{undos} undos, {on_line} on the line), stored version {row['version']} "
                f"({row['moves']}, {row['undos']})"
            )
        elif row["log"].split() != player.log:
            problems.append(f"game {player.game_id}: the stored log differs from the last ack")
        if player.versions != list(range(1, len(player.versions) + 1)):
            problems.append(f"game {player.game_id}: acknowledged versions are not 1, 2, 3...")
    return missing, problems
