"""Bad input stays a 4xx and changes nothing: page numbers, deep JSON, hint allowances."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.network import network_of
from game.models import Game

from .conftest import Browser

PAGED = [
    "/api/daily/three-card/{day}/board/?page={page}",
    "/api/boards/three-card/wins/?page={page}",
    "/napoleons-tomb/three-card/daily/{day}/?page={page}",
    "/napoleons-tomb/three-card/boards/?board=wins&page={page}",
]
BAD_PAGES = ["²", "٣", "1" * 5000, "0", "-1", "1.5", "", "10001", " 1"]


@pytest.mark.parametrize("page", BAD_PAGES)
def test_a_page_number_must_be_ascii_digits_of_sane_length(
    alice: Browser, screened: Any, page: str
) -> None:
    day = alice.get("/api/daily/three-card/").json()["date"]
    for url in PAGED:
        response = alice.get(url.format(day=day, page=page))
        assert response.status_code == 400, (url, page)
        if url.startswith("/api/"):
            assert "page must be a whole number" in response.json()["error"]


def test_a_body_nested_too_deep_is_a_400_and_changes_nothing(alice: Browser) -> None:
    game = alice.new_game()
    for raw in ("[" * 3000 + "]" * 3000, "[" * 400 + "]" * 400, "[" * 900 + "]" * 900,
                '{"move": ' + "[" * 20 + "]" * 20 + "}",
                '{"a":' * 3000 + "1" + "}" * 3000):
        response = alice.post(f"/api/games/{game['id']}/moves/", raw=raw)
        assert response.status_code == 400
        assert "nested more than 16 levels" in response.json()["error"]
    assert Game.objects.get().version == 0


def test_hints_are_limited_per_address_whatever_the_session(
    screened: Any, settings: Any, db: Any
) -> None:
    # A visitor who drops their cookie is a new player, on the same address.
    settings.HINT_RATE, settings.HINT_ADDRESS_RATE = "5/minute", "3/minute"
    answers = []
    for _ in range(4):
        visitor = Browser(address="198.51.100.7")
        answers.append(visitor.post(f"/api/games/{visitor.new_game()['id']}/hint/"))
    elsewhere = Browser(address="203.0.113.9")

    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    assert int(answers[3].headers["Retry-After"]) > 0
    assert elsewhere.post(f"/api/games/{elsewhere.new_game()['id']}/hint/").status_code == 200
    assert sum(Game.objects.values_list("hints", flat=True)) == 4  # the refused one uncounted


def test_an_ipv6_client_is_counted_by_its_64_whatever_address_it_picks(
    settings: Any, db: Any
) -> None:
    settings.HINT_RATE, settings.HINT_ADDRESS_RATE = "5/minute", "2/minute"
    answers = []
    for host in ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:2:abcd::3"):
        visitor = Browser(address=host)
        answers.append(visitor.post(f"/api/games/{visitor.new_game()['id']}/hint/").status_code)
    other_network = Browser(address="2001:db8:1:3::1")

    assert answers == [200, 200, 429]
    assert other_network.post(
        f"/api/games/{other_network.new_game()['id']}/hint/").status_code == 200
    assert network_of("::ffff:198.51.100.7") == "198.51.100.7"
    assert network_of("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert network_of("not an address") == "not an address"
