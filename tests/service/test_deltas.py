"""Deltas (game.deltas) and the sockets that take them, and the game row's own SQL
(game.rows): what issue 15 changed on the live-play path must give every board the
very game a whole state gives, and carry nothing more."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.forms.models import model_to_dict

from game import actions, rows
from game.deltas import diff, patch
from game.models import Game
from tombsite.asgi import application

from .conftest import Browser
from .lines import winning_line
from .test_consumers import headers, layer, new_game, open_board  # noqa: F401  # fixture

# -- the change format -----------------------------------------------------------


@pytest.mark.parametrize(("before", "after"), [
    ({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2, 3]}),
    ({"a": 1, "b": [1, 2, 3]}, {"a": 2, "b": [1, 2]}),
    ({"a": {"x": [1], "y": None}}, {"a": {"x": [1], "y": "2D"}}),
    ({"a": {"x": 1, "y": 2}}, {"a": {"x": 1}}),
    ({"a": [1, 2]}, {"a": [3]}),
    ({"a": None}, {"a": {"b": 1}, "c": True}),
    ({"a": [1]}, {"a": [1]}),
])
def test_a_change_patched_on_its_base_gives_the_new_value(before: Any, after: Any) -> None:
    change = diff(before, after) or {"{": {}}
    assert patch(before, change) == after


def test_a_patch_leaves_its_base_as_it_was() -> None:
    before = {"piles": {"n": ["2D"], "w": []}, "log": ["D"]}
    kept = {"piles": {"n": ["2D"], "w": []}, "log": ["D"]}
    patch(before, diff(before, {"piles": {"n": [], "w": ["2D"]}, "log": ["D", "C@w"]}) or {})
    assert before == kept


def values_in(change: Any, after: Any) -> list[str]:
    """Where a change carries a value that is not the new payload's at its place."""
    if "=" in change:
        return [] if change["="] == after else [repr(change["="])]
    if "+" in change:
        keep, items = change["+"]
        return [] if after[keep:] == items else [repr(items)]
    wrong = []
    for key, inner in change.get("{", {}).items():
        wrong += values_in(inner, after[key]) if key in after else [key]
    return wrong


def test_over_a_whole_game_each_delta_rebuilds_the_state_and_carries_only_its_values(
    db: Any,
) -> None:
    player = actions.Player(anon_token="deltas")
    rules = Game(variant="three-card").rules
    game = actions.do_create_game(player, rules.variants["three-card"], rules.deal_from_number(2))
    payloads = [game]
    line = winning_line(2)
    for move in line[:30]:
        payloads.append(actions.do_move(game["id"], player, move))
    payloads.append(actions.do_undo(game["id"], player))
    for move in line[29:]:
        payloads.append(actions.do_move(game["id"], player, move))
    assert payloads[-1]["status"] == "won"
    for before, after in itertools.pairwise(payloads):
        change = diff(before, after)
        assert change is not None and "table" not in change["{"]
        assert patch(before, change) == after
        assert values_in(change, after) == []


# -- the sockets -------------------------------------------------------------------


async def open_delta_board(game: dict[str, Any], browser: Browser) -> Any:
    socket = WebsocketCommunicator(
        application, f"/ws/games/{game['id']}/?deltas=1", headers=headers(browser))
    connected, _ = await socket.connect()
    assert connected
    return socket


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_delta_board_holds_what_a_whole_state_board_is_sent(
    alice: Browser, layer: Any  # noqa: F811  # the fixture
) -> None:
    game = await new_game(alice)
    whole = await open_board(game, alice)
    deltas = await open_delta_board(game, alice)
    first = await deltas.receive_json_from()
    assert first["type"] == "state" and first["game"]["table"] == game["table"]
    held = first["game"]
    for seq, message in enumerate([{"type": "move", "move": "D"}] * 3 + [{"type": "undo"}], 1):
        await deltas.send_json_to({**message, "seq": seq})
        reply = await deltas.receive_json_from()
        assert (reply["type"], reply["seq"], reply["base"]) == ("delta", seq, held["version"])
        assert "table" not in reply["game"]["{"]
        held = patch(held, reply["game"])
        sent = await whole.receive_json_from()  # the plain board gets the whole state
        assert sent["type"] == "state" and held == sent["game"]
    await deltas.send_json_to({"type": "sync", "seq": 9})
    synced = await deltas.receive_json_from()
    assert (synced["type"], synced["seq"], synced["game"]) == ("state", 9, held)
    await whole.disconnect()
    await deltas.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_delta_board_is_sent_the_other_boards_moves_as_deltas_on_its_base(
    alice: Browser, layer: Any  # noqa: F811  # the fixture
) -> None:
    game = await new_game(alice)
    acting = await open_board(game, alice)
    watching = await open_delta_board(game, alice)
    held = (await watching.receive_json_from())["game"]
    for seq in (1, 2):
        await acting.send_json_to({"type": "move", "move": "D", "seq": seq})
        answer = await acting.receive_json_from()
        seen = await watching.receive_json_from()
        assert (seen["type"], seen["base"], "seq" in seen) == ("delta", held["version"], False)
        held = patch(held, seen["game"])
        assert held == answer["game"]
    await acting.disconnect()
    await watching.disconnect()


# -- the row's SQL -------------------------------------------------------------------


def test_the_locked_row_is_the_game_the_orm_reads_and_a_save_writes_its_fields(
    db: Any,
) -> None:
    player = actions.Player(anon_token="rows")
    rules = Game(variant="three-card").rules
    made = actions.do_create_game(player, rules.variants["three-card"], rules.deal_from_number(2))
    actions.do_move(made["id"], player, "D")
    found = rows.lock(Game.objects.get(pk=made["id"]).pk)
    assert found is not None
    assert model_to_dict(found) == model_to_dict(Game.objects.get(pk=made["id"]))
    assert (found.created_at, found.updated_at, found.started_at) == (
        Game.objects.values_list("created_at", "updated_at", "started_at").get(pk=made["id"]))
    found.log, found.moves, found.version = "D D", 2, 7
    rows.save(found, ("log", "moves", "version"))
    assert Game.objects.values_list("log", "moves", "version").get(pk=made["id"]) == ("D D", 2, 7)


def test_no_row_is_no_game(db: Any) -> None:
    assert rows.lock(Game(variant="three-card").pk) is None
    with pytest.raises(actions.GameNotFound):
        actions.do_move(str(Game(variant="three-card").pk), actions.Player(anon_token="x"), "D")

