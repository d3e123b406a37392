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
        self.connections = 0
        self.moves_sent = 0

    def route(self, page_side: Any) -> None:
        self.connections += 1
        server_side = page_side.connect_to_server()
        page_side.on_message(lambda message: self.from_board(message, page_side, server_side))
        server_side.on_message(lambda message: self.from_server(message, page_side, server_side))

    def from_board(self, message: Any, page_side: Any, server_side: Any) -> None:
        if json.loads(message).get("type") == "move":
            self.moves_sent += 1
            if self.armed and self.failure in ("lose-move", "go-silent"):
                self.armed = False
                if self.failure == "lose-move":
                    drop(page_side, server_side)
                return  # the move never reaches the server
        server_side.send(message)

    def from_server(self, message: Any, page_side: Any, server_side: Any) -> None:
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
    page.wait_for_function("document.querySelector('#link').textContent === ''")
    connections = link.connections

    link.armed = True
    page.focus(slot("stock"))
    page.keyboard.press("d")
    wait_moves(page, 1)  # go-silent: after the board's answer timeout
    page.keyboard.press("d")
    wait_moves(page, 2)

    assert played_moves(page) == ["D", "D"]
    assert link.connections > connections  # it did reconnect
    # Sent again only when the server had not applied it.
    expected = {"lose-move": 3, "lose-answer": 2, "go-silent": 3}[failure]
    assert link.moves_sent == expected
