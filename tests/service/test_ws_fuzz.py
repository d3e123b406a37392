"""Hostile WebSocket clients against the real stack (uvicorn, Redis layer, PostgreSQL).

Malformed and non-object JSON, unknown types, absurd seq values, frames past
the consumer's 4 KB limit and past uvicorn's 64 KB frame limit, binary
frames, floods past the rate limit, a foreign Origin, no session, another
player's game, forged game ids and Hypothesis-generated random frames (and
garbage on the read-only daily field socket): each
gets a clean refusal (an error message, a close code or a refused
handshake), never a card from the stock, and changes nothing stored.
Meanwhile a well-behaved player (the bystander, on its own thread and event
loop) keeps playing on another socket with normal latency, and the server's
log shows no traceback. The rate limit is the production default here.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from .secrecy import StockWatch
from .stack import Stack, Visitor, require_services

pytestmark = pytest.mark.integration
DEAL = 2
TIMEOUT = 10
RATE, BURST, STRIKES = 20, 40, 20  # the site's defaults (settings, consumers)
CLOSE_TOO_BIG, CLOSE_POLICY = 1009, 1008


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require_services()
    running = Stack(tmp_path_factory.mktemp("ws-fuzz-stack"))
    running.env.update(WS_RATE_PER_SECOND=str(RATE), WS_BURST=str(BURST))
    try:
        running.start()
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def alice(stack: Stack) -> Iterator[Visitor]:
    visitor = Visitor(stack)
    yield visitor
    visitor.close()


@pytest.fixture(scope="module")
def target(alice: Visitor) -> str:
    """The game the hostile sockets attack: alice's, never played."""
    return str(alice.new_game(DEAL)["id"])


# -- the well-behaved player ---------------------------------------------------


class Bystander:
    """Plays legal moves (undo when none is left) ten times a second on its own game,
    on a thread and event loop of its own, timing each acknowledgement."""

    def __init__(self, stack: Stack) -> None:
        self.stack, self.visitor = stack, Visitor(stack)
        self.game_id = self.visitor.new_game(DEAL + 1)["id"]
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self.play()), daemon=True)

    async def play(self) -> None:
        url = f"{self.stack.ws_url}/ws/games/{self.game_id}/"
        async with connect(url, origin=self.stack.base_url,  # type: ignore[arg-type]
                           additional_headers={"Cookie": self.visitor.cookie_header}) as socket:
            state = json.loads(await socket.recv())["game"]["state"]
            seq = 0
            while not self.stop.is_set():
                seq += 1
                legal = state["legal"]
                message = {"type": "move", "move": legal[0], "seq": seq} if legal else {
                    "type": "undo", "seq": seq}
                sent = time.perf_counter()
                await socket.send(json.dumps(message))
                reply = await self.reply_to(socket, seq)
                if reply["type"] != "state":
                    self.errors.append(reply.get("error", str(reply)))
                    return
                self.latencies.append(time.perf_counter() - sent)
                state = reply["game"]["state"]
                await asyncio.sleep(0.1)

    @staticmethod
    async def reply_to(socket: ClientConnection, seq: int) -> dict[str, Any]:
        while True:
            reply = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
            if reply.get("seq") == seq:
                return dict(reply)

    def __enter__(self) -> Bystander:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(TIMEOUT)
        self.visitor.close()

    def check(self, seconds: float) -> None:
        """It kept playing the whole time, with a person's latency (a loaded machine)."""
        assert not self.errors, self.errors
        assert len(self.latencies) >= seconds * 3, (len(self.latencies), seconds)
        assert statistics.median(self.latencies) < 0.25, sorted(self.latencies)[-10:]
        assert max(self.latencies) < 2.0, sorted(self.latencies)[-10:]


@pytest.fixture
def bystander(stack: Stack) -> Iterator[Bystander]:
    started = time.monotonic()
    with Bystander(stack) as playing:
        time.sleep(0.3)  # already playing when the attack starts
        yield playing
    playing.check(time.monotonic() - started)
    assert stack.row(playing.game_id)["version"] == len(playing.latencies)


# -- hostile sockets ------------------------------------------------------------


