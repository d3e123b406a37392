"""A race of three on the real stack (PostgreSQL, Redis, a Celery worker, uvicorn), every
payload each player receives checked for secrecy.

carol (logged in) opens the room, dave (logged in) and the visitor Vera join. Every
room and progress message carries no card at all; every answer about a player's own
game carries no card that player has not been shown (so none of another player's
and none of the stock); the replay is refused until the race is over. dave drops
mid-race and comes back to his game exactly as the server kept it; Vera gives up;
carol wins; the rematch reaches the old room's sockets.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psycopg
import pytest
from celery import Celery
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import InvalidStatus

from patience.tomb import deal_from_seed

from .lines import seeded_line
from .secrecy import CARD_TOKEN, StockWatch
from .stack import Stack, Visitor, require_services
from .test_daily_integration import sign_up

pytestmark = pytest.mark.integration
TIMEOUT = 20


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require_services()
    running = Stack(tmp_path_factory.mktemp("races-stack"))
    running.env.update(RACE_COUNTDOWN_SECONDS="1", RACE_POOL_VARIANTS="three-card",
                       RACE_POOL_SIZE="2", RACE_SCREEN_BUDGET_SECONDS="2")
    try:
        running.start()
        yield running
    finally:
        running.stop()


def race_seed(stack: Stack, code: str) -> int:
    with psycopg.connect(stack.env["DATABASE_URL"]) as connection:
        found = connection.execute("SELECT seed FROM races_race WHERE code = %s",
                                   (code,)).fetchone()
    assert found is not None and found[0] is not None
    return int(found[0])


def no_cards(message: dict[str, Any]) -> None:
    """A room or progress message names no card at all (its codes are random letters:
    left out of the check)."""
    text = json.dumps({key: value for key, value in message.items()
                       if key not in ("code", "url", "rematch")})
    assert not CARD_TOKEN.findall(text), f"a room message names cards: {text[:300]}"


class Player:
    """One racer: their HTTP session, their view of the deal, everything they received."""

    def __init__(self, visitor: Visitor, watch: StockWatch | None = None) -> None:
        self.visitor, self.watch = visitor, watch
        self.heard: list[dict[str, Any]] = []
        self.game = ""

    def post(self, path: str, body: Any = None, expect: int = 200) -> Any:
        response = self.visitor.post(path, body)
        assert response.status_code == expect, response.text[:300]
        self.check(response.text)
        return response.json()

    def get(self, path: str, expect: int = 200) -> Any:
        response = self.visitor.get(path)
        assert response.status_code == expect, response.text[:300]
        self.check(response.text)
        return response.json()

    def check(self, text: str) -> None:
        if self.watch is not None:
            self.watch.check(text)

    def move(self, move: str) -> Any:
        response = self.visitor.post(f"/api/games/{self.game}/moves/", {"move": move})
        assert response.status_code == 200, response.text[:300]
        assert self.watch is not None
        self.watch.played(move)  # the cards it shows are seen from its answer on
        self.check(response.text)
        return response.json()

    async def listen(self, socket: ClientConnection) -> None:
        async for text in socket:
            message = json.loads(text)
            if message["type"] in ("room", "progress"):
                no_cards(message)
            self.heard.append(message)

    async def hear(self, check: Any, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while True:
            found = next((message for message in reversed(self.heard) if check(message)), None)
            if found is not None:
                return found
            assert time.monotonic() < deadline, f"never heard {what}"
            await asyncio.sleep(0.05)


def room_in(state: str) -> Any:
    return lambda message: message["type"] == "room" and message["state"] == state


async def run_race(stack: Stack) -> None:
    carol = Player(sign_up(stack, "carol"))
    dave = Player(sign_up(stack, "dave"))
    vera = Player(Visitor(stack))
    code = carol.post("/api/races/", {"variant": "three-card", "minutes": 5}, expect=201)["code"]
    dave.post(f"/api/races/{code}/join/")
    vera.post(f"/api/races/{code}/join/", {"name": "Vera"})
    sockets = {player: await player.visitor.socket(f"/ws/races/{code}/")
               for player in (carol, dave, vera)}
    listeners = [asyncio.create_task(player.listen(socket)) for player, socket in sockets.items()]
    for player in (dave, vera):
        player.post(f"/api/races/{code}/ready/", {"ready": True})
    await carol.hear(lambda message: message["type"] == "room" and all(
        other["present"] and (other["ready"] or other["owner"])
        for other in message["players"]) and len(message["players"]) == 3, "all ready")
    carol.post(f"/api/races/{code}/start/")

    line, deal = seeded_line(race_seed(stack, code)), deal_from_seed(race_seed(stack, code))
    for player in (carol, dave, vera):
        player.watch = StockWatch(deal)
        room = await player.hear(room_in("running"), "the start")
        player.game = room["me"]["game"]
        player.check(json.dumps(player.get(f"/api/games/{player.game}/")))
    await asyncio.sleep(1.2)  # the countdown

    half = len(line) // 2
    for move in line[:half]:
        dave.move(move)
    progress = await carol.hear(lambda message: message["type"] == "progress"
                                and message["moves"] == half, "dave's progress")
    assert progress["status"] == "playing"
    dave.get(f"/api/races/{code}/replay/{progress['player']}/", expect=409)  # not yet

    # dave drops: his sockets close; he comes back to his game as the server kept it.
    await sockets[dave].close()
    await carol.hear(lambda message: message["type"] == "room" and not next(
        other for other in message["players"] if other["name"] == "dave")["present"],
        "dave gone")
    board = await dave.visitor.socket(f"/ws/games/{dave.game}/")
    resumed = json.loads(await asyncio.wait_for(board.recv(), TIMEOUT))
    dave.check(json.dumps(resumed))
    assert resumed["game"]["moves"] == half and resumed["game"]["status"] == "playing"
    await board.send(json.dumps({"type": "move", "move": line[half], "seq": 1}))
    answer = json.loads(await asyncio.wait_for(board.recv(), TIMEOUT))
    dave.watch.played(line[half])  # type: ignore[union-attr]
    dave.check(json.dumps(answer))
    assert answer["game"]["moves"] == half + 1
    await carol.hear(lambda message: message["type"] == "progress"
                     and message["moves"] == half + 1, "dave's move over his board's socket")
    await board.close()
    sockets[dave] = await dave.visitor.socket(f"/ws/races/{code}/")
    listeners.append(asyncio.create_task(dave.listen(sockets[dave])))

    for move in line[:5]:
        vera.move(move)
    hint = vera.visitor.post(f"/api/games/{vera.game}/hint/")
    assert hint.status_code == 409
    vera.check(hint.text)
    vera.post(f"/api/races/{code}/give-up/")
    for move in line:
        carol.move(move)
    dave.post(f"/api/races/{code}/give-up/")
    over = await dave.hear(room_in("finished"), "the end")
    assert [(player["name"], player["place"], player["status"]) for player in over["players"]] \
        == [("carol", 1, "won"), ("dave", 2, "gave-up"), ("Vera", 3, "gave-up")]

    daves_id = next(player["id"] for player in over["players"] if player["name"] == "dave")
    replay = vera.visitor.get(f"/api/races/{code}/replay/{daves_id}/").json()
    assert replay["moves"] == list(line[: half + 1]) and len(replay["frames"]) == half + 2
    assert replay["deal"] == [text for text in deal.texts]

    rematch = vera.post(f"/api/races/{code}/rematch/")
    heard = await carol.hear(lambda message: message["type"] == "room"
                             and message.get("rematch"), "the rematch")
    assert heard["rematch"] == rematch["code"] != code
    assert [player["name"] for player in rematch["players"]] == ["carol", "dave", "Vera"]

    for socket in sockets.values():
        await socket.close()
    await asyncio.gather(*listeners, return_exceptions=True)
    assert all(player.heard for player in (carol, dave, vera))
    for player in (carol, dave, vera):
        assert player.watch is not None and player.watch.checked > 5


def test_three_players_race_to_the_end_and_nobody_sees_a_card_they_were_not_shown(
    stack: Stack
) -> None:
    asyncio.run(run_race(stack))


def sql(stack: Stack, query: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(stack.env["DATABASE_URL"]) as connection:
        return connection.execute(query, args).fetchall()  # type: ignore[arg-type]


def wait_for(check: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


def test_the_worker_fills_the_pool_and_ends_a_race_at_its_time_limit(stack: Stack) -> None:
    fay, gus = sign_up(stack, "fay"), sign_up(stack, "gus")
    code = fay.post("/api/races/", {"variant": "three-card"}).json()["code"]
    gus.post(f"/api/races/{code}/join/")
    gus.post(f"/api/races/{code}/ready/", {"ready": True})
    assert fay.post(f"/api/races/{code}/start/").status_code == 200
    # Start asked the worker for deals ahead (the pool's size: 2).
    wait_for(lambda: sql(stack, "SELECT count(*) FROM races_pooleddeal WHERE variant = %s",
                         "three-card")[0][0] >= 2, "the pool filled by the worker")
    # The time limit, moved to now: the worker's end task (as scheduled at ends_at) ends it.
    sql(stack, "UPDATE races_race SET ends_at = now() WHERE code = %s RETURNING id", code)
    Celery(broker=stack.env["REDIS_URL"]).send_task("races.finish_race", args=[code],
                                                    queue=stack.prefix)
    wait_for(lambda: sql(stack, "SELECT state FROM races_race WHERE code = %s",
                         code)[0][0] == "finished", "the worker's end of the race")
    room = gus.get(f"/api/races/{code}/").json()
    assert {player["status"] for player in room["players"]} == {"out-of-time"}


def test_twelve_joining_at_once_fill_the_room_to_eight(stack: Stack) -> None:
    """The room's row lock counts the players: never a ninth, whatever the timing."""
    ida = sign_up(stack, "ida")
    code = ida.post("/api/races/", {"variant": "three-card"}).json()["code"]
    guests = [Visitor(stack) for _ in range(12)]
    start = threading.Barrier(len(guests))

    def join(number: int) -> int:
        start.wait()
        return guests[number].post(f"/api/races/{code}/join/",
                                   {"name": f"guest {number}"}).status_code

    with ThreadPoolExecutor(len(guests)) as pool:
        statuses = sorted(pool.map(join, range(len(guests))))
    assert statuses == [200] * 7 + [409] * 5
    assert len(ida.get(f"/api/races/{code}/").json()["players"]) == 8


