"""Coalesced live events (game.events.Coalescer), as a race's progress uses them: the
latest event of a key wins, a group gets one batch an interval at most, groups do not
wait on each other, a timer sends the batch with no further event, and the group's
other events never overtake it. Then the room socket's side (races.consumers): one
progress frame per player of a batch, older figures and figures after the end dropped.
"""

from __future__ import annotations

import asyncio
from itertools import pairwise
from typing import Any

import pytest

from game.events import Coalesce, Coalescer, coalescer
from races.consumers import RaceConsumer

pytestmark = pytest.mark.asyncio

INTERVAL = 0.2  # seconds
BATCH = "race.progress_batch"


class Layer:
    """A channel layer that notes each group send and when it came."""

    def __init__(self, delay: float = 0.0) -> None:
        self.sent: list[tuple[float, str, dict[str, Any]]] = []
        self.delay = delay

    async def group_send(self, group: str, event: dict[str, Any]) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        self.sent.append((asyncio.get_running_loop().time(), group, event))

    def batches(self, group: str) -> list[list[dict[str, Any]]]:
        return [event["events"] for _, to, event in self.sent
                if to == group and event["type"] == BATCH]


def progress(player: int, moves: int) -> dict[str, Any]:
    return {"type": "race.progress",
            "progress": {"player": player, "moves": moves, "version": moves}}


def add(batches: Coalescer, group: str, player: int, moves: int) -> None:
    batches.add(group, progress(player, moves), Coalesce(BATCH, player, INTERVAL))


async def test_the_latest_event_of_a_key_wins() -> None:
    layer = Layer()
    batches = Coalescer(layer)  # type: ignore[arg-type]
    add(batches, "race.A", 1, 1)
    add(batches, "race.A", 2, 1)
    add(batches, "race.A", 1, 2)
    add(batches, "race.A", 1, 3)
    await asyncio.sleep(INTERVAL / 2)
    assert layer.batches("race.A") == [[progress(1, 3), progress(2, 1)]]


async def test_a_timer_sends_the_batch_with_no_further_event() -> None:
    layer = Layer()
    batches = Coalescer(layer)  # type: ignore[arg-type]
    add(batches, "race.A", 1, 1)  # after a quiet spell: sent at once
    await asyncio.sleep(0.01)
    add(batches, "race.A", 1, 2)  # within the interval: waits for its end
    assert batches.timers  # and nothing more is added: the timer alone sends it
    await asyncio.sleep(2 * INTERVAL)
    assert layer.batches("race.A") == [[progress(1, 1)], [progress(1, 2)]]
    first, second = (at for at, _, _ in layer.sent)
    assert second - first >= INTERVAL * 0.99  # a timer never fires early (loop clock)
    assert not batches.pending and not batches.timers and not batches.sending


async def test_a_group_gets_one_batch_an_interval_at_most() -> None:
    layer = Layer()
    batches = Coalescer(layer)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    began = loop.time()
    moves = 0
    while loop.time() - began < 5 * INTERVAL:  # a move every hundredth of a second
        moves += 1
        add(batches, "race.A", moves % 3, moves)
        await asyncio.sleep(0.01)
    await asyncio.sleep(2 * INTERVAL)
    times = [at for at, _, _ in layer.sent]
    assert 2 <= len(times) <= (times[-1] - began) / INTERVAL + 1 < moves
    assert all(later - earlier >= INTERVAL * 0.99 for earlier, later in pairwise(times))
    last = {event["progress"]["player"]: event for batch in layer.batches("race.A")
            for event in batch}
    assert last == {player: progress(player, moves - (moves - player) % 3)
                    for player in range(3)}  # every player's latest figures went out


async def test_groups_do_not_wait_on_each_other() -> None:
    layer = Layer()
    batches = Coalescer(layer)  # type: ignore[arg-type]
    add(batches, "race.A", 1, 1)
    add(batches, "race.A", 1, 2)  # race.A's timer now runs an interval
    await asyncio.sleep(INTERVAL / 4)
    add(batches, "race.B", 7, 1)
    await asyncio.sleep(INTERVAL / 4)
    assert layer.batches("race.B") == [[progress(7, 1)]]
    assert layer.batches("race.A") == [[progress(1, 2)]]


