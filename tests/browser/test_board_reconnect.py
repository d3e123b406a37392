"""A flaky connection between the board and the server, made with Playwright's
WebSocket routing in front of the real server: a move lost on the way, an answer
lost on the way back, a socket that goes silent. In each case the board reconnects by
itself and the move is played exactly once."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .board_driver import open_deal, slot, wait_moves


class FlakyLink:
    """Forwards the board's socket to the server, failing once as told."""

    def __init__(self, failure: str) -> None:
        self.failure = failure  # "lose-move", "lose-answer" or "go-silent"
        self.armed = False
        self.blocked = False  # the network is down: every new socket fails at once
        self.muted = False  # states meant for other boards are lost on the way
        self.board_said: list[dict[str, Any]] = []
        self.connections = 0
        self.moves_sent = 0

    def route(self, page_side: Any) -> None:
        self.connections += 1
        if self.blocked:
            page_side.close(code=4002, reason="no network")
            return
        server_side = page_side.connect_to_server()
        page_side.on_message(lambda message: self.from_board(message, page_side, server_side))
        server_side.on_message(lambda message: self.from_server(message, page_side, server_side))

    def from_board(self, message: Any, page_side: Any, server_side: Any) -> None:
        self.board_said.append(json.loads(message))
        if json.loads(message).get("type") == "move":
            self.moves_sent += 1
            if self.armed and self.failure in ("lose-move", "go-silent"):
                self.armed = False
                if self.failure == "lose-move":
                    drop(page_side, server_side)
                return  # the move never reaches the server
        server_side.send(message)

    def from_server(self, message: Any, page_side: Any, server_side: Any) -> None:
        if self.muted and "seq" not in json.loads(message):
            return
        if self.armed and self.failure == "lose-answer" and "seq" in json.loads(message):
            self.armed = False
            drop(page_side, server_side)  # applied, but the board never hears so
            return
        page_side.send(message)


def drop(page_side: Any, server_side: Any) -> None:
    server_side.close()
    page_side.close(code=4001, reason="the network failed")


def played_moves(page: Any) -> list[str]:
    return page.evaluate("""async () => {
        const id = new URLSearchParams(location.search).get('game');
        return (await (await fetch('/api/games/' + id + '/')).json()).state.log;
    }""")


@pytest.mark.parametrize("failure", ["lose-move", "lose-answer", "go-silent"])
def test_a_move_is_played_exactly_once_over_a_flaky_link(page: Any, failure: str) -> None:
    link = FlakyLink(failure)
    page.route_web_socket("**/ws/games/**", link.route)
    open_deal(page, 1)
    page.wait_for_selector("body[data-link='live']", state="attached")
    connections = link.connections

    link.armed = True
    page.focus(slot("stock"))
    page.keyboard.press("d")
    wait_moves(page, 1)  # go-silent: after the board's answer timeout
    page.keyboard.press("d")
    wait_moves(page, 2)

    assert played_moves(page) == ["D", "D"]
    assert link.connections > connections  # it did reconnect
    # Sent again with its version: the server applies it only if it had not already.
    expected = {"lose-move": 3, "lose-answer": 3, "go-silent": 3}[failure]
    assert link.moves_sent == expected


def another_tab(page: Any, path: str, body: dict[str, Any]) -> Any:
    """The same player acting from another tab: a REST call beside the board."""
    return page.evaluate("""async ([path, body]) => {
        const id = new URLSearchParams(location.search).get('game');
        const token = document.cookie.split('; ').find((c) => c.startsWith('csrftoken='));
        const response = await fetch('/api/games/' + id + '/' + path, {
            method: 'POST', credentials: 'same-origin', body: JSON.stringify(body),
            headers: {'Content-Type': 'application/json', 'X-CSRFToken': token.split('=')[1]}});
        return response.status;
    }""", [path, body])


def test_a_lost_move_is_refused_when_another_tab_acted_meanwhile(page: Any) -> None:
    link = FlakyLink("lose-move")
    page.route_web_socket("**/ws/games/**", link.route)
    open_deal(page, 1)
    page.wait_for_selector("body[data-link='live']", state="attached")

    link.armed = link.blocked = True
    page.focus(slot("stock"))
    page.keyboard.press("d")  # lost on the way; the board cannot reconnect yet
    assert another_tab(page, "hint/", {}) == 200  # the game's version moves on
    link.blocked = False

    # Sent again on the version it was meant for: refused, and the board shows the game
    # as it is (the hint counted, no card turned); the next move plays as usual.
    page.wait_for_function("document.body.dataset.link === 'live'")
    page.keyboard.press("d")
    wait_moves(page, 1)
    assert played_moves(page) == ["D"]
    assert link.moves_sent == 3


def test_a_move_made_offline_is_played_once_when_the_network_is_back(page: Any) -> None:
    link = FlakyLink("lose-move")
    page.route_web_socket("**/ws/games/**", link.route)
    open_deal(page, 1)
    page.wait_for_selector("body[data-link='live']", state="attached")
    page.route("**/api/games/**", lambda route: route.abort())

    link.armed = link.blocked = True
    page.focus(slot("stock"))
    page.keyboard.press("d")
    # After a few failed reconnects the board tries REST, which fails too: it says so
    # in words, not the browser's "Failed to fetch", and keeps the move.
    page.wait_for_function("document.querySelector('#link').textContent.startsWith('Offline')")
    assert "Failed to fetch" not in page.inner_text("body")
    page.unroute("**/api/games/**")
    link.blocked = False

    wait_moves(page, 1)  # sent again once the board is back, and played once
    page.wait_for_function("document.body.dataset.link === 'live'")
    page.keyboard.press("d")
    wait_moves(page, 2)
    assert played_moves(page) == ["D", "D"]


def test_a_move_on_a_board_that_missed_a_change_is_refused_and_the_board_catches_up(
    page: Any
) -> None:
    link = FlakyLink("none")
    page.route_web_socket("**/ws/games/**", link.route)
    open_deal(page, 1)
    page.wait_for_selector("body[data-link='live']", state="attached")

    link.muted = True  # the board misses another tab's move
    assert another_tab(page, "moves/", {"move": "D"}) == 200
    page.wait_for_timeout(300)
    link.muted = False
    page.focus(slot("stock"))
    page.keyboard.press("d")  # meant for the game as the board shows it: refused

    wait_moves(page, 1)
    page.wait_for_function(
        "document.querySelector('#message').textContent.includes('another screen')")
    assert played_moves(page) == ["D"]
    assert [said.get("version") for said in link.board_said if said["type"] == "move"] == [0]


def test_a_tab_made_visible_asks_for_the_newest_state(page: Any) -> None:
    link = FlakyLink("none")
    page.route_web_socket("**/ws/games/**", link.route)
    open_deal(page, 1)
    page.wait_for_selector("body[data-link='live']", state="attached")

    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")

    page.wait_for_function("document.body.dataset.link === 'live'")
    page.wait_for_timeout(200)
    assert {"type": "sync"} in link.board_said