def test_hostile_input_on_every_endpoint_is_a_clear_4xx(stack: Stack) -> None:
    erin = sign_up(stack, "erin")
    stranger = Visitor(stack)
    code = erin.post("/api/races/", {"variant": "three-card"}).json()["code"]
    bodies: list[Any] = [None, [], "x", 7, {"minutes": "ten"}, {"ready": "yes"}, {"name": 5},
                         {"name": "x" * 10_000}, {"variant": {"a": 1}}, {"game": [1]},
                         {"minutes": 10**30}, {"visitors": None}]
    for what in ("", "join/", "ready/", "leave/", "options/", "start/", "give-up/",
                 "rematch/"):
        for body in bodies:
            for who in (erin, stranger):
                path = f"/api/races/{code}/{what}" if what else "/api/races/"
                status = who.post(path, body).status_code
                assert (400 <= status < 500 and status != 405) or status in (200, 201), \
                    (path, body, status)
    for path in (f"/api/races/{code}/replay/1/", f"/api/races/{code}/replay/x/",
                 "/api/races/%00/", f"/api/races/{'a' * 300}/"):
        assert 400 <= stranger.get(path).status_code < 500, path


async def hostile_frames(stack: Stack) -> dict[str, Any]:
    hal = sign_up(stack, "hal")
    code = hal.post("/api/races/", {"variant": "three-card"}).json()["code"]
    socket = await hal.socket(f"/ws/races/{code}/")
    assert json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))["type"] == "room"
    for frame in ("null", "[]", "7", '"sync"', json.dumps({"type": ["sync"]}), b"\x00\xff",
                  "x" * 5000, "{" * 50, json.dumps({"type": "start"})):
        await socket.send(frame)
    await asyncio.sleep(1.1)  # past the room's one sync a second
    await socket.send(json.dumps({"type": "sync"}))
    while (answer := json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT)))["type"] \
            != "room":
        pass
    await socket.close()
    for bad in ("nope", "x" * 300, "a%00b", "..%2F"):
        with pytest.raises(InvalidStatus):
            await hal.socket(f"/ws/races/{bad}/")
    return dict(answer)