async def test_another_event_of_the_group_goes_after_its_pending_batch() -> None:
    layer = Layer(delay=INTERVAL / 5)  # a slow layer: a batch is on its way a while
    batches = Coalescer(layer)  # type: ignore[arg-type]
    add(batches, "race.A", 1, 1)
    await asyncio.sleep(0.001)  # the first batch is on its way
    add(batches, "race.A", 1, 2)  # pending, its timer an interval off
    await batches.flush("race.A")
    await layer.group_send("race.A", {"type": "race.room"})
    assert [event["type"] for _, _, event in layer.sent] == [BATCH, BATCH, "race.room"]
    assert layer.batches("race.A") == [[progress(1, 1)], [progress(1, 2)]]
    assert not batches.timers
    await batches.flush("race.B")  # nothing pending there: nothing sent
    assert len(layer.sent) == 3


async def test_a_failing_layer_loses_the_batch_not_the_loop(caplog: Any) -> None:
    class Down(Layer):
        async def group_send(self, group: str, event: dict[str, Any]) -> None:
            raise ConnectionError("redis is restarting")

    batches = Coalescer(Down())  # type: ignore[arg-type]
    add(batches, "race.A", 1, 1)
    await asyncio.sleep(INTERVAL / 4)
    assert "a batch of group race.A was not sent" in caplog.text
    assert not batches.pending and not batches.sending


async def test_each_loop_and_layer_has_its_coalescer() -> None:
    first, second = Layer(), Layer()
    assert coalescer(first) is coalescer(first)  # type: ignore[arg-type]
    assert coalescer(first) is not coalescer(second)  # type: ignore[arg-type]


# -- the room socket's side -------------------------------------------------------------

class Room(RaceConsumer):
    """A room socket without its connection: what it would send the browser."""

    def __init__(self, running: bool = True) -> None:
        self.running, self.shown, self.frames = running, {}, []

    async def send_json(self, content: Any, close: bool = False) -> None:
        self.frames.append(content)


async def test_the_room_socket_sends_a_frame_per_player_of_a_batch() -> None:
    room = Room()
    await room.race_progress_batch({"type": BATCH, "events": [progress(1, 3), progress(2, 1)]})
    assert room.frames == [{"type": "progress", "player": 1, "moves": 3},
                           {"type": "progress", "player": 2, "moves": 1}]  # no version


async def test_the_room_socket_drops_older_figures_and_those_after_the_end() -> None:
    room = Room()
    await room.race_progress(progress(1, 5))  # a REST move, sent at once
    await room.race_progress_batch({"type": BATCH, "events": [progress(1, 4), progress(2, 2)]})
    assert [(frame["player"], frame["moves"]) for frame in room.frames] == [(1, 5), (2, 2)]
    room.running = False  # the room it sent last was the finished race's
    await room.race_progress_batch({"type": BATCH, "events": [progress(1, 6)]})
    assert len(room.frames) == 2


async def test_a_send_from_sync_code_goes_after_the_pending_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from asgiref.sync import sync_to_async

    from game import events

    layer = Layer()
    monkeypatch.setattr(events, "get_channel_layer", lambda: layer)
    batches = coalescer(layer)  # type: ignore[arg-type]
    add(batches, "race.A", 1, 1)
    await asyncio.sleep(0.01)  # sent at once
    add(batches, "race.A", 1, 2)  # pending, an interval off
    # A view's thread (a REST give-up ending the race): its send runs on this loop.
    await sync_to_async(events.send_to_group)("race.A", {"type": "race.room"})
    assert [event["type"] for _, _, event in layer.sent] == [BATCH, BATCH, "race.room"]
    assert layer.batches("race.A") == [[progress(1, 1)], [progress(1, 2)]]
