"""The live field over /ws/daily/<variant>/: progress of every ranked player, no card."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from leaderboards import consumers
from leaderboards.days import today
from leaderboards.preparing import todays_daily
from patience.tomb import THREE_CARD
from tombsite.asgi import application

from .conftest import HUMAN_PACE_S, Browser, Clock
from .lines import seeded_line
from .secrecy import StockWatch
from .test_consumers import headers

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def quick_syncs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(consumers.FieldConsumer, "SYNC_INTERVAL", 0.0)


async def watch_field(browser: Browser | None = None, variant: str = "three-card") -> Any:
    socket = WebsocketCommunicator(application, f"/ws/daily/{variant}/", headers=headers(browser))
    connected, _ = await socket.connect()
    assert connected
    return socket


async def test_the_field_shows_each_ranked_players_progress_live(
    carol_browser: Browser, alice: Browser, solver_screened: None, clock: Clock
) -> None:
    daily = await sync_to_async(todays_daily)(THREE_CARD)
    watch = StockWatch(daily.deal())
    socket = await watch_field(alice)
    first = await socket.receive_from()
    watch.check(first)
    assert json.loads(first) == {"type": "field", "date": today().isoformat(),
                                 "variant": "three-card", "card_count": 52, "entries": []}

    game = (await sync_to_async(carol_browser.post)("/api/daily/three-card/play/")).json()
    joined = json.loads(await socket.receive_from())
    assert joined["entry"]["player"] == "carol" and joined["entry"]["home"] == 0

    for move in seeded_line(daily.seed):
        home_before = watch.position.home
        clock.tick(HUMAN_PACE_S)  # a machine-speed win would be held for review
        await sync_to_async(carol_browser.move)(game["id"], move)
        watch.played(move)
        if watch.position.home != home_before:  # only progress is sent
            text = await socket.receive_from()
            watch.check(text)
            entry = json.loads(text)["entry"]
            assert entry["home"] == watch.position.home
        assert await socket.receive_nothing(timeout=0.01)

    assert entry == {**entry, "player": "carol", "home": 52, "status": "won", "finished": True}
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    picture = json.loads(await socket.receive_from())
    assert [row["status"] for row in picture["entries"]] == ["won"]
    await socket.disconnect()
    await get_channel_layer().flush()


async def test_the_field_ignores_garbage_and_rate_limits_syncs(solver_screened: None) -> None:
    await sync_to_async(todays_daily)(THREE_CARD)
    socket = await watch_field()
    await socket.receive_from()

    await socket.send_to(text_data="not json")  # ignored, the socket stays open
    await socket.send_to(text_data="[" * 3000 + "]" * 3000)  # too deep: ignored too
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    assert json.loads(await socket.receive_from())["entries"] == []
    consumers.FieldConsumer.SYNC_INTERVAL = 60.0  # (restored by the fixture) syncs are rate-limited
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    assert await socket.receive_nothing(timeout=0.1)
    await socket.disconnect()


async def test_an_unknown_variant_has_no_field(db: Any) -> None:
    socket = WebsocketCommunicator(application, "/ws/daily/freecell/", headers=headers(None))
    connected, _ = await socket.connect()
    assert not connected