def test_the_room_socket_ignores_garbage_and_refuses_unknown_rooms(stack: Stack) -> None:
    room = asyncio.run(hostile_frames(stack))
    assert room["state"] == "lobby"


def test_visitor_names_that_pass_for_staff_or_the_owner_are_refused(stack: Stack) -> None:
    """The sign-up's rules for a visitor's race name, on the real stack (PostgreSQL's
    handles): reserved names, with look-alike letters too, and look-alikes of the owner's."""
    kim = sign_up(stack, "kim")
    code = kim.post("/api/races/", {"variant": "three-card"}).json()["code"]
    guest = Visitor(stack)

    refusals = {name: guest.post(f"/api/races/{code}/join/", {"name": name})
                for name in ("admin", "\u0430dmin", "k\u0456m", "KIM")}
    joined = guest.post(f"/api/races/{code}/join/", {"name": "Kimberly"})

    assert {name: (answer.status_code, answer.json()["error"])
            for name, answer in refusals.items()} == {
        "admin": (400, "that name is reserved: choose another"),
        "\u0430dmin": (400, "that name is reserved: choose another"),  # a Cyrillic a
        "k\u0456m": (400, "someone in this race goes by that name, or one that looks like "
                          "it: choose another"),  # a Cyrillic i
        "KIM": (400, "someone in this race goes by that name, or one that looks like it: "
                     "choose another"),
    }
    assert joined.status_code == 200
    assert [player["name"] for player in joined.json()["players"]] == ["kim", "Kimberly"]


def test_the_server_logged_no_traceback(stack: Stack) -> None:
    """Last in the file: nothing above made the server or the worker fail."""
    for name in ("server", "worker"):
        log = (stack.log_dir / f"{name}.log").read_text(errors="replace")
        assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]