class Hostile:
    """A socket on alice's game that sends garbage; every frame it receives is checked
    against the secret stock order (nothing has been turned, so no card may appear)."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.watch = StockWatch(DEAL)

    @classmethod
    async def open(cls, stack: Stack, visitor: Visitor, game_id: str) -> Hostile:
        socket = await visitor.socket(f"/ws/games/{game_id}/", TIMEOUT)
        hostile = cls(socket)
        assert (await hostile.receive())["type"] == "state"
        return hostile

    async def receive(self) -> dict[str, Any]:
        text = await asyncio.wait_for(self.socket.recv(), TIMEOUT)
        self.watch.check(text)
        return dict(json.loads(text))

    async def refused(self, frame: str | bytes) -> str:
        """Send a frame; its answer must be an error message."""
        await self.socket.send(frame)
        answer = await self.receive()
        assert answer["type"] == "error", answer
        return str(answer["error"])

    async def closed_with(self) -> int:
        """Read to the close; every message before it an error. The close code."""
        try:
            while True:
                assert (await self.receive())["type"] == "error"
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "closed without a close frame"
            return closed.rcvd.code


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def assert_untouched(stack: Stack, game_id: str) -> None:
    row = stack.row(game_id)
    assert (row["version"], row["log"], row["moves"], row["hints"]) == (0, "", 0, 0), row


NOT_OBJECTS = ["{not json", "", "[1, 2]", '"move"', "3", "null", "true", "{'type': 'sync'}"]
BAD_MESSAGES = [
    {}, {"type": 5}, {"type": "teleport"}, {"type": None}, {"type": ["move"]},
    {"type": "move"}, {"type": "move", "move": 7}, {"type": "move", "move": {"x": 1}},
    {"type": "move", "move": "F@nowhere"}, {"type": "move", "move": "X" * 3000},
    {"type": "move", "move": "F@tomb"},  # well formed, but nothing is on the waste
    {"type": "undo"},  # nothing to undo
    {"type": "hint", "fair": "yes"},
]
ABSURD_SEQS: list[Any] = [-1, 2**53, 2**64, 10**3000, 1.5, 1e308, "7", True, [1], {"n": 1}]


def test_malformed_and_unknown_messages_get_an_error_and_change_nothing(
    stack: Stack, alice: Visitor, target: str, bystander: Bystander
) -> None:
    async def attack() -> list[str]:
        hostile = await Hostile.open(stack, alice, target)
        errors = [await hostile.refused(text) for text in NOT_OBJECTS]
        errors += [await hostile.refused(json.dumps(message)) for message in BAD_MESSAGES]
        for seq in ABSURD_SEQS:
            text = json.dumps({"type": "sync", "seq": seq})
            assert await hostile.refused(text) == "seq must be a whole number"
        # Still open and serving: a well-formed sync gets the state.
        await hostile.socket.send(json.dumps({"type": "sync", "seq": 1}))
        assert (await hostile.receive())["seq"] == 1
        await hostile.socket.close()
        return errors

    errors = run(attack())
    assert errors[0] == "malformed JSON"
    assert "unknown type (use move, undo, finish, hint or sync)" in errors
    assert all(len(error) < 200 for error in errors), "no long echo of the input"
    assert_untouched(stack, target)


def test_frames_past_the_limits_close_the_socket(
    stack: Stack, alice: Visitor, target: str, bystander: Bystander
) -> None:
    async def send_and_close(frame: str | bytes) -> int:
        hostile = await Hostile.open(stack, alice, target)
        await hostile.socket.send(frame)
        return await hostile.closed_with()

    assert run(send_and_close("x" * 5000)) == CLOSE_TOO_BIG  # the consumer's 4 KB
    assert run(send_and_close(json.dumps({"type": "sync", "pad": "x" * 70_000}))) == (
        CLOSE_TOO_BIG)  # uvicorn's 64 KB frame limit
    assert run(send_and_close(b"\x00" * 70_000)) == CLOSE_TOO_BIG
    assert_untouched(stack, target)


def test_binary_frames_are_refused(
    stack: Stack, alice: Visitor, target: str, bystander: Bystander
) -> None:
    async def attack() -> list[str]:
        hostile = await Hostile.open(stack, alice, target)
        frames = [b"", b"\xff\xfe", json.dumps({"type": "move", "move": "D"}).encode()]
        errors = [await hostile.refused(frame) for frame in frames]
        await hostile.socket.close()
        return errors

    assert set(run(attack())) == {"send JSON text, not binary frames"}
    assert_untouched(stack, target)


def test_a_flood_is_slowed_then_closed(
    stack: Stack, alice: Visitor, target: str, bystander: Bystander
) -> None:
    async def flood() -> tuple[int, int, int, float]:
        hostile = await Hostile.open(stack, alice, target)
        started = time.monotonic()
        for seq in range(1, 301):
            try:
                await hostile.socket.send(json.dumps({"type": "sync", "seq": seq}))
            except ConnectionClosed:
                break
        states = errors = 0
        try:
            while True:
                answer = await hostile.receive()
                states += answer["type"] == "state"
                errors += answer["type"] == "error"
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return states, errors, closed.rcvd.code, time.monotonic() - started

    states, errors, code, seconds = run(flood())
    assert code == CLOSE_POLICY
    assert states <= BURST + RATE * seconds + 1, (states, seconds)
    assert errors == STRIKES - 1  # "slow down" until the last strike closes it
    assert_untouched(stack, target)


def test_strangers_forgers_and_foreign_pages_cannot_open_a_board(
    stack: Stack, alice: Visitor, target: str, bystander: Bystander
) -> None:
    bob = Visitor(stack)
    bob.new_game(DEAL)  # bob has a session and a game of his own, not alice's
    try:
        attempts = {
            "another player's game": (target, bob.cookie_header, stack.base_url),
            "no session": (target, "", stack.base_url),
            "forged game id": (str(uuid.uuid4()), alice.cookie_header, stack.base_url),
            "foreign origin": (target, alice.cookie_header, "https://evil.example"),
            "no origin": (target, alice.cookie_header, None),
            "not a game id": ("1' OR '1'='1", alice.cookie_header, stack.base_url),
            "no such route": ("../../admin", alice.cookie_header, stack.base_url),
        }
        for name, (game_id, cookie, origin) in attempts.items():
            status = run(handshake(stack, game_id, cookie, origin))
            assert status in (400, 403, 404), f"{name}: {status}"
    finally:
        bob.close()
    assert_untouched(stack, target)


async def handshake(stack: Stack, game_id: str, cookie: str, origin: str | None) -> int:
    """The HTTP status of a refused WebSocket handshake (fails if it is accepted)."""
    headers = {"Cookie": cookie} if cookie else {}
    try:
        socket = await connect(
            f"{stack.ws_url}/ws/games/{game_id}/", origin=origin,  # type: ignore[arg-type]
            additional_headers=headers, open_timeout=TIMEOUT,
        )
    except InvalidStatus as refused:
        return refused.response.status_code
    await socket.close()
    raise AssertionError(f"the handshake for {game_id} was accepted")


FRAMES = st.lists(
    st.one_of(st.text(max_size=300), st.binary(max_size=300),
              st.dictionaries(st.sampled_from(["type", "move", "seq", "fair"]),
                              st.one_of(st.none(), st.booleans(), st.integers(),
                                        st.floats(), st.text(max_size=20)))),
    min_size=1, max_size=8,
)


def test_random_frames_get_a_clean_refusal(
    stack: Stack, alice: Visitor, target: str, bystander: Bystander
) -> None:
    @given(frames=FRAMES)
    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              phases=[Phase.explicit, Phase.generate],
              suppress_health_check=list(HealthCheck))
    def one_socket(frames: list[Any]) -> None:
        run(send_frames(stack, alice, target, frames))

    one_socket()
    assert_untouched(stack, target)


async def send_frames(stack: Stack, alice: Visitor, target: str, frames: list[Any]) -> None:
    hostile = await Hostile.open(stack, alice, target)
    try:
        for frame in frames:
            if isinstance(frame, dict):
                frame = json.dumps(frame)
            await hostile.socket.send(frame)
            answer = await hostile.receive()
            if frame == '{"type": "sync"}':
                continue  # a well-formed request, answered with the state
            assert answer["type"] == "error", (frame, answer)
    finally:
        await hostile.socket.close()


def test_the_daily_field_ignores_garbage_and_refuses_unknown_variants(
    stack: Stack, alice: Visitor, bystander: Bystander
) -> None:
    """The read-only field socket answers nothing but a sync, at most once a second."""
    async def attack() -> tuple[dict[str, Any], int]:
        url = f"{stack.ws_url}/ws/daily/three-card/"
        async with connect(url, origin=stack.base_url,  # type: ignore[arg-type]
                           additional_headers={"Cookie": alice.cookie_header}) as socket:
            assert json.loads(await socket.recv())["type"] == "field"
            for frame in [*NOT_OBJECTS, json.dumps({"type": ["sync"]}), b"\x00\xff",
                          "x" * 5000, json.dumps({"type": "sync"})]:
                await socket.send(frame)
            await asyncio.sleep(1.1)  # past the field's one sync a second
            await socket.send(json.dumps({"type": "sync"}))
            answer = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
            await socket.send("x" * 70_000)  # past uvicorn's frame limit
            try:
                await asyncio.wait_for(socket.recv(), TIMEOUT)
            except ConnectionClosed as closed:
                assert closed.rcvd is not None
                return answer, closed.rcvd.code
            raise AssertionError("a 70 KB frame did not close the field socket")

    answer, code = run(attack())
    assert answer["type"] == "field" and code == CLOSE_TOO_BIG
    for variant in ("nope", "three-card%00", "x" * 300):
        with pytest.raises(InvalidStatus):
            run(open_field(stack, variant))


async def open_field(stack: Stack, variant: str) -> None:
    socket = await connect(f"{stack.ws_url}/ws/daily/{variant}/", origin=stack.base_url,
                           open_timeout=TIMEOUT)
    await socket.close()


def test_the_server_logged_no_traceback(stack: Stack) -> None:
    """Last in the file: none of the attacks above made the server fail."""
    log = (stack.log_dir / "server.log").read_text(errors="replace")
    assert "Traceback" not in log and "Exception in ASGI" not in log, log[-3000:]
