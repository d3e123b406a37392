"""Issue 25's REST flood, played on the real stack (uvicorn, PostgreSQL, Redis, a Celery
worker) with the site's own write allowance (the socket's figures: 20 a second, 40 at
once): carol, racing dave, loops a placement and its undo over REST for 5 seconds.

Before the allowance she wrote about 200 times in those 5 seconds and both room sockets
heard every write. Now the writes accepted are bounded by the allowance, the room hears
no more than those, and the refused ones changed nothing. The figures are written to
test-output/write-flood.json (under the run's log directory).
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection

from .attacks import sign_up
from .stack import Stack, Visitor, started_stack

pytestmark = pytest.mark.integration
RATE, BURST = 20, 40  # the site's defaults (settings: WS_RATE_PER_SECOND, WS_BURST)
WINDOW = math.ceil(BURST / RATE)  # seconds: game.limits counts BURST writes a window
FLOOD_SECONDS = 5.0
TIMEOUT = 20


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    env = {"WS_RATE_PER_SECOND": str(RATE), "WS_BURST": str(BURST),
           "RACE_COUNTDOWN_SECONDS": "1", "RACE_POOL_VARIANTS": "three-card",
           "RACE_POOL_SIZE": "1", "RACE_SCREEN_BUDGET_SECONDS": "2"}
    with started_stack(tmp_path_factory.mktemp("write-flood-stack"), env) as running:
        yield running


class Room:
    """A room socket and the progress it heard, by player id."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.rooms: list[dict[str, Any]] = []
        self.progress: list[dict[str, Any]] = []

    async def listen(self) -> None:
        async for text in self.socket:
            message = json.loads(text)
            kept = self.progress if message["type"] == "progress" else self.rooms
            kept.append(message)

    async def running(self) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while not any(room.get("state") == "running" for room in self.rooms):
            assert time.monotonic() < deadline, "the race never started"
            await asyncio.sleep(0.05)
        return next(room for room in self.rooms if room.get("state") == "running")

    def heard_from(self, player: int) -> int:
        return sum(message["player"] == player for message in self.progress)


def flood(racer: Visitor, game_id: str, placement: str) -> dict[str, int]:
    """Place and undo in a loop for FLOOD_SECONDS, retrying at once what was refused
    (a script that ignores Retry-After). Counts the answers by status."""
    paths = [(f"/api/games/{game_id}/moves/", {"move": placement}),
             (f"/api/games/{game_id}/undo/", {})]
    answers: dict[str, int] = {}
    turn, deadline = 0, time.monotonic() + FLOOD_SECONDS
    while time.monotonic() < deadline:
        status = racer.post(*paths[turn % 2]).status_code
        answers[str(status)] = answers.get(str(status), 0) + 1
        turn += status == 200  # the other write only once this one stood
    return answers


def placement_of(racer: Visitor, game_id: str) -> str:
    """Turn the stock once; then a placement from the waste (undoable in a race: only a
    stock turn shows a new card)."""
    game = racer.post(f"/api/games/{game_id}/moves/", {"move": "D"}).json()
    return str(next(move for move in game["state"]["legal"] if move not in ("D", "R")))


async def race_and_flood(stack: Stack) -> dict[str, Any]:
    carol, dave = sign_up(stack, "carol"), sign_up(stack, "dave")
    code = carol.post("/api/races/", {"variant": "three-card"}).json()["code"]
    dave.post(f"/api/races/{code}/join/")
    rooms = [Room(await who.socket(f"/ws/races/{code}/")) for who in (carol, dave)]
    listeners = [asyncio.create_task(room.listen()) for room in rooms]
    assert dave.post(f"/api/races/{code}/ready/", {"ready": True}).status_code == 200
    await asyncio.sleep(0.5)  # the ready reaches the room before the start
    assert carol.post(f"/api/races/{code}/start/").status_code == 200, "start"
    room = await rooms[0].running()
    await asyncio.sleep(1.2)  # the countdown
    game_id = carol.get(f"/api/races/{code}/").json()["me"]["game"]
    carols = next(player["id"] for player in room["players"] if player["name"] == "carol")
    placement = placement_of(carol, game_id)
    await asyncio.sleep(WINDOW + 0.2)  # the D's window is over: the flood opens a new one
    heard_before = [each.heard_from(carols) for each in rooms]

    answers = await asyncio.to_thread(flood, carol, game_id, placement)
    await asyncio.sleep(1.0)  # the last writes' progress reaches the room

    heard = [each.heard_from(carols) - before for each, before in zip(rooms, heard_before,
                                                                       strict=True)]
    for each in rooms:
        await each.socket.close()
    await asyncio.gather(*listeners, return_exceptions=True)
    return {"answers": answers, "heard": heard, "row": stack.row(game_id),
            "retry_after": carol.post(f"/api/games/{game_id}/undo/").headers.get("Retry-After")}


def test_a_rest_flood_in_a_race_is_bounded_by_the_write_allowance(stack: Stack) -> None:
    found = asyncio.run(race_and_flood(stack))
    (stack.log_dir / "write-flood.json").write_text(json.dumps(found, indent=1, default=str))

    accepted, refused = found["answers"].get("200", 0), found["answers"].get("429", 0)
    # Windows of WINDOW seconds, the first opened by the flood's first write.
    bound = BURST * math.ceil(FLOOD_SECONDS / WINDOW)
    assert set(found["answers"]) <= {"200", "429"}, found["answers"]
    assert BURST <= accepted <= bound and refused > 0, found["answers"]
    assert all(0 < heard <= accepted for heard in found["heard"]), found
    # The refused writes changed nothing: the row counts only the accepted ones.
    row = found["row"]
    # (moves: the line's, the D and the placement when the last accepted write placed it)
    assert row["moves"] == 1 + accepted % 2 and row["undos"] == accepted // 2, row
    assert found["retry_after"] is None or int(found["retry_after"]) <= WINDOW
